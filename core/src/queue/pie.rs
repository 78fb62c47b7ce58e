//! PIE — Proportional Integral controller Enhanced (Pan, Natarajan, Baker &
//! White, RFC 8033).
//!
//! Every t_update (15 ms), on its own timer (§4.2):
//!   p' = α·(qdelay − target) + β·(qdelay − qdelay_old)     (delays in s)
//!   p' scaled by the auto-tuning table: /2048 for p < 10⁻⁶, /512 < 10⁻⁵,
//!      /128 < 10⁻⁴, /32 < 10⁻³, /8 < 10⁻², /2 < 10⁻¹, 1 otherwise (§4.2)
//!   p' capped at 0.02 when p ≥ 0.1 (§5.5); p ← p + p'
//!   p ← 0.98·p when qdelay and qdelay_old are both 0; p bounded to [0, 1]
//!   burst_allowance ← max(0, burst_allowance − t_update), and back to
//!   max_burst once p = 0 and both delays are below target/2 (§4.4)
//! On every arrival, unless the burst allowance is left (§4.4):
//!   no drop when qdelay_old < target/2 and p < 0.2, or when at most two
//!   packets (2·mean_pkt_bytes) are queued (§4.1, work conservation);
//!   otherwise drop with probability p, derandomised (§5.4): accu_prob += p,
//!   never drop below 0.85, always at 8.5, reset after each drop.
//!   ECN-capable packets are marked instead while p < mark_ecnth (§5.1).
//!
//! Choices where the RFC leaves room:
//! - qdelay is measured with timestamps (§4.3 allows it in place of the
//!   §5.2 departure-rate estimate): the sojourn time of the last packet
//!   sent, 0 when the queue is empty at the update (as Linux does).
//! - The timer sleeps while nothing can change (queue empty, p = 0,
//!   qdelay_old = 0, full burst allowance) and restarts t_update after the
//!   next arrival; §5.3's active/inactive switch is not implemented.

use super::prelude::*;
use crate::kernel::{NS_PER_MS, NS_PER_S};

pub static INFO: SchemeInfo = SchemeInfo {
    id: "pie",
    name: "PIE",
    paper: "Pan, Natarajan, Baker & White, Proportional Integral Controller Enhanced (PIE), RFC 8033, 2017",
    summary: "A PI controller sets the drop probability every 15 ms from the queueing delay and its trend.",
    params: PieParams::SPECS,
    probes: &[
        ProbeSpec::number("p", "drop probability p", ""),
        ProbeSpec::number("qdelay", "queueing delay at the last update", "ms"),
        ProbeSpec::number("burst_allowance", "burst allowance left", "ms"),
    ],
    build,
    cross_check: no_cross_check,
    model: None,
};

// FQ-PIE runs these per flow queue, with its own defaults where ns-3's differ.
scheme_params! {
    /// PIE's parameters, with RFC 8033's names where it gives one.
    pub struct PieParams {
        target: Nanos as ms = ParamSpec::delay("target delay", 1.0..=1000.0, 1.0, 15.0,
            "QDELAY_REF: the queueing delay the controller steers to."),
        t_update: Nanos as ms = ParamSpec::number("update period", "ms", 1.0..=1000.0, 1.0, 15.0,
            "T_UPDATE: how often p is recomputed."),
        alpha: f64 = ParamSpec::number("integral gain α", "1/s", 0.0..=10.0, 0.005, 0.125,
            "Weight of the distance from target (integral term) in each update."),
        beta: f64 = ParamSpec::number("proportional gain β", "1/s", 0.0..=100.0, 0.05, 1.25,
            "Weight of the delay trend since the last update (proportional term)."),
        max_burst: Nanos as ms = ParamSpec::number("max burst", "ms", 0.0..=10000.0, 1.0, 150.0,
            "MAX_BURST: time after a calm period during which bursts pass without drops."),
        mean_pkt_bytes: u64 = ParamSpec::number("mean packet size", "bytes", 40.0..=65535.0, 1.0, 1500.0,
            "MEAN_PKTSIZE: nothing is dropped while at most two such packets are queued."),
        derandomize: bool = ParamSpec::switch("derandomisation", true,
            "Space drops evenly by accumulating p between drops (§5.4)."),
        ecn: bool = ECN_PARAM.with_doc(
            "Mark ECN-capable packets instead of dropping them while p is below the ECN threshold."),
        mark_ecnth: f64 = ParamSpec::number("ECN threshold", "", 0.0..=1.0, 0.01, 0.1,
            "Above this p even ECN-capable packets are dropped: marking no longer controls the queue."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    let mut pie = Pie::new(setup.limit);
    apply(&mut pie, params);
    pie.state = PieState::new(&pie.params);
    Box::new(pie)
}

/// The auto-tuning factor of §4.2: small p moves in small steps.
fn autotune_scale(p: f64) -> f64 {
    const TABLE: [(f64, f64); 6] = [
        (0.000001, 1.0 / 2048.0),
        (0.00001, 1.0 / 512.0),
        (0.0001, 1.0 / 128.0),
        (0.001, 1.0 / 32.0),
        (0.01, 1.0 / 8.0),
        (0.1, 0.5),
    ];
    TABLE.iter().find(|(below, _)| p < *below).map_or(1.0, |(_, scale)| *scale)
}

/// One queue's PIE controller, the state FQ-PIE keeps per flow queue.
#[derive(Clone, Debug)]
pub struct PieState {
    pub(crate) p: f64,
    qdelay_old: Nanos,
    /// Sojourn time of the last packet sent.
    last_sojourn: Nanos,
    burst_allowance: Nanos,
    accu_prob: f64,
}

impl PieState {
    pub fn new(params: &PieParams) -> PieState {
        PieState { p: 0.0, qdelay_old: 0, last_sojourn: 0, burst_allowance: params.max_burst, accu_prob: 0.0 }
    }

    /// The periodic drop-probability update (§4.2, §4.4, §5.5).
    pub fn update(&mut self, qdelay: Nanos, params: &PieParams) {
        let secs = |t: Nanos| t as f64 / NS_PER_S as f64;
        let target = secs(params.target);
        let mut delta = params.alpha * (secs(qdelay) - target) + params.beta * (secs(qdelay) - secs(self.qdelay_old));
        delta *= autotune_scale(self.p);
        if self.p >= 0.1 && delta > 0.02 {
            delta = 0.02;
        }
        self.p += delta;
        if qdelay == 0 && self.qdelay_old == 0 {
            self.p *= 0.98;
        }
        self.p = self.p.clamp(0.0, 1.0);
        self.burst_allowance = self.burst_allowance.saturating_sub(params.t_update);
        if self.p == 0.0 && qdelay < params.target / 2 && self.qdelay_old < params.target / 2 {
            self.burst_allowance = params.max_burst;
        }
        self.qdelay_old = qdelay;
    }

    /// Should this arrival be dropped (or marked) early, with `fifo` queued? (§4.1, §5.4)
    fn drop_early(&mut self, fifo: &Fifo, uniform: f64, params: &PieParams) -> bool {
        if (self.qdelay_old < params.target / 2 && self.p < 0.2) || fifo.bytes() <= 2 * params.mean_pkt_bytes {
            return false;
        }
        if params.derandomize {
            if self.p == 0.0 {
                self.accu_prob = 0.0;
            }
            self.accu_prob += self.p;
            if self.accu_prob < 0.85 {
                return false;
            }
            if self.accu_prob >= 8.5 {
                return true;
            }
        }
        uniform < self.p
    }

    /// An arrival to `fifo` that fits the buffer: the packet to queue (maybe
    /// marked), or None when it was dropped early.
    pub fn admit(&mut self, pkt: Packet, fifo: &Fifo, params: &PieParams, ctx: &mut QueueCtx) -> Option<Packet> {
        let uniform = ctx.rng.uniform();
        let early = self.burst_allowance == 0 && self.drop_early(fifo, uniform, params);
        if ctx.recording() {
            let in_ms = |t: Nanos| t as f64 / NS_PER_MS as f64;
            let (qdelay, target, burst) = (in_ms(self.qdelay_old), in_ms(params.target), in_ms(self.burst_allowance));
            let state = [self.p, qdelay, target, burst, self.accu_prob, uniform];
            ctx.note(&pkt, &state);
        }
        if early {
            self.accu_prob = 0.0;
            let mark = params.ecn && self.p < params.mark_ecnth;
            return ctx.drop_or_mark(pkt, DropReason::Early, mark);
        }
        Some(pkt)
    }

    /// An arrival dropped because the buffer was full.
    pub fn overflowed(&mut self) {
        self.accu_prob = 0.0;
    }

    /// Take the head of `fifo`, noting its sojourn time.
    pub fn dequeue(&mut self, fifo: &mut Fifo, now: Nanos) -> Option<Packet> {
        let pkt = fifo.pop()?;
        self.last_sojourn = now.saturating_sub(pkt.enqueued_at);
        Some(pkt)
    }

    /// The queueing delay an update sees: the last sojourn, 0 for an empty queue.
    pub fn qdelay(&self, fifo: &Fifo) -> Nanos {
        if fifo.is_empty() {
            0
        } else {
            self.last_sojourn
        }
    }

    /// Nothing can change until the next arrival: the timer may sleep.
    pub fn calm(&self, fifo: &Fifo, params: &PieParams) -> bool {
        fifo.is_empty() && self.p == 0.0 && self.qdelay_old == 0 && self.burst_allowance == params.max_burst
    }

    /// A lowered MAX_BURST cuts the allowance left.
    pub fn limit_burst(&mut self, params: &PieParams) {
        self.burst_allowance = self.burst_allowance.min(params.max_burst);
    }

    pub fn probe(&self, out: &mut ProbeSink) {
        out.put("p", self.p);
        out.put("qdelay", self.qdelay_old as f64 / NS_PER_MS as f64);
        out.put("burst_allowance", self.burst_allowance as f64 / NS_PER_MS as f64);
    }
}

/// PIE's update timer: it runs every t_update while anything can change.
#[derive(Default)]
pub struct UpdateTimer {
    /// The pending update, if the timer runs.
    next: Option<Nanos>,
}

impl UpdateTimer {
    /// Start the timer, t_update from now, unless it runs.
    pub fn arm(&mut self, t_update: Nanos, ctx: &mut QueueCtx) {
        if self.next.is_none() {
            let at = ctx.now + t_update;
            self.next = Some(at);
            ctx.wake_at(at);
        }
    }

    /// On a wake-up: the time the update was due, if it is, and the timer
    /// stops until [`Self::rearm`]. Early: the wake-up asked for is still on its way.
    pub fn take_due(&mut self, now: Nanos) -> Option<Nanos> {
        let due = self.next.filter(|due| now >= *due)?;
        self.next = None;
        Some(due)
    }

    pub fn rearm(&mut self, at: Nanos, ctx: &mut QueueCtx) {
        self.next = Some(at);
        ctx.wake_at(at);
    }
}

pub struct Pie {
    limit: Limit,
    fifo: Fifo,
    params: PieParams,
    state: PieState,
    timer: UpdateTimer,
}

impl Pie {
    pub fn new(limit: Limit) -> Pie {
        let params = PieParams::default();
        Pie { limit, fifo: Fifo::default(), state: PieState::new(&params), params, timer: UpdateTimer::default() }
    }
}

impl Qdisc for Pie {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.timer.arm(self.params.t_update, ctx);
        if self.fifo.is_full_for(self.limit, pkt.size_bytes) {
            self.state.overflowed();
            return ctx.drop(pkt, DropReason::Overflow);
        }
        if let Some(pkt) = self.state.admit(pkt, &self.fifo, &self.params, ctx) {
            self.fifo.push(pkt);
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        self.state.dequeue(&mut self.fifo, ctx.now)
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        let Some(due) = self.timer.take_due(ctx.now) else { return };
        self.state.update(self.state.qdelay(&self.fifo), &self.params);
        if !self.state.calm(&self.fifo, &self.params) {
            self.timer.rearm(due + self.params.t_update, ctx);
        }
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        self.params.set(id, v)?;
        self.state.limit_burst(&self.params);
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.state.probe(out);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }
}

/// The state a PIE decision records (FQ-PIE's per flow queue too), in
/// [`PieState::admit`]'s order.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    decision::DROP_PROBABILITY,
    FieldSpec::new("qdelay_ms", "queue delay at the last update", "qdelay", "ms"),
    decision::TARGET,
    FieldSpec::new("burst_allowance_ms", "burst allowance left", "burst_allowance", "ms"),
    FieldSpec::new("accu_prob", "accumulated probability (derandomised)", "accu_prob", ""),
    decision::DRAW,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::net::{Dir, Ecn, PacketKind};
    use crate::queue::codel::tests::bufferbloat;
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::testing::run;

    const MS: Nanos = NS_PER_MS;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-15 * b.abs().max(1e-3)
    }

    #[test]
    fn autotuning_table() {
        let cases = [(0.0, 2048.0), (9.9e-7, 2048.0), (1e-6, 512.0), (5e-5, 128.0), (5e-4, 32.0), (0.005, 8.0)];
        for (p, div) in cases {
            assert_eq!(autotune_scale(p), 1.0 / div, "p = {p}");
        }
        assert_eq!(autotune_scale(0.05), 0.5);
        assert_eq!(autotune_scale(0.1), 1.0);
        assert_eq!(autotune_scale(0.9), 1.0);
    }

    #[test]
    fn update_follows_the_pi_law_with_its_scale_factors() {
        let mut pie = Pie::new(Limit::Packets(100));
        // From p = 0: (α·(30 − 15) + β·(30 − 0)) ms / 2048.
        pie.state.update(30 * MS, &pie.params);
        let p1 = (0.125 * 0.015 + 1.25 * 0.030) / 2048.0;
        assert!(close(pie.state.p, p1), "{} vs {p1}", pie.state.p);
        // p1 ≈ 1.9e-5 is in [1e-5, 1e-4): the step is divided by 128; no trend.
        pie.state.update(30 * MS, &pie.params);
        let p2 = p1 + 0.125 * 0.015 / 128.0;
        assert!(close(pie.state.p, p2), "{} vs {p2}", pie.state.p);
        // p in [0.01, 0.1): halved.
        pie.state.p = 0.05;
        pie.state.update(45 * MS, &pie.params);
        assert!(close(pie.state.p, 0.05 + (0.125 * 0.030 + 1.25 * 0.015) / 2.0), "{}", pie.state.p);
        // p ≥ 0.1: full step, but at most +0.02 (§5.5).
        pie.state.p = 0.5;
        pie.state.update(200 * MS, &pie.params);
        assert!(close(pie.state.p, 0.52), "{}", pie.state.p);
        pie.state.update(100 * MS, &pie.params);
        assert!(close(pie.state.p, 0.52 + 0.125 * 0.085 + 1.25 * -0.1), "a decrease is not capped: {}", pie.state.p);
    }

    #[test]
    fn an_empty_queue_decays_p_geometrically() {
        let mut pie = Pie::new(Limit::Packets(100));
        pie.state.p = 0.3;
        pie.state.update(0, &pie.params);
        // Both samples are 0: the PI step (−α·target), then ×0.98.
        assert!(close(pie.state.p, (0.3 - 0.125 * 0.015) * 0.98), "{}", pie.state.p);
        pie.state.p = 0.001;
        pie.state.update(0, &pie.params);
        pie.state.update(0, &pie.params);
        assert!(pie.state.p < 0.001 * 0.98 * 0.98 && pie.state.p > 0.0);
        pie.state.p = 1.0;
        pie.state.update(500 * MS, &pie.params);
        assert_eq!(pie.state.p, 1.0, "bounded");
    }

    #[test]
    fn burst_allowance_drains_by_t_update_and_refills_when_calm() {
        let mut pie = Pie::new(Limit::Packets(100));
        pie.state.burst_allowance = pie.params.max_burst;
        for k in 1..=10u64 {
            pie.state.update(20 * MS, &pie.params);
            assert_eq!(pie.state.burst_allowance, (150 - 15 * k) * MS);
        }
        pie.state.update(20 * MS, &pie.params);
        assert_eq!(pie.state.burst_allowance, 0);
        // Calm: p back to 0 and two samples below target/2.
        pie.state.p = 0.0;
        pie.state.update(5 * MS, &pie.params);
        assert_eq!(pie.state.burst_allowance, 0, "the previous sample (20 ms) was above target/2");
        pie.state.p = 0.0;
        pie.state.update(5 * MS, &pie.params);
        assert_eq!(pie.state.burst_allowance, 150 * MS);
    }

    #[test]
    fn p_is_updated_on_the_timer_even_without_arrivals() {
        // 100 packets at 0, one sent at 40 ms (sojourn 40 ms), then silence:
        // the queue is not empty, so every 15 ms p moves with qdelay = 40 ms.
        let mut h = Harness::new("pie", &[], Limit::Packets(1000));
        h.arrive_n(100, 1000);
        h.advance_to(40 * MS);
        h.depart();
        let mut pie = Pie::new(Limit::Packets(1000));
        pie.state.update(0, &pie.params);
        pie.state.update(0, &pie.params);
        h.advance_to(300 * MS);
        for _ in 0..(300 / 15 - 2) {
            pie.state.update(40 * MS, &pie.params);
        }
        assert!(close(h.probe("p"), pie.state.p), "{} vs {}", h.probe("p"), pie.state.p);
        assert!(h.probe("p") > 0.001);
        assert_eq!(h.probe("qdelay"), 40.0);
        assert_eq!(h.probe("burst_allowance"), 0.0);
    }

    #[test]
    fn the_timer_stops_when_calm_and_restarts_on_arrival() {
        let mut h = Harness::new("pie", &[], Limit::Packets(1000));
        h.arrive(1000);
        assert_eq!(h.wake_at, Some(15 * MS));
        h.depart();
        h.advance_to(15 * MS);
        assert_eq!(h.wake_at, None, "empty, p = 0, full allowance: nothing left to update");
        h.advance_to(100 * MS);
        h.arrive(1000);
        assert_eq!(h.wake_at, Some(115 * MS));
    }

    /// Offer `n` arrivals to `pie` with p held fixed; the indices dropped or marked.
    fn arrivals(pie: &mut Pie, n: usize, ect: bool) -> (Vec<usize>, Vec<usize>) {
        let mut rng = Rng::stream(7, "pie-test");
        let (mut dropped, mut marked) = (Vec::new(), Vec::new());
        for i in 0..n {
            let mut out = QueueOutcome::default();
            let mut pkt = Packet::new(0, PacketKind::Data, Dir::Forward, 1000, 960);
            pkt.ecn = if ect { Ecn::Ect0 } else { Ecn::NotEct };
            pie.enqueue(pkt, &mut QueueCtx::new(0, &mut rng, &mut out));
            if !out.drops.is_empty() {
                dropped.push(i);
            }
            if !out.marks.is_empty() {
                marked.push(i);
            }
            if pie.fifo.len() > 20 {
                pie.fifo.pop();
            }
        }
        (dropped, marked)
    }

    fn congested(p: f64) -> Pie {
        let mut pie = Pie::new(Limit::Packets(1000));
        pie.state.p = p;
        pie.state.qdelay_old = 30 * MS;
        pie.state.burst_allowance = 0;
        pie
    }

    #[test]
    fn derandomisation_spaces_drops_between_0_85_and_8_5_accumulated() {
        let mut pie = congested(0.1);
        let (dropped, _) = arrivals(&mut pie, 20_000, false);
        let gaps: Vec<usize> = dropped.windows(2).map(|w| w[1] - w[0]).collect();
        // accu_prob = n·p: no drop before 0.9 (9 arrivals), surely by 8.5 (86).
        assert!(gaps.iter().all(|g| (9..=86).contains(g)), "{:?}", (gaps.iter().min(), gaps.iter().max()));
        // After the 8 sure passes, each arrival is dropped with p: mean gap 8 + 1/p.
        let mean = gaps.iter().sum::<usize>() as f64 / gaps.len() as f64;
        assert!((mean - 18.0).abs() < 0.5, "{mean}");
        let mut random = congested(0.1);
        random.params.derandomize = false;
        let (dropped, _) = arrivals(&mut random, 20_000, false);
        let share = dropped.len() as f64 / 20_000.0;
        assert!((share - 0.1).abs() < 0.01, "plain Bernoulli drops: {share}");
        assert!(dropped.windows(2).any(|w| w[1] - w[0] == 1));
    }

    #[test]
    fn safeguards_keep_pie_work_conserving() {
        // Short delay and p < 0.2: nothing dropped.
        let mut pie = congested(0.15);
        pie.state.qdelay_old = 7 * MS;
        assert!(arrivals(&mut pie, 1000, false).0.is_empty());
        // The same delay with p ≥ 0.2 drops.
        let mut pie = congested(0.25);
        pie.state.qdelay_old = 7 * MS;
        assert!(!arrivals(&mut pie, 1000, false).0.is_empty());
        // At most two packets queued: never a drop, whatever p.
        let mut pie = congested(0.9);
        let mut rng = Rng::stream(1, "x");
        for _ in 0..1000 {
            let mut out = QueueOutcome::default();
            pie.enqueue(
                Packet::new(0, PacketKind::Data, Dir::Forward, 1500, 1460),
                &mut QueueCtx::new(0, &mut rng, &mut out),
            );
            assert!(out.drops.is_empty());
            if pie.fifo.len() > 2 {
                pie.fifo.pop();
            }
        }
        // Within the burst allowance: no drop either.
        let mut pie = congested(0.9);
        pie.state.burst_allowance = MS;
        assert!(arrivals(&mut pie, 1000, false).0.is_empty());
    }

    #[test]
    fn ecn_marks_only_below_mark_ecnth() {
        // Derandomised, a signal comes every ⌈0.85/p⌉ − 1 + 1/p arrivals on average.
        let mut pie = congested(0.05);
        pie.params.ecn = true;
        let (dropped, marked) = arrivals(&mut pie, 10_000, true);
        assert!(dropped.is_empty());
        assert!((marked.len() as f64 / (10_000.0 / 37.0) - 1.0).abs() < 0.1, "{}", marked.len());
        let mut pie = congested(0.15);
        pie.params.ecn = true;
        let (dropped, marked) = arrivals(&mut pie, 10_000, true);
        assert!(marked.is_empty(), "above 10 % marking no longer suffices");
        assert!((dropped.len() as f64 / (10_000.0 / (5.0 + 1.0 / 0.15)) - 1.0).abs() < 0.1, "{}", dropped.len());
    }

    #[test]
    fn pie_steers_the_queueing_delay_to_its_target() {
        // The PI law settles where the sampled delay equals target; the mean
        // over packets runs a little higher (samples of an empty queue are 0).
        for target in [15.0, 50.0] {
            let s =
                run(&bufferbloat(&format!(r#"{{ "scheme": "pie", "params": {{ "target": {target} }} }}"#), false, ""));
            let ratio = s.queue.mean_delay_ms / target;
            assert!((0.8..1.3).contains(&ratio), "target {target} ms: mean {} ms", s.queue.mean_delay_ms);
            assert!(s.utilization > 0.97, "{}", s.utilization);
            assert_eq!(s.drops.by_reason.overflow, 0);
        }
    }

    #[test]
    fn ecn_capable_tcp_sees_marks_instead_of_drops() {
        let s = run(&bufferbloat(r#"{ "scheme": "pie", "params": { "ecn": true } }"#, true, ""));
        // p stays far below mark_ecnth (10 %) with ten flows: signals are
        // marks; a rare drop hits a retransmission, never ECN-capable.
        assert!(s.marks > 100, "{}", s.marks);
        assert!(s.drops.total * 50 <= s.marks, "{:?} vs {} marks", s.drops, s.marks);
        assert!(s.utilization > 0.97, "{}", s.utilization);
        assert!((0.8..1.5).contains(&(s.queue.mean_delay_ms / 15.0)), "{:?}", s.queue);
    }
}
