//! Reproductions of the papers' claims (docs/scenario-format.md,
//! "Reproduction files"): a file in `reproductions/` pairs one scenario (and,
//! for a comparison, a second scheme run on it) with claims. A claim names
//! the paper's figure or table, a metric of the summary, the paper's value and
//! a tolerance or a direction committed with it, the verdict the lab gets
//! today (`expected`, pinned by the tests) and, for a divergence, why.
//!
//! [`Reproduction::judge`] is the one verdict function: `aqm-sim reproduce`
//! and the page (through the wasm binding `judgeReproduction`) both call it
//! on the summaries of their runs.

use crate::queue::find_scheme;
use crate::sim::{SeriesMode, Simulation};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

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
    /// A second run of the same scenario with only the scheme replaced (its
    /// catalogue defaults), as the page's compare mode runs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareWith>,
    pub claims: Vec<Claim>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ScenarioSource {
    Path(String),
    Inline(Value),
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CompareWith {
    pub scheme: String,
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
    /// The paper's number, or its words where it gives none.
    pub paper_value: PaperValue,
    pub tolerance: Tolerance,
    /// The verdict the lab gets, pinned by the tests.
    pub expected: Verdict,
    /// The mechanism behind the result; required for a divergence.
    #[serde(default)]
    pub explanation: String,
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
    Reproduced,
    Diverges,
}

/// One judged claim: what `aqm-sim reproduce --json` prints per row.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ClaimResult {
    pub paper: String,
    pub experiment: String,
    pub id: String,
    pub figure: String,
    pub claim: String,
    pub metric: String,
    pub paper_value: PaperValue,
    pub tolerance: Tolerance,
    /// Null when the summary has no value there (e.g. Jain's index of flows that all starved).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "number | null"))]
    pub measured: Option<f64>,
    /// The other side of a direction given as a metric.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "number | null"))]
    pub than: Option<f64>,
    pub verdict: Verdict,
    pub expected: Verdict,
    pub explanation: String,
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

/// Which run a metric path reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Run {
    Main,
    Compare,
}

/// One path into a summary: `flows[3].goodput_bps` as keys and indices.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct PathRef {
    run: Run,
    steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
enum Expr {
    Path(PathRef),
    Ratio(PathRef, PathRef),
}

fn parse_path(text: &str) -> Result<PathRef, String> {
    let text = text.trim();
    let (run, rest) = match text.strip_prefix("compare:") {
        Some(rest) => (Run::Compare, rest.trim()),
        None => (Run::Main, text),
    };
    let mut steps = Vec::new();
    for part in rest.split('.') {
        let (name, mut indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '_';
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!("`{text}` is not a summary path like flows[0].goodput_bps"));
        }
        steps.push(Step::Key(name.to_string()));
        while !indices.is_empty() {
            let close = indices.find(']').ok_or_else(|| format!("`{text}`: unclosed ["))?;
            let index =
                indices[1..close].parse().map_err(|_| format!("`{text}`: `{}` is not an index", &indices[1..close]))?;
            steps.push(Step::Index(index));
            indices = &indices[close + 1..];
            if !indices.is_empty() && !indices.starts_with('[') {
                return Err(format!("`{text}` is not a summary path like flows[0].goodput_bps"));
            }
        }
    }
    Ok(PathRef { run, steps })
}

fn parse_expr(text: &str) -> Result<Expr, String> {
    match text.split_once('/') {
        Some((a, b)) => Ok(Expr::Ratio(parse_path(a)?, parse_path(b)?)),
        None => Ok(Expr::Path(parse_path(text)?)),
    }
}

/// The value at `path`: Ok(None) for a null there, Err if the summary has no such field.
fn lookup(summary: &Value, path: &PathRef) -> Result<Option<f64>, String> {
    let mut at = summary;
    for step in &path.steps {
        at = match step {
            Step::Key(k) => at.get(k.as_str()),
            Step::Index(i) => at.get(*i),
        }
        .ok_or_else(|| "not in the summary".to_string())?;
    }
    match at {
        Value::Null => Ok(None),
        Value::Number(n) => Ok(n.as_f64()),
        _ => Err("not a number in the summary".to_string()),
    }
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

    fn check(&self) -> Result<(), ReproductionError> {
        if let Some(c) = &self.compare {
            if find_scheme(&c.scheme).is_none() {
                return Err(error("compare.scheme", format!("`{}` is not a queue scheme", c.scheme)));
            }
        }
        if self.claims.is_empty() {
            return Err(error("claims", "a reproduction needs at least one claim"));
        }
        for (i, claim) in self.claims.iter().enumerate() {
            let at = |field: &str| format!("claims[{i}].{field}");
            if self.claims[..i].iter().any(|c| c.id == claim.id) {
                return Err(error(at("id"), format!("`{}` is used twice", claim.id)));
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
                }
                Tolerance::LessThan(Operand::Metric(m)) | Tolerance::GreaterThan(Operand::Metric(m)) => {
                    let path = at("tolerance");
                    exprs.push((path.clone(), parse_expr(m).map_err(|msg| error(path, msg))?));
                }
                Tolerance::LessThan(Operand::Value(_)) | Tolerance::GreaterThan(Operand::Value(_)) => {}
            }
            let reads_compare = |e: &Expr| match e {
                Expr::Path(p) => p.run == Run::Compare,
                Expr::Ratio(a, b) => a.run == Run::Compare || b.run == Run::Compare,
            };
            if let Some((path, _)) = exprs.iter().find(|(_, e)| reads_compare(e)).filter(|_| self.compare.is_none()) {
                return Err(error(path.clone(), "reads `compare:` but the file has no compare run"));
            }
            if claim.expected == Verdict::Diverges && claim.explanation.trim().is_empty() {
                return Err(error(at("explanation"), "a divergence needs its explanation"));
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
        Ok(v.to_string())
    }

    /// The compare run's scenario: the same with only the scheme replaced.
    pub fn compare_text(&self, scenario_text: &str) -> Result<Option<String>, ReproductionError> {
        let Some(c) = &self.compare else { return Ok(None) };
        let mut v: Value = serde_json::from_str(scenario_text).map_err(|e| error("scenario", e.to_string()))?;
        if !v.is_object() {
            return Err(error("scenario", "must be a scenario object"));
        }
        v["queue"] = serde_json::json!({ "scheme": c.scheme });
        Ok(Some(v.to_string()))
    }

    /// Run the scenario (and the compare run) to the end and judge every claim.
    pub fn run(&self, scenario_text: &str) -> Result<Vec<ClaimResult>, ReproductionError> {
        let summarise = |text: &str| -> Result<Value, ReproductionError> {
            let mut sim =
                Simulation::from_json(text, SeriesMode::default()).map_err(|e| error("scenario", e.to_string()))?;
            sim.run();
            serde_json::to_value(sim.summary()).map_err(|e| error("", e.to_string()))
        };
        let main = summarise(scenario_text)?;
        let compare = self.compare_text(scenario_text)?.map(|t| summarise(&t)).transpose()?;
        self.judge(&main, compare.as_ref())
    }

    /// Judge every claim on the summaries (as JSON) of the main run and, if
    /// the file has one, the compare run.
    pub fn judge(&self, main: &Value, compare: Option<&Value>) -> Result<Vec<ClaimResult>, ReproductionError> {
        self.check()?;
        let eval = |expr: &Expr, field: &str| -> Result<Option<f64>, ReproductionError> {
            let read = |p: &PathRef| {
                let summary = match p.run {
                    Run::Main => main,
                    Run::Compare => compare.ok_or_else(|| error(field, "needs the compare run's summary"))?,
                };
                lookup(summary, p).map_err(|m| error(field, m))
            };
            Ok(match expr {
                Expr::Path(p) => read(p)?,
                Expr::Ratio(a, b) => match (read(a)?, read(b)?) {
                    (Some(x), Some(y)) if y != 0.0 => Some(x / y),
                    _ => None,
                },
            })
        };
        self.claims
            .iter()
            .enumerate()
            .map(|(i, claim)| {
                let field = format!("claims[{i}].metric");
                let measured = eval(&parse_expr(&claim.metric).map_err(|m| error(&field, m))?, &field)?;
                let than = match &claim.tolerance {
                    Tolerance::LessThan(Operand::Metric(m)) | Tolerance::GreaterThan(Operand::Metric(m)) => {
                        let field = format!("claims[{i}].tolerance");
                        eval(&parse_expr(m).map_err(|msg| error(&field, msg))?, &field)?
                    }
                    _ => None,
                };
                let holds = measured.is_some_and(|m| holds(&claim.tolerance, &claim.paper_value, m, than));
                Ok(ClaimResult {
                    paper: self.paper.clone(),
                    experiment: self.experiment.clone(),
                    id: claim.id.clone(),
                    figure: claim.figure.clone(),
                    claim: claim.claim.clone(),
                    metric: claim.metric.clone(),
                    paper_value: claim.paper_value.clone(),
                    tolerance: claim.tolerance.clone(),
                    measured,
                    than,
                    verdict: if holds { Verdict::Reproduced } else { Verdict::Diverges },
                    expected: claim.expected,
                    explanation: claim.explanation.clone(),
                })
            })
            .collect()
    }
}

/// Slack for floating-point rounding at the edge of a tolerance (11/10 − 1 > 0.1).
const ROUNDING: f64 = 1e-12;

/// Whether `measured` satisfies the tolerance around the paper's value
/// (`than` is the evaluated metric of a direction given as a metric).
fn holds(tolerance: &Tolerance, paper: &PaperValue, measured: f64, than: Option<f64>) -> bool {
    let paper = match paper {
        PaperValue::Number(p) => Some(*p),
        PaperValue::Text(_) => None,
    };
    let side = |op: &Operand| match op {
        Operand::Value(v) => Some(*v),
        Operand::Metric(_) => than,
    };
    match tolerance {
        Tolerance::Relative(r) => paper.is_some_and(|p| p != 0.0 && (measured / p - 1.0).abs() <= r + ROUNDING),
        Tolerance::Absolute(a) => paper.is_some_and(|p| (measured - p).abs() <= a + ROUNDING * p.abs().max(1.0)),
        Tolerance::LessThan(op) => side(op).is_some_and(|t| measured < t),
        Tolerance::GreaterThan(op) => side(op).is_some_and(|t| measured > t),
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
