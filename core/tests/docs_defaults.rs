//! docs/scenario-format.md's "Keys by kind" table tells a reader what each
//! flow key defaults to; the engine applies its own (`scenario/defaults.rs`).
//! Every default the table writes as one literal, put into a group, must plan
//! exactly as the group without the key, so the table cannot drift from the
//! engine.

use aqm_core::Scenario;
use serde_json::{json, Value};
use std::path::Path;

/// One row of the table: the kinds it is for, the key and its documented default.
struct DocumentedDefault {
    kinds: Vec<String>,
    key: String,
    default: Value,
}

/// The rows whose default cell is one literal in backticks (not "unlimited", "— (required)", …).
fn documented_defaults() -> Vec<DocumentedDefault> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenario-format.md");
    let text = std::fs::read_to_string(path).expect("docs/scenario-format.md");
    let section = text.split("### Keys by kind").nth(1).expect("the \"Keys by kind\" section");
    let mut rows = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    for line in section.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if !cells[1].is_empty() {
            kinds = cells[1].split(',').map(|k| k.trim().trim_matches('`').to_string()).collect();
        }
        let (key, default) = (cells[2].trim_matches('`'), cells[3]);
        let literal = default.strip_prefix('`').and_then(|d| d.strip_suffix('`')).filter(|d| !d.contains('`'));
        if let Some(literal) = literal {
            let default =
                serde_json::from_str(literal).unwrap_or_else(|e| panic!("{key}: `{literal}` is not JSON: {e}"));
            rows.push(DocumentedDefault { kinds: kinds.clone(), key: key.to_string(), default });
        }
    }
    rows
}

/// A dumbbell carrying one group, planned; the group's plan as `{:?}`, or why it was refused.
fn planned(group: &Value) -> Result<String, String> {
    let scenario = json!({
        "version": 1, "seed": 1, "duration_s": 10, "sample_interval_ms": 10,
        "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e7, "delay_ms": 10 }, "buffer": { "packets": 50 } },
        "queue": { "scheme": "droptail" },
        "flows": [group],
    });
    let plan = Scenario::from_json(&scenario.to_string()).and_then(|s| s.plan()).map_err(|e| e.to_string())?;
    Ok(format!("{:?}", plan.groups[0]))
}

/// The smallest groups of `kind` the engine takes: what it cannot default (a source's rate), and
/// the same with CUBIC for the keys only a CUBIC sender takes.
fn bare_groups(kind: &str) -> Vec<Value> {
    let bare = match kind {
        "cbr" | "poisson" | "vbr" => json!({ "kind": kind, "rate_bps": 1e6 }),
        "onoff" => json!({ "kind": kind, "peak_rate_bps": 2e6 }),
        _ => json!({ "kind": kind }),
    };
    let mut cubic = bare.clone();
    cubic["cc"] = json!("cubic");
    vec![bare, cubic]
}

#[test]
fn every_documented_flow_default_is_the_engines() {
    let rows = documented_defaults();
    assert!(rows.len() >= 20, "only {} literal defaults read from the table: has its layout changed?", rows.len());
    for row in &rows {
        for kind in &row.kinds {
            let (with, without) = bare_groups(kind)
                .into_iter()
                .map(|bare| {
                    let mut with = bare.clone();
                    with[row.key.as_str()] = row.default.clone();
                    (planned(&with), planned(&bare))
                })
                .find(|(with, _)| with.is_ok())
                .unwrap_or_else(|| panic!("{kind}.{} = {}: refused with every bare group", row.key, row.default));
            let (with, without) =
                (with.unwrap(), without.unwrap_or_else(|e| panic!("{kind}: bare group refused: {e}")));
            assert_eq!(with, without, "{kind}.{}: the documented default {} is not the engine's", row.key, row.default);
        }
    }
}
