//! `aqm-sim`: run AQM Lab scenarios headless (docs/scenario-format.md, "Command line").

use aqm_core::queue::{catalogue, Limit};
use aqm_core::scenario::schema::scenario_schema_text;
use aqm_core::scenario::Scenario;
use aqm_core::sim::sweep::{self, SweepSpec};
use aqm_core::sim::{SeriesMode, Simulation};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage:
  aqm-sim run FILE|- [--timeseries OUT.csv]   run a scenario, print the summary as JSON
  aqm-sim check FILE|-                        validate a scenario without running it
  aqm-sim sweep FILE|- --param PATH (--values A,B,… | --range FROM:TO:N)
                [--seeds N] [--json]          run FILE with PATH (e.g. queue.params.max_p)
                                              set to each value under seeds 1..N; CSV of
                                              key metrics per run (--json: full summaries)
  aqm-sim schemes [--bytes]                   print the scheme catalogue as JSON
                                              (--bytes: thresholds for a buffer in bytes)
  aqm-sim schema                              print the scenario file's JSON Schema
                                              (as committed in public/scenario.schema.json)";

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
        Some("sweep") => sweep(&args[1..]),
        Some("schemes") => {
            let limit = match &args[1..] {
                [] => Limit::Packets(0),
                [flag] if flag == "--bytes" => Limit::Bytes(0),
                _ => return Err(USAGE.into()),
            };
            print_json(&catalogue(limit))
        }
        Some("schema") => {
            print!("{}", scenario_schema_text());
            Ok(())
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(USAGE.into()),
    }
}

fn sweep(args: &[String]) -> Result<(), String> {
    let (file, mut rest) = args.split_first().ok_or(USAGE)?;
    let (mut path, mut values, mut seeds, mut json) = (None, None, 1u64, false);
    while let Some((flag, tail)) = rest.split_first() {
        let value = || tail.first().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--param" => path = Some(value()?),
            "--values" => values = Some(parse_values(&value()?)?),
            "--range" => values = Some(parse_range(&value()?)?),
            "--seeds" => seeds = value()?.parse().map_err(|_| "--seeds: a whole number".to_string())?,
            "--json" => {
                json = true;
                rest = tail;
                continue;
            }
            _ => return Err(USAGE.into()),
        }
        rest = &tail[1..];
    }
    let spec = SweepSpec {
        path: path.ok_or("sweep needs --param")?,
        values: values.ok_or("sweep needs --values or --range")?,
        seeds: sweep::seeds(seeds),
    };
    let scenario = Scenario::from_json(&read_input(file)?).map_err(|e| e.to_string())?;
    let points =
        sweep::run(&scenario, &spec, |done, total| eprint!("\rrun {done}/{total}")).map_err(|e| e.to_string())?;
    eprintln!();
    if json {
        return print_json(&points);
    }
    let mut out = String::from(
        "value,seed,aggregate_goodput_bps,utilization,mean_queue_packets,mean_delay_ms,p99_delay_ms,drops,marks,jain_all,jain_tcp\n",
    );
    for p in &points {
        let s = &p.summary;
        let opt = |v: Option<f64>| v.map_or(String::new(), |x| x.to_string());
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            p.value,
            p.seed,
            s.aggregate_goodput_bps,
            s.utilization,
            s.queue.mean_packets,
            s.queue.mean_delay_ms,
            s.queue.p99_delay_ms,
            s.drops.total,
            s.marks,
            opt(s.fairness.jain_all),
            opt(s.fairness.jain_tcp)
        );
    }
    write!(std::io::stdout(), "{out}").map_err(|e| e.to_string())
}

fn parse_values(text: &str) -> Result<Vec<f64>, String> {
    text.split(',')
        .map(|v| {
            v.trim().parse::<f64>().ok().filter(|x| x.is_finite()).ok_or(format!("--values: `{v}` is not a number"))
        })
        .collect()
}

/// FROM:TO:N, N evenly spaced values including both ends.
fn parse_range(text: &str) -> Result<Vec<f64>, String> {
    let bad = || format!("--range: `{text}` is not FROM:TO:N (e.g. 0.01:0.2:5)");
    let parts: Vec<&str> = text.split(':').collect();
    let [from, to, n] = parts[..] else { return Err(bad()) };
    let (from, to): (f64, f64) = (from.parse().map_err(|_| bad())?, to.parse().map_err(|_| bad())?);
    let n: usize = n.parse().map_err(|_| bad())?;
    if !(from.is_finite() && to.is_finite() && (1..=1000).contains(&n)) {
        return Err(bad());
    }
    Ok((0..n).map(|i| if n == 1 { from } else { from + (to - from) * i as f64 / (n - 1) as f64 }).collect())
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
