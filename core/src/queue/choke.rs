//! CHOKe — CHOose and Keep / CHOose and Kill (Pan, Prabhakar & Psounis,
//! INFOCOM 2000, the CHOKe algorithm): RED plus one stateless comparison.
//!
//! On every arrival, after RED's average update:
//!   avg ≤ min_th: admit
//!   otherwise draw a packet uniformly at random from the FIFO (the "drop
//!   candidate"); if it belongs to the arriving packet's flow, drop both;
//!   else apply RED: drop with p_a between the thresholds, always above max_th.
//! A flow with many packets queued is likely to be matched, so the penalty
//! grows with a flow's buffer share without any per-flow state. With
//! `candidates` = m > 1 (the paper's multiple-drop-candidate variant) m packets
//! are drawn one after another; each match is dropped and the arrival with it.
//! Matched drops count as early drops (they are random), RED's drop above
//! max_th as forced.
//! Defaults: RED's (Floyd & Jacobson §4: min_th 5, max_th 15, w_q 0.002) with
//! max_p 0.1 as in our RED, and m = 1, the paper's basic scheme.

use super::prelude::*;
use super::red::{self, RedQueue, RedScheme};
use crate::net::FlowId;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "choke",
    name: "CHOKe",
    paper: "Pan, Prabhakar & Psounis, CHOKe: a stateless active queue management scheme for approximating fair \
            bandwidth allocation, INFOCOM 2000",
    summary: "RED that compares each arrival with a random queued packet and drops both when they share a flow.",
    params: PARAMS,
    probes: &[
        red::AVG_PROBE,
        ProbeSpec::number("p_b", "RED drop probability p_b", ""),
        ProbeSpec::number("match_rate", "share of compared arrivals matched (EWMA, ~1000)", ""),
    ],
    build,
    cross_check: red::cross_check,
    model: None,
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec { doc: "Above this average queue every arrival is compared with a random queued packet.", ..red::MIN_TH },
    ParamSpec { doc: "Above this average queue every unmatched arrival is dropped too.", ..red::MAX_TH },
    ParamSpec { doc: "RED's drop probability at max_th for unmatched arrivals.", ..red::MAX_P },
    ParamSpec { doc: "EWMA weight of the instantaneous queue in the average.", ..red::W_Q },
    red::WAIT,
    ParamSpec::number(
        "drop candidates m",
        "packets",
        1.0..=16.0,
        1.0,
        1.0,
        "Queued packets drawn per arrival; more candidates punish heavy flows harder.",
    )
    .with_id("candidates"),
    red::MEAN_PACKET_BYTES,
];

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Choke::new(setup.limit, setup.link_rate_bps), params)
}

/// Window of compared arrivals over which the match rate probe is averaged.
const MATCH_WINDOW: f64 = 1000.0;

pub struct Choke {
    queue: RedQueue,
    candidates: u32,
    /// Exponentially averaged fraction of compared arrivals that matched.
    match_rate: f64,
}

impl Choke {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Choke {
        Choke { queue: RedQueue::new(limit, link_rate_bps), candidates: 0, match_rate: 0.0 }.with_defaults()
    }

    /// Draw up to m candidates; drop each one of `flow`. Returns whether any matched.
    fn draw_and_kill(&mut self, flow: FlowId, ctx: &mut QueueCtx) -> bool {
        let mut matched = false;
        for _ in 0..self.candidates {
            if self.queue.fifo.is_empty() {
                break;
            }
            let i = ctx.rng.below(self.queue.fifo.len() as u64) as usize;
            if self.queue.fifo.get(i).is_some_and(|p| p.flow == flow) {
                if let Some(victim) = self.queue.fifo.remove(i) {
                    ctx.drop(victim, DropReason::Early);
                }
                matched = true;
            }
        }
        matched
    }

    fn note_match(&mut self, matched: bool) {
        self.match_rate += (f64::from(u8::from(matched)) - self.match_rate) / MATCH_WINDOW;
    }
}

impl RedScheme for Choke {
    red::red_scheme_parts!();

    fn admit(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if self.queue.state.avg > self.queue.state.min_th {
            let matched = self.draw_and_kill(pkt.flow, ctx);
            self.note_match(matched);
            if matched {
                return ctx.drop(pkt, DropReason::Early);
            }
        }
        // No ECN (the scheme declares none): CHOKe's drops are what hold an
        // unresponsive flow back.
        let p_b = self.queue.state.p_b(self.queue.state.avg);
        self.queue.admit(pkt, p_b, ctx);
    }

    fn set_own(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "candidates" => self.candidates = value.max(1.0) as u32,
            _ => self.queue.set(id, value)?,
        }
        Ok(())
    }

    fn probe_into(&self, out: &mut ProbeSink) {
        out.put("avg", self.queue.state.avg);
        out.put("p_b", self.queue.state.p_b(self.queue.state.avg));
        out.put("match_rate", self.match_rate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::queue::testing::Harness;
    use crate::testing::tcp32_cbr1;

    /// A CHOKe bench holding `own` packets of flow 0 then `others` of flow 1,
    /// queued below min_th, then min_th lowered so that comparisons start.
    fn filled(own: usize, others: usize, extra: &[(&str, f64)]) -> Harness {
        let mut params = vec![("w_q", 1.0), ("min_th", 1000.0), ("max_th", 2000.0), ("max_p", 0.0)];
        params.extend_from_slice(extra);
        let mut h = Harness::new("choke", &params, Limit::Packets(5000));
        (0..own).for_each(|_| h.arrive_from(0, 1000));
        (0..others).for_each(|_| h.arrive_from(1, 1000));
        h.q.set_param("min_th", 2.0).unwrap();
        h
    }

    #[test]
    fn no_comparison_at_or_below_min_th() {
        // w_q = 1: avg is the queue an arrival sees. With min_th 5 the first
        // six arrivals see 0…5 and are admitted; the seventh sees 6 > 5 and,
        // the queue holding only its own flow, is dropped with its match.
        let mut h = Harness::new("choke", &[("w_q", 1.0), ("min_th", 5.0), ("max_th", 100.0)], Limit::Packets(50));
        h.arrive_n(6, 1000);
        assert!(h.dropped.is_empty());
        h.arrive(1000);
        assert_eq!(h.drops(DropReason::Early), 2);
        assert_eq!(h.q.len_packets(), 5);
    }

    #[test]
    fn a_match_kills_both_packets_and_spares_other_flows() {
        // The queue holds only flow 0: each flow-0 arrival surely matches.
        let mut h = filled(10, 0, &[]);
        h.arrive_n_from(5, 0, 1000);
        assert_eq!(h.drops(DropReason::Early), 10);
        assert_eq!(h.q.len_packets(), 5);
        // Flow 1 has nothing queued to match; max_p = 0, so it is admitted,
        // and later flow-0 arrivals can only ever kill flow-0 packets.
        h.arrive_from(1, 1000);
        assert_eq!(h.q.len_packets(), 6);
        // Above max_th an unmatched arrival is forced out by RED's rule.
        h.q.set_param("max_th", 3.0).unwrap();
        h.arrive_from(7, 1000);
        assert_eq!(h.drops(DropReason::Forced), 1);
        h.q.set_param("max_th", 2000.0).unwrap();
        h.arrive_n_from(20, 0, 1000);
        assert!(h.dropped.iter().all(|(p, r)| p.flow != 1 && (p.flow == 0) == (*r == DropReason::Early)));
    }

    #[test]
    fn match_probability_is_the_flows_share_of_the_queue() {
        // 2 of 10 queued packets are flow 0's: one candidate matches with
        // probability 0.2; two candidates miss both with 0.8² → 0.36.
        for (m, expect) in [(1.0, 0.2), (2.0, 1.0 - 0.8 * 0.8)] {
            let trials = 4000;
            let mut hits = 0;
            for seed in 0..trials {
                let mut h = filled(2, 8, &[("candidates", m)]);
                h.rng = Rng::stream(seed, "choke-trial");
                h.arrive_from(0, 1000);
                hits += usize::from(!h.dropped.is_empty());
            }
            let p = hits as f64 / trials as f64;
            // Binomial std-dev ≤ 0.008 at 4000 trials: 0.03 is ~4σ.
            assert!((p - expect).abs() < 0.03, "m = {m}: {p} vs {expect}");
        }
    }

    #[test]
    fn match_rate_probe_tracks_matches() {
        let mut h = filled(10, 0, &[]);
        h.arrive_from(0, 1000);
        assert!((h.probe("match_rate") - 1.0 / MATCH_WINDOW).abs() < 1e-12);
        h.arrive_from(3, 1000);
        assert!((h.probe("match_rate") - (1.0 / MATCH_WINDOW) * (1.0 - 1.0 / MATCH_WINDOW)).abs() < 1e-12);
    }

    /// UDP's share of the 1 Mb/s link in AFpFT (2011) §3B's 32 TCP + 1 CBR
    /// scenario, with the CBR at `rate` and the queue `scheme` at 25%/75%.
    fn udp_share(scheme: &str, rate: f64) -> f64 {
        let sim = tcp32_cbr1(|v| {
            v["queue"] = serde_json::json!({ "scheme": scheme, "params": { "min_th": 25000, "max_th": 75000 } });
            v["flows"][1]["rate_bps"] = rate.into();
        });
        // CBR packets are 972 + 28 bytes on the wire.
        sim.summary().flows[32].goodput_bps * 1000.0 / 972.0 / 1e6
    }

    #[test]
    fn an_unresponsive_flow_gets_a_small_and_then_vanishing_share() {
        // Tang, Wang & Low (Understanding CHOKe, 2003): with many TCP flows
        // the UDP share under CHOKe peaks at 1/(e+1) ≈ 0.269 when UDP sends
        // a little above the link rate, and tends to 0 as it sends faster,
        // while under RED it tends to the whole link.
        let peak = 1.0 / (1.0 + std::f64::consts::E);
        let (choke_1x, red_1x) = (udp_share("choke", 1e6), udp_share("red", 1e6));
        assert!(choke_1x < peak, "CHOKe at 1×: {choke_1x}");
        assert!(red_1x > 0.7, "RED at 1×: {red_1x}");
        let (choke_8x, red_8x) = (udp_share("choke", 8e6), udp_share("red", 8e6));
        assert!(choke_8x < 0.1 && choke_8x < choke_1x / 2.0, "CHOKe at 8×: {choke_8x}");
        assert!(red_8x > 0.95, "RED at 8×: {red_8x}");
    }
}
