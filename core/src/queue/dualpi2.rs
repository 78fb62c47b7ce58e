//! DualPI2 — the coupled dual-queue AQM for L4S (De Schepper, Briscoe &
//! White, RFC 9332, 2023; defaults of Linux `sch_dualpi2`).
//!
//! Arrivals are classified by ECN codepoint (§2.5.1): ECT(1) and CE go to
//! the L (low-latency) queue, ECT(0) and Not-ECT to the C (classic) queue.
//! Every t_update (16 ms), on its own timer, a PI controller (§2.5.2, App. A):
//!   p′ ← clamp(p′ + α·(q_C − target) + β·(q_C − q_C,prev), 0, 1)  (delays in s)
//!   p_C = p′²  (classic: squared, as Reno/CUBIC respond to 1/√p)
//!   p_CL = min(k·p′, 1)  (coupled L4S probability, k = 2)
//! At dequeue, the scheduler (WRR or time-shifted FIFO, below) picks the queue, then:
//!   L packet: p_L = max(p_native, p_CL), p_native = 1 when its sojourn ≥
//!     step_thresh (1 ms), else 0 (or, with step_range > 0, RFC 9332
//!     App. A's ramp from step_thresh up to 1 at step_thresh + step_range);
//!     mark CE with p_L. Overload (p′ > 1/k, so
//!     p_CL would saturate): drop with p_C instead (App. A.2).
//!   C packet: with p_C, mark CE if ECT(0), otherwise drop.
//! Defaults: target 15 ms, t_update 16 ms, α 0.16 Hz, β 3.2 Hz, k 2, step
//! 1 ms, C protection 10 % (Linux sch_dualpi2; §A.1).
//!
//! Choices where the RFC leaves room:
//! - q_C is the larger head sojourn time of the two queues at the update,
//!   as Linux does, not the C queue's alone (App. A's `cq.time()`): an
//!   unresponsive ECT(1) flood then raises p′ too, and so reaches the
//!   overload rule that protects the C queue; with the C queue's delay alone
//!   an L-only overload would never be controlled.
//! - The scheduler is Linux's credit WRR (§4.2.2 allows any conservative
//!   one): serving L adds c_protection·bytes to a credit, serving C subtracts
//!   (100 − c_protection)·bytes, C is served when the credit is positive and
//!   both queues hold packets, so C gets c_protection % of the bytes when
//!   both are backlogged and everything when L is empty.
//! - The buffer limit is shared by both queues; a full buffer drops at the tail.
//! - The timer sleeps while nothing can change (queues empty, p′ = 0, last
//!   delay 0) and restarts t_update after the next arrival, as PIE's does.
//! - Beside the WRR, `time_shifted_fifo` selects RFC 9332's time-shifted
//!   FIFO (§4.2.2, App. A.1's note on the scheduler): serve the head packet
//!   that arrived first once the C queue's arrival times are moved later by
//!   tshift, so an L packet leaves before a C packet that arrived less than
//!   tshift before it. Linux `sch_dualpi2` offers only the WRR; the RFC gives
//!   no tshift value, 30 ms (twice the target) is this model's choice.
//! - Th_len (`min_qlen_step`): the native step (or ramp) applies only while
//!   the L queue, after the packet leaves, still holds at least this many
//!   packets, as Linux's `min_qlen_step`, default 0 (always). RFC 9332
//!   App. A.1 suggests 1 packet, so a lone packet is never step-marked; the
//!   coupled k·p′ still applies to it. The default keeps Linux's behaviour.

use super::prelude::*;
use crate::kernel::{NS_PER_MS, NS_PER_S};
use crate::net::{Ecn, Lane};

pub static INFO: SchemeInfo = SchemeInfo {
    id: "dualpi2",
    name: "DualPI2",
    paper: "De Schepper, Briscoe & White, Dual-Queue Coupled AQM for Low Latency, Low Loss, and Scalable Throughput (L4S), RFC 9332, 2023",
    summary: "Two queues: L4S (ECT(1)) packets are marked early by a step and a coupled PI probability, classic ones by its square.",
    params: DualPi2Params::SPECS,
    probes: &[
        ProbeSpec::number("p_prime", "base probability p′", ""),
        ProbeSpec::number("p_c", "classic probability p_C = p′²", ""),
        ProbeSpec::number("p_l", "L4S probability p_L", ""),
        ProbeSpec::number("sojourn_l", "sojourn of the last L packet sent", "ms"),
        ProbeSpec::number("sojourn_c", "sojourn of the last C packet sent", "ms"),
    ],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// DualPI2's parameters, named as in Linux `sch_dualpi2`.
    pub struct DualPi2Params {
        target: Nanos as ms = ParamSpec::delay("target delay", 1.0..=1000.0, 1.0, 15.0,
            "The queueing delay (the longer head sojourn of the two queues) the PI controller steers to."),
        t_update: Nanos as ms = ParamSpec::number("update period", "ms", 1.0..=1000.0, 1.0, 16.0,
            "Tupdate: how often p′ is recomputed."),
        alpha: f64 = ParamSpec::number("integral gain α", "1/s", 0.0..=10.0, 0.01, 0.16,
            "Weight of the distance from target (integral term) in each update."),
        beta: f64 = ParamSpec::number("proportional gain β", "1/s", 0.0..=100.0, 0.01, 3.2,
            "Weight of the delay change since the last update (proportional term)."),
        k: f64 = ParamSpec::number("coupling factor k", "", 0.5..=16.0, 0.5, 2.0,
            "L4S packets are marked with k·p′; above p′ = 1/k the L queue is overloaded and drops."),
        step_thresh: Nanos as ms = ParamSpec::number("L4S step threshold", "ms", 0.1..=100.0, 0.1, 1.0,
            "An L4S packet that waited at least this long is always marked (the native L4S AQM)."),
        step_range: Nanos as ms = ParamSpec::number("L4S ramp width", "ms", 0.0..=100.0, 0.1, 0.0,
            "Above the step threshold the native marking rises linearly to 1 over this width (RFC 9332's ramp); 0 is Linux's step."),
        c_protection: f64 = ParamSpec::number("classic protection", "%", 0.0..=100.0, 1.0, 10.0,
            "Share of the bytes the scheduler gives the classic queue while both queues are backlogged."),
        time_shifted_fifo: bool = ParamSpec::switch("time-shifted FIFO scheduler", false,
            "On: serve the packet that arrived first, counting a classic packet as arrived tshift later (RFC 9332); off: the WRR with classic protection (Linux)."),
        tshift: Nanos as ms = ParamSpec::number("time shift tshift", "ms", 0.0..=1000.0, 1.0, 30.0,
            "How much later the time-shifted FIFO counts a classic packet's arrival: an L packet goes first unless the classic one has waited this much longer."),
        min_qlen_step: u64 = ParamSpec::number("L4S step minimum queue Th_len", "packets", 0.0..=1000.0, 1.0, 0.0,
            "The step (or ramp) marks an L4S packet only while at least this many L4S packets stay queued behind it; 0 always (Linux), 1 spares a lone packet (RFC 9332)."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(DualPi2::new(setup.limit), params)
}

/// Does this packet belong in the L queue? ECT(1) and CE (§2.5.1.1).
fn is_l4s(pkt: &Packet) -> bool {
    matches!(pkt.ecn, Ecn::Ect1 | Ecn::Ce)
}

pub struct DualPi2 {
    limit: Limit,
    l: Fifo,
    c: Fifo,
    params: DualPi2Params,
    p_prime: f64,
    /// Queue delay at the last update (q_C,prev).
    qdelay_prev: Nanos,
    /// WRR credit: C is served when it is positive and both queues are busy.
    credit: f64,
    sojourn_l: Nanos,
    sojourn_c: Nanos,
    /// The pending update, if the timer runs.
    next_update: Option<Nanos>,
}

impl DualPi2 {
    pub fn new(limit: Limit) -> DualPi2 {
        DualPi2 {
            limit,
            l: Fifo::default(),
            c: Fifo::default(),
            params: DualPi2Params::default(),
            p_prime: 0.0,
            qdelay_prev: 0,
            credit: 0.0,
            sojourn_l: 0,
            sojourn_c: 0,
            next_update: None,
        }
    }

    /// The PI update with queue delay `qdelay` (§2.5.2, App. A.1).
    fn update(&mut self, qdelay: Nanos) {
        let secs = |t: Nanos| t as f64 / NS_PER_S as f64;
        let delta = self.params.alpha * (secs(qdelay) - secs(self.params.target))
            + self.params.beta * (secs(qdelay) - secs(self.qdelay_prev));
        self.p_prime = (self.p_prime + delta).clamp(0.0, 1.0);
        self.qdelay_prev = qdelay;
    }

    fn p_c(&self) -> f64 {
        self.p_prime * self.p_prime
    }

    /// The coupled L4S probability min(k·p′, 1).
    fn p_cl(&self) -> f64 {
        (self.params.k * self.p_prime).min(1.0)
    }

    /// The native L4S probability for a sojourn: the step, or the ramp.
    fn p_native(&self, sojourn: Nanos) -> f64 {
        let (from, width) = (self.params.step_thresh, self.params.step_range);
        if sojourn >= from + width {
            1.0
        } else if sojourn <= from {
            0.0
        } else {
            (sojourn - from) as f64 / width as f64
        }
    }

    fn overloaded(&self) -> bool {
        self.p_prime > 1.0 / self.params.k
    }

    /// The larger head sojourn time of the two queues at `now`.
    fn queue_delay(&self, now: Nanos) -> Nanos {
        let head = |q: &Fifo| q.front().map_or(0, |p| now.saturating_sub(p.enqueued_at));
        head(&self.l).max(head(&self.c))
    }

    fn arm(&mut self, ctx: &mut QueueCtx) {
        if self.next_update.is_none() {
            let at = ctx.now + self.params.t_update;
            self.next_update = Some(at);
            ctx.wake_at(at);
        }
    }

    /// The WRR choice: serve L unless C has credit, or L is empty.
    fn pick_l(&mut self) -> Option<bool> {
        match (self.l.is_empty(), self.c.is_empty()) {
            (true, true) => None,
            (false, true) => Some(true),
            (true, false) => Some(false),
            (false, false) => Some(self.credit <= 0.0),
        }
    }

    /// The time-shifted FIFO's choice: L unless the C head arrived more than
    /// tshift before the L head.
    fn pick_l_time_shifted(&self) -> Option<bool> {
        match (self.l.front(), self.c.front()) {
            (None, None) => None,
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (Some(l), Some(c)) => Some(l.enqueued_at <= c.enqueued_at.saturating_add(self.params.tshift)),
        }
    }

    /// Pop the next packet by WRR (charging the credit while both are busy)
    /// or by the time-shifted FIFO.
    fn schedule(&mut self, now: Nanos) -> Option<(Packet, bool)> {
        let both = !self.l.is_empty() && !self.c.is_empty();
        let from_l = if self.params.time_shifted_fifo { self.pick_l_time_shifted() } else { self.pick_l() }?;
        let pkt = if from_l { self.l.pop() } else { self.c.pop() }?;
        let sojourn = now.saturating_sub(pkt.enqueued_at);
        let bytes = pkt.size_bytes as f64;
        if from_l {
            self.sojourn_l = sojourn;
            if both {
                self.credit += self.params.c_protection * bytes;
            }
        } else {
            self.sojourn_c = sojourn;
            if both {
                self.credit -= (100.0 - self.params.c_protection) * bytes;
            }
        }
        Some((pkt, from_l))
    }

    /// The L4S rule for a packet leaving the L queue: mark with p_L, or drop
    /// with p_C under overload.
    fn signal_l(&self, pkt: Packet, ctx: &mut QueueCtx) -> Option<Packet> {
        let uniform = ctx.rng.uniform();
        if self.overloaded() {
            self.note(&pkt, true, self.p_c(), uniform, ctx);
            return if uniform < self.p_c() { ctx.drop_or_mark(pkt, DropReason::Early, false) } else { Some(pkt) };
        }
        // Th_len: the native AQM spares a packet the L queue holds too few behind.
        let native = if self.l.len() as u64 >= self.params.min_qlen_step {
            self.p_native(ctx.now.saturating_sub(pkt.enqueued_at))
        } else {
            0.0
        };
        let p_l = native.max(self.p_cl());
        self.note(&pkt, true, p_l, uniform, ctx);
        if uniform < p_l {
            ctx.drop_or_mark(pkt, DropReason::Early, true)
        } else {
            Some(pkt)
        }
    }

    /// The classic rule: mark ECT(0) or drop the rest with p_C.
    fn signal_c(&self, pkt: Packet, ctx: &mut QueueCtx) -> Option<Packet> {
        let uniform = ctx.rng.uniform();
        self.note(&pkt, false, self.p_c(), uniform, ctx);
        if uniform < self.p_c() {
            ctx.drop_or_mark(pkt, DropReason::Early, true)
        } else {
            Some(pkt)
        }
    }

    /// The inspector's record of the rule applied to `pkt` ([`DECISION_FIELDS`]).
    fn note(&self, pkt: &Packet, l4s: bool, p: f64, uniform: f64, ctx: &mut QueueCtx) {
        if ctx.recording() {
            let sojourn_ms = ctx.now.saturating_sub(pkt.enqueued_at) as f64 / NS_PER_MS as f64;
            ctx.note(pkt, &[if l4s { 1.0 } else { 0.0 }, sojourn_ms, self.p_prime, p, uniform]);
        }
    }
}

/// The state DualPI2 records with each decision: the rule a packet met on
/// leaving its queue (p_L or, under overload, p_C for L4S; p_C for classic).
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("l4s", "queue the packet left (1 = L4S, 0 = classic)", "L", ""),
    FieldSpec::new("sojourn_ms", "the packet's sojourn", "sojourn", "ms"),
    FieldSpec::new("p_prime", "base probability", "p′", ""),
    FieldSpec::new("p", "probability applied to this packet", "p", ""),
    decision::DRAW,
];

impl Qdisc for DualPi2 {
    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn enqueue(&mut self, mut pkt: Packet, ctx: &mut QueueCtx) {
        self.arm(ctx);
        // Classified before the limit check, so tail drops count per queue too.
        pkt.lane = if is_l4s(&pkt) { Lane::L4s } else { Lane::Classic };
        if self.limit.exceeded_by(self.len_packets(), self.len_bytes(), pkt.size_bytes) {
            return ctx.drop(pkt, DropReason::Overflow);
        }
        if pkt.lane == Lane::L4s {
            self.l.push(pkt);
        } else {
            self.c.push(pkt);
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        while let Some((pkt, from_l)) = self.schedule(ctx.now) {
            let sent = if from_l { self.signal_l(pkt, ctx) } else { self.signal_c(pkt, ctx) };
            if sent.is_some() {
                return sent;
            }
        }
        None
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        let Some(due) = self.next_update.filter(|due| *due <= ctx.now) else {
            return;
        };
        self.update(self.queue_delay(ctx.now));
        let calm = self.l.is_empty() && self.c.is_empty() && self.p_prime == 0.0 && self.qdelay_prev == 0;
        self.next_update = None;
        if !calm {
            self.next_update = Some(due + self.params.t_update);
            ctx.wake_at(due + self.params.t_update);
        }
    }

    fn len_packets(&self) -> usize {
        self.l.len() + self.c.len()
    }

    fn len_bytes(&self) -> u64 {
        self.l.bytes() + self.c.bytes()
    }

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        self.params.set(id, v)
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("p_prime", self.p_prime);
        out.put("p_c", self.p_c());
        out.put("p_l", self.p_cl().max(self.p_native(self.sojourn_l)));
        out.put("sojourn_l", self.sojourn_l as f64 / NS_PER_MS as f64);
        out.put("sojourn_c", self.sojourn_c as f64 / NS_PER_MS as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::net::{Dir, PacketKind};
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::testing::{dumbbell, run};

    const MS: Nanos = NS_PER_MS;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1e-3)
    }

    fn packet(flow: crate::net::FlowId, ecn: Ecn, at: Nanos) -> Packet {
        let mut p = Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 960);
        p.ecn = ecn;
        p.enqueued_at = at;
        p
    }

    /// Send `n` packets of codepoint `ecn` one at a time, each waiting
    /// `sojourn`, with p′ held; the numbers marked and dropped.
    fn signals(q: &mut DualPi2, n: usize, ecn: Ecn, sojourn: Nanos) -> (usize, usize) {
        let mut rng = Rng::stream(3, "dualpi2-test");
        let mut out = QueueOutcome::default();
        for _ in 0..n {
            q.enqueue(packet(0, ecn, 0), &mut QueueCtx::new(0, &mut rng, &mut out));
            q.dequeue(&mut QueueCtx::new(sojourn, &mut rng, &mut out));
        }
        (out.marks.len(), out.drops.len())
    }

    fn held(p_prime: f64) -> DualPi2 {
        let mut q = DualPi2::new(Limit::Packets(1000));
        q.p_prime = p_prime;
        q
    }

    /// Within 4 standard deviations of n·p.
    fn binomial(count: usize, n: usize, p: f64) -> bool {
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        (count as f64 - n as f64 * p).abs() <= 4.0 * sd.max(0.5)
    }

    #[test]
    fn ect1_and_ce_go_to_the_l_queue_ect0_and_not_ect_to_the_c_queue() {
        let mut q = DualPi2::new(Limit::Packets(10));
        let (mut rng, mut out) = (Rng::stream(1, "x"), QueueOutcome::default());
        for (flow, ecn) in [(0, Ecn::Ect1), (1, Ecn::Ce), (2, Ecn::Ect0), (3, Ecn::NotEct)] {
            q.enqueue(packet(flow, ecn, 0), &mut QueueCtx::new(0, &mut rng, &mut out));
        }
        let flows = |f: &Fifo| (0..f.len()).map(|i| f.get(i).map(|p| p.flow)).collect::<Vec<_>>();
        assert_eq!(flows(&q.l), [Some(0), Some(1)]);
        assert_eq!(flows(&q.c), [Some(2), Some(3)]);
        assert_eq!((q.len_packets(), q.len_bytes()), (4, 4000));
    }

    #[test]
    fn the_pi_update_integrates_the_error_and_adds_the_change() {
        let mut q = DualPi2::new(Limit::Packets(10));
        let delays = [20, 25, 30, 30];
        for d in delays {
            q.update(d * MS);
        }
        // The β terms telescope: p′ = α·Σ(q_i − target) + β·(q_n − q_0), q_0 = 0.
        let expected = 0.16 * (0.005 + 0.010 + 0.015 + 0.015) + 3.2 * 0.030;
        assert!(close(q.p_prime, expected), "{} vs {expected}", q.p_prime);
        q.update(1000 * MS);
        assert_eq!(q.p_prime, 1.0, "clamped above");
        q.update(0);
        assert_eq!(q.p_prime, 0.0, "clamped below");
    }

    #[test]
    fn the_timer_updates_p_prime_from_the_head_sojourn_every_t_update() {
        // Ten classic packets at 0, none sent: at 16 n ms the head has waited 16 n ms.
        let mut h = Harness::new("dualpi2", &[], Limit::Packets(100));
        h.arrive_n(10, 1000);
        assert_eq!(h.wake_at, Some(16 * MS));
        h.advance_to(32 * MS);
        let expected = 0.16 * (0.001 + 0.017) + 3.2 * 0.032;
        assert!(close(h.probe("p_prime"), expected), "{} vs {expected}", h.probe("p_prime"));
        assert!(close(h.probe("p_c"), expected * expected));
        assert_eq!(h.wake_at, Some(48 * MS));
    }

    #[test]
    fn p_c_is_p_prime_squared_and_p_l_is_k_p_prime_or_the_step() {
        let q = held(0.3);
        let mut out = vec![0.0; INFO.probes.len()];
        q.probe(&mut ProbeSink::new(INFO.probes, &mut out));
        assert!(close(out[1], 0.09) && close(out[2], 0.6), "{out:?}");
        // Classic: ECT(0) marked, Not-ECT dropped, both with p′² = 0.09.
        let (marked, dropped) = signals(&mut held(0.3), 20_000, Ecn::Ect0, 0);
        assert!(binomial(marked, 20_000, 0.09) && dropped == 0, "{marked} {dropped}");
        let (marked, dropped) = signals(&mut held(0.3), 20_000, Ecn::NotEct, 0);
        assert!(binomial(dropped, 20_000, 0.09) && marked == 0, "{marked} {dropped}");
        // L4S below the step: marked with k·p′ = 0.6, never dropped.
        let (marked, dropped) = signals(&mut held(0.3), 20_000, Ecn::Ect1, 0);
        assert!(binomial(marked, 20_000, 0.6) && dropped == 0, "{marked} {dropped}");
        // The step: every L packet that waited 1 ms is marked, even at p′ = 0.
        assert_eq!(signals(&mut held(0.0), 1000, Ecn::Ect1, MS), (1000, 0));
        assert_eq!(signals(&mut held(0.0), 1000, Ecn::Ect1, MS - 1), (0, 0));
        let mut q = held(0.0);
        q.set_param("step_thresh", 5.0).unwrap();
        assert_eq!(signals(&mut q, 1000, Ecn::Ect1, 4 * MS), (0, 0), "step_thresh moves the step");
    }

    #[test]
    fn the_ramp_marks_in_proportion_to_the_sojourn_past_the_threshold() {
        // RFC 9332 App. A's ramp: 800 µs plus 400 µs.
        let ramp = |p_prime: f64| {
            let mut q = held(p_prime);
            q.set_param("step_thresh", 0.8).unwrap();
            q.set_param("step_range", 0.4).unwrap();
            q
        };
        let us = |n: Nanos| n * 1000;
        assert_eq!(signals(&mut ramp(0.0), 1000, Ecn::Ect1, us(800)), (0, 0));
        let (marked, dropped) = signals(&mut ramp(0.0), 20_000, Ecn::Ect1, us(900));
        assert!(binomial(marked, 20_000, 0.25) && dropped == 0, "{marked}");
        let (marked, _) = signals(&mut ramp(0.0), 20_000, Ecn::Ect1, us(1100));
        assert!(binomial(marked, 20_000, 0.75), "{marked}");
        assert_eq!(signals(&mut ramp(0.0), 1000, Ecn::Ect1, us(1200)), (1000, 0));
        // p_L is the larger of the ramp and the coupled k·p′.
        let (marked, _) = signals(&mut ramp(0.3), 20_000, Ecn::Ect1, us(900));
        assert!(binomial(marked, 20_000, 0.6), "{marked}");
        assert_eq!(ramp(0.0).p_native(us(1000)), 0.5);
    }

    #[test]
    fn overload_drops_l4s_packets_with_p_c() {
        // p′ = 1/k exactly: not overloaded, p_L = 1 marks everything.
        assert_eq!(signals(&mut held(0.5), 1000, Ecn::Ect1, 0), (1000, 0));
        // p′ = 0.6 > 1/k: L4S packets are dropped with 0.36, none marked, step or not.
        let (marked, dropped) = signals(&mut held(0.6), 20_000, Ecn::Ect1, 2 * MS);
        assert!(marked == 0 && binomial(dropped, 20_000, 0.36), "{marked} {dropped}");
        // A larger k lowers the overload threshold.
        let mut q = held(0.3);
        q.set_param("k", 4.0).unwrap();
        let (marked, dropped) = signals(&mut q, 20_000, Ecn::Ce, 0);
        assert!(marked == 0 && binomial(dropped, 20_000, 0.09), "{marked} {dropped}");
    }

    /// Classic packets sent out of `n` dequeues with both queues backlogged.
    fn classic_served(c_protection: f64, n: usize) -> usize {
        let mut q = DualPi2::new(Limit::Packets(100_000));
        q.set_param("c_protection", c_protection).unwrap();
        let (mut rng, mut out) = (Rng::stream(1, "x"), QueueOutcome::default());
        for i in 0..2 * n {
            let ecn = if i % 2 == 0 { Ecn::Ect1 } else { Ecn::NotEct };
            q.enqueue(packet(0, ecn, 0), &mut QueueCtx::new(0, &mut rng, &mut out));
        }
        let served = (0..n).filter_map(|_| q.dequeue(&mut QueueCtx::new(0, &mut rng, &mut out)));
        served.filter(|p| p.ecn == Ecn::NotEct).count()
    }

    #[test]
    fn wrr_gives_the_classic_queue_its_protected_share_when_both_are_backlogged() {
        // Equal packets: C gets c_protection % of them, to within one packet.
        assert!((99..=101).contains(&classic_served(10.0, 1000)), "{}", classic_served(10.0, 1000));
        assert!((499..=501).contains(&classic_served(50.0, 1000)));
        assert_eq!(classic_served(0.0, 1000), 0, "no protection: L has strict priority");
        // With L empty the C queue gets the whole link.
        let mut h = Harness::new("dualpi2", &[], Limit::Packets(100));
        h.arrive_n(5, 1000);
        assert_eq!((0..5).filter_map(|_| h.depart()).count(), 5);
    }

    #[test]
    fn time_shifted_fifo_serves_the_earliest_arrival_with_classic_shifted_by_tshift() {
        // One classic packet from t = 0 and L packets from 10, 20, 30, 40 ms:
        // with tshift 30 ms the classic head competes as if it arrived at
        // 30 ms, so the L packets up to 30 ms go first (ties to L).
        let mut q = DualPi2::new(Limit::Packets(100));
        q.set_param("time_shifted_fifo", 1.0).unwrap();
        let (mut rng, mut out) = (Rng::stream(1, "x"), QueueOutcome::default());
        q.enqueue(packet(9, Ecn::NotEct, 0), &mut QueueCtx::new(0, &mut rng, &mut out));
        for (flow, at) in [(1, 10), (2, 20), (3, 30), (4, 40)] {
            q.enqueue(packet(flow, Ecn::Ect1, at * MS), &mut QueueCtx::new(at * MS, &mut rng, &mut out));
        }
        let order: Vec<_> =
            (0..5).filter_map(|_| q.dequeue(&mut QueueCtx::new(40 * MS, &mut rng, &mut out))).map(|p| p.flow).collect();
        assert_eq!(order, [1, 2, 3, 9, 4]);
        // tshift 0 is a plain FIFO across both queues, whatever the protection.
        let mut q = DualPi2::new(Limit::Packets(100));
        q.set_param("time_shifted_fifo", 1.0).unwrap();
        q.set_param("tshift", 0.0).unwrap();
        for (flow, ecn, at) in [(0, Ecn::Ect1, 0), (1, Ecn::Ect0, 1), (2, Ecn::Ect1, 2), (3, Ecn::NotEct, 3)] {
            q.enqueue(packet(flow, ecn, at * MS), &mut QueueCtx::new(at * MS, &mut rng, &mut out));
        }
        let order: Vec<_> =
            (0..4).filter_map(|_| q.dequeue(&mut QueueCtx::new(3 * MS, &mut rng, &mut out))).map(|p| p.flow).collect();
        assert_eq!(order, [0, 1, 2, 3]);
    }

    #[test]
    fn th_len_spares_the_step_while_the_l_queue_holds_fewer_packets_behind() {
        // Default 0 (Linux): a lone packet past the step is marked.
        assert_eq!(signals(&mut held(0.0), 1000, Ecn::Ect1, MS), (1000, 0));
        let guarded = |p_prime: f64| {
            let mut q = held(p_prime);
            q.set_param("min_qlen_step", 1.0).unwrap();
            q
        };
        // Th_len 1 (RFC 9332): a lone packet is not step-marked...
        assert_eq!(signals(&mut guarded(0.0), 1000, Ecn::Ect1, MS), (0, 0));
        // ...but the coupled k·p′ still marks it.
        let (marked, dropped) = signals(&mut guarded(0.3), 20_000, Ecn::Ect1, MS);
        assert!(binomial(marked, 20_000, 0.6) && dropped == 0, "{marked} {dropped}");
        // Two queued past the step: the first leaves one behind and is marked, the last is spared.
        let mut q = guarded(0.0);
        let (mut rng, mut out) = (Rng::stream(1, "x"), QueueOutcome::default());
        for _ in 0..2 {
            q.enqueue(packet(0, Ecn::Ect1, 0), &mut QueueCtx::new(0, &mut rng, &mut out));
        }
        let sent: Vec<_> = (0..2).filter_map(|_| q.dequeue(&mut QueueCtx::new(2 * MS, &mut rng, &mut out))).collect();
        assert_eq!(sent.iter().map(|p| p.ecn).collect::<Vec<_>>(), [Ecn::Ce, Ecn::Ect1]);
    }

    #[test]
    fn a_full_buffer_is_shared_and_drops_arrivals() {
        let mut h = Harness::new("dualpi2", &[], Limit::Packets(3));
        for ecn in [Ecn::Ect1, Ecn::NotEct, Ecn::Ect1, Ecn::NotEct, Ecn::Ce] {
            h.offer(packet(0, ecn, 0));
        }
        assert_eq!(h.drops(DropReason::Overflow), 2);
    }

    #[test]
    fn l4s_keeps_its_queue_short_beside_classic_traffic() {
        // DCTCP on ECT(1) beside CUBIC: the L queue's packets wait about the
        // 1 ms step, the classic ones about the 15 ms target (RFC 9332 §1.1).
        let flows = r#"{ "kind": "tcp", "label": "L4S", "count": 2, "cc": "dctcp", "ecn": "ect1",
                          "segment_bytes": 1000, "access_delay_ms": [5, 5] },
                       { "kind": "tcp", "label": "classic", "count": 2, "cc": "cubic",
                          "segment_bytes": 1000, "access_delay_ms": [5, 5] }"#;
        let s = run(&dumbbell(20.0, 1e7, 10.0, 1000, r#"{ "scheme": "dualpi2" }"#, flows));
        let delay =
            |g: usize| s.flows.iter().filter(|f| f.group == g).map(|f| f.mean_queue_delay_ms).fold(0.0, f64::max);
        // Measured: about 0.95 ms and 15.5 ms; the bounds allow for the
        // step being a threshold, not a target, and PI overshoot.
        assert!(delay(0) < 2.0, "L4S: {} ms", delay(0));
        assert!((10.0..20.0).contains(&delay(1)), "classic: {} ms", delay(1));
        assert!(s.utilization > 0.9, "{}", s.utilization);
    }
    #[test]
    fn per_queue_statistics_are_those_of_the_flows_in_each_queue() {
        // One Prague flow (the L queue's only traffic) and one CUBIC flow
        // without ECN (the C queue's): each queue's statistics must be its flow's.
        let flows = r#"{ "kind": "tcp", "label": "L4S", "cc": "prague", "ecn": "ect1", "access_delay_ms": [5, 5] },
                       { "kind": "tcp", "label": "classic", "cc": "cubic", "access_delay_ms": [5, 5] }"#;
        let text = dumbbell(10.0, 1e7, 10.0, 1000, r#"{ "scheme": "dualpi2" }"#, flows);
        let mut sim =
            crate::sim::Simulation::from_json(&text, crate::sim::SeriesMode { history: true, streaming: false })
                .expect("valid scenario");
        sim.run();
        let s = sim.summary();
        let (l4s, classic) = (&s.flows[0], &s.flows[1]);
        let hop = &s.hops[0];
        let dq = hop.dualq.as_ref().expect("a DualPI2 hop has per-queue statistics");
        let (l, c) = (dq.l_sojourn_ms.as_ref().expect("L departures"), dq.c_sojourn_ms.as_ref().expect("C departures"));
        assert!((l.mean - l4s.mean_queue_delay_ms).abs() < 1e-9, "{} vs {}", l.mean, l4s.mean_queue_delay_ms);
        assert!((c.mean - classic.mean_queue_delay_ms).abs() < 1e-9, "{} vs {}", c.mean, classic.mean_queue_delay_ms);
        // The p99 is a bucket midpoint: within the histogram's resolution of the largest value or below it.
        assert!(l.p99 <= l4s.max_queue_delay_ms * 1.05 && c.p99 <= classic.max_queue_delay_ms * 1.05);
        assert_eq!((dq.l_marks, dq.c_marks), (l4s.marked_packets, classic.marked_packets));
        assert_eq!(dq.l_marks + dq.c_marks, hop.marks);
        assert_eq!(dq.c_drops, classic.dropped_packets);
        assert!(dq.l_marks > 0 && dq.c_drops > 0, "both queues were signalled: {dq:?}");
        // The probability columns are the probes' values at each sample.
        let h = sim.history();
        let col = |id: &str| h.column(h.columns.iter().position(|c| c == id).expect(id)).to_vec();
        for p in ["p_prime", "p_c", "p_l"] {
            assert_eq!(col(p), col(&format!("probe.{p}")), "{p}");
        }
        assert!(col("l_sojourn_ms").iter().all(|v| (0.0..5.0).contains(v)));
        let measured = crate::testing::mean_while_measured(&sim, "c_sojourn_ms");
        assert!((measured - c.mean).abs() < 0.2 * c.mean, "interval means {measured} vs window mean {}", c.mean);
    }
}
