//! The serde shape of a scenario document (docs/scenario-format.md). Every key that
//! carries a quantity ends in its unit.

pub use crate::transport::FlowKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Scenario {
    /// Where an editor finds this document's JSON Schema (e.g.
    /// "https://…/scenario.schema.json"); the engine ignores it.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    #[schemars(range(min = 1, max = 1))]
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[schemars(range(min = 0.000001, max = 100000))]
    pub duration_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 100000))]
    pub measure_from_s: Option<f64>,
    #[serde(default = "default_sample_interval_ms")]
    #[schemars(range(min = 0.1, max = 60000))]
    pub sample_interval_ms: f64,
    /// T_m of the per-flow goodput coefficient of variation (Cho & Cho 2002
    /// eq. 12); 1000 ms when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 3600000))]
    pub cov_interval_ms: Option<f64>,
    pub topology: Topology,
    pub queue: QueueSpec,
    pub flows: Vec<FlowGroup>,
}

fn default_seed() -> u64 {
    1
}

fn default_sample_interval_ms() -> f64 {
    10.0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum TopologyKind {
    Dumbbell,
    ParkingLot,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Topology {
    pub kind: TopologyKind,
    pub bottleneck: LinkSpec,
    pub buffer: BufferSpec,
    /// Default access link of every sender (100 Mb/s, 1 ms when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<LinkSpec>,
    /// Parking lot only: the number of congested links in a row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 32))]
    pub hops: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LinkSpec {
    #[schemars(range(min = 1000, max = 1e12))]
    pub rate_bps: f64,
    #[schemars(range(min = 0, max = 10000))]
    pub delay_ms: f64,
    /// Access links only: each packet's extra delay is uniform on
    /// [0, jitter_ms], in FIFO order (0 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 10000))]
    pub jitter_ms: Option<f64>,
    /// Access links only: the sender's NIC queue in packets (1000 when
    /// absent); a source's packets beyond it are dropped at the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 50000))]
    pub host_queue_packets: Option<u32>,
}

/// Exactly one of `packets` or `bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct BufferSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub packets: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 64, max = 1e10))]
    pub bytes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct QueueSpec {
    pub scheme: String,
    /// Partial: missing parameters take the scheme's defaults. Switches
    /// (gentle, ecn, …) accept true/false as well as 1/0.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, number | boolean>"))]
    pub params: BTreeMap<String, ParamValue>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum ParamValue {
    Number(f64),
    Switch(bool),
}

impl ParamValue {
    pub fn as_f64(self) -> f64 {
        match self {
            ParamValue::Number(v) => v,
            ParamValue::Switch(b) => b as u8 as f64,
        }
    }
}

/// A number, or `[lo, hi]` spread over a group.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum Spread {
    One(f64),
    Range([f64; 2]),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum CcName {
    Reno,
    Newreno,
    /// RFC 9438.
    Cubic,
    /// RFC 8257; needs `ecn`.
    Dctcp,
}

/// A TCP group's ECN: `false` (none), `true` (= "ect0"), "ect0" (classic
/// ECN, RFC 3168) or "ect1" (L4S, RFC 9331).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EcnSetting {
    Switch(bool),
    Codepoint(EcnCodepoint),
}

/// The ECN-capable codepoint a sender puts on its packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EcnCodepoint {
    Ect0,
    Ect1,
}

impl EcnSetting {
    /// The codepoint of the sender's packets; None without ECN.
    pub fn codepoint(self) -> Option<EcnCodepoint> {
        match self {
            EcnSetting::Switch(false) => None,
            EcnSetting::Switch(true) => Some(EcnCodepoint::Ect0),
            EcnSetting::Codepoint(c) => Some(c),
        }
    }
}

/// By hand, so that a wrong value names the four that are right (an
/// untagged enum's error would name none).
impl<'de> Deserialize<'de> for EcnSetting {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = EcnSetting;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(r#"true, false, "ect0" or "ect1""#)
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<EcnSetting, E> {
                Ok(EcnSetting::Switch(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<EcnSetting, E> {
                match v {
                    "ect0" => Ok(EcnSetting::Codepoint(EcnCodepoint::Ect0)),
                    "ect1" => Ok(EcnSetting::Codepoint(EcnCodepoint::Ect1)),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// One flow group. The document is flat (every kind's keys live here) and
/// validation rejects keys that do not belong to the group's kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FlowGroup {
    pub kind: FlowKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 10000))]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_delay_ms: Option<Spread>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1000, max = 1e12))]
    pub access_rate_bps: Option<f64>,
    /// Overrides `topology.access.jitter_ms` for this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 10000))]
    pub access_jitter_ms: Option<f64>,
    /// Overrides `topology.access.host_queue_packets` for this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 50000))]
    pub host_queue_packets: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_s: Option<Spread>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 100000))]
    pub stop_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 1000))]
    pub weight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 1))]
    pub drop_precedence: Option<u8>,
    /// Send right to left: data on the reverse links, ACKs through the
    /// queues under test (which then also run on the reverse links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse: Option<bool>,
    /// Parking lot: `[first, last]` hop crossed (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<[u32; 2]>,
    // TCP
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc: Option<CcName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 64, max = 65495))]
    pub segment_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 60000))]
    pub min_rto_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub initial_cwnd_packets: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub rwnd_packets: Option<u32>,
    /// true, false, "ect0" or "ect1"; off when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(type = "boolean | \"ect0\" | \"ect1\""))]
    pub ecn: Option<EcnSetting>,
    /// Pace segments at Linux's rate (200 % / 120 % of cwnd/SRTT); off when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pacing: Option<bool>,
    /// Selective acknowledgements (RFC 2018) with RFC 6675 loss recovery.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sack: Option<bool>,
    // UDP
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 1e12))]
    pub rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 65507))]
    pub packet_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 100))]
    pub burst_gsd: Option<f64>,
    /// VBR: mean gap T_f between bursts (gaps are uniform on [0, 2·T_f]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.01, max = 60000))]
    pub burst_interval_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 1e12))]
    pub peak_rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 3600))]
    pub on_mean_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 3600))]
    pub off_mean_s: Option<f64>,
    // Web
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.000001, max = 100000))]
    pub sessions_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1e12))]
    pub mean_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1.01, max = 10))]
    pub pareto_shape: Option<f64>,
    /// Web, Zhou, Yeung & Li 2009 variant: fetch this many segments per connection, in a loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000000))]
    pub fetch_packets: Option<u32>,
}
