//! Whole-simulation helpers shared by the tests of every scheme.

use crate::metrics::{max_min_shares, Summary};
use crate::sim::{SeriesMode, Simulation};

/// Run a scenario document to its end and summarise it.
pub(crate) fn run(text: &str) -> Summary {
    let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
    sim.run();
    sim.summary()
}

/// A dumbbell scenario (seed 1, default access links, statistics over the
/// last three quarters) with the given queue and flow groups as JSON.
pub(crate) fn dumbbell(
    secs: f64,
    rate_bps: f64,
    delay_ms: f64,
    buffer_packets: u32,
    queue: &str,
    flows: &str,
) -> String {
    format!(
        r#"{{ "version": 1, "seed": 1, "duration_s": {secs}, "measure_from_s": {},
            "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": {rate_bps}, "delay_ms": {delay_ms} }},
                           "buffer": {{ "packets": {buffer_packets} }} }},
            "queue": {queue}, "flows": [{flows}] }}"#,
        secs / 4.0
    )
}

/// Max-min fair shares of `demands` on one link of `capacity`.
pub(crate) fn max_min(demands: &[f64], capacity: f64) -> Vec<f64> {
    let paths = vec![vec![0]; demands.len()];
    max_min_shares(&[capacity], &paths, &demands.iter().map(|d| Some(*d)).collect::<Vec<_>>())
}

/// Wire rate of a UDP flow with 972-byte payloads, from its goodput.
pub(crate) fn udp_wire_bps(goodput_bps: f64) -> f64 {
    goodput_bps * 1000.0 / 972.0
}

/// Seed 003 §3B, the cross-scheme check of a fair scheme: 32 TCP flows and
/// one CBR at the link rate on 1 Mb/s (the preset, with `scheme` in it).
/// Drop Tail gives the CBR nearly the whole link; a fair scheme holds it
/// near the max-min share C/33 and the TCP flows share evenly.
pub(crate) fn cbr_among_32_tcp(scheme: &str) {
    let text = include_str!("../../scenarios/csfq-32-tcp-1-cbr.json");
    let fair = 1e6 / 33.0;
    let tcp_wire = |f: &crate::metrics::FlowSummary| f.goodput_bps * 1000.0 / 960.0;
    let droptail = run(&text.replace(r#""scheme": "csfq""#, r#""scheme": "droptail""#));
    assert!(udp_wire_bps(droptail.flows[32].goodput_bps) > 0.9e6, "Drop Tail: the CBR takes the link");
    let s = run(&text.replace(r#""scheme": "csfq""#, &format!(r#""scheme": "{scheme}""#)));
    let cbr = udp_wire_bps(s.flows[32].goodput_bps);
    let tcp_mean = s.flows[..32].iter().map(tcp_wire).sum::<f64>() / 32.0;
    let jain = s.fairness.jain_tcp.expect("TCP flows");
    assert!(cbr < 2.5 * fair, "{scheme}: CBR {cbr} b/s vs fair share {fair}");
    assert!(tcp_mean > 0.85 * fair, "{scheme}: TCP mean {tcp_mean} vs fair share {fair}");
    assert!(jain > 0.95, "{scheme}: Jain over TCP {jain}");
}
