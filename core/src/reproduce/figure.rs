//! A paper's figure as a sweep: the reproduction's scenario run with one
//! field (`x.path`) set to each x value, under each compared scheme with the
//! parameters its paper states, on seeds 1…n. [`Figure::runs`] lists the
//! runs, keyed (x, series, seed), and [`Figure::run_text`] gives each one's
//! scenario; [`Figure::result`] reads the metric from their summaries and
//! gives the mean and the 95 % Student-t interval per (x, series), beside the
//! values the paper's text states for the figure (its marks). `aqm-sim
//! reproduce --figure` and the page (through the wasm bindings
//! `figureRuns` and `figureResult`) call these same functions.

use super::judge::eval;
use super::stats::interval;
use super::{error, parse_expr, parse_steps, set_field, Expr, ReproductionError, Side, SEED_RANGE};
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

/// A figure's data, as the CLI prints it and the page draws it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
}

impl Figure {
    pub fn seed_count(&self) -> u64 {
        self.seeds.unwrap_or(DEFAULT_FIGURE_SEEDS)
    }

    /// Every run, x-major, then series, then seed: the order
    /// [`Figure::result`] takes the summaries in.
    pub fn runs(&self) -> Vec<FigureRun> {
        let mut runs = Vec::new();
        for x in 0..self.x.values.len() {
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
    /// summaries of [`Figure::runs`] in its order.
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
            let (x, series) = (self.x.values[run.x], &self.series[run.series].label);
            let mut values = Vec::new();
            for summary in chunk {
                values.extend(eval(&expr, &[summary], "y.metric")?);
            }
            let ci = (!values.is_empty()).then(|| interval(&values));
            let paper = self.marks.iter().find(|m| &m.series == series && m.x.is_none_or(|mx| mx == x)).map(|m| m.y);
            points.push(FigurePoint {
                x,
                series: series.clone(),
                seeds: values.len(),
                mean: ci.as_ref().map(|i| i.mean),
                ci_lo: ci.as_ref().map(|i| i.ci95[0]),
                ci_hi: ci.as_ref().map(|i| i.ci95[1]),
                paper,
            });
        }
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
        })
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
            Some(path) => drop(parse_steps(path).map_err(|m| error(at("x.path"), m))?),
            None if self.x.with.is_empty() => {
                return Err(error(at("x.path"), "a path, or `with` fields that move with x"))
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
        }
        Ok(())
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
