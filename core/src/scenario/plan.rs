//! Validation: from the document to a typed plan with every default
//! resolved and every number checked, each error naming its field.

use super::bounds::{self, Bound, Bounds, MAX_FLOWS};
use super::defaults;
use super::trace::hop_traces;
use super::{
    BufferSpec, CubicRttName, EcnCodepoint, EcnSetting, FlowGroup, FlowKind, HystartName, LinkSpec, Scenario,
    ScenarioError, Spread, TopologyKind,
};
use crate::kernel::{ms, secs_f64, Nanos, Rng};
use crate::net::trace::TracePlan;
use crate::net::{receiver_addr, sender_addr, Ecn};
use crate::queue::scheme::ParamValues;
use crate::queue::{find_scheme, FlowHosts, Limit, ParamError, QueueSetup, SchemeInfo};
use crate::transport::ping::PingConfig;
use crate::transport::tcp::cc::cubic::{CubicOptions, TargetRtt};
use crate::transport::tcp::cc::hystart::SlowStartExit;
use crate::transport::tcp::{CcVariant, TcpConfig};
use crate::transport::tfrc::TfrcConfig;
use crate::transport::udp::Spacing;
use crate::transport::web::WebPattern;

/// Default access link when the topology gives none.
const DEFAULT_ACCESS: LinkSpec =
    LinkSpec { rate_bps: 100e6, delay_ms: 1.0, jitter_ms: None, host_queue_packets: None, trace: None };
/// The sender's NIC queue when the scenario gives none: deep enough that no
/// preset's bursts (TCP windows, VBR bursts) ever reach it.
pub const DEFAULT_HOST_QUEUE_PACKETS: u32 = 1000;

#[derive(Clone, Debug)]
pub struct Plan {
    pub seed: u64,
    pub name: String,
    pub duration_ns: Nanos,
    pub measure_from_ns: Nanos,
    pub sample_interval_ns: Nanos,
    /// T_m of the per-flow goodput CoV (Cho & Cho 2002 eq. 12).
    pub cov_interval_ns: Nanos,
    pub kind: TopologyKind,
    /// Congested links in a row (1 for a dumbbell).
    pub hops: u32,
    pub bottleneck_rate_bps: u64,
    pub bottleneck_delay_ns: Nanos,
    /// Each congested hop's rate trace (a random walk draws from the
    /// hop's own stream); None for a fixed rate.
    pub traces: Vec<Option<TracePlan>>,
    pub limit: Limit,
    pub scheme: &'static SchemeInfo,
    pub params: ParamValues,
    pub groups: Vec<GroupPlan>,
}

#[derive(Clone, Debug)]
pub struct GroupPlan {
    pub kind: FlowKind,
    pub label: String,
    pub count: u32,
    pub access_rate_bps: u64,
    pub access_delay_ms: Spread,
    /// Upper end J of each data packet's uniform [0, J] extra delay on the
    /// flow's access link; 0 draws nothing.
    pub access_jitter_ns: Nanos,
    /// The sender's NIC queue (packets); see [`crate::net::HostQueue`].
    pub host_queue_packets: u32,
    pub start_s: Spread,
    pub stop_ns: Option<Nanos>,
    pub weight: f64,
    pub drop_precedence: u8,
    /// First and last hop crossed (inclusive).
    pub path: (u32, u32),
    /// Data flows right to left.
    pub reverse: bool,
    /// Every flow of the group has the same sender and receiver host.
    pub one_host: bool,
    pub traffic: TrafficPlan,
}

#[derive(Clone, Debug)]
pub enum TrafficPlan {
    Tcp(TcpConfig),
    Udp { rate_bps: f64, payload_bytes: u32, spacing: Spacing },
    Vbr { rate_bps: f64, payload_bytes: u32, burst_gsd: f64, burst_interval_s: f64 },
    OnOff { peak_rate_bps: f64, payload_bytes: u32, on_mean_s: f64, off_mean_s: f64 },
    Web(TcpConfig, WebPattern),
    Tfrc(TfrcConfig),
    Ping(PingConfig),
}

impl TrafficPlan {
    /// Mean offered wire rate, None for elastic (TCP) traffic.
    pub fn offered_wire_bps(&self) -> Option<f64> {
        match *self {
            TrafficPlan::Tcp(_) | TrafficPlan::Web(..) | TrafficPlan::Tfrc(_) => None,
            TrafficPlan::Udp { rate_bps, .. } | TrafficPlan::Vbr { rate_bps, .. } => Some(rate_bps),
            TrafficPlan::OnOff { peak_rate_bps, on_mean_s, off_mean_s, .. } => {
                Some(peak_rate_bps * on_mean_s / (on_mean_s + off_mean_s))
            }
            TrafficPlan::Ping(ref c) => Some(c.wire_bps()),
        }
    }

    /// Payload share of a full data packet's wire bytes.
    pub fn payload_fraction(&self) -> f64 {
        let (payload, header) = match *self {
            TrafficPlan::Tcp(ref c) | TrafficPlan::Web(ref c, _) => (c.segment_bytes, crate::net::TCP_HEADER_BYTES),
            TrafficPlan::Tfrc(ref c) => (c.segment_bytes, crate::net::TCP_HEADER_BYTES),
            TrafficPlan::Udp { payload_bytes, .. }
            | TrafficPlan::Vbr { payload_bytes, .. }
            | TrafficPlan::OnOff { payload_bytes, .. } => (payload_bytes, crate::net::UDP_HEADER_BYTES),
            TrafficPlan::Ping(ref c) => (c.packet_bytes, crate::transport::ping::IP_HEADER_BYTES),
        };
        payload as f64 / (payload + header) as f64
    }
}

/// One flow of a group, expanded.
#[derive(Clone, Debug)]
pub struct FlowPlan {
    pub group: usize,
    pub access_rate_bps: u64,
    pub access_delay_ns: Nanos,
    pub start_ns: Nanos,
}

impl Plan {
    pub fn flow_count(&self) -> usize {
        self.groups.iter().map(|g| g.count as usize).sum()
    }

    /// Each flow's sender and receiver address in the addressing plan
    /// (`net::sender_addr`): a flow's own hosts, or its group's one pair.
    pub fn flow_hosts(&self) -> Vec<FlowHosts> {
        let mut hosts = Vec::with_capacity(self.flow_count());
        for (g, group) in self.groups.iter().enumerate() {
            hosts.extend((0..group.count).map(|k| {
                let host = if group.one_host { 0 } else { k };
                FlowHosts {
                    sender: u32::from_be_bytes(sender_addr(g, host)),
                    receiver: u32::from_be_bytes(receiver_addr(g, host)),
                }
            }));
        }
        hosts
    }

    /// Expand groups into flows. Access delays of a `[lo, hi]` group are
    /// spread evenly; start times are uniform per flow from the stream
    /// `group/G/start/K`, so editing one group never moves another's flows.
    pub fn flows(&self) -> Vec<FlowPlan> {
        let mut flows = Vec::with_capacity(self.flow_count());
        for (g, group) in self.groups.iter().enumerate() {
            for k in 0..group.count {
                let delay_ms = match group.access_delay_ms {
                    Spread::One(v) => v,
                    Spread::Range([lo, hi]) if group.count > 1 => lo + (hi - lo) * k as f64 / (group.count - 1) as f64,
                    Spread::Range([lo, _]) => lo,
                };
                let start_s = match group.start_s {
                    Spread::One(v) => v,
                    Spread::Range([lo, hi]) => {
                        Rng::stream(self.seed, &format!("group/{g}/start/{k}")).uniform_in(lo, hi)
                    }
                };
                flows.push(FlowPlan {
                    group: g,
                    access_rate_bps: group.access_rate_bps,
                    access_delay_ns: ms(delay_ms),
                    start_ns: secs_f64(start_s),
                });
            }
        }
        flows
    }
}

pub(super) fn err<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError::new(path, message))
}

/// Check that `v` is finite and within the field's declared bounds.
pub(super) fn within(path: &str, v: f64, b: Bounds<impl Bound, impl Bound>) -> Result<f64, ScenarioError> {
    let (lo, hi) = (b.lo(), b.hi());
    if !v.is_finite() {
        return err(path, "must be a finite number");
    }
    if v < lo || v > hi {
        return err(path, format!("must be between {} and {}, got {v}", bound(lo), bound(hi)));
    }
    Ok(v)
}

/// Check that `v` is finite, above 0 and at most the field's declared maximum.
pub(super) fn positive(path: &str, v: f64, b: Bounds<f64, impl Bound>) -> Result<f64, ScenarioError> {
    let hi = b.hi();
    if !v.is_finite() {
        return err(path, "must be a finite number");
    }
    if v <= 0.0 {
        return err(path, format!("must be > 0, got {v}"));
    }
    if v > hi {
        return err(path, format!("must be at most {}, got {v}", bound(hi)));
    }
    Ok(v)
}

/// A range limit as people write it: 1e12 rather than twelve zeros.
fn bound(v: f64) -> String {
    if v != 0.0 && !(1e-3..1e9).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn spread(path: &str, s: Spread, bounds: Bounds<impl Bound, impl Bound>) -> Result<Spread, ScenarioError> {
    match s {
        Spread::One(v) => within(path, v, bounds).map(Spread::One),
        Spread::Range([a, b]) => {
            within(&format!("{path}[0]"), a, bounds)?;
            within(&format!("{path}[1]"), b, bounds)?;
            if a > b {
                return err(path, format!("[lo, hi] needs lo <= hi, got [{a}, {b}]"));
            }
            Ok(Spread::Range([a, b]))
        }
    }
}

fn link(path: &str, l: &LinkSpec) -> Result<(u64, f64), ScenarioError> {
    if l.jitter_ms.is_some() {
        return err(format!("{path}.jitter_ms"), "only the access link has jitter");
    }
    if l.host_queue_packets.is_some() {
        return err(format!("{path}.host_queue_packets"), "only the access link has a host queue");
    }
    link_rate_delay(path, l)
}

/// The topology's access link, or the default.
fn access_link(t: &super::Topology) -> Result<LinkSpec, ScenarioError> {
    let access = t.access.clone().unwrap_or(DEFAULT_ACCESS);
    if access.trace.is_some() {
        return err("topology.access.trace", "only the congested links follow a trace");
    }
    Ok(access)
}

fn link_rate_delay(path: &str, l: &LinkSpec) -> Result<(u64, f64), ScenarioError> {
    let rate = within(&format!("{path}.rate_bps"), l.rate_bps, bounds::LINK_RATE_BPS)?;
    let delay = within(&format!("{path}.delay_ms"), l.delay_ms, bounds::DELAY_MS)?;
    Ok((rate.round() as u64, delay))
}

fn buffer(b: &BufferSpec) -> Result<Limit, ScenarioError> {
    match (b.packets, b.bytes) {
        (Some(p), None) => {
            within("topology.buffer.packets", p as f64, bounds::BUFFER_PACKETS)?;
            Ok(Limit::Packets(p))
        }
        (None, Some(n)) => {
            within("topology.buffer.bytes", n as f64, bounds::BUFFER_BYTES)?;
            Ok(Limit::Bytes(n))
        }
        _ => err("topology.buffer", "give exactly one of `packets` or `bytes`"),
    }
}

pub(super) fn build(s: &Scenario) -> Result<Plan, ScenarioError> {
    if s.version != 1 {
        return err("version", format!("only version 1 is understood, got {}", s.version));
    }
    let name = s.name.clone().unwrap_or_default();
    if name.chars().count() > 200 || name.chars().any(char::is_control) {
        return err("name", "must be plain text of at most 200 characters");
    }
    let duration_s = positive("duration_s", s.duration_s, bounds::DURATION_S)?;
    let measure_from_s = within("measure_from_s", s.measure_from_s.unwrap_or(0.0), bounds::MEASURE_FROM_S)?;
    if measure_from_s >= duration_s {
        return err("measure_from_s", format!("must be less than duration_s ({duration_s})"));
    }
    let sample_ms = within("sample_interval_ms", s.sample_interval_ms, bounds::SAMPLE_INTERVAL_MS)?;
    if sample_ms > duration_s * 1000.0 {
        return err("sample_interval_ms", "must not exceed the duration");
    }

    let cov_ms = within("cov_interval_ms", s.cov_interval_ms.unwrap_or(1000.0), bounds::COV_INTERVAL_MS)?;

    let t = &s.topology;
    let (bottleneck_rate_bps, bottleneck_delay_ms) = link("topology.bottleneck", &t.bottleneck)?;
    let limit = buffer(&t.buffer)?;
    let access = access_link(t)?;
    let (access_rate_bps, access_delay_ms) = link_rate_delay("topology.access", &access)?;
    let access_jitter_ms = jitter("topology.access.jitter_ms", access.jitter_ms)?;
    let host_queue_packets = host_queue("topology.access.host_queue_packets", access.host_queue_packets)?;
    let hops = match (t.kind, t.hops) {
        (TopologyKind::Dumbbell, None) => 1,
        (TopologyKind::Dumbbell, Some(_)) => return err("topology.hops", "only a parking_lot has hops"),
        (TopologyKind::ParkingLot, Some(h)) => within("topology.hops", h as f64, bounds::HOPS)? as u32,
        (TopologyKind::ParkingLot, None) => return err("topology.hops", "a parking_lot needs `hops`"),
    };
    let traces = hop_traces(t, hops, duration_s, bottleneck_rate_bps)?;

    let scheme = find_scheme(&s.queue.scheme).ok_or_else(|| {
        let known: Vec<_> = crate::queue::registry::SCHEMES.iter().map(|s| s.id).collect();
        ScenarioError::new("queue.scheme", format!("unknown scheme `{}` (known: {})", s.queue.scheme, known.join(", ")))
    })?;
    let mut params = ParamValues::defaults(scheme, limit);
    for (id, value) in &s.queue.params {
        params.set(id, scheme.check_param(id, value.as_f64(), limit)?);
    }
    (scheme.cross_check)(&params)?;
    check_on_link(scheme, &params, limit, bottleneck_rate_bps)?;

    if s.flows.is_empty() {
        return err("flows", "needs at least one flow group");
    }
    let ctx = GroupCtx { duration_s, hops, access_rate_bps, access_delay_ms, access_jitter_ms, host_queue_packets };
    let groups = s
        .flows
        .iter()
        .enumerate()
        .map(|(i, g)| group(&format!("flows[{i}]"), g, &ctx))
        .collect::<Result<Vec<_>, _>>()?;
    let total: u64 = groups.iter().map(|g| g.count as u64).sum();
    if total > MAX_FLOWS {
        return err("flows", format!("{total} flows in all; at most {MAX_FLOWS} are supported"));
    }

    Ok(Plan {
        seed: s.seed,
        name,
        duration_ns: secs_f64(duration_s),
        measure_from_ns: secs_f64(measure_from_s),
        sample_interval_ns: ms(sample_ms).max(1),
        cov_interval_ns: ms(cov_ms),
        kind: t.kind,
        hops,
        bottleneck_rate_bps,
        bottleneck_delay_ns: ms(bottleneck_delay_ms),
        traces,
        limit,
        scheme,
        params,
        groups,
    })
}

struct GroupCtx {
    duration_s: f64,
    hops: u32,
    access_rate_bps: u64,
    access_delay_ms: f64,
    access_jitter_ms: f64,
    host_queue_packets: u32,
}

fn jitter(path: &str, v: Option<f64>) -> Result<f64, ScenarioError> {
    within(path, v.unwrap_or(0.0), bounds::JITTER_MS)
}

fn host_queue(path: &str, v: Option<u32>) -> Result<u32, ScenarioError> {
    Ok(within(path, v.unwrap_or(DEFAULT_HOST_QUEUE_PACKETS) as f64, bounds::HOST_QUEUE_PACKETS)? as u32)
}

/// The keys of a flow group that are set, by name.
fn set_keys(g: &FlowGroup) -> Vec<&'static str> {
    let keys = [
        ("cc", g.cc.is_some()),
        ("segment_bytes", g.segment_bytes.is_some()),
        ("min_rto_ms", g.min_rto_ms.is_some()),
        ("initial_cwnd_packets", g.initial_cwnd_packets.is_some()),
        ("delayed_ack", g.delayed_ack.is_some()),
        ("rwnd_packets", g.rwnd_packets.is_some()),
        ("ecn", g.ecn.is_some()),
        ("sack", g.sack.is_some()),
        ("pacing", g.pacing.is_some()),
        ("hystart", g.hystart.is_some()),
        ("cubic_rtt", g.cubic_rtt.is_some()),
        ("rate_bps", g.rate_bps.is_some()),
        ("packet_bytes", g.packet_bytes.is_some()),
        ("burst_gsd", g.burst_gsd.is_some()),
        ("burst_interval_ms", g.burst_interval_ms.is_some()),
        ("peak_rate_bps", g.peak_rate_bps.is_some()),
        ("on_mean_s", g.on_mean_s.is_some()),
        ("off_mean_s", g.off_mean_s.is_some()),
        ("sessions_per_s", g.sessions_per_s.is_some()),
        ("mean_bytes", g.mean_bytes.is_some()),
        ("pareto_shape", g.pareto_shape.is_some()),
        ("fetch_packets", g.fetch_packets.is_some()),
        ("interval_ms", g.interval_ms.is_some()),
    ];
    keys.iter().filter(|(_, set)| *set).map(|(k, _)| *k).collect()
}

/// The keys of a TCP connection's settings: TCP groups and web sessions take them.
const TCP_KEYS: &[&str] = &[
    "cc",
    "segment_bytes",
    "min_rto_ms",
    "initial_cwnd_packets",
    "delayed_ack",
    "rwnd_packets",
    "ecn",
    "sack",
    "pacing",
    "hystart",
    "cubic_rtt",
];

/// The keys a group of `kind` takes beyond those every group takes.
pub(super) fn allowed_keys(kind: FlowKind) -> Vec<&'static str> {
    let own: &[&str] = match kind {
        FlowKind::Tcp => &[],
        FlowKind::Cbr | FlowKind::Poisson => &["rate_bps", "packet_bytes"],
        FlowKind::Vbr => &["rate_bps", "packet_bytes", "burst_gsd", "burst_interval_ms"],
        FlowKind::Onoff => &["peak_rate_bps", "on_mean_s", "off_mean_s", "packet_bytes"],
        FlowKind::Web => &["sessions_per_s", "mean_bytes", "pareto_shape", "fetch_packets"],
        FlowKind::Tfrc => &["segment_bytes"],
        FlowKind::Ping => &["interval_ms", "packet_bytes"],
    };
    let tcp: &[&str] = if matches!(kind, FlowKind::Tcp | FlowKind::Web) { TCP_KEYS } else { &[] };
    [own, tcp].concat()
}

fn group(path: &str, g: &FlowGroup, ctx: &GroupCtx) -> Result<GroupPlan, ScenarioError> {
    let kind = g.kind;
    let allowed = allowed_keys(kind);
    for key in set_keys(g) {
        if !allowed.contains(&key) {
            return err(format!("{path}.{key}"), format!("not a field of `{}` flows", kind.as_str()));
        }
    }
    let p = |k: &str| format!("{path}.{k}");
    let count = within(&p("count"), g.count.unwrap_or(defaults::COUNT) as f64, bounds::COUNT)? as u32;
    let label = g.label.clone().unwrap_or_else(|| kind.as_str().to_string());
    if label.chars().count() > 80 || label.chars().any(char::is_control) {
        return err(p("label"), "must be plain text of at most 80 characters");
    }
    let access_rate_bps = match g.access_rate_bps {
        Some(r) => within(&p("access_rate_bps"), r, bounds::LINK_RATE_BPS)?.round() as u64,
        None => ctx.access_rate_bps,
    };
    let access_delay_ms =
        spread(&p("access_delay_ms"), g.access_delay_ms.unwrap_or(Spread::One(ctx.access_delay_ms)), bounds::DELAY_MS)?;
    let access_jitter_ms = match g.access_jitter_ms {
        Some(_) => jitter(&p("access_jitter_ms"), g.access_jitter_ms)?,
        None => ctx.access_jitter_ms,
    };
    let host_queue_packets = match g.host_queue_packets {
        Some(_) => host_queue(&p("host_queue_packets"), g.host_queue_packets)?,
        None => ctx.host_queue_packets,
    };
    let start_s =
        spread(&p("start_s"), g.start_s.unwrap_or(Spread::One(0.0)), Bounds { min: 0.0, max: ctx.duration_s })?;
    let latest_start = match start_s {
        Spread::One(v) | Spread::Range([_, v]) => v,
    };
    let stop_ns = match g.stop_s {
        Some(v) => {
            within(&p("stop_s"), v, bounds::STOP_S)?;
            if v <= latest_start {
                return err(p("stop_s"), format!("must be after start_s ({latest_start})"));
            }
            Some(secs_f64(v))
        }
        None => None,
    };
    let weight = positive(&p("weight"), g.weight.unwrap_or(1.0), bounds::WEIGHT)?;
    let drop_precedence = g.drop_precedence.unwrap_or(0);
    if u64::from(drop_precedence) > bounds::DROP_PRECEDENCE.max {
        return err(p("drop_precedence"), format!("must be 0 or 1, got {drop_precedence}"));
    }
    let path_hops = match g.path {
        None => (0, ctx.hops - 1),
        Some([a, b]) => {
            if a > b || b >= ctx.hops {
                return err(p("path"), format!("needs 0 <= first <= last < hops ({}), got [{a}, {b}]", ctx.hops));
            }
            (a, b)
        }
    };
    let traffic = traffic(path, g)?;
    Ok(GroupPlan {
        kind,
        label,
        count,
        access_rate_bps,
        access_delay_ms,
        access_jitter_ns: ms(access_jitter_ms),
        host_queue_packets,
        start_s,
        stop_ns,
        weight,
        drop_precedence,
        path: path_hops,
        reverse: g.reverse.unwrap_or(false),
        one_host: g.one_host.unwrap_or(false),
        traffic,
    })
}

/// Every parameter as the scheme itself takes it on a link of the
/// bottleneck's rate: a value may depend on the link (CAKE's shaper rate).
fn check_on_link(
    scheme: &SchemeInfo,
    params: &ParamValues,
    limit: Limit,
    link_rate_bps: u64,
) -> Result<(), ParamError> {
    let setup = QueueSetup { limit, link_rate_bps, hosts: &[] };
    let mut q = (scheme.build)(&setup, &ParamValues::defaults(scheme, limit));
    params.iter().try_for_each(|(id, v)| q.set_param(id, v))
}

/// What a group's flows send, with the kind's own keys checked.
fn traffic(path: &str, g: &FlowGroup) -> Result<TrafficPlan, ScenarioError> {
    let kind = g.kind;
    let p = |k: &str| format!("{path}.{k}");
    Ok(match kind {
        FlowKind::Tcp => TrafficPlan::Tcp(tcp_config(path, g)?),
        FlowKind::Cbr | FlowKind::Poisson => TrafficPlan::Udp {
            rate_bps: required_rate(path, "rate_bps", g.rate_bps)?,
            payload_bytes: payload(path, g)?,
            spacing: if kind == FlowKind::Cbr { Spacing::Constant } else { Spacing::Exponential },
        },
        FlowKind::Vbr => TrafficPlan::Vbr {
            rate_bps: required_rate(path, "rate_bps", g.rate_bps)?,
            payload_bytes: payload(path, g)?,
            burst_gsd: within(&p("burst_gsd"), g.burst_gsd.unwrap_or(defaults::BURST_GSD), bounds::BURST_GSD)?,
            burst_interval_s: within(
                &p("burst_interval_ms"),
                g.burst_interval_ms.unwrap_or(defaults::BURST_INTERVAL_MS),
                bounds::BURST_INTERVAL_MS,
            )? / 1e3,
        },
        FlowKind::Onoff => TrafficPlan::OnOff {
            peak_rate_bps: required_rate(path, "peak_rate_bps", g.peak_rate_bps)?,
            payload_bytes: payload(path, g)?,
            on_mean_s: positive(&p("on_mean_s"), g.on_mean_s.unwrap_or(defaults::ON_MEAN_S), bounds::ON_OFF_MEAN_S)?,
            off_mean_s: positive(
                &p("off_mean_s"),
                g.off_mean_s.unwrap_or(defaults::OFF_MEAN_S),
                bounds::ON_OFF_MEAN_S,
            )?,
        },
        FlowKind::Web => TrafficPlan::Web(tcp_config(path, g)?, web_pattern(path, g)?),
        FlowKind::Tfrc => TrafficPlan::Tfrc(TfrcConfig { segment_bytes: segment_bytes(path, g)? }),
        FlowKind::Ping => TrafficPlan::Ping(PingConfig {
            interval_ns: ms(positive(
                &p("interval_ms"),
                g.interval_ms.unwrap_or(defaults::PING_INTERVAL_MS),
                bounds::PING_INTERVAL_MS,
            )?)
            .max(1),
            packet_bytes: within(
                &p("packet_bytes"),
                g.packet_bytes.unwrap_or(defaults::PING_PACKET_BYTES) as f64,
                bounds::PING_PACKET_BYTES,
            )? as u32,
        }),
    })
}

fn required_rate(path: &str, key: &str, v: Option<f64>) -> Result<f64, ScenarioError> {
    let key_path = format!("{path}.{key}");
    let v = v.ok_or_else(|| ScenarioError::new(&key_path, "is required"))?;
    positive(&key_path, v, bounds::SOURCE_RATE_BPS)
}

/// UDP payload per packet.
fn payload(path: &str, g: &FlowGroup) -> Result<u32, ScenarioError> {
    Ok(within(
        &format!("{path}.packet_bytes"),
        g.packet_bytes.unwrap_or(defaults::PACKET_BYTES) as f64,
        bounds::PACKET_BYTES,
    )? as u32)
}

/// Poisson sessions of Pareto sizes (AFpFT (2011)), or closed-loop fetches of
/// `fetch_packets` segments (Zhou, Yeung & Li 2009); not both.
fn web_pattern(path: &str, g: &FlowGroup) -> Result<WebPattern, ScenarioError> {
    let p = |k: &str| format!("{path}.{k}");
    if let Some(n) = g.fetch_packets {
        for (key, set) in
            [("sessions_per_s", g.sessions_per_s), ("mean_bytes", g.mean_bytes), ("pareto_shape", g.pareto_shape)]
        {
            if set.is_some() {
                return err(p(key), "a web group either fetches `fetch_packets` in a loop or opens sessions, not both");
            }
        }
        let segments = within(&p("fetch_packets"), n as f64, bounds::FETCH_PACKETS)?;
        return Ok(WebPattern::Fetches {
            bytes: segments as u64 * g.segment_bytes.unwrap_or(defaults::SEGMENT_BYTES) as u64,
        });
    }
    let shape = within(&p("pareto_shape"), g.pareto_shape.unwrap_or(defaults::PARETO_SHAPE), bounds::PARETO_SHAPE)?;
    Ok(WebPattern::Sessions {
        per_s: positive(
            &p("sessions_per_s"),
            g.sessions_per_s.unwrap_or(defaults::SESSIONS_PER_S),
            bounds::SESSIONS_PER_S,
        )?,
        mean_bytes: within(&p("mean_bytes"), g.mean_bytes.unwrap_or(defaults::MEAN_BYTES), bounds::MEAN_BYTES)?,
        pareto_shape: shape,
    })
}

/// Payload bytes per full segment.
fn segment_bytes(path: &str, g: &FlowGroup) -> Result<u32, ScenarioError> {
    Ok(within(
        &format!("{path}.segment_bytes"),
        g.segment_bytes.unwrap_or(defaults::SEGMENT_BYTES) as f64,
        bounds::SEGMENT_BYTES,
    )? as u32)
}

/// CUBIC's `hystart` and `cubic_rtt`; refused for another `cc`, which would ignore them.
fn cubic_options(path: &str, g: &FlowGroup, cc: CcVariant) -> Result<CubicOptions, ScenarioError> {
    if cc != CcVariant::Cubic {
        for (key, set) in [("hystart", g.hystart.is_some()), ("cubic_rtt", g.cubic_rtt.is_some())] {
            if set {
                return err(format!("{path}.{key}"), "only a CUBIC sender (`cc`: \"cubic\") has this setting");
            }
        }
    }
    Ok(CubicOptions {
        slow_start_exit: match g.hystart {
            Some(HystartName::Linux) | None => SlowStartExit::HystartLinux,
            Some(HystartName::Ns3) => SlowStartExit::HystartNs3,
            Some(HystartName::PlusPlus) => SlowStartExit::HystartPlusPlus,
            Some(HystartName::Off) => SlowStartExit::Off,
        },
        target_rtt: match g.cubic_rtt {
            Some(CubicRttName::Min) | None => TargetRtt::Min,
            Some(CubicRttName::Srtt) => TargetRtt::Smoothed,
        },
    })
}

fn tcp_config(path: &str, g: &FlowGroup) -> Result<TcpConfig, ScenarioError> {
    let p = |k: &str| format!("{path}.{k}");
    let cc = match g.cc.unwrap_or(defaults::CC) {
        super::CcName::Reno => CcVariant::Reno,
        super::CcName::Newreno => CcVariant::NewReno,
        super::CcName::Cubic => CcVariant::Cubic,
        super::CcName::Dctcp => CcVariant::Dctcp,
        super::CcName::Prague => CcVariant::Prague,
        super::CcName::Bbr => CcVariant::Bbr,
    };
    let ecn = match g.ecn.and_then(EcnSetting::codepoint) {
        None => Ecn::NotEct,
        Some(EcnCodepoint::Ect0) => Ecn::Ect0,
        Some(EcnCodepoint::Ect1) => Ecn::Ect1,
    };
    // DCTCP answers marks only: without ECN it would be Reno under another name.
    if cc == CcVariant::Dctcp && ecn == Ecn::NotEct {
        return err(p("ecn"), r#"`dctcp` needs ECN: set `ecn` to true, "ect0" or "ect1""#);
    }
    // Prague is an L4S sender: it is scalable only where the bottleneck
    // knows it as such (ECT(1)), and it paces (Linux forces both).
    if cc == CcVariant::Prague && ecn != Ecn::Ect1 {
        return err(p("ecn"), r#"`prague` needs L4S ECN: set `ecn` to "ect1""#);
    }
    if cc == CcVariant::Prague && g.pacing == Some(false) {
        return err(p("pacing"), "`prague` paces its sending: leave `pacing` out or set it to true");
    }
    // BBR v1 sends at its pacing rate and does not answer ECN marks.
    if cc == CcVariant::Bbr && g.pacing == Some(false) {
        return err(p("pacing"), "`bbr` paces its segments: leave `pacing` out or set it to true");
    }
    if cc == CcVariant::Bbr && ecn != Ecn::NotEct {
        return err(p("ecn"), "`bbr` (v1) does not answer ECN marks: leave `ecn` out or set it to false");
    }
    Ok(TcpConfig {
        cc,
        segment_bytes: segment_bytes(path, g)?,
        min_rto_ns: ms(within(&p("min_rto_ms"), g.min_rto_ms.unwrap_or(200.0), bounds::MIN_RTO_MS)?),
        initial_cwnd_packets: within(
            &p("initial_cwnd_packets"),
            g.initial_cwnd_packets.unwrap_or(2) as f64,
            bounds::INITIAL_CWND_PACKETS,
        )? as u32,
        delayed_ack: g.delayed_ack.unwrap_or(false),
        rwnd_packets: match g.rwnd_packets {
            Some(w) => Some(within(&p("rwnd_packets"), w as f64, bounds::RWND_PACKETS)? as u32),
            None => None,
        },
        ecn,
        pacing: g.pacing.unwrap_or(matches!(cc, CcVariant::Prague | CcVariant::Bbr)),
        sack: g.sack.unwrap_or(false),
        transfer_bytes: None,
        cubic: cubic_options(path, g, cc)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"{
        "version": 1, "seed": 3, "duration_s": 10, "measure_from_s": 2,
        "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e6, "delay_ms": 10 }, "buffer": { "packets": 50 } },
        "queue": { "scheme": "red", "params": { "max_p": 0.2, "gentle": true } },
        "flows": [
            { "kind": "tcp", "count": 4, "access_delay_ms": [1, 7], "start_s": [0, 1] },
            { "kind": "cbr", "rate_bps": 500000 }
        ]
    }"#;

    fn plan_of(text: &str) -> Result<Plan, ScenarioError> {
        Scenario::from_json(text)?.plan()
    }

    /// The TCP plan of `BASE`'s first group after `patch`.
    fn first_tcp_plan(patch: impl Fn(&mut serde_json::Value)) -> TcpConfig {
        let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
        patch(&mut v);
        match plan_of(&v.to_string()).unwrap().groups.swap_remove(0).traffic {
            TrafficPlan::Tcp(c) => c,
            _ => unreachable!("flows[0] is a tcp group"),
        }
    }

    fn error_of(patch: impl Fn(&mut serde_json::Value)) -> String {
        let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
        patch(&mut v);
        plan_of(&v.to_string()).expect_err("should be rejected").to_string()
    }

    #[test]
    fn a_valid_scenario_resolves_defaults() {
        let plan = plan_of(BASE).unwrap();
        assert_eq!(plan.limit, Limit::Packets(50));
        assert_eq!(plan.params.get("max_p"), 0.2);
        assert!(plan.params.flag("gentle"));
        assert_eq!(plan.params.get("w_q"), 0.002);
        assert_eq!(plan.sample_interval_ns, 10_000_000);
        let flows = plan.flows();
        assert_eq!(flows.len(), 5);
        let delays: Vec<_> = flows[..4].iter().map(|f| f.access_delay_ns / 1_000_000).collect();
        assert_eq!(delays, [1, 3, 5, 7]);
        assert!(flows[..4].iter().all(|f| f.start_ns <= 1_000_000_000));
        assert_eq!(flows[4].access_delay_ns, 1_000_000);
        assert!(plan.groups.iter().all(|g| g.access_jitter_ns == 0 && g.host_queue_packets == 1000));
    }

    #[test]
    fn groups_override_the_access_links_jitter_and_host_queue() {
        let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
        v["topology"]["access"] =
            serde_json::json!({"rate_bps": 1e7, "delay_ms": 2, "jitter_ms": 1.5, "host_queue_packets": 100});
        v["flows"][1]["access_jitter_ms"] = 0.into();
        v["flows"][1]["host_queue_packets"] = 7.into();
        let plan = plan_of(&v.to_string()).unwrap();
        assert_eq!((plan.groups[0].access_jitter_ns, plan.groups[0].host_queue_packets), (1_500_000, 100));
        assert_eq!((plan.groups[1].access_jitter_ns, plan.groups[1].host_queue_packets), (0, 7));
    }

    #[test]
    fn errors_name_the_field() {
        type Patch = Box<dyn Fn(&mut serde_json::Value)>;
        let cases: Vec<(Patch, &str)> = vec![
            (Box::new(|v| v["flows"][1]["rate_bps"] = (-5).into()), "flows[1].rate_bps: must be > 0"),
            (Box::new(|v| v["flows"][1]["cc"] = "reno".into()), "flows[1].cc: not a field of `cbr` flows"),
            (Box::new(|v| v["flows"][1]["sack"] = true.into()), "flows[1].sack: not a field of `cbr` flows"),
            (Box::new(|v| v["flows"][0]["sack"] = "yes".into()), "flows[0].sack: invalid type"),
            (Box::new(|v| v["flows"][0]["cc"] = "vegas".into()), "flows[0].cc: unknown variant `vegas`"),
            (Box::new(|v| v["flows"][0]["sped"] = 1.into()), "flows[0].sped: unknown field `sped`"),
            (Box::new(|v| v["flows"][0]["cc"] = "dctcp".into()), "flows[0].ecn: `dctcp` needs ECN"),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "dctcp".into();
                    v["flows"][0]["ecn"] = false.into();
                }),
                "flows[0].ecn: `dctcp` needs ECN",
            ),
            (
                Box::new(|v| v["flows"][0]["ecn"] = "ect2".into()),
                r#"flows[0].ecn: invalid value: string "ect2", expected true, false, "ect0" or "ect1""#,
            ),
            (Box::new(|v| v["flows"][0]["ecn"] = 1.into()), "flows[0].ecn: invalid type: integer `1`, expected true"),
            (Box::new(|v| v["flows"][1]["pacing"] = true.into()), "flows[1].pacing: not a field of `cbr` flows"),
            (Box::new(|v| v["flows"][0]["hystart"] = "linux".into()), "flows[0].hystart: only a CUBIC sender"),
            (Box::new(|v| v["flows"][0]["cubic_rtt"] = "srtt".into()), "flows[0].cubic_rtt: only a CUBIC sender"),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "cubic".into();
                    v["flows"][0]["hystart"] = "on".into();
                }),
                "flows[0].hystart: unknown variant `on`",
            ),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "cubic".into();
                    v["flows"][0]["cubic_rtt"] = "max".into();
                }),
                "flows[0].cubic_rtt: unknown variant `max`",
            ),
            (Box::new(|v| v["flows"][0]["cc"] = "prague".into()), "flows[0].ecn: `prague` needs L4S ECN"),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "prague".into();
                    v["flows"][0]["ecn"] = "ect0".into();
                }),
                r#"flows[0].ecn: `prague` needs L4S ECN: set `ecn` to "ect1""#,
            ),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "prague".into();
                    v["flows"][0]["ecn"] = "ect1".into();
                    v["flows"][0]["pacing"] = false.into();
                }),
                "flows[0].pacing: `prague` paces its sending",
            ),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "bbr".into();
                    v["flows"][0]["pacing"] = false.into();
                }),
                "flows[0].pacing: `bbr` paces its segments",
            ),
            (
                Box::new(|v| {
                    v["flows"][0]["cc"] = "bbr".into();
                    v["flows"][0]["ecn"] = true.into();
                }),
                "flows[0].ecn: `bbr` (v1) does not answer ECN marks",
            ),
            (
                Box::new(|v| v["queue"]["params"] = serde_json::json!({ "min_th": 20, "max_th": 20, "gentle": true })),
                "queue.params.gentle: must be off for a step marker",
            ),
            (Box::new(|v| v["queue"]["scheme"] = "blu".into()), "queue.scheme: unknown scheme `blu`"),
            (Box::new(|v| v["queue"]["params"]["max_p"] = 3.into()), "queue.params.max_p: 3 is outside"),
            (Box::new(|v| v["queue"]["params"]["min_th"] = 40.into()), "queue.params.max_th: must be at least min_th"),
            (Box::new(|v| v["queue"]["params"]["nope"] = 1.into()), "queue.params.nope: `red` has no parameter"),
            (Box::new(|v| v["topology"]["buffer"] = serde_json::json!({})), "topology.buffer: give exactly one"),
            (Box::new(|v| v["measure_from_s"] = 10.into()), "measure_from_s: must be less than"),
            (Box::new(|v| v["duration_s"] = "ten".into()), "duration_s: invalid type"),
            (Box::new(|v| v["flows"][0]["start_s"] = serde_json::json!([3, 1])), "flows[0].start_s: [lo, hi]"),
            (Box::new(|v| v["flows"][0]["count"] = 0.into()), "flows[0].count: must be between"),
            // Limits read as people write them, not as 300-digit decimals.
            (Box::new(|v| v["flows"][0]["weight"] = 5000.into()), "flows[0].weight: must be at most 1000, got 5000"),
            (Box::new(|v| v["flows"][0]["weight"] = 0.into()), "flows[0].weight: must be > 0, got 0"),
            (
                Box::new(|v| v["flows"][0]["access_rate_bps"] = 2e12.into()),
                "flows[0].access_rate_bps: must be between 1000 and 1e12, got 2000000000000",
            ),
            (Box::new(|v| v["flows"][1]["kind"] = "tfrc".into()), "flows[1].rate_bps: not a field of `tfrc` flows"),
            (Box::new(|v| v["flows"] = serde_json::json!([])), "flows: needs at least one"),
            (
                Box::new(|v| v["flows"][1] = serde_json::json!({"kind": "ping", "interval_ms": 0})),
                "flows[1].interval_ms: must be > 0, got 0",
            ),
            (
                Box::new(|v| v["flows"][1] = serde_json::json!({"kind": "ping", "interval_ms": -5})),
                "flows[1].interval_ms: must be > 0, got -5",
            ),
            (
                Box::new(|v| v["flows"][1] = serde_json::json!({"kind": "ping", "packet_bytes": 4})),
                "flows[1].packet_bytes: must be between 8 and 65507, got 4",
            ),
            (
                Box::new(|v| v["flows"][1] = serde_json::json!({"kind": "ping", "packet_bytes": 70000})),
                "flows[1].packet_bytes: must be between 8 and 65507, got 70000",
            ),
            (
                Box::new(|v| v["flows"][1] = serde_json::json!({"kind": "ping", "rate_bps": 1e6})),
                "flows[1].rate_bps: not a field of `ping` flows",
            ),
            (
                Box::new(|v| v["flows"][0]["interval_ms"] = 10.into()),
                "flows[0].interval_ms: not a field of `tcp` flows",
            ),
            (Box::new(|v| v["topology"]["hops"] = 3.into()), "topology.hops: only a parking_lot"),
            (Box::new(|v| v["name"] = "a\u{0007}b".into()), "name: must be plain text"),
            (Box::new(|v| v["version"] = 2.into()), "version: only version 1"),
            (
                Box::new(|v| v["flows"][0]["access_jitter_ms"] = (-1).into()),
                "flows[0].access_jitter_ms: must be between",
            ),
            (
                Box::new(|v| v["flows"][1]["host_queue_packets"] = 0.into()),
                "flows[1].host_queue_packets: must be between",
            ),
            (
                Box::new(|v| v["topology"]["bottleneck"]["jitter_ms"] = 1.into()),
                "topology.bottleneck.jitter_ms: only the access link",
            ),
            (
                Box::new(|v| {
                    v["topology"]["access"] = serde_json::json!({"rate_bps": 1e7, "delay_ms": 1, "jitter_ms": 1e6})
                }),
                "topology.access.jitter_ms: must be between 0 and 10000",
            ),
        ];
        for (patch, expect) in cases {
            let msg = error_of(patch);
            assert!(msg.starts_with(expect), "expected `{expect}`, got `{msg}`");
        }
    }

    #[test]
    fn tcp_groups_choose_cubic_and_sack_and_default_to_newreno_without_sack() {
        let tcp_of = |patch: &dyn Fn(&mut serde_json::Value)| {
            let c = first_tcp_plan(patch);
            (c.cc, c.sack)
        };
        assert_eq!(tcp_of(&|_| {}), (CcVariant::NewReno, false));
        let cubic_sack = |v: &mut serde_json::Value| {
            v["flows"][0]["cc"] = "cubic".into();
            v["flows"][0]["sack"] = true.into();
        };
        assert_eq!(tcp_of(&cubic_sack), (CcVariant::Cubic, true));
    }

    #[test]
    fn cubic_groups_run_linux_hystart_and_the_minimum_rtt_unless_told_otherwise() {
        let options_of = |hystart: Option<&str>, cubic_rtt: Option<&str>| {
            let c = first_tcp_plan(|v| {
                v["flows"][0]["cc"] = "cubic".into();
                if let Some(h) = hystart {
                    v["flows"][0]["hystart"] = h.into();
                }
                if let Some(r) = cubic_rtt {
                    v["flows"][0]["cubic_rtt"] = r.into();
                }
            });
            (c.cubic.slow_start_exit, c.cubic.target_rtt)
        };
        assert_eq!(options_of(None, None), (SlowStartExit::HystartLinux, TargetRtt::Min));
        assert_eq!(options_of(Some("ns3"), None).0, SlowStartExit::HystartNs3);
        assert_eq!(options_of(Some("hystart++"), None).0, SlowStartExit::HystartPlusPlus);
        assert_eq!(options_of(Some("off"), Some("srtt")), (SlowStartExit::Off, TargetRtt::Smoothed));
    }

    #[test]
    fn ecn_takes_a_switch_or_a_codepoint_and_pacing_is_off_unless_asked() {
        let tcp_of = |patch: &dyn Fn(&mut serde_json::Value)| {
            let c = first_tcp_plan(patch);
            (c.cc, c.ecn, c.pacing)
        };
        assert_eq!(tcp_of(&|_| {}), (CcVariant::NewReno, Ecn::NotEct, false));
        for (value, codepoint) in [
            (serde_json::json!(false), Ecn::NotEct),
            (serde_json::json!(true), Ecn::Ect0),
            ("ect0".into(), Ecn::Ect0),
            ("ect1".into(), Ecn::Ect1),
        ] {
            let set = |v: &mut serde_json::Value| v["flows"][0]["ecn"] = value.clone();
            assert_eq!(tcp_of(&set).1, codepoint, "{value}");
        }
        let dctcp_paced = |v: &mut serde_json::Value| {
            v["flows"][0]["cc"] = "dctcp".into();
            v["flows"][0]["ecn"] = "ect1".into();
            v["flows"][0]["pacing"] = true.into();
        };
        assert_eq!(tcp_of(&dctcp_paced), (CcVariant::Dctcp, Ecn::Ect1, true));
        // Prague paces unless told otherwise (and refuses to be told, above).
        let prague = |v: &mut serde_json::Value| {
            v["flows"][0]["cc"] = "prague".into();
            v["flows"][0]["ecn"] = "ect1".into();
        };
        assert_eq!(tcp_of(&prague), (CcVariant::Prague, Ecn::Ect1, true));
        // BBR paces unless told otherwise (which is an error).
        assert_eq!(tcp_of(&|v| v["flows"][0]["cc"] = "bbr".into()), (CcVariant::Bbr, Ecn::NotEct, true));
        // The codepoint survives a round trip through the document.
        let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
        dctcp_paced(&mut v);
        let s = Scenario::from_json(&v.to_string()).unwrap();
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn a_ping_group_defaults_to_64_bytes_every_100_ms() {
        let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
        v["flows"][1] = serde_json::json!({"kind": "ping"});
        let plan = plan_of(&v.to_string()).unwrap();
        match &plan.groups[1].traffic {
            TrafficPlan::Ping(c) => assert_eq!((c.interval_ns, c.packet_bytes), (100_000_000, 64)),
            other => panic!("expected a ping plan, got {other:?}"),
        }
    }

    #[test]
    fn byte_buffers_scale_threshold_defaults() {
        let text = BASE.replace(r#""packets": 50"#, r#""bytes": 50000"#);
        let plan = plan_of(&text).unwrap();
        assert_eq!(plan.limit, Limit::Bytes(50_000));
        assert_eq!(plan.params.get("min_th"), 5000.0);
    }

    #[test]
    fn garbage_never_panics() {
        for text in ["", "null", "[]", "{", r#"{"version":1}"#, "1e999", r#"{"version":1,"duration_s":1e308}"#] {
            assert!(plan_of(text).is_err(), "{text}");
        }
    }

    #[test]
    fn round_trips_through_json() {
        let s = Scenario::from_json(BASE).unwrap();
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    }
}
