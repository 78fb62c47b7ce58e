//! `cargo bench`: the standard scenario (10 Mb/s, 100 TCP flows, 100 s)
//! timed over a few runs, reporting simulated packets and events per
//! wall-second. A plain harness: the figure of merit is throughput of one
//! long run, not a micro-benchmark.

use aqm_core::sim::{SeriesMode, Simulation};
use std::time::Instant;

fn main() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/bench-100-tcp.json");
    let text = std::fs::read_to_string(path).expect("benchmark scenario");
    let runs = 3;
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..runs {
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
        let t = Instant::now();
        sim.run();
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(sim.summary());
    }
    let Some(s) = last else { return };
    println!("scenario: 10 Mb/s bottleneck, 100 TCP flows, 100 s simulated (best of {runs})");
    println!("wall time:       {:.3} s", best);
    println!("packets:         {} ({:.2} M/s)", s.perf.packets, s.perf.packets as f64 / best / 1e6);
    println!("events:          {} ({:.2} M/s)", s.perf.events, s.perf.events as f64 / best / 1e6);
    println!("utilization:     {:.3}, Jain (TCP): {:.3}", s.utilization, s.fairness.jain_tcp.unwrap_or(f64::NAN));
}
