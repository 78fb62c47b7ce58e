//! Rate traces (`topology.bottleneck.trace`): validation into a
//! [`TracePlan`], and reading mahimahi's trace files.

use super::bounds::{self, MAX_TRACE_OPPORTUNITIES, MAX_TRACE_STEPS};
use super::plan::{err, positive, within};
use super::{ScenarioError, Topology, TopologyKind, TraceGenerator, TraceSpec};
use crate::kernel::{ms, secs_f64};
use crate::net::trace::TracePlan;

/// Each congested hop's trace: `hop_traces[h]` where given, else the
/// bottleneck's `trace`, else none.
pub(super) fn hop_traces(
    t: &Topology,
    hops: u32,
    duration_s: f64,
    nominal_bps: u64,
) -> Result<Vec<Option<TracePlan>>, ScenarioError> {
    let common = t.bottleneck.trace.as_ref();
    let common = common.map(|tr| trace_plan("topology.bottleneck.trace", tr, duration_s, nominal_bps)).transpose()?;
    let Some(per_hop) = &t.hop_traces else { return Ok(vec![common; hops as usize]) };
    if t.kind != TopologyKind::ParkingLot {
        return err(
            "topology.hop_traces",
            "only a parking_lot has hop_traces; a dumbbell's link takes `bottleneck.trace`",
        );
    }
    if per_hop.len() != hops as usize {
        return err("topology.hop_traces", format!("needs one entry per hop ({hops}), got {}", per_hop.len()));
    }
    per_hop
        .iter()
        .enumerate()
        .map(|(h, spec)| match spec {
            Some(spec) => trace_plan(&format!("topology.hop_traces[{h}]"), spec, duration_s, nominal_bps).map(Some),
            None => Ok(common.clone()),
        })
        .collect()
}

/// Check a trace at `path` for a run of `duration_s` on a link whose nominal
/// rate is `nominal_bps`.
fn trace_plan(path: &str, t: &TraceSpec, duration_s: f64, nominal_bps: u64) -> Result<TracePlan, ScenarioError> {
    match (&t.opportunities_ms, &t.generate) {
        (Some(times), None) => opportunities(&format!("{path}.opportunities_ms"), times).map(TracePlan::Opportunities),
        (None, Some(g)) => generated(&format!("{path}.generate"), g, duration_s, nominal_bps),
        _ => err(path, "give exactly one of `opportunities_ms` or `generate`"),
    }
}

fn opportunities(path: &str, times: &[u64]) -> Result<Vec<u64>, ScenarioError> {
    if times.is_empty() {
        return err(path, "a trace needs at least one delivery opportunity");
    }
    if times.len() > MAX_TRACE_OPPORTUNITIES {
        return err(
            path,
            format!(
                "{} entries; at most {MAX_TRACE_OPPORTUNITIES} fit in a scenario (and its share link)",
                times.len()
            ),
        );
    }
    if let Some(i) = times.windows(2).position(|w| w[1] < w[0]) {
        return err(
            format!("{path}[{}]", i + 1),
            format!("entries must not decrease, got {} after {}", times[i + 1], times[i]),
        );
    }
    let period = times[times.len() - 1];
    if period == 0 {
        return err(format!("{path}[{}]", times.len() - 1), "the last entry is the period and must be above 0 ms");
    }
    if period > bounds::MAX_DURATION_S * 1000 {
        return err(
            format!("{path}[{}]", times.len() - 1),
            format!("at most {} ms, got {period}", bounds::MAX_DURATION_S * 1000),
        );
    }
    Ok(times.to_vec())
}

/// A time within the run: [0, duration_s).
fn in_run(path: &str, v: f64, duration_s: f64) -> Result<f64, ScenarioError> {
    if !v.is_finite() || v < 0.0 || v >= duration_s {
        return err(path, format!("must be within the run, 0 to duration_s ({duration_s}), got {v}"));
    }
    Ok(v)
}

fn generated(path: &str, g: &TraceGenerator, duration_s: f64, nominal_bps: u64) -> Result<TracePlan, ScenarioError> {
    let rate = |p: String, v: f64| Ok::<u64, ScenarioError>(within(&p, v, bounds::LINK_RATE_BPS)?.round() as u64);
    match g {
        TraceGenerator::Step { steps } => {
            let path = format!("{path}.steps");
            if steps.is_empty() || steps.len() > MAX_TRACE_STEPS {
                return err(path, format!("needs 1 to {MAX_TRACE_STEPS} steps, got {}", steps.len()));
            }
            let mut planned: Vec<(u64, u64)> = Vec::with_capacity(steps.len());
            for (i, s) in steps.iter().enumerate() {
                let at = secs_f64(in_run(&format!("{path}[{i}].at_s"), s.at_s, duration_s)?);
                if planned.last().is_some_and(|&(before, _)| at <= before) {
                    return err(format!("{path}[{i}].at_s"), "steps must come in increasing time");
                }
                planned.push((at, rate(format!("{path}[{i}].rate_bps"), s.rate_bps)?));
            }
            Ok(TracePlan::Steps { initial_bps: nominal_bps, steps: planned })
        }
        TraceGenerator::Outage { start_s, duration_s: length_s } => {
            let start = secs_f64(in_run(&format!("{path}.start_s"), *start_s, duration_s)?);
            let length = secs_f64(positive(&format!("{path}.duration_s"), *length_s, bounds::DURATION_S)?).max(1);
            Ok(TracePlan::Steps { initial_bps: nominal_bps, steps: vec![(start, 0), (start + length, nominal_bps)] })
        }
        TraceGenerator::RandomWalk { min_bps, max_bps, step_ms, sigma } => {
            let min = rate(format!("{path}.min_bps"), *min_bps)?;
            let max = rate(format!("{path}.max_bps"), *max_bps)?;
            if min > max {
                return err(format!("{path}.max_bps"), format!("must be at least min_bps ({min_bps}), got {max_bps}"));
            }
            Ok(TracePlan::RandomWalk {
                start_bps: nominal_bps,
                min_bps: min,
                max_bps: max,
                step_ns: ms(within(&format!("{path}.step_ms"), *step_ms, bounds::TRACE_STEP_MS)?).max(1),
                sigma: within(&format!("{path}.sigma"), *sigma, bounds::TRACE_SIGMA)?,
            })
        }
    }
}

/// A mahimahi trace file (one whole number of milliseconds per line) as the
/// value of `trace`; errors name the line.
pub fn import_mahimahi(text: &str) -> Result<TraceSpec, String> {
    let mut times = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let ms: u64 =
            line.parse().map_err(|_| format!("line {}: not a whole number of milliseconds: {line:?}", i + 1))?;
        times.push(ms);
    }
    opportunities("opportunities_ms", &times).map_err(|e| e.to_string())?;
    Ok(TraceSpec { opportunities_ms: Some(times), generate: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use serde_json::json;

    /// The error of a 10 s dumbbell whose bottleneck has `trace`.
    fn error_of(trace: serde_json::Value) -> String {
        let v = json!({
            "version": 1, "duration_s": 10,
            "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e6, "delay_ms": 10, "trace": trace },
                          "buffer": { "packets": 50 } },
            "queue": { "scheme": "droptail" }, "flows": [ { "kind": "tcp" } ]
        });
        Scenario::from_json(&v.to_string()).and_then(|s| s.plan()).expect_err("should be rejected").to_string()
    }

    #[test]
    fn bad_traces_are_refused_naming_the_field() {
        let path = "topology.bottleneck.trace";
        let long = json!({ "opportunities_ms": (1..=MAX_TRACE_OPPORTUNITIES as u64 + 1).collect::<Vec<_>>() });
        let cases = [
            (json!({ "opportunities_ms": [] }), format!("{path}.opportunities_ms: a trace needs at least one")),
            (
                json!({ "opportunities_ms": [1, 5, 4] }),
                format!("{path}.opportunities_ms[2]: entries must not decrease"),
            ),
            (
                json!({ "opportunities_ms": [0, 0] }),
                format!("{path}.opportunities_ms[1]: the last entry is the period"),
            ),
            (
                json!({ "opportunities_ms": [1, -2] }),
                format!("{path}.opportunities_ms[1]: invalid value: integer `-2`"),
            ),
            (long, format!("{path}.opportunities_ms: 5001 entries; at most 5000")),
            (json!({}), format!("{path}: give exactly one of")),
            (
                json!({ "opportunities_ms": [1], "generate": { "kind": "outage", "start_s": 1, "duration_s": 1 } }),
                format!("{path}: give exactly one of"),
            ),
            (
                json!({ "generate": { "kind": "step", "steps": [{ "at_s": 12, "rate_bps": 1e6 }] } }),
                format!("{path}.generate.steps[0].at_s: must be within the run, 0 to duration_s (10), got 12"),
            ),
            (
                json!({ "generate": { "kind": "step", "steps": [{ "at_s": 1, "rate_bps": -5 }] } }),
                format!("{path}.generate.steps[0].rate_bps: must be between 1000 and 1e12, got -5"),
            ),
            (
                json!({ "generate": { "kind": "step", "steps": [{ "at_s": 2, "rate_bps": 1e6 }, { "at_s": 2, "rate_bps": 2e6 }] } }),
                format!("{path}.generate.steps[1].at_s: steps must come in increasing time"),
            ),
            (json!({ "generate": { "kind": "step", "steps": [] } }), format!("{path}.generate.steps: needs 1 to 1000")),
            (
                json!({ "generate": { "kind": "outage", "start_s": -1, "duration_s": 1 } }),
                format!("{path}.generate.start_s: must be within the run"),
            ),
            (
                json!({ "generate": { "kind": "outage", "start_s": 1, "duration_s": 0 } }),
                format!("{path}.generate.duration_s: must be > 0"),
            ),
            (
                json!({ "generate": { "kind": "random_walk", "min_bps": 5e6, "max_bps": 1e6, "step_ms": 10, "sigma": 0.1 } }),
                format!("{path}.generate.max_bps: must be at least min_bps"),
            ),
            (
                json!({ "generate": { "kind": "random_walk", "min_bps": 1e6, "max_bps": 5e6, "step_ms": 10, "sigma": -1 } }),
                format!("{path}.generate.sigma: must be between 0 and 5"),
            ),
            (json!({ "generate": { "kind": "sine" } }), format!("{path}.generate.kind: unknown variant `sine`")),
            (
                json!({ "generate": { "kind": "outage", "start_s": 1, "duration_s": 1, "depth": 2 } }),
                format!("{path}.generate: unknown field `depth`"),
            ),
        ];
        for (trace, expected) in cases {
            let got = error_of(trace.clone());
            assert!(got.starts_with(&expected), "{trace}:\n got {got}\nwant {expected}");
        }
    }

    #[test]
    fn hop_traces_give_each_hop_of_a_parking_lot_its_own() {
        let plan = |topology: serde_json::Value| {
            let v = json!({ "version": 1, "duration_s": 10, "topology": topology,
                "queue": { "scheme": "droptail" }, "flows": [ { "kind": "tcp" } ] });
            Scenario::from_json(&v.to_string()).and_then(|s| s.plan()).map_err(|e| e.to_string())
        };
        let outage = json!({ "generate": { "kind": "outage", "start_s": 1, "duration_s": 1 } });
        let step = json!({ "generate": { "kind": "step", "steps": [{ "at_s": 5, "rate_bps": 5e5 }] } });
        let lot = |hop_traces: serde_json::Value| {
            json!({ "kind": "parking_lot", "hops": 3, "bottleneck": { "rate_bps": 1e6, "delay_ms": 10, "trace": outage },
                    "buffer": { "packets": 50 }, "hop_traces": hop_traces })
        };
        let traces = plan(lot(json!([null, step, null]))).expect("valid").traces;
        let outage_plan =
            TracePlan::Steps { initial_bps: 1_000_000, steps: vec![(1_000_000_000, 0), (2_000_000_000, 1_000_000)] };
        assert_eq!(traces[0].as_ref(), Some(&outage_plan));
        assert_eq!(traces[1], Some(TracePlan::Steps { initial_bps: 1_000_000, steps: vec![(5_000_000_000, 500_000)] }));
        assert_eq!(traces[2].as_ref(), Some(&outage_plan));
        let cases = [
            (lot(json!([null, null])), "topology.hop_traces: needs one entry per hop (3), got 2"),
            (
                lot(json!([null, { "opportunities_ms": [] }, null])),
                "topology.hop_traces[1].opportunities_ms: a trace needs",
            ),
            (
                json!({ "kind": "dumbbell", "bottleneck": { "rate_bps": 1e6, "delay_ms": 10 }, "buffer": { "packets": 50 },
                        "hop_traces": [step] }),
                "topology.hop_traces: only a parking_lot has hop_traces",
            ),
        ];
        for (topology, expected) in cases {
            let got = plan(topology).expect_err("refused");
            assert!(got.starts_with(expected), "got {got}\nwant {expected}");
        }
    }

    #[test]
    fn only_congested_links_follow_a_trace() {
        let v = json!({
            "version": 1, "duration_s": 10,
            "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e6, "delay_ms": 10 },
                          "access": { "rate_bps": 1e7, "delay_ms": 1, "trace": { "opportunities_ms": [1] } },
                          "buffer": { "packets": 50 } },
            "queue": { "scheme": "droptail" }, "flows": [ { "kind": "tcp" } ]
        });
        let e = Scenario::from_json(&v.to_string()).and_then(|s| s.plan()).expect_err("refused").to_string();
        assert!(e.starts_with("topology.access.trace: only the congested links"), "{e}");
    }

    #[test]
    fn a_mahimahi_file_imports_as_opportunities() {
        let spec = import_mahimahi("0\n0\n3\n\n10\n").expect("a valid trace");
        assert_eq!(spec.opportunities_ms, Some(vec![0, 0, 3, 10]));
        assert_eq!(serde_json::to_string(&spec).expect("serialisable"), r#"{"opportunities_ms":[0,0,3,10]}"#);
        assert!(import_mahimahi("1\n2\nthree\n").expect_err("bad line").starts_with("line 3: not a whole number"));
        assert!(import_mahimahi("5\n4\n").expect_err("decreasing").contains("must not decrease"));
        assert!(import_mahimahi("\n").expect_err("empty").contains("at least one delivery opportunity"));
    }

    #[test]
    fn outages_and_steps_start_from_the_nominal_rate() {
        let plan = |g: serde_json::Value| {
            let spec: TraceSpec = serde_json::from_value(json!({ "generate": g })).expect("a trace");
            trace_plan("t", &spec, 10.0, 1_000_000).expect("valid")
        };
        assert_eq!(
            plan(json!({ "kind": "outage", "start_s": 2, "duration_s": 0.5 })),
            TracePlan::Steps { initial_bps: 1_000_000, steps: vec![(2_000_000_000, 0), (2_500_000_000, 1_000_000)] }
        );
        assert_eq!(
            plan(json!({ "kind": "step", "steps": [{ "at_s": 5, "rate_bps": 5e5 }] })),
            TracePlan::Steps { initial_bps: 1_000_000, steps: vec![(5_000_000_000, 500_000)] }
        );
    }
}
