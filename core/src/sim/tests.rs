//! Whole-simulation checks against theory. Each test states the model it
//! compares with.

use super::*;
use crate::testing::{dumbbell, run, run_with_random_loss};

/// M/D/1/K by the embedded Markov chain at departures (Gross & Harris §5.1.9):
/// a_k = e^{−ρ}ρ^k/k! arrivals per service; π from the recursion
/// π_{j+1} = (π_j − π_0·a_j − Σ_{i=1..j} π_i·a_{j−i+1}) / a_0; then the
/// time-average p_j = π_j/(π_0 + ρ) and blocking P_K = 1 − 1/(π_0 + ρ).
/// Returns (blocking probability, mean number waiting), K = system capacity.
fn md1k(rho: f64, k: usize) -> (f64, f64) {
    let a: Vec<f64> = (0..=k)
        .scan(libm::exp(-rho), |term, i| {
            let v = *term;
            *term *= rho / (i + 1) as f64;
            Some(v)
        })
        .collect();
    let mut pi = vec![1.0];
    for j in 0..k - 1 {
        let s: f64 = (1..=j).map(|i| pi[i] * a[j - i + 1]).sum();
        pi.push((pi[j] - pi[0] * a[j] - s) / a[0]);
    }
    let total: f64 = pi.iter().sum();
    pi.iter_mut().for_each(|p| *p /= total);
    let denom = pi[0] + rho;
    let blocking = 1.0 - 1.0 / denom;
    let mut p: Vec<f64> = pi.iter().map(|x| x / denom).collect();
    p.push(blocking);
    let in_system: f64 = p.iter().enumerate().map(|(j, x)| j as f64 * x).sum();
    (blocking, in_system - (1.0 - p[0]))
}

#[test]
fn md1k_formula_sanity() {
    // K = 1 is M/D/1/1 (Erlang loss with one server): blocking ρ/(1+ρ).
    let (b, _) = md1k(0.5, 1);
    assert!((b - 0.5 / 1.5).abs() < 1e-12);
}

#[test]
fn drop_tail_with_poisson_arrivals_matches_md1k() {
    // 1000-byte packets at 1 Mb/s: service 8 ms. A buffer of 10 waiting
    // packets plus the one on the wire is an M/D/1/K system with K = 11.
    for (rate, secs) in [(900_000.0, 3000.0), (1_100_000.0, 1000.0)] {
        let text = dumbbell(
            secs,
            1e6,
            1.0,
            10,
            r#"{ "scheme": "droptail" }"#,
            &format!(r#"{{ "kind": "poisson", "rate_bps": {rate}, "packet_bytes": 972 }}"#),
        );
        let s = run(&text);
        let (blocking, mean_waiting) = md1k(rate / 1e6, 11);
        let f = &s.flows[0];
        let measured = f.dropped_packets as f64 / f.sent_packets as f64;
        assert!((measured / blocking - 1.0).abs() < 0.06, "ρ={}: blocking {measured} vs {blocking}", rate / 1e6);
        assert!(
            (s.queue.mean_packets / mean_waiting - 1.0).abs() < 0.04,
            "mean queue {} vs {mean_waiting}",
            s.queue.mean_packets
        );
        assert!((s.utilization - (rate / 1e6) * (1.0 - blocking)).abs() < 0.01);
        // Zheng & Atiquzzaman's (2000) offered load factor λ/μ and the queue's own drop rate.
        // Over 300 000 Poisson arrivals the realised rate is within 0.2%.
        let hop = &s.hops[0];
        assert!((hop.offered_load / (rate / 1e6) - 1.0).abs() < 0.01, "offered load {}", hop.offered_load);
        assert!((hop.drop_rate - measured).abs() < 1e-3, "drop rate {} vs {measured}", hop.drop_rate);
    }
}

#[test]
fn cbr_below_capacity_is_delivered_whole() {
    let text = dumbbell(
        10.0,
        1e6,
        5.0,
        5,
        r#"{ "scheme": "droptail" }"#,
        r#"{ "kind": "cbr", "rate_bps": 400000, "packet_bytes": 472 }, { "kind": "cbr", "rate_bps": 400000, "packet_bytes": 972 }"#,
    );
    let s = run(&text);
    assert_eq!(s.drops.total, 0);
    // Goodput counts payload only: 400 kb/s of wire is 472/500 of it as payload.
    assert!((s.flows[0].goodput_bps / (400_000.0 * 472.0 / 500.0) - 1.0).abs() < 0.01, "{}", s.flows[0].goodput_bps);
    assert!((s.flows[1].goodput_bps / (400_000.0 * 972.0 / 1000.0) - 1.0).abs() < 0.01);
    assert!((s.utilization - 0.8).abs() < 0.01);
}

fn mixed() -> String {
    dumbbell(
        20.0,
        2e6,
        10.0,
        30,
        r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 20 } }"#,
        r#"{ "kind": "tcp", "count": 5, "start_s": [0, 2], "access_delay_ms": [1, 20] },
           { "kind": "poisson", "rate_bps": 800000 }, { "kind": "cbr", "rate_bps": 500000, "stop_s": 12 }"#,
    )
}

#[test]
fn every_packet_is_delivered_dropped_or_in_flight() {
    let mut sim = Simulation::from_json(&mixed(), SeriesMode::default()).unwrap();
    for step in 1..=20 {
        sim.advance_to(step * 1_000_000_000);
        let l = sim.ledger();
        assert_eq!(l.injected, l.delivered + l.dropped + sim.packets_in_network(), "at {step} s: {l:?}");
    }
    assert!(sim.ledger().dropped > 0 && sim.ledger().delivered > 1000);
}

#[test]
fn same_seed_same_result_other_seed_differs() {
    let a = run(&mixed());
    let mut b = run(&mixed());
    assert_eq!(a.perf.events, b.perf.events);
    b.perf = a.perf.clone();
    assert_eq!(a, b);
    let c = run(&mixed().replace(r#""seed": 1"#, r#""seed": 2"#));
    assert_ne!(a.flows[5].sent_packets, c.flows[5].sent_packets);
}

#[test]
fn advancing_in_slices_equals_one_run() {
    let whole = run(&mixed());
    let mut sim = Simulation::from_json(&mixed(), SeriesMode { history: false, streaming: true }).unwrap();
    let mut t = 0;
    let mut rows = 0;
    while !sim.is_finished() {
        t += 7_777_777;
        sim.advance_to(t);
        rows += sim.drain().rows;
    }
    let mut sliced = sim.summary();
    sliced.perf = whole.perf.clone();
    assert_eq!(sliced, whole);
    assert_eq!(rows, 2000, "one row per 10 ms sample");
}

#[test]
fn live_parameter_changes_are_checked_and_applied() {
    let mut sim = Simulation::from_json(&mixed(), SeriesMode::default()).unwrap();
    sim.advance_to(2_000_000_000);
    assert!(sim.set_param("max_p", 1.5).unwrap_err().to_string().starts_with("queue.params.max_p:"));
    assert!(sim
        .set_param("min_th", 25.0)
        .unwrap_err()
        .to_string()
        .starts_with("queue.params.max_th: must be at least"));
    assert!(sim.set_param("bogus", 1.0).is_err());
    let before = sim.markov_model(&[1.0]).expect("RED is modelled")[0];
    sim.set_param("max_th", 40.0).unwrap();
    assert_eq!(sim.params().get("max_th"), 40.0);
    let curve = sim.drop_curve().unwrap();
    assert!(curve.points.iter().any(|p| p[0] == 40.0 && p[1] == 1.0), "curve follows the new max_th");
    // The Markov model follows: a shallower slope and no forced region drop less.
    let now = sim.markov_model(&[1.0]).expect("RED is modelled")[0];
    assert!(now.drop_probability < before.drop_probability, "{now:?} vs {before:?}");
}

/// Utilisation of one Reno-style flow in congestion avoidance with a buffer
/// of `b` packets and a pipe of `bdp` packets (the sawtooth model): the
/// window cycles between W/2 and W = bdp + b; while it is below bdp the link
/// idles for part of each RTT, above it the link is saturated.
fn sawtooth_utilization(bdp: f64, b: f64) -> f64 {
    let w_max = bdp + b;
    let w0 = w_max / 2.0;
    if w0 >= bdp {
        return 1.0;
    }
    let rounds_below = bdp - w0;
    let sent_below = (w0 + bdp) / 2.0 * rounds_below;
    let sent_above = (bdp + w_max) / 2.0 * b;
    (sent_below + sent_above) / (rounds_below * bdp + sent_above)
}

fn one_flow(buffer_packets: u32) -> Summary {
    // 10 Mb/s, base RTT 2·(10 + 40) = 100 ms, 1040-byte packets: BDP ≈ 120 packets.
    let text = format!(
        r#"{{ "version": 1, "duration_s": 150, "measure_from_s": 30,
            "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1e7, "delay_ms": 40 }},
                           "buffer": {{ "packets": {buffer_packets} }}, "access": {{ "rate_bps": 1e9, "delay_ms": 10 }} }},
            "queue": {{ "scheme": "droptail" }}, "flows": [{{ "kind": "tcp", "segment_bytes": 1000 }}] }}"#
    );
    run(&text)
}

#[test]
fn one_tcp_flow_fills_the_pipe_with_a_bdp_of_buffer() {
    let bdp: f64 = 1e7 * 0.1 / (8.0 * 1040.0);
    let s = one_flow(bdp.round() as u32);
    assert!(s.utilization >= 0.95, "utilisation {}", s.utilization);
    assert_eq!(sawtooth_utilization(bdp, bdp), 1.0);
}

#[test]
fn one_tcp_flow_with_a_tiny_buffer_follows_the_sawtooth_model() {
    let bdp: f64 = 1e7 * 0.1 / (8.0 * 1040.0);
    let b = 12.0;
    let s = one_flow(b as u32);
    // +1: the packet on the wire also holds a place in the pipe.
    let model = sawtooth_utilization(bdp, b + 1.0);
    assert!(s.utilization < 0.9, "a tiny buffer cannot keep the link busy: {}", s.utilization);
    assert!((s.utilization - model).abs() < 0.04, "utilisation {} vs model {model}", s.utilization);
}

#[test]
fn newreno_under_random_loss_follows_the_mathis_formula() {
    // 100 Mb/s keeps the queue empty, so RTT is the base 100 ms and the only
    // losses are the random ones: throughput ≈ MSS/RTT·√(3/(2p)).
    for p in [0.001, 0.005, 0.01, 0.02] {
        let text = r#"{ "version": 1, "duration_s": 300, "measure_from_s": 20,
            "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e8, "delay_ms": 40 },
                          "buffer": { "packets": 10000 }, "access": { "rate_bps": 1e9, "delay_ms": 10 } },
            "queue": { "scheme": "droptail" }, "flows": [{ "kind": "tcp", "segment_bytes": 1000, "count": 4 }] }"#;
        let s = run_with_random_loss(text, p);
        let mathis = 1000.0 * 8.0 / 0.1 * (1.5 / p).sqrt();
        let mean = s.aggregate_goodput_bps / 4.0;
        assert!((mean / mathis - 1.0).abs() < 0.25, "p={p}: {mean} b/s vs Mathis {mathis}");
        // The summary's own models, from each flow's measured loss rate and RTT.
        for f in &s.flows {
            let rtt = f.mean_rtt_ms.expect("RTT samples");
            assert!((rtt / 100.0 - 1.0).abs() < 0.05, "p={p}: mean RTT {rtt} ms on an empty 100 ms path");
            let models = f.tcp_models.expect("losses and RTT known");
            assert!((models.mathis_bps / mathis - 1.0).abs() < 0.15, "p={p}: {models:?} vs {mathis}");
            assert!(models.padhye_bps < models.mathis_bps, "timeouts only lower the estimate");
        }
    }
}

fn red_and_droptail(queue: &str, flows: &str) -> Summary {
    run(&dumbbell(60.0, 1e6, 10.0, 100, queue, flows))
}

#[test]
fn ten_identical_tcp_flows_share_red_fairly() {
    let text = dumbbell(
        60.0,
        1e7,
        10.0,
        100,
        r#"{ "scheme": "red", "params": { "min_th": 15, "max_th": 45, "gentle": true } }"#,
        r#"{ "kind": "tcp", "count": 10, "start_s": [0, 1] }"#,
    );
    let s = run(&text);
    let jain = s.fairness.jain_tcp.unwrap();
    assert!(jain >= 0.95, "Jain {jain}");
    assert!(s.utilization > 0.9, "utilisation {}", s.utilization);
    assert!(s.drops.by_reason.early > 0, "RED drops early");
}

#[test]
fn a_cbr_flow_takes_most_of_the_link_under_red_and_drop_tail() {
    // The seeds' shared starting point (AFpFT (2011) §3B): 32 TCP + 1 CBR at the
    // link rate on 1 Mb/s. Neither scheme knows flows, so the unresponsive
    // flow keeps sending while TCP backs off.
    let flows = r#"{ "kind": "tcp", "count": 32, "start_s": [0, 2] },
                   { "kind": "cbr", "rate_bps": 1000000, "packet_bytes": 972 }"#;
    for queue in [r#"{ "scheme": "droptail" }"#, r#"{ "scheme": "red", "params": { "min_th": 20, "max_th": 60 } }"#] {
        let s = red_and_droptail(queue, flows);
        let cbr = s.flows[32].goodput_bps;
        assert!(cbr > 0.5 * 1e6, "{queue}: CBR got only {cbr} b/s");
        assert!(cbr > 10.0 * 1e6 / 33.0, "far above its fair share");
    }
}

/// Replace each number in `v`, with probability 8%, by an extreme value.
fn mutate(v: &mut serde_json::Value, rng: &mut Rng) {
    const EXTREMES: &[f64] = &[0.0, -1.0, 1e-300, 0.5, 1.0, 3.0, 1e9, 1e18, 1.8e19, 1e308, -1e308];
    match v {
        serde_json::Value::Number(_) if rng.chance(0.08) => {
            *v = serde_json::json!(EXTREMES[rng.below(EXTREMES.len() as u64) as usize]);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|x| mutate(x, rng)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|x| mutate(x, rng)),
        _ => {}
    }
}

#[test]
fn no_scenario_document_makes_the_engine_panic() {
    let mut rng = Rng::stream(9, "mutations");
    let base: serde_json::Value = serde_json::from_str(&mixed()).unwrap();
    let (mut accepted, mut rejected) = (0, 0);
    for _ in 0..400 {
        let mut v = base.clone();
        mutate(&mut v, &mut rng);
        match Simulation::from_json(&v.to_string(), SeriesMode { history: true, streaming: true }) {
            Ok(mut sim) => {
                accepted += 1;
                sim.advance_to(200_000_000);
                sim.drain();
                let s = sim.summary();
                assert!(s.utilization.is_finite() && s.queue.mean_packets.is_finite());
            }
            Err(e) => {
                rejected += 1;
                assert!(!e.path.is_empty() || e.message.contains("line"), "unlocated error: {e}");
            }
        }
    }
    assert!(accepted > 10 && rejected > 100, "accepted {accepted}, rejected {rejected}");
}

#[test]
fn drop_tail_shares_in_proportion_to_input_so_f_is_near_one() {
    // Karam & Tobagi 2000 §IV-A benchmark: flow i sends (i+1)·C/N. Drop Tail drops every
    // flow's packets with the same probability, so output ∝ input: f ≈ 1,
    // while the max-min reference gives every flow C/N.
    let n = 8;
    let flows: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{ "kind": "poisson", "rate_bps": {}, "packet_bytes": 972 }}"#, i as f64 * 1e6 / n as f64))
        .collect();
    let s = run(&dumbbell(100.0, 1e6, 1.0, 50, r#"{ "scheme": "droptail" }"#, &flows.join(",")));
    let fair = 1e6 / n as f64 * 0.972;
    assert!(s.flows.iter().all(|f| (f.fair_share_bps / fair - 1.0).abs() < 1e-9));
    let f = s.fairness.fairness_f.expect("all input rates known");
    assert!((f - 1.0).abs() < 0.1, "f = {f}");
    assert!(s.fairness.jain_tcp.is_none());
}

fn parking_lot(hops: u32, queue: &str) -> Summary {
    // AFpFT (2011) §3D / CSFQ's multi-link experiment: CBR flow 0 at 2 Mb/s
    // crosses every hop; each 10 Mb/s hop also carries 10 local CBR flows at 2 Mb/s.
    let mut flows = vec![format!(r#"{{ "kind": "cbr", "rate_bps": 2e6, "path": [0, {}] }}"#, hops - 1)];
    for h in 0..hops {
        flows.push(format!(
            r#"{{ "kind": "cbr", "count": 10, "rate_bps": 2e6, "path": [{h}, {h}], "start_s": [0, 0.1] }}"#
        ));
    }
    let text = format!(
        r#"{{ "version": 1, "duration_s": 20, "measure_from_s": 5,
            "topology": {{ "kind": "parking_lot", "hops": {hops}, "bottleneck": {{ "rate_bps": 1e7, "delay_ms": 2 }},
                           "buffer": {{ "packets": 100 }} }},
            "queue": {queue}, "flows": [{}] }}"#,
        flows.join(",")
    );
    run(&text)
}

#[test]
fn parking_lot_starves_the_long_flow_under_red() {
    // F&J's count rule (wait off). At 2.2× the link rate avg sits at max_th
    // and most drops are forced under either rule, but wait off still drops
    // early often enough (up to 2·max_p) to shuffle which arrivals survive.
    // With wait, early drops all but vanish and the jitter-free CBR phases
    // alone pick the survivors: the long flow gets nothing from 2 hops on.
    let red = r#"{ "scheme": "red", "params": { "min_th": 20, "max_th": 60, "wait": 0 } }"#;
    let fair = 1e7 / 11.0 * 1000.0 / 1028.0;
    let goodput: Vec<f64> = (1..=4)
        .map(|l| {
            let s = parking_lot(l, red);
            assert!((s.flows[0].fair_share_bps / fair - 1.0).abs() < 1e-9, "max-min share is 0.909 Mb/s at every L");
            assert_eq!(s.hops.len(), l as usize);
            assert!(s.hops.iter().all(|h| h.utilization > 0.97));
            s.flows[0].goodput_bps
        })
        .collect();
    // With one hop RED, blind to flows, drops every flow alike: 2/22 of the link.
    assert!((goodput[0] / fair - 1.0).abs() < 0.1, "{goodput:?}");
    // Each further hop drops the long flow's packets again: it collapses.
    assert!(goodput.windows(2).all(|w| w[1] < 0.7 * w[0]), "{goodput:?}");
    assert!(goodput[3] < 0.25 * fair, "{goodput:?}");
}

#[test]
fn every_scenario_file_is_valid_and_runs() {
    // The files under scenarios/ are the web app's presets and the CLI's examples.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios folder") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("readable file");
            let mut sim = Simulation::from_json(&text, SeriesMode { history: false, streaming: true })
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(!sim.plan().name.is_empty(), "{}: presets need a name", path.display());
            sim.advance_to(1_000_000_000);
            assert!(sim.drain().rows > 0);
            count += 1;
        }
    }
    assert!(count >= 10, "{count} scenario files");
}

#[test]
fn reverse_traffic_runs_both_directions_and_its_acks_share_the_queue_under_test() {
    // 4 TCP flows each way on 10 Mb/s under RED. The reverse flows' ACKs
    // (40 bytes per 1040-byte segment) cross the forward queue, and each
    // direction's max-min share is its own link split four ways. Two-way
    // traffic costs utilisation: ACKs queued behind data arrive in bursts
    // (ACK compression, Zhang, Shenker & Clark 1991), so the links idle more
    // than with traffic one way.
    let forward = r#"{ "kind": "tcp", "count": 4, "start_s": [0, 1] }"#;
    let both = format!(r#"{forward}, {{ "kind": "tcp", "count": 4, "start_s": [0, 1], "reverse": true }}"#);
    let red = r#"{ "scheme": "red", "params": { "min_th": 10, "max_th": 40 } }"#;
    let alone = run(&dumbbell(40.0, 1e7, 10.0, 100, red, forward));
    let mut sim = Simulation::from_json(&dumbbell(40.0, 1e7, 10.0, 100, red, &both), SeriesMode::default()).unwrap();
    sim.run();
    let l = sim.ledger();
    assert_eq!(l.injected, l.delivered + l.dropped + sim.packets_in_network());
    let s = sim.summary();
    let goodput = |range: std::ops::Range<usize>| s.flows[range].iter().map(|f| f.goodput_bps).sum::<f64>();
    let (fwd, rev) = (goodput(0..4), goodput(4..8));
    let ceiling = 1e7 * 1000.0 / 1040.0;
    assert!(fwd > 0.6 * ceiling && rev > 0.6 * ceiling, "forward {fwd}, reverse {rev}");
    assert!((fwd / rev - 1.0).abs() < 0.15, "symmetric directions: {fwd} vs {rev}");
    assert!(alone.utilization > 0.95 && s.hops[0].utilization < alone.utilization - 0.05, "{}", s.hops[0].utilization);
    let data_sent: u64 = s.flows[..4].iter().map(|f| f.sent_packets).sum();
    assert!(s.hops[0].arrivals > data_sent, "reverse flows' ACKs arrive at the forward queue");
    assert!(s.flows.iter().all(|f| (f.fair_share_bps / (ceiling / 4.0) - 1.0).abs() < 1e-9));
}

#[test]
fn two_way_traffic_preset_fq_codel_keeps_acks_apart_from_data() {
    // `scenarios/two-way-traffic.json`: 4 TCP flows each way through 25
    // packets of Drop Tail. ACKs queued behind the other direction's data
    // bunch up and release bursts, so each direction gets well under its
    // link. FQ-CoDel hashes the ACK streams into queues of their own, where
    // they are sparse and leave at once (RFC 8290 §1.3 "sparse flows").
    let preset = include_str!("../../../scenarios/two-way-traffic.json");
    let with_scheme = |scheme: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(preset).unwrap();
        doc["queue"] = serde_json::json!({ "scheme": scheme });
        run(&doc.to_string())
    };
    let per_direction = |s: &Summary| {
        let sum = |g: usize| s.flows.iter().filter(|f| f.group == g).map(|f| f.goodput_bps).sum::<f64>();
        (sum(0), sum(1))
    };
    let ceiling = 2e6 * 1000.0 / 1040.0;
    let (drop_tail, fq_codel) = (with_scheme("droptail"), with_scheme("fq_codel"));
    let (dt_fwd, dt_rev) = per_direction(&drop_tail);
    let (fq_fwd, fq_rev) = per_direction(&fq_codel);
    assert!(dt_fwd < 0.9 * ceiling && dt_rev < 0.9 * ceiling, "Drop Tail: {dt_fwd}, {dt_rev}");
    assert!(fq_fwd > 0.92 * ceiling && fq_rev > 0.92 * ceiling, "FQ-CoDel: {fq_fwd}, {fq_rev}");
    assert!(fq_codel.queue.mean_delay_ms < drop_tail.queue.mean_delay_ms);
}

#[test]
fn parking_lot_keeps_the_long_flow_at_its_share_under_csfq_and_afpft() {
    // The same parking lot: CSFQ relabels at every hop and AFpFT schedules
    // by finish tags, so the flow crossing all L links keeps 10/11 Mb/s.
    let fair = 1e7 / 11.0 * 1000.0 / 1028.0;
    for queue in [r#"{ "scheme": "csfq" }"#, r#"{ "scheme": "afpft" }"#] {
        for l in [1, 3, 5] {
            let g = parking_lot(l, queue).flows[0].goodput_bps;
            assert!((g / fair - 1.0).abs() < 0.12, "{queue}, L = {l}: {g} b/s vs {fair}");
        }
    }
}

#[test]
fn hop_drop_and_mark_rates_add_up_to_the_flows_losses_and_marks() {
    // ECN-capable TCP through RED with ECN: early decisions mark, overflow and
    // forced decisions drop. Per hop, the rates are counts over arrivals.
    let text = dumbbell(
        30.0,
        5e6,
        10.0,
        60,
        r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 20, "ecn": 1 } }"#,
        r#"{ "kind": "tcp", "count": 6, "ecn": true }, { "kind": "cbr", "rate_bps": 1000000 }"#,
    );
    let s = run(&text);
    let hop = &s.hops[0];
    let arrivals = hop.arrivals as f64;
    let drops: u64 = s.flows.iter().map(|f| f.dropped_packets).sum();
    let marks: u64 = s.flows.iter().map(|f| f.marked_packets).sum();
    assert!(marks > 0 && drops > 0, "marks {marks}, drops {drops}");
    assert!((hop.drop_rate * arrivals - drops as f64).abs() < 0.5, "{} vs {drops}", hop.drop_rate * arrivals);
    assert!((hop.mark_rate * arrivals - marks as f64).abs() < 0.5, "{} vs {marks}", hop.mark_rate * arrivals);
    assert_eq!(hop.marks, marks);
    assert!(hop.offered_load > 0.9, "six TCP flows and a CBR load a 5 Mb/s link: {}", hop.offered_load);
}
