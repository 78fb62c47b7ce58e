//! Per-queue statistics of a dual-queue hop (DualPI2, RFC 9332): the
//! sojourn times of the packets that left the L and the C queue, and the
//! marks and drops each queue's packets took.

use super::Histogram;
use crate::kernel::Nanos;
use crate::net::Lane;

/// The series columns a dual-queue hop adds, after the scheme's probes.
pub const COLUMNS: &[(&str, &str)] =
    &[("l_sojourn_ms", "ms"), ("c_sojourn_ms", "ms"), ("p_prime", ""), ("p_c", ""), ("p_l", "")];

/// The probes whose values at the sample time fill the `p_*` columns.
pub const PROBES: [&str; 3] = ["p_prime", "p_c", "p_l"];

/// Sojourn statistics of one of the two queues.
#[derive(Clone, Debug, Default)]
struct LaneStats {
    /// Window distribution.
    sojourn: Histogram,
    interval_sum_ns: u64,
    interval_departures: u64,
}

impl LaneStats {
    /// Mean sojourn (ms) of the interval's departures, 0 without any; resets the interval.
    fn take_interval_mean_ms(&mut self) -> f64 {
        let mean = if self.interval_departures == 0 {
            0.0
        } else {
            self.interval_sum_ns as f64 / self.interval_departures as f64 / 1e6
        };
        self.interval_sum_ns = 0;
        self.interval_departures = 0;
        mean
    }
}

/// One dual-queue hop's counters.
#[derive(Clone, Debug, Default)]
pub struct DualQueueStats {
    l: LaneStats,
    c: LaneStats,
    /// Window counts.
    pub l_marks: u64,
    pub c_marks: u64,
    pub c_drops: u64,
}

impl DualQueueStats {
    fn lane(&mut self, lane: Lane) -> Option<&mut LaneStats> {
        match lane {
            Lane::L4s => Some(&mut self.l),
            Lane::Classic => Some(&mut self.c),
            Lane::Single => None,
        }
    }

    pub fn on_departure(&mut self, lane: Lane, delay: Nanos, inside: bool) {
        if let Some(s) = self.lane(lane) {
            s.interval_sum_ns += delay;
            s.interval_departures += 1;
            if inside {
                s.sojourn.record(delay);
            }
        }
    }

    /// A mark in the window.
    pub fn on_mark(&mut self, lane: Lane) {
        match lane {
            Lane::L4s => self.l_marks += 1,
            Lane::Classic => self.c_marks += 1,
            Lane::Single => {}
        }
    }

    /// A drop in the window, whatever the reason.
    pub fn on_drop(&mut self, lane: Lane) {
        if lane == Lane::Classic {
            self.c_drops += 1;
        }
    }

    /// The interval means of both queues' sojourns (ms), L first; resets the interval.
    pub fn take_interval_means_ms(&mut self) -> [f64; 2] {
        [self.l.take_interval_mean_ms(), self.c.take_interval_mean_ms()]
    }

    pub fn summary(&self) -> DualQueueSummary {
        DualQueueSummary {
            l_sojourn_ms: SojournSummary::of(&self.l.sojourn),
            c_sojourn_ms: SojournSummary::of(&self.c.sojourn),
            l_marks: self.l_marks,
            c_marks: self.c_marks,
            c_drops: self.c_drops,
        }
    }
}

/// Mean and 99th percentile of a queue's sojourn times in the window, in ms.
#[derive(Clone, Debug, serde::Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SojournSummary {
    pub mean: f64,
    pub p99: f64,
}

impl SojournSummary {
    /// None without departures.
    fn of(h: &Histogram) -> Option<SojournSummary> {
        (h.count() > 0).then(|| SojournSummary { mean: h.mean() / 1e6, p99: h.quantile(0.99) / 1e6 })
    }
}

/// A dual-queue hop's per-queue summary (RFC 9332's L and C queues).
#[derive(Clone, Debug, serde::Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct DualQueueSummary {
    /// Null when no packet left the L queue in the window.
    pub l_sojourn_ms: Option<SojournSummary>,
    pub c_sojourn_ms: Option<SojournSummary>,
    /// CE marks on packets of the L queue in the window.
    pub l_marks: u64,
    /// CE marks on packets of the C queue in the window.
    pub c_marks: u64,
    /// Packets of the C queue dropped in the window (early and at the tail).
    pub c_drops: u64,
}
