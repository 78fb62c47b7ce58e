//! `cargo bench`: standard scenarios timed over a few runs, reporting
//! simulated seconds, packets and events per wall-second. A plain harness:
//! the figure of merit is the throughput of one long run, not a
//! micro-benchmark.
//!
//! - `bench-100-tcp`: a 10 Mb/s bottleneck, 100 TCP flows through RED, 100 s.
//! - `ns3-red-dumbbell`: the 10-flow RED dumbbell run against ns-3, 100 s.
//! - pacing: `bench-100-tcp` with its 100 NewReno flows paced, against the
//!   same unpaced, in pairs (unpaced, paced, unpaced, paced …): events per
//!   simulated second and the median of the per-pair wall-time ratios. The
//!   target is a ratio within 1.5.
//! - `tcp-5000-flows`: 5 000 TCP flows on a 1 Gb/s bottleneck through RED,
//!   10 s: the page's many-flow frame-rate probe, where about ten thousand
//!   links have packets in flight at once and the event queue is large.
//! - decisions: the page's loop (streamed series, 0.1 s slices, each
//!   drained) with the drop-and-mark inspector's records kept as the page
//!   keeps them (the newest 2 000, taken after every slice), and with
//!   recording switched off (the inspector's off switch), against none, in
//!   alternating rounds, on `bench-100-tcp` and `csfq-32-cbr` (the most
//!   decisions per simulated second of the presets). `cargo bench --bench
//!   engine -- decisions` runs this one alone.

use aqm_core::metrics::Summary;
use aqm_core::sim::{SeriesMode, Simulation};
use std::time::Instant;

/// Name, file (from the crate's folder) and caption of each benchmark.
const SCENARIOS: [(&str, &str, &str); 3] = [
    ("bench-100-tcp", "../scenarios/bench-100-tcp.json", "10 Mb/s bottleneck, 100 TCP flows, RED, 100 s simulated"),
    (
        "ns3-red-dumbbell",
        "../scenarios/ns3-red-dumbbell.json",
        "10 Mb/s bottleneck, 10 TCP flows, RED, 100 s simulated",
    ),
    ("tcp-5000-flows", "benches/tcp-5000-flows.json", "1 Gb/s bottleneck, 5 000 TCP flows, RED, 10 s simulated"),
];

fn main() {
    let runs = 5;
    if std::env::args().any(|a| a == "decisions") {
        return decisions_against_none(9);
    }
    for (name, file, caption) in SCENARIOS {
        let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("benchmark scenario");
        let mut best = f64::INFINITY;
        let mut last = None;
        for _ in 0..runs {
            let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
            let t = Instant::now();
            sim.run();
            best = best.min(t.elapsed().as_secs_f64());
            last = Some(sim.summary());
        }
        let Some(s) = last else { continue };
        println!("{name}: {caption} (best of {runs})");
        println!("  wall time:       {best:.4} s");
        println!("  simulated/wall:  {:.0} s per s", s.perf.simulated_s / best);
        println!("  packets:         {} ({:.2} M/s)", s.perf.packets, s.perf.packets as f64 / best / 1e6);
        println!("  events:          {} ({:.2} M/s)", s.perf.events, s.perf.events as f64 / best / 1e6);
        println!("  utilization:     {:.3}, Jain (TCP): {:.3}", s.utilization, s.fairness.jain_tcp.unwrap_or(f64::NAN));
    }
    pacing_against_unpaced(runs);
}

/// One run's wall time and summary.
fn timed_run(text: &str) -> (f64, Summary) {
    let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
    let t = Instant::now();
    sim.run();
    (t.elapsed().as_secs_f64(), sim.summary())
}

fn pacing_against_unpaced(pairs: usize) {
    let path = format!("{}/../scenarios/bench-100-tcp.json", env!("CARGO_MANIFEST_DIR"));
    let unpaced = std::fs::read_to_string(&path).expect("benchmark scenario");
    let mut v: serde_json::Value = serde_json::from_str(&unpaced).expect("a scenario");
    v["flows"][0]["pacing"] = true.into();
    let paced = v.to_string();
    let mut ratios = Vec::with_capacity(pairs);
    let mut last = None;
    for _ in 0..pairs {
        let (wall_a, a) = timed_run(&unpaced);
        let (wall_b, b) = timed_run(&paced);
        ratios.push(wall_b / wall_a);
        last = Some((a, b));
    }
    let Some((a, b)) = last else { return };
    ratios.sort_by(f64::total_cmp);
    let per_sim_s = |s: &Summary| s.perf.events as f64 / s.perf.simulated_s;
    println!("pacing: bench-100-tcp paced vs unpaced ({pairs} pairs, alternating)");
    println!(
        "  events per simulated s: {:.0} unpaced, {:.0} paced, ratio {:.3}",
        per_sim_s(&a),
        per_sim_s(&b),
        per_sim_s(&b) / per_sim_s(&a)
    );
    println!(
        "  wall-time ratio:        median {:.3} (min {:.3}, max {:.3})",
        ratios[pairs / 2],
        ratios[0],
        ratios[pairs - 1]
    );
    println!("  utilization:            {:.3} unpaced, {:.3} paced", a.utilization, b.utilization);
}

/// The page's ring of decisions (`DECISION_RING` in wasm.rs).
const PAGE_DECISION_RING: usize = 2000;

/// How the page's run treats decisions: recorded (the default), switched
/// off from the start (the inspector's off switch), or never asked for.
#[derive(Clone, Copy, PartialEq)]
enum Recording {
    On,
    SwitchedOff,
    Never,
}

/// Wall time of one run as the page's worker runs it; with the number of
/// decisions taken.
fn page_loop(text: &str, recording: Recording) -> (f64, usize) {
    let mode = SeriesMode { history: false, streaming: true };
    let mut sim = Simulation::from_json(text, mode).expect("valid scenario");
    let t = Instant::now();
    if recording != Recording::Never {
        sim.record_decisions(PAGE_DECISION_RING);
    }
    if recording == Recording::SwitchedOff {
        sim.stop_recording_decisions();
    }
    let slice = 100_000_000;
    let mut taken = 0;
    let mut at = slice;
    while !sim.is_finished() {
        sim.advance_to(at);
        std::hint::black_box(sim.drain());
        if recording != Recording::Never {
            taken += std::hint::black_box(sim.take_decisions()).len();
        }
        at += slice;
    }
    (t.elapsed().as_secs_f64(), taken)
}

fn decisions_against_none(pairs: usize) {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    for name in ["bench-100-tcp", "csfq-32-cbr"] {
        let path = format!("{}/../scenarios/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("benchmark scenario");
        let (mut on_ratios, mut off_ratios, mut never_s) = (Vec::new(), Vec::new(), Vec::new());
        let mut taken = 0;
        for _ in 0..pairs {
            let (never, _) = page_loop(&text, Recording::Never);
            let (on, n) = page_loop(&text, Recording::On);
            let (off, _) = page_loop(&text, Recording::SwitchedOff);
            on_ratios.push(on / never);
            off_ratios.push(off / never);
            never_s.push(never);
            taken = n;
        }
        println!("decisions: {name}, the page's loop recording, switched off and never recording ({pairs} rounds, alternating)");
        println!("  decisions taken:  {taken}; run never recording {:.3} s (median)", median(never_s).0);
        for (what, ratios) in [("recording", on_ratios), ("switched off", off_ratios)] {
            let (mid, lo, hi) = median(ratios);
            println!("  {what} / never, wall time:  median {mid:.3} (min {lo:.3}, max {hi:.3})");
        }
    }
}
