//! The verdict on a claim from its metric over seeds: each seed's summaries
//! give one value (and, for a relation with another metric, one paired
//! difference); the 95 % interval of those values against the paper's value
//! or the relation gives the verdict.

use super::stats::{interval, Interval};
use super::{error, parse_expr, Claim, Expr, Operand, PaperValue, PathRef, Reproduction, ReproductionError};
use super::{RunKey, Side, Step, Tolerance, Verdict};
use serde::Serialize;
use serde_json::Value;

/// One judged claim: what `aqm-sim reproduce --json` prints per row.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct ClaimResult {
    pub paper: String,
    pub experiment: String,
    pub id: String,
    pub figure: String,
    pub claim: String,
    pub metric: String,
    pub paper_value: PaperValue,
    pub paper_source: String,
    pub tolerance: Tolerance,
    pub tolerance_basis: String,
    pub seeds: usize,
    /// The metric's mean over the seeds; null when a seed's summary has no
    /// value there (e.g. a ratio over a flow that got nothing).
    pub mean: Option<f64>,
    pub std_dev: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    /// The other side of a relation given as a metric: its mean.
    pub than: Option<f64>,
    /// For a relation with a metric: metric − other side, paired per seed;
    /// the verdict is read from its interval.
    pub difference: Option<Interval>,
    pub verdict: Verdict,
    pub expected: Verdict,
    pub explanation: String,
    /// The claim's ablations: the same judgement on the varied runs.
    pub ablations: Vec<AblationResult>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct AblationResult {
    pub id: String,
    pub change: String,
    pub mean: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    pub difference: Option<Interval>,
    pub verdict: Verdict,
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

/// A metric's value in one seed's summaries (main run, then compare runs).
pub(super) fn eval(expr: &Expr, runs: &[&Value], field: &str) -> Result<Option<f64>, ReproductionError> {
    let read = |p: &PathRef| {
        let index = match p.side {
            Side::Main => 0,
            Side::Compare(k) => k + 1,
        };
        let summary = runs.get(index).ok_or_else(|| error(field, "needs a compare run's summary"))?;
        lookup(summary, p).map_err(|m| error(field, m))
    };
    Ok(match expr {
        Expr::Path(p) => read(p)?,
        Expr::Ratio(a, b) => match (read(a)?, read(b)?) {
            (Some(x), Some(y)) if y != 0.0 => Some(x / y),
            _ => None,
        },
    })
}

/// Slack for floating-point rounding at the edge of a tolerance (11/10 − 1 > 0.1).
const ROUNDING: f64 = 1e-12;

/// Where [lo, hi] lies against the band the paper's value allows.
pub(super) fn against_band(ci: [f64; 2], band: [f64; 2]) -> Verdict {
    let slack = ROUNDING * band[0].abs().max(band[1].abs()).max(1.0);
    if ci[0] >= band[0] - slack && ci[1] <= band[1] + slack {
        Verdict::Reproduced
    } else if ci[1] < band[0] - slack || ci[0] > band[1] + slack {
        Verdict::Diverges
    } else {
        Verdict::Inconclusive
    }
}

/// Where [lo, hi] lies against a strict bound: below `bound` (`below`) or above it.
pub(super) fn against_bound(ci: [f64; 2], bound: f64, below: bool) -> Verdict {
    let (inside, outside) = if below { (ci[1] < bound, ci[0] >= bound) } else { (ci[0] > bound, ci[1] <= bound) };
    match (inside, outside) {
        (true, _) => Verdict::Reproduced,
        (_, true) => Verdict::Diverges,
        _ => Verdict::Inconclusive,
    }
}

/// The verdict from the metric's interval (or the paired difference's, for a relation with a metric).
fn verdict(claim: &Claim, metric: Option<&Interval>, difference: Option<&Interval>) -> Verdict {
    let paper = match claim.paper_value {
        PaperValue::Number(p) => p,
        PaperValue::Text(_) => return verdict_of_relation(&claim.tolerance, metric, difference),
    };
    let Some(m) = metric else { return Verdict::Diverges };
    match &claim.tolerance {
        Tolerance::Relative(r) => {
            let (a, b) = (paper * (1.0 - r), paper * (1.0 + r));
            against_band(m.ci95, [a.min(b), a.max(b)])
        }
        Tolerance::Absolute(a) => against_band(m.ci95, [paper - a, paper + a]),
        _ => verdict_of_relation(&claim.tolerance, metric, difference),
    }
}

fn verdict_of_relation(tolerance: &Tolerance, metric: Option<&Interval>, difference: Option<&Interval>) -> Verdict {
    match (tolerance, metric, difference) {
        (Tolerance::LessThan(Operand::Value(v)), Some(m), _) => against_bound(m.ci95, *v, true),
        (Tolerance::GreaterThan(Operand::Value(v)), Some(m), _) => against_bound(m.ci95, *v, false),
        (Tolerance::LessThan(Operand::Metric(_)), _, Some(d)) => against_bound(d.ci95, 0.0, true),
        (Tolerance::GreaterThan(Operand::Metric(_)), _, Some(d)) => against_bound(d.ci95, 0.0, false),
        _ => Verdict::Diverges,
    }
}

/// Metric and (for a relation with a metric) paired-difference intervals over the seeds.
struct Judged {
    metric: Option<Interval>,
    than: Option<Interval>,
    difference: Option<Interval>,
    verdict: Verdict,
}

impl Reproduction {
    /// Judge every claim on the summaries (as JSON) of the runs
    /// [`Reproduction::runs`] lists, in that order.
    pub fn judge(&self, summaries: &[Value]) -> Result<Vec<ClaimResult>, ReproductionError> {
        self.check()?;
        let keys = self.runs();
        if summaries.len() != keys.len() {
            return Err(error("", format!("{} summaries for {} runs", summaries.len(), keys.len())));
        }
        self.claims.iter().enumerate().map(|(i, claim)| self.judge_claim(i, claim, &keys, summaries)).collect()
    }

    fn judge_claim(
        &self,
        i: usize,
        claim: &Claim,
        keys: &[RunKey],
        summaries: &[Value],
    ) -> Result<ClaimResult, ReproductionError> {
        let main = self.judge_runs(i, claim, keys, summaries, None)?;
        let ablations = claim
            .ablations
            .iter()
            .map(|id| {
                let index = self.ablations.iter().position(|a| &a.id == id).unwrap_or(usize::MAX);
                let judged = self.judge_runs(i, claim, keys, summaries, Some(index))?;
                Ok(AblationResult {
                    id: id.clone(),
                    change: self.ablations.get(index).map(|a| a.change.clone()).unwrap_or_default(),
                    mean: judged.metric.as_ref().map(|m| m.mean),
                    ci95: judged.metric.as_ref().map(|m| m.ci95),
                    difference: judged.difference,
                    verdict: judged.verdict,
                })
            })
            .collect::<Result<Vec<_>, ReproductionError>>()?;
        Ok(ClaimResult {
            paper: self.paper.clone(),
            experiment: self.experiment.clone(),
            id: claim.id.clone(),
            figure: claim.figure.clone(),
            claim: claim.claim.clone(),
            metric: claim.metric.clone(),
            paper_value: claim.paper_value.clone(),
            paper_source: claim.paper_source.clone(),
            tolerance: claim.tolerance.clone(),
            tolerance_basis: claim.tolerance_basis.clone(),
            seeds: self.seed_count() as usize,
            mean: main.metric.as_ref().map(|m| m.mean),
            std_dev: main.metric.as_ref().map(|m| m.std_dev),
            ci95: main.metric.as_ref().map(|m| m.ci95),
            than: main.than.map(|t| t.mean),
            difference: main.difference,
            verdict: main.verdict,
            expected: claim.expected,
            explanation: claim.explanation.clone(),
            ablations,
        })
    }

    /// One claim over the seeds of the runs under one ablation (none: the main runs).
    fn judge_runs(
        &self,
        i: usize,
        claim: &Claim,
        keys: &[RunKey],
        summaries: &[Value],
        ablation: Option<usize>,
    ) -> Result<Judged, ReproductionError> {
        let metric_field = format!("claims[{i}].metric");
        let metric = parse_expr(&claim.metric).map_err(|m| error(&metric_field, m))?;
        let other = match &claim.tolerance {
            Tolerance::LessThan(Operand::Metric(m)) | Tolerance::GreaterThan(Operand::Metric(m)) => {
                Some(parse_expr(m).map_err(|msg| error(format!("claims[{i}].tolerance"), msg))?)
            }
            _ => None,
        };
        let (mut values, mut others) = (Vec::new(), Vec::new());
        for seed in crate::sim::sweep::seeds(self.seed_count()) {
            let runs: Vec<&Value> = keys
                .iter()
                .zip(summaries)
                .filter(|(k, _)| k.ablation == ablation && k.seed == seed)
                .map(|(_, s)| s)
                .collect();
            values.push(eval(&metric, &runs, &metric_field)?);
            if let Some(o) = &other {
                others.push(eval(o, &runs, &format!("claims[{i}].tolerance"))?);
            }
        }
        let all = |xs: &[Option<f64>]| xs.iter().copied().collect::<Option<Vec<f64>>>();
        let metric_interval = all(&values).map(|v| interval(&v));
        let than = if other.is_some() { all(&others).map(|v| interval(&v)) } else { None };
        let difference = match (all(&values), all(&others)) {
            (Some(a), Some(b)) if other.is_some() => {
                Some(interval(&a.iter().zip(&b).map(|(x, y)| x - y).collect::<Vec<_>>()))
            }
            _ => None,
        };
        let verdict = verdict(claim, metric_interval.as_ref(), difference.as_ref());
        Ok(Judged { metric: metric_interval, than, difference, verdict })
    }
}
