//! The native counterpart of `scripts/bench-wasm.mjs`: one scenario to the
//! end in 0.1 s slices, draining the streamed series after each and taking
//! the newest 2 000 decisions every 200 ms of wall time as the page's
//! worker does, so the two builds do the same work (each drain's values
//! copied out, as the worker copies them out of the module's memory).
//!
//!   cargo run --release -p aqm-core --example bench-streamed [SCENARIO.json]
//!
//! Default: the 10-flow ns-3 RED dumbbell. Prints the engine's wall time
//! (process start and reading the scenario excluded, as in the script).

use aqm_core::kernel::secs_f64;
use aqm_core::sim::{SeriesMode, Simulation};
use std::time::{Duration, Instant};

fn main() -> Result<(), String> {
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/ns3-red-dumbbell.json");
    let path = std::env::args().nth(1).unwrap_or_else(|| default.to_string());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let mode = SeriesMode { history: false, streaming: true };
    let mut sim = Simulation::from_json(&text, mode).map_err(|e| e.to_string())?;
    // The WebAssembly bindings record decisions from the start, as here.
    sim.record_decisions(2000);
    let slice_s = 0.1;
    let snapshot_interval = Duration::from_millis(200);
    let start = Instant::now();
    let mut last_take = start;
    let mut t = slice_s;
    while !sim.is_finished() {
        sim.advance_to(secs_f64(t));
        // The page's worker copies the drained values out of the module's
        // memory into a buffer it posts to the page: copy them here too.
        std::hint::black_box(sim.drain().data.to_vec());
        if last_take.elapsed() >= snapshot_interval || sim.is_finished() {
            std::hint::black_box(sim.take_decisions());
            last_take = Instant::now();
        }
        t += slice_s;
    }
    let wall_s = start.elapsed().as_secs_f64();
    let simulated_s = sim.duration() as f64 / 1e9;
    println!(
        "{path}: {simulated_s} s simulated in {wall_s:.3} s wall, {:.0} simulated s per wall s, {} events",
        simulated_s / wall_s,
        sim.events_handled()
    );
    Ok(())
}
