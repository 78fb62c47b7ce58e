//! A paper's figure as a sweep: the reproduction's scenario run with one
//! field (`x.path`) set to each x value, under each compared scheme with the
//! parameters its paper states, on seeds 1…n. [`Figure::runs`] lists the
//! runs, keyed (x, series, seed), and [`Figure::run_text`] gives each one's
//! scenario; [`Figure::result`] reads the metric from their summaries and
//! gives the mean and the 95 % Student-t interval per (x, series), beside the
//! values the paper's text states for the figure (its marks), and the
//! figure's verdict: each mark judged on the interval at its point as a
//! claim is ([`super::Verdict`]). A CDF figure (`y.cdf`) runs each series
//! once per seed and reads every x from the same summary's distribution.
//! An ablation series (`ablation`, with its own `set`) runs beside the
//! paper's to test a divergence's suspected cause. `aqm-sim
//! reproduce --figure` and the page (through the wasm bindings
//! `figureRuns` and `figureResult`) call these same functions.

use super::judge::{against_band, against_bound, eval};
use super::stats::interval;
use super::{error, parse_expr, parse_steps, set_field, Expr, ReproductionError, Side, Verdict, SEED_RANGE};
use crate::queue::find_scheme;
use crate::sim::sweep;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Seeds per point when a figure does not say.
pub const DEFAULT_FIGURE_SEEDS: u64 = 5;
/// The most x values a figure may sweep: a figure is a handful of runs per scheme.
pub const MAX_X_VALUES: usize = 10;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// Stable across versions: share links carry it (`bare-fig6`).
    pub id: String,
    pub title: String,
    /// Where the paper shows it: figure and section.
    pub source: String,
    /// Fields of the reproduction's scenario set for every run of the figure.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub set: Map<String, Value>,
    pub x: Axis,
    pub y: Measure,
    pub series: Vec<Series>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u64>,
    /// The values the paper's text states for this figure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
    /// What our copy says (or does not) beyond the marks: "no values in our
    /// copy" where its text states no number for the figure.
    pub marks_note: String,
    /// The verdict against the marks, pinned by the tests; absent for a
    /// figure without marks, which has nothing to be judged on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Verdict>,
    /// Where not reproduced: the suspected cause, and what the ablation
    /// series show of it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub explanation: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// The scenario path x is written to (`flows[0].count`); absent when x
    /// only labels the runs and `with` sets their fields (x = all flows,
    /// `with` sets the TCP and CBR counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub values: Vec<f64>,
    pub label: String,
    /// Other fields that move with x: path → one value per x value (the CBR
    /// flows' count and rate when x is the number of flows).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown[]>"))]
    pub with: Map<String, Value>,
    /// Draw x on a log scale.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Measure {
    /// A summary path or a ratio of two, as a claim's metric (main run only).
    pub metric: String,
    pub label: String,
    /// The metric is a distribution (a list of buckets with `to_s` and
    /// `percent`, as `web.fct_buckets`) and y at x is the share of it at or
    /// below x: a CDF, each x one of the buckets' upper edges.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cdf: bool,
}

/// One curve: a scheme with the parameters its paper gives it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// Unique within the figure; marks name it.
    pub label: String,
    pub scheme: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
    /// Where the paper states the parameters, or that it gives none and the
    /// catalogue's defaults run.
    pub source: String,
    /// Fields set for this series' runs only, after the figure's `set`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub set: Map<String, Value>,
    /// For an ablation series: what it changes from the paper's setting and
    /// which cause it tests. Empty for the paper's series.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ablation: String,
}

/// How near a mark the interval at its point must lie: within a relative or
/// absolute distance of the mark's y, or above or below it (a bound, where
/// the text states one: "over 99.99 %", "within 0.1").
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MarkTolerance {
    Relative(f64),
    Absolute(f64),
    Above,
    Below,
}

/// An ablation series of a figure's result and what it changes.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SeriesAblation {
    pub series: String,
    pub change: String,
}

/// A value the paper's text states for the figure, drawn as a mark.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// The series' label.
    pub series: String,
    /// One of the figure's x values; absent when the text states the value
    /// for the figure as a whole (drawn as a level across it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    pub y: f64,
    /// The sentence of our copy that states it.
    pub quote: String,
    /// How we turned the sentence into (x, y), where it is not a plain number.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub derived: String,
    pub tolerance: MarkTolerance,
    /// Why a relative or absolute tolerance is this wide, in one sentence.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tolerance_basis: String,
}

/// One run of a figure: indices into `x.values` and `series`, and the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FigureRun {
    pub x: usize,
    pub series: usize,
    pub seed: u64,
}

/// The metric at one (x, series) over the seeds.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FigurePoint {
    pub x: f64,
    pub series: String,
    /// Seeds whose summary had the metric (a ratio over a zero has none).
    pub seeds: usize,
    pub mean: Option<f64>,
    pub ci_lo: Option<f64>,
    pub ci_hi: Option<f64>,
    /// The paper's stated value here, if a mark gives one (a mark without x
    /// gives it at every x).
    pub paper: Option<f64>,
}

/// The README's figure tally: how many figures get each verdict against
/// their marks, and how many have no marks to be judged on.
pub fn figure_tally(verdicts: &[Option<Verdict>]) -> String {
    let count = |v: Option<Verdict>| verdicts.iter().filter(|&&f| f == v).count();
    format!(
        "{} reproduced, {} diverge, {} inconclusive, {} without stated values, of {} figures",
        count(Some(Verdict::Reproduced)),
        count(Some(Verdict::Diverges)),
        count(Some(Verdict::Inconclusive)),
        count(None),
        verdicts.len()
    )
}

/// A figure's data, as the CLI prints it and the page draws it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FigureResult {
    pub id: String,
    pub title: String,
    pub source: String,
    pub x: Axis,
    pub y: Measure,
    pub series: Vec<String>,
    pub seeds: u64,
    pub points: Vec<FigurePoint>,
    pub marks: Vec<Mark>,
    pub marks_note: String,
    /// Each mark's verdict, in the order of `marks`.
    pub mark_verdicts: Vec<Verdict>,
    /// The figure's verdict: diverges if a mark diverges, else inconclusive
    /// if one is, else reproduced; null without marks.
    pub verdict: Option<Verdict>,
    pub expected: Option<Verdict>,
    pub explanation: String,
    pub ablations: Vec<SeriesAblation>,
}

impl Figure {
    pub fn seed_count(&self) -> u64 {
        self.seeds.unwrap_or(DEFAULT_FIGURE_SEEDS)
    }

    /// Every run, x-major, then series, then seed: the order
    /// [`Figure::result`] takes the summaries in. A CDF figure runs each
    /// series once per seed (x 0): every x is read from the same summaries.
    pub fn runs(&self) -> Vec<FigureRun> {
        let mut runs = Vec::new();
        let xs = if self.y.cdf { 1 } else { self.x.values.len() };
        for x in 0..xs {
            for series in 0..self.series.len() {
                runs.extend(sweep::seeds(self.seed_count()).into_iter().map(|seed| FigureRun { x, series, seed }));
            }
        }
        runs
    }

    /// The scenario text of one run: the series' scheme and parameters, then
    /// the figure's `set`, x and the fields that move with it, and the seed,
    /// applied to the reproduction's scenario text.
    pub fn run_text(&self, scenario_text: &str, run: FigureRun) -> Result<String, ReproductionError> {
        let at = |field: String| move |m: String| error(field.clone(), m);
        let mut v: Value = serde_json::from_str(scenario_text).map_err(|e| error("scenario", e.to_string()))?;
        if !v.is_object() {
            return Err(error("scenario", "must be a scenario object"));
        }
        // The scheme first, so x may sweep one of its parameters (`queue.params.max_p`).
        let series = self.series.get(run.series).ok_or_else(|| error("series", format!("no series {}", run.series)))?;
        let mut queue = serde_json::json!({ "scheme": series.scheme });
        if let Some(params) = &series.params {
            queue["params"] = Value::Object(params.clone());
        }
        v["queue"] = queue;
        for (field, value) in &self.set {
            let steps = parse_steps(field).map_err(at(format!("set.{field}")))?;
            set_field(&mut v, &steps, value.clone()).map_err(at(format!("set.{field}")))?;
        }
        for (field, value) in &series.set {
            let name = format!("series[{}].set.{field}", run.series);
            let steps = parse_steps(field).map_err(at(name.clone()))?;
            set_field(&mut v, &steps, value.clone()).map_err(at(name))?;
        }
        let x = *self.x.values.get(run.x).ok_or_else(|| error("x.values", format!("no x value {}", run.x)))?;
        if let Some(path) = &self.x.path {
            let steps = parse_steps(path).map_err(at("x.path".into()))?;
            set_field(&mut v, &steps, number(x)).map_err(at("x.path".into()))?;
        }
        for (field, values) in &self.x.with {
            let value = values.get(run.x).cloned().ok_or_else(|| error(format!("x.with.{field}"), "too few values"))?;
            let steps = parse_steps(field).map_err(at(format!("x.with.{field}")))?;
            set_field(&mut v, &steps, value).map_err(at(format!("x.with.{field}")))?;
        }
        v["seed"] = Value::from(run.seed);
        Ok(v.to_string())
    }

    /// The metric's mean and 95 % interval per (x, series), from the
    /// summaries of [`Figure::runs`] in its order, and the verdict on the marks.
    pub fn result(&self, summaries: &[Value]) -> Result<FigureResult, ReproductionError> {
        let runs = self.runs();
        if summaries.len() != runs.len() {
            return Err(error("", format!("{} summaries for {} runs", summaries.len(), runs.len())));
        }
        let expr = parse_expr(&self.y.metric).map_err(|m| error("y.metric", m))?;
        let per_point = self.seed_count() as usize;
        let mut points = Vec::new();
        for (k, chunk) in summaries.chunks(per_point).enumerate() {
            let run = runs[k * per_point];
            let series = &self.series[run.series].label;
            let xs = if self.y.cdf { self.x.values.clone() } else { vec![self.x.values[run.x]] };
            for x in xs {
                let mut values = Vec::new();
                for summary in chunk {
                    values.push(if self.y.cdf {
                        share_at_or_below(summary, &expr, x)?
                    } else {
                        eval(&expr, &[summary], "y.metric")?
                    });
                }
                points.push(self.point(x, series, values.into_iter().flatten().collect()));
            }
        }
        if self.y.cdf {
            // x-major, as the other figures' points.
            points.sort_by(|a, b| a.x.total_cmp(&b.x));
        }
        let mark_verdicts: Vec<Verdict> = self.marks.iter().map(|m| mark_verdict(m, &points)).collect();
        Ok(FigureResult {
            id: self.id.clone(),
            title: self.title.clone(),
            source: self.source.clone(),
            x: self.x.clone(),
            y: self.y.clone(),
            series: self.series.iter().map(|s| s.label.clone()).collect(),
            seeds: self.seed_count(),
            points,
            marks: self.marks.clone(),
            marks_note: self.marks_note.clone(),
            verdict: figure_verdict(&mark_verdicts),
            mark_verdicts,
            expected: self.expected,
            explanation: self.explanation.clone(),
            ablations: self
                .series
                .iter()
                .filter(|s| !s.ablation.is_empty())
                .map(|s| SeriesAblation { series: s.label.clone(), change: s.ablation.clone() })
                .collect(),
        })
    }

    fn point(&self, x: f64, series: &str, values: Vec<f64>) -> FigurePoint {
        let ci = (!values.is_empty()).then(|| interval(&values));
        let paper = self.marks.iter().find(|m| m.series == series && m.x.is_none_or(|mx| mx == x)).map(|m| m.y);
        FigurePoint {
            x,
            series: series.to_string(),
            seeds: values.len(),
            mean: ci.as_ref().map(|i| i.mean),
            ci_lo: ci.as_ref().map(|i| i.ci95[0]),
            ci_hi: ci.as_ref().map(|i| i.ci95[1]),
            paper,
        }
    }

    /// Check the figure; errors name the field under `figures[i]`.
    pub(super) fn check(&self, i: usize) -> Result<(), ReproductionError> {
        let at = |field: &str| format!("figures[{i}].{field}");
        let valid_id = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
        if self.id.is_empty() || !self.id.chars().all(valid_id) {
            return Err(error(at("id"), "lower-case letters, digits and hyphens (share links carry it)"));
        }
        for (field, text) in [("title", &self.title), ("source", &self.source), ("x.label", &self.x.label)] {
            if text.trim().is_empty() {
                return Err(error(at(field), "must not be empty"));
            }
        }
        if !SEED_RANGE.contains(&self.seed_count()) {
            return Err(error(at("seeds"), format!("must be {} to {}", SEED_RANGE.start(), SEED_RANGE.end())));
        }
        if self.x.values.is_empty() || self.x.values.len() > MAX_X_VALUES {
            return Err(error(at("x.values"), format!("1 to {MAX_X_VALUES} values")));
        }
        if self.x.values.iter().any(|x| !x.is_finite() || (self.x.log && *x <= 0.0)) {
            return Err(error(at("x.values"), "finite numbers (positive on a log axis)"));
        }
        match &self.x.path {
            Some(_) if self.y.cdf => {
                return Err(error(at("x.path"), "none on a CDF: x is where the distribution is read"))
            }
            Some(path) => drop(parse_steps(path).map_err(|m| error(at("x.path"), m))?),
            None if self.x.with.is_empty() && !self.y.cdf => {
                return Err(error(at("x.path"), "a path, or `with` fields that move with x"))
            }
            None if self.y.cdf && !self.x.with.is_empty() => {
                return Err(error(at("x.with"), "none on a CDF: every x is read from the same runs"))
            }
            None => {}
        }
        for (field, values) in &self.x.with {
            parse_steps(field).map_err(|m| error(at(&format!("x.with.{field}")), m))?;
            if values.as_array().map(Vec::len) != Some(self.x.values.len()) {
                return Err(error(at(&format!("x.with.{field}")), "one value per x value"));
            }
        }
        for field in self.set.keys() {
            parse_steps(field).map_err(|m| error(at(&format!("set.{field}")), m))?;
        }
        let expr = parse_expr(&self.y.metric).map_err(|m| error(at("y.metric"), m))?;
        if matches!(&expr, Expr::Path(p) if p.side != Side::Main)
            || matches!(&expr, Expr::Ratio(a, b) if a.side != Side::Main || b.side != Side::Main)
        {
            return Err(error(at("y.metric"), "a figure reads each run's own summary: no compare:"));
        }
        if self.y.cdf && !matches!(expr, Expr::Path(_)) {
            return Err(error(at("y.metric"), "a CDF reads one list of buckets, not a ratio"));
        }
        self.check_verdict(i)?;
        self.check_series(i)?;
        self.check_marks(i)
    }

    fn check_series(&self, i: usize) -> Result<(), ReproductionError> {
        if self.series.is_empty() {
            return Err(error(format!("figures[{i}].series"), "at least one scheme"));
        }
        for (k, s) in self.series.iter().enumerate() {
            let at = |field: &str| format!("figures[{i}].series[{k}].{field}");
            if s.label.trim().is_empty() || self.series[..k].iter().any(|t| t.label == s.label) {
                return Err(error(at("label"), format!("`{}`: a label not used by another series", s.label)));
            }
            if find_scheme(&s.scheme).is_none() {
                return Err(error(at("scheme"), format!("`{}` is not a queue scheme", s.scheme)));
            }
            if s.source.trim().is_empty() {
                return Err(error(at("source"), "say where the paper gives these parameters, or that it gives none"));
            }
            for field in s.set.keys() {
                parse_steps(field).map_err(|m| error(at(&format!("set.{field}")), m))?;
            }
            if !s.set.is_empty() && s.ablation.trim().is_empty() {
                return Err(error(at("ablation"), "a series that sets fields is an ablation: say what it changes"));
            }
        }
        Ok(())
    }

    /// A verdict is pinned exactly when there are marks to judge; one that
    /// is not reproduced names its suspected cause and an ablation series
    /// that tests it.
    fn check_verdict(&self, i: usize) -> Result<(), ReproductionError> {
        let at = |field: &str| format!("figures[{i}].{field}");
        match (self.expected, self.marks.is_empty()) {
            (None, false) => Err(error(at("expected"), "the verdict against the marks, pinned by the tests")),
            (Some(_), true) => Err(error(at("expected"), "no marks to judge: leave it out")),
            (Some(Verdict::Diverges | Verdict::Inconclusive), _) if self.explanation.trim().is_empty() => {
                Err(error(at("explanation"), "name the suspected cause of the divergence"))
            }
            (Some(Verdict::Diverges | Verdict::Inconclusive), _)
                if self.series.iter().all(|s| s.ablation.is_empty()) =>
            {
                Err(error(at("series"), "an ablation series that tests the suspected cause"))
            }
            _ => Ok(()),
        }
    }

    fn check_marks(&self, i: usize) -> Result<(), ReproductionError> {
        if self.marks_note.trim().is_empty() {
            return Err(error(
                format!("figures[{i}].marks_note"),
                "say what our copy states for the figure (\"no values in our copy\" where it states none)",
            ));
        }
        for (k, m) in self.marks.iter().enumerate() {
            let at = |field: &str| format!("figures[{i}].marks[{k}].{field}");
            if !self.series.iter().any(|s| s.label == m.series) {
                return Err(error(at("series"), format!("no series `{}` in the figure", m.series)));
            }
            if let Some(x) = m.x.filter(|x| !self.x.values.contains(x)) {
                return Err(error(at("x"), format!("{x} is not one of the figure's x values")));
            }
            if !m.y.is_finite() {
                return Err(error(at("y"), "must be a number"));
            }
            if m.quote.trim().is_empty() {
                return Err(error(at("quote"), "the sentence of our copy that states the value"));
            }
            let width = match m.tolerance {
                MarkTolerance::Relative(w) | MarkTolerance::Absolute(w) => Some(w),
                MarkTolerance::Above | MarkTolerance::Below => None,
            };
            if width.is_some_and(|w| !(w.is_finite() && w >= 0.0)) {
                return Err(error(at("tolerance"), "a width of 0 or more"));
            }
            if width.is_some() && m.tolerance_basis.trim().is_empty() {
                return Err(error(at("tolerance_basis"), "say in one sentence why the tolerance is this wide"));
            }
            if self.series.iter().any(|s| s.label == m.series && !s.ablation.is_empty()) {
                return Err(error(at("series"), "marks are the paper's: not on an ablation series"));
            }
        }
        Ok(())
    }
}

/// A whole x as an integer, so it fits a count field (`flows[0].count`).
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// The share (0…1) of the distribution at `expr` that lies at or below x:
/// the buckets whose upper edge `to_s` is at most x. x must be an edge.
fn share_at_or_below(summary: &Value, expr: &Expr, x: f64) -> Result<Option<f64>, ReproductionError> {
    let Expr::Path(path) = expr else { return Err(error("y.metric", "a CDF reads one path, not a ratio")) };
    let buckets = path
        .steps
        .iter()
        .try_fold(summary, |at, step| match step {
            super::Step::Key(k) => at.get(k.as_str()),
            super::Step::Index(i) => at.get(*i),
        })
        .and_then(Value::as_array)
        .ok_or_else(|| error("y.metric", "not a list of buckets in the summary"))?;
    let edge = |b: &Value| b.get("to_s").and_then(Value::as_f64);
    let close = |a: f64| (a - x).abs() <= 1e-9 * x.abs().max(1.0);
    if !buckets.iter().any(|b| edge(b).is_some_and(close)) {
        let edges: Vec<String> = buckets.iter().filter_map(edge).map(|e| e.to_string()).collect();
        return Err(error("x.values", format!("{x} is not an upper edge of the buckets ({})", edges.join(", "))));
    }
    let percent: f64 = buckets
        .iter()
        .filter(|b| edge(b).is_some_and(|e| e <= x || close(e)))
        .filter_map(|b| b.get("percent").and_then(Value::as_f64))
        .sum();
    Ok(Some(percent / 100.0))
}

/// A mark judged on the interval at its point (at every x for a mark
/// without x: the worst of them); no measurement there diverges.
fn mark_verdict(mark: &Mark, points: &[FigurePoint]) -> Verdict {
    let at = points.iter().filter(|p| p.series == mark.series && mark.x.is_none_or(|x| x == p.x));
    figure_verdict(
        &at.map(|p| match (p.ci_lo, p.ci_hi) {
            (Some(lo), Some(hi)) => match mark.tolerance {
                MarkTolerance::Relative(r) => {
                    let (a, b) = (mark.y * (1.0 - r), mark.y * (1.0 + r));
                    against_band([lo, hi], [a.min(b), a.max(b)])
                }
                MarkTolerance::Absolute(a) => against_band([lo, hi], [mark.y - a, mark.y + a]),
                MarkTolerance::Above => against_bound([lo, hi], mark.y, false),
                MarkTolerance::Below => against_bound([lo, hi], mark.y, true),
            },
            _ => Verdict::Diverges,
        })
        .collect::<Vec<_>>(),
    )
    .unwrap_or(Verdict::Diverges)
}

/// Diverges if any diverges, else inconclusive if any is, else reproduced; None for none.
fn figure_verdict(verdicts: &[Verdict]) -> Option<Verdict> {
    let any = |v: Verdict| verdicts.contains(&v);
    match verdicts {
        [] => None,
        _ if any(Verdict::Diverges) => Some(Verdict::Diverges),
        _ if any(Verdict::Inconclusive) => Some(Verdict::Inconclusive),
        _ => Some(Verdict::Reproduced),
    }
}

impl FigureResult {
    /// CSV with the columns `x,scheme,mean,ci_lo,ci_hi,paper` (an empty
    /// field where there is no value).
    pub fn csv(&self) -> String {
        let cell = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
        let quote = |s: &str| if s.contains([',', '"']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.into() };
        let mut out = String::from("x,scheme,mean,ci_lo,ci_hi,paper\n");
        for p in &self.points {
            out += &format!(
                "{},{},{},{},{},{}\n",
                p.x,
                quote(&p.series),
                cell(p.mean),
                cell(p.ci_lo),
                cell(p.ci_hi),
                cell(p.paper)
            );
        }
        out
    }
}
