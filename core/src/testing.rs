//! Whole-simulation helpers shared by the tests of every scheme.

use crate::metrics::{max_min_shares, Summary};
use crate::queue::scheme::ParamValues;
use crate::scenario::Scenario;
use crate::sim::{SeriesMode, Simulation};

/// Run a scenario document to its end and summarise it.
pub(crate) fn run(text: &str) -> Summary {
    let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
    sim.run();
    sim.summary()
}

/// The mean of history column `column` over the measurement window of a run
/// recorded with history.
pub(crate) fn mean_while_measured(sim: &Simulation, column: &str) -> f64 {
    let h = sim.history();
    let col = |id: &str| h.column(h.columns.iter().position(|c| c == id).expect("column"));
    let from = crate::kernel::to_secs(sim.plan().measure_from_ns);
    let values: Vec<f64> = col("t_s").iter().zip(col(column)).filter(|(t, _)| **t >= from).map(|(_, v)| *v).collect();
    values.iter().sum::<f64>() / values.len() as f64
}

/// Run a scenario document with its queue scheme replaced by
/// [`random_loss`] dropping each arrival with probability `p`.
pub(crate) fn run_with_random_loss(text: &str, p: f64) -> Summary {
    let mut plan = Scenario::from_json(text).and_then(|s| s.plan()).expect("valid scenario");
    plan.scheme = &random_loss::INFO;
    plan.params = ParamValues::defaults(&random_loss::INFO, plan.limit);
    plan.params.set("p", p);
    let mut sim = Simulation::from_plan(plan, SeriesMode::default());
    sim.run();
    sim.summary()
}

/// Test-only scheme: a large FIFO that drops each arrival independently
/// with probability `p` (a lossy link).
mod random_loss {
    use crate::net::Packet;
    use crate::queue::scheme::{no_cross_check, ParamValues, SchemeInfo};
    use crate::queue::{DropReason, Fifo, ParamError, ParamKind, ParamSpec, ProbeSink, Qdisc, QueueCtx, QueueSetup};

    pub static INFO: SchemeInfo = SchemeInfo {
        id: "test_random_loss",
        name: "random loss",
        paper: "test only",
        summary: "independent Bernoulli losses",
        params: &[ParamSpec {
            id: "p",
            label: "p",
            kind: ParamKind::Number,
            unit: "",
            min: 0.0,
            max: 1.0,
            step: 0.001,
            default: 0.01,
            doc: "loss",
        }],
        probes: &[],
        build,
        cross_check: no_cross_check,
        model: None,
    };

    fn build(_: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
        Box::new(Lossy { p: params.get("p"), fifo: Fifo::default() })
    }

    struct Lossy {
        p: f64,
        fifo: Fifo,
    }

    impl Qdisc for Lossy {
        fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
            if ctx.rng.chance(self.p) {
                ctx.drop(pkt, DropReason::Early);
            } else {
                self.fifo.push(pkt);
            }
        }
        fn dequeue(&mut self, _: &mut QueueCtx) -> Option<Packet> {
            self.fifo.pop()
        }
        crate::queue::fifo_lengths!();
        fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
            match id {
                "p" => self.p = v,
                _ => return Err(ParamError::unknown(id)),
            }
            Ok(())
        }
        fn probe(&self, _: &mut ProbeSink) {}
    }
}

/// A dumbbell scenario (seed 1, default access links, statistics over the
/// last three quarters) with the given queue and flow groups as JSON.
pub(crate) fn dumbbell(
    secs: f64,
    rate_bps: f64,
    delay_ms: f64,
    buffer_packets: u32,
    queue: &str,
    flows: &str,
) -> String {
    format!(
        r#"{{ "version": 1, "seed": 1, "duration_s": {secs}, "measure_from_s": {},
            "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": {rate_bps}, "delay_ms": {delay_ms} }},
                           "buffer": {{ "packets": {buffer_packets} }} }},
            "queue": {queue}, "flows": [{flows}] }}"#,
        secs / 4.0
    )
}

/// Five TCP flows (1000-byte segments, RTT 30–50 ms) beside a CBR at the
/// link rate, 30 s on a 10 Mb/s dumbbell with 200 packets of buffer under
/// `queue`: what a flow-queuing scheme holds to its share.
pub(crate) fn five_tcp_beside_a_line_rate_cbr(queue: &str) -> Summary {
    let flows = r#"{ "kind": "tcp", "count": 5, "segment_bytes": 1000, "access_delay_ms": [5, 15], "start_s": [0, 1] },
                   { "kind": "cbr", "rate_bps": 10000000, "packet_bytes": 1000, "start_s": [0, 1] }"#;
    run(&dumbbell(30.0, 1e7, 10.0, 200, queue, flows))
}

/// Max-min fair shares of `demands` on one link of `capacity`.
pub(crate) fn max_min(demands: &[f64], capacity: f64) -> Vec<f64> {
    let paths = vec![vec![0]; demands.len()];
    max_min_shares(&[capacity], &paths, &demands.iter().map(|d| Some(*d)).collect::<Vec<_>>())
}

/// Wire rate of a UDP flow with 972-byte payloads, from its goodput.
pub(crate) fn udp_wire_bps(goodput_bps: f64) -> f64 {
    goodput_bps * 1000.0 / 972.0
}

/// AFpFT (2011) §3B (`scenarios/tcp32-cbr1.json`): 32 NewReno flows and one CBR
/// at the link rate on 1 Mb/s with a 100 kB buffer, after `patch`, run to
/// its end.
pub(crate) fn tcp32_cbr1(patch: impl FnOnce(&mut serde_json::Value)) -> Simulation {
    let mut v: serde_json::Value =
        serde_json::from_str(include_str!("../../scenarios/tcp32-cbr1.json")).expect("valid JSON");
    patch(&mut v);
    let mut sim = Simulation::from_json(&v.to_string(), SeriesMode::default()).expect("valid scenario");
    sim.run();
    sim
}

/// Each flow's goodput in AFpFT (2011) §3B under `queue`, averaged over
/// seeds 1 to `seeds` (the paper averages replications).
pub(crate) fn tcp32_cbr1_mean_goodputs(queue: serde_json::Value, seeds: u32) -> Vec<f64> {
    let mut mean = vec![0.0; 33];
    for seed in 1..=seeds {
        let s = tcp32_cbr1(|v| {
            v["queue"] = queue.clone();
            v["seed"] = seed.into();
        })
        .summary();
        mean.iter_mut().zip(&s.flows).for_each(|(m, f)| *m += f.goodput_bps / f64::from(seeds));
    }
    mean
}

/// Wire rates in AFpFT (2011) §3B under `queue`: (CBR, mean TCP, Jain over TCP).
pub(crate) fn cbr_and_tcp_rates(queue: serde_json::Value) -> (f64, f64, f64) {
    tcp32_cbr1_rates(&tcp32_cbr1(|v| v["queue"] = queue).summary())
}

/// Wire rates in a run of AFpFT (2011) §3B: (CBR, mean TCP, Jain over TCP).
pub(crate) fn tcp32_cbr1_rates(s: &crate::metrics::Summary) -> (f64, f64, f64) {
    // CBR packets are 972 + 28 bytes on the wire, TCP segments 1000 + 40.
    let cbr = udp_wire_bps(s.flows[32].goodput_bps);
    let tcp_mean = s.flows[..32].iter().map(|f| f.goodput_bps * 1040.0 / 1000.0).sum::<f64>() / 32.0;
    (cbr, tcp_mean, s.fairness.jain_tcp.unwrap_or(0.0))
}

/// The cross-scheme check of a flow-aware scheme (AFpFT (2011) §3B): it holds
/// the CBR to at most `cbr_bound` times the max-min share C/33 = 30.3 kb/s
/// (where RED lets it take over 70% of the link) while the TCP flows keep
/// most of their share and split it evenly. The paper averages 30 runs
/// (FRED: CBR 57 kb/s, i.e. 1.9×; CSFQ: "more than 3×", TCP 26 kb/s); one
/// 25-s window of one run is noisier, hence TCP > 0.8× fair and Jain > 0.95.
pub(crate) fn assert_fair_against_cbr(queue: serde_json::Value, cbr_bound: f64) {
    let fair = 1e6 / 33.0;
    let what = queue.to_string();
    let (cbr, tcp_mean, jain) = cbr_and_tcp_rates(queue);
    let got = format!("{what}: CBR {cbr:.0} b/s, TCP mean {tcp_mean:.0} b/s, Jain {jain:.3}");
    assert!(cbr < cbr_bound * fair, "{got}");
    assert!(tcp_mean > 0.8 * fair, "{got}");
    assert!(jain > 0.95, "{got}");
}
