//! Property-based fuzzing of what users hand the engine: scenario documents
//! (parse, validate, plan, build, a first slice of simulated time) and live
//! parameter changes (any scheme, any time, any id, any value). Nothing may
//! panic; bad input must come back as an error naming a field.
//!
//! CI runs a short budget. The long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p aqm-core --test fuzz`
//! (docs/robustness.md). A failing case is saved under
//! `core/proptest-regressions/fuzz.txt` by proptest: commit it, and it is
//! replayed first on every run from then on.

use aqm_core::kernel::NS_PER_MS;
use aqm_core::queue::{catalogue, Limit};
use aqm_core::sim::{SeriesMode, Simulation};
use aqm_core::Scenario;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{json, Value};

/// Cases per property: `PROPTEST_CASES` when set, else a budget that keeps
/// `npm test` short.
fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default_cases);
    let saved = FileFailurePersistence::Direct("proptest-regressions/fuzz.txt");
    ProptestConfig { cases, failure_persistence: Some(Box::new(saved)), ..ProptestConfig::default() }
}

fn presets() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("scenarios/").flatten().map(|e| e.path()).collect();
    files.sort();
    files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).expect("readable preset")).expect("preset JSON"))
        .collect()
}

/// Values that probe the edges of every field's type and range.
fn awkward_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1)),
        Just(json!(0.5)),
        Just(json!(1e-300)),
        Just(json!(1e300)),
        Just(json!(f64::MAX)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(2.0e12)),
        Just(json!(null)),
        Just(json!(true)),
        Just(json!("")),
        Just(json!("red")),
        Just(json!([])),
        Just(json!([0, 1])),
        Just(json!([5, 1])),
        Just(json!({})),
        any::<i32>().prop_map(|v| json!(v)),
        (-1e6f64..1e6).prop_map(|v| json!(v)),
        "[a-z_]{0,12}".prop_map(|v| json!(v)),
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, Value),
    Remove(usize),
    AddKey(usize, String, Value),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), awkward_value()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        1 => any::<usize>().prop_map(Mutation::Remove),
        1 => (any::<usize>(), "[a-z_]{1,10}", awkward_value()).prop_map(|(at, k, v)| Mutation::AddKey(at, k, v)),
    ]
}

/// JSON pointers of every node below the root.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(child, p, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(child, p, out);
            }
        }
        _ => {}
    }
}

fn apply(doc: &mut Value, m: &Mutation) {
    let mut all = Vec::new();
    pointers(doc, String::new(), &mut all);
    if all.is_empty() {
        return;
    }
    let pick = |at: usize| all[at % all.len()].clone();
    match m {
        Mutation::Replace(at, v) => {
            if let Some(slot) = doc.pointer_mut(&pick(*at)) {
                *slot = v.clone();
            }
        }
        Mutation::Remove(at) => {
            let p = pick(*at);
            let (parent, key) = p.rsplit_once('/').unwrap_or(("", &p));
            match doc.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(i) = key.parse::<usize>() {
                        if i < items.len() {
                            items.remove(i);
                        }
                    }
                }
                _ => {}
            }
        }
        Mutation::AddKey(at, key, v) => {
            if let Some(Value::Object(map)) = doc.pointer_mut(&pick(*at)) {
                map.insert(key.clone(), v.clone());
            }
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// A mutated preset is either refused with a field path, or it plans,
    /// builds and runs its first simulated milliseconds.
    #[test]
    fn mutated_scenarios_are_refused_by_name_or_run(
        which in any::<usize>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let all = presets();
        let mut doc = all[which % all.len()].clone();
        for m in &mutations {
            apply(&mut doc, m);
        }
        match Scenario::from_json(&doc.to_string()).and_then(|s| s.plan().map(|_| s)) {
            Err(e) => prop_assert!(!e.to_string().trim().is_empty()),
            Ok(scenario) => {
                let mut sim = Simulation::new(&scenario, SeriesMode { history: false, streaming: true })
                    .expect("a scenario that plans builds");
                sim.advance_to(2 * NS_PER_MS);
                let _ = sim.drain();
                let summary = sim.summary();
                prop_assert!(summary.aggregate_goodput_bps.is_finite());
            }
        }
    }

    /// Any scheme, any moment, any parameter id and any value: a change is
    /// applied or refused, and the simulation runs on either way.
    #[test]
    fn live_parameter_changes_never_break_a_run(
        scheme in 0usize..64,
        at_ms in 0u64..3000,
        id_pick in any::<usize>(),
        made_up_id in "[a-z_]{0,10}",
        value in prop_oneof![
            Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(f64::MAX), Just(-f64::MAX),
            Just(f64::MIN_POSITIVE), Just(0.0), Just(-0.0), Just(1.0), Just(-1.0),
            -1e9f64..1e9, 0.0f64..1.0,
        ],
    ) {
        let schemes = catalogue(Limit::Packets(0));
        let entry = &schemes[scheme % schemes.len()];
        let text = format!(
            r#"{{ "version": 1, "seed": 1, "duration_s": 4, "measure_from_s": 1,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 2000000, "delay_ms": 10 }},
                               "buffer": {{ "packets": 60 }} }},
                "queue": {{ "scheme": "{}" }},
                "flows": [ {{ "kind": "tcp", "count": 3 }}, {{ "kind": "cbr", "rate_bps": 800000 }} ] }}"#,
            entry.id
        );
        let mut sim = Simulation::from_json(&text, SeriesMode { history: false, streaming: true })
            .expect("the base scenario is valid");
        sim.advance_to(at_ms * NS_PER_MS);
        let ids: Vec<String> = entry.params.iter().map(|p| p.id.to_string()).collect();
        let id = if id_pick % 4 == 0 || ids.is_empty() { made_up_id } else { ids[id_pick % ids.len()].clone() };
        let before = sim.params().clone();
        match sim.set_param(&id, value) {
            Ok(()) => prop_assert!(value.is_finite(), "{} accepted {value}", id),
            Err(e) => {
                prop_assert!(e.to_string().contains(&id), "the error names the parameter: {e}");
                prop_assert_eq!(&before, sim.params(), "a refused change leaves the parameters alone");
            }
        }
        sim.advance_to(at_ms * NS_PER_MS + 500 * NS_PER_MS);
        let _ = sim.drain();
        prop_assert!(sim.summary().aggregate_goodput_bps.is_finite());
    }
}
