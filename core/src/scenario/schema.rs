//! The scenario file's JSON Schema (draft 2020-12), committed as
//! `public/scenario.schema.json` and printed by `aqm-sim schema`.
//!
//! Its shape is derived from the serde types in `types.rs` (schemars reads
//! their serde attributes): a new field gets into the schema by being a field
//! of those types. Give it `#[schemars(range(min = …, max = …))]` with the
//! limits its check in `plan.rs` uses; `min = 0.000001` there stands for
//! "must be > 0" and is written as `exclusiveMinimum: 0`. A flow key that only
//! some kinds take also goes into `plan.rs`'s `allowed_keys`, from which the
//! schema learns which kinds may carry it.
//!
//! On top of the derived shape this adds what lives in code rather than in
//! types: the keys each flow kind takes, the scheme ids, and each scheme's
//! parameter ids with their ranges (from the scheme registry). After a change,
//! regenerate the committed file with
//! `cargo run -p aqm-core --bin aqm-sim -- schema > public/scenario.schema.json`;
//! a test fails while it is stale.

use super::plan::allowed_keys;
use super::Scenario;
use crate::queue::registry::SCHEMES;
use crate::queue::{ParamKind, ParamSpec, BUFFER_UNIT_PACKET_BYTES};
use crate::transport::FlowKind;
use serde_json::{json, Map, Value};

/// Where the committed schema is served (the page's site root).
pub const SCHEMA_FILE: &str = "scenario.schema.json";

/// The lower bound that stands for "must be > 0" in range attributes.
const POSITIVE: f64 = 0.000001;

/// The JSON Schema of a scenario document.
pub fn scenario_schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or_default();
    if let Some(root) = schema.as_object_mut() {
        root.insert("$id".into(), json!(SCHEMA_FILE));
        root.insert(
            "description".into(),
            json!("An AQM Lab experiment: topology, the queue scheme under test and the flow groups."),
        );
    }
    exclusive_positive_minimum(&mut schema);
    if let Some(group) = schema.pointer_mut("/$defs/FlowGroup").and_then(Value::as_object_mut) {
        group.insert("allOf".into(), Value::Array(FlowKind::ALL.iter().map(|k| keys_of_kind(*k)).collect()));
    }
    if let Some(queue) = schema.pointer_mut("/$defs/QueueSpec").and_then(Value::as_object_mut) {
        queue.insert("allOf".into(), Value::Array(SCHEMES.iter().map(|s| scheme_params(s.id, s.params)).collect()));
    }
    if let Some(scheme) = schema.pointer_mut("/$defs/QueueSpec/properties/scheme").and_then(Value::as_object_mut) {
        scheme.insert("enum".into(), SCHEMES.iter().map(|s| json!(s.id)).collect());
    }
    schema
}

/// `if kind is k then` the keys that only other kinds take are absent.
fn keys_of_kind(kind: FlowKind) -> Value {
    let own = allowed_keys(kind);
    let mut others: Vec<&str> =
        FlowKind::ALL.iter().flat_map(|k| allowed_keys(*k)).filter(|key| !own.contains(key)).collect();
    others.sort_unstable();
    others.dedup();
    let absent: Map<String, Value> = others
        .into_iter()
        .map(|key| {
            (key.to_string(), json!({ "not": {}, "description": format!("not a field of `{}` flows", kind.as_str()) }))
        })
        .collect();
    json!({
        "if": { "properties": { "kind": { "const": kind.as_str() } }, "required": ["kind"] },
        "then": { "properties": absent },
    })
}

/// `if scheme is id then` params names only its own parameters, in range.
fn scheme_params(id: &str, params: &[ParamSpec]) -> Value {
    let properties: Map<String, Value> = params.iter().map(|p| (p.id.to_string(), param_schema(p))).collect();
    json!({
        "if": { "properties": { "scheme": { "const": id } }, "required": ["scheme"] },
        "then": { "properties": { "params": { "properties": properties, "additionalProperties": false } } },
    })
}

fn param_schema(p: &ParamSpec) -> Value {
    match p.kind {
        ParamKind::Switch => {
            json!({ "description": p.doc, "type": ["boolean", "number"], "minimum": p.min, "maximum": p.max })
        }
        ParamKind::Number | ParamKind::Delay => {
            json!({ "description": p.doc, "type": "number", "minimum": p.min, "maximum": p.max })
        }
        // In packets or in bytes, whichever the buffer is given in; the
        // engine scales the range for bytes.
        ParamKind::Buffer => json!({
            "description": format!("{} In the buffer's unit (packets or bytes).", p.doc),
            "type": "number",
            "minimum": p.min,
            "maximum": p.max * BUFFER_UNIT_PACKET_BYTES,
        }),
    }
}

/// Replace `minimum: POSITIVE` with `exclusiveMinimum: 0` throughout.
fn exclusive_positive_minimum(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if map.get("minimum").and_then(Value::as_f64) == Some(POSITIVE) {
                map.remove("minimum");
                map.insert("exclusiveMinimum".into(), json!(0));
            }
            map.values_mut().for_each(exclusive_positive_minimum);
        }
        Value::Array(items) => items.iter_mut().for_each(exclusive_positive_minimum),
        _ => {}
    }
}

/// The schema as committed: pretty JSON with a final newline.
pub fn scenario_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&scenario_schema()).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn repo() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn validator() -> jsonschema::Validator {
        jsonschema::validator_for(&scenario_schema()).expect("the schema compiles")
    }

    #[test]
    fn the_committed_schema_is_up_to_date() {
        let path = repo().join("public").join(SCHEMA_FILE);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == scenario_schema_text(),
            "public/{SCHEMA_FILE} is stale: regenerate it with\n  \
             cargo run -p aqm-core --bin aqm-sim -- schema > public/{SCHEMA_FILE}"
        );
    }

    #[test]
    fn every_preset_validates() {
        let v = validator();
        let mut checked = 0;
        for entry in std::fs::read_dir(repo().join("scenarios")).expect("scenarios/") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "json") {
                let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
                let errors: Vec<String> = v.iter_errors(&doc).map(|e| format!("{}: {e}", e.instance_path())).collect();
                assert!(errors.is_empty(), "{}: {}", path.display(), errors.join("; "));
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} presets found");
    }

    const GOOD: &str = r#"{ "version": 1, "duration_s": 20,
        "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e7, "delay_ms": 20 }, "buffer": { "packets": 50 } },
        "queue": { "scheme": "red", "params": { "max_p": 0.1, "gentle": true } },
        "flows": [ { "kind": "tcp", "count": 4, "cc": "reno" }, { "kind": "cbr", "rate_bps": 2e6 } ] }"#;

    /// The good document with one change, and whether the engine accepts it.
    fn variant(patch: impl Fn(&mut Value)) -> (Value, bool) {
        let mut doc: Value = serde_json::from_str(GOOD).expect("JSON");
        patch(&mut doc);
        let engine_accepts = Scenario::from_json(&doc.to_string()).and_then(|s| s.plan()).is_ok();
        (doc, engine_accepts)
    }

    #[test]
    fn bad_documents_fail_as_the_engine_refuses_them() {
        let v = validator();
        let (good, ok) = variant(|_| {});
        assert!(ok && v.is_valid(&good));
        type Patch = fn(&mut Value);
        let bad: [(&str, Patch); 9] = [
            ("a key of another flow kind", |d| d["flows"][1]["cc"] = json!("reno")),
            ("a UDP key on TCP", |d| d["flows"][0]["rate_bps"] = json!(1e6)),
            ("an unknown flow kind", |d| d["flows"][0]["kind"] = json!("quic")),
            ("an unknown scheme", |d| d["queue"]["scheme"] = json!("blu")),
            ("a parameter of another scheme", |d| d["queue"]["params"]["target"] = json!(5)),
            ("a parameter out of range", |d| d["queue"]["params"]["max_p"] = json!(3)),
            ("a rate out of range", |d| d["topology"]["bottleneck"]["rate_bps"] = json!(10)),
            ("a zero weight", |d| d["flows"][0]["weight"] = json!(0)),
            ("an unknown key", |d| d["flows"][0]["sped"] = json!(1)),
        ];
        for (what, patch) in bad {
            let (doc, engine_accepts) = variant(patch);
            assert!(!engine_accepts, "the engine takes {what}");
            assert!(!v.is_valid(&doc), "the schema takes {what}");
        }
    }

    #[test]
    fn a_document_may_name_its_schema_for_editors() {
        let path = repo().join("scenarios").join("red-ten-flows.json");
        let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("JSON");
        doc["$schema"] = Value::from(format!("./{SCHEMA_FILE}"));
        assert!(validator().is_valid(&doc));
        assert!(crate::Scenario::from_json(&doc.to_string()).is_ok(), "the engine accepts and ignores $schema");
    }

    #[test]
    fn it_names_every_scheme_and_flow_kind() {
        let schema = scenario_schema();
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let schemes =
            schema.pointer("/$defs/QueueSpec/properties/scheme/enum").and_then(Value::as_array).expect("enum");
        assert_eq!(schemes.len(), SCHEMES.len());
        let kinds = serde_json::to_string(&schema["$defs"]["FlowKind"]).expect("text");
        for kind in FlowKind::ALL {
            assert!(kinds.contains(&format!("\"{}\"", kind.as_str())), "{kind:?}");
        }
    }
}
