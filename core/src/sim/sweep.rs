//! Parameter sweeps: one scenario run with a field set to each of several
//! values, under several seeds. The field is named by its path in the
//! scenario document (`queue.params.max_p`, `topology.buffer.packets`,
//! `flows[0].count`), so anything a scenario can say can be swept, and a bad
//! value is refused by the same validation, naming the same field.

use super::work::{self, WorkEstimate};
use super::{SeriesMode, Simulation};
use crate::metrics::Summary;
use crate::scenario::{Scenario, ScenarioError};
use serde_json::Value;

#[derive(Clone, Debug)]
pub struct SweepSpec {
    /// Dotted path of the field, with `[i]` for array elements.
    pub path: String,
    pub values: Vec<f64>,
    /// Seeds to run each value with.
    pub seeds: Vec<u64>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepPoint {
    pub value: f64,
    pub seed: u64,
    pub summary: Summary,
}

/// The seeds of a sweep with `count` seeds: 1, 2, …, count (at least one).
/// The CLI and the web app both use these, so their runs are the same.
pub fn seeds(count: u64) -> Vec<u64> {
    (1..=count.max(1)).collect()
}

enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn parse_path(path: &str) -> Result<Vec<Step<'_>>, ScenarioError> {
    let bad =
        || ScenarioError::new("", format!("`{path}` is not a field path like queue.params.max_p or flows[0].count"));
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if key.is_empty() {
            return Err(bad());
        }
        steps.push(Step::Key(key));
        while let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']').ok_or_else(bad)?;
            steps.push(Step::Index(inner[..end].parse().map_err(|_| bad())?));
            rest = &inner[end + 1..];
        }
        if !rest.is_empty() {
            return Err(bad());
        }
    }
    Ok(steps)
}

/// Set the field at `path` of a scenario document to `value`, creating the
/// last key if absent (e.g. a parameter left at its default).
pub fn set_field(doc: &mut Value, path: &str, value: f64) -> Result<(), ScenarioError> {
    let steps = parse_path(path)?;
    let missing = || ScenarioError::new(path, "no such field in the scenario");
    let mut at = doc;
    for (i, step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        at = match step {
            Step::Key(k) => {
                let obj = at.as_object_mut().ok_or_else(missing)?;
                if last {
                    obj.entry(k.to_string()).or_insert(Value::Null)
                } else {
                    obj.get_mut(*k).ok_or_else(missing)?
                }
            }
            Step::Index(n) => at.as_array_mut().and_then(|a| a.get_mut(*n)).ok_or_else(missing)?,
        };
    }
    // Whole numbers stay integers, so integer fields (counts, packets) accept them.
    *at = if value.fract() == 0.0 && value.abs() < 9e15 { Value::from(value as i64) } else { Value::from(value) };
    Ok(())
}

/// The scenario document `base` with the field at `path` set to `value` and
/// the seed set to `seed`, validated: one point of a sweep.
pub fn variant(base: &Value, path: &str, value: f64, seed: u64) -> Result<Scenario, ScenarioError> {
    let mut doc = base.clone();
    set_field(&mut doc, path, value)?;
    doc["seed"] = Value::from(seed);
    let variant = Scenario::from_json(&doc.to_string())?;
    variant.plan()?;
    Ok(variant)
}

/// The scenario as the document sweep variants are made from.
pub fn base_document(scenario: &Scenario) -> Result<Value, ScenarioError> {
    serde_json::to_value(scenario).map_err(|e| ScenarioError::new("", e.to_string()))
}

/// Every (value, seed) variant of `scenario`, validated before any runs.
pub fn variants(scenario: &Scenario, spec: &SweepSpec) -> Result<Vec<(f64, u64, Scenario)>, ScenarioError> {
    let base = base_document(scenario)?;
    let mut out = Vec::with_capacity(spec.values.len() * spec.seeds.len());
    for &value in &spec.values {
        for &seed in &spec.seeds {
            out.push((value, seed, variant(&base, &spec.path, value, seed)?));
        }
    }
    Ok(out)
}

/// Run one variant to its end, without keeping any series.
pub fn run_variant(variant: &Scenario) -> Result<Summary, ScenarioError> {
    let mut sim = Simulation::new(variant, SeriesMode::default())?;
    sim.run();
    Ok(sim.summary())
}

/// Which part of a sweep to run: the `index`-th (1-based) of `count`
/// contiguous slices of its runs, in the sweep's order (value-major, then
/// seed). Slices are disjoint and together cover every run, so the rows of
/// shards 1…N, concatenated in that order, are the rows of the whole sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: `{text}` is not K/N with 1 ≤ K ≤ N (e.g. 2/8)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The run indices of this slice of a sweep with `total` runs. Sizes
    /// differ by at most one run between slices.
    pub fn runs(self, total: usize) -> std::ops::Range<usize> {
        let edge = |k: usize| k * total / self.count;
        edge(self.index - 1)..edge(self.index)
    }
}

/// Run the sweep, reporting progress as (runs done, runs in all).
pub fn run(
    scenario: &Scenario,
    spec: &SweepSpec,
    progress: impl FnMut(usize, usize),
) -> Result<Vec<SweepPoint>, ScenarioError> {
    run_shard(scenario, spec, Shard::WHOLE, 1, progress)
}

/// Run one shard of the sweep on `jobs` threads (see [`shard_variants`] and
/// [`run_variants`]).
pub fn run_shard(
    scenario: &Scenario,
    spec: &SweepSpec,
    shard: Shard,
    jobs: usize,
    progress: impl FnMut(usize, usize),
) -> Result<Vec<SweepPoint>, ScenarioError> {
    run_variants(shard_variants(scenario, spec, shard)?, jobs, progress)
}

/// The variants of one shard. Every variant of the whole sweep is validated
/// first, so every shard refuses the same bad input.
pub fn shard_variants(
    scenario: &Scenario,
    spec: &SweepSpec,
    shard: Shard,
) -> Result<Vec<(f64, u64, Scenario)>, ScenarioError> {
    let mut runs = variants(scenario, spec)?;
    let mine = shard.runs(runs.len());
    Ok(runs.drain(mine).collect())
}

/// The events all of `runs` take together (each as `aqm-sim sweep` runs it,
/// without series), against the limit a single run has.
pub fn work(runs: &[(f64, u64, Scenario)]) -> Result<WorkEstimate, ScenarioError> {
    let mut events = 0u64;
    for (_, _, variant) in runs {
        events = events.saturating_add(work::estimate(&variant.plan()?, SeriesMode::default()).events);
    }
    Ok(WorkEstimate { events, limit: work::EVENT_LIMIT })
}

/// Run validated variants on `jobs` threads. The points come back in the
/// variants' order whatever the number of jobs: each run is independent and
/// deterministic, so threads change only the wall time. Progress counts
/// these runs.
pub fn run_variants(
    runs: Vec<(f64, u64, Scenario)>,
    jobs: usize,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<SweepPoint>, ScenarioError> {
    let total = runs.len();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut slots: Vec<Option<Result<Summary, ScenarioError>>> = (0..total).map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, total.max(1)) {
            let (runs, next, sender) = (&runs, &next, sender.clone());
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((_, _, variant)) = runs.get(i) else { break };
                if sender.send((i, run_variant(variant))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (done, (i, summary)) in receiver.iter().enumerate() {
            slots[i] = Some(summary);
            progress(done + 1, total);
        }
    });
    runs.into_iter()
        .zip(slots)
        .map(|((value, seed, _), slot)| {
            let summary = slot.unwrap_or_else(|| Err(ScenarioError::new("", "a sweep run did not finish")))?;
            Ok(SweepPoint { value, seed, summary })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::dumbbell;

    fn base() -> Scenario {
        let text = dumbbell(
            20.0,
            1e6,
            5.0,
            60,
            r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 30 } }"#,
            r#"{ "kind": "tcp", "count": 8, "start_s": [0, 1] }"#,
        );
        Scenario::from_json(&text).unwrap()
    }

    #[test]
    fn paths_reach_nested_fields_and_create_missing_parameters() {
        let mut doc = serde_json::to_value(base()).unwrap();
        set_field(&mut doc, "queue.params.max_p", 0.3).unwrap();
        set_field(&mut doc, "flows[0].count", 3.0).unwrap();
        set_field(&mut doc, "topology.buffer.packets", 80.0).unwrap();
        assert_eq!(doc["queue"]["params"]["max_p"], 0.3);
        assert_eq!(doc["flows"][0]["count"], 3);
        assert_eq!(doc["topology"]["buffer"]["packets"], 80);
        for bad in ["flows[9].count", "queue..x", "flows[x]", "topology.nope.x", ""] {
            assert!(set_field(&mut doc, bad, 1.0).is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_values_are_refused_before_anything_runs() {
        let spec = SweepSpec { path: "queue.params.max_p".into(), values: vec![0.1, 2.0], seeds: vec![1] };
        let err = variants(&base(), &spec).unwrap_err();
        assert_eq!(err.path, "queue.params.max_p");
    }

    #[test]
    fn a_larger_buffer_under_drop_tail_means_a_longer_queue() {
        // Little's law at a saturated link: mean delay = mean queue / rate,
        // and a bigger Drop Tail buffer fills further.
        let mut s = base();
        s.queue.scheme = "droptail".into();
        s.queue.params.clear();
        let spec =
            SweepSpec { path: "topology.buffer.packets".into(), values: vec![10.0, 40.0, 80.0], seeds: vec![1, 2] };
        let mut calls = Vec::new();
        let points = run(&s, &spec, |done, total| calls.push((done, total))).unwrap();
        assert_eq!(points.len(), 6);
        assert_eq!(calls.last(), Some(&(6, 6)));
        let mean_queue = |v: f64| {
            let at: Vec<f64> = points.iter().filter(|p| p.value == v).map(|p| p.summary.queue.mean_packets).collect();
            at.iter().sum::<f64>() / at.len() as f64
        };
        assert!(mean_queue(10.0) < mean_queue(40.0) && mean_queue(40.0) < mean_queue(80.0));
        assert_ne!(points[0].summary, points[1].summary, "seeds differ");
        for p in &points {
            let little = p.summary.queue.mean_packets * 1040.0 * 8.0 / 1e6 * 1e3;
            assert!((p.summary.queue.mean_delay_ms / little - 1.0).abs() < 0.05, "{p:?}");
        }
    }

    #[test]
    fn a_sweeps_work_is_its_runs_work_added_up() {
        // Work follows simulated time: twice the duration is about twice the
        // events, and every seed counts once more.
        let spec = SweepSpec { path: "duration_s".into(), values: vec![10.0, 20.0], seeds: vec![1, 2, 3] };
        let runs = variants(&base(), &spec).unwrap();
        let total = work(&runs).unwrap();
        let alone = |duration: f64| {
            let mut s = base();
            s.duration_s = duration;
            work::estimate(&s.plan().unwrap(), SeriesMode::default()).events
        };
        // Seeds move the start times a little, so the runs differ by a few events.
        let expected = 3.0 * (alone(10.0) + alone(20.0)) as f64;
        assert!((total.events as f64 / expected - 1.0).abs() < 0.01, "{} vs {expected}", total.events);
        assert!((alone(20.0) as f64 / alone(10.0) as f64 - 2.0).abs() < 0.1, "{} vs {}", alone(20.0), alone(10.0));
        assert_eq!(total.limit, work::EVENT_LIMIT);
    }

    #[test]
    fn shards_are_disjoint_slices_that_cover_the_sweep() {
        for total in [0, 1, 5, 7, 100] {
            for count in 1..=9 {
                let mut covered = Vec::new();
                for index in 1..=count {
                    covered.extend(Shard { index, count }.runs(total));
                }
                assert_eq!(covered, (0..total).collect::<Vec<_>>(), "{total} runs in {count} shards");
            }
        }
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_on_several_jobs_give_exactly_the_rows_of_the_whole_sweep() {
        let mut s = base();
        s.duration_s = 6.0;
        s.measure_from_s = Some(2.0);
        let spec = SweepSpec { path: "queue.params.max_p".into(), values: vec![0.05, 0.1, 0.2], seeds: vec![1, 2] };
        let whole = run(&s, &spec, |_, _| {}).unwrap();
        let mut joined = Vec::new();
        for index in 1..=4 {
            joined.extend(run_shard(&s, &spec, Shard { index, count: 4 }, 3, |_, _| {}).unwrap());
        }
        assert_eq!(joined.len(), whole.len());
        for (a, b) in joined.iter().zip(&whole) {
            assert_eq!((a.value, a.seed), (b.value, b.seed));
            assert_eq!(a.summary, b.summary, "value {} seed {}", a.value, a.seed);
        }
    }
}
