//! FQ-COBALT — COBALT on every flow queue of FQ-CoDel's scheduler (ns-3
//! `FqCobaltQueueDisc`; the flow queuing of CAKE without its hosts, tins
//! and shaper: Høiland-Jørgensen, Täht & Morton 2018, §III).
//!
//! Enqueue: hash the flow into one of `flows` queues (fq_codel.rs); over
//!   the buffer limit, drop from the head of the fattest queue.
//! Dequeue: FQ-CoDel's deficit round robin over new and old flows; the
//!   queue chosen sends through its own COBALT (cobalt.rs): CoDel with a
//!   count that decays, and BLUE raised by packets older than the BLUE
//!   threshold and lowered each time a dequeue finds the queue empty.
//! Defaults (ns-3 `FqCobaltQueueDisc`): target 5 ms, interval 100 ms,
//! increment 1/256, decrement 1/4096, BLUE threshold 400 ms, ECN on,
//! 1024 flows; quantum 1514 bytes (ns-3 takes the device MTU, 1500).
//!
//! Choices where the sources leave room:
//! - An overflow drops one packet from the fattest queue and leaves its
//!   BLUE alone, as ns-3 does; ns-3 drops up to 64 at once (half its bytes).
//!   CAKE (cake.rs) tells the fattest queue's BLUE instead, as Linux does.
//! - The flow hash is FQ-CoDel's; ns-3's set-associative option is CAKE's.

use super::cobalt::{self, CobaltParams, CobaltState};
use super::codel;
use super::fq_codel::{self, FlowAqm, FlowQueues, LIST_PROBES};
use super::fq_scheme::{FqPolicy, FqScheme};
use super::prelude::*;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "fq_cobalt",
    name: "FQ-COBALT",
    paper: "Høiland-Jørgensen, Täht & Morton, Piece of CAKE: A Comprehensive Queue Management Solution for Home \
            Gateways, IEEE LANMAN 2018, §III (as ns-3's FqCobaltQueueDisc)",
    summary: "One COBALT (CoDel with BLUE) per flow queue, served by FQ-CoDel's deficit round robin.",
    params: FqCobaltParams::SPECS,
    probes: &[LIST_PROBES[0], LIST_PROBES[1], LIST_PROBES[2], MAX_P_DROP],
    build,
    cross_check: codel::cross_check,
    model: None,
};

/// The largest BLUE probability among flow queues (FQ-COBALT and CAKE).
pub(crate) const MAX_P_DROP: ProbeSpec = ProbeSpec::number("max_p_drop", "highest BLUE p_drop of a flow queue", "");

scheme_params! {
    /// FQ-COBALT's parameters; COBALT's apply to each flow queue.
    pub struct FqCobaltParams {
        target: Nanos as ms = codel::TARGET.with_doc("CoDel's acceptable standing delay, per flow queue."),
        interval: Nanos as ms = codel::INTERVAL.with_doc("CoDel's interval, per flow queue: about a worst-case RTT."),
        increment: f64 = CobaltParams::spec("increment"),
        decrement: f64 = CobaltParams::spec("decrement"),
        blue_threshold: Nanos as ms = CobaltParams::spec("blue_threshold"),
        quantum: i64 = fq_codel::QUANTUM,
        flows: usize = fq_codel::FLOWS,
        ecn: bool = ECN_PARAM
            .with_default(1.0)
            .with_doc("CoDel marks ECN-capable packets instead of dropping them; BLUE always drops."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(FqCobalt::new(setup.limit), params)
}

impl FlowAqm for CobaltState {
    type Params = CobaltParams;
    const DECISION_FIELDS: &'static [FieldSpec] = cobalt::DECISION_FIELDS;

    fn dequeue(&mut self, fifo: &mut Fifo, p: &CobaltParams, ctx: &mut QueueCtx) -> Option<Packet> {
        CobaltState::dequeue(self, fifo, None, p, ctx)
    }
}

/// FQ-COBALT: COBALT on each flow queue.
pub(crate) type FqCobalt = FqScheme<FqCobaltParams>;

impl FqPolicy for FqCobaltParams {
    type Aqm = CobaltState;

    fn split(&self) -> (CobaltParams, usize, i64) {
        let FqCobaltParams { target, interval, increment, decrement, blue_threshold, quantum, flows, ecn } = *self;
        (CobaltParams { target, interval, increment, decrement, blue_threshold, ecn }, flows, quantum)
    }

    fn fresh(_: &CobaltParams) -> CobaltState {
        CobaltState::default()
    }

    fn probe(queues: &FlowQueues<CobaltState>, out: &mut ProbeSink) {
        out.put("max_p_drop", queues.queues().iter().map(|q| q.aqm.p_drop).fold(0.0, f64::max));
    }
}

#[cfg(test)]
mod tests {
    use crate::queue::testing::Harness;
    use crate::queue::{DropReason, Limit};
    use crate::testing::{dumbbell, five_tcp_beside_a_line_rate_cbr};

    #[test]
    fn each_queue_runs_its_own_cobalt() {
        // Flow 1 keeps a standing queue, flow 2 one packet per ms: only
        // flow 1 is dropped, on CoDel's schedule from the moment its own
        // packets wait more than 5 ms.
        let mut h = Harness::new("fq_cobalt", &[], Limit::Packets(100_000));
        let times = h.standing_queue_beside_a_light_flow();
        assert!(h.dropped.iter().all(|(p, r)| p.flow == 1 && *r == DropReason::Early));
        // Flow 1's sojourn passes 5 ms at 6 ms (as FQ-CoDel's test); its
        // first drop is an interval later, then 100/√2 ms.
        assert_eq!(times, [106, 177, 235, 285]);
        assert_eq!(h.probe("max_p_drop"), 0.0, "no packet waited 400 ms");
    }

    #[test]
    fn an_unresponsive_flow_is_held_to_its_fair_share() {
        // Five TCP flows and a 10 Mb/s CBR on 10 Mb/s: the CBR's queue is
        // the fattest, so it takes the overflow drops; TCP shares the rest.
        // The CBR gets a sixth of the wire and a little of what the TCP
        // flows leave idle after CoDel's drops (max-min fair): 1.93 Mb/s.
        let s = five_tcp_beside_a_line_rate_cbr(r#"{ "scheme": "fq_cobalt" }"#);
        let cbr = s.flows.iter().find(|f| f.kind == "cbr").expect("a CBR flow").goodput_bps;
        assert!((0.9..1.2).contains(&(cbr / (1e7 / 6.0))), "{cbr}");
        assert!(s.fairness.jain_all.unwrap_or(0.0) > 0.95, "{:?}", s.fairness);
    }

    #[test]
    fn each_decision_follows_its_queues_codel_or_blue() {
        // As cobalt.rs's test, each flow queue with its own COBALT.
        let flows = r#"{ "kind": "tcp", "count": 8, "start_s": [0, 1], "access_delay_ms": [1, 20] },
                       { "kind": "cbr", "rate_bps": 2e7, "start_s": [2, 3] }"#;
        let text = dumbbell(10.0, 1e7, 10.0, 200, r#"{ "scheme": "fq_cobalt" }"#, flows);
        let (_, _, rules) = crate::queue::cobalt::tests::checked_decisions(&text);
        // Overflows leave BLUE alone here (ns-3): only packets past 400 ms
        // raise it, so its drops are fewer than under COBALT.
        assert!(rules.codel > 20 && rules.blue > 10 && rules.passes > 20, "{rules:?}");
    }
}
