//! The summary block of docs/scenario-format.md, over the measurement window.

use super::distributions::{percentiles_ms, reports_rtt, Percentiles};
use super::fairness::{fairness_f, max_min_shares, share_deviation};
use super::{DualQueueSummary, FlowInfo, Recorder};
use crate::kernel::{to_secs, Nanos};
use crate::queue::DropReason;
use crate::transport::tfrc::throughput_equation;
use crate::transport::FlowKind;
use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Summary {
    /// Length of the measurement window so far.
    pub window_s: f64,
    pub aggregate_goodput_bps: f64,
    pub utilization: f64,
    pub queue: QueueSummary,
    /// Drops in the network's queues (routers and links).
    pub drops: DropSummary,
    /// Packets that sources could not put on their access links because the
    /// host queue was full; not part of `drops` (see `FlowSummary::host_drops`).
    pub host_drops: u64,
    pub marks: u64,
    pub fairness: Fairness,
    pub flows: Vec<FlowSummary>,
    pub groups: Vec<GroupSummary>,
    /// Every congested hop of a parking lot (the dumbbell's one bottleneck too).
    pub hops: Vec<HopSummary>,
    pub perf: Perf,
    /// Present when the scenario has web flows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub web: Option<WebSummary>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct WebSummary {
    /// Transfers that completed in the window.
    pub completed: u64,
    pub mean_fct_ms: f64,
    pub median_fct_ms: f64,
    pub p99_fct_ms: f64,
    /// AFpFT (2011) Table III: share of transfers by completion time.
    pub fct_buckets: Vec<FctBucket>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FctBucket {
    pub from_s: f64,
    /// Exclusive upper edge; null for the last, open bucket.
    pub to_s: Option<f64>,
    pub percent: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct QueueSummary {
    pub mean_packets: f64,
    pub mean_bytes: f64,
    pub mean_delay_ms: f64,
    pub p99_delay_ms: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct DropSummary {
    pub total: u64,
    pub by_reason: ByReason,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ByReason {
    pub early: u64,
    pub forced: u64,
    pub overflow: u64,
}

impl ByReason {
    fn from_counts(c: [u64; 3]) -> ByReason {
        ByReason {
            early: c[DropReason::Early.index()],
            forced: c[DropReason::Forced.index()],
            overflow: c[DropReason::Overflow.index()],
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Fairness {
    /// Jain's index over every flow's goodput; null when all are zero.
    pub jain_all: Option<f64>,
    /// Over TCP flows only; null when there are none or all are zero.
    pub jain_tcp: Option<f64>,
    /// Cho & Cho 2002 eq. 9: std-dev of goodput / max-min share over all flows.
    pub share_deviation: Option<f64>,
    /// Karam & Tobagi's (2000) f (0 = max-min fair, 1 = proportional to input rates);
    /// null unless every flow has a known input rate (no TCP).
    pub fairness_f: Option<f64>,
    /// Mean over TCP flows of Cho & Cho 2002 eq. 12's CoV of per-T_m goodput.
    pub mean_cov_tcp: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct FlowSummary {
    pub id: usize,
    pub group: usize,
    pub kind: &'static str,
    pub goodput_bps: f64,
    /// Max-min fair share of this flow, as goodput.
    pub fair_share_bps: f64,
    pub sent_packets: u64,
    pub dropped_packets: u64,
    pub drops_by_reason: ByReason,
    /// Packets dropped at the sender's host queue (not sent, so neither in
    /// `sent_packets` nor in `dropped_packets`).
    pub host_drops: u64,
    pub marked_packets: u64,
    /// Dropped / sent in the window.
    pub loss_rate: f64,
    /// Queueing delay of the flow's packets at the congested hops.
    pub mean_queue_delay_ms: f64,
    pub max_queue_delay_ms: f64,
    /// Mean of the RTT samples the transport took (null without any).
    pub mean_rtt_ms: Option<f64>,
    /// Bulk TCP flows with losses: goodput that theory predicts from this
    /// flow's measured loss rate p and mean RTT (see [`tcp_models`]).
    pub tcp_models: Option<TcpModels>,
    /// Cho & Cho 2002 eq. 12: CoV of goodput over T_m bins (null if < 2 bins).
    pub cov: Option<f64>,
}

/// Throughput models of a TCP flow, in bits/s of goodput.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct TcpModels {
    /// Mathis et al. 1997: MSS/RTT·√(3/(2p)), congestion avoidance only.
    pub mathis_bps: f64,
    /// Padhye et al. 1998 (Cho & Cho 2002 eq. 13, b = 1), with timeouts of
    /// t_RTO = max(min RTO, 4·RTT).
    pub padhye_bps: f64,
}

/// The throughput models for a flow with segment size `mss` bytes, loss
/// probability `p` and round-trip time `rtt_s`.
pub fn tcp_models(mss: f64, rtt_s: f64, p: f64, min_rto_s: f64) -> TcpModels {
    TcpModels {
        mathis_bps: 8.0 * mss / rtt_s * libm::sqrt(1.5 / p),
        padhye_bps: 8.0 * throughput_equation(mss, rtt_s, p, min_rto_s.max(4.0 * rtt_s)),
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct GroupSummary {
    pub group: usize,
    pub label: String,
    pub kind: &'static str,
    pub flows: usize,
    pub total_goodput_bps: f64,
    pub mean_goodput_bps: f64,
    pub mean_fair_share_bps: f64,
    pub jain: Option<f64>,
    /// Mean over the group's flows of Cho & Cho 2002 eq. 12's goodput CoV (null
    /// when no flow has two bins): how smooth the group's traffic is.
    pub mean_cov: Option<f64>,
    /// Queueing delay of the group's packets at the congested hops (null without any).
    pub sojourn_percentiles_ms: Option<Percentiles>,
    /// The group's RTT samples: TCP and ping groups only (null without any).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional, type = "Percentiles | null"))]
    pub rtt_percentiles_ms: Option<Option<Percentiles>>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct HopSummary {
    pub hop: usize,
    pub utilization: f64,
    pub mean_packets: f64,
    pub arrivals: u64,
    /// Arriving wire bits over what the link can carry in the window: the
    /// offered load factor ρ = λ/μ of Zheng & Atiquzzaman 2000 §2.3.
    pub offered_load: f64,
    /// Drops at this queue over its arrivals in the window.
    pub drop_rate: f64,
    /// ECN marks at this queue over its arrivals in the window.
    pub mark_rate: f64,
    /// ECN marks at this queue in the window.
    pub marks: u64,
    /// Time packets spent in this queue (null without departures).
    pub sojourn_percentiles_ms: Option<Percentiles>,
    /// A dual-queue (DualPI2) hop's per-queue sojourns, marks and drops; absent on other schemes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub dualq: Option<DualQueueSummary>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Perf {
    pub events: u64,
    /// Packets put on the wire by sources and sinks (data and ACKs).
    pub packets: u64,
    pub simulated_s: f64,
    /// The rest is filled in by a caller that owns a wall clock (CLI, browser).
    pub wall_s: f64,
    pub events_per_s: f64,
    pub packets_per_s: f64,
}

impl Perf {
    pub fn set_wall(&mut self, wall_s: f64) {
        self.wall_s = wall_s;
        if wall_s > 0.0 {
            self.events_per_s = self.events as f64 / wall_s;
            self.packets_per_s = self.packets as f64 / wall_s;
        }
    }
}

/// Jain's fairness index (Σx)² / (n·Σx²); undefined (None) for an empty or
/// all-zero set: flows that all starve are not "perfectly fair".
pub fn jain(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut n, mut sum, mut sq) = (0usize, 0.0, 0.0);
    for x in xs {
        n += 1;
        sum += x;
        sq += x * x;
    }
    (n > 0 && sq > 0.0).then(|| sum * sum / (n as f64 * sq))
}

/// The measurement window up to `now`, and the averages over it.
struct Window<'a> {
    r: &'a Recorder,
    now: Nanos,
    ns: Nanos,
    secs: f64,
}

impl<'a> Window<'a> {
    fn new(r: &'a Recorder, now: Nanos) -> Self {
        let ns = now.saturating_sub(r.window_from);
        Window { r, now, ns, secs: to_secs(ns) }
    }

    fn per_s(&self, x: f64) -> f64 {
        if self.ns == 0 {
            0.0
        } else {
            x / self.secs
        }
    }

    /// A time integral (value·ns) as a mean over the window.
    fn mean_of(&self, area: f64) -> f64 {
        if self.ns == 0 {
            0.0
        } else {
            area / self.ns as f64
        }
    }

    /// Queue areas (packets·ns, bytes·ns) up to `now`, including the stretch
    /// since the last change.
    fn area(&self, p: &super::PortStats) -> (f64, f64) {
        let span = self.r.overlap(p.last_change, self.now) as f64;
        (p.area_packets + p.len_packets as f64 * span, p.area_bytes + p.len_bytes as f64 * span)
    }

    fn busy_fraction(&self, p: &super::PortStats) -> f64 {
        let busy = p.busy_ns.saturating_sub(p.tx_end.saturating_sub(self.now.max(self.r.window_from)));
        self.mean_of(busy as f64)
    }
}

pub(super) fn compute(r: &Recorder, now: Nanos, events: u64, packets: u64) -> Summary {
    let w = Window::new(r, now);
    let flows = flow_summaries(&w);
    let by = |reason: DropReason| r.counters.iter().map(|c| c.drops[reason.index()]).sum::<u64>();
    let by_reason = ByReason::from_counts(DropReason::ALL.map(by));
    let p0 = &r.ports[0];
    let (a_pkts, a_bytes) = w.area(p0);
    Summary {
        window_s: w.secs,
        aggregate_goodput_bps: flows.iter().map(|f| f.goodput_bps).sum(),
        utilization: w.busy_fraction(p0),
        queue: QueueSummary {
            mean_packets: w.mean_of(a_pkts),
            mean_bytes: w.mean_of(a_bytes),
            mean_delay_ms: p0.delay.mean() / 1e6,
            p99_delay_ms: p0.delay.quantile(0.99) / 1e6,
        },
        drops: DropSummary { total: by_reason.early + by_reason.forced + by_reason.overflow, by_reason },
        host_drops: r.counters.iter().map(|c| c.host_drops).sum(),
        marks: r.counters.iter().map(|c| c.marks).sum(),
        fairness: fairness(r, &flows),
        hops: hop_summaries(&w),
        groups: group_summaries(r, &flows),
        flows,
        web: r.flows.iter().any(|f| f.kind == FlowKind::Web).then(|| web_summary(r)),
        perf: Perf { events, packets, simulated_s: to_secs(now), wall_s: 0.0, events_per_s: 0.0, packets_per_s: 0.0 },
    }
}

fn flow_summaries(w: &Window) -> Vec<FlowSummary> {
    let r = w.r;
    // Links 0..hops are the forward hops, hops..2·hops their reverse links.
    let hops = r.ports.len();
    let paths: Vec<Vec<usize>> =
        r.flows.iter().map(|f| (f.path.0..=f.path.1).map(|h| if f.reverse { hops + h } else { h }).collect()).collect();
    let demands: Vec<Option<f64>> = r.flows.iter().map(|f| f.demand_wire_bps).collect();
    let wire_shares = max_min_shares(&vec![r.hop_rate_bps; 2 * hops], &paths, &demands);
    r.flows
        .iter()
        .zip(&r.counters)
        .zip(&wire_shares)
        .enumerate()
        .map(|(id, ((info, c), share))| flow_summary(w, id, info, c, share * info.payload_fraction))
        .collect()
}

fn flow_summary(w: &Window, id: usize, info: &FlowInfo, c: &super::FlowCounters, fair_share_bps: f64) -> FlowSummary {
    let dropped = c.drops.iter().sum();
    let mut bins = c.cov.clone();
    bins.advance(w.ns / w.r.cov_interval_ns);
    let loss_rate = if c.sent_packets == 0 { 0.0 } else { dropped as f64 / c.sent_packets as f64 };
    let mean_rtt_s = (c.rtt_count > 0).then(|| c.rtt_sum_ns as f64 / c.rtt_count as f64 / 1e9);
    FlowSummary {
        id,
        group: info.group,
        kind: info.kind.as_str(),
        goodput_bps: w.per_s(c.delivered_bytes as f64 * 8.0),
        fair_share_bps,
        sent_packets: c.sent_packets,
        dropped_packets: dropped,
        drops_by_reason: ByReason::from_counts(c.drops),
        host_drops: c.host_drops,
        marked_packets: c.marks,
        loss_rate,
        mean_rtt_ms: mean_rtt_s.map(|r| r * 1e3),
        tcp_models: match (info.tcp, mean_rtt_s) {
            (Some((mss, min_rto)), Some(rtt)) if loss_rate > 0.0 => {
                Some(tcp_models(mss as f64, rtt, loss_rate, to_secs(min_rto)))
            }
            _ => None,
        },
        mean_queue_delay_ms: if c.delay_count == 0 { 0.0 } else { c.delay_sum_ns as f64 / c.delay_count as f64 / 1e6 },
        max_queue_delay_ms: c.delay_max_ns as f64 / 1e6,
        cov: bins.cov(),
    }
}

fn group_summaries(r: &Recorder, flows: &[FlowSummary]) -> Vec<GroupSummary> {
    r.group_labels
        .iter()
        .enumerate()
        .map(|(g, label)| {
            let members: Vec<&FlowSummary> = flows.iter().filter(|f| f.group == g).collect();
            let n = members.len().max(1) as f64;
            let total: f64 = members.iter().map(|f| f.goodput_bps).sum();
            GroupSummary {
                group: g,
                label: label.clone(),
                kind: members.first().map_or("", |f| f.kind),
                flows: members.len(),
                total_goodput_bps: total,
                mean_goodput_bps: total / n,
                mean_fair_share_bps: members.iter().map(|f| f.fair_share_bps).sum::<f64>() / n,
                jain: jain(members.iter().map(|f| f.goodput_bps)),
                mean_cov: mean(members.iter().filter_map(|f| f.cov)),
                sojourn_percentiles_ms: percentiles_ms(&r.group_hists[g].sojourn),
                rtt_percentiles_ms: reports_rtt(r.group_kinds[g]).then(|| percentiles_ms(&r.group_hists[g].rtt)),
            }
        })
        .collect()
}

fn fairness(r: &Recorder, flows: &[FlowSummary]) -> Fairness {
    let goodputs: Vec<f64> = flows.iter().map(|f| f.goodput_bps).collect();
    let fair: Vec<f64> = flows.iter().map(|f| f.fair_share_bps).collect();
    let inputs: Option<Vec<f64>> = r.flows.iter().map(|f| f.demand_wire_bps.map(|d| d * f.payload_fraction)).collect();
    let tcp = || flows.iter().filter(|f| f.kind == FlowKind::Tcp.as_str());
    Fairness {
        jain_all: jain(goodputs.iter().copied()),
        jain_tcp: jain(tcp().map(|f| f.goodput_bps)),
        share_deviation: share_deviation(&goodputs, &fair),
        // Σ fair shares is the capacity the flows can use between them.
        fairness_f: inputs.and_then(|i| fairness_f(&goodputs, &fair, &i, fair.iter().sum())),
        mean_cov_tcp: mean(tcp().filter_map(|f| f.cov)),
    }
}

fn hop_summaries(w: &Window) -> Vec<HopSummary> {
    let r = w.r;
    r.ports
        .iter()
        .enumerate()
        .map(|(hop, p)| HopSummary {
            hop,
            utilization: w.busy_fraction(p),
            mean_packets: w.mean_of(w.area(p).0),
            arrivals: p.arrivals,
            offered_load: if w.ns == 0 { 0.0 } else { p.arrived_bytes as f64 * 8.0 / (r.hop_rate_bps * w.secs) },
            drop_rate: if p.arrivals == 0 { 0.0 } else { p.drops as f64 / p.arrivals as f64 },
            mark_rate: if p.arrivals == 0 { 0.0 } else { p.marks as f64 / p.arrivals as f64 },
            marks: p.marks,
            sojourn_percentiles_ms: percentiles_ms(&p.delay),
            dualq: p.dualq.as_ref().map(|d| d.summary()),
        })
        .collect()
}

fn web_summary(r: &Recorder) -> WebSummary {
    let t = &r.transfers;
    let total = t.count().max(1) as f64;
    let edges = super::FCT_BUCKET_EDGES_S;
    WebSummary {
        completed: t.count(),
        mean_fct_ms: t.mean() / 1e6,
        median_fct_ms: t.quantile(0.5) / 1e6,
        p99_fct_ms: t.quantile(0.99) / 1e6,
        fct_buckets: r
            .transfer_buckets
            .iter()
            .enumerate()
            .map(|(i, &n)| FctBucket {
                from_s: if i == 0 { 0.0 } else { edges[i - 1] },
                to_s: edges.get(i).copied(),
                percent: 100.0 * n as f64 / total,
            })
            .collect(),
    }
}

/// The mean of `values`, or None when there are none.
fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(sum, n), v| (sum + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_models_closed_forms() {
        // 1000-byte segments, 100 ms, 1% loss: Mathis 8000/0.1·√150 b/s;
        // Padhye with t_RTO = 4·RTT is TFRC's equation (112 332.2 B/s there).
        let m = tcp_models(1000.0, 0.1, 0.01, 0.2);
        assert!((m.mathis_bps - 80_000.0 * 150f64.sqrt()).abs() < 1e-6);
        assert!((m.padhye_bps - 8.0 * 112_332.2).abs() < 1.0, "{m:?}");
        // A min RTO above 4·RTT lengthens timeouts: a lower estimate.
        assert!(tcp_models(1000.0, 0.1, 0.01, 1.0).padhye_bps < m.padhye_bps);
    }

    #[test]
    fn jain_index_limits() {
        assert_eq!(jain([5.0, 5.0, 5.0]), Some(1.0));
        assert_eq!(jain([1.0, 0.0, 0.0, 0.0]), Some(0.25));
        assert!((jain([1.0, 2.0]).unwrap() - 0.9).abs() < 1e-12);
        assert_eq!(jain([0.0, 0.0]), None);
        assert_eq!(jain([]), None);
    }
}
