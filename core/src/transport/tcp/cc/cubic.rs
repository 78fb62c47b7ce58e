//! CUBIC (RFC 9438). Windows are counted in segments here, as in the RFC.
//!
//! At a congestion event (§4.6–4.7): remember W_max, the window where the
//! loss happened (less with fast convergence: W_max = cwnd·(1 + β)/2 when
//! cwnd had not regained the previous W_max), and set ssthresh =
//! FlightSize·β with β = 0.7. In congestion avoidance the window follows
//!
//! ```text
//! W_cubic(t) = C·(t − K)³ + W_max,   K = ∛((W_max − cwnd_epoch)/C),   C = 0.4
//! ```
//!
//! with t the time since the avoidance stage began (§4.2): concave up to
//! W_max, then convex. Each segment acknowledged moves cwnd a 1/cwnd step
//! towards W_cubic(t + RTT), clamped to [cwnd, 1.5·cwnd] (§4.4–4.5), with
//! RTT the minimum measured, as Linux's `tcp_cubic` (`delay_min`) and
//! ns-3's `TcpCubic` use (the RFC's smoothed RTT moves with the queue the
//! flow itself builds). Alongside, an
//! estimate of what Reno would have, W_est, grows by α = 3(1 − β)/(1 + β)
//! segments per window acknowledged (α = 1 once W_est has reached the
//! window before the last reduction); while W_cubic(t) < W_est, cwnd =
//! W_est (the Reno-friendly region, §4.3). Timeouts reduce like losses
//! (§4.8) and, as in Linux and ns-3, forget the minimum RTT.
//!
//! Slow start is the sender's, ended early by hybrid slow start as Linux
//! and ns-3 run it (on by default in both), by RFC 9406's HyStart++, or
//! not at all ([`hystart`](super::hystart)). The target may instead look
//! one smoothed RTT ahead, as RFC 9438 §4.2 words it.
//!
//! The cube root is `libm::cbrt`, the same bits natively and in wasm.

use super::hystart::{Hystart, HystartPlusPlus, HystartRules, SlowStartExit};
use super::{CongestionControl, SlowStartAck, SlowStartStep};
use crate::kernel::{Nanos, NS_PER_S};

/// RFC 9438 §5.1: C = 0.4 segments/s³.
pub const C: f64 = 0.4;
/// RFC 9438 §4.6: the multiplicative decrease factor β_cubic.
pub const BETA: f64 = 0.7;
/// RFC 9438 §4.3: α_cubic = 3(1 − β)/(1 + β), Reno's average rate at β = 0.7.
pub const ALPHA: f64 = 3.0 * (1.0 - BETA) / (1.0 + BETA);

/// One congestion-avoidance stage (an "epoch").
#[derive(Clone, Copy, Debug)]
struct Epoch {
    start: Nanos,
    /// K in seconds: when W_cubic reaches `w_max` again.
    k_s: f64,
    /// W_max of this stage (the plateau of the curve), in segments.
    w_max: f64,
    /// The Reno-friendly estimate W_est, in segments.
    w_est: f64,
}

/// The RTT by which W_cubic looks ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TargetRtt {
    /// The smallest RTT measured (Linux's `delay_min`, ns-3's `m_delayMin`).
    #[default]
    Min,
    /// The sender's smoothed RTT (RFC 9438 §4.2's wording).
    Smoothed,
}

/// A CUBIC sender's choices (docs/scenario-format.md `hystart`, `cubic_rtt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CubicOptions {
    pub slow_start_exit: SlowStartExit,
    pub target_rtt: TargetRtt,
}

/// The slow-start exit in use, with its state.
#[derive(Clone, Debug)]
enum SlowStartRule {
    Hystart(Hystart),
    PlusPlus(HystartPlusPlus),
    Standard,
}

impl SlowStartRule {
    fn new(exit: SlowStartExit) -> SlowStartRule {
        match exit {
            SlowStartExit::HystartLinux => SlowStartRule::Hystart(Hystart::new(HystartRules::LINUX)),
            SlowStartExit::HystartNs3 => SlowStartRule::Hystart(Hystart::new(HystartRules::NS3)),
            SlowStartExit::HystartPlusPlus => SlowStartRule::PlusPlus(HystartPlusPlus::default()),
            SlowStartExit::Off => SlowStartRule::Standard,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Cubic {
    options: CubicOptions,
    slow_start: SlowStartRule,
    /// This ACK's RTT sample for the slow-start rule (cleared on every ACK).
    sample: Option<Nanos>,
    /// W_max of the last congestion event; None before the first one.
    w_max: Option<f64>,
    /// cwnd just before the last reduction (segments): α becomes 1 once W_est reaches it.
    cwnd_prior: f64,
    epoch: Option<Epoch>,
    /// Fraction of a byte of window growth not yet added (cwnd is whole bytes).
    carry_bytes: f64,
    /// The smallest RTT measured so far.
    delay_min: Option<Nanos>,
}

impl Default for Cubic {
    fn default() -> Cubic {
        Cubic::new(CubicOptions::default())
    }
}

impl Cubic {
    pub fn new(options: CubicOptions) -> Cubic {
        Cubic {
            options,
            slow_start: SlowStartRule::new(options.slow_start_exit),
            sample: None,
            w_max: None,
            cwnd_prior: 0.0,
            epoch: None,
            carry_bytes: 0.0,
            delay_min: None,
        }
    }

    /// W_max of the last congestion event, in segments.
    pub fn w_max_segments(&self) -> Option<f64> {
        self.w_max
    }

    /// K of the current avoidance stage, in seconds (None outside one).
    pub fn k_seconds(&self) -> Option<f64> {
        self.epoch.map(|e| e.k_s)
    }

    /// RFC 9438 §4.2, equation (1).
    pub fn w_cubic(t_s: f64, k_s: f64, w_max: f64) -> f64 {
        let d = t_s - k_s;
        C * d * d * d + w_max
    }

    /// RFC 9438 §4.2, equation (2). A stage that begins at or above W_max
    /// (no loss yet, or a receiver-window limit) starts on the convex side
    /// with K = 0 and its own window as the plateau, as Linux does.
    fn begin_epoch(&mut self, now: Nanos, w: f64) -> Epoch {
        let w_max = self.w_max.filter(|&m| m > w).unwrap_or(w);
        Epoch { start: now, k_s: libm::cbrt((w_max - w) / C), w_max, w_est: w }
    }
}

impl CongestionControl for Cubic {
    /// RFC 9438 §4.6 (ssthresh = FlightSize·β, at least 2 segments) and
    /// §4.7 (fast convergence). The next avoidance stage starts a new curve.
    fn on_congestion(&mut self, cwnd: u64, flight: u64, mss: u64) -> u64 {
        let w = cwnd as f64 / mss as f64;
        self.w_max = Some(match self.w_max {
            Some(previous) if w < previous => w * (1.0 + BETA) / 2.0,
            _ => w,
        });
        self.cwnd_prior = w;
        self.epoch = None;
        self.carry_bytes = 0.0;
        if let SlowStartRule::PlusPlus(h) = &mut self.slow_start {
            h.finish();
        }
        ((flight as f64 * BETA) as u64).max(2 * mss)
    }

    fn on_ack_in_avoidance(&mut self, now: Nanos, cwnd: u64, acked: u64, srtt: Option<Nanos>, mss: u64) -> u64 {
        let mss_f = mss as f64;
        let w = cwnd as f64 / mss_f;
        let mut epoch = match self.epoch {
            Some(e) => e,
            None => self.begin_epoch(now, w),
        };
        let t = (now - epoch.start) as f64 / NS_PER_S as f64;
        let rtt = match self.options.target_rtt {
            TargetRtt::Min => self.delay_min.or(srtt),
            TargetRtt::Smoothed => srtt.or(self.delay_min),
        };
        let rtt = rtt.unwrap_or(0) as f64 / NS_PER_S as f64;
        let segments = acked as f64 / mss_f;
        // §4.3: W_est grows by α per window of data acknowledged.
        let alpha = if epoch.w_est >= self.cwnd_prior { 1.0 } else { ALPHA };
        epoch.w_est += alpha * segments / w;
        let new_w = if Cubic::w_cubic(t, epoch.k_s, epoch.w_max) < epoch.w_est {
            // §4.3: the Reno-friendly region.
            epoch.w_est.max(w)
        } else {
            // §4.4–4.5: a 1/cwnd step per segment towards the target one RTT ahead.
            let target = Cubic::w_cubic(t + rtt, epoch.k_s, epoch.w_max).clamp(w, 1.5 * w);
            w + (target - w) / w * segments
        };
        self.epoch = Some(epoch);
        let growth = (new_w - w) * mss_f + self.carry_bytes;
        let whole = growth.floor();
        self.carry_bytes = growth - whole;
        cwnd + whole as u64
    }

    fn on_rtt_sample(&mut self, rtt: Nanos) {
        self.delay_min = Some(self.delay_min.map_or(rtt, |m| m.min(rtt)));
        self.sample = Some(rtt);
    }

    fn on_ack_clock(&mut self, _now: Nanos, _srtt: Option<Nanos>, _slow_start: bool) {
        self.sample = None;
    }

    fn on_slow_start_ack(&mut self, ack: &SlowStartAck) -> SlowStartStep {
        match &mut self.slow_start {
            SlowStartRule::Hystart(h) => h.on_ack(ack, self.sample, self.delay_min),
            SlowStartRule::PlusPlus(h) => h.on_ack(ack, self.sample),
            SlowStartRule::Standard => SlowStartStep::Standard,
        }
    }

    /// Linux's `cubictcp_state` and ns-3's `CongestionStateSet` on entering
    /// the loss state: the minimum RTT is measured afresh, HyStart re-armed.
    fn on_timeout(&mut self) {
        self.delay_min = None;
        match &mut self.slow_start {
            SlowStartRule::Hystart(h) => *h = Hystart::new(h.rules()),
            SlowStartRule::PlusPlus(h) => h.finish(),
            SlowStartRule::Standard => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::NS_PER_MS;

    const MSS: u64 = 1000;

    /// A policy after one loss at `w` segments, with all of them in flight.
    fn after_loss_at(w: u64) -> (Cubic, u64) {
        let mut c = Cubic::default();
        let ssthresh = c.on_congestion(w * MSS, w * MSS, MSS);
        (c, ssthresh)
    }

    #[test]
    fn constants_follow_rfc9438() {
        assert_eq!((C, BETA), (0.4, 0.7));
        assert!((ALPHA - 0.9 / 1.7).abs() < 1e-15);
    }

    #[test]
    fn a_loss_sets_ssthresh_to_beta_times_flight_and_w_max_to_cwnd() {
        let (c, ssthresh) = after_loss_at(100);
        assert_eq!((ssthresh, c.w_max_segments()), (70_000, Some(100.0)));
        // §4.6: never below two segments.
        assert_eq!(Cubic::default().on_congestion(2000, 2000, MSS), 2000);
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_window_had_not_recovered() {
        let (mut c, _) = after_loss_at(100);
        // §4.7: a loss at 80 < 100 leaves W_max = 80·(1 + 0.7)/2 = 68.
        c.on_congestion(80 * MSS, 80 * MSS, MSS);
        assert!((c.w_max_segments().unwrap() - 68.0).abs() < 1e-12);
        // A loss above the previous W_max takes the window as it is.
        c.on_congestion(90 * MSS, 90 * MSS, MSS);
        assert_eq!(c.w_max_segments(), Some(90.0));
    }

    #[test]
    fn k_is_the_cube_root_of_the_reduction_over_c() {
        let (mut c, ssthresh) = after_loss_at(100);
        c.on_ack_in_avoidance(0, ssthresh, MSS, Some(100 * NS_PER_MS), MSS);
        // K = ∛((100 − 70)/0.4) = ∛75.
        assert!((c.k_seconds().unwrap() - 75f64.powf(1.0 / 3.0)).abs() < 1e-12);
        assert!((Cubic::w_cubic(0.0, 75f64.powf(1.0 / 3.0), 100.0) - 70.0).abs() < 1e-12);
    }

    #[test]
    fn each_ack_steps_one_over_cwnd_towards_w_cubic_one_rtt_ahead() {
        let (mut c, ssthresh) = after_loss_at(100);
        let rtt = 100 * NS_PER_MS;
        c.on_ack_in_avoidance(0, ssthresh, MSS, Some(rtt), MSS);
        // 2 s into the stage: target W(2.1 s), step (target − 70)/70 segments.
        let k = c.k_seconds().unwrap();
        let target = Cubic::w_cubic(2.1, k, 100.0);
        let cwnd = c.on_ack_in_avoidance(2 * NS_PER_S, 70_000, MSS, Some(rtt), MSS);
        let expected = 70_000.0 + (target - 70.0) / 70.0 * 1000.0;
        assert!((cwnd as f64 - expected).abs() < 1.0, "{cwnd} vs {expected}");
        assert!(target > 70.0 + ALPHA);
    }

    #[test]
    fn an_ack_for_two_segments_grows_the_window_as_two_acks_would() {
        let rtt = 100 * NS_PER_MS;
        let grow = |acks: &[u64]| {
            let (mut c, ssthresh) = after_loss_at(100);
            c.on_ack_in_avoidance(0, ssthresh, MSS, Some(rtt), MSS);
            acks.iter().fold(70_000, |cwnd, &acked| c.on_ack_in_avoidance(2 * NS_PER_S, cwnd, acked, Some(rtt), MSS))
        };
        // Equal but for the second ACK's step being taken from a window one step larger.
        let (one_ack, two_acks) = ((grow(&[2 * MSS]) - 70_000) as f64, (grow(&[MSS, MSS]) - 70_000) as f64);
        assert!(one_ack > 700.0 && (one_ack / two_acks - 1.0).abs() < 0.02, "{one_ack} vs {two_acks}");
    }

    #[test]
    fn the_target_looks_one_minimum_rtt_ahead() {
        // Linux's delay_min: a queue that inflates SRTT does not pull the target forward.
        let target_step = |c: &mut Cubic| c.on_ack_in_avoidance(2 * NS_PER_S, 70_000, MSS, Some(400 * NS_PER_MS), MSS);
        let (mut with_min, _) = after_loss_at(100);
        with_min.on_rtt_sample(100 * NS_PER_MS);
        with_min.on_rtt_sample(400 * NS_PER_MS);
        with_min.on_ack_in_avoidance(0, 70_000, MSS, Some(400 * NS_PER_MS), MSS);
        let k = with_min.k_seconds().unwrap();
        let expected = 70_000.0 + (Cubic::w_cubic(2.1, k, 100.0) - 70.0) / 70.0 * 1000.0;
        let cwnd = target_step(&mut with_min);
        assert!((cwnd as f64 - expected).abs() < 1.0, "{cwnd} vs {expected}");
    }

    #[test]
    fn with_cubic_rtt_srtt_the_target_looks_one_smoothed_rtt_ahead() {
        // RFC 9438 §4.2's wording: the queue-inflated SRTT of 400 ms, not the 100 ms minimum.
        let mut c = Cubic::new(CubicOptions { target_rtt: TargetRtt::Smoothed, ..CubicOptions::default() });
        c.on_congestion(100 * MSS, 100 * MSS, MSS);
        c.on_rtt_sample(100 * NS_PER_MS);
        c.on_ack_in_avoidance(0, 70_000, MSS, Some(400 * NS_PER_MS), MSS);
        let k = c.k_seconds().unwrap();
        let expected = 70_000.0 + (Cubic::w_cubic(2.4, k, 100.0) - 70.0) / 70.0 * 1000.0;
        let cwnd = c.on_ack_in_avoidance(2 * NS_PER_S, 70_000, MSS, Some(400 * NS_PER_MS), MSS);
        assert!((cwnd as f64 - expected).abs() < 1.0, "{cwnd} vs {expected}");
    }

    #[test]
    fn a_timeout_forgets_the_minimum_rtt_and_rearms_hystart() {
        let slow_start_ack = |now: Nanos, una: u64| SlowStartAck {
            now,
            cwnd: 20 * MSS,
            mss: MSS,
            snd_una: una * MSS,
            snd_nxt: 1_000 * MSS,
            paced: false,
        };
        // ACKs 1 ms apart with 40 ms samples: Linux's train ends slow start after 20 ms.
        let mut c = Cubic::default();
        let exit_at = |c: &mut Cubic, from: Nanos| {
            (0..100u64).find(|&i| {
                c.on_ack_clock(from + i * NS_PER_MS, None, true);
                c.on_rtt_sample(40 * NS_PER_MS);
                c.on_slow_start_ack(&slow_start_ack(from + i * NS_PER_MS, i + 1)) == SlowStartStep::Exit
            })
        };
        assert_eq!(exit_at(&mut c, 0), Some(21));
        // Found: no second exit, until a timeout.
        assert_eq!(exit_at(&mut c, NS_PER_S), None);
        c.on_rtt_sample(10 * NS_PER_MS);
        c.on_timeout();
        assert_eq!(c.delay_min, None);
        assert_eq!(exit_at(&mut c, 2 * NS_PER_S), Some(21));
    }

    #[test]
    fn the_target_is_capped_at_one_and_a_half_windows() {
        let (mut c, _) = after_loss_at(100);
        c.on_ack_in_avoidance(0, 70_000, MSS, None, MSS);
        // Far past K the curve is steep: the step is 0.5 segment per ACK at most.
        let cwnd = c.on_ack_in_avoidance(60 * NS_PER_S, 70_000, MSS, None, MSS);
        assert!((cwnd as i64 - 70_500).abs() <= 1, "{cwnd}");
    }

    #[test]
    fn in_the_reno_friendly_region_cwnd_follows_w_est() {
        // A small window over a long stage: W_cubic hardly moves near the
        // plateau while Reno's estimate climbs by α per window.
        let (mut c, ssthresh) = after_loss_at(10);
        assert_eq!(ssthresh, 7000);
        let mut cwnd = ssthresh;
        let mut w_est = 7.0;
        for i in 0..70 {
            let w = cwnd as f64 / 1000.0;
            let alpha = if w_est >= 10.0 { 1.0 } else { ALPHA };
            w_est += alpha / w;
            // 10 ms apart: 0.7 s, well before K = ∛7.5 ≈ 1.96 s.
            cwnd = c.on_ack_in_avoidance(i * 10 * NS_PER_MS, cwnd, MSS, Some(10 * NS_PER_MS), MSS);
            let k = c.k_seconds().unwrap();
            assert!(Cubic::w_cubic(i as f64 * 0.01, k, 10.0) < w_est, "ack {i}");
            assert!((cwnd as f64 / 1000.0 - w_est).abs() < 0.002, "ack {i}: {cwnd} vs {w_est}");
        }
        // Ten windows at α ≈ 0.53, then α = 1 past the old window of 10.
        assert!(cwnd > 11_500 && cwnd < 12_500, "{cwnd}");
    }

    #[test]
    fn without_a_loss_the_stage_starts_convex_from_its_own_window() {
        let mut c = Cubic::default();
        let cwnd = c.on_ack_in_avoidance(0, 50_000, MSS, None, MSS);
        assert_eq!((c.k_seconds(), cwnd), (Some(0.0), 50_000 + 20));
    }
}
