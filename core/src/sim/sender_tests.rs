//! The sender side of access links: host queues bound what sources put on
//! the wire (and the work of simulating them), jitter on the access link.

use super::*;
use crate::testing::run;

/// A flood: `count` CBR sources at `rate_bps` each, every one
/// behind a 100 Mb/s access link, into a 20 Mb/s bottleneck for 3 s.
fn flood(count: u32, rate_bps: f64) -> String {
    format!(
        r#"{{ "version": 1, "duration_s": 3,
        "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 20e6, "delay_ms": 10 }},
                      "buffer": {{ "packets": 100 }}, "access": {{ "rate_bps": 100e6, "delay_ms": 1 }} }},
        "queue": {{ "scheme": "droptail" }},
        "flows": [ {{ "kind": "cbr", "count": {count}, "rate_bps": {rate_bps}, "packet_bytes": 1000 }} ] }}"#
    )
}

#[test]
fn sources_far_faster_than_their_links_cost_only_what_the_links_carry() {
    let mut sim = Simulation::from_json(&flood(5, 500e9), SeriesMode::default()).unwrap();
    sim.run();
    let s = sim.summary();
    // Each access link carries 100e6/8224 packets/s for 3 s, and its host
    // queue (1000 packets) ends full. Per packet: at most two source timers
    // (one that sends, one that skips to when room opens), the access link's
    // end of transmission and the arrival at the bottleneck; the bottleneck
    // adds two per packet it sends. Without the bound it would be 9·10⁸.
    let admitted_per_flow = 3.0 * 100e6 / 8224.0 + 1000.0;
    let bound = 5.0 * admitted_per_flow * 4.0 + 2.0 * 3.0 * 20e6 / 8224.0 + 100.0;
    let events = s.perf.events as f64;
    assert!(events < bound && events > 0.9 * bound, "{events} events, bound {bound}");
    // Every packet made is carried or dropped at the host: 3 s of 500 Gb/s,
    // one packet per 16 ns (8224 bits / 500 Gb/s = 16.4 ns, whole nanoseconds).
    let offered = 5.0 * 3e9 / 16.0;
    let accounted = (s.host_drops + s.flows.iter().map(|f| f.sent_packets).sum::<u64>()) as f64;
    assert!((accounted / offered - 1.0).abs() < 1e-3, "{accounted} of {offered}");
    // The bottleneck's drops are the router's; the host's are counted apart.
    assert!(s.drops.total > 0 && s.host_drops > 1000 * s.drops.total);
    assert!((s.utilization - 1.0).abs() < 0.01);
}

#[test]
fn a_host_queue_drops_what_its_access_link_cannot_carry_and_no_router_sees_it() {
    // 20 Mb/s of CBR behind a 10 Mb/s access link into an idle 100 Mb/s
    // bottleneck: half the packets stay at the host; no queue in the network drops.
    let text = r#"{ "version": 1, "duration_s": 10,
        "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 100e6, "delay_ms": 5 },
                      "buffer": { "packets": 100 }, "access": { "rate_bps": 10e6, "delay_ms": 1, "host_queue_packets": 50 } },
        "queue": { "scheme": "droptail" },
        "flows": [ { "kind": "cbr", "rate_bps": 20e6, "packet_bytes": 972 } ] }"#;
    let s = run(text);
    assert_eq!(s.drops.total, 0);
    let f = &s.flows[0];
    assert_eq!((f.dropped_packets, f.host_drops), (0, s.host_drops));
    assert!((f.host_drops as f64 / f.sent_packets as f64 - 1.0).abs() < 0.01, "{f:?}");
    // The access link runs flat out: goodput is its rate times 972/1000.
    assert!((f.goodput_bps / 9.72e6 - 1.0).abs() < 0.01, "{}", f.goodput_bps);
}

#[test]
fn tcp_repairs_what_a_small_host_queue_drops_from_a_huge_initial_window() {
    // TCP is window-limited: it overruns a host queue only when a window
    // arrives at once, as an initial window of 500 segments into a queue of 50 does.
    let text = r#"{ "version": 1, "duration_s": 20,
        "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 10e6, "delay_ms": 10 }, "buffer": { "packets": 100 },
                      "access": { "rate_bps": 100e6, "delay_ms": 1, "host_queue_packets": 50 } },
        "queue": { "scheme": "droptail" },
        "flows": [ { "kind": "tcp", "initial_cwnd_packets": 500 } ] }"#;
    let s = run(text);
    let f = &s.flows[0];
    // The host drops the tail of the first window; none of it is a router drop.
    assert!(f.host_drops >= 400, "{f:?}");
    assert_eq!(s.drops.total, f.dropped_packets);
    // Retransmissions repair the hole and the flow fills the link.
    assert!(s.utilization > 0.9, "{}", s.utilization);
}

/// A 10-flow Drop Tail dumbbell (RTTs 44–142 ms), with
/// `jitter_ms` on every access link.
fn ten_tcp_drop_tail(jitter: &str) -> String {
    format!(
        r#"{{ "version": 1, "seed": 1, "duration_s": 100, "measure_from_s": 50,
        "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 10e6, "delay_ms": 20 }}, "buffer": {{ "packets": 100 }},
                      "access": {{ "rate_bps": 100e6, "delay_ms": 1 {jitter} }} }},
        "queue": {{ "scheme": "droptail" }},
        "flows": [ {{ "kind": "tcp", "count": 10, "cc": "newreno", "segment_bytes": 1000,
                     "access_delay_ms": [1, 50], "start_s": [0, 1] }} ] }}"#
    )
}

#[test]
fn access_jitter_breaks_drop_tails_phase_locking() {
    // Floyd & Jacobson 1991 ("On traffic phase effects in packet-switched
    // gateways"): with deterministic timing, Drop Tail's drops fall on
    // the flows whose packets arrive in the wrong phase, and the others
    // grab the link. A little random delay at the senders removes the bias.
    let locked = run(&ten_tcp_drop_tail(""));
    let jittered = run(&ten_tcp_drop_tail(r#", "jitter_ms": 1"#));
    let (a, b) = (locked.fairness.jain_all.unwrap(), jittered.fairness.jain_all.unwrap());
    assert!(a < 0.5, "phase-locked Jain {a}");
    // ns-3's Drop Tail on this dumbbell: Jain 0.94, 9.54 Mb/s, 65.6 packets.
    assert!(b > 0.9, "jittered Jain {b}");
    assert!((jittered.aggregate_goodput_bps / 9.54e6 - 1.0).abs() < 0.02);
    assert!((jittered.queue.mean_packets / 65.6 - 1.0).abs() < 0.15, "{}", jittered.queue.mean_packets);
    // Jitter of 0 draws nothing: the run is bit-identical to one without it.
    assert_eq!(run(&ten_tcp_drop_tail(r#", "jitter_ms": 0"#)), locked);
}

#[test]
fn a_group_overrides_the_access_jitter() {
    let with_group =
        ten_tcp_drop_tail("").replace(r#""start_s": [0, 1]"#, r#""start_s": [0, 1], "access_jitter_ms": 1"#);
    assert_eq!(run(&with_group), run(&ten_tcp_drop_tail(r#", "jitter_ms": 1"#)));
}
