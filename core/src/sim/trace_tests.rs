//! Links that follow a rate trace, run whole: a constant trace is a fixed
//! link, goodput follows a step, an outage sends nothing, and TCP over
//! mahimahi-style opportunities gets the trace's rate.

use super::*;
use serde_json::{json, Value};

/// A dumbbell of `rate_bps` (20 ms one way, 1 ms access links) whose bottleneck has `trace`.
fn scenario(duration_s: f64, rate_bps: f64, trace: Option<Value>, queue: Value, flows: Value) -> String {
    let mut bottleneck = json!({ "rate_bps": rate_bps, "delay_ms": 20 });
    if let Some(t) = trace {
        bottleneck["trace"] = t;
    }
    json!({
        "version": 1, "seed": 3, "duration_s": duration_s, "sample_interval_ms": 50,
        "topology": { "kind": "dumbbell", "bottleneck": bottleneck, "buffer": { "packets": 100 } },
        "queue": queue, "flows": flows
    })
    .to_string()
}

fn history_run(text: &str) -> Simulation {
    let mut sim = Simulation::from_json(text, SeriesMode { history: true, streaming: false }).expect("valid");
    sim.run();
    sim
}

/// The summary without its `perf` block.
fn summary_json(sim: &Simulation) -> Value {
    let mut v = serde_json::to_value(sim.summary()).expect("serialisable");
    v.as_object_mut().expect("an object").remove("perf");
    v
}

/// (t_s, the sum over flows of goodput, capacity) per sample.
fn goodput_and_capacity(sim: &Simulation) -> Vec<(f64, f64, f64)> {
    let h = sim.history();
    let col = |id: &str| h.column(h.columns.iter().position(|c| c == id).expect("column"));
    let flows: Vec<&[f64]> = (0..sim.flows.len()).map(|i| col(&format!("goodput_bps.{i}"))).collect();
    (0..h.rows).map(|r| (col("t_s")[r], flows.iter().map(|f| f[r]).sum(), col("capacity_bps")[r])).collect()
}

#[test]
fn a_constant_trace_runs_exactly_as_a_fixed_link() {
    // RED draws at random and TCP and Poisson traffic share the link: every
    // decision depends on the serialisation times, which a constant trace
    // computes with the same integer arithmetic as a fixed link.
    let flows =
        json!([ { "kind": "tcp", "count": 5, "access_delay_ms": [1, 30] }, { "kind": "poisson", "rate_bps": 2e6 } ]);
    let queue = json!({ "scheme": "red" });
    let fixed = history_run(&scenario(20.0, 10e6, None, queue.clone(), flows.clone()));
    let step = json!({ "generate": { "kind": "step", "steps": [ { "at_s": 0, "rate_bps": 10e6 } ] } });
    let traced = history_run(&scenario(20.0, 10e6, Some(step), queue, flows));
    assert_eq!(summary_json(&fixed), summary_json(&traced));
    let (a, b) = (fixed.history(), traced.history());
    assert_eq!(b.columns.last().map(String::as_str), Some("capacity_bps"));
    // Bit for bit (a NaN marks a sample without a value).
    let bits = |c: &[f64]| c.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for (i, id) in a.columns.iter().enumerate() {
        assert_eq!(bits(a.column(i)), bits(b.column(i)), "{id}");
    }
    assert!(traced.history().column(b.columns.len() - 1).iter().all(|&c| c == 10e6));
}

#[test]
fn goodput_follows_a_step_within_a_few_round_trips() {
    // 20 → 5 → 20 Mb/s under 10 Reno flows (base RTT 44 ms) with a buffer
    // of about two bandwidth-delay products at 20 Mb/s, so the link stays
    // busy. Goodput (payload 1000 of 1040 wire bytes) over the half second
    // from 5 RTTs after each step is within 10 % of the new capacity, and
    // so is each period's mean after it.
    let steps = json!({ "generate": { "kind": "step", "steps": [
        { "at_s": 10, "rate_bps": 5e6 }, { "at_s": 20, "rate_bps": 20e6 } ] } });
    let flows = json!([ { "kind": "tcp", "count": 10, "cc": "reno" } ]);
    let mut v: Value =
        serde_json::from_str(&scenario(30.0, 20e6, Some(steps), json!({ "scheme": "droptail" }), flows)).expect("json");
    v["topology"]["buffer"]["packets"] = 200.into();
    let sim = history_run(&v.to_string());
    let payload = 1000.0 / 1040.0;
    let rows = goodput_and_capacity(&sim);
    for &(t, _, capacity) in &rows {
        let expected = if (10.0..20.0).contains(&t) { 5e6 } else { 20e6 };
        assert_eq!(capacity, expected, "t = {t}");
    }
    let mean_goodput = |from: f64, to: f64| {
        let period: Vec<f64> = rows.iter().filter(|r| r.0 > from && r.0 <= to).map(|r| r.1).collect();
        period.iter().sum::<f64>() / period.len() as f64
    };
    let settle = 5.0 * 0.044;
    for (from, to, capacity) in [
        (10.0 + settle, 10.5 + settle, 5e6),
        (20.0 + settle, 20.5 + settle, 20e6),
        (3.0, 10.0, 20e6),
        (10.0 + settle, 20.0, 5e6),
        (20.0 + settle, 30.0, 20e6),
    ] {
        let mean = mean_goodput(from, to);
        assert!((mean / (capacity * payload) - 1.0).abs() < 0.1, "{from}–{to} s: {mean} of {capacity}");
    }
}

#[test]
fn an_outage_sends_nothing_and_the_queue_grows() {
    // CBR alone (no ACKs): from one path delay after the outage starts
    // until it ends, nothing reaches a receiver; the queue only grows.
    let outage = json!({ "generate": { "kind": "outage", "start_s": 2, "duration_s": 1 } });
    let flows = json!([ { "kind": "cbr", "rate_bps": 4e6 } ]);
    let text = scenario(5.0, 10e6, Some(outage), json!({ "scheme": "droptail" }), flows);
    let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid");
    let path_delay = 22 * crate::kernel::NS_PER_MS;
    sim.advance_to(2_000_000_000 + path_delay);
    let (delivered, queued) = (sim.ledger().delivered, sim.ports[0].queue.len_packets());
    assert!(delivered > 500);
    for k in 1..=9 {
        sim.advance_to(2_000_000_000 + path_delay + k * 100_000_000);
        assert_eq!(sim.ledger().delivered, delivered, "a delivery during the outage");
    }
    sim.advance_to(3_000_000_000);
    // 4 Mb/s of 1028-byte packets for 1 s: about 486 arrive; the 100-packet
    // buffer fills and the rest drop. Before: what came in the first 22 ms.
    assert!(
        sim.ports[0].queue.len_packets() == 100 && queued <= 20,
        "{queued} then {}",
        sim.ports[0].queue.len_packets()
    );
    sim.run();
    assert!(sim.ledger().delivered > delivered + 100);
}

#[test]
fn tcp_over_mahimahi_opportunities_gets_the_traces_rate() {
    // Two opportunities each 3 ms, repeated: 8 Mb/s. Four CUBIC flows over
    // 30 s keep the link busy: goodput within 5 % of 8 Mb/s of 1040-byte
    // packets' payload, and the series shows 8 Mb/s averaged over a sample.
    let trace = json!({ "opportunities_ms": [1, 3] });
    let flows = json!([ { "kind": "tcp", "count": 4, "cc": "cubic" } ]);
    let sim = history_run(&scenario(30.0, 100e6, Some(trace), json!({ "scheme": "droptail" }), flows));
    let s = sim.summary();
    let expected = 8e6 * 1000.0 / 1040.0;
    assert!((s.aggregate_goodput_bps / expected - 1.0).abs() < 0.05, "{} vs {expected}", s.aggregate_goodput_bps);
    // Utilisation is measured against the trace's mean rate.
    assert!(s.utilization > 0.95 && s.utilization <= 1.0, "{}", s.utilization);
    let capacities: Vec<f64> = goodput_and_capacity(&sim).iter().map(|r| r.2).collect();
    // A 50 ms sample holds 33 or 34 opportunities (2 per 3 ms) of 12 000 bits.
    assert!(capacities.iter().all(|&c| c == 33.0 * 12_000.0 / 0.05 || c == 34.0 * 12_000.0 / 0.05), "{capacities:?}");
}

#[test]
fn each_hop_of_a_parking_lot_follows_its_own_trace() {
    // Two hops of 10 Mb/s; the second halves at 10 s. Five flows cross
    // both: their goodput follows the second hop, and each hop's capacity
    // column shows its own rate (the first keeps its nominal rate).
    let text = json!({
        "version": 1, "seed": 3, "duration_s": 20, "sample_interval_ms": 50,
        "topology": { "kind": "parking_lot", "hops": 2, "bottleneck": { "rate_bps": 10e6, "delay_ms": 10 },
                      "buffer": { "packets": 100 },
                      "hop_traces": [null, { "generate": { "kind": "step", "steps": [{ "at_s": 10, "rate_bps": 5e6 }] } }] },
        "queue": { "scheme": "droptail" },
        "flows": [ { "kind": "tcp", "count": 5, "path": [0, 1] } ]
    })
    .to_string();
    let sim = history_run(&text);
    let h = sim.history();
    let col = |id: &str| h.column(h.columns.iter().position(|c| c == id).expect("column"));
    let (t, first, second) = (col("t_s"), col("capacity_bps"), col("capacity_bps@1"));
    assert!(first.iter().all(|&c| c == 10e6));
    assert!(t.iter().zip(second).all(|(&t, &c)| c == if t < 10.0 { 10e6 } else { 5e6 }));
    let rows = goodput_and_capacity(&sim);
    let mean = |from: f64, to: f64| {
        let period: Vec<f64> = rows.iter().filter(|r| r.0 > from && r.0 <= to).map(|r| r.1).collect();
        period.iter().sum::<f64>() / period.len() as f64
    };
    let payload = 1000.0 / 1040.0;
    assert!((mean(3.0, 10.0) / (10e6 * payload) - 1.0).abs() < 0.1, "{}", mean(3.0, 10.0));
    assert!((mean(10.5, 20.0) / (5e6 * payload) - 1.0).abs() < 0.1, "{}", mean(10.5, 20.0));
}
