//! FRED — Flow Random Early Drop (Lin & Morris, Dynamics of Random Early
//! Detection, SIGCOMM 1997: the FRED section and its algorithm listing).
//!
//! RED's average queue plus per-active-flow state: qlen_i (packets of flow i
//! in the buffer) and strike_i (times flow i was caught over its share). A
//! flow is active while it has packets queued; its state is deleted when its
//! last packet leaves. With avgcq = max(avg / nactive, 1 packet):
//!   qlen_i ≥ maxq, or avg ≥ max_th and qlen_i > 2·avgcq,
//!   or qlen_i ≥ avgcq and strike_i > 1      → drop, strike_i += 1
//!       (non-adaptive flows; strikes persist while the flow stays queued)
//!   min_th ≤ avg < max_th: count += 1; if qlen_i ≥ max(min_q, avgcq),
//!       drop with RED's p_a (the count rule set by `wait`, and byte mode
//!       as `byte_mode` and `fj_byte_mode` set it, see red.rs)
//!   avg ≥ max_th                             → drop (drop-tail mode)
//! maxq is min_th, and 2 packets when avg ≥ max_th, as the listing sets it
//! ("maxq = min_th; if (avg ≥ max_th) maxq = 2"): no flow may hold more than
//! min_th packets, the buffer a single flow needs for RED to control it.
//! The effective min_q rises to avgcq: the paper's "many flows" case, where
//! the buffer cannot hold min_q packets of every flow. A flow with fewer than min_q packets
//! queued is never dropped early, which protects fragile low-rate flows.
//! avg is updated on every accepted arrival and on every departure, and
//! decays over idle time as in RED (the idle period starts when the last
//! packet leaves and ends with the next arrival that is queued).
//! Defaults: w_q 0.002, max_p 0.02 and min_q 2 from the listing; min_th 5 and
//! max_th 15 as RED's. AFpFT (2011) §3B ran ns-2's FRED with max_p 0.1 and from
//! §3C on with w_q = 1/C (C = link rate in packets/s: 0.008 at 1 Mb/s with
//! 1000-byte packets); set w_q for that.
//! Thresholds, min_q and the 1- and 2-packet constants are in the buffer's
//! unit (1000 bytes per packet for byte buffers).

use super::prelude::*;
use super::red::{self, RedState};
use super::BUFFER_UNIT_PACKET_BYTES;
use crate::net::FlowId;
use std::collections::BTreeMap;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "fred",
    name: "FRED",
    paper: "Lin & Morris, Dynamics of Random Early Detection, SIGCOMM 1997",
    summary: "RED with per-active-flow queue counts: flows above their share of the buffer are dropped first.",
    params: PARAMS,
    probes: &[
        red::AVG_PROBE,
        ProbeSpec::buffer("avgcq", "average per-flow queue avgcq"),
        ProbeSpec::number("nactive", "active flows", "flows"),
        red::P_B_PROBE,
    ],
    build,
    cross_check: red::cross_check,
    model: None,
};

const PARAMS: &[ParamSpec] = &[
    red::MIN_TH,
    ParamSpec {
        doc: "At this average queue FRED drops every arrival (drop-tail mode) and allows 2 packets per flow.",
        ..red::MAX_TH
    },
    ParamSpec { default: 0.02, doc: "Early-drop probability at max_th for flows above their share.", ..red::MAX_P },
    ParamSpec { doc: "EWMA weight of the instantaneous queue in the average.", ..red::W_Q },
    ParamSpec::buffer(
        "min per-flow queue min_q",
        0.0..=100.0,
        1.0,
        2.0,
        "A flow with fewer packets queued is never dropped early (4 suits large buffers).",
    )
    .with_id("min_q"),
    red::WAIT,
    red::BYTE_MODE,
    red::MAX_PACKET_BYTES,
    red::MEAN_PACKET_BYTES,
    red::FJ_BYTE_MODE,
];

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Fred::new(setup.limit, setup.link_rate_bps), params)
}

/// What the algorithm decides for one arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Accept,
    /// Non-adaptive flow over its share: drop and count a strike.
    Strike,
    /// Drop-tail mode, avg ≥ max_th.
    DropTail,
    Early,
}

#[derive(Clone, Copy, Debug, Default)]
struct FlowState {
    /// Queued, in the buffer's unit.
    qlen: f64,
    strike: u32,
}

pub struct Fred {
    limit: Limit,
    red: RedState,
    min_q: f64,
    /// One packet in the buffer's unit.
    packet: f64,
    fifo: Fifo,
    /// Active flows only: a flow's entry goes when its last packet leaves.
    flows: BTreeMap<FlowId, FlowState>,
}

impl Fred {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Fred {
        let packet = match limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => BUFFER_UNIT_PACKET_BYTES,
        };
        let red = RedState::new(link_rate_bps);
        let fred = Fred { limit, red, min_q: 0.0, packet, fifo: Fifo::default(), flows: BTreeMap::new() };
        with_defaults(fred, PARAMS, limit)
    }

    fn queued(&self) -> f64 {
        self.limit.measure(self.fifo.len(), self.fifo.bytes())
    }

    fn unit_size(&self, pkt: &Packet) -> f64 {
        match self.limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => pkt.size_bytes as f64,
        }
    }

    /// The average per-flow queue, never below one packet.
    fn avgcq(&self) -> f64 {
        let n = self.flows.len().max(1) as f64;
        (self.red.avg / n).max(self.packet)
    }

    /// The decision for an arrival of a flow in state `st`.
    fn verdict(&mut self, st: FlowState, size: u32, ctx: &mut QueueCtx) -> Verdict {
        let (avg, min_th, max_th) = (self.red.avg, self.red.min_th, self.red.max_th);
        let avgcq = self.avgcq();
        let maxq = if avg >= max_th { 2.0 * self.packet } else { min_th };
        if st.qlen >= maxq || (avg >= max_th && st.qlen > 2.0 * avgcq) || (st.qlen >= avgcq && st.strike > 1) {
            return Verdict::Strike;
        }
        if avg < min_th {
            self.red.count = -1;
            self.red.count_bytes = 0;
            return Verdict::Accept;
        }
        if avg >= max_th {
            self.red.count = 0;
            self.red.count_bytes = 0;
            return Verdict::DropTail;
        }
        self.red.count += 1;
        // The bytes of the arrivals count counts: none while it is 0.
        self.red.count_bytes = if self.red.count > 0 { self.red.count_bytes + u64::from(size) } else { 0 };
        if st.qlen < self.min_q.max(avgcq) {
            return Verdict::Accept;
        }
        let p_b = self.red.p_b(avg);
        let p_b = self.red.scaled_p_b(p_b, size);
        if ctx.rng.uniform() < self.red.spaced(p_b, size) {
            self.red.count = 0;
            self.red.count_bytes = 0;
            return Verdict::Early;
        }
        Verdict::Accept
    }
}

/// The state a decision records, in the order `enqueue` notes it.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    decision::AVERAGE_QUEUE,
    FieldSpec::new("qlen", "the flow's queued", "qlen_i", "buffer"),
    FieldSpec::new("strikes", "the flow's strikes", "strike_i", ""),
    FieldSpec::new("avgcq", "average queue per active flow", "avgcq", "buffer"),
    FieldSpec::new("min_q", "min_q", "min_q", "buffer"),
    decision::COUNT_SINCE_DROP,
];

impl Qdisc for Fred {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        let was_empty = self.fifo.is_empty();
        if was_empty {
            // Decay avg over the idle period that this arrival ends.
            self.red.update_avg(0.0, ctx.now);
        }
        let st = self.flows.get(&pkt.flow).copied().unwrap_or_default();
        let reason = match self.verdict(st, pkt.size_bytes, ctx) {
            Verdict::Strike => {
                // Only a flow with packets queued can be over its share, so it has state.
                if let Some(s) = self.flows.get_mut(&pkt.flow) {
                    s.strike += 1;
                }
                Some(DropReason::Forced)
            }
            Verdict::DropTail => Some(DropReason::Forced),
            Verdict::Early => Some(DropReason::Early),
            Verdict::Accept => self.fifo.is_full_for(self.limit, pkt.size_bytes).then_some(DropReason::Overflow),
        };
        if ctx.recording() {
            let (red, min_q) = (&self.red, self.min_q);
            ctx.note(&pkt, &[red.avg, st.qlen, st.strike as f64, self.avgcq(), min_q, red.count as f64]);
        }
        if let Some(reason) = reason {
            if was_empty {
                // Still idle: keep the idle clock running from now.
                self.red.idle_since = Some(ctx.now);
            }
            return ctx.drop(pkt, reason);
        }
        if !was_empty {
            let q = self.queued();
            self.red.update_avg(q, ctx.now);
        }
        self.flows.entry(pkt.flow).or_default().qlen += self.unit_size(&pkt);
        self.fifo.push(pkt);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        let pkt = self.fifo.pop()?;
        let q = self.queued();
        self.red.update_avg(q, ctx.now);
        let size = self.unit_size(&pkt);
        if let Some(s) = self.flows.get_mut(&pkt.flow) {
            s.qlen -= size;
            if s.qlen <= 0.0 {
                self.flows.remove(&pkt.flow);
            }
        }
        if self.fifo.is_empty() {
            self.red.idle_since = Some(ctx.now);
        }
        Some(pkt)
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "min_q" => self.min_q = value,
            _ => self.red.set(id, value)?,
        }
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("avg", self.red.avg);
        out.put("avgcq", self.avgcq());
        out.put("nactive", self.flows.len() as f64);
        out.put("p_b", self.red.p_b(self.red.avg));
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        let s = &self.red;
        Some(DropCurve {
            x_label: "average queue (flows at or above max(min_q, avgcq))",
            x_unit: self.limit.unit(),
            points: s.curve(|x| s.p_b(x)),
            operating_point: [s.avg, s.p_b(s.avg)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::net::{Dir, PacketKind};
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::sim::{SeriesMode, Simulation};
    use crate::testing::{assert_fair_against_cbr, cbr_and_tcp_rates, tcp32_cbr1, tcp32_cbr1_rates};

    /// A FRED whose average stays where a test puts it (w_q = 0).
    fn frozen(avg: f64) -> Fred {
        let mut f = Fred::new(Limit::Packets(1000), 10_000_000);
        f.red.w_q = 0.0;
        f.red.avg = avg;
        f
    }

    fn decide(f: &mut Fred, st: FlowState, rng: &mut Rng) -> Verdict {
        let mut out = QueueOutcome::default();
        f.verdict(st, 1000, &mut QueueCtx::new(0, rng, &mut out))
    }

    fn offer(f: &mut Fred, flow: FlowId, rng: &mut Rng) -> Option<DropReason> {
        let mut out = QueueOutcome::default();
        f.enqueue(Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 960), &mut QueueCtx::new(0, rng, &mut out));
        out.drops.first().map(|d| d.1)
    }

    fn depart(f: &mut Fred, rng: &mut Rng) {
        let mut out = QueueOutcome::default();
        f.dequeue(&mut QueueCtx::new(0, rng, &mut out));
    }

    #[test]
    fn a_flow_over_maxq_strikes_and_stays_punished_while_queued() {
        // avg ≈ 0 (below min_th): only the per-flow rules can drop.
        let mut f = frozen(0.0);
        let mut rng = Rng::stream(1, "fred");
        let drops: Vec<_> = (0..20).map(|_| offer(&mut f, 0, &mut rng)).collect();
        // maxq = min_th = 5 packets fit; the 6th and 7th strike (qlen ≥ maxq);
        // from then on strike > 1 and qlen ≥ avgcq = 1 drop every arrival.
        assert!(drops[..5].iter().all(Option::is_none));
        assert!(drops[5..].iter().all(|d| *d == Some(DropReason::Forced)));
        assert_eq!(f.flows[&0].strike, 15);
        // Drained to one packet, flow 0 is still over avgcq with its strikes;
        // a new flow is not.
        (0..4).for_each(|_| depart(&mut f, &mut rng));
        assert_eq!(offer(&mut f, 0, &mut rng), Some(DropReason::Forced));
        assert_eq!(offer(&mut f, 1, &mut rng), None);
        // Its state (and strikes) go with its last packet.
        (0..2).for_each(|_| depart(&mut f, &mut rng));
        assert!(f.flows.is_empty());
        assert_eq!(offer(&mut f, 0, &mut rng), None);
    }

    #[test]
    fn fragile_flows_are_never_dropped_early_and_still_advance_count() {
        // avg = 10 between 5 and 15: p_b = 0.02·5/10 = 0.01. Three active
        // flows: avgcq = 10/3. A flow with 1 packet queued is below
        // max(min_q, avgcq) and is never dropped early; one with 4 (under
        // maxq = min_th = 5) is.
        let mut f = frozen(10.0);
        f.flows.insert(0, FlowState { qlen: 4.0, strike: 0 });
        f.flows.insert(1, FlowState { qlen: 1.0, strike: 0 });
        f.flows.insert(2, FlowState { qlen: 1.0, strike: 0 });
        assert!((f.avgcq() - 10.0 / 3.0).abs() < 1e-12);
        let (robust, fragile) = (f.flows[&0], f.flows[&1]);
        let mut rng = Rng::stream(2, "fred");
        let (mut robust_drops, rounds) = (0, 200_000);
        for _ in 0..rounds {
            assert_eq!(decide(&mut f, fragile, &mut rng), Verdict::Accept);
            robust_drops += usize::from(decide(&mut f, robust, &mut rng) == Verdict::Early);
        }
        // count grows on every arrival in random-drop mode, fragile ones
        // included, so the robust flow meets count = 2, 4, 6, …: with wait
        // (the default) it is safe until 2j·p ≥ 1, j = 50, then survives its
        // j-th arrival after a drop with 1 − p/(2 − 2j·p), until 2j·p ≥ 2.
        let p: f64 = 0.01;
        let (mut survive, mut mean_gap, mut j): (f64, f64, f64) = (1.0, 0.0, 1.0);
        while survive > 0.0 {
            mean_gap += survive;
            let spent = 2.0 * j * p;
            survive *= if spent < 1.0 {
                1.0
            } else if spent < 2.0 {
                (1.0 - p / (2.0 - spent)).max(0.0)
            } else {
                0.0
            };
            j += 1.0;
        }
        let expect = 1.0 / mean_gap;
        let got = robust_drops as f64 / rounds as f64;
        assert!((got / expect - 1.0).abs() < 0.03, "{got} vs {expect}");
        // Without the fragile arrivals in between it would be the plain RED
        // rate with wait, about p/1.5; every other count is spent on them.
        let plain = red::spaced_drop_fraction(red::CountRule::Wait, p);
        assert!(expect > 1.8 * plain, "{expect} vs {plain}");
    }

    #[test]
    fn above_max_th_every_arrival_drops_but_only_flows_over_two_packets_strike() {
        // "Many flows": with avg ≥ max_th, maxq = 2. Drop-tail mode drops all,
        // but only the flow at maxq is marked as non-adaptive.
        let mut f = frozen(20.0);
        f.flows.insert(0, FlowState { qlen: 2.0, strike: 0 });
        f.flows.insert(1, FlowState { qlen: 1.0, strike: 0 });
        let mut rng = Rng::stream(3, "fred");
        for _ in 0..2 {
            assert_eq!(offer(&mut f, 0, &mut rng), Some(DropReason::Forced));
            assert_eq!(offer(&mut f, 1, &mut rng), Some(DropReason::Forced));
        }
        assert_eq!((f.flows[&0].strike, f.flows[&1].strike), (2, 0));
        // Once the average falls below min_th the struck flow is still held
        // to avgcq (= 1 packet here), the other is free.
        f.red.avg = 0.0;
        assert_eq!(offer(&mut f, 0, &mut rng), Some(DropReason::Forced));
        assert_eq!(offer(&mut f, 1, &mut rng), None);
    }

    #[test]
    fn average_moves_on_arrivals_and_departures() {
        // w_q = 0.5: arrivals update avg with the queue they find (0 is the
        // idle decay of the first), departures with the queue they leave.
        let mut h = Harness::new("fred", &[("w_q", 0.5), ("min_th", 50.0), ("max_th", 100.0)], Limit::Packets(100));
        for flow in [0, 1, 2, 3] {
            h.arrive_from(flow, 1000);
        }
        let after_arrivals = [1.0, 2.0, 3.0].iter().fold(0.0, |a, q| 0.5 * a + 0.5 * q);
        assert!((h.probe("avg") - after_arrivals).abs() < 1e-12);
        assert_eq!(h.probe("nactive"), 4.0);
        assert_eq!(h.probe("avgcq"), 1.0, "floored at one packet");
        h.depart();
        let avg = 0.5 * after_arrivals + 0.5 * 3.0;
        assert!((h.probe("avg") - avg).abs() < 1e-12);
        assert_eq!(h.probe("nactive"), 3.0);
    }

    #[test]
    fn byte_buffers_count_flow_queues_in_bytes() {
        let mut h = Harness::new("fred", &[("min_th", 50_000.0), ("max_th", 100_000.0)], Limit::Bytes(200_000));
        h.arrive_from(0, 400);
        h.arrive_from(0, 1500);
        assert_eq!(h.probe("nactive"), 1.0);
        h.depart();
        h.depart();
        assert_eq!(h.probe("nactive"), 0.0);
        // maxq above max_th is 2 packets = 2000 bytes.
        let mut f = Fred::new(Limit::Bytes(200_000), 10_000_000);
        f.red.avg = 200_000.0;
        f.red.w_q = 0.0;
        f.flows.insert(0, FlowState { qlen: 1999.0, strike: 0 });
        let mut rng = Rng::stream(4, "fred");
        offer(&mut f, 0, &mut rng);
        assert_eq!(f.flows[&0].strike, 0);
        f.flows.insert(0, FlowState { qlen: 2000.0, strike: 0 });
        offer(&mut f, 0, &mut rng);
        assert_eq!(f.flows[&0].strike, 1);
    }

    fn two_poisson(scheme: &str) -> crate::metrics::Summary {
        let text = format!(
            r#"{{ "version": 1, "duration_s": 40, "measure_from_s": 8,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1e6, "delay_ms": 5 }},
                               "buffer": {{ "packets": 50 }} }},
                "queue": {{ "scheme": "{scheme}" }},
                "flows": [ {{ "kind": "poisson", "rate_bps": 2e5, "packet_bytes": 972 }},
                           {{ "kind": "poisson", "rate_bps": 2e6, "packet_bytes": 972 }} ] }}"#
        );
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
        sim.run();
        sim.summary()
    }

    #[test]
    fn a_fragile_flow_keeps_its_rate_next_to_a_flood() {
        // 0.2 and 2 Mb/s of Poisson traffic on 1 Mb/s (the paper's fragile flow).
        // RED drops every arrival alike: p = 1 − C/offered = 1 − 1/2.2 for
        // both. FRED drops only the flow holding more than its share.
        let red = two_poisson("red");
        let f = &red.flows[0];
        let loss = f.dropped_packets as f64 / f.sent_packets as f64;
        assert!((loss - (1.0 - 1.0 / 2.2)).abs() < 0.05, "RED: fragile flow loses {loss}");
        let fred = two_poisson("fred");
        assert_eq!(fred.flows[0].dropped_packets, 0);
        assert!(fred.utilization > 0.99, "{}", fred.utilization);
        // Whatever it sent (Poisson, ~25 packets/s) arrived.
        let sent_bps = fred.flows[0].sent_packets as f64 * 972.0 * 8.0 / fred.window_s;
        assert!((fred.flows[0].goodput_bps / sent_bps - 1.0).abs() < 0.01);
    }

    #[test]
    fn thirty_two_tcp_and_a_cbr_at_the_link_rate() {
        // AFpFT (2011) §3B with thresholds at 25% and 75% of the 100 kB buffer:
        // RED lets the CBR take over 70% of the link (TCP flows get 8.4 kb/s
        // in the paper); FRED and SFRED hold it near the fair share; DRR
        // gives every flow exactly C/33.
        let fair = 1e6 / 33.0;
        let thresholds = serde_json::json!({ "min_th": 25000, "max_th": 75000 });
        let (cbr, tcp_mean, _) = cbr_and_tcp_rates(serde_json::json!({ "scheme": "red", "params": thresholds }));
        assert!(cbr > 0.7 * 1e6 && tcp_mean < 0.3 * fair, "RED: CBR {cbr}, TCP mean {tcp_mean}");
        // AFpFT (2011) ran ns-2's FRED with max_p 0.1: CBR 57 kb/s against
        // 28 per TCP flow (1.9× the fair share), Jain over the TCP flows
        // 0.9905, from 30 runs. With wait (ns-2's count rule) FRED drops
        // TCP flows early less often and their shares wander for longer:
        // Jain over one 25-s window is 0.89–0.93 (seeds 1–3), over 200 s
        // 0.96–0.99. So FRED is held to the paper over 200 s.
        let fred = tcp32_cbr1(|v| {
            v["queue"] =
                serde_json::json!({ "scheme": "fred", "params": { "min_th": 25000, "max_th": 75000, "max_p": 0.1 } });
            v["duration_s"] = serde_json::json!(225);
        });
        let (cbr, tcp_mean, jain) = tcp32_cbr1_rates(&fred.summary());
        let got = format!("FRED: CBR {cbr:.0} b/s, TCP mean {tcp_mean:.0} b/s, Jain {jain:.3}");
        assert!(cbr > 1.2 * fair && cbr < 2.5 * fair, "{got}");
        assert!(tcp_mean > 0.9 * fair && jain > 0.95, "{got}");
        assert_fair_against_cbr(serde_json::json!({ "scheme": "sfred", "params": thresholds }), 2.5);
        let (cbr, _, jain) = cbr_and_tcp_rates(serde_json::json!({ "scheme": "drr" }));
        assert!((cbr / fair - 1.0).abs() < 0.1 && jain > 0.99, "DRR: CBR {cbr}, Jain {jain}");
        let sfred = tcp32_cbr1(|v| v["queue"] = serde_json::json!({ "scheme": "sfred", "params": thresholds }));
        let unresponsive = sfred.probe().iter().find(|p| p.0 == "unresponsive").map_or(0.0, |p| p.1);
        assert!(unresponsive >= 1.0, "SFRED has the CBR flagged as unresponsive at the end");
    }
}
