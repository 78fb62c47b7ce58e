//! FQ-PIE — PIE on every flow queue of FQ-CoDel's scheduler (Ramakrishnan,
//! Bhasin & Tahiliani, "FQ-PIE Queue Discipline in the Linux Kernel", 2019;
//! Linux `sch_fq_pie.c`, ns-3 `FqPieQueueDisc`).
//!
//! Enqueue: hash the flow into one of `flows` queues (fq_codel.rs); that
//!   queue's own PIE decides on the arrival from its own state (pie.rs:
//!   burst allowance, the safeguards, drop or mark with its p); over the
//!   buffer limit, drop from the head of the fattest queue.
//! Dequeue: FQ-CoDel's deficit round robin over new and old flows.
//! Every t_update, one timer updates every flow queue's p from that queue's
//!   delay (the sojourn of its last packet sent, 0 when it is empty):
//!   p ← p + scale(p)·(α·(qdelay − target) + β·(qdelay − qdelay_old)).
//! So each flow is steered to `target` of delay in its own queue, and an
//!   unresponsive flow is dropped in its queue without touching the others.
//! Defaults (ns-3 `FqPieQueueDisc`, Linux `fq_pie`): target 15 ms, t_update
//! 15 ms, α 0.125, β 1.25, max burst 150 ms, no derandomisation (neither
//! implements it), ECN on with the 10 % threshold (ns-3), quantum 1514
//! bytes, 1024 flows.
//!
//! Choices where the sources leave room:
//! - One timer for all queues, as Linux does (ns-3 runs one per queue,
//!   each from its creation); a queue whose PIE is calm (empty, p = 0, full
//!   allowance) is a fixed point of the update and is skipped.
//! - The "two packets queued" safeguard is `mean_pkt_bytes` of 1500 bytes
//!   on the flow's own queue: ns-3 counts packets (≤ 2) with its 1000-byte
//!   MeanPktSize only for byte-mode buffers; 1500 bytes lets two 1040-byte
//!   packets through and stops the third, as ns-3 does.
//! - A buffer overflow drops one packet from the fattest queue, as
//!   FQ-CoDel here; ns-3 and Linux drop up to 64 at once (half its bytes).

use super::fq_codel::{self, FlowAqm, FlowQueues, LIST_PROBES};
use super::fq_scheme::{FqPolicy, FqScheme};
use super::pie::{self, PieParams, PieState};
use super::prelude::*;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "fq_pie",
    name: "FQ-PIE",
    paper: "Ramakrishnan, Bhasin & Tahiliani, FQ-PIE Queue Discipline in the Linux Kernel: Design, Implementation \
            and Challenges, IEEE LCN Workshops, 2019",
    summary: "One PIE controller per flow queue, served by FQ-CoDel's deficit round robin.",
    params: FqPieParams::SPECS,
    probes: &[
        LIST_PROBES[0],
        LIST_PROBES[1],
        LIST_PROBES[2],
        ProbeSpec::number("max_p", "highest drop probability of a flow queue", ""),
    ],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// FQ-PIE's parameters; PIE's apply to each flow queue.
    pub struct FqPieParams {
        target: Nanos as ms = PieParams::spec("target").with_doc("The queueing delay each flow queue's PIE steers to."),
        t_update: Nanos as ms = PieParams::spec("t_update"),
        alpha: f64 = PieParams::spec("alpha"),
        beta: f64 = PieParams::spec("beta"),
        max_burst: Nanos as ms = PieParams::spec("max_burst"),
        mean_pkt_bytes: u64 = PieParams::spec("mean_pkt_bytes"),
        derandomize: bool = PieParams::spec("derandomize").with_default(0.0),
        ecn: bool = PieParams::spec("ecn").with_default(1.0),
        mark_ecnth: f64 = PieParams::spec("mark_ecnth"),
        quantum: i64 = fq_codel::QUANTUM,
        flows: usize = fq_codel::FLOWS,
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(FqPie::new(setup.limit), params)
}

impl FlowAqm for PieState {
    type Params = PieParams;
    const DECISION_FIELDS: &'static [FieldSpec] = pie::DECISION_FIELDS;

    fn admit(&mut self, pkt: Packet, fifo: &Fifo, p: &PieParams, ctx: &mut QueueCtx) -> Option<Packet> {
        PieState::admit(self, pkt, fifo, p, ctx)
    }

    fn dequeue(&mut self, fifo: &mut Fifo, _: &PieParams, ctx: &mut QueueCtx) -> Option<Packet> {
        PieState::dequeue(self, fifo, ctx.now)
    }

    fn update_period(p: &PieParams) -> Option<Nanos> {
        Some(p.t_update)
    }

    /// A calm queue is a fixed point of the update: skipped.
    fn tick(&mut self, fifo: &Fifo, p: &PieParams) -> bool {
        if self.calm(fifo, p) {
            return true;
        }
        self.update(self.qdelay(fifo), p);
        self.calm(fifo, p)
    }

    fn retune(&mut self, p: &PieParams) {
        self.limit_burst(p);
    }
}

/// FQ-PIE: PIE on each flow queue, one timer for all.
pub(crate) type FqPie = FqScheme<FqPieParams>;

impl FqPolicy for FqPieParams {
    type Aqm = PieState;

    fn split(&self) -> (PieParams, usize, i64) {
        let FqPieParams {
            target,
            t_update,
            alpha,
            beta,
            max_burst,
            mean_pkt_bytes,
            derandomize,
            ecn,
            mark_ecnth,
            quantum,
            flows,
        } = *self;
        let pie = PieParams { target, t_update, alpha, beta, max_burst, mean_pkt_bytes, derandomize, ecn, mark_ecnth };
        (pie, flows, quantum)
    }

    fn fresh(p: &PieParams) -> PieState {
        PieState::new(p)
    }

    fn probe(queues: &FlowQueues<PieState>, out: &mut ProbeSink) {
        out.put("max_p", queues.queues().iter().map(|q| q.aqm.p).fold(0.0, f64::max));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rng, NS_PER_MS};
    use crate::net::{Dir, PacketKind};
    use crate::queue::fq_codel::bucket;
    use crate::queue::testing::Harness;
    use crate::queue::{DropReason, Limit, QueueOutcome};
    use crate::testing::five_tcp_beside_a_line_rate_cbr;

    const MS: Nanos = NS_PER_MS;

    /// Offer `pkt` to `q` at `now`; the drops.
    fn offer(q: &mut FqPie, rng: &mut Rng, now: Nanos, flow: u32) -> Vec<(Packet, DropReason)> {
        let mut out = QueueOutcome::default();
        let mut pkt = Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 960);
        pkt.enqueued_at = now;
        q.enqueue(pkt, &mut QueueCtx::new(now, rng, &mut out));
        out.drops
    }

    #[test]
    fn each_queue_updates_p_from_its_own_delay() {
        // Flow 1 keeps about 60 packets queued, flow 2 one: served
        // alternately each ms, flow 1's packets wait ever longer, flow 2's
        // 1 ms. The timer is offered every ms; it acts every 15.
        let mut q = FqPie::new(Limit::Packets(10_000));
        let mut rng = Rng::stream(1, "fq-pie-test");
        let mut drops = Vec::new();
        for _ in 0..60 {
            drops.extend(offer(&mut q, &mut rng, 0, 1));
        }
        let pie = FqPieParams::default().split().0;
        let mut alone = PieState::new(&pie);
        let mut qdelay = 0;
        for t in (1..=1000u64).map(|t| t * MS) {
            let mut out = QueueOutcome::default();
            q.on_wake(&mut QueueCtx::new(t, &mut rng, &mut out));
            if t % (15 * MS) == 0 {
                alone.update(qdelay, &pie);
            }
            drops.extend(offer(&mut q, &mut rng, t, 1));
            drops.extend(offer(&mut q, &mut rng, t, 2));
            for _ in 0..2 {
                let mut out = QueueOutcome::default();
                if let Some(p) = q.dequeue(&mut QueueCtx::new(t, &mut rng, &mut out)).filter(|p| p.flow == 1) {
                    qdelay = t - p.enqueued_at;
                }
                drops.extend(out.drops);
            }
        }
        let (q1, q2) = (&q.queues().queues()[bucket(1, 1024)], &q.queues().queues()[bucket(2, 1024)]);
        assert_eq!(q2.aqm.p, 0.0, "flow 2's queue never waits");
        // Flow 1's p is PIE's law on flow 1's own delays: past the burst
        // allowance, high enough to drop.
        assert!(q1.aqm.p > 0.001, "{}", q1.aqm.p);
        assert_eq!(q1.aqm.p, alone.p);
        let mut sink = vec![0.0; INFO.probes.len()];
        q.probe(&mut ProbeSink::new(INFO.probes, &mut sink));
        assert_eq!(sink[3], alone.p, "max_p");
        assert!(!drops.is_empty());
        assert!(drops.iter().all(|(p, r)| p.flow == 1 && *r == DropReason::Early));
    }

    #[test]
    fn the_timer_sleeps_once_every_queue_is_calm() {
        let mut h = Harness::new("fq_pie", &[], Limit::Packets(100));
        h.arrive_from(1, 1000);
        h.arrive_from(2, 1000);
        assert_eq!(h.wake_at, Some(15 * MS));
        h.depart();
        h.depart();
        h.advance_to(15 * MS);
        assert_eq!(h.wake_at, None);
        h.advance_to(50 * MS);
        h.arrive_from(3, 1000);
        assert_eq!(h.wake_at, Some(65 * MS));
    }

    #[test]
    fn overflow_drops_from_the_fattest_queue() {
        let mut h = Harness::new("fq_pie", &[], Limit::Packets(10));
        h.arrive_n_from(8, 1, 1000);
        h.arrive_n_from(3, 2, 1000);
        assert_eq!(h.dropped.iter().map(|(p, r)| (p.flow, *r)).collect::<Vec<_>>(), [(1, DropReason::Overflow)]);
        assert_eq!(h.q.len_packets(), 10);
    }

    #[test]
    fn an_unresponsive_flow_is_held_to_its_fair_share() {
        // 10 Mb/s shared by five TCP flows and a 10 Mb/s CBR: the CBR's
        // queue alone fills and is dropped; TCP gets the rest evenly.
        let s = five_tcp_beside_a_line_rate_cbr(r#"{ "scheme": "fq_pie" }"#);
        let cbr = s.flows.iter().find(|f| f.kind == "cbr").expect("a CBR flow").goodput_bps;
        // A sixth of the wire each, less headers: within 15 %.
        assert!((cbr / (1e7 / 6.0) - 1.0).abs() < 0.15, "{cbr}");
        assert!(s.fairness.jain_all.unwrap_or(0.0) > 0.95, "{:?}", s.fairness);
    }
}
