//! Reproductions of the papers' claims (docs/scenario-format.md,
//! "Reproduction files"): a file in `reproductions/` pairs one scenario (and,
//! for a comparison, other schemes run on it with the paper's parameters)
//! with claims. A claim names the paper's figure or table, a metric of the
//! summary, the paper's value and a tolerance or a direction, the verdict the
//! lab gets today (`expected`, pinned by the tests) and, where it is not
//! reproduced, the suspected cause and the ablations that test it.
//!
//! Every run is made under seeds 1…`seeds`; a claim is judged on the 95 %
//! confidence interval of its metric over the seeds (a relation between two
//! runs on the paired per-seed differences): reproduced when the paper's
//! value or relation holds across the interval, diverges when it fails
//! across it, inconclusive when the interval straddles. [`Reproduction::judge`]
//! is the one verdict function: `aqm-sim reproduce` and the page (through the
//! wasm binding `judgeReproduction`) both call it on the summaries of the
//! runs [`Reproduction::runs`] lists.

pub mod figure;
mod judge;
pub mod stats;

pub use figure::{figure_tally, Figure, FigureResult, FigureRun, MarkTolerance};
pub use judge::{AblationResult, ClaimResult};

use crate::queue::find_scheme;
use crate::sim::sweep;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// Seeds per run when a file does not say.
pub const DEFAULT_SEEDS: u64 = 10;
/// The fewest and most seeds a file may ask for.
pub const SEED_RANGE: std::ops::RangeInclusive<u64> = 5..=30;

/// One reproduction file.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reproduction {
    /// Authors and year, e.g. "Cho & Cho 2002".
    pub paper: String,
    /// The experiment in a line: setting and section.
    pub experiment: String,
    /// A scenario file relative to the repository root
    /// (`"scenarios/x.json"`), or the scenario itself.
    pub scenario: ScenarioSource,
    /// Replaces the scenario's `queue` in the main run: a preset run under
    /// the scheme the claims are about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<Value>,
    /// Where the paper states the main run's scheme parameters, or that it
    /// gives none and the catalogue's defaults run.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub queue_source: String,
    /// Fields of the scenario set for every run, by path (`duration_s`,
    /// `flows[0]`): the paper's run length or traffic model where the
    /// scenario file, shared with a preset, differs.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub set: serde_json::Map<String, Value>,
    /// Other runs of the same scenario with the scheme replaced (the
    /// parameters the paper gives it), read by `compare:` (the first) or
    /// `compare[i]:`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<Compare>,
    /// Seeds 1…n for every run (default [`DEFAULT_SEEDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u64>,
    /// Variations of the runs that test a divergence's suspected cause.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ablations: Vec<Ablation>,
    pub claims: Vec<Claim>,
    /// The paper's figures as sweeps over this scenario ([`Figure`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<Figure>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ScenarioSource {
    Path(String),
    Inline(Value),
}

/// One compare run, or several.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Compare {
    One(CompareWith),
    Many(Vec<CompareWith>),
}

impl Compare {
    pub fn runs(&self) -> &[CompareWith] {
        match self {
            Compare::One(c) => std::slice::from_ref(c),
            Compare::Many(list) => list,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CompareWith {
    pub scheme: String,
    /// The scheme's parameters as the paper states them (absent ones take
    /// the catalogue's defaults).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<serde_json::Map<String, Value>>,
    /// Where the paper states them, or that it does not.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// A variation of the runs: fields set by path. A key `main:path` sets the
/// main run's field, `compare:path` every compare run's, `compare[i]:path`
/// one compare run's, a plain `path` every run's.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ablation {
    pub id: String,
    /// What it changes, in words.
    pub change: String,
    pub set: serde_json::Map<String, Value>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// Unique within the file.
    pub id: String,
    /// Where the paper shows it: "Fig. 9", "Table 1", "§3B".
    pub figure: String,
    /// The claim in one sentence.
    pub claim: String,
    /// A summary path (`flows[20].goodput_bps`, `fairness.jain_tcp`) or a
    /// ratio of two (`a / b`); `compare:` before a path reads the compare run.
    pub metric: String,
    /// The paper's number as its text or a table states it, or its words;
    /// a number we derived says so in `paper_source`.
    pub paper_value: PaperValue,
    /// Where the value comes from: the sentence or table, or how we derived it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub paper_source: String,
    pub tolerance: Tolerance,
    /// Why the tolerance is this wide, in one sentence (required for a
    /// relative or absolute tolerance).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tolerance_basis: String,
    /// The verdict the lab gets, pinned by the tests.
    pub expected: Verdict,
    /// The mechanism behind the result; the suspected cause where it is not
    /// reproduced.
    #[serde(default)]
    pub explanation: String,
    /// Ids of the file's ablations that test the explanation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ablations: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum PaperValue {
    Number(f64),
    Text(String),
}

impl fmt::Display for PaperValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PaperValue::Number(x) => write!(f, "{}", fmt_number(*x)),
            PaperValue::Text(t) => f.write_str(t),
        }
    }
}

/// How close the measurement must come: within a relative or absolute
/// distance of the paper's number, or on one side of a value or of another
/// metric (a direction).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Tolerance {
    /// |measured / paper − 1| ≤ r.
    Relative(f64),
    /// |measured − paper| ≤ a.
    Absolute(f64),
    LessThan(Operand),
    GreaterThan(Operand),
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(untagged)]
pub enum Operand {
    Value(f64),
    /// A metric, in the syntax of [`Claim::metric`].
    Metric(String),
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The paper's value or relation holds across the 95 % interval.
    Reproduced,
    /// It fails across the interval.
    Diverges,
    /// The interval straddles the edge.
    Inconclusive,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Diverges => "diverges",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// A problem in a reproduction file, located by its field path.
#[derive(Clone, Debug, PartialEq)]
pub struct ReproductionError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ReproductionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ReproductionError {}

fn error(path: impl Into<String>, message: impl Into<String>) -> ReproductionError {
    ReproductionError { path: path.into(), message: message.into() }
}

/// Which run a metric path reads: the main run or the i-th compare run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Main,
    Compare(usize),
}

/// One path into a summary: `flows[3].goodput_bps` as keys and indices.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct PathRef {
    side: Side,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
enum Expr {
    Path(PathRef),
    Ratio(PathRef, PathRef),
}

impl Expr {
    fn sides(&self) -> Vec<Side> {
        match self {
            Expr::Path(p) => vec![p.side],
            Expr::Ratio(a, b) => vec![a.side, b.side],
        }
    }
}

/// `compare:rest` → (Compare(0), rest), `compare[i]:rest` → (Compare(i), rest), else (Main, text).
fn split_side(text: &str) -> Result<(Side, &str), String> {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("compare:") {
        return Ok((Side::Compare(0), rest.trim()));
    }
    if let Some(rest) = text.strip_prefix("compare[") {
        let (index, rest) = rest.split_once("]:").ok_or_else(|| format!("`{text}`: expected compare[i]:path"))?;
        let index = index.parse().map_err(|_| format!("`{text}`: `{index}` is not an index"))?;
        return Ok((Side::Compare(index), rest.trim()));
    }
    Ok((Side::Main, text))
}

fn parse_steps(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for part in text.split('.') {
        let (name, mut indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!("`{text}` is not a path like flows[0].goodput_bps"));
        }
        steps.push(Step::Key(name.to_string()));
        while !indices.is_empty() {
            let close = indices.find(']').ok_or_else(|| format!("`{text}`: unclosed ["))?;
            let index =
                indices[1..close].parse().map_err(|_| format!("`{text}`: `{}` is not an index", &indices[1..close]))?;
            steps.push(Step::Index(index));
            indices = &indices[close + 1..];
            if !indices.is_empty() && !indices.starts_with('[') {
                return Err(format!("`{text}` is not a path like flows[0].goodput_bps"));
            }
        }
    }
    Ok(steps)
}

fn parse_path(text: &str) -> Result<PathRef, String> {
    let (side, rest) = split_side(text)?;
    Ok(PathRef { side, steps: parse_steps(rest)? })
}

fn parse_expr(text: &str) -> Result<Expr, String> {
    match text.split_once('/') {
        Some((a, b)) => Ok(Expr::Ratio(parse_path(a)?, parse_path(b)?)),
        None => Ok(Expr::Path(parse_path(text)?)),
    }
}

/// Set the field at `steps` of a scenario document, creating absent keys.
fn set_field(doc: &mut Value, steps: &[Step], value: Value) -> Result<(), String> {
    let mut at = doc;
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        at = match step {
            Step::Key(k) => {
                let obj = at.as_object_mut().ok_or("not an object there")?;
                // A missing object on the way (a queue without `params`) is made; the
                // scenario's own validation refuses a key it does not know.
                let absent = if last { Value::Null } else { Value::Object(serde_json::Map::new()) };
                obj.entry(k.clone()).or_insert(absent)
            }
            Step::Index(n) => at.as_array_mut().and_then(|a| a.get_mut(*n)).ok_or("no such element in the scenario")?,
        };
    }
    *at = value;
    Ok(())
}

/// Which runs an ablation key sets: `main:`, `compare:` (all), `compare[i]:`, or none (all runs).
fn ablation_key(key: &str) -> Result<(Option<Side>, bool, Vec<Step>), String> {
    if let Some(rest) = key.strip_prefix("main:") {
        return Ok((Some(Side::Main), false, parse_steps(rest.trim())?));
    }
    if let Some(rest) = key.strip_prefix("compare:") {
        return Ok((None, true, parse_steps(rest.trim())?));
    }
    let (side, rest) = split_side(key)?;
    let only = if side == Side::Main { None } else { Some(side) };
    Ok((only, false, parse_steps(rest)?))
}

/// One run of a reproduction: which side, which ablation (none for the
/// runs the claims are judged on) and which seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RunKey {
    pub side: Side,
    /// Index into the file's `ablations`.
    pub ablation: Option<usize>,
    pub seed: u64,
}

impl Reproduction {
    /// Parse and check a reproduction file; errors name the field.
    pub fn from_json(text: &str) -> Result<Reproduction, ReproductionError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let repro: Reproduction = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            error(if path == "." { String::new() } else { path }, e.into_inner().to_string())
        })?;
        repro.check()?;
        Ok(repro)
    }

    pub fn compares(&self) -> &[CompareWith] {
        self.compare.as_ref().map_or(&[], Compare::runs)
    }

    pub fn seed_count(&self) -> u64 {
        self.seeds.unwrap_or(DEFAULT_SEEDS)
    }

    fn check(&self) -> Result<(), ReproductionError> {
        if self.queue_source.trim().is_empty() {
            return Err(error(
                "queue_source",
                "say where the paper gives the scheme's parameters, or that it gives none",
            ));
        }
        for (i, c) in self.compares().iter().enumerate() {
            let path =
                if matches!(self.compare, Some(Compare::Many(_))) { format!("compare[{i}]") } else { "compare".into() };
            if find_scheme(&c.scheme).is_none() {
                return Err(error(format!("{path}.scheme"), format!("`{}` is not a queue scheme", c.scheme)));
            }
            if c.source.trim().is_empty() {
                return Err(error(
                    format!("{path}.source"),
                    "say where the paper gives these parameters, or that it gives none",
                ));
            }
        }
        if !SEED_RANGE.contains(&self.seed_count()) {
            return Err(error("seeds", format!("must be {} to {}", SEED_RANGE.start(), SEED_RANGE.end())));
        }
        for (i, a) in self.ablations.iter().enumerate() {
            if self.ablations[..i].iter().any(|b| b.id == a.id) {
                return Err(error(format!("ablations[{i}].id"), format!("`{}` is used twice", a.id)));
            }
            // Every ablation is run on every seed: one no claim reads only costs time.
            if !self.claims.iter().any(|c| c.ablations.contains(&a.id)) {
                return Err(error(format!("ablations[{i}].id"), format!("no claim uses `{}`", a.id)));
            }
            for key in a.set.keys() {
                let (side, _, _) = ablation_key(key).map_err(|m| error(format!("ablations[{i}].set"), m))?;
                self.check_side(side.unwrap_or(Side::Main), &format!("ablations[{i}].set"))?;
            }
        }
        for field in self.set.keys() {
            parse_steps(field).map_err(|m| error(format!("set.{field}"), m))?;
        }
        if self.claims.is_empty() {
            return Err(error("claims", "a reproduction needs at least one claim"));
        }
        for (i, claim) in self.claims.iter().enumerate() {
            if self.claims[..i].iter().any(|c| c.id == claim.id) {
                return Err(error(format!("claims[{i}].id"), format!("`{}` is used twice", claim.id)));
            }
            self.check_claim(i, claim)?;
        }
        for (i, figure) in self.figures.iter().enumerate() {
            if self.figures[..i].iter().any(|f| f.id == figure.id) {
                return Err(error(format!("figures[{i}].id"), format!("`{}` is used twice", figure.id)));
            }
            figure.check(i)?;
        }
        Ok(())
    }

    /// The figure with this id.
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    fn check_side(&self, side: Side, path: &str) -> Result<(), ReproductionError> {
        match side {
            Side::Compare(k) if k >= self.compares().len() => {
                Err(error(path, format!("reads compare run {k} but the file has {}", self.compares().len())))
            }
            _ => Ok(()),
        }
    }

    fn check_claim(&self, i: usize, claim: &Claim) -> Result<(), ReproductionError> {
        let at = |field: &str| format!("claims[{i}].{field}");
        if claim.paper_source.trim().is_empty() {
            return Err(error(at("paper_source"), "say where the value comes from (or that our copy has none)"));
        }
        let mut exprs = vec![(at("metric"), parse_expr(&claim.metric).map_err(|m| error(at("metric"), m))?)];
        match &claim.tolerance {
            Tolerance::Relative(r) | Tolerance::Absolute(r) => {
                if !(r.is_finite() && *r >= 0.0) {
                    return Err(error(at("tolerance"), format!("must be a number ≥ 0, got {r}")));
                }
                if !matches!(claim.paper_value, PaperValue::Number(_)) {
                    return Err(error(at("paper_value"), "a relative or absolute tolerance needs a number here"));
                }
                if claim.tolerance_basis.trim().is_empty() {
                    return Err(error(at("tolerance_basis"), "say in a sentence why the tolerance is this wide"));
                }
            }
            Tolerance::LessThan(Operand::Metric(m)) | Tolerance::GreaterThan(Operand::Metric(m)) => {
                let path = at("tolerance");
                exprs.push((path.clone(), parse_expr(m).map_err(|msg| error(path, msg))?));
            }
            Tolerance::LessThan(Operand::Value(_)) | Tolerance::GreaterThan(Operand::Value(_)) => {}
        }
        for (path, expr) in &exprs {
            for side in expr.sides() {
                self.check_side(side, path)?;
            }
        }
        if claim.expected != Verdict::Reproduced {
            if claim.explanation.trim().is_empty() {
                return Err(error(at("explanation"), "a claim not reproduced needs its suspected cause"));
            }
            if claim.ablations.is_empty() {
                return Err(error(at("ablations"), "a claim not reproduced needs an ablation that tests its cause"));
            }
        }
        for (k, id) in claim.ablations.iter().enumerate() {
            if !self.ablations.iter().any(|a| &a.id == id) {
                return Err(error(format!("claims[{i}].ablations[{k}]"), format!("no ablation `{id}` in the file")));
            }
        }
        Ok(())
    }

    /// The main run's scenario JSON text (with `queue` applied), reading a
    /// file through `read` (a path relative to the repository root).
    pub fn scenario_text(
        &self,
        read: impl FnOnce(&str) -> Result<String, String>,
    ) -> Result<String, ReproductionError> {
        let mut v: Value = match &self.scenario {
            ScenarioSource::Path(p) => {
                let text = read(p).map_err(|m| error("scenario", m))?;
                serde_json::from_str(&text).map_err(|e| error("scenario", format!("{p}: {e}")))?
            }
            ScenarioSource::Inline(v) => v.clone(),
        };
        if !v.is_object() {
            return Err(error("scenario", "must be a scenario object"));
        }
        if let Some(queue) = &self.queue {
            v["queue"] = queue.clone();
        }
        for (field, value) in &self.set {
            let steps = parse_steps(field).map_err(|m| error(format!("set.{field}"), m))?;
            set_field(&mut v, &steps, value.clone()).map_err(|m| error(format!("set.{field}"), m))?;
        }
        Ok(v.to_string())
    }

    /// Every run the claims and their ablations need, in the order
    /// [`Reproduction::judge`] takes their summaries: for each ablation
    /// (none first), each seed, the main run then each compare run.
    pub fn runs(&self) -> Vec<RunKey> {
        let sides: Vec<Side> =
            std::iter::once(Side::Main).chain((0..self.compares().len()).map(Side::Compare)).collect();
        let mut keys = Vec::new();
        for ablation in std::iter::once(None).chain((0..self.ablations.len()).map(Some)) {
            for seed in sweep::seeds(self.seed_count()) {
                keys.extend(sides.iter().map(|&side| RunKey { side, ablation, seed }));
            }
        }
        keys
    }

    /// The scenario text of one run: the compare run's scheme and
    /// parameters, the ablation's fields and the seed applied to the main
    /// run's scenario.
    pub fn run_text(&self, scenario_text: &str, key: RunKey) -> Result<String, ReproductionError> {
        let mut v: Value = serde_json::from_str(scenario_text).map_err(|e| error("scenario", e.to_string()))?;
        if !v.is_object() {
            return Err(error("scenario", "must be a scenario object"));
        }
        if let Side::Compare(k) = key.side {
            let c = self.compares().get(k).ok_or_else(|| error("compare", format!("no compare run {k}")))?;
            let mut queue = serde_json::json!({ "scheme": c.scheme });
            if let Some(params) = &c.params {
                queue["params"] = Value::Object(params.clone());
            }
            v["queue"] = queue;
        }
        if let Some(a) = key.ablation {
            let ablation = self.ablations.get(a).ok_or_else(|| error("ablations", format!("no ablation {a}")))?;
            for (field, value) in &ablation.set {
                let (only, compares, steps) = ablation_key(field).map_err(|m| error("ablations", m))?;
                let applies = match (only, compares) {
                    (_, true) => key.side != Side::Main,
                    (Some(side), _) => side == key.side,
                    (None, _) => true,
                };
                if applies {
                    set_field(&mut v, &steps, value.clone())
                        .map_err(|m| error(format!("ablations[{a}].set.{field}"), m))?;
                }
            }
        }
        v["seed"] = Value::from(key.seed);
        Ok(v.to_string())
    }

    /// Run every run of [`Reproduction::runs`] on `jobs` threads and judge
    /// every claim.
    pub fn run(&self, scenario_text: &str, jobs: usize) -> Result<Vec<ClaimResult>, ReproductionError> {
        let mut variants = Vec::new();
        for key in self.runs() {
            let text = self.run_text(scenario_text, key)?;
            let scenario = crate::scenario::Scenario::from_json(&text).map_err(|e| error("scenario", e.to_string()))?;
            variants.push((0.0, key.seed, scenario));
        }
        let points = sweep::run_variants(variants, jobs, |_, _| {}).map_err(|e| error("scenario", e.to_string()))?;
        let summaries = points
            .into_iter()
            .map(|p| serde_json::to_value(p.summary).map_err(|e| error("", e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        self.judge(&summaries)
    }
}

/// A number as a person reads it: four significant digits (all digits of a
/// whole number), no trailing zeros, no exponent for everyday sizes.
pub fn fmt_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (3 - libm::floor(libm::log10(x.abs())) as i32).max(0) as usize;
    let text = format!("{x:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |op: &Operand| match op {
            Operand::Value(v) => fmt_number(*v),
            Operand::Metric(m) => m.clone(),
        };
        match self {
            Tolerance::Relative(r) => write!(f, "±{}%", fmt_number(r * 100.0)),
            Tolerance::Absolute(a) => write!(f, "±{}", fmt_number(*a)),
            Tolerance::LessThan(op) => write!(f, "< {}", side(op)),
            Tolerance::GreaterThan(op) => write!(f, "> {}", side(op)),
        }
    }
}

#[cfg(test)]
mod tests;
