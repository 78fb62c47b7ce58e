//! RED — Random Early Detection (Floyd & Jacobson 1993, §4 and Fig. 2).
//!
//! On every arrival:
//!   avg ← (1−w_q)·avg + w_q·q            (queue busy)
//!   avg ← (1−w_q)^m·avg, m = idle/s      (queue was idle; s = one packet's tx time)
//!   min_th ≤ avg < max_th: p_b = max_p·(avg−min_th)/(max_th−min_th)
//!       wait on:  p_a = 0 while count·p_b < 1, then p_b / (2 − count·p_b)
//!       wait off: p_a = p_b / (1 − count·p_b)
//!       byte mode: count ← ⌊bytes since the last drop / mean_packet_bytes⌋
//!                  for the spacing, then p_a ← p_a·size/mean_packet_bytes
//!       drop (or ECN-mark) with probability p_a
//!   avg ≥ max_th: drop                   (gentle: p_b rises linearly from
//!       max_p to 1 between max_th and 2·max_th, and only ≥ 2·max_th forces)
//! `count` is the number of arrivals since the last drop, which spaces drops
//! out evenly (§7). `wait` (on by default) is ns-2's red.cc rule with
//! `wait_` on, which ns-3's RED also runs by default and the papers' ns-2
//! runs used: at least 1/p_b arrivals between drops, so a fixed p_b drops
//! about p_b/1.5 of arrivals instead of the paper's 2·p_b (see [`CountRule`]).
//! Byte mode by default reads as ns-2's red.cc (`bytes_`) and ns-3's
//! RedQueueDisc in byte mode run it, because the papers' results come from
//! ns-2 (as `wait`); `fj_byte_mode` gives Floyd & Jacobson's Fig. 2 instead:
//! p_b ← p_b·size/max_packet_bytes before the spacing, count in packets
//! (see [`ByteRule`]).
//! Thresholds are in the buffer's unit (packets or bytes).
//! min_th = max_th = K is DCTCP's step marker (RFC 8257 §3.1; ns-3's RED
//! with `UseHardDrop` off): nothing happens below K, and at avg ≥ K an
//! ECN-capable arrival is marked CE (`ecn` on) and any other one dropped as
//! forced. With w_q = 1, avg is the queue each arrival finds.
//! Defaults: min_th 5, max_th 15 and w_q 0.002 as in the paper's simulations;
//! max_p 0.1 as Floyd later recommended and ns-2 uses (the paper ran 1/50).

use super::prelude::*;
use super::switch_on;
use crate::kernel::tx_time_ns;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "red",
    name: "RED",
    paper: "Floyd & Jacobson, Random Early Detection Gateways for Congestion Avoidance, IEEE/ACM ToN 1993",
    summary: "Drops arrivals with a probability that grows with the averaged queue length.",
    params: PARAMS,
    probes: PROBES,
    build,
    cross_check: cross_check_allowing_a_step,
    model: Some(theory),
};

// What RedScheme::probe_into writes by default; the family's average queue
// and drop probability are the same probes everywhere.
pub(crate) const AVG_PROBE: ProbeSpec = ProbeSpec::buffer("avg", "average queue");
pub(crate) const P_B_PROBE: ProbeSpec = ProbeSpec::number("p_b", "drop probability p_b", "");
pub(crate) const PROBES: &[ProbeSpec] =
    &[AVG_PROBE, P_B_PROBE, ProbeSpec::number("count", "arrivals since last drop", "packets")];

// The RED family (ARED, NLRED, DSRED, FRED, SFRED, CHOKe, and BARE's w_q) reuses these,
// overriding a default or a doc where its own paper differs.
pub(crate) const MIN_TH: ParamSpec =
    ParamSpec::buffer("min threshold", 0.0..=5000.0, 1.0, 5.0, "Below this average queue nothing is dropped early.")
        .with_id("min_th");
pub(crate) const MAX_TH: ParamSpec = ParamSpec::buffer(
    "max threshold",
    1.0..=10000.0,
    1.0,
    15.0,
    "At this average queue the early-drop probability reaches max_p.",
)
.with_id("max_th");
pub(crate) const MAX_P: ParamSpec =
    ParamSpec::number("max drop probability", "", 0.0..=1.0, 0.005, 0.1, "Drop probability at max_th.")
        .with_id("max_p");
pub(crate) const W_Q: ParamSpec = ParamSpec::number(
    "queue weight w_q",
    "",
    0.0001..=1.0,
    0.0001,
    0.002,
    "EWMA weight of the instantaneous queue in the average; small = long memory.",
)
.with_id("w_q");
pub(crate) const GENTLE: ParamSpec = ParamSpec::switch(
    "gentle mode",
    false,
    "Ramp from max_p to 1 between max_th and 2·max_th instead of jumping to 1.",
)
.with_id("gentle");
pub(crate) const WAIT: ParamSpec = ParamSpec::switch(
    "wait between drops",
    true,
    "ns-2/ns-3's count rule: no early drop until count·p_b ≥ 1, then p_b/(2 − count·p_b). Off: Floyd & Jacobson's p_b/(1 − count·p_b).",
)
.with_id("wait");
pub(crate) const BYTE_MODE: ParamSpec = ParamSpec::switch(
    "byte mode",
    false,
    "Weigh arrivals by size, as ns-2/ns-3: count in packets of mean_packet_bytes, then p_a·size/mean_packet_bytes.",
)
.with_id("byte_mode");
pub(crate) const FJ_BYTE_MODE: ParamSpec = ParamSpec::switch(
    "F&J byte mode",
    false,
    "Byte mode as Floyd & Jacobson wrote it: p_b·size/max_packet_bytes before the count spacing, count in packets.",
)
.with_id("fj_byte_mode");
pub(crate) const MAX_PACKET_BYTES: ParamSpec = ParamSpec::number(
    "max packet size",
    "bytes",
    40.0..=65535.0,
    1.0,
    1500.0,
    "Packet size at which Floyd & Jacobson's byte mode uses the full p_b.",
)
.with_id("max_packet_bytes");
pub(crate) const MEAN_PACKET_BYTES: ParamSpec = ParamSpec::number(
    "typical packet size",
    "bytes",
    40.0..=65535.0,
    1.0,
    1000.0,
    "Sets s, the time to send one packet, for decaying avg over idle periods.",
)
.with_id("mean_packet_bytes");
pub(crate) const ECN: ParamSpec =
    ParamSpec { doc: "Mark ECN-capable packets instead of dropping them early.", ..ECN_PARAM };

pub(crate) const PARAMS: &[ParamSpec] =
    &[MIN_TH, MAX_TH, MAX_P, W_Q, GENTLE, WAIT, BYTE_MODE, MAX_PACKET_BYTES, MEAN_PACKET_BYTES, ECN, FJ_BYTE_MODE];

pub(crate) fn cross_check(p: &ParamValues) -> Result<(), ParamError> {
    if p.get("max_th") <= p.get("min_th") {
        return Err(ParamError::new("max_th", format!("must exceed min_th ({})", p.get("min_th"))));
    }
    Ok(())
}

/// RED's own check: [`cross_check`], or equal thresholds for a step
/// marker, which has no ramp for gentle mode to extend and no early-drop
/// probability for byte mode to scale.
fn cross_check_allowing_a_step(p: &ParamValues) -> Result<(), ParamError> {
    if p.get("max_th") != p.get("min_th") {
        return cross_check(p).map_err(|_| {
            ParamError::new(
                "max_th",
                format!("must be at least min_th ({}): equal thresholds make a step marker", p.get("min_th")),
            )
        });
    }
    for id in ["gentle", "byte_mode"] {
        if switch_on(p.get(id)) {
            return Err(ParamError::new(id, "must be off for a step marker (min_th = max_th)"));
        }
    }
    Ok(())
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Red::new(setup.limit, setup.link_rate_bps), params)
}

/// RED's control state, separate from the FIFO so that RED-family schemes
/// (NLRED, DSRED, ARED, FRED) can reuse the averaging and spacing. It starts
/// at the defaults RED declares.
#[derive(Clone, Debug)]
pub struct RedState {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    pub count_rule: CountRule,
    pub byte_mode: bool,
    pub byte_rule: ByteRule,
    pub max_packet_bytes: f64,
    pub mean_packet_bytes: f64,
    pub link_rate_bps: u64,
    /// Average queue in the buffer's unit.
    pub avg: f64,
    /// Arrivals since the last early drop (ns's `count`).
    pub count: i64,
    /// Their bytes (ns's `count_bytes`), byte mode's count.
    pub count_bytes: u64,
    /// Whether the last arrival found avg ≥ min_th with more than one
    /// packet queued (ns's `old`): the first arrival that does restarts count.
    pub acting: bool,
    /// When the queue went idle, if it is idle.
    pub idle_since: Option<Nanos>,
}

/// What RED decided for one arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedVerdict {
    Accept,
    Early,
    Forced,
}

/// A verdict with what it was decided by: `count` as the arrival saw it
/// (itself included, before an early drop restarts it), p_b as the spacing
/// took it (scaled in F&J byte mode), and p_a (0 where RED does not act, 1
/// where it forces).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedJudgement {
    pub verdict: RedVerdict,
    pub count: i64,
    pub p_b: f64,
    pub p_a: f64,
}

/// The state a RED-family decision records, in [`RedQueue::admit`]'s order.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    decision::AVERAGE_QUEUE,
    decision::QUEUE_FOUND,
    decision::COUNT_SINCE_DROP,
    FieldSpec::new("p_b", "drop probability at this average", "p_b", ""),
    FieldSpec::new("p_a", "drop probability for this packet", "p_a", ""),
    decision::DRAW,
];

impl RedState {
    pub fn new(link_rate_bps: u64) -> RedState {
        RedState {
            min_th: MIN_TH.default,
            max_th: MAX_TH.default,
            max_p: MAX_P.default,
            w_q: W_Q.default,
            gentle: switch_on(GENTLE.default),
            count_rule: CountRule::from_wait_switch(WAIT.default),
            byte_mode: switch_on(BYTE_MODE.default),
            byte_rule: ByteRule::from_fj_switch(FJ_BYTE_MODE.default),
            max_packet_bytes: MAX_PACKET_BYTES.default,
            mean_packet_bytes: MEAN_PACKET_BYTES.default,
            link_rate_bps,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            acting: false,
            idle_since: Some(0),
        }
    }

    /// Update avg for an arrival that sees `q` queued (buffer unit), Fig. 2.
    pub fn update_avg(&mut self, q: f64, now: Nanos) {
        self.avg = match self.idle_since {
            Some(_) => self.avg_after_idle(now),
            None => (1.0 - self.w_q) * self.avg + self.w_q * q,
        };
        self.idle_since = None;
    }

    /// avg as an arrival at `now` would find it after the current idle
    /// period, without consuming it (avg itself while the queue is busy).
    pub fn avg_after_idle(&self, now: Nanos) -> f64 {
        let Some(since) = self.idle_since else { return self.avg };
        // m = idle time / s, the packets that could have been sent meanwhile.
        let s = tx_time_ns(self.mean_packet_bytes as u32, self.link_rate_bps).max(1);
        let m = now.saturating_sub(since) as f64 / s as f64;
        self.avg * libm::pow(1.0 - self.w_q, m)
    }

    /// p_b as a function of the average (before byte-mode scaling and spacing).
    pub fn p_b(&self, avg: f64) -> f64 {
        if avg < self.min_th {
            0.0
        } else if avg < self.max_th {
            self.max_p * (avg - self.min_th) / (self.max_th - self.min_th)
        } else if self.gentle && avg < 2.0 * self.max_th {
            self.max_p + (1.0 - self.max_p) * (avg - self.max_th) / self.max_th
        } else {
            1.0
        }
    }

    /// min_th = max_th: a step at K instead of a ramp.
    pub fn is_step(&self) -> bool {
        self.min_th == self.max_th
    }

    /// Is `avg` in the region where every arrival is dropped?
    pub fn forced_region(&self, avg: f64) -> bool {
        avg >= if self.gentle { 2.0 * self.max_th } else { self.max_th }
    }

    /// Decide for an arrival of `size` bytes that finds `queued` (buffer
    /// unit) ahead of it, given the early-drop probability `p_b` at the
    /// current avg, as ns-2's red.cc and ns-3's RedQueueDisc do: every
    /// arrival counts; RED acts only while avg ≥ min_th and more than one
    /// packet (byte mode: byte) is queued; the first arrival of such a
    /// stretch restarts count at 1 and passes; an early drop restarts count
    /// at 0, a forced drop leaves it.
    pub fn decide(&mut self, p_b: f64, size: u32, uniform: f64, queued: f64) -> RedVerdict {
        self.judge(p_b, size, uniform, queued).verdict
    }

    /// [`Self::decide`], with the numbers it decided by.
    pub fn judge(&mut self, p_b: f64, size: u32, uniform: f64, queued: f64) -> RedJudgement {
        self.count += 1;
        self.count_bytes += u64::from(size);
        let p_b = self.scaled_p_b(p_b, size);
        let judged = |verdict, count, p_a| RedJudgement { verdict, count, p_b, p_a };
        if self.avg < self.min_th || queued <= 1.0 {
            self.acting = false;
            return judged(RedVerdict::Accept, self.count, 0.0);
        }
        if self.forced_region(self.avg) {
            return judged(RedVerdict::Forced, self.count, 1.0);
        }
        if !self.acting {
            self.acting = true;
            self.count = 1;
            self.count_bytes = u64::from(size);
            return judged(RedVerdict::Accept, self.count, 0.0);
        }
        let p_a = self.spaced(p_b, size);
        if uniform < p_a {
            let count = self.count;
            self.count = 0;
            self.count_bytes = 0;
            judged(RedVerdict::Early, count, p_a)
        } else {
            judged(RedVerdict::Accept, self.count, p_a)
        }
    }

    /// p_b as the count spacing takes it: scaled by size/max_packet_bytes
    /// in Floyd & Jacobson's byte mode, as it is otherwise.
    pub fn scaled_p_b(&self, p_b: f64, size: u32) -> f64 {
        match (self.byte_mode, self.byte_rule) {
            (true, ByteRule::FloydJacobson) => p_b * size as f64 / self.max_packet_bytes,
            _ => p_b,
        }
    }

    /// p_a for an arrival of `size` bytes at `p_b` (from [`Self::scaled_p_b`])
    /// with the current count: ns's `modify_p`.
    pub fn spaced(&self, p_b: f64, size: u32) -> f64 {
        if !self.byte_mode || self.byte_rule == ByteRule::FloydJacobson {
            return spaced_probability(self.count_rule, p_b, self.count);
        }
        // ns divides the integers: the count is in whole mean-size packets.
        let mean = (self.mean_packet_bytes as u64).max(1);
        let p_a = spaced_probability(self.count_rule, p_b, (self.count_bytes / mean) as i64);
        if p_a < 1.0 {
            (p_a * size as f64 / self.mean_packet_bytes).min(1.0)
        } else {
            p_a
        }
    }

    pub fn set(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        match id {
            "min_th" => self.min_th = v,
            "max_th" => self.max_th = v,
            "max_p" => self.max_p = v,
            "w_q" => self.w_q = v,
            "gentle" => self.gentle = switch_on(v),
            "wait" => self.count_rule = CountRule::from_wait_switch(v),
            "byte_mode" => self.byte_mode = switch_on(v),
            "fj_byte_mode" => self.byte_rule = ByteRule::from_fj_switch(v),
            "max_packet_bytes" => self.max_packet_bytes = v,
            "mean_packet_bytes" => self.mean_packet_bytes = v,
            _ => return Err(ParamError::unknown(id)),
        }
        Ok(())
    }

    /// The curve p_b(avg) over [0, 2.5·max_th], with its kinks sampled exactly.
    pub fn curve(&self, p_of: impl Fn(f64) -> f64) -> Vec<[f64; 2]> {
        let top = 2.5 * self.max_th;
        let mut xs: Vec<f64> = (0..=200).map(|i| top * i as f64 / 200.0).collect();
        for k in [self.min_th, self.max_th, 2.0 * self.max_th] {
            xs.extend([k - 1e-9 * top, k]);
        }
        xs.retain(|x| *x >= 0.0);
        xs.sort_by(f64::total_cmp);
        xs.into_iter().map(|x| [x, p_of(x)]).collect()
    }
}

/// How `count`, the arrivals since the last drop, turns p_b into the
/// probability p_a of dropping this arrival. Both rules make the gaps
/// between drops uniform instead of geometric (F&J §7); they differ in
/// where the uniform range starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountRule {
    /// Floyd & Jacobson 1993 Fig. 2: p_a = p_b/(1 − count·p_b), 1 once
    /// count·p_b ≥ 1. Gaps uniform on {1, …, ≈1/p_b}: about 2·p_b dropped.
    Immediate,
    /// ns-2's red.cc `modify_p` with `wait_` on (ns-3's `Wait`, on by
    /// default in both): p_a = 0 while count·p_b < 1, p_b/(2 − count·p_b)
    /// while count·p_b < 2, then 1. Gaps uniform on {⌈1/p_b⌉, …, ≈2/p_b − 1}:
    /// about p_b/1.5 dropped.
    Wait,
}

impl CountRule {
    /// The `wait` switch's value (≥ 0.5 is on) as a rule.
    pub fn from_wait_switch(v: f64) -> CountRule {
        if switch_on(v) {
            CountRule::Wait
        } else {
            CountRule::Immediate
        }
    }
}

/// How byte mode (`byte_mode` on) weighs an arrival by its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteRule {
    /// ns-2's red.cc `modify_p` with `bytes_` on and ns-3's RedQueueDisc
    /// in byte mode: the spacing counts ⌊count_bytes/mean_packet_bytes⌋
    /// arrivals, then p_a·size/mean_packet_bytes where p_a < 1. Packets of
    /// the mean size see plain RED; a small one is dropped less, and it
    /// adds less to the count.
    Ns,
    /// Floyd & Jacobson 1993 Fig. 2: p_b·size/max_packet_bytes, then the
    /// spacing with count in packets.
    FloydJacobson,
}

impl ByteRule {
    /// The `fj_byte_mode` switch's value (≥ 0.5 is on) as a rule.
    pub fn from_fj_switch(v: f64) -> ByteRule {
        if switch_on(v) {
            ByteRule::FloydJacobson
        } else {
            ByteRule::Ns
        }
    }
}

/// p_a for an arrival that finds `count` arrivals since the last drop
/// (counting itself) at early-drop probability `p_b`, capped at 1.
pub fn spaced_probability(rule: CountRule, p_b: f64, count: i64) -> f64 {
    let spent = count as f64 * p_b;
    match rule {
        CountRule::Immediate => {
            let denom = 1.0 - spent;
            if denom <= p_b {
                1.0
            } else {
                (p_b / denom).min(1.0)
            }
        }
        CountRule::Wait => {
            if spent < 1.0 {
                0.0
            } else if spent < 2.0 {
                (p_b / (2.0 - spent)).min(1.0)
            } else {
                1.0
            }
        }
    }
}

/// The smallest count ≥ `from` for which `reaches` holds, searched from
/// `estimate`; `reaches` must be monotone in count. Closed forms find their
/// kinks with the queue's own floating-point tests this way, so that they
/// match its draws exactly.
fn first_count(from: i64, estimate: f64, reaches: impl Fn(i64) -> bool) -> i64 {
    let mut n = (estimate.ceil() as i64).max(from);
    while n > from && reaches(n - 1) {
        n -= 1;
    }
    while !reaches(n) {
        n += 1;
    }
    n
}

/// The long-run fraction of arrivals that count spacing drops at a fixed
/// p_b, from the distribution of X, the arrivals between drops (count = 1
/// for the first arrival after a drop). Let a be the first count with
/// p_a > 0 and m the first with p_a = 1, so X ∈ {a, …, m}.
/// - Immediate (a = 1): the survival Π_{k≤n}(1 − p_a(k)) telescopes to
///   (1 − (n+1)·p_b)/(1 − p_b), so X is uniform and
///   E[X] = (m − p_b·m(m+1)/2)/(1 − p_b) ≈ 1/(2·p_b): twice p_b is dropped.
/// - Wait (a = ⌈1/p_b⌉): P(X > n) = (2 − (n+1)·p_b)/(2 − a·p_b) for
///   a − 1 ≤ n < m, so P(X = n) = p_b/(2 − a·p_b) for a ≤ n < m and the
///   remainder (2 − m·p_b)/(2 − a·p_b) at m = ⌈2/p_b⌉ − 1 (the same mass
///   when 2/p_b is whole), and E[X] = a + Σ_{n=a}^{m−1} P(X > n)
///   = a + (2(m − a) − p_b·(m(m+1) − a(a+1))/2)/(2 − a·p_b) ≈ 1.5/p_b.
pub fn spaced_drop_fraction(rule: CountRule, p_b: f64) -> f64 {
    if p_b <= 0.0 {
        return 0.0;
    }
    let mean_gap = match rule {
        CountRule::Immediate => {
            if p_b >= 0.5 {
                return 1.0; // p_a is already 1 at count 1
            }
            let m = first_count(1, 1.0 / p_b - 1.0, |n| spaced_probability(rule, p_b, n) >= 1.0) as f64;
            (m - p_b * m * (m + 1.0) / 2.0) / (1.0 - p_b)
        }
        CountRule::Wait => {
            if p_b >= 1.0 {
                return 1.0;
            }
            let a = first_count(1, 1.0 / p_b, |n| spaced_probability(rule, p_b, n) > 0.0);
            let m = first_count(a, 2.0 / p_b - 1.0, |n| spaced_probability(rule, p_b, n) >= 1.0);
            let (a, m) = (a as f64, m as f64);
            a + (2.0 * (m - a) - p_b * (m * (m + 1.0) - a * (a + 1.0)) / 2.0) / (2.0 - a * p_b)
        }
    };
    (1.0 / mean_gap).min(1.0)
}

/// Zheng & Atiquzzaman 2000 §2.3's Markov chain (see [`super::markov`]) with RED's drop
/// function. The paper builds the chain for DSRED only; RED here gets the
/// same construction, with state i standing for avg = i and the per-arrival
/// drop probability RED applies there: 0 below min_th, every arrival in the
/// forced region, and in between the fraction [`spaced_drop_fraction`] that
/// the state's count rule drops at p_b (for packets of `mean_packet_bytes`,
/// which ns's byte mode leaves at p_b and F&J's scales). Thresholds in
/// `state` are in packets.
pub fn markov_model(
    state: &RedState,
    buffer_packets: u32,
    service_rate_pps: f64,
    loads: &[f64],
) -> Vec<super::markov::ModelPoint> {
    let p_a: Vec<f64> = (0..=buffer_packets as usize)
        .map(|i| {
            let avg = i as f64;
            if i >= buffer_packets as usize || state.forced_region(avg) {
                0.0
            } else if avg < state.min_th {
                1.0
            } else {
                let p_b = state.p_b(avg);
                let p_b = state.scaled_p_b(p_b, state.mean_packet_bytes as u32);
                1.0 - spaced_drop_fraction(state.count_rule, p_b)
            }
        })
        .collect();
    super::markov::birth_death(&p_a, service_rate_pps, loads)
}

/// [`markov_model`] for RED's catalogue parameters: the entry's theory.
fn theory(params: &ParamValues, setup: &super::markov::ModelSetup, loads: &[f64]) -> Vec<super::markov::ModelPoint> {
    let mut state = RedState::new(setup.link_rate_bps);
    // ECN decides what a congestion signal does, not RED's state.
    for (id, value) in params.iter().filter(|(id, _)| *id != "ecn") {
        let applied = state.set(id, value);
        debug_assert!(applied.is_ok(), "{applied:?}");
    }
    state.min_th *= setup.per_unit;
    state.max_th *= setup.per_unit;
    markov_model(&state, setup.buffer_packets, setup.service_rate_pps, loads)
}

/// RED's queue: a FIFO under its hard limit with RED's averaging, idle
/// tracking and verdicts. The schemes built on RED (NLRED, ARED, DSRED,
/// CHOKe, SFRED) share it, the way Linux's red.h serves RED, CHOKe and GRED;
/// each supplies its own drop function.
pub struct RedQueue {
    pub limit: Limit,
    pub state: RedState,
    pub fifo: Fifo,
    /// Mark early instead of dropping (for the schemes that declare `ecn`).
    pub ecn: bool,
}

impl RedQueue {
    pub fn new(limit: Limit, link_rate_bps: u64) -> RedQueue {
        RedQueue { limit, state: RedState::new(link_rate_bps), fifo: Fifo::default(), ecn: switch_on(ECN.default) }
    }

    /// One of RED's parameters, or `ecn`.
    pub fn set(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "ecn" => self.ecn = switch_on(value),
            _ => self.state.set(id, value)?,
        }
        Ok(())
    }

    /// Fold the queue an arrival sees into avg (Fig. 2's first step).
    pub fn on_arrival(&mut self, now: Nanos) {
        self.state.update_avg(self.fifo.measure(self.limit), now);
    }

    /// Carry out RED's verdict for `pkt` given the early-drop probability
    /// `p_b` at the current avg: a forced drop, an early drop (or ECN mark
    /// when `ecn` is on), or queueing within the hard limit.
    pub fn admit(&mut self, pkt: Packet, p_b: f64, ctx: &mut QueueCtx) {
        let queued = self.fifo.measure(self.limit);
        let uniform = ctx.rng.uniform();
        let judged = self.state.judge(p_b, pkt.size_bytes, uniform, queued);
        if ctx.recording() {
            let s = &self.state;
            ctx.note(&pkt, &[s.avg, queued, judged.count as f64, judged.p_b, judged.p_a, uniform]);
        }
        let pkt = match judged.verdict {
            // A step marker marks what it can above K (RFC 8257 §3.1).
            RedVerdict::Forced if self.state.is_step() => match ctx.drop_or_mark(pkt, DropReason::Forced, self.ecn) {
                Some(marked) => marked,
                None => return,
            },
            RedVerdict::Forced => return ctx.drop(pkt, DropReason::Forced),
            RedVerdict::Early => match ctx.drop_or_mark(pkt, DropReason::Early, self.ecn) {
                Some(marked) => marked,
                None => return,
            },
            RedVerdict::Accept => pkt,
        };
        self.fifo.push_within(self.limit, pkt, ctx);
    }

    /// The head packet; an empty dequeue starts an idle period (Fig. 2's q_time).
    pub fn dequeue(&mut self, now: Nanos) -> Option<Packet> {
        let pkt = self.fifo.pop();
        if pkt.is_none() && self.state.idle_since.is_none() {
            self.state.idle_since = Some(now);
        }
        pkt
    }

    /// `p_of(avg)` over the average queue, with the operating point.
    pub fn drop_curve(&self, p_of: impl Fn(f64) -> f64) -> DropCurve {
        let s = &self.state;
        DropCurve {
            x_label: "average queue",
            x_unit: self.limit.unit(),
            points: s.curve(&p_of),
            operating_point: [s.avg, p_of(s.avg)],
        }
    }
}

/// A scheme of the RED family: RED's queue with its own drop function and,
/// where its paper adds them, its own verdicts, parameters and probes. RED,
/// gentle RED, NLRED, ARED, DSRED, CHOKe and SFRED implement it; the
/// [`Qdisc`] they share (averaging, idle periods, dequeue, ECN, the RED
/// parameters) is written once below.
pub trait RedScheme {
    /// The catalogue's parameter list; any other id is refused.
    const PARAMS: &'static [ParamSpec];
    fn queue(&self) -> &RedQueue;
    fn queue_mut(&mut self) -> &mut RedQueue;

    /// The early-drop probability at average `avg`: RED's line by default.
    fn p_b(&self, avg: f64) -> f64 {
        self.queue().state.p_b(avg)
    }

    /// Decide for an arrival once avg includes it: RED's verdict by default.
    fn admit(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        let p_b = self.p_b(self.queue().state.avg);
        self.queue_mut().admit(pkt, p_b, ctx);
    }

    /// A parameter of the scheme's own, or else RED's (and `ecn`).
    fn set_own(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.queue_mut().set(id, value)
    }

    /// RED's probes: avg, p_b and count.
    fn probe_into(&self, out: &mut ProbeSink) {
        let s = &self.queue().state;
        out.put("avg", s.avg);
        out.put("p_b", self.p_b(s.avg));
        out.put("count", s.count.max(0) as f64);
    }

    fn curve(&self) -> Option<DropCurve> {
        Some(self.queue().drop_curve(|x| self.p_b(x)))
    }

    /// Before avg is updated for an arrival at `ctx.now` (ARED arms its timer).
    fn before_arrival(&mut self, _ctx: &mut QueueCtx) {}

    fn wake(&mut self, _ctx: &mut QueueCtx) {}

    /// The state its decisions record: RED's, noted by [`RedQueue::admit`].
    fn state_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    /// The scheme with every parameter at its declared default.
    fn with_defaults(self) -> Self
    where
        Self: Sized,
    {
        let limit = self.queue().limit;
        super::scheme::with_defaults(self, Self::PARAMS, limit)
    }
}

impl<S: RedScheme> Qdisc for S {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.before_arrival(ctx);
        self.queue_mut().on_arrival(ctx.now);
        self.admit(pkt, ctx);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        self.queue_mut().dequeue(ctx.now)
    }

    fn len_packets(&self) -> usize {
        self.queue().fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.queue().fifo.bytes()
    }

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        if !S::PARAMS.iter().any(|p| p.id == id) {
            return Err(ParamError::unknown(id));
        }
        self.set_own(id, value)
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.probe_into(out);
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        self.curve()
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        self.wake(ctx);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        self.state_fields()
    }
}

/// The [`RedScheme`] items every member writes alike: its parameter list is
/// `PARAMS` and its RED queue the field `queue`.
macro_rules! red_scheme_parts {
    () => {
        const PARAMS: &'static [ParamSpec] = PARAMS;

        fn queue(&self) -> &RedQueue {
            &self.queue
        }

        fn queue_mut(&mut self) -> &mut RedQueue {
            &mut self.queue
        }
    };
}
pub(crate) use red_scheme_parts;

/// RED itself: the family's defaults throughout.
pub struct Red {
    pub(crate) queue: RedQueue,
}

impl Red {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Red {
        Red { queue: RedQueue::new(limit, link_rate_bps) }.with_defaults()
    }
}

impl RedScheme for Red {
    red_scheme_parts!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::testing::Harness;

    fn state(gentle: bool) -> RedState {
        RedState { gentle, ..RedState::new(10_000_000) }
    }

    fn with_rule(count_rule: CountRule) -> RedState {
        RedState { count_rule, ..state(false) }
    }

    /// A state between min_th and max_th in the middle of a stretch of
    /// arrivals that RED acts on.
    fn acting(s: RedState) -> RedState {
        RedState { avg: 10.0, acting: true, count: 0, ..s }
    }

    /// Drops at a fixed p_b over `decisions` arrivals: the histogram of gaps
    /// (arrivals from one drop to the next, capped at `hist.len() − 1`).
    fn gap_histogram(rule: CountRule, p_b: f64, decisions: usize, hist: &mut [u32]) -> u32 {
        let mut s = acting(with_rule(rule));
        let mut rng = crate::kernel::Rng::stream(3, "gaps");
        let last = hist.len() - 1;
        let mut gap = 0;
        for _ in 0..decisions {
            gap += 1;
            if s.decide(p_b, 1000, rng.uniform(), 10.0) == RedVerdict::Early {
                hist[gap.min(last)] += 1;
                gap = 0;
            }
        }
        hist.iter().sum()
    }

    #[test]
    fn p_b_follows_the_piecewise_formula() {
        let s = state(false);
        assert_eq!(s.p_b(0.0), 0.0);
        assert_eq!(s.p_b(4.999), 0.0);
        assert!((s.p_b(10.0) - 0.05).abs() < 1e-12);
        assert!((s.p_b(14.0) - 0.09).abs() < 1e-12);
        assert_eq!(s.p_b(15.0), 1.0);
        assert!(s.forced_region(15.0));
    }

    #[test]
    fn gentle_ramps_from_max_p_to_one() {
        let s = state(true);
        assert!((s.p_b(15.0) - 0.1).abs() < 1e-12);
        assert!((s.p_b(22.5) - 0.55).abs() < 1e-12);
        assert!(!s.forced_region(29.9));
        assert!(s.forced_region(30.0));
        assert_eq!(s.p_b(30.0), 1.0);
    }

    #[test]
    fn spacing_makes_p_a_grow_with_count() {
        let fj = CountRule::Immediate;
        assert!((spaced_probability(fj, 0.05, 0) - 0.05).abs() < 1e-12);
        assert!((spaced_probability(fj, 0.05, 10) - 0.1).abs() < 1e-12);
        assert_eq!(spaced_probability(fj, 0.05, 19), 1.0);
        assert_eq!(spaced_probability(fj, 0.05, 100), 1.0);
    }

    #[test]
    fn wait_rule_holds_off_until_count_reaches_one_over_p_b() {
        // ns-2's modify_p with wait_: 0 while count·p_b < 1, p_b/(2 − count·p_b)
        // while < 2, then 1.
        let w = CountRule::Wait;
        assert_eq!(spaced_probability(w, 0.05, 0), 0.0);
        assert_eq!(spaced_probability(w, 0.05, 19), 0.0);
        assert!((spaced_probability(w, 0.05, 20) - 0.05).abs() < 1e-12);
        assert!((spaced_probability(w, 0.05, 30) - 0.1).abs() < 1e-12);
        assert!((spaced_probability(w, 0.05, 38) - 0.5).abs() < 1e-9);
        assert_eq!(spaced_probability(w, 0.05, 40), 1.0);
        assert_eq!(spaced_probability(w, 0.05, 400), 1.0);
        assert_eq!(spaced_probability(w, 0.0, 1000), 0.0);
        // The switch: on is the default, any value ≥ 0.5 is on.
        assert_eq!(RedState::new(1).count_rule, CountRule::Wait);
        assert_eq!(CountRule::from_wait_switch(0.0), CountRule::Immediate);
        assert_eq!(CountRule::from_wait_switch(1.0), CountRule::Wait);
    }

    #[test]
    fn spaced_drop_fraction_is_what_the_queue_drops_at_a_fixed_p_b() {
        // 400 000 decisions per p_b; the gaps are uniform, so the drop count
        // spreads far less than a binomial one: 1% is many standard deviations.
        for rule in [CountRule::Immediate, CountRule::Wait] {
            for p_b in [0.003, 0.02, 0.07, 0.1, 0.23, 0.4, 0.5, 0.6, 0.8, 0.95] {
                let mut s = acting(with_rule(rule));
                let mut rng = crate::kernel::Rng::stream(5, "fraction");
                // Small p_b under wait: gaps of 333–666, so more arrivals for
                // enough drops.
                let decisions = if p_b < 0.01 { 4_000_000 } else { 400_000 };
                let drops =
                    (0..decisions).filter(|_| s.decide(p_b, 1000, rng.uniform(), 10.0) == RedVerdict::Early).count();
                let measured = drops as f64 / decisions as f64;
                let predicted = spaced_drop_fraction(rule, p_b);
                assert!((measured / predicted - 1.0).abs() < 0.01, "{rule:?} p_b {p_b}: {measured} vs {predicted}");
            }
        }
        let (fj, wait) = (CountRule::Immediate, CountRule::Wait);
        assert_eq!(spaced_drop_fraction(fj, 0.0), 0.0);
        assert_eq!(spaced_drop_fraction(wait, 0.0), 0.0);
        assert!((spaced_drop_fraction(fj, 0.1) - 0.2).abs() < 1e-12, "gaps uniform on 1..9, mean 5");
        assert!((spaced_drop_fraction(fj, 1e-6) / 2e-6 - 1.0).abs() < 1e-5);
        // Wait: gaps uniform on 10..19, mean 14.5; for small p_b the mean
        // gap tends to 1.5/p_b; p_b = 0.6 gives gap 2 (p_a 0.75) or 3.
        assert!((spaced_drop_fraction(wait, 0.1) - 1.0 / 14.5).abs() < 1e-12);
        assert!((spaced_drop_fraction(wait, 1e-6) * 1.5e6 - 1.0).abs() < 1e-5);
        assert!((spaced_drop_fraction(wait, 0.6) - 1.0 / 2.25).abs() < 1e-12);
        assert_eq!(spaced_drop_fraction(wait, 1.0), 1.0);
    }

    #[test]
    fn markov_model_matches_a_hand_solved_chain() {
        // min_th 1, max_th 3, max_p 0.2: p_b(2) = 0.1, of which spacing drops
        // 0.2, and state 3 is forced. p_a = [1, 1, 0.8, 0, …]; at ρ = 1
        // V ∝ [1, 1, 1, 0.8], so P_D = 1 − 2.8/3.8 = 1/3.8.
        let s = RedState { min_th: 1.0, max_th: 3.0, max_p: 0.2, ..with_rule(CountRule::Immediate) };
        let m = markov_model(&s, 10, 1e3, &[1.0])[0];
        assert!((m.drop_probability - 1.0 / 3.8).abs() < 1e-12, "{m:?}");
        assert!((m.delay_s - (1.0 + 2.0 + 3.0 * 0.8) / 3.8e3).abs() < 1e-15);
        // With wait, state 2 drops 1/14.5 instead: p_a(2) = q = 13.5/14.5,
        // V ∝ [1, 1, 1, q] and P_D = 1/(3 + q).
        let m = markov_model(&RedState { count_rule: CountRule::Wait, ..s }, 10, 1e3, &[1.0])[0];
        let q = 13.5 / 14.5;
        assert!((m.drop_probability - 1.0 / (3.0 + q)).abs() < 1e-12, "{m:?}");
    }

    #[test]
    fn markov_model_probabilities_rise_with_load_and_saturate_at_one_minus_one_over_rho() {
        let loads: Vec<f64> = (1..=40).map(|i| 0.05 * i as f64).collect();
        for gentle in [false, true] {
            let s = RedState { min_th: 6.0, max_th: 20.0, gentle, ..state(false) };
            let curve = markov_model(&s, 200, 1e3, &loads);
            assert!(curve.iter().all(|m| (0.0..=1.0).contains(&m.drop_probability)));
            assert!(curve.windows(2).all(|w| w[1].drop_probability > w[0].drop_probability), "gentle {gentle}");
            let heavy = markov_model(&s, 200, 1e3, &[3.0])[0];
            assert!((heavy.drop_probability - 2.0 / 3.0).abs() < 1e-6, "{heavy:?}");
        }
    }

    #[test]
    fn dsred_drops_less_than_red_at_moderate_load_in_the_model() {
        // Zheng & Atiquzzaman 2000 pairs γ 0.96 with RED's max_p 0.1 and γ 0.91 with 0.2
        // (§3.1, K_l = min_th = 6, K_h = max_th = 20, N = 200) and finds DSRED
        // dropping less (§3.2). In the model that holds below ρ ≈ 0.95: DSRED's
        // first slope is gentler than RED's spaced drops. Near and above ρ = 1
        // the queue reaches DSRED's steep second slope and the curves meet at
        // 1 − 1/ρ, where the link is saturated whatever the scheme.
        // The paper's RED ran in OPNET, following Floyd & Jacobson [8] (wait
        // off). With ns-2's wait rule RED drops about p_b/1.5 instead of 2·p_b
        // and falls below DSRED's first slope: the claim depends on the rule.
        use crate::queue::dsred::{self, ModelParams, Slopes};
        let loads = [0.5, 0.6, 0.7, 0.8, 0.9];
        let fj = with_rule(CountRule::Immediate);
        for (max_p, gamma) in [(0.1, 0.96), (0.2, 0.91)] {
            let red = markov_model(&RedState { min_th: 6.0, max_th: 20.0, max_p, ..fj.clone() }, 200, 1e3, &loads);
            let slopes = Slopes { k_l: 6.0, k_h: 20.0, gamma };
            let ds = dsred::markov_model(&ModelParams { slopes, ..ModelParams::paper() }, &loads);
            for (r, d) in red.iter().zip(&ds) {
                assert!(d.drop_probability < 0.97 * r.drop_probability, "max_p {max_p} γ {gamma}: {d:?} vs {r:?}");
            }
        }
    }

    #[test]
    fn spacing_gives_uniform_inter_drop_gaps() {
        // Fig. 2 increments count before using it, so with p_b fixed
        // P(gap > n) = (1 − (n+1)·p_b)/(1 − p_b): the gap between drops is
        // uniform on {1, …, 1/p_b − 1} (§7's point: no clusters, no long waits).
        let mut hist = [0u32; 12];
        let drops = gap_histogram(CountRule::Immediate, 0.1, 300_000, &mut hist);
        assert_eq!(hist[0] + hist[10] + hist[11], 0, "{hist:?}");
        for (n, &count) in hist.iter().enumerate().take(10).skip(1) {
            let share = count as f64 / drops as f64;
            assert!((share * 9.0 - 1.0).abs() < 0.05, "gap {n}: {share}");
        }
    }

    #[test]
    fn wait_gives_gaps_from_one_over_p_b_to_two_over_p_b() {
        // With wait, P(gap > n) = (2 − (n+1)·p_b)/(2 − a·p_b) from a = ⌈1/p_b⌉
        // on: P(gap = n) = p_b/(2 − a·p_b) for a ≤ n < m and the rest,
        // (2 − m·p_b)/(2 − a·p_b), at m = ⌈2/p_b⌉ − 1.
        // p_b = 0.1: a = 10, m = 19, all ten gaps at 1/10.
        // p_b = 0.07: a = 15 (15·0.07 = 1.05), m = 28; 0.07/0.95 each on
        // 15..27 and 0.04/0.95 at 28.
        for (p_b, a, m) in [(0.1, 10usize, 19usize), (0.07, 15, 28)] {
            let mut hist = [0u32; 32];
            let drops = gap_histogram(CountRule::Wait, p_b, 1_000_000, &mut hist);
            let denom = 2.0 - a as f64 * p_b;
            for (n, &count) in hist.iter().enumerate() {
                let share = count as f64 / drops as f64;
                let expect = match n {
                    n if n < a || n > m => 0.0,
                    n if n < m => p_b / denom,
                    _ => (2.0 - m as f64 * p_b) / denom,
                };
                if expect == 0.0 {
                    assert_eq!(count, 0, "p_b {p_b} gap {n}: {hist:?}");
                } else {
                    assert!((share / expect - 1.0).abs() < 0.06, "p_b {p_b} gap {n}: {share} vs {expect}");
                }
            }
        }
    }

    /// Floyd & Jacobson 1993 Fig. 2 (`fj_byte_mode`): p_b·size/max_packet_bytes, then the spacing.
    #[test]
    fn fj_byte_mode_scales_p_b_by_size_over_max_before_the_spacing() {
        let mut s = acting(with_rule(CountRule::Immediate));
        s.byte_mode = true;
        s.byte_rule = ByteRule::FloydJacobson;
        s.count = -1;
        // A 750-byte packet sees half of p_b; with count 0, p_a = p_b·750/1500 = 0.025.
        assert_eq!(s.decide(0.05, 750, 0.0249, 10_000.0), RedVerdict::Early);
        s.count = -1;
        assert_eq!(s.decide(0.05, 750, 0.0251, 10_000.0), RedVerdict::Accept);
    }

    /// ns-2 red.cc `modify_p` and ns-3 `RedQueueDisc::ModifyP` in byte mode:
    /// count1 = ⌊count_bytes/mean_pktsize⌋ for the spacing, then p·size/mean_pktsize.
    #[test]
    fn ns_byte_mode_counts_mean_size_packets_then_scales_p_a_by_size_over_mean() {
        let mut s = acting(with_rule(CountRule::Immediate));
        s.byte_mode = true;
        assert_eq!(s.byte_rule, ByteRule::Ns, "ns's reading is the default");
        // Three 500-byte arrivals since the last drop; the fourth makes 2000
        // bytes, count1 = 2: p = 0.1/(1 − 0.2) = 0.125, times 500/1000 = 0.0625
        // (packet mode, count 4, would give 0.1/(1 − 0.4) = 0.167).
        for (draw, verdict) in [(0.0624, RedVerdict::Early), (0.0626, RedVerdict::Accept)] {
            (s.count, s.count_bytes) = (3, 1500);
            assert_eq!(s.decide(0.1, 500, draw, 10_000.0), verdict, "draw {draw}");
        }
        // Whole mean-size packets only: 1999 bytes count as one.
        (s.count, s.count_bytes) = (9, 1999);
        assert!((s.spaced(0.1, 1000) - 0.1 / 0.9).abs() < 1e-15);
        // Once the spacing gives 1, size no longer scales it.
        (s.count, s.count_bytes) = (50, 10_000);
        assert_eq!(s.spaced(0.1, 100), 1.0);
    }

    /// With every packet of the mean size, ns's byte mode is packet mode.
    #[test]
    fn ns_byte_mode_with_mean_size_packets_is_packet_mode() {
        for rule in [CountRule::Immediate, CountRule::Wait] {
            let mut s = with_rule(rule);
            s.byte_mode = true;
            for count in 1..25 {
                (s.count, s.count_bytes) = (count, count as u64 * 1000);
                let (bytes, packets) = (s.spaced(0.07, 1000), spaced_probability(rule, 0.07, count));
                assert!((bytes - packets).abs() < 1e-15, "{rule:?} count {count}: {bytes} vs {packets}");
            }
        }
    }

    /// The first arrival of a stretch and an early drop restart the bytes with count.
    #[test]
    fn byte_count_restarts_with_count() {
        let mut s = with_rule(CountRule::Immediate);
        s.byte_mode = true;
        s.avg = 10.0;
        (s.count, s.count_bytes) = (40, 40_000);
        assert_eq!(s.decide(0.1, 600, 0.0, 5.0), RedVerdict::Accept);
        assert_eq!((s.count, s.count_bytes), (1, 600));
        assert_eq!(s.decide(1.0, 600, 0.0, 5.0), RedVerdict::Early);
        assert_eq!((s.count, s.count_bytes), (0, 0));
    }

    /// ns-2 red.cc / ns-3 RedQueueDisc: RED acts only when avg ≥ min_th
    /// and more than one packet is queued.
    #[test]
    fn no_drop_with_one_packet_or_none_queued() {
        let mut s = acting(with_rule(CountRule::Immediate));
        s.avg = 100.0; // past max_th: forced, were anything queued
        for queued in [0.0, 1.0] {
            assert_eq!(s.decide(0.5, 1000, 0.0, queued), RedVerdict::Accept, "{queued} queued");
        }
        assert_eq!(s.decide(0.5, 1000, 0.0, 2.0), RedVerdict::Forced);
    }

    /// ns's `old`: the first arrival of a stretch with avg ≥ min_th and a
    /// queue restarts count at 1 and is never dropped early, so a queue
    /// that drained starts its spacing afresh.
    #[test]
    fn the_first_arrival_of_a_stretch_restarts_count_and_passes() {
        let mut s = with_rule(CountRule::Immediate);
        s.avg = 10.0;
        s.count = 40;
        assert_eq!(s.decide(1.0, 1000, 0.0, 5.0), RedVerdict::Accept);
        assert_eq!(s.count, 1);
        // The next arrival is considered: p_a = p_b/(1 − 2·p_b) at count 2.
        assert_eq!(s.decide(0.1, 1000, 0.124, 5.0), RedVerdict::Early);
        assert_eq!(s.count, 0);
        // The queue drains to one packet: the stretch ends, count goes on counting.
        assert_eq!(s.decide(0.1, 1000, 0.0, 1.0), RedVerdict::Accept);
        assert!(!s.acting);
        assert_eq!(s.decide(0.1, 1000, 0.0, 5.0), RedVerdict::Accept);
        assert_eq!(s.count, 1);
    }

    /// ns resets count on forced drops only in its ns-1 compatibility mode.
    #[test]
    fn a_forced_drop_leaves_count() {
        let mut s = acting(with_rule(CountRule::Immediate));
        s.count = 7;
        s.avg = 100.0;
        assert_eq!(s.decide(0.1, 1000, 0.9, 5.0), RedVerdict::Forced);
        assert_eq!(s.count, 8);
    }

    #[test]
    fn average_is_the_ewma_of_arrivals() {
        let mut h = Harness::new("red", &[("w_q", 0.5), ("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(1000));
        // Back-to-back arrivals with no departures see q = 0, 1, 2, 3.
        h.arrive_n(4, 1000);
        let expect = [0.0, 1.0, 2.0, 3.0].iter().fold(0.0, |a, q| 0.5 * a + 0.5 * q);
        assert!((h.probe("avg") - expect).abs() < 1e-12, "{}", h.probe("avg"));
    }

    #[test]
    fn average_decays_over_idle_time() {
        // 10 Mb/s, 1000-byte packets: s = 0.8 ms. After 8 ms idle, m = 10.
        let mut h = Harness::new("red", &[("w_q", 0.1), ("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(1000));
        h.arrive_n(20, 1000);
        while h.depart().is_some() {}
        h.depart(); // the empty dequeue marks the start of the idle period
        let before = h.probe("avg");
        h.advance_ms(8.0);
        h.arrive(1000);
        let expect = 0.9f64.powf(10.0) * before;
        assert!((h.probe("avg") - expect).abs() < 1e-9, "{} vs {expect}", h.probe("avg"));
    }

    #[test]
    fn forced_drops_above_max_th_and_overflow_at_the_limit() {
        let mut h = Harness::new("red", &[("w_q", 1.0), ("min_th", 2.0), ("max_th", 4.0)], Limit::Packets(100));
        h.arrive_n(10, 1000);
        assert!(h.drops(DropReason::Forced) > 0);
        // The family's shared queue holds the hard limit for every member
        // that keeps RED's verdicts.
        for scheme in ["red", "nlred", "ared", "choke"] {
            let mut small = Harness::new(scheme, &[("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(3));
            for _ in 0..5 {
                small.arrive(1000);
            }
            assert_eq!(small.drops(DropReason::Overflow), 2, "{scheme}");
        }
    }

    #[test]
    fn ecn_marks_instead_of_early_drops() {
        // w_q 1: the i-th arrival sees avg = i, p_b = (i − 1)/499; with wait
        // about p_b/1.5 of arrivals are marked, some 165 of 500.
        let params = [("min_th", 1.0), ("max_th", 500.0), ("max_p", 1.0)];
        let h = Harness::red_marking_burst("red", &params, Limit::Packets(2000), 500);
        assert_eq!(h.drops(DropReason::Early), 0);
        assert!(h.marks > 100);
    }

    /// DCTCP's marker: min_th = max_th = K = 20, w_q = 1, ECN on.
    fn step_marker(ect: bool) -> Harness {
        let params = [("w_q", 1.0), ("min_th", 20.0), ("max_th", 20.0), ("ecn", 1.0)];
        let mut h = Harness::new("red", &params, Limit::Packets(100));
        h.ect = ect;
        h
    }

    #[test]
    fn a_step_marker_marks_every_ecn_capable_arrival_that_finds_k_queued_and_drops_none() {
        let mut h = step_marker(true);
        // Arrival i finds i − 1 queued: the first 20 pass unmarked, the next 60 are marked.
        h.arrive_n(80, 1000);
        assert_eq!((h.marks, h.dropped.len(), h.q.len_packets()), (60, 0, 80));
        // Below K again (w_q = 1: no memory), nothing is marked.
        while h.q.len_packets() > 19 {
            h.depart();
        }
        h.arrive(1000);
        assert_eq!(h.marks, 60);
        // Arrivals past the hard limit still overflow.
        h.arrive_n(90, 1000);
        assert_eq!((h.drops(DropReason::Overflow), h.drops(DropReason::Forced)), (10, 0));
        // Not ECN-capable: dropped above K instead, as forced drops.
        let mut h = step_marker(false);
        h.arrive_n(30, 1000);
        assert_eq!((h.marks, h.drops(DropReason::Forced), h.q.len_packets()), (0, 10, 20));
        // The step has no ramp: p_b is 0 below K and 1 from K on, no division by zero.
        let s = RedState { min_th: 20.0, max_th: 20.0, ..state(false) };
        assert_eq!((s.p_b(19.999), s.p_b(20.0), s.p_b(1e9)), (0.0, 1.0, 1.0));
    }

    #[test]
    fn equal_thresholds_are_accepted_only_as_a_working_step_marker() {
        let limit = Limit::Packets(100);
        let with = |pairs: &[(&str, f64)]| {
            let mut p = ParamValues::defaults(&INFO, limit);
            for (id, v) in pairs {
                assert!(p.set(id, *v));
            }
            (INFO.cross_check)(&p)
        };
        assert!(with(&[("min_th", 20.0), ("max_th", 20.0)]).is_ok());
        assert!(with(&[("min_th", 5.0), ("max_th", 15.0)]).is_ok());
        assert_eq!(with(&[("min_th", 20.0), ("max_th", 19.0)]).unwrap_err().param, "max_th");
        assert_eq!(with(&[("min_th", 20.0), ("max_th", 20.0), ("gentle", 1.0)]).unwrap_err().param, "gentle");
        assert_eq!(with(&[("min_th", 20.0), ("max_th", 20.0), ("byte_mode", 1.0)]).unwrap_err().param, "byte_mode");
        // The RED-based schemes that share the ramp still need max_th > min_th.
        let mut p = ParamValues::defaults(&INFO, limit);
        p.set("min_th", 15.0);
        assert_eq!(cross_check(&p).unwrap_err().param, "max_th");
    }

    #[test]
    fn drop_curve_has_the_operating_point_on_it() {
        let mut red = Red::new(Limit::Packets(100), 10_000_000);
        red.queue.state.avg = 12.0;
        let c = red.drop_curve().expect("RED has a curve");
        assert!((c.operating_point[1] - 0.07).abs() < 1e-12);
        assert!(c.points.iter().any(|p| p[0] == 15.0 && p[1] == 1.0));
    }
}
