//! TCP Prague (De Schepper, Tilmans, Briscoe & Goel,
//! draft-briscoe-iccrg-prague-congestion-control-04, 2024; defaults of the
//! Linux reference `tcp_prague.c`): DCTCP's response to the extent of CE
//! marking, made fit to share the Internet with classic flows.
//!
//! ```text
//! α: DCTCP's EWMA of the marked fraction (g = 1/16, MarkedFraction),
//!    once per round trip; it stays 1 until the first CE mark.
//! CE:   cwnd ← cwnd·(1 − α/2), at most once per round trip.
//! ACK:  cwnd += ai·MSS·(bytes acked − bytes marked)/cwnd, marked or not.
//! loss: cwnd ← FlightSize/2 (Reno).
//! RTT independence, after 500 rounds out of slow start with SRTT < R_v:
//!    ai = (SRTT/R_v)²,  R_v = 25 ms (the virtual RTT),
//!    and α's update and the CE reduction happen at most once per R_v.
//! pacing: 200 % of cwnd/SRTT in slow start, 100 % after.
//! ```
//!
//! Why the scaling makes rates independent of the RTT R: the window grows
//! ai·MSS per R, so the rate cwnd/R grows ai·MSS/R² = MSS/R_v² per second,
//! as a flow's with RTT R_v would; the reductions, one per R_v, take
//! cwnd·α/2. In balance the rate is 2·MSS/(α·R_v) whatever R, where DCTCP's
//! (ai = 1, one reduction per R) is 2·MSS/(α·R).
//!
//! Not implemented: the optional detection of a classic ECN AQM with
//! fallback to a classic response (`prague_ecn_fallback`, off by default in
//! Linux), and Linux's fractional window kept in units of 2⁻²⁰ segments
//! (here the additive increase carries its fraction of a byte instead).

use super::dctcp::MarkedFraction;
use super::{CongestionControl, Reno};
use crate::kernel::{Nanos, NS_PER_MS};

/// The virtual RTT R_v that RTT independence steers towards (Linux
/// `prague_rtt_target`, 25 ms).
pub const VIRTUAL_RTT: Nanos = 25 * NS_PER_MS;
/// Rounds out of slow start before RTT independence starts (Linux
/// `prague_rtt_transition`).
pub const RTT_TRANSITION_ROUNDS: u32 = 500;
/// Above this SRTT the additive increase is not scaled (Linux's
/// `MAX_SCALED_RTT`, 100 ms; no flow that long is below R_v anyway).
const MAX_SCALED_RTT: Nanos = 100 * NS_PER_MS;

#[derive(Clone, Debug)]
pub struct Prague {
    marked: MarkedFraction,
    /// Has any CE mark been reported? Until then α does not move.
    saw_ce: bool,
    /// The sender's clock, SRTT and phase at the ACK being processed.
    now: Nanos,
    srtt: Option<Nanos>,
    slow_start: bool,
    /// Round trips completed outside slow start.
    rounds: u32,
    /// When α was last updated, and when the last CE reduction happened.
    alpha_updated_at: Nanos,
    reduced_at: Option<Nanos>,
    /// The fraction of a byte the additive increase has not yet added.
    increase_carry: f64,
}

impl Default for Prague {
    fn default() -> Self {
        Prague {
            marked: MarkedFraction::default(),
            saw_ce: false,
            now: 0,
            srtt: None,
            slow_start: true,
            rounds: 0,
            alpha_updated_at: 0,
            reduced_at: None,
            increase_carry: 0.0,
        }
    }
}

impl Prague {
    /// The current estimate of the fraction of bytes marked.
    pub fn alpha(&self) -> f64 {
        self.marked.alpha()
    }

    /// Rounds completed outside slow start.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Has the transition to RTT independence happened?
    pub fn rtt_independent(&self) -> bool {
        !self.slow_start && self.rounds >= RTT_TRANSITION_ROUNDS
    }

    /// The additive increase per round trip, in segments: (SRTT/R_v)² once
    /// RTT-independent with SRTT below R_v, otherwise 1 as Reno's.
    pub fn increase_per_rtt(&self) -> f64 {
        match self.srtt {
            Some(srtt) if self.rtt_independent() && srtt > 0 && srtt < VIRTUAL_RTT.min(MAX_SCALED_RTT) => {
                let ratio = srtt as f64 / VIRTUAL_RTT as f64;
                ratio * ratio
            }
            _ => 1.0,
        }
    }

    /// Has a virtual RTT passed since `at`? Always, before RTT independence.
    fn virtual_rtt_passed(&self, at: Nanos) -> bool {
        !self.rtt_independent() || self.now.saturating_sub(at) >= VIRTUAL_RTT
    }
}

impl CongestionControl for Prague {
    /// A loss halves FlightSize, as Reno.
    fn on_congestion(&mut self, cwnd: u64, flight: u64, mss: u64) -> u64 {
        Reno.on_congestion(cwnd, flight, mss)
    }

    /// cwnd·(1 − α/2), as DCTCP; the sender asked `ecn_reduction_due` first.
    fn on_ecn(&mut self, cwnd: u64, _flight: u64, mss: u64) -> u64 {
        self.reduced_at = Some(self.now);
        self.marked.reduced(cwnd, mss)
    }

    /// ai·MSS per MSS of unmarked bytes over cwnd, its fraction of a byte carried.
    fn on_ack_in_avoidance(&mut self, _now: Nanos, cwnd: u64, acked: u64, _srtt: Option<Nanos>, mss: u64) -> u64 {
        let increase = self.increase_per_rtt() * mss as f64 * acked as f64 / cwnd.max(1) as f64 + self.increase_carry;
        let whole = increase.floor();
        self.increase_carry = increase - whole;
        cwnd + whole as u64
    }

    /// α as DCTCP's, its window closing once per round trip and, once
    /// RTT-independent, no more often than once per virtual RTT; each
    /// closing outside slow start counts a round.
    fn on_ack_feedback(&mut self, snd_una: u64, snd_nxt: u64, acked: u64, marked: u64) {
        self.saw_ce |= marked > 0;
        self.marked.count(acked, marked);
        if !self.marked.window_ended(snd_una) || !self.virtual_rtt_passed(self.alpha_updated_at) {
            return;
        }
        if self.saw_ce {
            self.marked.close_window(snd_nxt);
        } else {
            self.marked.skip_window(snd_nxt);
        }
        self.alpha_updated_at = self.now;
        if !self.slow_start {
            self.rounds = self.rounds.saturating_add(1);
        }
    }

    fn on_ack_clock(&mut self, now: Nanos, srtt: Option<Nanos>, slow_start: bool) {
        self.now = now;
        self.srtt = srtt;
        self.slow_start = slow_start;
    }

    fn grows_past_marks(&self) -> bool {
        true
    }

    fn ecn_reduction_due(&self) -> bool {
        self.reduced_at.is_none_or(|at| self.virtual_rtt_passed(at))
    }

    /// Linux `prague_update_pacing_rate`: 100 % of cwnd/SRTT once out of slow start.
    fn pacing_avoidance_percent(&self) -> u64 {
        100
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::tcp::cc::dctcp::G;

    const MSS: u64 = 1000;
    const MS: Nanos = NS_PER_MS;

    /// A Prague out of slow start that has completed `rounds` rounds at SRTT `srtt`.
    fn after_rounds(rounds: u32, srtt: Nanos) -> Prague {
        let mut p = Prague::default();
        p.on_ack_clock(0, Some(srtt), false);
        p.rounds = rounds;
        p
    }

    #[test]
    fn alpha_is_dctcps_ewma_and_waits_for_the_first_mark() {
        let mut p = Prague::default();
        p.on_ack_clock(0, Some(10 * MS), false);
        // Windows without marks: α stays 1 (no AQM seen yet), rounds still count.
        for w in 1..=3u64 {
            p.on_ack_feedback((10 * w + 1) * MSS, (10 * w + 10) * MSS, 10 * MSS, 0);
        }
        assert_eq!((p.alpha(), p.rounds()), (1.0, 3));
        // A window with 3 of 10 segments marked: α ← (1 − g)·1 + g·0.3.
        p.on_ack_feedback(35 * MSS, 45 * MSS, 5 * MSS, 3 * MSS);
        p.on_ack_feedback(41 * MSS, 50 * MSS, 5 * MSS, 0);
        assert!((p.alpha() - ((1.0 - G) + G * 0.3)).abs() < 1e-12, "{}", p.alpha());
        // Rounds in slow start do not count towards the transition.
        p.on_ack_clock(0, Some(10 * MS), true);
        p.on_ack_feedback(51 * MSS, 60 * MSS, 10 * MSS, 0);
        assert_eq!(p.rounds(), 4);
    }

    #[test]
    fn ce_reduces_by_alpha_over_two_and_loss_halves() {
        let mut p = Prague::default();
        assert_eq!(p.on_ecn(20_000, 20_000, MSS), 10_000, "α = 1: halve");
        p.marked.close_window(0);
        let alpha = p.alpha();
        assert_eq!(p.on_ecn(20_000, 20_000, MSS), (20_000.0 * (1.0 - alpha / 2.0)) as u64);
        assert_eq!(p.on_congestion(20_000, 18_000, MSS), 9000, "a loss halves FlightSize");
    }

    #[test]
    fn marked_bytes_do_not_grow_the_window_but_the_rest_do() {
        let mut p = after_rounds(0, 10 * MS);
        assert_eq!(p.on_ack_in_avoidance(0, 10_000, 1000, None, MSS), 10_100);
        assert_eq!(p.on_ack_in_avoidance(0, 10_000, 0, None, MSS), 10_000);
        assert!(p.grows_past_marks());
    }

    #[test]
    fn additive_increase_scales_with_the_rtt_squared_after_the_transition() {
        for srtt in [2 * MS, 5 * MS, 10 * MS, 20 * MS] {
            // Before the transition: one segment per round trip, as Reno.
            assert_eq!(after_rounds(RTT_TRANSITION_ROUNDS - 1, srtt).increase_per_rtt(), 1.0);
            let p = after_rounds(RTT_TRANSITION_ROUNDS, srtt);
            let ai = p.increase_per_rtt();
            let ratio = srtt as f64 / VIRTUAL_RTT as f64;
            assert!((ai - ratio * ratio).abs() < 1e-12, "{srtt}: {ai}");
            // So the rate grows MSS/R_v² per second whatever the RTT (Reno: MSS/R²).
            let rate_growth = ai * MSS as f64 / (srtt as f64 * 1e-9).powi(2);
            let at_virtual = MSS as f64 / (VIRTUAL_RTT as f64 * 1e-9).powi(2);
            assert!((rate_growth / at_virtual - 1.0).abs() < 1e-9);
        }
        // At or above R_v nothing is scaled.
        assert_eq!(after_rounds(RTT_TRANSITION_ROUNDS, 25 * MS).increase_per_rtt(), 1.0);
        assert_eq!(after_rounds(RTT_TRANSITION_ROUNDS, 80 * MS).increase_per_rtt(), 1.0);
    }

    #[test]
    fn a_round_trip_of_acks_adds_ai_segments_carrying_fractions_of_a_byte() {
        // SRTT 5 ms: ai = 1/25 segment per round trip, 0.4 byte per ACK at
        // cwnd 100 segments, which integer bytes alone would lose.
        let mut p = after_rounds(RTT_TRANSITION_ROUNDS, 5 * MS);
        let mut cwnd = 100 * MSS;
        for _ in 0..100 {
            cwnd = p.on_ack_in_avoidance(0, cwnd, MSS, None, MSS);
        }
        // 0.04 segment, a little under 40 bytes as cwnd grows meanwhile.
        assert_eq!(cwnd, 100 * MSS + 39);
    }

    /// The balance of additive increase and CE reductions under a steady
    /// marking probability `p` (every 1/p-th segment marked), with an ACK
    /// per segment at a fixed RTT: the mean window over the last half of
    /// `seconds`, in segments, and so the mean rate in segments per second.
    fn steady_rate(mut cc: Box<dyn CongestionControl>, rtt: Nanos, p: f64, seconds: u64) -> f64 {
        let (mut cwnd, mut una, mut reduced_until, mut credit) = (10 * MSS, 0u64, 0u64, 0.0);
        let (mut now, mut sum, mut n) = (0, 0.0, 0.0);
        while now < seconds * 1_000_000_000 {
            let gap = rtt * MSS / cwnd;
            now += gap;
            credit += p;
            let marked = if credit >= 1.0 { MSS } else { 0 };
            credit -= (marked / MSS) as f64;
            una += MSS;
            let nxt = una + cwnd;
            cc.on_ack_clock(now, Some(rtt), false);
            cc.on_ack_feedback(una, nxt, MSS, marked);
            if marked == 0 || cc.grows_past_marks() {
                cwnd = cc.on_ack_in_avoidance(now, cwnd, MSS - marked, Some(rtt), MSS);
            }
            if marked > 0 && una > reduced_until && cc.ecn_reduction_due() {
                cwnd = cc.on_ecn(cwnd, cwnd, MSS);
                reduced_until = nxt;
            }
            if now > seconds * 500_000_000 {
                sum += (cwnd / MSS) as f64 * 1e9 / rtt as f64;
                n += 1.0;
            }
        }
        sum / n
    }

    #[test]
    fn rtt_independence_brings_the_rates_of_short_and_long_rtts_together() {
        // At a common marking probability the 5 ms flow would get 4 times
        // the rate of the 20 ms one under DCTCP's rules (window 2/p each);
        // with the virtual RTT both aim at 2/(p·R_v) segments per second.
        let p = 0.02;
        let prague = |rtt| {
            let mut cc = after_rounds(RTT_TRANSITION_ROUNDS, rtt);
            cc.saw_ce = true;
            steady_rate(Box::new(cc), rtt, p, 200)
        };
        let dctcp = |rtt| steady_rate(Box::new(super::super::Dctcp::default()), rtt, p, 200);
        let (prague_ratio, dctcp_ratio) = (prague(5 * MS) / prague(20 * MS), dctcp(5 * MS) / dctcp(20 * MS));
        assert!((3.0..5.0).contains(&dctcp_ratio), "DCTCP {dctcp_ratio}");
        assert!(prague_ratio < 1.5 && prague_ratio > 1.0 / 1.5, "Prague {prague_ratio}");
        // And near the closed form 2/(α·R_v), α ≈ p.
        let expected = 2.0 / (p * VIRTUAL_RTT as f64 * 1e-9);
        assert!((prague(10 * MS) / expected - 1.0).abs() < 0.35, "{} vs {expected}", prague(10 * MS));
    }

    #[test]
    fn reductions_are_a_virtual_rtt_apart_once_rtt_independent() {
        let mut p = after_rounds(RTT_TRANSITION_ROUNDS, 5 * MS);
        assert!(p.ecn_reduction_due());
        p.on_ecn(20_000, 20_000, MSS);
        p.on_ack_clock(24 * MS, Some(5 * MS), false);
        assert!(!p.ecn_reduction_due(), "within R_v of the last reduction");
        p.on_ack_clock(25 * MS, Some(5 * MS), false);
        assert!(p.ecn_reduction_due());
        // Before the transition only the sender's once-per-window rule applies.
        let mut p = after_rounds(0, 5 * MS);
        p.on_ecn(20_000, 20_000, MSS);
        assert!(p.ecn_reduction_due());
    }

    #[test]
    fn paces_at_cwnd_over_srtt_out_of_slow_start() {
        assert_eq!(Prague::default().pacing_avoidance_percent(), 100);
        assert_eq!(Reno.pacing_avoidance_percent(), 120);
    }
}
