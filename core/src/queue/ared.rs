//! ARED — Adaptive RED (Floyd, Gummadi & Shenker 2001; the paper's Adaptive
//! RED pseudocode, and its parameter rules as coded in the authors' ns-2
//! red.cc, updateMaxP and initialize_params).
//!
//! Gentle RED (red.rs) whose max_p is tuned on a timer, every interval:
//!   avg > target_high and max_p < 0.5:  max_p ← max_p + α,  α = min(0.01, max_p/4)
//!   avg < target_low  and max_p > 0.01: max_p ← max_p·β,    β = 0.9
//!   target = [min_th + 0.4·(max_th−min_th), min_th + 0.6·(max_th−min_th)]
//! so the average queue settles in the middle of [min_th, max_th] whatever
//! the load. Automatic settings (0 selects them), C = link rate in packets/s:
//!   w_q = 1 − exp(−1/C)   (a time constant of one second, in packets)
//!   min_th = max(5 packets, target_delay·C/2),   max_th = 3·min_th
//! which puts the target band's centre at target_delay·C: the queue the
//! link drains in target_delay.
//!
//! Choices: the paper's guards let one step leave [0.01, 0.5] slightly
//! (0.5 + 0.01, 0.01·0.9); we clamp so max_p stays in [0.01, 0.5]. The
//! update runs on the queue's own timer (as Linux sch_red does), not on the
//! next arrival as in ns-2, so an idle link still adapts; avg is then the
//! value an arrival would see after the idle time so far. Interval 0.5 s,
//! target delay 5 ms and initial max_p 0.1 are ns-2's defaults.

use super::prelude::*;
use super::red::{self, RedQueue, RedScheme};

pub static INFO: SchemeInfo = SchemeInfo {
    id: "ared",
    name: "Adaptive RED",
    paper: "Floyd, Gummadi & Shenker, Adaptive RED: An Algorithm for Increasing the Robustness of RED's Active \
            Queue Management, 2001",
    summary: "Gentle RED that adapts max_p every half second to hold the average queue in a target band.",
    params: PARAMS,
    probes: &[
        red::AVG_PROBE,
        ProbeSpec::number("max_p", "current max_p", ""),
        red::P_B_PROBE,
        ProbeSpec::buffer("target_low", "target band low"),
        ProbeSpec::buffer("target_high", "target band high"),
    ],
    build,
    cross_check,
    model: None,
};

const MAX_P_TOP: f64 = 0.5;
const MAX_P_BOTTOM: f64 = 0.01;
const BETA: f64 = 0.9;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        label: "min threshold (0 = auto)",
        default: 0.0,
        doc: "0 = automatic: max(5 packets, target delay × link rate / 2).",
        ..red::MIN_TH
    },
    ParamSpec::buffer(
        "max threshold (0 = auto)",
        0.0..=10000.0,
        1.0,
        0.0,
        "0 = automatic: 3 × min_th. The target band is the middle fifth of [min_th, max_th].",
    )
    .with_id("max_th"),
    ParamSpec::number(
        "target delay",
        "ms",
        0.1..=1000.0,
        0.1,
        5.0,
        "Sets the automatic min_th so the target queue drains in about this time.",
    )
    .with_id("target_delay_ms"),
    ParamSpec::number(
        "initial max drop probability",
        "",
        MAX_P_BOTTOM..=MAX_P_TOP,
        0.005,
        0.1,
        "Starting value; adaptation then moves it within [0.01, 0.5].",
    )
    .with_id("max_p"),
    ParamSpec::number(
        "queue weight w_q (0 = auto)",
        "",
        0.0..=1.0,
        0.0001,
        0.0,
        "0 = automatic: 1 − exp(−1/C), C the link rate in packets/s.",
    )
    .with_id("w_q"),
    ParamSpec::number("adaptation interval", "ms", 10.0..=10000.0, 10.0, 500.0, "How often max_p is adjusted.")
        .with_id("interval_ms"),
    ParamSpec { default: 1.0, ..red::GENTLE },
    red::WAIT,
    ParamSpec { doc: "Packet size that turns the link rate into C packets/s.", ..red::MEAN_PACKET_BYTES },
    red::ECN,
];

fn cross_check(p: &ParamValues) -> Result<(), ParamError> {
    let (min_th, max_th) = (p.get("min_th"), p.get("max_th"));
    if max_th > 0.0 && min_th == 0.0 {
        return Err(ParamError::new("max_th", "must stay 0 (automatic) while min_th is automatic".to_string()));
    }
    if max_th > 0.0 && max_th <= min_th {
        return Err(ParamError::new("max_th", format!("must exceed min_th ({min_th})")));
    }
    Ok(())
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Ared::new(setup.limit, setup.link_rate_bps), params)
}

/// The parameters as set, where 0 may mean "automatic".
#[derive(Clone, Copy, Debug, Default)]
struct Settings {
    min_th: f64,
    max_th: f64,
    w_q: f64,
    target_delay_s: f64,
}

pub struct Ared {
    queue: RedQueue,
    settings: Settings,
    interval: Nanos,
    /// When max_p is next adapted; None until the first arrival arms the timer.
    next_update: Option<Nanos>,
}

impl Ared {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Ared {
        let queue = RedQueue::new(limit, link_rate_bps);
        Ared { queue, settings: Settings::default(), interval: 0, next_update: None }.with_defaults()
    }

    /// Turn the settings into RED's min_th, max_th and w_q.
    fn resolve(&mut self) {
        let s = self.settings;
        let c = self.queue.state.link_rate_bps as f64 / (8.0 * self.queue.state.mean_packet_bytes);
        // Thresholds are in the buffer's unit: packets, or bytes of typical packets.
        let unit = match self.queue.limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => self.queue.state.mean_packet_bytes,
        };
        self.queue.state.min_th = if s.min_th > 0.0 { s.min_th } else { (s.target_delay_s * c / 2.0).max(5.0) * unit };
        self.queue.state.max_th = if s.max_th > 0.0 { s.max_th } else { 3.0 * self.queue.state.min_th };
        self.queue.state.w_q = if s.w_q > 0.0 { s.w_q } else { 1.0 - libm::exp(-1.0 / c) };
    }

    /// The target band for avg.
    pub fn target(&self) -> (f64, f64) {
        let (lo, span) = (self.queue.state.min_th, self.queue.state.max_th - self.queue.state.min_th);
        (lo + 0.4 * span, lo + 0.6 * span)
    }

    /// One AIMD step of max_p for the average `avg`.
    fn adapt(&mut self, avg: f64) {
        let (low, high) = self.target();
        let max_p = self.queue.state.max_p;
        if avg > high && max_p < MAX_P_TOP {
            self.queue.state.max_p = (max_p + (0.01f64).min(max_p / 4.0)).min(MAX_P_TOP);
        } else if avg < low && max_p > MAX_P_BOTTOM {
            self.queue.state.max_p = (max_p * BETA).max(MAX_P_BOTTOM);
        }
    }
}

impl RedScheme for Ared {
    red::red_scheme_parts!();

    fn before_arrival(&mut self, ctx: &mut QueueCtx) {
        if self.next_update.is_none() {
            let at = ctx.now + self.interval;
            self.next_update = Some(at);
            ctx.wake_at(at);
        }
    }

    fn wake(&mut self, ctx: &mut QueueCtx) {
        let Some(due) = self.next_update.filter(|t| *t <= ctx.now) else { return };
        self.adapt(self.queue.state.avg_after_idle(ctx.now));
        let next = due + self.interval;
        self.next_update = Some(next);
        ctx.wake_at(next);
    }

    fn set_own(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "min_th" => self.settings.min_th = value,
            "max_th" => self.settings.max_th = value,
            "w_q" => self.settings.w_q = value,
            "target_delay_ms" => self.settings.target_delay_s = value / 1e3,
            "interval_ms" => self.interval = ms(value).max(1),
            _ => self.queue.set(id, value)?,
        }
        self.resolve();
        Ok(())
    }

    fn probe_into(&self, out: &mut ProbeSink) {
        let (low, high) = self.target();
        out.put("avg", self.queue.state.avg);
        out.put("max_p", self.queue.state.max_p);
        out.put("p_b", self.queue.state.p_b(self.queue.state.avg));
        out.put("target_low", low);
        out.put("target_high", high);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::testing::Harness;
    use crate::queue::DropReason;
    use crate::sim::{SeriesMode, Simulation};
    use crate::testing::mean_while_measured;

    #[test]
    fn automatic_parameters_follow_the_link_rate() {
        // 10 Mb/s of 1000-byte packets: C = 1250/s, target queue 6.25 packets,
        // so min_th = max(5, 3.125) = 5, max_th = 15, band [9, 11].
        let q = Ared::new(Limit::Packets(100), 10_000_000);
        assert_eq!((q.queue.state.min_th, q.queue.state.max_th), (5.0, 15.0));
        assert_eq!(q.target(), (9.0, 11.0));
        assert!((q.queue.state.w_q - (1.0 - (-1.0f64 / 1250.0).exp())).abs() < 1e-15);
        assert!(q.queue.state.gentle && q.queue.state.max_p == 0.1);
        // 100 Mb/s: C = 12 500/s, min_th = 31.25, max_th = 93.75; centre 62.5 = 5 ms of traffic.
        let fast = Ared::new(Limit::Packets(1000), 100_000_000);
        assert_eq!((fast.queue.state.min_th, fast.queue.state.max_th), (31.25, 93.75));
        assert_eq!(fast.target(), (56.25, 68.75));
        // A byte buffer gets the same thresholds in bytes of 1000-byte packets.
        let bytes = Ared::new(Limit::Bytes(1_000_000), 100_000_000);
        assert_eq!((bytes.queue.state.min_th, bytes.queue.state.max_th), (31_250.0, 93_750.0));
        // Explicit values win.
        let mut set = Ared::new(Limit::Packets(100), 10_000_000);
        for (id, v) in [("min_th", 20.0), ("max_th", 60.0), ("w_q", 0.002)] {
            set.set_param(id, v).unwrap();
        }
        assert_eq!((set.queue.state.min_th, set.queue.state.max_th, set.queue.state.w_q), (20.0, 60.0, 0.002));
        assert_eq!(set.target(), (36.0, 44.0));
    }

    #[test]
    fn max_p_is_raised_additively_and_lowered_multiplicatively() {
        let mut q = Ared::new(Limit::Packets(100), 10_000_000);
        let expect = [0.11, 0.12, 0.13];
        for e in expect {
            q.adapt(12.0);
            assert!((q.queue.state.max_p - e).abs() < 1e-12, "{} vs {e}", q.queue.state.max_p);
        }
        for _ in 0..100 {
            q.adapt(12.0);
        }
        assert_eq!(q.queue.state.max_p, 0.5, "capped at 0.5");
        q.adapt(10.0);
        assert_eq!(q.queue.state.max_p, 0.5, "inside the band nothing changes");
        q.adapt(8.0);
        assert!((q.queue.state.max_p - 0.45).abs() < 1e-12);
        for _ in 0..100 {
            q.adapt(8.0);
        }
        assert_eq!(q.queue.state.max_p, 0.01, "floored at 0.01");
        // Below 0.04 the increment is max_p/4: 0.01 → 0.0125 → 0.015625.
        q.adapt(12.0);
        assert!((q.queue.state.max_p - 0.0125).abs() < 1e-15);
        q.adapt(12.0);
        assert!((q.queue.state.max_p - 0.015625).abs() < 1e-15);
    }

    #[test]
    fn the_timer_adapts_max_p_without_arrivals() {
        // w_q = 1 and ECN marks instead of drops: 18 arrivals queue 18
        // packets and leave avg = 17, above the band [14, 16] of thresholds 10/20.
        let mut h = Harness::red_marking_burst("ared", &[("min_th", 10.0), ("max_th", 20.0)], Limit::Packets(100), 18);
        assert_eq!(h.wake_at, Some(ms(500.0)), "the first arrival arms the timer");
        assert_eq!(h.probe("avg"), 17.0);
        // A spurious early wake-up changes nothing.
        let mut out = crate::queue::QueueOutcome::default();
        h.q.on_wake(&mut QueueCtx::new(ms(100.0), &mut h.rng, &mut out));
        assert_eq!((h.probe("max_p"), out.wake_at), (0.1, None));
        // Three intervals pass with no traffic at all: 0.1 → 0.11 → 0.12 → 0.13.
        h.advance_ms(1500.0);
        assert!((h.probe("max_p") - 0.13).abs() < 1e-12, "{}", h.probe("max_p"));
        assert_eq!(h.wake_at, Some(ms(2000.0)));
        // The queue drains and idles: avg decays to 0 (w_q = 1), below the band.
        while h.depart().is_some() {}
        h.advance_ms(500.0);
        assert!((h.probe("max_p") - 0.117).abs() < 1e-12, "{}", h.probe("max_p"));
    }

    #[test]
    fn cross_check_rejects_inconsistent_thresholds() {
        let mut p = ParamValues::defaults(&INFO, Limit::Packets(100));
        assert!(cross_check(&p).is_ok());
        p.set("max_th", 30.0);
        assert_eq!(cross_check(&p).unwrap_err().param, "max_th");
        p.set("min_th", 40.0);
        assert_eq!(cross_check(&p).unwrap_err().param, "max_th");
        p.set("min_th", 10.0);
        assert!(cross_check(&p).is_ok());
    }

    #[test]
    fn forced_drops_start_at_twice_max_th_and_the_hard_limit_holds() {
        // w_q = 1 and ECN: early signals are marks, so the queue grows until
        // the arrival that sees 2·max_th = 8 queued, and every later one is forced.
        let h = Harness::red_marking_burst("ared", &[("min_th", 2.0), ("max_th", 4.0)], Limit::Packets(100), 50);
        assert_eq!(h.q.len_packets(), 8);
        assert_eq!((h.drops(DropReason::Forced), h.drops(DropReason::Early)), (42, 0));
        assert!(h.marks > 0);
    }

    /// `flows` TCP flows on 10 Mb/s (base RTTs 22–60 ms, 200-packet buffer) for
    /// 60 s: the mean of the `avg` probe over the last 30 s.
    fn mean_avg(queue: &str, flows: u32) -> f64 {
        let text = format!(
            r#"{{ "version": 1, "seed": 1, "duration_s": 60, "measure_from_s": 30,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1e7, "delay_ms": 10 }},
                               "buffer": {{ "packets": 200 }} }},
                "queue": {queue},
                "flows": [{{ "kind": "tcp", "count": {flows}, "segment_bytes": 960, "start_s": [0, 2],
                            "access_delay_ms": [1, 20] }}] }}"#
        );
        let mut sim = Simulation::from_json(&text, SeriesMode { history: true, streaming: false }).expect("valid");
        sim.run();
        mean_while_measured(&sim, "probe.avg")
    }

    #[test]
    fn the_average_stays_in_the_target_band_from_5_to_100_flows_where_red_drifts() {
        // Automatic settings at 10 Mb/s: min_th 5, max_th 15, band [9, 11].
        // RED with the same thresholds and a fixed max_p = 0.1 (ARED's
        // starting point) lets avg follow the load: low with few flows,
        // high with many, as the ARED paper's motivation shows.
        let red = r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 15, "max_p": 0.1, "gentle": true } }"#;
        for flows in [5, 100] {
            let avg = mean_avg(r#"{ "scheme": "ared" }"#, flows);
            assert!((9.0..=11.0).contains(&avg), "ARED, {flows} flows: avg {avg} outside [9, 11]");
        }
        let (few, many) = (mean_avg(red, 5), mean_avg(red, 100));
        assert!(few < 9.0 && many > 11.0, "RED: avg {few} with 5 flows, {many} with 100");
    }
}
