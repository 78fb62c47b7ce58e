//! `aqm-sim`: run AQM Lab scenarios headless (docs/scenario-format.md, "Command line").

use aqm_core::queue::{catalogue, decision, Limit};
use aqm_core::reproduce::stats::Interval;
use aqm_core::reproduce::{
    figure_tally, fmt_number, ClaimResult, Figure, FigureResult, MarkTolerance, Reproduction, Verdict,
};
use aqm_core::scenario::schema::scenario_schema_text;
use aqm_core::scenario::{import_mahimahi, Scenario, ScenarioError};
use aqm_core::sim::sweep::{self, Shard, SweepSpec};
use aqm_core::sim::work::{self, WorkEstimate};
use aqm_core::sim::{CaptureField, CaptureRequest, SeriesMode, Simulation};
use serde_json::Value;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "\
usage:
  aqm-sim run FILE|- [--timeseries OUT.csv] [--force]
                [--pcap OUT.pcap [--pcap-hop K] [--pcap-from S] [--pcap-to S]]
                [--decisions OUT.csv]
                                              run a scenario, print the summary as JSON;
                                              refuses one estimated above 2e9 events
                                              unless --force; --pcap: the packets leaving
                                              congested hop K (0-based, default 0) both
                                              ways from S to S seconds (default the whole
                                              run), and its drops in OUT.drops.pcap;
                                              --decisions: every drop and mark of the
                                              congested hops and every 100th pass, with
                                              the reason and the scheme's state, as CSV
  aqm-sim check FILE|-                        validate a scenario without running it and
                                              estimate its work in events
  aqm-sim sweep FILE|- --param PATH (--values A,B,… | --range FROM:TO:N)
                [--seeds N] [--json] [--force]
                [--shard K/N] [--jobs J]      run FILE with PATH (e.g. queue.params.max_p)
                                              set to each value under seeds 1..N; CSV of
                                              key metrics per run (--json: full summaries);
                                              --shard: only the K-th of N slices of the runs
                                              (shards 1..N concatenated = the whole sweep);
                                              --jobs: runs at once (default: 1); refuses
                                              runs estimated above 2e9 events in all
                                              unless --force
  aqm-sim schemes [--bytes]                   print the scheme catalogue as JSON
                                              (--bytes: thresholds for a buffer in bytes)
  aqm-sim reproduce [--json] [--tally] [--jobs J] [DIR|FILE]
                                              run the papers' reproductions (DIR, default
                                              reproductions/, or one FILE) under each file's seeds and
                                              judge each claim on its 95% interval;
                                              --tally: only the verdict counts (claims,
                                              then figures, which it runs too);
                                              --jobs: runs at once (default: 1)
  aqm-sim reproduce --list [DIR|FILE]         every claim and figure id, by file
  aqm-sim reproduce --figure ID|all [--csv|--json] [--jobs J] [DIR|FILE]
                                              run a paper's figure as a sweep and print
                                              its data: mean and 95% interval per x and
                                              scheme beside the paper's stated values
                                              and the verdict against them
                                              (CSV columns x,scheme,mean,ci_lo,ci_hi,paper)
  aqm-sim schema                              print the scenario file's JSON Schema
                                              (as committed in public/scenario.schema.json)
  aqm-sim import-trace FILE|-                 print a mahimahi trace file (one millisecond
                                              per line) as the JSON value of a link's
                                              `trace`";

/// Why a command failed; printed after `aqm-sim: ` on stderr, exit status 2.
#[derive(Debug)]
enum CliError {
    /// The command line does not parse: the usage text.
    Usage,
    /// A flag is missing or its value is refused: what is wrong with it.
    Flag(String),
    /// A file (or stdin) could not be read or written.
    Io { path: String, error: std::io::Error },
    /// The scenario, or a sweep's variant of it, is refused: the field path and why.
    Scenario(ScenarioError),
    /// A file was read but its content is refused (a reproduction, a trace).
    Content { path: String, message: String },
    /// A run estimated above the work limit, without `--force`.
    HeavyRun { what: &'static str, estimate: WorkEstimate },
    /// The capture's hop or window is refused: the flag and why.
    Capture { flag: &'static str, message: String },
    /// An output file (a capture, the decisions) could not be created or written: the flag that asked for it.
    OutputFile { flag: &'static str, path: PathBuf, creating: bool, error: std::io::Error },
    /// The output could not be serialised or written.
    Output(String),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            CliError::Usage => f.write_str(USAGE),
            CliError::Flag(message) | CliError::Output(message) => f.write_str(message),
            CliError::Io { path, error } => write!(f, "{path}: {error}"),
            CliError::Scenario(error) => write!(f, "{error}"),
            CliError::Content { path, message } => write!(f, "{path}: {message}"),
            CliError::HeavyRun { what, estimate } => write!(
                f,
                "{what} would take about {:.2e} events, over the limit of {:.0e}; \
                 shorten duration_s or lower the rates, or pass --force to run anyway",
                estimate.events as f64, estimate.limit as f64
            ),
            CliError::Capture { flag, message } => write!(f, "{flag}: {message}"),
            CliError::OutputFile { flag, path, creating: true, error } => {
                write!(f, "{flag}: cannot write {}: {error}", path.display())
            }
            CliError::OutputFile { flag, path, creating: false, error } => {
                write!(f, "{flag}: writing {}: {error}", path.display())
            }
        }
    }
}

impl From<ScenarioError> for CliError {
    fn from(error: ScenarioError) -> CliError {
        CliError::Scenario(error)
    }
}

/// Output that could not be serialised or written.
fn output<E: std::fmt::Display>(error: E) -> CliError {
    CliError::Output(error.to_string())
}

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

fn run(args: &[String]) -> Result<(), CliError> {
    match args.first().map(String::as_str) {
        Some("run") => {
            let (file, rest) = args[1..].split_first().ok_or(CliError::Usage)?;
            run_scenario(file, &RunOptions::parse(rest)?)
        }
        Some("check") => {
            let [_, file] = args else { return Err(CliError::Usage) };
            let scenario = Scenario::from_json(&read_input(file)?)?;
            let plan = scenario.plan()?;
            let estimate = work::estimate(&plan, SeriesMode::default());
            println!(
                "ok: {} flows, {} s, about {} events{}",
                plan.flow_count(),
                plan.duration_ns as f64 / 1e9,
                estimate.events,
                if estimate.over_limit() { " (over the limit: `run` needs --force)" } else { "" }
            );
            Ok(())
        }
        Some("sweep") => sweep(&args[1..]),
        Some("schemes") => {
            let limit = match &args[1..] {
                [] => Limit::Packets(0),
                [flag] if flag == "--bytes" => Limit::Bytes(0),
                _ => return Err(CliError::Usage),
            };
            print_json(&catalogue(limit))
        }
        Some("reproduce") => reproduce(&args[1..]),
        Some("import-trace") => {
            let [_, file] = args else { return Err(CliError::Usage) };
            let trace = import_mahimahi(&read_input(file)?)
                .map_err(|e| CliError::Content { path: file.clone(), message: e.to_string() })?;
            // One line: a trace has thousands of entries.
            let text = serde_json::to_string(&trace).map_err(output)?;
            writeln!(std::io::stdout(), "{text}").map_err(output)
        }
        Some("schema") => {
            print!("{}", scenario_schema_text());
            Ok(())
        }
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => Err(CliError::Usage),
    }
}

fn sweep(args: &[String]) -> Result<(), CliError> {
    let (file, mut rest) = args.split_first().ok_or(CliError::Usage)?;
    let (mut path, mut values, mut seeds, mut json, mut force) = (None, None, 1u64, false, false);
    let (mut shard, mut jobs) = (Shard::WHOLE, 1usize);
    while let Some((flag, tail)) = rest.split_first() {
        let value = || tail.first().cloned().ok_or_else(|| CliError::Flag(format!("{flag} needs a value")));
        match flag.as_str() {
            "--param" => path = Some(value()?),
            "--values" => values = Some(parse_values(&value()?).map_err(CliError::Flag)?),
            "--range" => values = Some(parse_range(&value()?).map_err(CliError::Flag)?),
            "--seeds" => seeds = value()?.parse().map_err(|_| CliError::Flag("--seeds: a whole number".into()))?,
            "--shard" => shard = Shard::parse(&value()?).map_err(CliError::Flag)?,
            "--jobs" => jobs = jobs_value(&value()?)?,
            "--json" => {
                json = true;
                rest = tail;
                continue;
            }
            "--force" => {
                force = true;
                rest = tail;
                continue;
            }
            _ => return Err(CliError::Usage),
        }
        rest = &tail[1..];
    }
    let spec = SweepSpec {
        path: path.ok_or_else(|| CliError::Flag("sweep needs --param".into()))?,
        values: values.ok_or_else(|| CliError::Flag("sweep needs --values or --range".into()))?,
        seeds: sweep::seeds(seeds),
    };
    let scenario = Scenario::from_json(&read_input(file)?)?;
    let runs = sweep::shard_variants(&scenario, &spec, shard)?;
    if !force {
        refuse_beyond_limit(&sweep::work(&runs)?, "these runs")?;
    }
    let points = sweep::run_variants(runs, jobs, |done, total| eprint!("\rrun {done}/{total}"))?;
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
    write!(std::io::stdout(), "{out}").map_err(output)
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

/// `--jobs J`: a whole number of runs at once, at least 1.
fn jobs_value(text: &str) -> Result<usize, CliError> {
    text.parse().ok().filter(|&j| j >= 1).ok_or_else(|| CliError::Flag("--jobs: a whole number ≥ 1".into()))
}

fn read_input(file: &str) -> Result<String, CliError> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin().read_to_string(&mut text).map_err(|error| CliError::Io { path: "stdin".into(), error })?;
    } else {
        text = std::fs::read_to_string(file).map_err(|error| CliError::Io { path: file.into(), error })?;
    }
    Ok(text)
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(output)?;
    writeln!(std::io::stdout(), "{text}").map_err(output)
}

/// The work limit: a clear refusal naming the estimate and the way past it.
fn refuse_beyond_limit(estimate: &WorkEstimate, what: &'static str) -> Result<(), CliError> {
    if estimate.over_limit() {
        return Err(CliError::HeavyRun { what, estimate: *estimate });
    }
    Ok(())
}

/// The flags of `aqm-sim run`.
#[derive(Default)]
struct RunOptions {
    csv: Option<String>,
    force: bool,
    pcap: Option<String>,
    capture: CaptureRequest,
    decisions: Option<String>,
}

impl RunOptions {
    fn parse(args: &[String]) -> Result<RunOptions, CliError> {
        let mut options = RunOptions::default();
        let mut rest = args;
        while let Some((flag, tail)) = rest.split_first() {
            if flag == "--force" {
                options.force = true;
                rest = tail;
                continue;
            }
            let value = tail.first().ok_or_else(|| CliError::Flag(format!("{flag} needs a value\n{USAGE}")))?;
            let seconds = || {
                value
                    .parse::<f64>()
                    .map_err(|_| CliError::Flag(format!("{flag}: `{value}` is not a number of seconds")))
            };
            match flag.as_str() {
                "--timeseries" => options.csv = Some(value.clone()),
                "--pcap" => options.pcap = Some(value.clone()),
                "--pcap-hop" => {
                    let hop = value
                        .parse()
                        .map_err(|_| CliError::Flag(format!("--pcap-hop: `{value}` is not a hop number (0, 1, …)")))?;
                    options.capture.hop = Some(hop);
                }
                "--pcap-from" => options.capture.from_s = Some(seconds()?),
                "--pcap-to" => options.capture.to_s = Some(seconds()?),
                "--decisions" => options.decisions = Some(value.clone()),
                _ => return Err(CliError::Usage),
            }
            rest = &tail[1..];
        }
        if options.pcap.is_none() && options.capture != CaptureRequest::default() {
            return Err(CliError::Flag("--pcap-hop, --pcap-from and --pcap-to need --pcap FILE".into()));
        }
        Ok(options)
    }
}

fn run_scenario(file: &str, options: &RunOptions) -> Result<(), CliError> {
    let text = read_input(file)?;
    let mode = SeriesMode { history: options.csv.is_some(), streaming: false };
    let mut sim = Simulation::from_json(&text, mode)?;
    if !options.force {
        refuse_beyond_limit(&work::estimate(sim.plan(), mode), "this scenario")?;
    }
    let started = Instant::now();
    let mut files = Vec::new();
    if let Some(path) = &options.pcap {
        files.extend(start_capture(&mut sim, path, options.capture)?);
    }
    let decisions = match &options.decisions {
        Some(path) => Some(start_decisions(&mut sim, path)?),
        None => None,
    };
    if files.is_empty() && decisions.is_none() {
        sim.run();
    } else {
        run_streaming(&mut sim, &mut files, decisions)?;
    }
    let mut summary = sim.summary();
    summary.perf.set_wall(started.elapsed().as_secs_f64());
    if let Some(path) = &options.csv {
        write_csv(path, &sim).map_err(|error| CliError::Io { path: path.clone(), error })?;
    }
    print_json(&summary)
}

/// Simulated time between two writes of the capture and the decisions:
/// what they hold in memory is what a hop sends in this long.
const STREAM_STEP_NS: u64 = 10_000_000;

/// An output file (a capture, the decisions) written beside its final name,
/// renamed into place when the run completes, removed if it does not.
struct PendingFile {
    /// The flag that asked for the file, for messages.
    flag: &'static str,
    final_path: PathBuf,
    temp_path: PathBuf,
    out: Option<std::io::BufWriter<std::fs::File>>,
}

impl PendingFile {
    fn create(flag: &'static str, final_path: PathBuf) -> Result<PendingFile, CliError> {
        let mut temp = final_path.clone().into_os_string();
        temp.push(".part");
        let temp_path = PathBuf::from(temp);
        let file = match std::fs::File::create(&temp_path) {
            Ok(file) => file,
            Err(error) => return Err(CliError::OutputFile { flag, path: final_path, creating: true, error }),
        };
        Ok(PendingFile { flag, final_path, temp_path, out: Some(std::io::BufWriter::new(file)) })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        let Some(out) = self.out.as_mut() else { return Err(CliError::Output("output file already closed".into())) };
        let result = out.write_all(bytes);
        result.map_err(|error| self.failed(error))
    }

    fn failed(&self, error: std::io::Error) -> CliError {
        CliError::OutputFile { flag: self.flag, path: self.final_path.clone(), creating: false, error }
    }

    /// Flush and sync the temporary file, keeping it pending.
    fn flush(&mut self) -> Result<(), CliError> {
        let Some(out) = self.out.as_mut() else { return Err(CliError::Output("output file already closed".into())) };
        let result = out.flush().and_then(|()| out.get_ref().sync_all());
        result.map_err(|error| self.failed(error))
    }

    /// Rename the written files into place, once all of them are written.
    fn finish_all(mut files: Vec<PendingFile>) -> Result<(), CliError> {
        for file in &mut files {
            file.flush()?;
        }
        for file in &mut files {
            std::fs::rename(&file.temp_path, &file.final_path).map_err(|error| file.failed(error))?;
            file.out = None;
        }
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            // Never finished: leave nothing half-written behind.
            let _ = std::fs::remove_file(&self.temp_path);
        }
    }
}

/// Where the drops of capture `path` go: `X.pcap` → `X.drops.pcap`.
fn drops_path(path: &str) -> PathBuf {
    let stem = path.strip_suffix(".pcap").unwrap_or(path);
    PathBuf::from(format!("{stem}.drops.pcap"))
}

/// Start capturing to `path` and its drops beside it: the two files.
fn start_capture(sim: &mut Simulation, path: &str, request: CaptureRequest) -> Result<[PendingFile; 2], CliError> {
    sim.capture(request).map_err(|e| {
        let flag = match e.field {
            CaptureField::Hop => "--pcap-hop",
            CaptureField::From => "--pcap-from",
            CaptureField::To => "--pcap-to",
            CaptureField::Scenario => "--pcap",
        };
        CliError::Capture { flag, message: e.message }
    })?;
    Ok([PendingFile::create("--pcap", PathBuf::from(path))?, PendingFile::create("--pcap", drops_path(path))?])
}

/// Start recording decisions to `path`, its header written.
fn start_decisions(sim: &mut Simulation, path: &str) -> Result<PendingFile, CliError> {
    let mut file = PendingFile::create("--decisions", PathBuf::from(path))?;
    sim.record_decisions(usize::MAX);
    file.write(decision::csv_header(sim.decision_fields()).as_bytes())?;
    Ok(file)
}

/// Run `sim` to its end in steps, streaming the capture (`files`: passed,
/// then dropped) and the decisions after each step; rename them all into
/// place only when the run completes.
fn run_streaming(
    sim: &mut Simulation,
    files: &mut Vec<PendingFile>,
    decisions: Option<PendingFile>,
) -> Result<(), CliError> {
    let mut decisions = decisions;
    let mut text = String::new();
    while !sim.is_finished() {
        sim.advance_to(sim.now() + STREAM_STEP_NS);
        if let [passed, dropped] = files.as_mut_slice() {
            let bytes = sim.take_capture();
            passed.write(&bytes.passed)?;
            dropped.write(&bytes.dropped)?;
        }
        if let Some(file) = decisions.as_mut() {
            text.clear();
            decision::csv_rows(&sim.take_decisions(), sim.decision_fields().len(), &mut text);
            file.write(text.as_bytes())?;
        }
    }
    files.extend(decisions);
    PendingFile::finish_all(std::mem::take(files))
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

/// `aqm-sim reproduce [--json] [--jobs J] [--tally] [--list] [--figure ID
/// [--csv]] [DIR|FILE]`: every reproduction file in DIR (or the one FILE), in
/// name order; scenario paths in them are relative to DIR's parent (the
/// repository root).
fn reproduce(args: &[String]) -> Result<(), CliError> {
    let (mut json, mut tally, mut list, mut csv, mut jobs, mut figure, mut dirs) =
        (false, false, false, false, 1usize, None, Vec::new());
    let mut rest = args;
    while let Some((flag, tail)) = rest.split_first() {
        match flag.as_str() {
            "--json" => json = true,
            "--tally" => tally = true,
            "--list" => list = true,
            "--csv" => csv = true,
            "--jobs" | "--figure" => {
                let value = tail.first().ok_or_else(|| CliError::Flag(format!("{flag} needs a value")))?;
                if flag == "--jobs" {
                    jobs = jobs_value(value)?;
                } else {
                    figure = Some(value.clone());
                }
                rest = &tail[1..];
                continue;
            }
            _ => dirs.push(flag),
        }
        rest = tail;
    }
    let dir = match dirs[..] {
        [] => default_reproductions_dir(),
        [d] => PathBuf::from(d),
        _ => return Err(CliError::Usage),
    };
    let files = load_reproductions(&dir)?;
    if list {
        return write!(std::io::stdout(), "{}", list_text(&files)).map_err(output);
    }
    if let Some(id) = figure {
        return print_figures(
            &files,
            &id,
            jobs,
            if json {
                "json"
            } else if csv {
                "csv"
            } else {
                "text"
            },
        );
    }
    let mut rows: Vec<ClaimResult> = Vec::new();
    for (name, repro, scenario) in &files {
        if !json && !tally {
            eprintln!("{name}: {} runs", repro.runs().len());
        }
        rows.extend(
            repro.run(scenario, jobs).map_err(|e| CliError::Content { path: name.clone(), message: e.to_string() })?,
        );
    }
    if json {
        return print_json(&rows);
    }
    let out = if tally {
        let figures = run_figures(&files, "all", jobs)?;
        let figure_line = if figures.is_empty() {
            String::new()
        } else {
            format!("{}\n", figure_tally(&figures.iter().map(|f| f.verdict).collect::<Vec<_>>()))
        };
        format!("{}\n{figure_line}", tally_line(&rows))
    } else {
        reproduce_report(&rows)
    };
    write!(std::io::stdout(), "{out}").map_err(output)
}

/// Every reproduction in `dir` (or the one file `dir` names), parsed, with
/// its file name and its main run's scenario text. A figure id used by two
/// files is refused: share links carry it.
fn load_reproductions(dir: &Path) -> Result<Vec<(String, Reproduction, String)>, CliError> {
    let (dir, mut files) = if dir.is_file() {
        (dir.parent().unwrap_or(Path::new(".")), vec![dir.to_path_buf()])
    } else {
        let files = std::fs::read_dir(dir)
            .map_err(|error| CliError::Io { path: dir.display().to_string(), error })?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        (dir, files)
    };
    let root = dir.parent().map(Path::to_path_buf).unwrap_or_default();
    files.sort();
    let mut loaded: Vec<(String, Reproduction, String)> = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let refused = |e: &dyn std::fmt::Display| CliError::Content { path: name.clone(), message: e.to_string() };
        let repro = Reproduction::from_json(&read_input(&file.to_string_lossy())?).map_err(|e| refused(&e))?;
        let scenario = repro
            .scenario_text(|p| std::fs::read_to_string(root.join(p)).map_err(|e| format!("{p}: {e}")))
            .map_err(|e| refused(&e))?;
        for f in &repro.figures {
            if let Some((other, _, _)) = loaded.iter().find(|(_, r, _)| r.figure(&f.id).is_some()) {
                return Err(refused(&format!("figure id `{}` is used by {other} too", f.id)));
            }
        }
        loaded.push((name, repro, scenario));
    }
    Ok(loaded)
}

/// `--list`: each file's claims (id, figure) and figures (id, title).
fn list_text(files: &[(String, Reproduction, String)]) -> String {
    let mut out = String::new();
    for (name, repro, _) in files {
        out += &format!("{name}: {} — {}\n", repro.paper, repro.experiment);
        for c in &repro.claims {
            out += &format!("  claim   {:<28} {}\n", c.id, c.figure);
        }
        for f in &repro.figures {
            let runs = f.runs().len();
            out += &format!("  figure  {:<28} {} ({runs} runs)\n", f.id, f.title);
        }
    }
    out
}

/// `--figure ID|all`: run the figure's sweep (or every figure's) and print
/// its data as text, CSV or JSON.
fn print_figures(
    files: &[(String, Reproduction, String)],
    id: &str,
    jobs: usize,
    format: &str,
) -> Result<(), CliError> {
    let results = run_figures(files, id, jobs)?;
    for result in &results {
        if format == "text" {
            print!("{}", figure_text(result));
        } else if format == "csv" {
            print!("{}{}", if id == "all" { format!("# {}\n", result.id) } else { String::new() }, result.csv());
        }
    }
    match (format, &results[..]) {
        ("json", [one]) => print_json(one),
        ("json", _) => print_json(&results),
        _ => Ok(()),
    }
}

/// Run the figure `id` (or `all`) of `files`. A run two figures share (the
/// same scenario text: one sweep read for throughput and for the queue) is
/// made once.
fn run_figures(files: &[(String, Reproduction, String)], id: &str, jobs: usize) -> Result<Vec<FigureResult>, CliError> {
    let chosen: Vec<_> = files
        .iter()
        .flat_map(|(name, repro, scenario)| repro.figures.iter().map(move |f| (name, f, scenario)))
        .filter(|(_, f, _)| id == "all" || f.id == id)
        .collect();
    if chosen.is_empty() && id != "all" {
        return Err(CliError::Flag(format!("no figure `{id}` (aqm-sim reproduce --list names them)")));
    }
    let refused = |name: &String, figure: &Figure, e: &dyn std::fmt::Display| CliError::Content {
        path: name.clone(),
        message: format!("{}: {e}", figure.id),
    };
    let started = Instant::now();
    let (mut unique, mut variants, mut indices) = (HashMap::new(), Vec::new(), Vec::new());
    for (name, figure, scenario) in &chosen {
        let mut of_figure = Vec::new();
        for run in figure.runs() {
            let text = figure.run_text(scenario, run).map_err(|e| refused(name, figure, &e))?;
            let next = unique.len();
            let index = *unique.entry(text.clone()).or_insert(next);
            if index == next {
                let variant = Scenario::from_json(&text).map_err(|e| refused(name, figure, &e))?;
                variants.push((index as f64, run.seed, variant));
            }
            of_figure.push(index);
        }
        indices.push(of_figure);
    }
    let summaries = sweep::run_variants(variants, jobs, |_, _| {})?
        .into_iter()
        .map(|p| serde_json::to_value(p.summary))
        .collect::<Result<Vec<_>, _>>()
        .map_err(output)?;
    let runs: usize = indices.iter().map(Vec::len).sum();
    let secs = started.elapsed().as_secs_f64();
    eprintln!("{} figures: {} runs ({runs} with the shared ones) in {secs:.1} s", chosen.len(), summaries.len());
    chosen
        .iter()
        .zip(indices)
        .map(|((name, figure, _), of_figure)| {
            let own: Vec<Value> = of_figure.into_iter().map(|k| summaries[k].clone()).collect();
            figure.result(&own).map_err(|e| refused(name, figure, &e))
        })
        .collect()
}

/// A figure's data for a reader: per x, each scheme's mean and interval and
/// the paper's stated value where there is one, then the marks' sentences
/// with their verdicts, the figure's verdict and, where it is not
/// reproduced, the suspected cause and the ablation series.
fn figure_text(r: &FigureResult) -> String {
    let mut out =
        format!("\n{}: {} ({}, {} seeds)\n  x: {}; y: {}\n", r.id, r.title, r.source, r.seeds, r.x.label, r.y.label);
    for p in &r.points {
        let paper = p.paper.map_or(String::new(), |v| format!("   paper {}", fmt_number(v)));
        let ci = p.ci_lo.zip(p.ci_hi);
        out += &format!(
            "  x {:<8} {:<16} {}{paper}\n",
            fmt_number(p.x),
            p.series,
            interval_text(p.mean, ci.map(|(a, b)| [a, b]))
        );
    }
    for (m, v) in r.marks.iter().zip(&r.mark_verdicts) {
        let at = m.x.map_or("every x".to_string(), |x| format!("x {}", fmt_number(x)));
        let tolerance = match m.tolerance {
            MarkTolerance::Relative(w) => format!("±{}%", fmt_number(w * 100.0)),
            MarkTolerance::Absolute(w) => format!("±{}", fmt_number(w)),
            MarkTolerance::Above => "above".into(),
            MarkTolerance::Below => "below".into(),
        };
        out += &format!(
            "  mark {} at {at}: {} ({tolerance}) {} — \"{}\"\n",
            m.series,
            fmt_number(m.y),
            v.as_str(),
            m.quote
        );
    }
    out += &format!("  {}\n", r.marks_note);
    let Some(verdict) = r.verdict else { return out + "  verdict: none (no marks to judge)\n" };
    let pinned = if Some(verdict) == r.expected { "" } else { "  (differs from the pinned verdict)" };
    out += &format!("  verdict: {}{pinned}\n", verdict.as_str());
    if !r.explanation.is_empty() {
        out += &format!("  why: {}\n", r.explanation);
    }
    for a in &r.ablations {
        out += &format!("  ablation series {}: {}\n", a.series, a.change);
    }
    out
}

/// The README's tally: how many claims get each verdict.
fn tally_line(rows: &[ClaimResult]) -> String {
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    format!(
        "{} reproduced, {} diverge, {} inconclusive, of {} claims",
        count(Verdict::Reproduced),
        count(Verdict::Diverges),
        count(Verdict::Inconclusive),
        rows.len()
    )
}

/// ", difference m [lo, hi]" for a relation's paired difference, else nothing.
fn difference_text(difference: Option<&Interval>) -> String {
    difference.map_or(String::new(), |d| format!(", difference {}", interval_text(Some(d.mean), Some(d.ci95))))
}

fn interval_text(mean: Option<f64>, ci: Option<[f64; 2]>) -> String {
    match (mean, ci) {
        (Some(m), Some([lo, hi])) => format!("{} [{}, {}]", fmt_number(m), fmt_number(lo), fmt_number(hi)),
        _ => "n/a".to_string(),
    }
}

fn reproduce_report(rows: &[ClaimResult]) -> String {
    let mut out = String::new();
    let mut experiment = "";
    for r in rows {
        if r.experiment != experiment {
            experiment = &r.experiment;
            out += &format!("\n{}: {experiment} ({} seeds)\n", r.paper, r.seeds);
        }
        let pinned = if r.verdict == r.expected { "" } else { "  (differs from the pinned verdict)" };
        let measured = interval_text(r.mean, r.ci95);
        let difference = difference_text(r.difference.as_ref());
        out += &format!(
            "{:<12}  {} [{}]: paper {}, measured {measured}{difference} ({}){pinned}\n",
            r.verdict.as_str(),
            r.figure,
            r.id,
            r.paper_value,
            r.tolerance
        );
        if r.verdict != Verdict::Reproduced {
            out += &format!("              why: {}\n", r.explanation);
        }
        for a in &r.ablations {
            let d = difference_text(a.difference.as_ref());
            out += &format!(
                "              ablation {} ({}): {}{d}: {}\n",
                a.id,
                a.change,
                interval_text(a.mean, a.ci95),
                a.verdict.as_str()
            );
        }
    }
    out + &format!("\n{}\n", tally_line(rows))
}

/// `reproductions/` in the working directory, else the repository's own.
fn default_reproductions_dir() -> PathBuf {
    let here = PathBuf::from("reproductions");
    if here.is_dir() {
        here
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../reproductions")
    }
}
