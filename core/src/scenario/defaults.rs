//! What a flow group runs with where the document leaves a key out, declared
//! once: validation (`plan.rs`) applies these values, and a new group
//! ([`new_group`]) starts with them, so the page that adds a group writes no
//! number of its own.

use super::plan::allowed_keys;
use super::{CcName, FlowGroup};
use crate::transport::FlowKind;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Serialize;

pub const COUNT: u32 = 1;
pub const CC: CcName = CcName::Newreno;
/// TCP and TFRC payload per full segment; the wire adds 40.
pub const SEGMENT_BYTES: u32 = 1000;
/// UDP payload per packet.
pub const PACKET_BYTES: u32 = 1000;
pub const BURST_GSD: f64 = 5.0;
pub const BURST_INTERVAL_MS: f64 = 100.0;
pub const ON_MEAN_S: f64 = 0.2;
pub const OFF_MEAN_S: f64 = 3.8;
pub const SESSIONS_PER_S: f64 = 25.0;
pub const MEAN_BYTES: f64 = 30_000.0;
pub const PARETO_SHAPE: f64 = 1.3;
pub const PING_INTERVAL_MS: f64 = 100.0;
/// An ICMP echo's size, as `ping` sends it by default.
pub const PING_PACKET_BYTES: u32 = 64;

/// A source's rate has no default (the document must give it): what a new
/// CBR, Poisson or VBR group starts with.
pub const NEW_RATE_BPS: f64 = 1e6;
/// What a new on/off group's peak rate starts with (it has no default either).
pub const NEW_PEAK_RATE_BPS: f64 = 2e6;

/// The group an editor adds for `kind`: one flow with the kind's main
/// settings written out, each at the value the engine takes when it is
/// absent (a rate, which has none, at a new group's starting rate).
pub fn new_group(kind: FlowKind) -> FlowGroup {
    let base = FlowGroup { kind, count: Some(COUNT), ..FlowGroup::default() };
    match kind {
        FlowKind::Tcp => FlowGroup { cc: Some(CC), segment_bytes: Some(SEGMENT_BYTES), ..base },
        FlowKind::Cbr | FlowKind::Poisson => {
            FlowGroup { rate_bps: Some(NEW_RATE_BPS), packet_bytes: Some(PACKET_BYTES), ..base }
        }
        FlowKind::Vbr => FlowGroup {
            rate_bps: Some(NEW_RATE_BPS),
            packet_bytes: Some(PACKET_BYTES),
            burst_gsd: Some(BURST_GSD),
            ..base
        },
        FlowKind::Onoff => FlowGroup {
            peak_rate_bps: Some(NEW_PEAK_RATE_BPS),
            on_mean_s: Some(ON_MEAN_S),
            off_mean_s: Some(OFF_MEAN_S),
            packet_bytes: Some(PACKET_BYTES),
            ..base
        },
        FlowKind::Web => FlowGroup {
            sessions_per_s: Some(SESSIONS_PER_S),
            mean_bytes: Some(MEAN_BYTES),
            pareto_shape: Some(PARETO_SHAPE),
            segment_bytes: Some(SEGMENT_BYTES),
            ..base
        },
        FlowKind::Tfrc => FlowGroup { segment_bytes: Some(SEGMENT_BYTES), ..base },
        FlowKind::Ping => {
            FlowGroup { interval_ms: Some(PING_INTERVAL_MS), packet_bytes: Some(PING_PACKET_BYTES), ..base }
        }
    }
}

/// The flow kinds as an editor offers them: each kind's new group, and the
/// keys a group keeps when its kind changes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FlowKinds {
    /// Every kind, in the order of the scenario format's list.
    pub kinds: Vec<FlowKindEntry>,
    /// The keys every kind takes (`kind`, `count`, `label`, access link,
    /// timing, direction, …): a group whose kind changes keeps these and
    /// starts the new kind's own keys from its new group.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "(keyof FlowGroup)[]"))]
    pub common_keys: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FlowKindEntry {
    pub kind: FlowKind,
    /// The group an editor adds for the kind: [`new_group`].
    pub new_group: FlowGroup,
}

impl FlowKinds {
    pub fn of_engine() -> FlowKinds {
        FlowKinds {
            kinds: FlowKind::ALL.iter().map(|&kind| FlowKindEntry { kind, new_group: new_group(kind) }).collect(),
            common_keys: common_keys(),
        }
    }
}

/// The flow group's fields that no kind claims as its own. The fields are
/// the names its derived `Deserialize` declares, so a new field counts
/// without being listed (read that way rather than from the derived schema,
/// whose generator would add some hundred kilobytes to the WebAssembly).
fn common_keys() -> Vec<String> {
    let own: Vec<&str> = FlowKind::ALL.iter().flat_map(|&kind| allowed_keys(kind)).collect();
    field_names::<FlowGroup>().iter().filter(|key| !own.contains(key)).map(|key| key.to_string()).collect()
}

/// The field names a struct's derived `Deserialize` asks its deserializer for.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The deserializer refuses every value once it has the names: the error is expected.
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// A deserializer that only records the field names of the struct asked of it.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct NamesOnly;

impl std::fmt::Display for NamesOnly {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("reads field names only")
    }
}

impl std::error::Error for NamesOnly {}

impl de::Error for NamesOnly {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NamesOnly
    }
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = NamesOnly;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, NamesOnly> {
        Err(NamesOnly)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, NamesOnly> {
        *self.0 = fields;
        Err(NamesOnly)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// A one-group dumbbell planned, as `{:?}` of its group's plan.
    fn planned(group: &FlowGroup) -> String {
        let scenario = Scenario {
            schema: None,
            version: 1,
            name: None,
            seed: 1,
            duration_s: 10.0,
            measure_from_s: None,
            sample_interval_ms: 10.0,
            cov_interval_ms: None,
            topology: serde_json::from_str(
                r#"{ "kind": "dumbbell", "bottleneck": { "rate_bps": 1e7, "delay_ms": 10 }, "buffer": { "packets": 50 } }"#,
            )
            .unwrap(),
            queue: serde_json::from_str(r#"{ "scheme": "droptail" }"#).unwrap(),
            flows: vec![group.clone()],
        };
        match scenario.plan() {
            Ok(plan) => format!("{:?}", plan.groups[0]),
            Err(e) => format!("refused: {e}"),
        }
    }

    /// The group with only what the engine cannot default: its kind and a source's rate.
    fn bare(group: &FlowGroup) -> FlowGroup {
        FlowGroup {
            kind: group.kind,
            rate_bps: group.rate_bps,
            peak_rate_bps: group.peak_rate_bps,
            ..FlowGroup::default()
        }
    }

    #[test]
    fn a_new_group_runs_as_the_engine_runs_its_keys_left_out() {
        for kind in FlowKind::ALL {
            let group = new_group(kind);
            assert!(!planned(&group).starts_with("refused"), "{kind:?}: {}", planned(&group));
            assert_eq!(planned(&group), planned(&bare(&group)), "{kind:?}");
        }
    }

    #[test]
    fn common_keys_are_the_group_fields_every_kind_takes() {
        let keys = common_keys();
        // With every kind's own keys, they are the group's fields as its JSON Schema lists them.
        let schema = serde_json::to_value(schemars::schema_for!(FlowGroup)).unwrap();
        let mut fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let own: Vec<String> = FlowKind::ALL.iter().flat_map(|&k| allowed_keys(k)).map(String::from).collect();
        let mut named: Vec<&String> = keys.iter().chain(&own).collect();
        fields.sort();
        named.sort();
        named.dedup();
        assert_eq!(named, fields);
        for key in ["kind", "count", "label", "access_delay_ms", "start_s", "stop_s", "reverse", "path", "one_host"] {
            assert!(keys.contains(&key.to_string()), "{key} missing from {keys:?}");
        }
        for key in ["cc", "segment_bytes", "rate_bps", "packet_bytes", "interval_ms", "hystart"] {
            assert!(!keys.contains(&key.to_string()), "{key} is a kind's own key");
        }
    }

    /// docs/scenario-format.md's "Keys by kind" rows whose default is one
    /// literal in backticks (not "unlimited", "— (required)", …), as
    /// (kinds, key, default).
    fn documented_defaults() -> Vec<(Vec<String>, String, serde_json::Value)> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenario-format.md");
        let text = std::fs::read_to_string(path).expect("docs/scenario-format.md");
        let section = text.split("### Keys by kind").nth(1).expect("the \"Keys by kind\" section");
        let table = section.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
        let mut kinds: Vec<String> = Vec::new();
        let mut rows = Vec::new();
        for line in table.skip(2) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if !cells[1].is_empty() {
                kinds = cells[1].split(',').map(|k| k.trim().trim_matches('`').to_string()).collect();
            }
            let key = cells[2].trim_matches('`');
            let literal = cells[3].strip_prefix('`').and_then(|d| d.strip_suffix('`')).filter(|d| !d.contains('`'));
            if let Some(literal) = literal {
                let default =
                    serde_json::from_str(literal).unwrap_or_else(|e| panic!("{key}: `{literal}` is not JSON: {e}"));
                rows.push((kinds.clone(), key.to_string(), default));
            }
        }
        rows
    }

    /// Each literal default the docs' table gives, written into a bare group
    /// (with CUBIC for the keys only a CUBIC sender takes), plans exactly as
    /// the group without the key: the table cannot drift from the engine.
    #[test]
    fn every_documented_flow_default_is_the_engines() {
        let rows = documented_defaults();
        assert!(rows.len() >= 20, "only {} literal defaults read from the table: has its layout changed?", rows.len());
        for (kinds, key, default) in &rows {
            for name in kinds {
                let kind: FlowKind = serde_json::from_value(serde_json::json!(name)).expect("a flow kind");
                let plain = bare(&new_group(kind));
                let cubic = FlowGroup { cc: Some(CcName::Cubic), ..plain.clone() };
                let (with, without) = [plain, cubic]
                    .into_iter()
                    .map(|group| {
                        let mut with = serde_json::to_value(&group).expect("a group serialises");
                        with[key.as_str()] = default.clone();
                        let with: FlowGroup =
                            serde_json::from_value(with).unwrap_or_else(|e| panic!("{name}.{key}: {e}"));
                        (planned(&with), planned(&group))
                    })
                    .find(|(with, _)| !with.starts_with("refused"))
                    .unwrap_or_else(|| panic!("{name}.{key} = {default}: refused with every bare group"));
                assert!(!without.starts_with("refused"), "{name}: {without}");
                assert_eq!(with, without, "{name}.{key}: the documented default {default} is not the engine's");
            }
        }
    }
}
