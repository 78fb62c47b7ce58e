//! Delay distributions and the ping probe over whole runs: percentiles
//! against every packet's own value, a ping's RTT against the path's delays.

use super::*;
use crate::kernel::Nanos;
use crate::metrics::{Histogram, Percentiles};
use crate::testing::dumbbell;

/// The sample quantile the histogram estimates: the ⌈q·n⌉-th smallest.
fn exact(sorted: &[Nanos], q: f64) -> Nanos {
    let rank = ((q * sorted.len() as f64).ceil() as usize).max(1);
    sorted[rank - 1]
}

/// Each reported percentile (ms) lies in the histogram bin of the exact one.
fn within_one_bin(mut samples: Vec<Nanos>, reported: Option<Percentiles>, what: &str) {
    assert!(!samples.is_empty(), "{what}: no samples");
    samples.sort_unstable();
    let r = reported.unwrap_or_else(|| panic!("{what}: no percentiles"));
    for (q, got_ms) in [(0.5, r.p50), (0.9, r.p90), (0.99, r.p99), (0.999, r.p999)] {
        let truth = exact(&samples, q);
        let (lo, hi) = crate::metrics::histogram_bin(truth);
        let got = got_ms * 1e6;
        assert!(
            got >= lo as f64 - 1e-3 && got <= hi as f64 + 1e-3,
            "{what} q{q}: {got} ns, exact {truth} in [{lo}, {hi}]"
        );
    }
}

fn run_logged(text: &str) -> Simulation {
    let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
    sim.run();
    sim
}

fn check_every_distribution(sim: &Simulation) {
    let s = sim.summary();
    let r = &sim.recorder;
    for hop in &s.hops {
        let samples = r.every_sojourn.iter().filter(|(h, _, _)| *h == hop.hop).map(|e| e.2).collect();
        within_one_bin(samples, hop.sojourn_percentiles_ms, &format!("hop {} sojourn", hop.hop));
    }
    for g in &s.groups {
        let samples = r.every_sojourn.iter().filter(|(_, grp, _)| *grp == g.group).map(|e| e.2).collect();
        within_one_bin(samples, g.sojourn_percentiles_ms, &format!("{} sojourn", g.label));
        if let Some(rtt) = g.rtt_percentiles_ms {
            let samples = r.every_rtt.iter().filter(|(grp, _)| *grp == g.group).map(|e| e.1).collect();
            within_one_bin(samples, rtt, &format!("{} RTT", g.label));
        }
    }
    // The summary's p99 queueing delay is the first hop's histogram, read the same way.
    assert_eq!(Some(s.queue.p99_delay_ms), s.hops[0].sojourn_percentiles_ms.map(|p| p.p99));
}

const PING_AND_TCP: &str = r#"{ "kind": "tcp", "label": "bulk", "count": 3, "start_s": [0, 1] },
    { "kind": "ping", "label": "probe", "interval_ms": 20 },
    { "kind": "cbr", "label": "cbr", "rate_bps": 1e6 }"#;

#[test]
fn percentiles_match_every_packet_within_one_bin_on_a_dumbbell() {
    let sim = run_logged(&dumbbell(8.0, 1e7, 10.0, 100, r#"{ "scheme": "droptail" }"#, PING_AND_TCP));
    check_every_distribution(&sim);
    let s = sim.summary();
    assert!(s.groups[0].rtt_percentiles_ms.is_some() && s.groups[1].rtt_percentiles_ms.is_some());
    assert_eq!(s.groups[2].rtt_percentiles_ms, None, "a CBR group has no RTT samples to report");
}

#[test]
fn percentiles_match_every_packet_within_one_bin_on_a_parking_lot() {
    let text = r#"{ "version": 1, "seed": 2, "duration_s": 6, "measure_from_s": 1,
        "topology": { "kind": "parking_lot", "hops": 2, "bottleneck": { "rate_bps": 5e6, "delay_ms": 5 },
                      "buffer": { "packets": 60 } },
        "queue": { "scheme": "red" },
        "flows": [ { "kind": "tcp", "count": 2 }, { "kind": "tcp", "count": 2, "path": [1, 1] },
                   { "kind": "ping", "path": [0, 0], "interval_ms": 10 } ] }"#;
    check_every_distribution(&run_logged(text));
}

#[test]
fn a_lone_ping_sees_exactly_the_base_rtt() {
    // 2·(1 ms access + 10 ms bottleneck) plus an 84-byte packet's
    // serialisation on each of the four links: 2·(6.72 + 67.2) µs.
    let sim = run_logged(&dumbbell(4.0, 1e7, 10.0, 100, r#"{ "scheme": "droptail" }"#, r#"{ "kind": "ping" }"#));
    let base: Nanos = 22_000_000 + 2 * (6_720 + 67_200);
    let rtts: Vec<Nanos> = sim.recorder.every_rtt.iter().map(|e| e.1).collect();
    assert_eq!(rtts.len(), 30, "one reply per 100 ms over the 3 s window");
    assert!(rtts.iter().all(|&r| r == base), "{rtts:?}");
    let s = sim.summary();
    assert_eq!(s.flows[0].mean_rtt_ms, Some(base as f64 / 1e6));
    assert_eq!(s.flows[0].goodput_bps, 64.0 * 8.0 * 10.0, "64-byte requests ten times a second");
}

#[test]
fn a_pings_rtt_is_its_base_rtt_plus_the_queueing_its_requests_saw() {
    // The replies return over an uncongested reverse link (ACKs only), so
    // each RTT is the base RTT plus the request's sojourn at the bottleneck.
    let sim = run_logged(&dumbbell(20.0, 1e7, 10.0, 200, r#"{ "scheme": "droptail" }"#, PING_AND_TCP));
    let s = sim.summary();
    let (rtt, sojourn) =
        (s.groups[1].rtt_percentiles_ms.unwrap().unwrap(), s.groups[1].sojourn_percentiles_ms.unwrap());
    let base_ms = 22.14784;
    assert!(sojourn.p50 > 50.0, "Drop Tail with 200 packets keeps a standing queue: {sojourn:?}");
    for (r, q) in [(rtt.p50, sojourn.p50), (rtt.p90, sojourn.p90)] {
        assert!((r - base_ms - q).abs() < 0.02 * r + 0.5, "RTT {r} vs base + sojourn {}", base_ms + q);
    }
}

#[test]
fn fq_codel_keeps_the_ping_out_of_the_bulk_flows_queue() {
    // RFC 8290 §1.3: a sparse flow's packets go to the new-flows list and
    // wait for little more than one quantum per active flow, while Drop Tail
    // makes them wait behind the whole standing queue.
    let run = |queue: &str| run_logged(&dumbbell(20.0, 1e7, 10.0, 200, queue, PING_AND_TCP)).summary();
    let rtt_p99 = |s: &Summary| s.groups[1].rtt_percentiles_ms.unwrap().unwrap().p99;
    let (tail, fq) = (run(r#"{ "scheme": "droptail" }"#), run(r#"{ "scheme": "fq_codel" }"#));
    assert!(rtt_p99(&fq) < 22.15 + 10.0, "FQ-CoDel ping p99 {}", rtt_p99(&fq));
    assert!(rtt_p99(&tail) > 22.15 + 100.0, "Drop Tail ping p99 {}", rtt_p99(&tail));
}

#[test]
fn group_histograms_merge_into_the_hop_histogram_on_a_dumbbell() {
    // Every packet leaving the one bottleneck belongs to a group: the
    // groups' sojourn histograms together are the hop's.
    let sim = run_logged(&dumbbell(6.0, 1e7, 10.0, 100, r#"{ "scheme": "codel" }"#, PING_AND_TCP));
    let d = sim.delay_distributions();
    let mut merged = Histogram::default();
    for e in &sim.recorder.every_sojourn {
        merged.record(e.2);
    }
    let total: u64 = d.groups.iter().map(|g| g.sojourn.samples).sum();
    assert_eq!(total, d.hops[0].sojourn.samples);
    assert_eq!(merged.count(), total);
    assert_eq!(d.hops[0].sojourn.fraction.last().copied(), Some(1.0));
    assert!(d.groups.iter().all(|g| g.rtt.is_some() == matches!(g.kind, "tcp" | "ping")));
}

#[test]
fn fq_codels_per_packet_sojourns_obey_littles_law_against_the_backlog() {
    // L = λ·W: the time-averaged backlog, measured from queue lengths, equals
    // the departure rate times the mean per-packet sojourn that the per-flow
    // queueing delays average. A departure matched to another packet's
    // arrival (FQ-CoDel does not serve in arrival order) would break it.
    let flows = r#"{ "kind": "tcp", "label": "a", "count": 1 }, { "kind": "tcp", "label": "b", "count": 1 }"#;
    let sim = run_logged(&dumbbell(20.0, 1e7, 10.0, 1000, r#"{ "scheme": "fq_codel" }"#, flows));
    let s = sim.summary();
    let sojourns: Vec<Nanos> = sim.recorder.every_sojourn.iter().filter(|e| e.0 == 0).map(|e| e.2).collect();
    let departures_per_s = sojourns.len() as f64 / s.window_s;
    let mean_sojourn_s = sojourns.iter().sum::<Nanos>() as f64 / sojourns.len() as f64 / 1e9;
    let little = departures_per_s * mean_sojourn_s;
    assert!(s.queue.mean_packets > 1.0, "a standing queue to measure: {}", s.queue.mean_packets);
    assert!(
        (little - s.queue.mean_packets).abs() < 0.05 * s.queue.mean_packets + 0.5,
        "λW {little} vs L {}",
        s.queue.mean_packets
    );
    for (g, f) in s.flows.iter().enumerate() {
        let own: Vec<Nanos> = sim.recorder.every_sojourn.iter().filter(|e| e.1 == g).map(|e| e.2).collect();
        let brute_ms = own.iter().sum::<Nanos>() as f64 / own.len() as f64 / 1e6;
        assert!((f.mean_queue_delay_ms - brute_ms).abs() < 1e-9, "flow {g}: {} vs {brute_ms}", f.mean_queue_delay_ms);
    }
}

#[test]
fn cubic_rtt_samples_under_heavy_loss_see_the_queueing_delay() {
    // Two CUBIC flows under FQ-CoDel lose 3–5 % of their segments.
    // Timing one segment per round trip and abandoning it at every
    // retransmission kept only samples from loss-free, empty-queue moments;
    // Linux's per-ACK samples see the queue the flow's packets see.
    let flows = r#"{ "kind": "tcp", "count": 2, "cc": "cubic", "sack": true, "segment_bytes": 1448 }"#;
    let s = run_logged(&dumbbell(20.0, 4e7, 5.0, 1000, r#"{ "scheme": "fq_codel" }"#, flows)).summary();
    // 2·(1 ms access + 5 ms bottleneck), plus a 1488-byte segment's and a
    // 52-byte ACK's serialisation on the bottleneck and access links.
    let base_ms = 12.0 + 1488.0 * 8.0 / 4e4 + 52.0 * 8.0 / 4e4;
    for f in &s.flows {
        let (rtt, queue) = (f.mean_rtt_ms.unwrap(), f.mean_queue_delay_ms);
        assert!(
            (rtt - base_ms - queue).abs() < 0.1 * (base_ms + queue) + 1.0,
            "flow {}: mean RTT {rtt} ms, base {base_ms} + queue {queue}",
            f.id
        );
    }
}
