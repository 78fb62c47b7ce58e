//! The scenario's numeric ranges, each declared once: the schema states it
//! (`#[schemars(range(min = X.min, max = X.max))]` on the field) and the plan
//! checks it (`within(path, v, X)`). An integer bound stays an integer so
//! that the schema prints it as declared.

/// A field's range [min, max].
#[derive(Clone, Copy, Debug)]
pub struct Bounds<Lo, Hi> {
    pub min: Lo,
    pub max: Hi,
}

/// A bound as the plan compares it.
pub trait Bound: Copy {
    fn value(self) -> f64;
}

impl Bound for f64 {
    fn value(self) -> f64 {
        self
    }
}

impl Bound for u64 {
    fn value(self) -> f64 {
        self as f64
    }
}

impl<Lo: Bound, Hi: Bound> Bounds<Lo, Hi> {
    pub fn lo(self) -> f64 {
        self.min.value()
    }

    pub fn hi(self) -> f64 {
        self.max.value()
    }
}

/// Above 0 and at most `max`: the plan checks `> 0`; a schema has no open
/// bound in its `range`, so it states this smallest value instead.
const fn above_zero<Hi>(max: Hi) -> Bounds<f64, Hi> {
    Bounds { min: 0.000001, max }
}

pub const MAX_DURATION_S: u64 = 100_000;
pub const MAX_FLOWS: u64 = 10_000;

pub const DURATION_S: Bounds<f64, u64> = above_zero(MAX_DURATION_S);
pub const MEASURE_FROM_S: Bounds<u64, u64> = Bounds { min: 0, max: MAX_DURATION_S };
pub const SAMPLE_INTERVAL_MS: Bounds<f64, u64> = Bounds { min: 0.1, max: 60_000 };
pub const COV_INTERVAL_MS: Bounds<u64, u64> = Bounds { min: 1, max: 3_600_000 };
pub const HOPS: Bounds<u64, u64> = Bounds { min: 1, max: 32 };
/// A link's rate, and a group's access rate.
pub const LINK_RATE_BPS: Bounds<u64, f64> = Bounds { min: 1000, max: 1e12 };
pub const DELAY_MS: Bounds<u64, u64> = Bounds { min: 0, max: 10_000 };
/// An access link's jitter, and a group's.
pub const JITTER_MS: Bounds<u64, u64> = Bounds { min: 0, max: 10_000 };
/// Below the access ports' own Drop Tail limit, so the host queue is what drops.
pub const HOST_QUEUE_PACKETS: Bounds<u64, u64> = Bounds { min: 1, max: 50_000 };
pub const BUFFER_PACKETS: Bounds<u64, u64> = Bounds { min: 1, max: 1_000_000 };
pub const BUFFER_BYTES: Bounds<u64, f64> = Bounds { min: 64, max: 1e10 };
pub const COUNT: Bounds<u64, u64> = Bounds { min: 1, max: MAX_FLOWS };
pub const STOP_S: Bounds<u64, u64> = Bounds { min: 0, max: MAX_DURATION_S };
pub const WEIGHT: Bounds<f64, u64> = above_zero(1000);
pub const DROP_PRECEDENCE: Bounds<u64, u64> = Bounds { min: 0, max: 1 };
pub const SEGMENT_BYTES: Bounds<u64, u64> = Bounds { min: 64, max: 65_495 };
pub const MIN_RTO_MS: Bounds<u64, u64> = Bounds { min: 1, max: 60_000 };
pub const INITIAL_CWND_PACKETS: Bounds<u64, u64> = Bounds { min: 1, max: 1000 };
pub const RWND_PACKETS: Bounds<u64, u64> = Bounds { min: 1, max: 1_000_000 };
/// A UDP source's rate, and ON/OFF's peak rate.
pub const SOURCE_RATE_BPS: Bounds<f64, f64> = above_zero(1e12);
pub const PACKET_BYTES: Bounds<u64, u64> = Bounds { min: 1, max: 65_507 };
pub const BURST_GSD: Bounds<u64, u64> = Bounds { min: 1, max: 100 };
pub const BURST_INTERVAL_MS: Bounds<f64, u64> = Bounds { min: 0.01, max: 60_000 };
/// ON/OFF's mean ON and OFF times.
pub const ON_OFF_MEAN_S: Bounds<f64, u64> = above_zero(3600);
pub const SESSIONS_PER_S: Bounds<f64, u64> = above_zero(100_000);
pub const MEAN_BYTES: Bounds<u64, f64> = Bounds { min: 1, max: 1e12 };
pub const PARETO_SHAPE: Bounds<f64, u64> = Bounds { min: 1.01, max: 10 };
pub const FETCH_PACKETS: Bounds<u64, u64> = Bounds { min: 1, max: 1_000_000 };
/// A ping's gap between echo requests.
pub const PING_INTERVAL_MS: Bounds<f64, u64> = above_zero(60_000);
/// A ping's ICMP message (8-byte header and data; the wire adds 20): within
/// `PACKET_BYTES`, the range the schema states for the shared key.
pub const PING_PACKET_BYTES: Bounds<u64, u64> = Bounds { min: 8, max: 65_507 };
/// Entries of an inline mahimahi trace: a share link of the longest, with
/// entries as hard to compress as any (random, up to the largest allowed),
/// still fits the page's link limit (web/src/scenario/codec.ts and its test).
pub const MAX_TRACE_OPPORTUNITIES: usize = 5000;
/// Steps of a generated step trace.
pub const MAX_TRACE_STEPS: usize = 1000;
/// A random walk's step.
pub const TRACE_STEP_MS: Bounds<u64, u64> = Bounds { min: 1, max: 3_600_000 };
/// A random walk's log-rate standard deviation per step.
pub const TRACE_SIGMA: Bounds<u64, u64> = Bounds { min: 0, max: 5 };
