//! JavaScript bindings for the web app's engine workers: a thin layer over the
//! [`Simulation`] facade in streaming mode, plus the scheme catalogue,
//! scenario validation and single points of parameter sweeps. Series cross
//! the boundary as one column-major `Float64Array` per drain, never as an
//! object per sample; small structured results (summary, probe, drop curve,
//! catalogue) go through JSON so their shape is exactly what `aqm-sim` prints.

use crate::kernel::{secs_f64, to_secs};
use crate::queue::{catalogue as scheme_catalogue, Limit};
use crate::reproduce::{Reproduction, ReproductionError};
use crate::scenario::defaults::FlowKinds;
use crate::scenario::{Scenario, ScenarioError};
use crate::sim::sweep::{self, SweepSpec};
use crate::sim::{work, CaptureField, CaptureRequest, ResolvedPlan, SeriesMode, Simulation};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Types the bindings build by hand; the engine's result types (Summary,
/// CatalogueEntry, DropCurve, …) come from its structs through tsify.
#[wasm_bindgen(typescript_custom_section)]
const RESULT_TYPES: &str = r#"
/** Series rows added since the last drain, column-major: column `c` is `data.subarray(c * rows, (c + 1) * rows)`. */
export interface SeriesBatch {
  columns: string[];
  rows: number;
  data: Float64Array;
}

/**
 * A refused input located by its field path, e.g. `flows[1].rate_bps` or
 * `queue.params.max_th`, and the kind of check that refused it. Every
 * refusal that crosses the boundary has this shape, so no caller reads a
 * message apart to find the field.
 */
export interface ScenarioProblem {
  path: string;
  message: string;
  kind: ProblemKind;
}

/**
 * `scenario`: the document (or a sweep's variant of it) is not valid;
 * `param`: a live parameter change was refused, and the run goes on as it was;
 * `engine`: a request failed for another reason (the page's own word, with
 * an empty path, for a worker that could not answer);
 * `capture`: a capture's hop or window was refused;
 * `reproduction`: a reproduction file, or the figure asked of it, was refused.
 */
export type ProblemKind = 'scenario' | 'param' | 'engine' | 'capture' | 'reproduction';

/**
 * One decision of a monitored queue (the drop-and-mark inspector): `state`
 * holds the scheme's values in the order of `decisionFields()`, null where
 * a value does not apply; empty for a decision without state.
 */
export interface DecisionRecord {
  t_s: number;
  hop: number;
  flow: number;
  seq: number;
  size_bytes: number;
  verdict: 'drop' | 'mark' | 'pass';
  reason: 'early' | 'forced' | 'overflow' | 'accepted';
  state: (number | null)[];
}

/** A capture's two pcap files: the packets that left the hop, and its drops. */
export interface CaptureFiles {
  passed: Uint8Array;
  dropped: Uint8Array;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "SeriesBatch")]
    pub type SeriesBatch;
    #[wasm_bindgen(typescript_type = "CatalogueEntry[]")]
    pub type Catalogue;
    #[wasm_bindgen(typescript_type = "DropCurve | undefined")]
    pub type MaybeDropCurve;
    #[wasm_bindgen(typescript_type = "ModelPoint[] | undefined")]
    pub type MaybeModel;
    #[wasm_bindgen(typescript_type = "Summary")]
    pub type SummaryJs;
    #[wasm_bindgen(typescript_type = "DelayDistributions")]
    pub type DelayDistributionsJs;
    #[wasm_bindgen(typescript_type = "Record<string, number>")]
    pub type NumberRecord;
    #[wasm_bindgen(typescript_type = "ScenarioProblem | undefined")]
    pub type MaybeProblem;
    #[wasm_bindgen(typescript_type = "WorkEstimate")]
    pub type WorkEstimateJs;
    #[wasm_bindgen(typescript_type = "ClaimResult[]")]
    pub type ClaimResults;
    #[wasm_bindgen(typescript_type = "FigureResult")]
    pub type FigureResultJs;
    #[wasm_bindgen(typescript_type = "CaptureFiles")]
    pub type CaptureFiles;
    #[wasm_bindgen(typescript_type = "ResolvedPlan")]
    pub type ResolvedPlanJs;
    #[wasm_bindgen(typescript_type = "Scenario")]
    pub type ScenarioJs;
    #[wasm_bindgen(typescript_type = "FieldSpec[]")]
    pub type FieldSpecs;
    #[wasm_bindgen(typescript_type = "FlowKinds")]
    pub type FlowKindsJs;
}

/// The newest decisions a page's run keeps between two takes.
const DECISION_RING: usize = 2000;

/// Numbers per decision in [`WasmSimulation::take_decisions`]'s array: `t_s`,
/// `hop`, `flow`, `seq`, `size_bytes`, the verdict's and the reason's index
/// (in the order of `DECISION_VERDICTS` and `DECISION_REASONS` in
/// web/src/engine/decisionCodec.ts), the number of state values, then
/// [`MAX_STATE`](crate::queue::decision::MAX_STATE) slots of state.
const DECISION_STRIDE: usize = 8 + crate::queue::decision::MAX_STATE;

/// [`DECISION_STRIDE`], for the page's decoder: the engine alone says how
/// many state slots a record has.
#[wasm_bindgen(js_name = decisionStride)]
pub fn decision_stride() -> usize {
    DECISION_STRIDE
}

/// `d` as [`DECISION_STRIDE`] numbers, appended to `out`.
fn pack_decision(d: &crate::queue::decision::Decision, out: &mut Vec<f64>) {
    use crate::queue::decision::{Reason, Verdict, MAX_STATE};
    let verdict = match d.verdict {
        Verdict::Drop => 0.0,
        Verdict::Mark => 1.0,
        Verdict::Pass => 2.0,
    };
    let reason = match d.reason {
        Reason::Early => 0.0,
        Reason::Forced => 1.0,
        Reason::Overflow => 2.0,
        Reason::Accepted => 3.0,
    };
    let state = d.state.values();
    out.extend([to_secs(d.at), d.hop as f64, d.flow as f64, d.seq as f64, d.size_bytes as f64, verdict, reason]);
    out.push(state.len() as f64);
    out.extend(state);
    out.extend(std::iter::repeat_n(f64::NAN, MAX_STATE - state.len()));
}

/// Serialise through JSON so JS sees the same shape `aqm-sim` prints.
fn to_js<T: Serialize + ?Sized, J: JsCast>(value: &T) -> Result<J, JsError> {
    let text = serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))?;
    let parsed = js_sys::JSON::parse(&text).map_err(|_| JsError::new("engine produced invalid JSON"))?;
    Ok(parsed.unchecked_into())
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

/// A drained batch as the bindings hand it out: the run's column names, the
/// row count and `data`, column-major.
fn series_batch(columns: &js_sys::Array, rows: usize, data: &js_sys::Float64Array) -> SeriesBatch {
    let batch = js_sys::Object::new();
    set(&batch, "columns", columns);
    set(&batch, "rows", &JsValue::from_f64(rows as f64));
    set(&batch, "data", data);
    batch.unchecked_into()
}

/// One running experiment, streaming its series to the caller.
#[wasm_bindgen(js_name = Simulation)]
pub struct WasmSimulation {
    sim: Simulation,
    /// Column names, built once: they never change during a run.
    columns: js_sys::Array,
    /// Whether the run records its decisions for the inspector (on unless
    /// the page turns it off); a reset keeps the choice.
    recording: bool,
}

impl WasmSimulation {
    fn apply_recording(&mut self) {
        if self.recording {
            self.sim.record_decisions(DECISION_RING);
        } else {
            self.sim.stop_recording_decisions();
        }
    }
}

#[wasm_bindgen(js_class = Simulation)]
impl WasmSimulation {
    /// Build a simulation from scenario JSON text. Errors name the field:
    /// `flows[1].rate_bps: must be > 0, got -5`.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<WasmSimulation, JsValue> {
        let mode = SeriesMode { history: false, streaming: true };
        let mut sim = Simulation::from_json(scenario_json, mode).map_err(refused)?;
        sim.record_decisions(DECISION_RING);
        let columns = sim.series_columns().iter().map(|c| JsValue::from_str(c)).collect();
        Ok(WasmSimulation { sim, columns, recording: true })
    }

    /// Handle every event up to simulated time `t_s` (capped at the duration).
    #[wasm_bindgen(js_name = advanceTo)]
    pub fn advance_to(&mut self, t_s: f64) {
        if t_s.is_finite() {
            self.sim.advance_to(secs_f64(t_s));
        }
    }

    #[wasm_bindgen(js_name = nowS)]
    pub fn now_s(&self) -> f64 {
        to_secs(self.sim.now())
    }

    #[wasm_bindgen(js_name = durationS)]
    pub fn duration_s(&self) -> f64 {
        to_secs(self.sim.duration())
    }

    #[wasm_bindgen(js_name = isFinished)]
    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }

    /// Events handled so far (exact below 2^53).
    pub fn events(&self) -> f64 {
        self.sim.events_handled() as f64
    }

    /// The series column names, in the order of every drained batch.
    pub fn columns(&self) -> Vec<String> {
        self.columns.iter().filter_map(|c| c.as_string()).collect()
    }

    /// The rows sampled since the last drain. Every batch holds the same
    /// `columns` array, built once per run.
    pub fn drain(&mut self) -> SeriesBatch {
        let chunk = self.sim.drain();
        series_batch(&self.columns, chunk.rows, &js_sys::Float64Array::from(chunk.data))
    }

    /// The same batch as `drain`, with `data` a view into the engine's
    /// memory instead of a copy: valid only until the next call into the
    /// engine, so it is read or copied at once. The page's worker copies it
    /// into a buffer the page hands back after use: a new typed array per
    /// batch is fresh memory the browser faults in page by page.
    #[wasm_bindgen(js_name = drainView)]
    pub fn drain_view(&mut self) -> SeriesBatch {
        let chunk = self.sim.drain();
        // SAFETY: the view aliases the recorder's drain buffer, which the
        // engine writes again only at the next drain; a memory growth in
        // between detaches the view (it reads as empty), never dangles.
        let data = unsafe { js_sys::Float64Array::view(chunk.data) };
        series_batch(&self.columns, chunk.rows, &data)
    }

    /// The monitored queues' decisions since the last take (the newest
    /// 2 000 at most), oldest first, packed as numbers (see
    /// [`DECISION_STRIDE`]): one typed array instead of thousands of JSON
    /// objects, two to four times cheaper per record.
    #[wasm_bindgen(js_name = takeDecisions)]
    pub fn take_decisions(&mut self) -> Vec<f64> {
        let taken = self.sim.take_decisions();
        let mut packed = Vec::with_capacity(taken.len() * DECISION_STRIDE);
        for d in &taken {
            pack_decision(d, &mut packed);
        }
        packed
    }

    /// The scheme state each decision records, in `state`'s order.
    #[wasm_bindgen(js_name = decisionFields)]
    pub fn decision_fields(&self) -> Result<FieldSpecs, JsError> {
        to_js(self.sim.decision_fields())
    }

    /// Change a scheme parameter now, without restarting. A refused value
    /// leaves the running scheme untouched and throws a `ScenarioProblem` of
    /// kind `param`: `{ path: "queue.params.max_th", message: "must exceed min_th (25)" }`.
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&mut self, id: &str, value: f64) -> Result<(), JsValue> {
        self.sim
            .set_param(id, value)
            .map_err(|e| typed_problem(&format!("queue.params.{}", e.param), &e.message, "param"))
    }

    /// Start again from time 0 with the same setup and the live parameter values.
    pub fn reset(&mut self) {
        self.sim.reset();
        self.apply_recording();
    }

    /// Record decisions for the inspector from now on, or stop: off, the
    /// queues gather no state at all and the records not yet taken are let go.
    #[wasm_bindgen(js_name = recordDecisions)]
    pub fn record_decisions(&mut self, on: bool) {
        if on != self.recording {
            self.recording = on;
            self.apply_recording();
        }
    }

    /// The plan this run follows, every default applied (sample interval,
    /// group counts, labels and flow numbers, parameters at their live values):
    /// the page reads these rather than applying a default of its own.
    pub fn plan(&self) -> Result<ResolvedPlanJs, JsError> {
        to_js(&self.sim.resolved())
    }

    /// The scenario document with the live parameter values folded in:
    /// loading it builds this run's setup at time 0.
    pub fn scenario(&self) -> Result<ScenarioJs, JsError> {
        match self.sim.scenario() {
            Some(document) => to_js(&document),
            None => Err(JsError::new("the simulation was not built from a document")),
        }
    }

    /// The scheme's current parameter values, by id.
    pub fn params(&self) -> Result<NumberRecord, JsError> {
        let values: std::collections::BTreeMap<&str, f64> = self.sim.params().iter().collect();
        to_js(&values)
    }

    /// The scheme's probe values (e.g. RED's `avg`, `p_b`) right now.
    pub fn probe(&self) -> Result<NumberRecord, JsError> {
        let values: std::collections::BTreeMap<&str, f64> = self.sim.probe().into_iter().collect();
        to_js(&values)
    }

    /// The drop-probability curve and operating point, when the scheme has one.
    #[wasm_bindgen(js_name = dropCurve)]
    pub fn drop_curve(&self) -> Result<MaybeDropCurve, JsError> {
        match self.sim.drop_curve() {
            Some(curve) => to_js(&curve),
            None => Ok(JsValue::UNDEFINED.unchecked_into()),
        }
    }

    /// Zheng & Atiquzzaman's (2000) Markov-chain drop probability at each offered load λ/μ in
    /// `loads`, for the scheme's current parameters: RED and DSRED only.
    #[wasm_bindgen(js_name = markovModel)]
    pub fn markov_model(&self, loads: Vec<f64>) -> Result<MaybeModel, JsError> {
        match self.sim.markov_model(&loads) {
            Some(points) => to_js(&points),
            None => Ok(JsValue::UNDEFINED.unchecked_into()),
        }
    }

    /// The delay distributions of the measurement window so far: each hop's
    /// and each flow group's queue sojourn times and each TCP and ping
    /// group's RTTs, as CDF points (one per occupied histogram bucket).
    #[wasm_bindgen(js_name = delayDistributions)]
    pub fn delay_distributions(&self) -> Result<DelayDistributionsJs, JsError> {
        to_js(&self.sim.delay_distributions())
    }

    /// The summary over the measurement window so far; `wall_s` is the
    /// wall-clock time the caller spent simulating (for the perf block).
    pub fn summary(&self, wall_s: f64) -> Result<SummaryJs, JsError> {
        let mut summary = self.sim.summary();
        summary.perf.set_wall(wall_s);
        to_js(&summary)
    }
}

/// Every scheme with its parameters resolved for a buffer in `buffer_unit`
/// ("packets" or "bytes").
#[wasm_bindgen]
pub fn catalogue(buffer_unit: &str) -> Result<Catalogue, JsValue> {
    let limit = match buffer_unit {
        "packets" => Limit::Packets(0),
        "bytes" => Limit::Bytes(0),
        other => {
            let message = format!("must be \"packets\" or \"bytes\", got {other:?}");
            return Err(typed_problem("buffer_unit", &message, "engine"));
        }
    };
    Ok(to_js(&scheme_catalogue(limit))?)
}

/// Check scenario JSON without running it: `undefined` when it is valid,
/// otherwise the first problem with its field path.
#[wasm_bindgen]
pub fn validate(scenario_json: &str) -> MaybeProblem {
    match Scenario::from_json(scenario_json).and_then(|s| s.plan()) {
        Ok(_) => JsValue::UNDEFINED.unchecked_into(),
        Err(e) => problem(&e),
    }
}

/// The plan scenario JSON would run, every default applied (flow counts,
/// labels and numbers, measurement start, hops, TCP options, the scheme's
/// parameters), as `Simulation.plan` gives it, without building a
/// simulation: the page reads a draft's or a preset's defaults from it.
/// Throws the first problem, as `validate` returns it.
#[wasm_bindgen(js_name = planScenario)]
pub fn plan_scenario(scenario_json: &str) -> Result<ResolvedPlanJs, JsValue> {
    let plan = Scenario::from_json(scenario_json).and_then(|s| s.plan()).map_err(|e| JsValue::from(problem(&e)))?;
    to_js(&ResolvedPlan::of(&plan, &plan.params)).map_err(JsValue::from)
}

/// Estimate the events a live run of scenario JSON would take (with its
/// samples), and the limit to compare with: the page asks before starting a
/// run above it. Errors name the field.
#[wasm_bindgen(js_name = estimateWork)]
pub fn estimate_work(scenario_json: &str) -> Result<WorkEstimateJs, JsValue> {
    let plan = Scenario::from_json(scenario_json).and_then(|s| s.plan()).map_err(refused)?;
    Ok(to_js(&work::estimate(&plan, SeriesMode { history: false, streaming: true }))?)
}

/// The scenario of every run a reproduction needs (each seed of its main,
/// compare and ablation runs), in the order `judgeReproduction` takes their
/// summaries. `scenario_json` is the scenario file the reproduction names
/// (an inline scenario is the file's own); applying the file's `queue` and
/// `set` to a scenario that has them already changes nothing. Errors name
/// the field.
#[wasm_bindgen(js_name = reproductionRuns)]
pub fn reproduction_runs(reproduction_json: &str, scenario_json: &str) -> Result<Vec<String>, JsValue> {
    let repro = Reproduction::from_json(reproduction_json).map_err(refused)?;
    let scenario = repro.scenario_text(|_| Ok(scenario_json.to_string())).map_err(refused)?;
    repro.runs().into_iter().map(|key| repro.run_text(&scenario, key).map_err(refused)).collect()
}

/// Run a scenario to its end without series, as `aqm-sim reproduce` runs
/// each of a reproduction's runs, and return its summary as JSON text.
#[wasm_bindgen(js_name = runToEnd)]
pub fn run_to_end(scenario_json: &str) -> Result<String, JsValue> {
    let summary = sweep::run_variant(&Scenario::from_json(scenario_json).map_err(refused)?).map_err(refused)?;
    serde_json::to_string(&summary).map_err(refused)
}

/// Run a scenario to its end without series and return its capture, as
/// `aqm-sim run --pcap` writes it: the packets leaving congested hop `hop`
/// both ways from `from_s` to `to_s` (each may be `undefined` for its
/// default: hop 0, the whole run) and the drops, as the bytes of two pcap
/// files. A refused hop or window throws a `ScenarioProblem` of kind
/// `capture` whose path is `hop`, `from` or `to`; a refused scenario, one of kind `scenario`.
#[wasm_bindgen(js_name = captureToEnd)]
pub fn capture_to_end(
    scenario_json: &str,
    hop: Option<u32>,
    from_s: Option<f64>,
    to_s: Option<f64>,
) -> Result<CaptureFiles, JsValue> {
    let mut sim = Simulation::from_json(scenario_json, SeriesMode::default()).map_err(|e| problem(&e))?;
    sim.capture(CaptureRequest { hop, from_s, to_s }).map_err(|e| {
        let path = match e.field {
            CaptureField::Hop => "hop",
            CaptureField::From => "from",
            CaptureField::To => "to",
            CaptureField::Scenario => "",
        };
        typed_problem(path, &e.message, "capture")
    })?;
    sim.run();
    let bytes = sim.take_capture();
    let files = js_sys::Object::new();
    set(&files, "passed", &js_sys::Uint8Array::from(bytes.passed.as_slice()));
    set(&files, "dropped", &js_sys::Uint8Array::from(bytes.dropped.as_slice()));
    Ok(files.unchecked_into())
}

/// Judge a reproduction file's claims on the summaries (a JSON array, in
/// the order of `reproductionRuns`): the same verdict function as
/// `aqm-sim reproduce`.
#[wasm_bindgen(js_name = judgeReproduction)]
pub fn judge_reproduction(reproduction_json: &str, summaries_json: &str) -> Result<ClaimResults, JsValue> {
    let repro = Reproduction::from_json(reproduction_json).map_err(refused)?;
    let summaries: Vec<serde_json::Value> = serde_json::from_str(summaries_json).map_err(refused)?;
    let rows = repro.judge(&summaries).map_err(refused)?;
    Ok(to_js(&rows)?)
}

/// The scenario of every run of a reproduction's figure `figure_id`, in
/// the order `figureResult` takes their summaries: the same expansion as
/// `aqm-sim reproduce --figure`. `scenario_json` as for `reproductionRuns`.
#[wasm_bindgen(js_name = figureRuns)]
pub fn figure_runs(reproduction_json: &str, scenario_json: &str, figure_id: &str) -> Result<Vec<String>, JsValue> {
    let repro = Reproduction::from_json(reproduction_json).map_err(refused)?;
    let figure = repro.figure(figure_id).ok_or_else(|| no_figure(figure_id))?;
    let scenario = repro.scenario_text(|_| Ok(scenario_json.to_string())).map_err(refused)?;
    figure.runs().into_iter().map(|run| figure.run_text(&scenario, run).map_err(refused)).collect()
}

/// A figure's points (mean and 95 % interval per x and scheme) and the
/// paper's marks, from the summaries (a JSON array, in the order of
/// `figureRuns`): the same function as `aqm-sim reproduce --figure`.
#[wasm_bindgen(js_name = figureResult)]
pub fn figure_result(
    reproduction_json: &str,
    figure_id: &str,
    summaries_json: &str,
) -> Result<FigureResultJs, JsValue> {
    let repro = Reproduction::from_json(reproduction_json).map_err(refused)?;
    let figure = repro.figure(figure_id).ok_or_else(|| no_figure(figure_id))?;
    let summaries: Vec<serde_json::Value> = serde_json::from_str(summaries_json).map_err(refused)?;
    let result = figure.result(&summaries).map_err(refused)?;
    Ok(to_js(&result)?)
}

fn problem(error: &ScenarioError) -> MaybeProblem {
    typed_problem(&error.path, &error.message, "scenario").unchecked_into()
}

/// A refusal as JavaScript sees it, whichever engine error it came from.
fn refused(error: impl Refusal) -> JsValue {
    let (path, message, kind) = error.located();
    typed_problem(&path, &message, kind)
}

/// An engine error with the field it names and its `ProblemKind`.
trait Refusal {
    fn located(self) -> (String, String, &'static str);
}

impl Refusal for ScenarioError {
    fn located(self) -> (String, String, &'static str) {
        (self.path, self.message, "scenario")
    }
}

impl Refusal for ReproductionError {
    fn located(self) -> (String, String, &'static str) {
        (self.path, self.message, "reproduction")
    }
}

/// The summaries handed back to the engine are its own output: one it cannot read is the page's fault.
impl Refusal for serde_json::Error {
    fn located(self) -> (String, String, &'static str) {
        (String::new(), self.to_string(), "engine")
    }
}

fn no_figure(figure_id: &str) -> JsValue {
    typed_problem("figure", &format!("no figure `{figure_id}`"), "reproduction")
}

/// A `ScenarioProblem` object: the one shape of a refusal in JavaScript.
fn typed_problem(path: &str, message: &str, kind: &str) -> JsValue {
    let problem = js_sys::Object::new();
    set(&problem, "path", &JsValue::from_str(path));
    set(&problem, "message", &JsValue::from_str(message));
    set(&problem, "kind", &JsValue::from_str(kind));
    problem.into()
}

/// Check every run of a sweep of `path` over `values` with seeds 1…`seed_count`
/// (as `aqm-sim sweep` makes them) without running any: `undefined` when all
/// are valid, otherwise the first problem with its field path.
#[wasm_bindgen(js_name = sweepCheck)]
pub fn sweep_check(scenario_json: &str, path: &str, values: Vec<f64>, seed_count: u32) -> MaybeProblem {
    let spec = SweepSpec { path: path.to_string(), values, seeds: sweep::seeds(seed_count.into()) };
    match Scenario::from_json(scenario_json).and_then(|s| sweep::variants(&s, &spec)) {
        Ok(_) => JsValue::UNDEFINED.unchecked_into(),
        Err(e) => problem(&e),
    }
}

/// The events of every run of a sweep together (as `aqm-sim sweep` estimates
/// them before refusing beyond the limit without `--force`). Errors name the field.
#[wasm_bindgen(js_name = sweepWork)]
pub fn sweep_work(
    scenario_json: &str,
    path: &str,
    values: Vec<f64>,
    seed_count: u32,
) -> Result<WorkEstimateJs, JsValue> {
    let spec = SweepSpec { path: path.to_string(), values, seeds: sweep::seeds(seed_count.into()) };
    let work = Scenario::from_json(scenario_json)
        .and_then(|s| sweep::variants(&s, &spec))
        .and_then(|runs| sweep::work(&runs))
        .map_err(refused)?;
    Ok(to_js(&work)?)
}

/// Run one point of a sweep to the scenario's end, exactly as `aqm-sim sweep`
/// runs it (the field at `path` set to `value`, the seed set to `seed`), and
/// return its summary. Errors name the field.
#[wasm_bindgen(js_name = sweepPoint)]
pub fn sweep_point(scenario_json: &str, path: &str, value: f64, seed: u32) -> Result<SummaryJs, JsValue> {
    let base = Scenario::from_json(scenario_json).and_then(|s| sweep::base_document(&s)).map_err(refused)?;
    let variant = sweep::variant(&base, path, value, seed.into()).map_err(refused)?;
    Ok(to_js(&sweep::run_variant(&variant).map_err(refused)?)?)
}

/// The flow kinds an editor offers, each with the group it adds (the
/// engine's defaults written out), and the keys a group keeps when its kind
/// changes: the page builds and switches groups from these, writing no
/// value of its own.
#[wasm_bindgen(js_name = flowKinds)]
pub fn flow_kinds() -> Result<FlowKindsJs, JsError> {
    to_js(&FlowKinds::of_engine())
}

/// The scenario a reproduction's main run runs: `scenario_json` (the file
/// the reproduction names, or its inline scenario) with the file's `queue`
/// and `set` applied, by the engine's own path assignment. A `set` path that
/// leads nowhere throws a `ScenarioProblem` of kind `reproduction` whose
/// path is `set.<field>`.
#[wasm_bindgen(js_name = reproductionScenario)]
pub fn reproduction_scenario(reproduction_json: &str, scenario_json: &str) -> Result<ScenarioJs, JsValue> {
    let repro = Reproduction::from_json(reproduction_json).map_err(refused)?;
    let text = repro.scenario_text(|_| Ok(scenario_json.to_string())).map_err(refused)?;
    js_sys::JSON::parse(&text).map(JsCast::unchecked_into)
}
