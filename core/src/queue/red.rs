//! RED — Random Early Detection (Floyd & Jacobson 1993, §4 and Fig. 2).
//!
//! On every arrival:
//!   avg ← (1−w_q)·avg + w_q·q            (queue busy)
//!   avg ← (1−w_q)^m·avg, m = idle/s      (queue was idle; s = one packet's tx time)
//!   min_th ≤ avg < max_th: p_b = max_p·(avg−min_th)/(max_th−min_th)
//!       byte mode: p_b ← p_b·size/max_packet_bytes
//!       p_a = p_b / (1 − count·p_b); drop (or ECN-mark) with probability p_a
//!   avg ≥ max_th: drop                   (gentle: p_b rises linearly from
//!       max_p to 1 between max_th and 2·max_th, and only ≥ 2·max_th forces)
//! `count` is the number of arrivals since the last drop, which spaces drops
//! out evenly (§7). Thresholds are in the buffer's unit (packets or bytes).
//! Defaults: min_th 5, max_th 15 and w_q 0.002 as in the paper's simulations;
//! max_p 0.1 as Floyd later recommended and ns-2 uses (the paper ran 1/50).

use super::registry::{configured, ParamValues, SchemeInfo};
use super::{
    switch_on, DropCurve, DropReason, Fifo, Limit, ParamError, ParamKind, ParamSpec, ProbeSink, ProbeSpec, Qdisc,
    QueueCtx, QueueSetup, ECN_PARAM,
};
use crate::kernel::{tx_time_ns, Nanos};
use crate::net::Packet;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "red",
    name: "RED",
    paper: "Floyd & Jacobson, Random Early Detection Gateways for Congestion Avoidance, IEEE/ACM ToN 1993",
    summary: "Drops arrivals with a probability that grows with the averaged queue length.",
    params: PARAMS,
    probes: &[
        ProbeSpec { id: "avg", label: "average queue", kind: ParamKind::Buffer, unit: "buffer" },
        ProbeSpec { id: "p_b", label: "drop probability p_b", kind: ParamKind::Number, unit: "" },
        ProbeSpec { id: "count", label: "arrivals since last drop", kind: ParamKind::Number, unit: "packets" },
    ],
    build,
    cross_check,
};

// The RED family (ARED, NLRED, DSRED, FRED, SFRED, CHOKe, and BARE's w_q) reuses these,
// overriding a default or a doc where its own paper differs.
pub(crate) const MIN_TH: ParamSpec = ParamSpec {
    id: "min_th",
    label: "min threshold",
    kind: ParamKind::Buffer,
    unit: "buffer",
    min: 0.0,
    max: 5000.0,
    step: 1.0,
    default: 5.0,
    doc: "Below this average queue nothing is dropped early.",
};
pub(crate) const MAX_TH: ParamSpec = ParamSpec {
    id: "max_th",
    label: "max threshold",
    kind: ParamKind::Buffer,
    unit: "buffer",
    min: 1.0,
    max: 10000.0,
    step: 1.0,
    default: 15.0,
    doc: "At this average queue the early-drop probability reaches max_p.",
};
pub(crate) const MAX_P: ParamSpec = ParamSpec {
    id: "max_p",
    label: "max_p",
    kind: ParamKind::Number,
    unit: "",
    min: 0.0,
    max: 1.0,
    step: 0.005,
    default: 0.1,
    doc: "Drop probability at max_th.",
};
pub(crate) const W_Q: ParamSpec = ParamSpec {
    id: "w_q",
    label: "queue weight w_q",
    kind: ParamKind::Number,
    unit: "",
    min: 0.0001,
    max: 1.0,
    step: 0.0001,
    default: 0.002,
    doc: "EWMA weight of the instantaneous queue in the average; small = long memory.",
};
pub(crate) const GENTLE: ParamSpec = ParamSpec {
    id: "gentle",
    label: "gentle",
    kind: ParamKind::Switch,
    unit: "on/off",
    min: 0.0,
    max: 1.0,
    step: 1.0,
    default: 0.0,
    doc: "Ramp from max_p to 1 between max_th and 2·max_th instead of jumping to 1.",
};
pub(crate) const BYTE_MODE: ParamSpec = ParamSpec {
    id: "byte_mode",
    label: "byte mode",
    kind: ParamKind::Switch,
    unit: "on/off",
    min: 0.0,
    max: 1.0,
    step: 1.0,
    default: 0.0,
    doc: "Scale the drop probability by packet size / max_packet_bytes.",
};
pub(crate) const MAX_PACKET_BYTES: ParamSpec = ParamSpec {
    id: "max_packet_bytes",
    label: "max packet size",
    kind: ParamKind::Number,
    unit: "bytes",
    min: 40.0,
    max: 65535.0,
    step: 1.0,
    default: 1500.0,
    doc: "Packet size at which byte mode uses the full p_b.",
};
pub(crate) const MEAN_PACKET_BYTES: ParamSpec = ParamSpec {
    id: "mean_packet_bytes",
    label: "typical packet size",
    kind: ParamKind::Number,
    unit: "bytes",
    min: 40.0,
    max: 65535.0,
    step: 1.0,
    default: 1000.0,
    doc: "Sets s, the time to send one packet, for decaying avg over idle periods.",
};
pub(crate) const ECN: ParamSpec =
    ParamSpec { doc: "Mark ECN-capable packets instead of dropping them early.", ..ECN_PARAM };

pub(crate) const PARAMS: &[ParamSpec] =
    &[MIN_TH, MAX_TH, MAX_P, W_Q, GENTLE, BYTE_MODE, MAX_PACKET_BYTES, MEAN_PACKET_BYTES, ECN];

pub(crate) fn cross_check(p: &ParamValues) -> Result<(), ParamError> {
    if p.get("max_th") <= p.get("min_th") {
        return Err(ParamError::new("max_th", format!("must exceed min_th ({})", p.get("min_th"))));
    }
    Ok(())
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Red::new(setup.limit, setup.link_rate_bps), params)
}

/// RED's control state, separate from the FIFO so that RED-family schemes
/// (NLRED, DSRED, ARED, FRED) can reuse the averaging and spacing.
#[derive(Clone, Debug)]
pub struct RedState {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    pub byte_mode: bool,
    pub max_packet_bytes: f64,
    pub mean_packet_bytes: f64,
    pub link_rate_bps: u64,
    /// Average queue in the buffer's unit.
    pub avg: f64,
    /// Arrivals since the last drop; −1 when avg is below min_th.
    pub count: i64,
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

impl RedState {
    pub fn new(link_rate_bps: u64) -> RedState {
        RedState {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            w_q: 0.002,
            gentle: false,
            byte_mode: false,
            max_packet_bytes: 1500.0,
            mean_packet_bytes: 1000.0,
            link_rate_bps,
            avg: 0.0,
            count: -1,
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

    /// Is `avg` in the region where every arrival is dropped?
    pub fn forced_region(&self, avg: f64) -> bool {
        avg >= if self.gentle { 2.0 * self.max_th } else { self.max_th }
    }

    /// Decide for an arrival of `size` bytes, given the early-drop
    /// probability `p_b` at the current avg, with count-based spacing.
    pub fn decide(&mut self, p_b: f64, size: u32, uniform: f64) -> RedVerdict {
        if self.forced_region(self.avg) {
            self.count = 0;
            return RedVerdict::Forced;
        }
        if self.avg < self.min_th {
            self.count = -1;
            return RedVerdict::Accept;
        }
        self.count += 1;
        let p_b = if self.byte_mode { p_b * size as f64 / self.max_packet_bytes } else { p_b };
        let p_a = spaced_probability(p_b, self.count);
        if uniform < p_a {
            self.count = 0;
            RedVerdict::Early
        } else {
            RedVerdict::Accept
        }
    }

    pub fn set(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        match id {
            "min_th" => self.min_th = v,
            "max_th" => self.max_th = v,
            "max_p" => self.max_p = v,
            "w_q" => self.w_q = v,
            "gentle" => self.gentle = switch_on(v),
            "byte_mode" => self.byte_mode = switch_on(v),
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

/// F&J eq. for uniform spacing: p_a = p_b / (1 − count·p_b), capped at 1.
pub fn spaced_probability(p_b: f64, count: i64) -> f64 {
    let denom = 1.0 - count as f64 * p_b;
    if denom <= p_b {
        1.0
    } else {
        (p_b / denom).min(1.0)
    }
}

/// The long-run fraction of arrivals that count spacing drops at a fixed
/// p_b. With p_a = p_b/(1 − count·p_b) and count = 1 for the first arrival
/// after a drop, the survival Π_{k≤n}(1 − p_a(k)) telescopes to
/// (1 − (n+1)·p_b)/(1 − p_b) until p_a reaches 1 at count m = ⌈1/p_b − 1⌉,
/// so the arrivals X between drops are uniform (F&J §7) with
/// E[X] = (m − p_b·m(m+1)/2)/(1 − p_b) ≈ 1/(2·p_b): twice p_b is dropped.
pub fn spaced_drop_fraction(p_b: f64) -> f64 {
    if p_b <= 0.0 {
        return 0.0;
    }
    if p_b >= 0.5 {
        return 1.0; // p_a is already 1 at count 1
    }
    // The first count at which `spaced_probability` gives 1, found with the
    // same floating-point test so that the fraction matches the queue's draws.
    let mut m = (1.0 / p_b - 1.0).ceil().max(1.0) as i64;
    while m > 1 && spaced_probability(p_b, m - 1) >= 1.0 {
        m -= 1;
    }
    while spaced_probability(p_b, m) < 1.0 {
        m += 1;
    }
    let m = m as f64;
    let mean_gap = (m - p_b * m * (m + 1.0) / 2.0) / (1.0 - p_b);
    (1.0 / mean_gap).min(1.0)
}

/// Zheng & Atiquzzaman 2000 §2.3's Markov chain (see [`super::markov`]) with RED's drop
/// function. The paper builds the chain for DSRED only; RED here gets the
/// same construction, with state i standing for avg = i and the per-arrival
/// drop probability RED applies there: 0 below min_th, every arrival in the
/// forced region, and in between the fraction [`spaced_drop_fraction`] of
/// p_b (byte mode scaled for packets of `mean_packet_bytes`). Thresholds in
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
                let p_b = if state.byte_mode { p_b * state.mean_packet_bytes / state.max_packet_bytes } else { p_b };
                1.0 - spaced_drop_fraction(p_b)
            }
        })
        .collect();
    super::markov::birth_death(&p_a, service_rate_pps, loads)
}

/// RED's queue: a FIFO under its hard limit with RED's averaging, idle
/// tracking and verdicts. The schemes built on RED (NLRED, ARED, DSRED,
/// CHOKe, SFRED) share it, the way Linux's red.h serves RED, CHOKe and GRED;
/// each supplies its own drop function.
pub struct RedQueue {
    pub limit: Limit,
    pub state: RedState,
    pub fifo: Fifo,
}

impl RedQueue {
    pub fn new(limit: Limit, link_rate_bps: u64) -> RedQueue {
        RedQueue { limit, state: RedState::new(link_rate_bps), fifo: Fifo::default() }
    }

    /// Fold the queue an arrival sees into avg (Fig. 2's first step).
    pub fn on_arrival(&mut self, now: Nanos) {
        self.state.update_avg(self.fifo.measure(self.limit), now);
    }

    /// Carry out RED's verdict for `pkt` given the early-drop probability
    /// `p_b` at the current avg: a forced drop, an early drop (or ECN mark
    /// when `ecn`), or queueing within the hard limit.
    pub fn admit(&mut self, pkt: Packet, p_b: f64, ecn: bool, ctx: &mut QueueCtx) {
        let pkt = match self.state.decide(p_b, pkt.size_bytes, ctx.rng.uniform()) {
            RedVerdict::Forced => return ctx.drop(pkt, DropReason::Forced),
            RedVerdict::Early => match ctx.drop_or_mark(pkt, DropReason::Early, ecn) {
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

pub struct Red {
    pub(crate) queue: RedQueue,
    ecn: bool,
}

impl Red {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Red {
        Red { queue: RedQueue::new(limit, link_rate_bps), ecn: false }
    }
}

impl Qdisc for Red {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.queue.on_arrival(ctx.now);
        let p_b = self.queue.state.p_b(self.queue.state.avg);
        self.queue.admit(pkt, p_b, self.ecn, ctx);
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        self.queue.dequeue(ctx.now)
    }

    fn len_packets(&self) -> usize {
        self.queue.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.queue.fifo.bytes()
    }

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "ecn" => self.ecn = switch_on(value),
            _ => self.queue.state.set(id, value)?,
        }
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        let s = &self.queue.state;
        out.put("avg", s.avg);
        out.put("p_b", s.p_b(s.avg));
        out.put("count", s.count.max(0) as f64);
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        let s = &self.queue.state;
        Some(self.queue.drop_curve(|x| s.p_b(x)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::testing::Harness;

    fn state(gentle: bool) -> RedState {
        RedState { gentle, ..RedState::new(10_000_000) }
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
        assert!((spaced_probability(0.05, 0) - 0.05).abs() < 1e-12);
        assert!((spaced_probability(0.05, 10) - 0.1).abs() < 1e-12);
        assert_eq!(spaced_probability(0.05, 19), 1.0);
        assert_eq!(spaced_probability(0.05, 100), 1.0);
    }

    #[test]
    fn spaced_drop_fraction_is_what_the_queue_drops_at_a_fixed_p_b() {
        // 400 000 decisions per p_b; the gaps are uniform, so the drop count
        // spreads far less than a binomial one: 1% is many standard deviations.
        for p_b in [0.003, 0.02, 0.1, 0.23, 0.4, 0.5, 0.8] {
            let mut s = state(false);
            s.avg = 10.0;
            let mut rng = crate::kernel::Rng::stream(5, "fraction");
            let decisions = 400_000;
            let drops = (0..decisions).filter(|_| s.decide(p_b, 1000, rng.uniform()) == RedVerdict::Early).count();
            let measured = drops as f64 / decisions as f64;
            let predicted = spaced_drop_fraction(p_b);
            assert!((measured / predicted - 1.0).abs() < 0.01, "p_b {p_b}: {measured} vs {predicted}");
        }
        assert_eq!(spaced_drop_fraction(0.0), 0.0);
        assert!((spaced_drop_fraction(0.1) - 0.2).abs() < 1e-12, "gaps uniform on 1..9, mean 5");
        assert!((spaced_drop_fraction(1e-6) / 2e-6 - 1.0).abs() < 1e-5);
    }

    #[test]
    fn markov_model_matches_a_hand_solved_chain() {
        // min_th 1, max_th 3, max_p 0.2: p_b(2) = 0.1, of which spacing drops
        // 0.2, and state 3 is forced. p_a = [1, 1, 0.8, 0, …]; at ρ = 1
        // V ∝ [1, 1, 1, 0.8], so P_D = 1 − 2.8/3.8 = 1/3.8.
        let s = RedState { min_th: 1.0, max_th: 3.0, max_p: 0.2, ..state(false) };
        let m = markov_model(&s, 10, 1e3, &[1.0])[0];
        assert!((m.drop_probability - 1.0 / 3.8).abs() < 1e-12, "{m:?}");
        assert!((m.delay_s - (1.0 + 2.0 + 3.0 * 0.8) / 3.8e3).abs() < 1e-15);
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
        use crate::queue::dsred::{self, ModelParams, Slopes};
        let loads = [0.5, 0.6, 0.7, 0.8, 0.9];
        for (max_p, gamma) in [(0.1, 0.96), (0.2, 0.91)] {
            let red = markov_model(&RedState { min_th: 6.0, max_th: 20.0, max_p, ..state(false) }, 200, 1e3, &loads);
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
        let mut s = state(false);
        s.avg = 10.0;
        let mut rng = crate::kernel::Rng::stream(3, "gaps");
        let mut hist = [0u32; 12];
        let mut gap = 0;
        for _ in 0..300_000 {
            gap += 1;
            if s.decide(0.1, 1000, rng.uniform()) == RedVerdict::Early {
                hist[gap.min(11)] += 1;
                gap = 0;
            }
        }
        let drops: u32 = hist.iter().sum();
        assert_eq!(hist[0] + hist[10] + hist[11], 0, "{hist:?}");
        for (n, &count) in hist.iter().enumerate().take(10).skip(1) {
            let share = count as f64 / drops as f64;
            assert!((share * 9.0 - 1.0).abs() < 0.05, "gap {n}: {share}");
        }
    }

    #[test]
    fn byte_mode_scales_by_packet_size() {
        let mut s = state(false);
        s.byte_mode = true;
        s.avg = 10.0;
        s.count = -1;
        // A 750-byte packet sees half of p_b; with count 0, p_a = p_b·750/1500 = 0.025.
        assert_eq!(s.decide(0.05, 750, 0.0249), RedVerdict::Early);
        s.count = -1;
        assert_eq!(s.decide(0.05, 750, 0.0251), RedVerdict::Accept);
    }

    #[test]
    fn average_is_the_ewma_of_arrivals() {
        let mut h = Harness::new("red", &[("w_q", 0.5), ("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(1000));
        // Back-to-back arrivals with no departures see q = 0, 1, 2, 3.
        for _ in 0..4 {
            h.arrive(1000);
        }
        let expect = [0.0, 1.0, 2.0, 3.0].iter().fold(0.0, |a, q| 0.5 * a + 0.5 * q);
        assert!((h.probe("avg") - expect).abs() < 1e-12, "{}", h.probe("avg"));
    }

    #[test]
    fn average_decays_over_idle_time() {
        // 10 Mb/s, 1000-byte packets: s = 0.8 ms. After 8 ms idle, m = 10.
        let mut h = Harness::new("red", &[("w_q", 0.1), ("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(1000));
        for _ in 0..20 {
            h.arrive(1000);
        }
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
        for _ in 0..10 {
            h.arrive(1000);
        }
        assert!(h.drops(DropReason::Forced) > 0);
        let mut small = Harness::new("red", &[("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(3));
        for _ in 0..5 {
            small.arrive(1000);
        }
        assert_eq!(small.drops(DropReason::Overflow), 2);
    }

    #[test]
    fn ecn_marks_instead_of_early_drops() {
        let params = [("w_q", 1.0), ("min_th", 1.0), ("max_th", 1000.0), ("max_p", 1.0), ("ecn", 1.0)];
        let mut h = Harness::new("red", &params, Limit::Packets(2000));
        h.ect = true;
        for _ in 0..500 {
            h.arrive(1000);
        }
        assert_eq!(h.drops(DropReason::Early), 0);
        assert!(h.marks > 100);
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
