//! How many events a scenario will take, before running it.
//!
//! Work is events, and events follow packets: each packet costs two events
//! per congested link it crosses (the end of its serialisation, then its
//! arrival at the next queue or its delivery) and one per uncongested link
//! (whose end of serialisation needs no event while nothing waits), a
//! source timer per packet for paced sources (TCP with `pacing` too), and
//! for TCP the same again for the ACK coming back. Packet rates
//! come from the max-min fair allocation of the congested links among the
//! flows, each flow capped by its own access link (and by its receive window
//! for TCP): a source can never put more on the wire than its access link
//! carries (crate::net::host), and elastic traffic can never carry more
//! than the congested links do. Over a flow's active time this gives the
//! estimate, within a factor of 2 of the count on every preset. A link
//! following a rate trace carries the trace's mean rate.

use super::SeriesMode;
use crate::kernel::to_secs;
use crate::metrics::max_min_shares;
use crate::net::trace::TracePlan;
use crate::net::{TCP_HEADER_BYTES, UDP_HEADER_BYTES};
use crate::scenario::{FlowPlan, Plan, TrafficPlan};
use crate::transport::web::WebPattern;
use serde::Serialize;

/// `aqm-sim run` refuses a scenario estimated above this many events
/// unless `--force` is given, and the page asks before starting one: about
/// ten minutes at a few million events a second.
pub const EVENT_LIMIT: u64 = 2_000_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct WorkEstimate {
    /// Events the run is expected to handle.
    pub events: u64,
    /// [`EVENT_LIMIT`]: the command line refuses more without `--force`;
    /// the page asks before running more.
    pub limit: u64,
}

impl WorkEstimate {
    pub fn over_limit(&self) -> bool {
        self.events > self.limit
    }
}

/// Estimate the events of running `plan` in `mode` (samples count when the
/// mode keeps series).
pub fn estimate(plan: &Plan, mode: SeriesMode) -> WorkEstimate {
    let flows = plan.flows();
    let hops = plan.hops as usize;
    let duration_s = to_secs(plan.duration_ns);
    let mut paths = Vec::with_capacity(flows.len());
    let mut demands = Vec::with_capacity(flows.len());
    for f in &flows {
        let g = &plan.groups[f.group];
        let crossed = g.path.0 as usize..=g.path.1 as usize;
        paths.push(crossed.map(|h| if g.reverse { hops + h } else { h }).collect::<Vec<_>>());
        // A reverse flow's sender feeds the congested link directly.
        let link_bps = if g.reverse { plan.bottleneck_rate_bps } else { f.access_rate_bps } as f64;
        let base_rtt_s = 2.0
            * (to_secs(f.access_delay_ns)
                + paths.last().map_or(0, Vec::len) as f64 * to_secs(plan.bottleneck_delay_ns));
        let demand = offered_bps(&g.traffic, link_bps, base_rtt_s);
        demands.push(Some(demand));
    }
    // A traced hop carries its trace's mean rate; the reverse links keep the nominal one.
    let nominal = plan.bottleneck_rate_bps as f64;
    let mut capacity: Vec<f64> =
        plan.traces.iter().map(|t| t.as_ref().map_or(nominal, |t| t.mean_bps(plan.duration_ns))).collect();
    capacity.extend(vec![nominal; hops]);
    // On an opportunity trace a waiting packet costs one more event: the
    // link's wake-up at the opportunity that starts it (counted on every
    // hop when any hop has one).
    let opportunity_waits = plan.traces.iter().any(|t| matches!(t, Some(TracePlan::Opportunities(_))));
    let any_reverse = plan.groups.iter().any(|g| g.reverse);
    let shares = max_min_shares(&capacity, &paths, &demands);

    let mut events = 0.0;
    for ((f, share), (demand, path)) in flows.iter().zip(&shares).zip(demands.iter().zip(&paths)) {
        let route = FlowRoute { share: *share, demand: *demand, hops: path.len(), any_reverse, opportunity_waits };
        events += flow_events(plan, f, &route);
    }
    if mode.history || mode.streaming {
        events += duration_s * 1e9 / plan.sample_interval_ns as f64;
    }
    WorkEstimate { events: events.round() as u64, limit: EVENT_LIMIT }
}

/// What the estimate knows of one flow's route: its max-min share and
/// demand (bits/s), the congested links it crosses, and whether any flow
/// runs the other way (so the reverse links run the scheme too).
struct FlowRoute {
    share: f64,
    demand: Option<f64>,
    hops: usize,
    any_reverse: bool,
    /// The forward hops follow a trace of delivery opportunities.
    opportunity_waits: bool,
}

/// The events of one flow over its active time.
fn flow_events(plan: &Plan, f: &FlowPlan, route: &FlowRoute) -> f64 {
    let g = &plan.groups[f.group];
    let end_ns = g.stop_ns.unwrap_or(plan.duration_ns).min(plan.duration_ns);
    let active_s = to_secs(end_ns.saturating_sub(f.start_ns));
    let wire_bits = 8.0 * wire_bytes(&g.traffic) as f64;
    // Unresponsive sources make every packet their access link carries;
    // elastic ones what the congested links let through.
    let made_bps = match &g.traffic {
        TrafficPlan::Udp { .. } | TrafficPlan::Vbr { .. } | TrafficPlan::OnOff { .. } => route.demand.unwrap_or(0.0),
        _ => route.share,
    };
    let made = made_bps / wire_bits * active_s;
    // Source timers: one per paced packet (two beyond the link's rate,
    // the second skipping to when room opens), one per VBR burst, per
    // on/off period and per web session, whatever the packets.
    let timers = match &g.traffic {
        TrafficPlan::Udp { rate_bps, .. } => made * if *rate_bps > made_bps * 1.000_001 { 2.0 } else { 1.0 },
        TrafficPlan::OnOff { peak_rate_bps, on_mean_s, off_mean_s, .. } => {
            let skips = if *peak_rate_bps > f.access_rate_bps as f64 { 2.0 } else { 1.0 };
            made * skips + active_s / (on_mean_s + off_mean_s).max(1e-9)
        }
        TrafficPlan::Vbr { burst_interval_s, .. } => active_s / burst_interval_s.max(1e-9),
        TrafficPlan::Web(_, WebPattern::Sessions { per_s, .. }) => per_s * active_s,
        // A paced sender's timer fires at most once per segment (one pending at a time).
        TrafficPlan::Tcp(cfg) | TrafficPlan::Web(cfg, _) if cfg.pacing => made,
        TrafficPlan::Tcp(_) | TrafficPlan::Web(..) => 0.0,
        // TFRC paces its packets by a timer; a ping sends one request per timer.
        TrafficPlan::Tfrc(_) | TrafficPlan::Ping(_) => made,
    };
    // ACKs per data packet, each crossing as many links as the data.
    let acks = match &g.traffic {
        TrafficPlan::Tcp(cfg) | TrafficPlan::Web(cfg, _) => {
            if cfg.delayed_ack {
                0.5
            } else {
                1.0
            }
        }
        // Every echo request that arrives is answered.
        TrafficPlan::Ping(_) => 1.0,
        _ => 0.0,
    };
    let carried = route.share / wire_bits * active_s;
    // A link running the scheme costs two events per packet it sends
    // (the end of serialisation, the arrival at the far end); an
    // uncongested link one (its queue is almost always empty).
    let hops = route.hops as f64;
    let (data, ack) = if g.reverse {
        // Data over the reverse hops then the access link; ACKs over the
        // forward hops then the access link.
        (carried * (2.0 * hops + 1.0), 2.0 * hops + 1.0)
    } else {
        // Packets the access link carries reach the first congested hop
        // even if it drops them. ACKs cross the reverse hops, which run
        // the scheme only when some traffic flows that way.
        // A source at its access link's rate keeps a packet waiting there.
        let access = if saturates_access(&g.traffic, f.access_rate_bps) { 2.0 } else { 1.0 };
        let reverse_hop = if route.any_reverse { 2.0 } else { 1.0 };
        (access * made + carried * 2.0 * hops, reverse_hop * hops + 1.0)
    };
    // Forward hops' wake-ups: the data's, or a reverse flow's ACKs'.
    let waits = if route.opportunity_waits { carried * hops * if g.reverse { acks } else { 1.0 } } else { 0.0 };
    timers + data + carried * acks * ack + waits + 2.0
}

/// Whether an unresponsive source offers at least its access link's rate.
fn saturates_access(traffic: &TrafficPlan, access_rate_bps: u64) -> bool {
    let peak_bps = match traffic {
        TrafficPlan::Udp { rate_bps, .. } | TrafficPlan::Vbr { rate_bps, .. } => *rate_bps,
        TrafficPlan::OnOff { peak_rate_bps, .. } => *peak_rate_bps,
        _ => return false,
    };
    peak_bps >= access_rate_bps as f64
}

/// What a flow of `traffic` can offer on a link of `link_bps` (an rwnd caps
/// TCP at a window per base RTT).
fn offered_bps(traffic: &TrafficPlan, link_bps: f64, base_rtt_s: f64) -> f64 {
    let demand = match traffic {
        TrafficPlan::Udp { rate_bps, .. } | TrafficPlan::Vbr { rate_bps, .. } => rate_bps.min(link_bps),
        TrafficPlan::OnOff { .. } => traffic.offered_wire_bps().unwrap_or(0.0).min(link_bps),
        TrafficPlan::Tcp(cfg) | TrafficPlan::Web(cfg, _) => match cfg.rwnd_packets {
            Some(w) if base_rtt_s > 0.0 => {
                link_bps.min(w as f64 * (cfg.segment_bytes + TCP_HEADER_BYTES) as f64 * 8.0 / base_rtt_s)
            }
            _ => link_bps,
        },
        TrafficPlan::Tfrc(_) => link_bps,
        TrafficPlan::Ping(cfg) => cfg.wire_bps().min(link_bps),
    };
    // Web sessions offer their transfers, at least a packet each.
    match traffic {
        TrafficPlan::Web(cfg, WebPattern::Sessions { per_s, mean_bytes, .. }) => {
            let wire = (cfg.segment_bytes + TCP_HEADER_BYTES) as f64;
            let packets_per_s = per_s * (mean_bytes / cfg.segment_bytes as f64).max(1.0);
            demand.min(packets_per_s * wire * 8.0)
        }
        _ => demand,
    }
}

fn wire_bytes(traffic: &TrafficPlan) -> u32 {
    match traffic {
        TrafficPlan::Tcp(cfg) | TrafficPlan::Web(cfg, _) => cfg.segment_bytes + TCP_HEADER_BYTES,
        TrafficPlan::Tfrc(cfg) => cfg.segment_bytes + TCP_HEADER_BYTES,
        TrafficPlan::Udp { payload_bytes, .. }
        | TrafficPlan::Vbr { payload_bytes, .. }
        | TrafficPlan::OnOff { payload_bytes, .. } => payload_bytes + UDP_HEADER_BYTES,
        TrafficPlan::Ping(cfg) => cfg.packet_bytes + crate::transport::ping::IP_HEADER_BYTES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::sim::Simulation;

    /// Estimated and counted events of a scenario document, and its host drops.
    fn estimate_count_and_host_drops(text: &str) -> (f64, f64, u64) {
        let plan = Scenario::from_json(text).and_then(|s| s.plan()).expect("valid scenario");
        let estimate = estimate(&plan, SeriesMode::default()).events as f64;
        let mut sim = Simulation::from_plan(plan, SeriesMode::default());
        sim.run();
        (estimate, sim.events_handled() as f64, sim.summary().host_drops)
    }

    fn estimate_and_count(text: &str) -> (f64, f64) {
        let (estimate, count, _) = estimate_count_and_host_drops(text);
        (estimate, count)
    }

    #[test]
    fn the_estimate_is_within_a_factor_of_two_on_every_preset() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("scenarios folder")
            .map(|e| e.expect("readable entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        assert!(files.len() >= 10);
        let mut report = String::new();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("readable file");
            let (estimate, count, host_drops) = estimate_count_and_host_drops(&text);
            // The host queue bounds floods; it never touches a preset's traffic.
            assert_eq!(host_drops, 0, "{}", path.display());
            let ratio = estimate / count;
            report += &format!("{}: estimate {estimate}, counted {count}, ratio {ratio:.2}\n", path.display());
            assert!((0.5..=2.0).contains(&ratio), "{report}");
        }
        eprintln!("{report}");
    }

    #[test]
    fn a_flood_is_estimated_by_what_its_links_carry_and_refused() {
        // A flood: five CBR sources at 500 Gb/s on a 20 Mb/s link for 3 s.
        let flood = |rate: f64, duration: f64| {
            format!(
                r#"{{ "version": 1, "duration_s": {duration},
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 20e6, "delay_ms": 10 }}, "buffer": {{ "packets": 100 }} }},
                "queue": {{ "scheme": "droptail" }},
                "flows": [ {{ "kind": "cbr", "count": 5, "rate_bps": {rate} }} ] }}"#
            )
        };
        let (short, count) = estimate_and_count(&flood(500e9, 3.0));
        assert!((short / count - 1.0).abs() < 0.1, "{short} vs {count}");
        // The same flood for a simulated day is over the limit.
        let plan = Scenario::from_json(&flood(500e9, 86_400.0)).and_then(|s| s.plan()).unwrap();
        let day = estimate(&plan, SeriesMode::default());
        assert!(day.over_limit() && day.events as f64 > 0.9 * short * 28_800.0, "{day:?}");
    }

    #[test]
    fn sources_that_wake_often_are_estimated_by_their_timers() {
        // Few packets, many wake-ups: VBR bursts every 10 µs on average,
        // on/off periods of 1 µs each.
        let source = |flow: &str| {
            format!(
                r#"{{ "version": 1, "duration_s": 2,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 10e6, "delay_ms": 10 }}, "buffer": {{ "packets": 100 }} }},
                "queue": {{ "scheme": "droptail" }}, "flows": [ {flow} ] }}"#
            )
        };
        for flow in [
            r#"{ "kind": "vbr", "rate_bps": 1000, "burst_interval_ms": 0.01 }"#,
            r#"{ "kind": "onoff", "peak_rate_bps": 1e6, "on_mean_s": 1e-6, "off_mean_s": 1e-6 }"#,
        ] {
            let (estimate, count) = estimate_and_count(&source(flow));
            assert!(count > 1e5 && (0.5..=2.0).contains(&(estimate / count)), "{flow}: {estimate} vs {count}");
        }
    }

    #[test]
    fn paced_tcp_is_estimated_with_its_pacing_timers() {
        let text = include_str!("../../../scenarios/bench-100-tcp.json");
        let mut v: serde_json::Value = serde_json::from_str(text).expect("a scenario");
        v["duration_s"] = 30.into();
        let (unpaced, _) = estimate_and_count(&v.to_string());
        v["flows"][0]["pacing"] = true.into();
        let (paced, count) = estimate_and_count(&v.to_string());
        assert!(paced > unpaced && (0.5..=2.0).contains(&(paced / count)), "{paced} vs {count}");
    }

    #[test]
    fn a_traced_link_is_estimated_at_the_traces_rate() {
        // Ten TCP flows on a link of nominally 100 Mb/s that follows one
        // opportunity a millisecond (12 Mb/s), then every other (6 Mb/s):
        // the estimate follows the trace, within a factor of 2 of the count.
        let traced = |opportunities: &str| {
            format!(
                r#"{{ "version": 1, "duration_s": 20,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 100e6, "delay_ms": 10,
                    "trace": {{ "opportunities_ms": {opportunities} }} }}, "buffer": {{ "packets": 100 }} }},
                "queue": {{ "scheme": "droptail" }}, "flows": [ {{ "kind": "tcp", "count": 10 }} ] }}"#
            )
        };
        let (full, full_count) = estimate_and_count(&traced("[1]"));
        let (half, half_count) = estimate_and_count(&traced("[2]"));
        assert!((0.5..=2.0).contains(&(full / full_count)), "{full} vs {full_count}");
        assert!((0.5..=2.0).contains(&(half / half_count)), "{half} vs {half_count}");
        assert!((half / full - 0.5).abs() < 0.05, "{half} vs {full}");
    }

    #[test]
    fn samples_count_when_series_are_kept() {
        let text = r#"{ "version": 1, "duration_s": 100, "sample_interval_ms": 0.1,
            "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e6, "delay_ms": 10 }, "buffer": { "packets": 10 } },
            "queue": { "scheme": "droptail" }, "flows": [ { "kind": "cbr", "rate_bps": 1000 } ] }"#;
        let plan = Scenario::from_json(text).and_then(|s| s.plan()).unwrap();
        let summary_only = estimate(&plan, SeriesMode::default()).events;
        let live = estimate(&plan, SeriesMode { history: false, streaming: true }).events;
        assert_eq!(live - summary_only, 1_000_000);
    }
}
