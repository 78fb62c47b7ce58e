//! `aqm-sim`: run AQM Lab scenarios headless (SCENARIO.md, "Command line").

use aqm_core::queue::{catalogue, Limit};
use aqm_core::sim::{SeriesMode, Simulation};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage:
  aqm-sim run FILE|- [--timeseries OUT.csv]   run a scenario, print the summary as JSON
  aqm-sim check FILE|-                        validate a scenario without running it
  aqm-sim schemes [--bytes]                   print the scheme catalogue as JSON
                                              (--bytes: thresholds for a buffer in bytes)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("aqm-sim: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("run") => {
            let (file, rest) = args[1..].split_first().ok_or(USAGE)?;
            let csv = match rest {
                [] => None,
                [flag, out] if flag == "--timeseries" => Some(out.as_str()),
                _ => return Err(USAGE.into()),
            };
            run_scenario(file, csv)
        }
        Some("check") => {
            let [_, file] = args else { return Err(USAGE.into()) };
            let sim = Simulation::from_json(&read_input(file)?, SeriesMode::default()).map_err(|e| e.to_string())?;
            println!("ok: {} flows, {} s", sim.plan().flow_count(), sim.duration() as f64 / 1e9);
            Ok(())
        }
        Some("schemes") => {
            let limit = match &args[1..] {
                [] => Limit::Packets(0),
                [flag] if flag == "--bytes" => Limit::Bytes(0),
                _ => return Err(USAGE.into()),
            };
            print_json(&catalogue(limit))
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

fn read_input(file: &str) -> Result<String, String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("stdin: {e}"))?;
    } else {
        text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    }
    Ok(text)
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    writeln!(std::io::stdout(), "{text}").map_err(|e| e.to_string())
}

fn run_scenario(file: &str, csv: Option<&str>) -> Result<(), String> {
    let text = read_input(file)?;
    let mode = SeriesMode { history: csv.is_some(), streaming: false };
    let mut sim = Simulation::from_json(&text, mode).map_err(|e| e.to_string())?;
    let started = Instant::now();
    sim.run();
    let mut summary = sim.summary();
    summary.perf.set_wall(started.elapsed().as_secs_f64());
    if let Some(path) = csv {
        write_csv(path, &sim).map_err(|e| format!("{path}: {e}"))?;
    }
    print_json(&summary)
}

fn write_csv(path: &str, sim: &Simulation) -> std::io::Result<()> {
    let chunk = sim.history();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "{}", chunk.columns.join(","))?;
    for r in 0..chunk.rows {
        let row: Vec<String> = (0..chunk.columns.len()).map(|c| format_value(chunk.data[c * chunk.rows + r])).collect();
        writeln!(out, "{}", row.join(","))?;
    }
    out.flush()
}

fn format_value(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else {
        format!("{v}")
    }
}
