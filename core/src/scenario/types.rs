//! The serde shape of a scenario document (docs/scenario-format.md). Every key that
//! carries a quantity ends in its unit.

use super::bounds;
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
    #[schemars(range(min = bounds::DURATION_S.min, max = bounds::DURATION_S.max))]
    pub duration_s: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::MEASURE_FROM_S.min, max = bounds::MEASURE_FROM_S.max))]
    pub measure_from_s: Option<f64>,
    #[serde(default = "default_sample_interval_ms")]
    #[schemars(range(min = bounds::SAMPLE_INTERVAL_MS.min, max = bounds::SAMPLE_INTERVAL_MS.max))]
    pub sample_interval_ms: f64,
    /// T_m of the per-flow goodput coefficient of variation (Cho & Cho 2002
    /// eq. 12); 1000 ms when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::COV_INTERVAL_MS.min, max = bounds::COV_INTERVAL_MS.max))]
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
    #[schemars(range(min = bounds::HOPS.min, max = bounds::HOPS.max))]
    pub hops: Option<u32>,
    /// Parking lot only: one entry per hop, each that hop's own rate trace
    /// (`null`: the bottleneck's `trace`, or a fixed rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hop_traces: Option<Vec<Option<TraceSpec>>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct LinkSpec {
    #[schemars(range(min = bounds::LINK_RATE_BPS.min, max = bounds::LINK_RATE_BPS.max))]
    pub rate_bps: f64,
    #[schemars(range(min = bounds::DELAY_MS.min, max = bounds::DELAY_MS.max))]
    pub delay_ms: f64,
    /// Access links only: each packet's extra delay is uniform on
    /// [0, jitter_ms], in FIFO order (0 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::JITTER_MS.min, max = bounds::JITTER_MS.max))]
    pub jitter_ms: Option<f64>,
    /// Access links only: the sender's NIC queue in packets (1000 when
    /// absent); a source's packets beyond it are dropped at the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::HOST_QUEUE_PACKETS.min, max = bounds::HOST_QUEUE_PACKETS.max))]
    pub host_queue_packets: Option<u32>,
    /// Congested links only: the rate follows this trace; `rate_bps` stays
    /// the nominal rate that schemes needing a configured rate use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceSpec>,
}

/// A link's rate trace: exactly one of `opportunities_ms` or `generate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct TraceSpec {
    /// mahimahi's format: the millisecond of each delivery opportunity (one
    /// 1500-byte packet), non-decreasing, repeated with the last as period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = bounds::MAX_TRACE_OPPORTUNITIES))]
    pub opportunities_ms: Option<Vec<u64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate: Option<TraceGenerator>,
}

/// A generated trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum TraceGenerator {
    /// The nominal rate, then each step's rate from its time on.
    Step {
        #[schemars(length(min = 1, max = bounds::MAX_TRACE_STEPS))]
        steps: Vec<RateStep>,
    },
    /// The nominal rate, with nothing sent for `duration_s` from `start_s`.
    Outage {
        #[schemars(range(min = bounds::STOP_S.min, max = bounds::STOP_S.max))]
        start_s: f64,
        #[schemars(range(min = bounds::DURATION_S.min, max = bounds::DURATION_S.max))]
        duration_s: f64,
    },
    /// From the nominal rate, every `step_ms` the rate is multiplied by
    /// exp(sigma·N(0,1)), kept in [min_bps, max_bps] by reflection.
    RandomWalk {
        #[schemars(range(min = bounds::LINK_RATE_BPS.min, max = bounds::LINK_RATE_BPS.max))]
        min_bps: f64,
        #[schemars(range(min = bounds::LINK_RATE_BPS.min, max = bounds::LINK_RATE_BPS.max))]
        max_bps: f64,
        #[schemars(range(min = bounds::TRACE_STEP_MS.min, max = bounds::TRACE_STEP_MS.max))]
        step_ms: f64,
        #[schemars(range(min = bounds::TRACE_SIGMA.min, max = bounds::TRACE_SIGMA.max))]
        sigma: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct RateStep {
    #[schemars(range(min = bounds::STOP_S.min, max = bounds::STOP_S.max))]
    pub at_s: f64,
    #[schemars(range(min = bounds::LINK_RATE_BPS.min, max = bounds::LINK_RATE_BPS.max))]
    pub rate_bps: f64,
}

/// Exactly one of `packets` or `bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct BufferSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::BUFFER_PACKETS.min, max = bounds::BUFFER_PACKETS.max))]
    pub packets: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::BUFFER_BYTES.min, max = bounds::BUFFER_BYTES.max))]
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
    /// draft-briscoe-iccrg-prague-congestion-control-04; needs `ecn: "ect1"`
    /// and paces (`pacing` defaults to true).
    Prague,
    /// BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00); always paced.
    Bbr,
}

/// CUBIC's slow-start exit (docs/model.md, "CUBIC").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum HystartName {
    /// HyStart as Linux's `tcp_cubic` runs it.
    #[serde(rename = "linux")]
    Linux,
    /// HyStart as ns-3.44's `TcpCubic` runs it.
    #[serde(rename = "ns3")]
    Ns3,
    /// RFC 9406.
    #[serde(rename = "hystart++")]
    PlusPlus,
    /// Standard slow start to the first loss.
    #[serde(rename = "off")]
    Off,
}

/// The RTT by which CUBIC's W_cubic(t + RTT) looks ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum CubicRttName {
    /// The smallest RTT measured.
    Min,
    /// The smoothed RTT.
    Srtt,
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
    #[schemars(range(min = bounds::COUNT.min, max = bounds::COUNT.max))]
    pub count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access_delay_ms: Option<Spread>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::LINK_RATE_BPS.min, max = bounds::LINK_RATE_BPS.max))]
    pub access_rate_bps: Option<f64>,
    /// Overrides `topology.access.jitter_ms` for this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::JITTER_MS.min, max = bounds::JITTER_MS.max))]
    pub access_jitter_ms: Option<f64>,
    /// Overrides `topology.access.host_queue_packets` for this group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::HOST_QUEUE_PACKETS.min, max = bounds::HOST_QUEUE_PACKETS.max))]
    pub host_queue_packets: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_s: Option<Spread>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::STOP_S.min, max = bounds::STOP_S.max))]
    pub stop_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::WEIGHT.min, max = bounds::WEIGHT.max))]
    pub weight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::DROP_PRECEDENCE.min, max = bounds::DROP_PRECEDENCE.max))]
    pub drop_precedence: Option<u8>,
    /// Send right to left: data on the reverse links, ACKs through the
    /// queues under test (which then also run on the reverse links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse: Option<bool>,
    /// Parking lot: `[first, last]` hop crossed (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<[u32; 2]>,
    /// All the group's flows run between one sender host and one receiver
    /// host (told apart by port); off when absent: each flow its own hosts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_host: Option<bool>,
    // TCP
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cc: Option<CcName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::SEGMENT_BYTES.min, max = bounds::SEGMENT_BYTES.max))]
    pub segment_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::MIN_RTO_MS.min, max = bounds::MIN_RTO_MS.max))]
    pub min_rto_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::INITIAL_CWND_PACKETS.min, max = bounds::INITIAL_CWND_PACKETS.max))]
    pub initial_cwnd_packets: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::RWND_PACKETS.min, max = bounds::RWND_PACKETS.max))]
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
    /// CUBIC's slow-start exit: "linux" (HyStart as Linux runs it; the
    /// default), "ns3" (as ns-3 does), "hystart++" (RFC 9406) or "off".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hystart: Option<HystartName>,
    /// The RTT by which CUBIC's target looks ahead: "min" (the smallest
    /// measured, as Linux and ns-3; the default) or "srtt" (RFC 9438 §4.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubic_rtt: Option<CubicRttName>,
    // UDP
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::SOURCE_RATE_BPS.min, max = bounds::SOURCE_RATE_BPS.max))]
    pub rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::PACKET_BYTES.min, max = bounds::PACKET_BYTES.max))]
    pub packet_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::BURST_GSD.min, max = bounds::BURST_GSD.max))]
    pub burst_gsd: Option<f64>,
    /// VBR: mean gap T_f between bursts (gaps are uniform on [0, 2·T_f]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::BURST_INTERVAL_MS.min, max = bounds::BURST_INTERVAL_MS.max))]
    pub burst_interval_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::SOURCE_RATE_BPS.min, max = bounds::SOURCE_RATE_BPS.max))]
    pub peak_rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::ON_OFF_MEAN_S.min, max = bounds::ON_OFF_MEAN_S.max))]
    pub on_mean_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::ON_OFF_MEAN_S.min, max = bounds::ON_OFF_MEAN_S.max))]
    pub off_mean_s: Option<f64>,
    // Web
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::SESSIONS_PER_S.min, max = bounds::SESSIONS_PER_S.max))]
    pub sessions_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::MEAN_BYTES.min, max = bounds::MEAN_BYTES.max))]
    pub mean_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::PARETO_SHAPE.min, max = bounds::PARETO_SHAPE.max))]
    pub pareto_shape: Option<f64>,
    /// Web, Zhou, Yeung & Li 2009 variant: fetch this many segments per connection, in a loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::FETCH_PACKETS.min, max = bounds::FETCH_PACKETS.max))]
    pub fetch_packets: Option<u32>,
    // Ping
    /// Ping: gap between echo requests (100 ms when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = bounds::PING_INTERVAL_MS.min, max = bounds::PING_INTERVAL_MS.max))]
    pub interval_ms: Option<f64>,
}
