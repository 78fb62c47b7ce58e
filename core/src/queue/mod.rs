//! Queue schemes. Each scheme is one file behind the [`Qdisc`] trait that
//! declares itself and its parameters with [`scheme`]'s types; the
//! [`registry`] lists the schemes and builds the catalogue.
//!
//! A scheme sees packets, the time, its own RNG stream and the wake-ups it
//! asked for, nothing else. It enforces the buffer's hard limit itself
//! because schemes differ in *which* packet they drop when full.

pub mod afpft;
pub mod ared;
pub mod bare;
pub mod blue;
pub mod cake;
pub mod choke;
pub mod cobalt;
pub mod codel;
pub mod csfq;
pub mod decision;
pub mod droptail;
pub mod drr;
pub mod dsred;
pub mod dualpi2;
pub mod estimator;
mod fifo;
pub mod fq_cobalt;
pub mod fq_codel;
pub mod fq_pie;
pub mod fq_scheme;
pub mod fred;
pub mod markov;
pub mod nlred;
pub mod pie;
pub mod prelude;
pub mod red;
pub mod registry;
pub mod rem;
pub mod rqrd;
pub mod scheme;
pub mod sfred;
#[cfg(test)]
pub mod testing;

use crate::kernel::{Nanos, Rng};
use crate::net::{Ecn, Packet};

pub(crate) use fifo::fifo_lengths;
pub use fifo::Fifo;
pub use registry::{catalogue, find_scheme};
pub use scheme::SchemeInfo;

/// Why a packet was dropped (docs/scenario-format.md summary `drops.by_reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// A probabilistic (random early) drop below the hard limit.
    Early,
    /// A deterministic drop by the scheme's rule, e.g. RED above max_th.
    Forced,
    /// The buffer was full.
    Overflow,
}

impl DropReason {
    pub const ALL: [DropReason; 3] = [DropReason::Early, DropReason::Forced, DropReason::Overflow];

    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Early => "early",
            DropReason::Forced => "forced",
            DropReason::Overflow => "overflow",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// The bottleneck buffer's hard limit, in the unit the scenario gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

impl Limit {
    /// Would `len` (packets, bytes) plus one packet of `size` exceed the limit?
    pub fn exceeded_by(self, len_packets: usize, len_bytes: u64, size: u32) -> bool {
        match self {
            Limit::Packets(n) => len_packets as u64 + 1 > n,
            Limit::Bytes(n) => len_bytes + size as u64 > n,
        }
    }

    /// The queue length in this limit's unit (for thresholds "in the buffer's unit").
    pub fn measure(self, len_packets: usize, len_bytes: u64) -> f64 {
        match self {
            Limit::Packets(_) => len_packets as f64,
            Limit::Bytes(_) => len_bytes as f64,
        }
    }

    pub fn capacity(self) -> u64 {
        match self {
            Limit::Packets(n) | Limit::Bytes(n) => n,
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Limit::Packets(_) => "packets",
            Limit::Bytes(_) => "bytes",
        }
    }
}

/// What a scheme may know about where it sits.
#[derive(Clone, Copy, Debug)]
pub struct QueueSetup<'a> {
    pub limit: Limit,
    pub link_rate_bps: u64,
    /// The hosts of each scenario flow, by a packet's `owner`; empty outside
    /// a simulation (a scheme then treats each flow as its own hosts).
    pub hosts: &'a [FlowHosts],
}

/// The IPv4 addresses of a scenario flow's sender and receiver, in the
/// addressing plan (`net::sender_addr`): what a scheme that isolates hosts
/// (CAKE) hashes. Forward packets go sender → receiver, reverse ones back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowHosts {
    pub sender: u32,
    pub receiver: u32,
}

/// What happened inside a scheme during one call, for the port to act on.
#[derive(Default)]
pub struct QueueOutcome {
    pub drops: Vec<(Packet, DropReason)>,
    pub marks: Vec<Packet>,
    pub wake_at: Option<Nanos>,
    /// The inspector's records, while recording is on ([`decision`]).
    pub decisions: Option<Box<decision::DecisionTap>>,
}

/// The scheme's view of the world during one call.
pub struct QueueCtx<'a> {
    pub now: Nanos,
    pub rng: &'a mut Rng,
    pub(crate) out: &'a mut QueueOutcome,
}

impl<'a> QueueCtx<'a> {
    pub fn new(now: Nanos, rng: &'a mut Rng, out: &'a mut QueueOutcome) -> Self {
        QueueCtx { now, rng, out }
    }

    /// Drop `pkt` for `reason`; the packet leaves the network here.
    pub fn drop(&mut self, pkt: Packet, reason: DropReason) {
        if let Some(tap) = self.out.decisions.as_deref_mut() {
            tap.verdict(self.now, &pkt, decision::Verdict::Drop, reason);
        }
        self.out.drops.push((pkt, reason));
    }

    /// Whether the inspector records decisions: only then should a scheme
    /// gather its state for [`Self::note`].
    pub fn recording(&self) -> bool {
        self.out.decisions.is_some()
    }

    /// The scheme's state (its [`Qdisc::decision_fields`], in order) as it
    /// decides about `pkt`, just before the verdict; a note no drop or mark
    /// takes is the packet's pass. Does nothing while recording is off.
    pub fn note(&mut self, pkt: &Packet, values: &[f64]) {
        if let Some(tap) = self.out.decisions.as_deref_mut() {
            tap.note(pkt, values);
        }
    }

    /// Signal congestion on `pkt`: mark it CE when `ecn` is on and the packet
    /// is ECN-capable (RFC 3168 §5), otherwise drop it. Returns the packet
    /// when it was marked and should still be queued.
    pub fn drop_or_mark(&mut self, mut pkt: Packet, reason: DropReason, ecn: bool) -> Option<Packet> {
        if ecn && pkt.ecn_capable() {
            pkt.ecn = Ecn::Ce;
            if let Some(tap) = self.out.decisions.as_deref_mut() {
                tap.verdict(self.now, &pkt, decision::Verdict::Mark, reason);
            }
            self.out.marks.push(pkt.clone());
            Some(pkt)
        } else {
            self.drop(pkt, reason);
            None
        }
    }

    /// Ask to be woken (via [`Qdisc::on_wake`]) at `at`. The earliest request
    /// of a call wins, and each call that asks schedules one wake-up event:
    /// keep your own deadline and ask only when arming it. A scheme must
    /// tolerate early or spurious wake-ups.
    pub fn wake_at(&mut self, at: Nanos) {
        self.out.wake_at = Some(self.out.wake_at.map_or(at, |w| w.min(at)));
    }
}

/// What a parameter's or probe's value means, beyond its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ParamKind {
    /// A quantity in `unit`.
    Number,
    /// Off (0) or on (1); read it with [`switch_on`].
    Switch,
    /// A queue length in the scenario's buffer unit (packets or bytes), e.g.
    /// RED's thresholds: the catalogue resolves `unit` and, for bytes, scales
    /// the range by [`BUFFER_UNIT_PACKET_BYTES`].
    Buffer,
    /// A queueing delay the scheme steers to, in ms (CoDel's and PIE's
    /// target): the page draws it on the queue chart's delay axis.
    Delay,
}

/// A switch parameter's value as a bool. Switches range over 0..1 in steps
/// of 1; anything from one half up counts as on.
pub fn switch_on(value: f64) -> bool {
    value >= 0.5
}

/// One tunable of a scheme, as the catalogue and the UI sliders show it.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ParamSpec {
    pub id: &'static str,
    pub label: &'static str,
    pub kind: ParamKind,
    /// The unit shown beside the value: display text only, [`Self::kind`]
    /// carries the meaning.
    pub unit: &'static str,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub default: f64,
    pub doc: &'static str,
}

/// A refused parameter: the offending parameter id and why. Range checks,
/// cross-checks between parameters and unknown ids all report this.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    pub param: String,
    pub message: String,
}

impl ParamError {
    pub fn new(param: &str, message: impl Into<String>) -> ParamError {
        ParamError { param: param.to_string(), message: message.into() }
    }

    /// `id` is not one of the scheme's parameters.
    pub fn unknown(id: &str) -> ParamError {
        ParamError::new(id, "is not a parameter of this scheme")
    }
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "queue.params.{}: {}", self.param, self.message)
    }
}

impl std::error::Error for ParamError {}

/// The ECN switch of every scheme that can mark instead of drop; a scheme
/// rewords the doc or changes the default where its own rule differs.
pub const ECN_PARAM: ParamSpec =
    ParamSpec::switch("ECN marking", false, "Mark ECN-capable packets instead of dropping them.").with_id("ecn");

/// Bytes per packet used to scale "buffer"-unit defaults and ranges when a
/// scenario's buffer is given in bytes.
pub const BUFFER_UNIT_PACKET_BYTES: f64 = 1000.0;

impl ParamSpec {
    /// An on/off parameter: 0 or 1, read with [`switch_on`].
    pub const fn switch(label: &'static str, on: bool, doc: &'static str) -> ParamSpec {
        ParamSpec {
            id: "",
            label,
            kind: ParamKind::Switch,
            unit: "on/off",
            min: 0.0,
            max: 1.0,
            step: 1.0,
            default: if on { 1.0 } else { 0.0 },
            doc,
        }
    }

    /// The parameter under `id`, for lists written out of
    /// [`scheme_params!`](crate::scheme_params) (the RED family's shared parameters).
    pub const fn with_id(self, id: &'static str) -> ParamSpec {
        ParamSpec { id, ..self }
    }

    /// A quantity in `unit` ("" for a plain number), declared inside
    /// [`scheme_params!`](crate::scheme_params), which gives it its id.
    pub const fn number(
        label: &'static str,
        unit: &'static str,
        range: std::ops::RangeInclusive<f64>,
        step: f64,
        default: f64,
        doc: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            id: "",
            label,
            kind: ParamKind::Number,
            unit,
            min: *range.start(),
            max: *range.end(),
            step,
            default,
            doc,
        }
    }

    /// A queue length in the buffer's unit ([`ParamKind::Buffer`]): range,
    /// step and default in packets, scaled for a buffer in bytes.
    pub const fn buffer(
        label: &'static str,
        range: std::ops::RangeInclusive<f64>,
        step: f64,
        default: f64,
        doc: &'static str,
    ) -> ParamSpec {
        ParamSpec { kind: ParamKind::Buffer, unit: "buffer", ..ParamSpec::number(label, "", range, step, default, doc) }
    }

    /// A queueing-delay target in ms ([`ParamKind::Delay`]), declared inside
    /// [`scheme_params!`](crate::scheme_params).
    pub const fn delay(
        label: &'static str,
        range: std::ops::RangeInclusive<f64>,
        step: f64,
        default: f64,
        doc: &'static str,
    ) -> ParamSpec {
        ParamSpec { kind: ParamKind::Delay, ..ParamSpec::number(label, "ms", range, step, default, doc) }
    }

    /// The same parameter with another default (a scheme's own paper value).
    pub const fn with_default(self, default: f64) -> ParamSpec {
        ParamSpec { default, ..self }
    }

    /// The same parameter with another doc line.
    pub const fn with_doc(self, doc: &'static str) -> ParamSpec {
        ParamSpec { doc, ..self }
    }

    /// The spec as it applies to a buffer of `limit`'s unit.
    pub fn for_limit(&self, limit: Limit) -> ParamSpec {
        if self.kind != ParamKind::Buffer {
            return *self;
        }
        match limit {
            Limit::Packets(_) => ParamSpec { unit: "packets", ..*self },
            Limit::Bytes(_) => ParamSpec {
                unit: "bytes",
                min: self.min * BUFFER_UNIT_PACKET_BYTES,
                max: self.max * BUFFER_UNIT_PACKET_BYTES,
                step: self.step * BUFFER_UNIT_PACKET_BYTES,
                default: self.default * BUFFER_UNIT_PACKET_BYTES,
                ..*self
            },
        }
    }

    /// `value` if it is finite and within [min, max].
    pub fn check(&self, value: f64) -> Result<f64, ParamError> {
        if !value.is_finite() {
            return Err(ParamError::new(self.id, format!("must be a finite number, got {value}")));
        }
        if value < self.min || value > self.max {
            let message = format!("{value} is outside [{}, {}] {}", self.min, self.max, self.unit);
            return Err(ParamError::new(self.id, message.trim_end()));
        }
        Ok(value)
    }
}

/// A value the scheme exposes for charts (sampled every interval).
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ProbeSpec {
    pub id: &'static str,
    pub label: &'static str,
    pub kind: ParamKind,
    /// Display text; [`Self::kind`] carries the meaning ("buffer" for
    /// [`ParamKind::Buffer`] probes, whose unit is the scenario's buffer unit).
    pub unit: &'static str,
}

impl ProbeSpec {
    /// A quantity in `unit` ("" for a plain number).
    pub const fn number(id: &'static str, label: &'static str, unit: &'static str) -> ProbeSpec {
        ProbeSpec { id, label, kind: ParamKind::Number, unit }
    }

    /// A queue length in the buffer's unit, drawn on the queue chart.
    pub const fn buffer(id: &'static str, label: &'static str) -> ProbeSpec {
        ProbeSpec { id, label, kind: ParamKind::Buffer, unit: "buffer" }
    }

    /// On (1) or off (0).
    pub const fn switch(id: &'static str, label: &'static str) -> ProbeSpec {
        ProbeSpec { id, label, kind: ParamKind::Switch, unit: "on/off" }
    }
}

/// Where a scheme writes its probe readings: each value together with its
/// probe id, into the columns of the scheme's [`SchemeInfo::probes`].
pub struct ProbeSink<'a> {
    specs: &'static [ProbeSpec],
    values: &'a mut [f64],
}

impl<'a> ProbeSink<'a> {
    /// `values` has one slot per spec, in spec order.
    pub fn new(specs: &'static [ProbeSpec], values: &'a mut [f64]) -> Self {
        debug_assert_eq!(specs.len(), values.len());
        ProbeSink { specs, values }
    }

    /// Record probe `id`. An id the scheme does not declare is a bug in the
    /// scheme (each scheme's tests probe it); release builds ignore it.
    pub fn put(&mut self, id: &str, value: f64) {
        match self.specs.iter().position(|p| p.id == id) {
            Some(i) => self.values[i] = value,
            None => debug_assert!(false, "probe `{id}` is not declared"),
        }
    }
}

/// A scheme's drop (or mark) probability as a function of its control
/// variable, with the current operating point, for the UI to draw.
#[derive(Clone, Debug, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct DropCurve {
    pub x_label: &'static str,
    pub x_unit: &'static str,
    pub points: Vec<[f64; 2]>,
    pub operating_point: [f64; 2],
}

/// A queue discipline.
pub trait Qdisc {
    /// Offer an arriving packet: queue it, or drop it (or another packet)
    /// through `ctx`.
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx);
    /// The next packet to transmit, if any. May drop packets through `ctx`.
    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet>;
    fn len_packets(&self) -> usize;
    fn len_bytes(&self) -> u64;
    /// Change a parameter mid-run. `value` has been range-checked against the
    /// catalogue (read switches with [`switch_on`]); an id that is not one of
    /// the scheme's own is an error.
    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError>;
    /// Current values of the probes, each [`ProbeSink::put`] with its id.
    fn probe(&self, out: &mut ProbeSink);
    fn drop_curve(&self) -> Option<DropCurve> {
        None
    }
    /// A wake-up the scheme asked for with [`QueueCtx::wake_at`] is due.
    fn on_wake(&mut self, _ctx: &mut QueueCtx) {}
    /// The state its decisions record with [`QueueCtx::note`] (none by
    /// default: drops then carry only their reason).
    fn decision_fields(&self) -> &'static [decision::FieldSpec] {
        &[]
    }
}
