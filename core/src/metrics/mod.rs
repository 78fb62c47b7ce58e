//! Statistics, computed from observations that the network and transports
//! report. Mechanics never compute statistics themselves.

mod distributions;
mod dualq;
mod fairness;
mod histogram;
pub mod pcap;
mod series;
mod summary;

pub use distributions::{percentiles_ms, reports_rtt, Cdf, DelayDistributions, GroupDelays, HopDelays, Percentiles};
pub use dualq::{DualQueueSummary, SojournSummary};
pub use fairness::{fairness_f, max_min_shares, share_deviation};
#[cfg(test)]
pub(crate) use histogram::bin_edges as histogram_bin;
pub use histogram::Histogram;
pub use series::{Column, SeriesChunk, SeriesStore, SeriesView};
pub use summary::{jain, tcp_models, FlowSummary, Perf, Summary, TcpModels};

use crate::kernel::{to_secs, Nanos};
use crate::net::Lane;
use crate::queue::DropReason;
use crate::transport::AgentProbe;
use crate::transport::FlowKind;

/// Values kept in the history at most (the row cap follows from the width).
const HISTORY_VALUES: usize = 4_000_000;

/// Who a flow is, for reports and fair-share references.
#[derive(Clone, Debug)]
pub struct FlowInfo {
    pub group: usize,
    pub kind: FlowKind,
    /// Offered wire rate; None for elastic (TCP) flows.
    pub demand_wire_bps: Option<f64>,
    /// Payload bytes per wire byte of its data packets, to express wire
    /// shares as goodput.
    pub payload_fraction: f64,
    /// Congested hops crossed (first, last).
    pub path: (usize, usize),
    /// Data crosses the reverse links.
    pub reverse: bool,
    /// Bulk TCP flows: (MSS in bytes, min RTO), for the throughput models.
    pub tcp: Option<(u32, Nanos)>,
}

/// What a [`Recorder`] measures and keeps.
pub struct RecorderConfig {
    pub window_from: Nanos,
    pub flows: Vec<FlowInfo>,
    pub group_labels: Vec<String>,
    pub hops: usize,
    pub hop_rate_bps: f64,
    /// Scheme probe ids, for the series columns.
    pub probes: Vec<&'static str>,
    /// The congested hops run a dual-queue scheme (DualPI2): per-queue
    /// columns and summaries.
    pub dual_queue: bool,
    /// T_m of Cho & Cho 2002 eq. 12 (per-flow goodput coefficient of variation).
    pub cov_interval_ns: Nanos,
    /// Add each hop's `capacity_bps` columns (its links follow a rate trace).
    pub capacity_columns: bool,
    /// Keep a decimated history (CSV export).
    pub history: bool,
    /// Keep rows for [`Recorder::drain`] (live charts).
    pub streaming: bool,
}

#[derive(Clone, Debug, Default)]
struct FlowCounters {
    sent_packets: u64,
    delivered_bytes: u64,
    drops: [u64; 3],
    /// Packets dropped at the sender's own host queue (window).
    host_drops: u64,
    marks: u64,
    /// Bytes delivered since the last sample, for per-interval goodput.
    interval_bytes: u64,
    cov: CovBins,
    /// Queueing delay of the flow's packets at congested hops (window).
    delay_sum_ns: u64,
    delay_count: u64,
    delay_max_ns: u64,
    /// RTT samples the transport measured (window).
    rtt_sum_ns: u64,
    rtt_count: u64,
}

/// Goodput in consecutive T_m bins of the window, as running sums so that
/// eq. 12 needs no per-bin storage: Σ(x_k/G − 1)² = Σx²/G² − 2Σx/G + n.
#[derive(Clone, Debug, Default)]
struct CovBins {
    bin: u64,
    bytes: u64,
    sum: f64,
    sum_sq: f64,
    closed: u64,
}

impl CovBins {
    /// Close every bin that ended before bin `k`.
    fn advance(&mut self, k: u64) {
        while self.bin < k {
            let x = self.bytes as f64;
            self.sum += x;
            self.sum_sq += x * x;
            self.closed += 1;
            self.bytes = 0;
            self.bin += 1;
        }
    }

    fn cov(&self) -> Option<f64> {
        if self.closed < 2 || self.sum <= 0.0 {
            return None;
        }
        let n = self.closed as f64;
        let g = self.sum / n;
        let sq = self.sum_sq / (g * g) - 2.0 * self.sum / g + n;
        Some(libm::sqrt(sq.max(0.0) / (n - 1.0)))
    }
}

/// One monitored queue (a bottleneck hop).
#[derive(Clone, Debug, Default)]
struct PortStats {
    len_packets: usize,
    len_bytes: u64,
    last_change: Nanos,
    /// ∫ length dt over the window, in packet·ns and byte·ns.
    area_packets: f64,
    area_bytes: f64,
    busy_ns: u64,
    /// When the transmission in progress ends: the part past `now` is not yet busy time.
    tx_end: Nanos,
    delay: Histogram,
    arrivals: u64,
    /// Wire bytes of the window's arrivals, for the offered load.
    arrived_bytes: u64,
    /// The window's drops at this queue, whatever the reason, and its ECN marks.
    drops: u64,
    marks: u64,
    // Per sample interval.
    interval_arrivals: u64,
    interval_drops: [u64; 3],
    interval_marks: u64,
    interval_delay_sum_ns: u64,
    interval_departures: u64,
    interval_busy_ns: u64,
    /// Per-queue statistics of a dual-queue hop.
    dualq: Option<dualq::DualQueueStats>,
}

pub struct Recorder {
    window_from: Nanos,
    cov_interval_ns: Nanos,
    hop_rate_bps: f64,
    group_labels: Vec<String>,
    /// Each group's flow kind (from its flows).
    group_kinds: Vec<FlowKind>,
    /// Each group's sojourn and RTT distributions (window).
    group_hists: Vec<distributions::GroupHistograms>,
    flows: Vec<FlowInfo>,
    counters: Vec<FlowCounters>,
    ports: Vec<PortStats>,
    probe_len: usize,
    /// Where [`dualq::PROBES`] sit among the probes, for a dual-queue hop.
    dualq_probes: Option<[usize; 3]>,
    /// Completion times of finite transfers that ended in the window.
    transfers: Histogram,
    /// Transfers per AFpFT (2011) Table III bucket (see [`FCT_BUCKET_EDGES_S`]).
    transfer_buckets: [u64; FCT_BUCKET_EDGES_S.len() + 1],
    pub series: Option<SeriesStore>,
    last_sample: Nanos,
    row: Vec<f64>,
    /// Every sojourn (hop, group, ns) and RTT (group, ns) of the window, for
    /// tests that compute percentiles the slow way.
    #[cfg(test)]
    pub(crate) every_sojourn: Vec<(usize, usize, Nanos)>,
    #[cfg(test)]
    pub(crate) every_rtt: Vec<(usize, Nanos)>,
}

/// Upper edges of the transfer-time buckets of AFpFT (2011) Table III.
pub const FCT_BUCKET_EDGES_S: [f64; 5] = [0.05, 0.5, 1.0, 2.0, 5.0];

/// Where probe `id` sits among `probes`; a dual-queue scheme declares every one of [`dualq::PROBES`].
fn probe_index(probes: &[&str], id: &str) -> usize {
    probes.iter().position(|p| *p == id).expect("a dual-queue scheme declares the p_* probes")
}

/// Fixed columns before the per-probe and per-flow ones.
const FIXED: &[(&str, &str)] = &[
    ("t_s", "s"),
    ("queue_packets", "packets"),
    ("queue_bytes", "bytes"),
    ("queue_delay_ms", "ms"),
    ("utilization", ""),
    ("arrivals", "packets"),
    ("drops_early", "packets"),
    ("drops_forced", "packets"),
    ("drops_overflow", "packets"),
    ("marks", "packets"),
];

impl Recorder {
    pub fn new(cfg: RecorderConfig) -> Recorder {
        let n = cfg.flows.len();
        let mut columns: Vec<Column> = FIXED.iter().map(|(id, unit)| Column { id: id.to_string(), unit }).collect();
        for h in 1..cfg.hops {
            columns.push(Column { id: format!("queue_packets@{h}"), unit: "packets" });
        }
        columns.extend(cfg.probes.iter().map(|p| Column { id: format!("probe.{p}"), unit: "" }));
        let dualq_probes = cfg.dual_queue.then(|| dualq::PROBES.map(|id| probe_index(&cfg.probes, id)));
        if dualq_probes.is_some() {
            columns.extend(dualq::COLUMNS.iter().map(|(id, unit)| Column { id: id.to_string(), unit }));
        }
        columns.extend((0..n).map(|i| Column { id: format!("goodput_bps.{i}"), unit: "bps" }));
        columns.extend((0..n).map(|i| Column { id: format!("cwnd_packets.{i}"), unit: "packets" }));
        columns.extend((0..n).map(|i| Column { id: format!("srtt_ms.{i}"), unit: "ms" }));
        if cfg.capacity_columns {
            columns.push(Column { id: "capacity_bps".to_string(), unit: "bps" });
            columns.extend((1..cfg.hops).map(|h| Column { id: format!("capacity_bps@{h}"), unit: "bps" }));
        }
        let width = columns.len();
        let mut group_kinds = vec![FlowKind::default(); cfg.group_labels.len()];
        for f in &cfg.flows {
            group_kinds[f.group] = f.kind;
        }
        let series = (cfg.history || cfg.streaming).then(|| {
            let cap = if cfg.history { (HISTORY_VALUES / width).max(500) } else { 2 };
            SeriesStore::new(columns, cap, cfg.streaming)
        });
        Recorder {
            window_from: cfg.window_from,
            cov_interval_ns: cfg.cov_interval_ns.max(1),
            hop_rate_bps: cfg.hop_rate_bps,
            group_hists: vec![Default::default(); cfg.group_labels.len()],
            group_labels: cfg.group_labels,
            group_kinds,
            counters: vec![FlowCounters::default(); n],
            flows: cfg.flows,
            ports: vec![PortStats { dualq: cfg.dual_queue.then(Default::default), ..Default::default() }; cfg.hops],
            probe_len: cfg.probes.len(),
            dualq_probes,
            transfers: Histogram::default(),
            transfer_buckets: [0; FCT_BUCKET_EDGES_S.len() + 1],
            series,
            last_sample: 0,
            row: Vec::with_capacity(width),
            #[cfg(test)]
            every_sojourn: Vec::new(),
            #[cfg(test)]
            every_rtt: Vec::new(),
        }
    }

    fn in_window(&self, t: Nanos) -> bool {
        t >= self.window_from
    }

    /// Length of [a, b] that lies in the window.
    fn overlap(&self, a: Nanos, b: Nanos) -> u64 {
        b.saturating_sub(a.max(self.window_from))
    }

    pub fn on_sent(&mut self, flow: usize, now: Nanos) {
        if self.in_window(now) {
            self.counters[flow].sent_packets += 1;
        }
    }

    pub fn on_delivered(&mut self, flow: usize, bytes: u64, now: Nanos) {
        let inside = self.in_window(now);
        let bin = (now.saturating_sub(self.window_from)) / self.cov_interval_ns;
        let c = &mut self.counters[flow];
        c.interval_bytes += bytes;
        if inside {
            c.delivered_bytes += bytes;
            c.cov.advance(bin);
            c.cov.bytes += bytes;
        }
    }

    /// A finite transfer completed at `now`, `duration` after it was requested.
    pub fn on_transfer_complete(&mut self, duration: Nanos, now: Nanos) {
        if !self.in_window(now) {
            return;
        }
        self.transfers.record(duration);
        let secs = to_secs(duration);
        let bucket = FCT_BUCKET_EDGES_S.iter().position(|&edge| secs < edge).unwrap_or(FCT_BUCKET_EDGES_S.len());
        self.transfer_buckets[bucket] += 1;
    }

    /// The transport of `flow` measured a round-trip time.
    pub fn on_rtt(&mut self, flow: usize, rtt: Nanos, now: Nanos) {
        if self.in_window(now) {
            let c = &mut self.counters[flow];
            c.rtt_sum_ns += rtt;
            c.rtt_count += 1;
            self.group_hists[self.flows[flow].group].rtt.record(rtt);
            #[cfg(test)]
            self.every_rtt.push((self.flows[flow].group, rtt));
        }
    }

    pub fn on_drop(&mut self, hop: Option<usize>, flow: usize, lane: Lane, reason: DropReason, now: Nanos) {
        let inside = self.in_window(now);
        if let Some(p) = hop.and_then(|h| self.ports.get_mut(h)) {
            p.interval_drops[reason.index()] += 1;
            if inside {
                p.drops += 1;
                if let Some(d) = p.dualq.as_mut() {
                    d.on_drop(lane);
                }
            }
        }
        if inside {
            self.counters[flow].drops[reason.index()] += 1;
        }
    }

    /// `packets` of `flow` were dropped at its host queue, before the network.
    pub fn on_host_drops(&mut self, flow: usize, packets: u64, now: Nanos) {
        if self.in_window(now) {
            self.counters[flow].host_drops += packets;
        }
    }

    pub fn on_mark(&mut self, hop: Option<usize>, flow: usize, lane: Lane, now: Nanos) {
        let inside = self.in_window(now);
        if let Some(p) = hop.and_then(|h| self.ports.get_mut(h)) {
            p.interval_marks += 1;
            if inside {
                p.marks += 1;
                if let Some(d) = p.dualq.as_mut() {
                    d.on_mark(lane);
                }
            }
        }
        if inside {
            self.counters[flow].marks += 1;
        }
    }

    /// A packet of `bytes` on the wire arrived at monitored queue `hop` (before the scheme decides).
    pub fn on_arrival(&mut self, hop: usize, now: Nanos, bytes: u32) {
        let inside = self.in_window(now);
        let p = &mut self.ports[hop];
        p.interval_arrivals += 1;
        if inside {
            p.arrivals += 1;
            p.arrived_bytes += bytes as u64;
        }
    }

    /// The length of monitored queue `hop` may have changed at `now`.
    pub fn on_queue_len(&mut self, hop: usize, now: Nanos, len_packets: usize, len_bytes: u64) {
        let span = self.overlap(self.ports[hop].last_change, now) as f64;
        let p = &mut self.ports[hop];
        p.area_packets += p.len_packets as f64 * span;
        p.area_bytes += p.len_bytes as f64 * span;
        p.len_packets = len_packets;
        p.len_bytes = len_bytes;
        p.last_change = now;
    }

    /// A packet of `flow` left monitored queue `hop` (its `lane` there) after `delay` in it, to be sent for `tx`.
    pub fn on_departure(&mut self, hop: usize, flow: usize, lane: Lane, now: Nanos, delay: Nanos, tx: Nanos) {
        let busy = self.overlap(now, now + tx);
        let inside = self.in_window(now);
        if inside {
            let c = &mut self.counters[flow];
            c.delay_sum_ns += delay;
            c.delay_count += 1;
            c.delay_max_ns = c.delay_max_ns.max(delay);
            self.group_hists[self.flows[flow].group].sojourn.record(delay);
            #[cfg(test)]
            self.every_sojourn.push((hop, self.flows[flow].group, delay));
        }
        let p = &mut self.ports[hop];
        p.busy_ns += busy;
        p.tx_end = now + tx;
        p.interval_busy_ns += tx;
        p.interval_delay_sum_ns += delay;
        p.interval_departures += 1;
        if inside {
            p.delay.record(delay);
        }
        if let Some(d) = p.dualq.as_mut() {
            d.on_departure(lane, delay, inside);
        }
    }

    /// Take a sample at `now`: queue state, the scheme's probes, per-flow
    /// state, and each hop's capacity when its links follow a trace.
    pub fn sample(&mut self, now: Nanos, queue_probe: &[f64], agents: &[AgentProbe], capacity: &[f64]) {
        let Some(series) = self.series.as_mut() else { return };
        let dt = now.saturating_sub(self.last_sample).max(1);
        self.last_sample = now;
        let row = &mut self.row;
        row.clear();
        let p0 = &mut self.ports[0];
        let mean_delay = if p0.interval_departures > 0 {
            p0.interval_delay_sum_ns as f64 / p0.interval_departures as f64 / 1e6
        } else {
            0.0
        };
        row.extend([
            to_secs(now),
            p0.len_packets as f64,
            p0.len_bytes as f64,
            mean_delay,
            (p0.interval_busy_ns as f64 / dt as f64).min(1.0),
            p0.interval_arrivals as f64,
            p0.interval_drops[0] as f64,
            p0.interval_drops[1] as f64,
            p0.interval_drops[2] as f64,
            p0.interval_marks as f64,
        ]);
        for p in self.ports.iter_mut() {
            p.interval_arrivals = 0;
            p.interval_drops = [0; 3];
            p.interval_marks = 0;
            p.interval_delay_sum_ns = 0;
            p.interval_departures = 0;
            p.interval_busy_ns = 0;
        }
        row.extend(self.ports[1..].iter().map(|p| p.len_packets as f64));
        debug_assert_eq!(queue_probe.len(), self.probe_len);
        row.extend_from_slice(queue_probe);
        if let Some(at) = self.dualq_probes {
            // The columns describe the first hop, as the probes do; every hop's interval restarts.
            let mut hops = self.ports.iter_mut().filter_map(|p| p.dualq.as_mut());
            row.extend(hops.next().map_or([0.0; 2], |d| d.take_interval_means_ms()));
            hops.for_each(|d| {
                d.take_interval_means_ms();
            });
            row.extend(at.map(|i| queue_probe[i]));
        }
        let secs = to_secs(dt);
        for c in self.counters.iter_mut() {
            row.push(c.interval_bytes as f64 * 8.0 / secs);
            c.interval_bytes = 0;
        }
        row.extend(agents.iter().map(|a| a.cwnd_packets));
        row.extend(agents.iter().map(|a| a.srtt_ms));
        row.extend_from_slice(capacity);
        series.push(row);
    }

    pub fn drain(&mut self) -> SeriesView<'_> {
        self.series.as_mut().map(|s| s.drain()).unwrap_or_default()
    }

    /// The series column ids (none without series).
    pub fn series_columns(&self) -> Vec<String> {
        self.series.as_ref().map(|s| s.column_ids()).unwrap_or_default()
    }

    pub fn history(&self) -> SeriesChunk {
        self.series.as_ref().map(|s| s.history()).unwrap_or_default()
    }

    /// The delay distributions of the window so far.
    pub fn delay_distributions(&self) -> DelayDistributions {
        distributions::delay_distributions(self)
    }

    /// The summary over [window_from, now].
    pub fn summary(&self, now: Nanos, events: u64, packets: u64) -> Summary {
        summary::compute(self, now, events, packets)
    }
}
