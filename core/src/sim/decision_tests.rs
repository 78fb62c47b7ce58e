//! The drop-and-mark inspector over whole runs: each recorded decision is
//! recomputed from the state recorded with it, and recording changes
//! nothing the run produces.

use super::*;
use crate::queue::codel::control_law;
use crate::queue::decision::{Decision, Reason, Verdict};
use crate::queue::red::{spaced_probability, CountRule};
use crate::testing::dumbbell;

const TCP: &str = r#"{ "kind": "tcp", "count": 8, "start_s": [0, 1], "access_delay_ms": [1, 20] }"#;
const ECN_TCP: &str = r#"{ "kind": "tcp", "count": 8, "start_s": [0, 1], "access_delay_ms": [1, 20], "ecn": true }"#;

/// A whole run's decisions, with the scheme's field ids.
fn decisions_of(text: &str) -> (Vec<Decision>, Vec<&'static str>) {
    let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
    sim.record_decisions(usize::MAX);
    sim.run();
    let fields = sim.decision_fields().iter().map(|f| f.id).collect();
    (sim.take_decisions(), fields)
}

/// The value of field `id` recorded with `d`.
fn field(d: &Decision, fields: &[&str], id: &str) -> f64 {
    let i = fields.iter().position(|f| *f == id).unwrap_or_else(|| panic!("no field {id}"));
    d.state.values()[i]
}

fn count_of(ds: &[Decision], verdict: Verdict, reason: Reason) -> usize {
    ds.iter().filter(|d| d.verdict == verdict && d.reason == reason).count()
}

/// RED's p_b line (F&J 1993 Fig. 2), written out again from the parameters.
fn red_p_b(avg: f64, min_th: f64, max_th: f64, max_p: f64) -> f64 {
    if avg < min_th {
        0.0
    } else if avg >= max_th {
        1.0
    } else {
        max_p * (avg - min_th) / (max_th - min_th)
    }
}

fn check_red(text: &str, expect_marks: bool) {
    let (ds, fields) = decisions_of(text);
    let (min_th, max_th, max_p) = (5.0, 15.0, 0.1);
    let f = |d: &Decision, id| field(d, &fields, id);
    for d in ds.iter().filter(|d| d.reason != Reason::Overflow || !d.state.values().is_empty()) {
        let (avg, count, p_b, p_a, u) = (f(d, "avg"), f(d, "count"), f(d, "p_b"), f(d, "p_a"), f(d, "draw"));
        assert_eq!(p_b, red_p_b(avg, min_th, max_th, max_p), "{d:?}");
        match d.reason {
            Reason::Forced => assert!(avg >= max_th, "forced below max_th: {d:?}"),
            Reason::Early => {
                assert!(avg >= min_th && avg < max_th, "{d:?}");
                assert_eq!(p_a, spaced_probability(CountRule::Wait, p_b, count as i64), "{d:?}");
                assert!(u < p_a, "an early verdict needs the draw below p_a: {d:?}");
            }
            // A pass, or an arrival RED accepted that the full buffer refused.
            Reason::Accepted | Reason::Overflow => {
                if avg < max_th && p_a > 0.0 {
                    assert_eq!(p_a, spaced_probability(CountRule::Wait, p_b, count as i64), "{d:?}");
                }
                assert!(u >= p_a, "accepted with the draw below p_a: {d:?}");
            }
        }
    }
    let verdict = if expect_marks { Verdict::Mark } else { Verdict::Drop };
    assert!(
        count_of(&ds, verdict, Reason::Early) > 20,
        "early {verdict:?}s: {}",
        count_of(&ds, verdict, Reason::Early)
    );
    assert!(count_of(&ds, Verdict::Pass, Reason::Accepted) > 20);
}

#[test]
fn red_decisions_recompute_p_a_from_the_recorded_average_and_count() {
    let red = r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 15, "max_p": 0.1 } }"#;
    check_red(&dumbbell(20.0, 10e6, 10.0, 60, red, TCP), false);
}

#[test]
fn red_marks_record_the_same_state_as_drops() {
    let red = r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 15, "max_p": 0.1, "ecn": true } }"#;
    check_red(&dumbbell(20.0, 10e6, 10.0, 60, red, ECN_TCP), true);
}

#[test]
fn codel_decisions_follow_the_control_law() {
    let codel = r#"{ "scheme": "codel" }"#;
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 400, codel, TCP));
    let f = |d: &Decision, id| field(d, &fields, id);
    let secs = |s: f64| (s * 1e9).round() as Nanos;
    let mut last_next: Option<f64> = None;
    let mut chained = 0;
    for d in ds.iter().filter(|d| d.verdict != Verdict::Pass && d.reason == Reason::Early) {
        let (sojourn, target, interval) = (f(d, "sojourn_ms"), f(d, "target_ms"), f(d, "interval_ms"));
        let (count, dropping, due, next) = (f(d, "count"), f(d, "dropping"), f(d, "due_s"), f(d, "next_drop_s"));
        assert!(sojourn >= target, "dropped below target: {d:?}");
        assert!(d.at >= secs(due), "dropped before it was due: {d:?}");
        // In the dropping state the law runs from the last drop's schedule,
        // on entering it from now (RFC 8289 §5).
        let from = if dropping == 1.0 { secs(due) } else { d.at };
        assert_eq!(secs(next), control_law(from, secs(interval / 1e3), count as u32), "{d:?}");
        if dropping == 1.0 {
            assert_eq!(Some(due), last_next, "a drop in the dropping state is due when the last one scheduled it");
            chained += 1;
        }
        last_next = Some(next);
    }
    assert!(chained > 10, "only {chained} drops inside dropping states");
    for d in ds.iter().filter(|d| d.verdict == Verdict::Pass) {
        let below = f(d, "sojourn_ms") < f(d, "target_ms");
        assert!(
            below || f(d, "dropping") == 1.0 || d.at < secs(f(d, "due_s")),
            "a pass CoDel should have dropped: {d:?}"
        );
    }
}

/// The summary and the series (each value's bits) of `text`, recorded or not.
fn outputs(text: &str, record: bool) -> (String, Vec<u64>) {
    let mode = SeriesMode { history: true, streaming: false };
    let mut sim = Simulation::from_json(text, mode).expect("valid scenario");
    if record {
        sim.record_decisions(16);
    }
    sim.run();
    let mut summary = serde_json::to_value(sim.summary()).expect("summary");
    summary.as_object_mut().expect("object").remove("perf");
    (summary.to_string(), sim.history().data.iter().map(|v| v.to_bits()).collect())
}

#[test]
fn recording_decisions_changes_neither_the_summary_nor_the_series() {
    for scheme in ["red", "codel", "pie", "fred", "blue", "dualpi2", "droptail", "rem", "rqrd", "afpft", "drr", "sfred"]
    {
        let text = dumbbell(5.0, 10e6, 10.0, 60, &format!(r#"{{ "scheme": "{scheme}" }}"#), TCP);
        let (plain, recorded) = (outputs(&text, false), outputs(&text, true));
        assert_eq!(plain.0, recorded.0, "{scheme}: summary");
        assert!(plain.1 == recorded.1, "{scheme}: series");
    }
}

#[test]
fn a_run_whose_recording_stops_records_nothing_more_and_produces_the_same() {
    let text = dumbbell(6.0, 10e6, 10.0, 60, r#"{ "scheme": "codel" }"#, TCP);
    let mode = SeriesMode { history: true, streaming: false };
    let mut sim = Simulation::from_json(&text, mode).expect("valid scenario");
    sim.record_decisions(usize::MAX);
    sim.advance_to(3 * crate::kernel::NS_PER_S);
    sim.stop_recording_decisions();
    assert!(sim.take_decisions().is_empty(), "records not yet taken are let go when recording stops");
    sim.run();
    assert!(sim.take_decisions().is_empty(), "decisions recorded after recording stopped");
    let mut summary = serde_json::to_value(sim.summary()).expect("summary");
    summary.as_object_mut().expect("object").remove("perf");
    let stopped = (summary.to_string(), sim.history().data.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let plain = outputs(&text, false);
    assert_eq!(stopped.0, plain.0, "summary");
    assert!(stopped.1 == plain.1, "series");
    // The same run recording throughout does record drops after 3 s: the stop is what kept them out.
    let (ds, _) = decisions_of(&text);
    assert!(ds.iter().any(|d| d.at > 3 * crate::kernel::NS_PER_S && d.verdict == Verdict::Drop));
}

#[test]
fn every_scheme_records_its_declared_state_or_none() {
    let flows = format!(r#"{TCP}, {{ "kind": "cbr", "rate_bps": 6e6 }}"#);
    for info in crate::queue::catalogue(crate::queue::Limit::Packets(0)) {
        let info = &info;
        let text = dumbbell(4.0, 10e6, 10.0, 60, &format!(r#"{{ "scheme": "{}" }}"#, info.id), &flows);
        let (ds, fields) = decisions_of(&text);
        assert!(ds.iter().any(|d| d.verdict == Verdict::Drop), "{}: no drop recorded", info.id);
        for d in &ds {
            let n = d.state.values().len();
            assert!(n == 0 || n == fields.len(), "{}: {n} values for {} fields: {d:?}", info.id, fields.len());
        }
        if !fields.is_empty() {
            assert!(ds.iter().any(|d| !d.state.values().is_empty()), "{} declares state but records none", info.id);
        }
    }
}

#[test]
fn dualpi2_decisions_follow_the_coupling() {
    // A Prague flow (L queue) beside CUBIC (C queue) under DualPI2 (k = 2).
    let flows = r#"{ "kind": "tcp", "cc": "prague", "ecn": "ect1", "access_delay_ms": 5 },
                   { "kind": "tcp", "cc": "cubic", "sack": true, "access_delay_ms": 5 }"#;
    let text = dumbbell(5.0, 40e6, 20.0, 400, r#"{ "scheme": "dualpi2" }"#, flows);
    let (ds, fields) = decisions_of(&text);
    let f = |d: &Decision, id| field(d, &fields, id);
    let judged: Vec<&Decision> = ds.iter().filter(|d| !d.state.values().is_empty()).collect();
    let lanes = |l4s: f64| judged.iter().filter(|d| f(d, "l4s") == l4s).count();
    assert!(lanes(1.0) > 10 && lanes(0.0) > 10, "both queues decide: {} L, {} C", lanes(1.0), lanes(0.0));
    for d in judged {
        let (p_prime, p, u) = (f(d, "p_prime"), f(d, "p"), f(d, "draw"));
        assert_eq!(d.verdict != Verdict::Pass, u < p, "a drop or mark exactly when the draw is below p: {d:?}");
        if f(d, "l4s") == 0.0 || p_prime > 0.5 {
            assert_eq!(p, p_prime * p_prime, "classic, or L4S under overload: p_C = p′²: {d:?}");
        } else {
            assert!(p >= (2.0 * p_prime).min(1.0), "L4S: p_L at least the coupled k·p′: {d:?}");
        }
    }
}

/// 8 TCP flows and an unresponsive 6 Mb/s CBR on the 10 Mb/s link.
fn tcp_and_cbr() -> String {
    format!(r#"{TCP}, {{ "kind": "cbr", "rate_bps": 6e6 }}"#)
}

#[test]
fn rem_decisions_mark_with_one_minus_phi_to_the_minus_price() {
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 60, r#"{ "scheme": "rem" }"#, TCP));
    let f = |d: &Decision, id| field(d, &fields, id);
    for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
        let (price, p_mark, u) = (f(d, "price"), f(d, "p_mark"), f(d, "draw"));
        assert_eq!(p_mark, 1.0 - libm::pow(1.001, -price), "{d:?}");
        assert_eq!(d.reason == Reason::Early, u < p_mark, "an early drop exactly when the draw is below p: {d:?}");
    }
    assert!(count_of(&ds, Verdict::Drop, Reason::Early) > 20);
    assert!(ds.iter().any(|d| d.verdict == Verdict::Pass && f(d, "price") > 0.0), "passes under a positive price");
}

/// RQRD's p_Q with the Ellipse pair, written out again for Q_min, Q_max.
fn ellipse_p_q(q: f64, c_q: bool, q_min: f64, q_max: f64) -> f64 {
    if q <= q_min {
        return 0.0;
    }
    if q >= q_max {
        return 1.0;
    }
    let x = (q - q_min) / (q_max - q_min);
    if c_q {
        (1.0 - (1.0 - x) * (1.0 - x)).sqrt()
    } else {
        1.0 - (1.0 - x * x).sqrt()
    }
}

#[test]
fn rqrd_decisions_recompute_p_d_from_the_fair_share_and_the_average_queue() {
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 60, r#"{ "scheme": "rqrd" }"#, &tcp_and_cbr()));
    let f = |d: &Decision, id| field(d, &fields, id);
    for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
        let (label, alpha, p_r, u) = (f(d, "label"), f(d, "alpha"), f(d, "p_r"), f(d, "draw"));
        // CSFQ's p_R = max(0, 1 − α/r) once α is armed, 0 before.
        assert!(p_r == 0.0 || (label > alpha && p_r == 1.0 - alpha / label), "{d:?}");
        let p_q = ellipse_p_q(f(d, "avg"), f(d, "c_q") == 1.0, 15.0, 45.0);
        assert_eq!(f(d, "p_q"), p_q, "{d:?}");
        assert_eq!(f(d, "p_d"), p_r * p_q, "{d:?}");
        assert_eq!(d.reason == Reason::Early, u < p_r * p_q, "early exactly when the draw is below p_d: {d:?}");
    }
    let cbr = |d: &&Decision| d.flow == 8 && d.reason == Reason::Early;
    assert!(ds.iter().filter(cbr).count() > 20, "the CBR above its share is dropped early");
}

#[test]
fn afpft_drops_the_highest_start_tag_once_the_buffer_is_over() {
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 30, r#"{ "scheme": "afpft" }"#, &tcp_and_cbr()));
    let f = |d: &Decision, id| field(d, &fields, id);
    let per_byte = 8.0 / 10_000.0; // len/r at the default r = 10 kb/s
    for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
        let (tag, v, finish, queued) = (f(d, "tag"), f(d, "v"), f(d, "finish"), f(d, "queued"));
        assert!(tag >= v, "a queued tag is never behind the virtual time: {d:?}");
        assert!(finish >= tag + d.size_bytes as f64 * per_byte - 1e-9, "the flow's finish tag covers it: {d:?}");
        if d.verdict == Verdict::Drop {
            assert!(queued > 30.0, "dropped within the limit: {d:?}");
            let left = f(d, "highest_left");
            assert!(left.is_nan() || tag >= left, "dropped a packet that was not the tail: {d:?}");
        } else {
            assert!(queued <= 30.0, "kept over the limit: {d:?}");
        }
    }
    assert!(count_of(&ds, Verdict::Drop, Reason::Overflow) > 20);
    let cbr = ds.iter().filter(|d| d.verdict == Verdict::Drop && d.flow == 8).count();
    assert!(2 * cbr > count_of(&ds, Verdict::Drop, Reason::Overflow), "the flow far ahead loses most");
}

#[test]
fn drr_drops_from_the_longest_flow_queue_and_deficits_stay_below_a_quantum_and_a_packet() {
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 30, r#"{ "scheme": "drr" }"#, &tcp_and_cbr()));
    let f = |d: &Decision, id| field(d, &fields, id);
    for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
        let (mine, others, queued) = (f(d, "flow_queue"), f(d, "others_longest"), f(d, "queued"));
        // Shreedhar & Varghese's invariant: 0 ≤ DC_i < Q + max packet (1500).
        assert!(f(d, "deficit") < 1500.0 + 1500.0, "{d:?}");
        assert!(f(d, "backlogged") >= 1.0 && mine >= 1.0, "{d:?}");
        if d.verdict == Verdict::Drop {
            assert!(queued > 30.0 && mine >= others, "not the longest queue, or within the limit: {d:?}");
        } else {
            assert!(queued <= 30.0, "kept over the limit: {d:?}");
        }
    }
    assert!(count_of(&ds, Verdict::Drop, Reason::Overflow) > 20);
    assert!(ds.iter().all(|d| d.verdict != Verdict::Drop || !d.state.values().is_empty()), "every drop explained");
}

/// SFRED's class rules (Zhou, Yeung & Li 2009 §2.2–2.4) from the recorded
/// counters, at α = β = 0.1, η = 10: (forced, thresholds raised, max_p factor).
fn sfred_class(h_ri: f64, h_di: f64, fair: f64, loss: f64) -> (bool, bool, f64) {
    if h_ri < 10.0 && h_di == 0.0 {
        return (false, true, 1.0);
    }
    if h_ri <= 1.1 * fair {
        return (false, false, 1.0);
    }
    if h_di / h_ri > 1.1 * loss {
        return (true, false, 1.0);
    }
    (false, false, if fair > 0.0 { h_ri / fair } else { f64::INFINITY })
}

#[test]
fn sfred_decisions_recompute_the_class_and_p_a_from_the_flow_counters() {
    let (ds, fields) = decisions_of(&dumbbell(20.0, 10e6, 10.0, 60, r#"{ "scheme": "sfred" }"#, &tcp_and_cbr()));
    let f = |d: &Decision, id| field(d, &fields, id);
    let (mut fast, mut cut_off) = (0, 0);
    for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
        let (cut, slow, factor) = sfred_class(f(d, "received"), f(d, "dropped"), f(d, "fair"), f(d, "loss"));
        let (avg, p_a, u) = (f(d, "avg"), f(d, "p_a"), f(d, "draw"));
        let (lo, hi) = if slow { (10.0, 20.0) } else { (5.0, 15.0) };
        fast += (factor > 1.0) as usize;
        if cut || avg >= hi {
            cut_off += cut as usize;
            assert_eq!((d.reason, p_a), (Reason::Forced, 1.0), "{d:?}");
        } else if avg < lo {
            assert!(d.reason != Reason::Early && d.reason != Reason::Forced && p_a == 0.0, "{d:?}");
        } else {
            let p_b = (0.1 * factor).min(1.0) * (avg - lo) / (hi - lo);
            assert_eq!(p_a, spaced_probability(CountRule::Wait, p_b, f(d, "count") as i64), "{d:?}");
            assert_eq!(d.reason == Reason::Early, u < p_a, "early exactly when the draw is below p_a: {d:?}");
        }
    }
    assert!(fast > 20 && cut_off > 20, "{fast} fast-flow decisions, {cut_off} cut off");
    assert!(count_of(&ds, Verdict::Drop, Reason::Early) > 20);
}
