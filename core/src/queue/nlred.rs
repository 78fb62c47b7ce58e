//! NLRED — Nonlinear RED (Zhou, Yeung & Li 2009, §4, eq. 3 and Fig. 9).
//!
//! RED with its linear drop function replaced by a quadratic one:
//!   min_th ≤ avg < max_th: p_b = p'_max·((avg−min_th)/(max_th−min_th))²,  p'_max = 1.5·max_p
//!   avg ≥ max_th: drop
//! Everything else is RED's (the EWMA avg with idle decay, count spacing),
//! since "the rest of the original RED remains unchanged" (§1). The factor
//! 1.5 makes the area under the quadratic over [min_th, max_th] equal to
//! RED's with the same max_p (§4.1), so `max_p` here is the RED-equivalent
//! value the paper labels its curves with. No gentle region: §4.2 rejects it.
//!
//! Reading of the extracted text: Fig. 9 says "using (2)" for the drop
//! probability, which is RED's linear function; the prose around it makes
//! clear (3), the quadratic, is meant. At avg = max_th exactly (3) still
//! gives p'_max while RED forces; we force, as RED does (a single point).
//! p'_max is capped at 1 for max_p > 2/3 (the paper sweeps max_p ≤ 0.5).
//! Defaults: Experiment 2 (§5): min_th 10, max_th 30, max_p 0.1, w_q 0.002.

use super::prelude::*;
use super::red::{self, RedQueue, RedScheme};

pub static INFO: SchemeInfo = SchemeInfo {
    id: "nlred",
    name: "NLRED",
    paper: "Zhou, Yeung & Li, Nonlinear RED: a simple yet efficient active queue management scheme, Computer Networks 2006; as used in Zhou, Yeung & Li 2009 §4",
    summary: "RED with a quadratic drop function: gentler than RED at light load, harsher near max_th.",
    params: PARAMS,
    probes: red::PROBES,
    build,
    cross_check: super::red::cross_check,
    model: None,
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec { default: 10.0, ..red::MIN_TH },
    ParamSpec { default: 30.0, doc: "At and above this average queue every arrival is dropped.", ..red::MAX_TH },
    ParamSpec {
        label: "max drop probability (RED-equivalent)",
        doc: "The quadratic reaches p'_max = 1.5·max_p at max_th (capped at 1): same area as RED's line.",
        ..red::MAX_P
    },
    red::W_Q,
    red::WAIT,
    red::MEAN_PACKET_BYTES,
    red::ECN,
];

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Nlred::new(setup.limit, setup.link_rate_bps), params)
}

pub struct Nlred {
    queue: RedQueue,
}

impl Nlred {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Nlred {
        Nlred { queue: RedQueue::new(limit, link_rate_bps) }.with_defaults()
    }
}

impl RedScheme for Nlred {
    red::red_scheme_parts!();

    /// Eq. (3) with p'_max = 1.5·max_p.
    fn p_b(&self, avg: f64) -> f64 {
        let s = &self.queue.state;
        if avg < s.min_th {
            0.0
        } else if avg < s.max_th {
            let x = (avg - s.min_th) / (s.max_th - s.min_th);
            (1.5 * s.max_p).min(1.0) * x * x
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::net::{Dir, Packet, PacketKind};
    use crate::queue::red::Red;
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::queue::{DropReason, QueueCtx};
    use crate::sim::{SeriesMode, Simulation};
    use crate::testing::mean_while_measured;

    #[test]
    fn drop_function_is_the_quadratic_with_one_and_a_half_max_p() {
        let q = Nlred::new(Limit::Packets(120), 10_000_000);
        // min_th 10, max_th 30, max_p 0.1: p'_max = 0.15.
        assert_eq!(q.p_b(9.999), 0.0);
        assert_eq!(q.p_b(10.0), 0.0);
        assert!((q.p_b(15.0) - 0.15 * 0.0625).abs() < 1e-15);
        assert!((q.p_b(20.0) - 0.0375).abs() < 1e-15);
        assert!((q.p_b(25.0) - 0.15 * 0.5625).abs() < 1e-15);
        assert!((q.p_b(29.999) - 0.15 * (19.999f64 / 20.0).powi(2)).abs() < 1e-15);
        assert_eq!(q.p_b(30.0), 1.0);
        assert_eq!(q.p_b(200.0), 1.0);
    }

    #[test]
    fn gentler_than_red_below_two_thirds_and_harsher_above_with_the_same_area() {
        // §4.1: 1.5·max_p·x² < max_p·x exactly for x < 2/3, and both integrate
        // to max_p/2 over x ∈ [0, 1].
        let q = Nlred::new(Limit::Packets(120), 10_000_000);
        let mut red = Red::new(Limit::Packets(120), 10_000_000);
        red.queue.state.min_th = 10.0;
        red.queue.state.max_th = 30.0;
        let cross = 10.0 + 20.0 * 2.0 / 3.0;
        for avg in [11.0, 15.0, 20.0, cross - 0.01] {
            assert!(q.p_b(avg) < red.queue.state.p_b(avg), "{avg}");
        }
        for avg in [cross + 0.01, 25.0, 29.9] {
            assert!(q.p_b(avg) > red.queue.state.p_b(avg), "{avg}");
        }
        let n = 20_000;
        let h = 20.0 / n as f64;
        let area = |f: &dyn Fn(f64) -> f64| (0..n).map(|i| f(10.0 + (i as f64 + 0.5) * h) * h).sum::<f64>();
        let (a_nl, a_red) = (area(&|x| q.p_b(x)), area(&|x| red.queue.state.p_b(x)));
        assert!((a_nl - a_red).abs() < 1e-6 && (a_red - 0.1 * 20.0 / 2.0).abs() < 1e-6, "{a_nl} vs {a_red}");
    }

    #[test]
    fn p_prime_max_is_capped_at_one() {
        let mut q = Nlred::new(Limit::Packets(120), 10_000_000);
        q.set_param("max_p", 0.9).unwrap();
        assert!((q.p_b(29.999999) - (19.999999f64 / 20.0).powi(2)).abs() < 1e-15);
    }

    #[test]
    fn early_drop_rate_is_the_quadratic_with_red_spacing() {
        // Hold the queue, hence avg, at 20: p_b = 0.0375.
        // Wait on (the default): no drop before count 27 (27·p_b ≥ 1), then
        // P(gap > n) = (2 − (n+1)·p_b)/(2 − 27·p_b) up to m = 53 (see red.rs),
        // so E[gap] = 27 + Σ_{n=27}^{52} (2 − (n+1)·p_b)/0.9875 = 39.671.
        // Wait off: P(gap > n) = (1 − (n+1)·p_b)/(1 − p_b), so
        // E[gap] = Σ_{n=0}^{25} (1 − (n+1)·p_b)/(1 − p_b) = 13.338.
        let p_b: f64 = 0.0375;
        let wait_gap = 27.0 + (27..53).map(|n| (2.0 - (n + 1) as f64 * p_b) / (2.0 - 27.0 * p_b)).sum::<f64>();
        let fj_gap: f64 = (0..26).map(|n| (1.0 - (n + 1) as f64 * p_b) / (1.0 - p_b)).sum();
        assert!((wait_gap - 39.671).abs() < 1e-3 && (fj_gap - 13.338).abs() < 1e-3, "{wait_gap} {fj_gap}");
        for (wait, mean_gap) in [(1.0, wait_gap), (0.0, fj_gap)] {
            let measured = held_at_20_drop_fraction(wait);
            assert!((measured * mean_gap - 1.0).abs() < 0.01, "wait {wait}: {measured} vs {}", 1.0 / mean_gap);
        }
    }

    /// The early-drop fraction of 400 000 arrivals to an NLRED whose queue
    /// and average are held at 20 packets.
    fn held_at_20_drop_fraction(wait: f64) -> f64 {
        let mut q = Nlred::new(Limit::Packets(120), 10_000_000);
        q.set_param("wait", wait).expect("NLRED has the wait switch");
        let packet = || Packet::new(0, PacketKind::Data, Dir::Forward, 1000, 972);
        for _ in 0..20 {
            q.queue.fifo.push(packet());
        }
        q.queue.state.avg = 20.0;
        q.queue.state.idle_since = None;
        let mut rng = Rng::stream(7, "nlred");
        let mut out = QueueOutcome::default();
        let n = 400_000;
        for _ in 0..n {
            q.enqueue(packet(), &mut QueueCtx::new(0, &mut rng, &mut out));
            if q.queue.fifo.len() > 20 {
                q.queue.fifo.pop();
            }
        }
        assert!((q.queue.state.avg - 20.0).abs() < 1e-9);
        assert!(out.drops.iter().all(|(_, r)| *r == DropReason::Early));
        out.drops.len() as f64 / n as f64
    }

    #[test]
    fn forced_drops_at_max_th_and_overflow_at_the_limit() {
        // w_q = 1: avg is the queue each arrival sees, so the queue stops at max_th.
        let params = [("w_q", 1.0), ("min_th", 2.0), ("max_th", 10.0)];
        let mut h = Harness::new("nlred", &params, Limit::Packets(1000));
        h.arrive_n(200, 1000);
        assert_eq!(h.q.len_packets(), 10);
        assert_eq!(h.drops(DropReason::Forced) + h.drops(DropReason::Early), 190);
    }

    #[test]
    fn ecn_marks_instead_of_early_drops() {
        let params = [("min_th", 1.0), ("max_th", 1000.0), ("max_p", 0.6)];
        let h = Harness::red_marking_burst("nlred", &params, Limit::Packets(2000), 800);
        assert_eq!(h.drops(DropReason::Early), 0);
        assert!(h.marks > 50, "{}", h.marks);
    }

    #[test]
    fn drop_curve_has_the_operating_point_on_it() {
        let mut q = Nlred::new(Limit::Packets(120), 10_000_000);
        q.queue.state.avg = 20.0;
        let c = q.drop_curve().expect("NLRED has a curve");
        assert!((c.operating_point[1] - 0.0375).abs() < 1e-15);
        assert!(c.points.iter().any(|p| p[0] == 30.0 && p[1] == 1.0));
        assert!(c.points.iter().all(|p| (p[1] - q.p_b(p[0])).abs() < 1e-15));
    }

    /// A run of `flows` TCP flows on 5 Mb/s (base RTTs 50–120 ms; Zhou, Yeung & Li's (2009)
    /// 120-packet buffer) under `queue`: the mean of the `avg` probe
    /// and the early-drop fraction of arrivals over the second half.
    fn tcp_run(queue: &str, flows: u32) -> (f64, f64) {
        let text = format!(
            r#"{{ "version": 1, "seed": 1, "duration_s": 100, "measure_from_s": 50,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 5e6, "delay_ms": 20 }},
                               "buffer": {{ "packets": 120 }} }},
                "queue": {queue},
                "flows": [{{ "kind": "tcp", "count": {flows}, "segment_bytes": 960, "start_s": [0, 2],
                            "access_delay_ms": [5, 40] }}] }}"#
        );
        let mut sim = Simulation::from_json(&text, SeriesMode { history: true, streaming: false }).expect("valid");
        sim.run();
        let mean_avg = mean_while_measured(&sim, "probe.avg");
        let s = sim.summary();
        let arrivals: u64 = s.flows.iter().map(|f| f.sent_packets).sum();
        (mean_avg, s.drops.by_reason.early as f64 / arrivals as f64)
    }

    /// RED's spacing with wait (the default) turns p_b into an early-drop
    /// fraction f ≈ p_b/1.5 ([`red::spaced_drop_fraction`]); invert it by
    /// bisection (f grows with p_b).
    fn p_b_of_fraction(f: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if red::spaced_drop_fraction(red::CountRule::Wait, mid) < f {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    const NLRED: &str = r#"{ "scheme": "nlred" }"#;
    const GRED: &str = r#"{ "scheme": "red", "params": { "min_th": 10, "max_th": 30, "w_q": 0.002, "gentle": true } }"#;

    #[test]
    fn under_tcp_load_the_average_sits_where_the_quadratic_gives_the_drop_rate_tcp_needs() {
        // 20 flows: avg stays between the thresholds, at the point where
        // 0.15·x² equals the p_b implied by the measured early drops.
        let (avg, fraction) = tcp_run(NLRED, 20);
        let predicted = 10.0 + 20.0 * (p_b_of_fraction(fraction) / 0.15).sqrt();
        assert!(avg > 10.0 && avg < 30.0, "avg {avg}");
        assert!((avg - predicted).abs() < 1.0, "avg {avg} vs {predicted} from drop fraction {fraction}");
    }

    #[test]
    fn nlred_queues_more_than_gentle_red_at_light_load_and_less_at_heavy_load() {
        // §5 Figs. 15–16. Both schemes must drop at the rate the flows'
        // windows require, p_b, so avg solves 0.15·x² = p_b for NLRED and
        // 0.1·x = p_b for RED: NLRED sits higher exactly when p_b < 2/3·0.1.
        for flows in [5, 60] {
            let (nl, fraction) = tcp_run(NLRED, flows);
            let (red, _) = tcp_run(GRED, flows);
            let light = p_b_of_fraction(fraction) < 0.1 * 2.0 / 3.0;
            assert_eq!(light, flows == 5, "{flows} flows: p_b {}", p_b_of_fraction(fraction));
            assert!(if light { nl > red + 1.0 } else { nl < red - 1.0 }, "{flows} flows: NLRED {nl} vs GRED {red}");
        }
    }
}
