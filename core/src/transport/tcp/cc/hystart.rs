//! CUBIC's slow-start exits: hybrid slow start (Ha & Rhee's HyStart) as
//! Linux's `tcp_cubic` and ns-3's `TcpCubic` run it, and RFC 9406's
//! HyStart++. Both watch rounds: a round ends with the first ACK beyond
//! the highest byte sent when it began.
//!
//! HyStart, from a window of 16 segments on, until it fires once:
//! - ACK train: ACKs no more than 2 ms apart from the round's start on; if
//!   such a train lasts longer than a share of the minimum RTT (half of it
//!   in Linux unpaced, the minimum RTT plus 1 ms paced; all of it in ns-3),
//!   the window fills the path: ssthresh = cwnd.
//! - Delay: after 8 RTT samples in the round, if the round's smallest
//!   sample exceeds the minimum RTT by clamp(RTT_min/8, 4 ms, 16 ms) (Linux;
//!   ns-3: clamp(RTT_min, 4 ms, 1 s), a doubled RTT), ssthresh = cwnd.
//! Linux takes the smallest of all the round's samples, ns-3 of its first 8.
//! A timeout re-arms it (both reset it on entering the loss state).
//!
//! HyStart++ (RFC 9406 §4.2), only in the first slow start (§4.3): each
//! round keeps the smallest RTT of its samples; once a round has 8 and
//! its minimum is at least the last round's plus clamp(last/8, 4 ms,
//! 16 ms), Conservative Slow Start (CSS) begins with that minimum as its
//! baseline: growth is a quarter of slow start's. A CSS round whose minimum
//! (after 8 samples) falls below the baseline resumes slow start; after 5
//! CSS rounds, ssthresh = cwnd. Growth per ACK is never above L·SMSS
//! (L = 8 unpaced), which the sender's one MSS per ACK already respects.

use super::{SlowStartAck, SlowStartStep};
use crate::kernel::{Nanos, NS_PER_MS, NS_PER_S};

/// Which slow-start exit a CUBIC sender runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SlowStartExit {
    /// HyStart as Linux's `tcp_cubic` runs it (its default).
    #[default]
    HystartLinux,
    /// HyStart as ns-3.44's `TcpCubic` runs it (its default).
    HystartNs3,
    /// RFC 9406's HyStart++.
    HystartPlusPlus,
    /// Standard slow start to the first loss.
    Off,
}

/// HyStart's rules, where Linux and ns-3 differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HystartRules {
    /// No exit below this window (segments): 16 in both.
    pub low_window: u64,
    /// ACKs at most this far apart form a train: 2 ms in both.
    pub ack_delta: Nanos,
    /// RTT samples before the delay test: 8 in both.
    pub min_samples: u32,
    /// The train must outlast RTT_min / this (unpaced): Linux 2, ns-3 1.
    pub train_divisor: u64,
    /// The delay threshold is clamp(RTT_min / this, lo, hi): Linux 8, 4–16 ms; ns-3 1, 4 ms–1 s.
    pub delay_divisor: u64,
    pub delay_clamp: (Nanos, Nanos),
    /// Linux keeps the minimum of every sample in the round; ns-3 of the first `min_samples`.
    pub min_of_every_sample: bool,
    /// Linux tests for a new round only once the window has reached `low_window`; ns-3 on every ACK.
    pub rounds_from_low_window: bool,
    /// Linux's paced train threshold is RTT_min + min(1 ms, 4 GSO segments' time), not RTT_min/2.
    pub paced_train_extra: Option<Nanos>,
}

impl HystartRules {
    /// `net/ipv4/tcp_cubic.c` (HYSTART_* and the module parameters' defaults).
    pub const LINUX: HystartRules = HystartRules {
        low_window: 16,
        ack_delta: 2 * NS_PER_MS,
        min_samples: 8,
        train_divisor: 2,
        delay_divisor: 8,
        delay_clamp: (4 * NS_PER_MS, 16 * NS_PER_MS),
        min_of_every_sample: true,
        rounds_from_low_window: true,
        // min(1 ms, 4 × 64 KB at the pacing rate): 1 ms below 2 Gb/s.
        paced_train_extra: Some(NS_PER_MS),
    };
    /// `src/internet/model/tcp-cubic.cc` in ns-3.44 (its attributes' defaults).
    pub const NS3: HystartRules = HystartRules {
        low_window: 16,
        ack_delta: 2 * NS_PER_MS,
        min_samples: 8,
        train_divisor: 1,
        delay_divisor: 1,
        delay_clamp: (4 * NS_PER_MS, NS_PER_S),
        min_of_every_sample: false,
        rounds_from_low_window: false,
        paced_train_extra: None,
    };
}

/// HyStart's state for the current round.
#[derive(Clone, Debug)]
pub struct Hystart {
    rules: HystartRules,
    found: bool,
    /// The round ends with an ACK beyond this byte (None: before the first round).
    round_end: Option<u64>,
    round_start: Nanos,
    last_ack: Nanos,
    /// The round's smallest RTT sample so far, and how many it has seen.
    round_min: Option<Nanos>,
    samples: u32,
}

impl Hystart {
    pub fn new(rules: HystartRules) -> Hystart {
        Hystart { rules, found: false, round_end: None, round_start: 0, last_ack: 0, round_min: None, samples: 0 }
    }

    pub fn rules(&self) -> HystartRules {
        self.rules
    }

    /// Has it ended a slow start since it was last armed?
    pub fn found(&self) -> bool {
        self.found
    }

    /// Linux's `bictcp_hystart_reset`: a new round from this ACK.
    fn new_round(&mut self, ack: &SlowStartAck) {
        self.round_end = Some(ack.snd_nxt);
        self.round_start = ack.now;
        self.last_ack = ack.now;
        self.round_min = None;
        self.samples = 0;
    }

    fn round_over(&self, ack: &SlowStartAck) -> bool {
        self.round_end.is_none_or(|end| ack.snd_una > end)
    }

    /// One ACK in slow start with its RTT sample, if any, and the minimum
    /// RTT measured so far.
    pub fn on_ack(&mut self, ack: &SlowStartAck, rtt: Option<Nanos>, rtt_min: Option<Nanos>) -> SlowStartStep {
        if self.found {
            return SlowStartStep::Standard;
        }
        let gate = ack.cwnd >= self.rules.low_window * ack.mss;
        if (gate || !self.rules.rounds_from_low_window) && self.round_over(ack) {
            self.new_round(ack);
        }
        let (Some(rtt), Some(rtt_min), true) = (rtt, rtt_min, gate) else {
            return SlowStartStep::Standard;
        };
        self.found = self.ack_train(ack, rtt_min) | self.delay_increase(rtt, rtt_min);
        if self.found {
            SlowStartStep::Exit
        } else {
            SlowStartStep::Standard
        }
    }

    /// The first test: a train of closely spaced ACKs as long as the path's delay.
    fn ack_train(&mut self, ack: &SlowStartAck, rtt_min: Nanos) -> bool {
        if ack.now - self.last_ack > self.rules.ack_delta {
            return false;
        }
        self.last_ack = ack.now;
        let threshold = match (ack.paced, self.rules.paced_train_extra) {
            (true, Some(extra)) => rtt_min + extra,
            _ => rtt_min / self.rules.train_divisor,
        };
        ack.now - self.round_start > threshold
    }

    /// The second test: the round's smallest RTT well above the path's.
    fn delay_increase(&mut self, rtt: Nanos, rtt_min: Nanos) -> bool {
        let counted = self.samples < self.rules.min_samples;
        if counted || self.rules.min_of_every_sample {
            self.round_min = Some(self.round_min.map_or(rtt, |m| m.min(rtt)));
        }
        if counted {
            self.samples += 1;
            return false;
        }
        let (lo, hi) = self.rules.delay_clamp;
        self.round_min.is_some_and(|m| m > rtt_min + (rtt_min / self.rules.delay_divisor).clamp(lo, hi))
    }
}

/// RFC 9406 §4.1's constants.
pub const MIN_RTT_THRESH: Nanos = 4 * NS_PER_MS;
pub const MAX_RTT_THRESH: Nanos = 16 * NS_PER_MS;
pub const MIN_RTT_DIVISOR: Nanos = 8;
pub const N_RTT_SAMPLE: u32 = 8;
pub const CSS_GROWTH_DIVISOR: u64 = 4;
pub const CSS_ROUNDS: u32 = 5;

/// RFC 9406's state.
#[derive(Clone, Debug, Default)]
pub struct HystartPlusPlus {
    window_end: Option<u64>,
    last_round_min_rtt: Option<Nanos>,
    current_round_min_rtt: Option<Nanos>,
    rtt_sample_count: u32,
    /// Some while in CSS.
    css_baseline_min_rtt: Option<Nanos>,
    css_rounds: u32,
    /// The first slow start is over (§4.3: only that one uses HyStart++).
    done: bool,
}

impl HystartPlusPlus {
    /// Is it in Conservative Slow Start?
    pub fn in_css(&self) -> bool {
        self.css_baseline_min_rtt.is_some()
    }

    /// The first slow start ended (a loss, an ECN-Echo or a timeout).
    pub fn finish(&mut self) {
        self.done = true;
        self.css_baseline_min_rtt = None;
    }

    pub fn on_ack(&mut self, ack: &SlowStartAck, rtt: Option<Nanos>) -> SlowStartStep {
        if self.done {
            return SlowStartStep::Standard;
        }
        if self.window_end.is_none_or(|end| ack.snd_una > end) {
            // §4.2: at the start of each round in slow start and CSS.
            if self.in_css() {
                self.css_rounds += 1;
                if self.css_rounds >= CSS_ROUNDS {
                    self.finish();
                    return SlowStartStep::Exit;
                }
            }
            self.last_round_min_rtt = self.current_round_min_rtt;
            self.current_round_min_rtt = None;
            self.rtt_sample_count = 0;
            self.window_end = Some(ack.snd_nxt);
        }
        if let Some(rtt) = rtt {
            self.current_round_min_rtt = Some(self.current_round_min_rtt.map_or(rtt, |m| m.min(rtt)));
            self.rtt_sample_count += 1;
        }
        self.delay_rules();
        if self.in_css() {
            SlowStartStep::Conservative(CSS_GROWTH_DIVISOR)
        } else {
            SlowStartStep::Standard
        }
    }

    /// §4.2: enter CSS on a delay increase, leave it when the RTT falls back.
    fn delay_rules(&mut self) {
        let (Some(current), true) = (self.current_round_min_rtt, self.rtt_sample_count >= N_RTT_SAMPLE) else {
            return;
        };
        match (self.css_baseline_min_rtt, self.last_round_min_rtt) {
            (None, Some(last)) => {
                let thresh = (last / MIN_RTT_DIVISOR).clamp(MIN_RTT_THRESH, MAX_RTT_THRESH);
                if current >= last + thresh {
                    self.css_baseline_min_rtt = Some(current);
                    self.css_rounds = 0;
                }
            }
            (Some(baseline), _) if current < baseline => self.css_baseline_min_rtt = None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;
    const MS: Nanos = NS_PER_MS;

    fn ack(now: Nanos, cwnd_segments: u64, snd_una: u64, snd_nxt: u64) -> SlowStartAck {
        SlowStartAck { now, cwnd: cwnd_segments * MSS, mss: MSS, snd_una, snd_nxt, paced: false }
    }

    /// ACKs `gap` apart from `from`, each acknowledging one more segment,
    /// with the window `cwnd` and samples `rtt`; the first that exits.
    fn train(h: &mut Hystart, from: Nanos, gap: Nanos, n: u64, cwnd: u64, rtt: Nanos, rtt_min: Nanos) -> Option<u64> {
        (0..n).find(|&i| {
            let a = ack(from + i * gap, cwnd, (i + 1) * MSS, 1_000 * MSS);
            h.on_ack(&a, Some(rtt), Some(rtt_min)) == SlowStartStep::Exit
        })
    }

    #[test]
    fn defaults_are_linux_and_ns3s() {
        let (l, n) = (HystartRules::LINUX, HystartRules::NS3);
        assert_eq!((l.low_window, l.ack_delta, l.min_samples), (16, 2 * MS, 8));
        assert_eq!((n.low_window, n.ack_delta, n.min_samples), (16, 2 * MS, 8));
        assert_eq!((l.delay_clamp, n.delay_clamp), ((4 * MS, 16 * MS), (4 * MS, 1000 * MS)));
        assert_eq!(SlowStartExit::default(), SlowStartExit::HystartLinux);
    }

    #[test]
    fn an_ack_train_longer_than_half_the_minimum_rtt_exits_in_linux() {
        // 1 ms apart, RTT_min 40 ms: the train passes 20 ms at its 22nd ACK
        // (the round starts at the first); the delay test cannot fire (RTT = RTT_min).
        let mut h = Hystart::new(HystartRules::LINUX);
        assert_eq!(train(&mut h, 0, MS, 100, 20, 40 * MS, 40 * MS), Some(21));
        assert!(h.found());
        // ns-3 waits for the whole minimum RTT.
        let mut h = Hystart::new(HystartRules::NS3);
        assert_eq!(train(&mut h, 0, MS, 100, 20, 40 * MS, 40 * MS), Some(41));
    }

    #[test]
    fn a_gap_wider_than_the_ack_delta_breaks_the_train() {
        // 3 ms apart: never a train, however long the round.
        let mut h = Hystart::new(HystartRules::LINUX);
        assert_eq!(train(&mut h, 0, 3 * MS, 100, 20, 40 * MS, 40 * MS), None);
    }

    #[test]
    fn a_paced_linux_sender_waits_for_the_minimum_rtt_plus_1_ms() {
        let mut h = Hystart::new(HystartRules::LINUX);
        let exit = (0..100).find(|&i| {
            let a = SlowStartAck { paced: true, ..ack(i * MS, 20, (i + 1) * MSS, 1_000 * MSS) };
            h.on_ack(&a, Some(40 * MS), Some(40 * MS)) == SlowStartStep::Exit
        });
        assert_eq!(exit, Some(42));
    }

    #[test]
    fn a_delay_rise_exits_after_eight_samples() {
        // 5 ms apart (no train). RTT_min 40 ms; Linux's threshold is
        // clamp(5 ms, 4, 16) = 5 ms: 46 ms exits at the 9th sample, 44 ms never.
        let mut h = Hystart::new(HystartRules::LINUX);
        assert_eq!(train(&mut h, 0, 5 * MS, 30, 20, 46 * MS, 40 * MS), Some(8));
        let mut h = Hystart::new(HystartRules::LINUX);
        assert_eq!(train(&mut h, 0, 5 * MS, 30, 20, 44 * MS, 40 * MS), None);
        // ns-3's threshold is the minimum RTT itself: 46 ms is not enough, 81 ms is.
        let mut h = Hystart::new(HystartRules::NS3);
        assert_eq!(train(&mut h, 0, 5 * MS, 30, 20, 46 * MS, 40 * MS), None);
        let mut h = Hystart::new(HystartRules::NS3);
        assert_eq!(train(&mut h, 0, 5 * MS, 30, 20, 81 * MS, 40 * MS), Some(8));
    }

    #[test]
    fn the_delay_test_takes_the_rounds_minimum_linux_of_every_sample_ns3_of_the_first_eight() {
        // Eight samples at 60 ms, then 41 ms: Linux's round minimum falls to
        // 41 ms, within 5 ms of 40, so no exit; had they stayed at 60 ms it would.
        let run = |rules: HystartRules, late: Nanos| {
            let mut h = Hystart::new(rules);
            (0..20u64).find(|&i| {
                let rtt = if i < 8 { 60 * MS } else { late };
                h.on_ack(&ack(i * 5 * MS, 20, (i + 1) * MSS, 1_000 * MSS), Some(rtt), Some(40 * MS))
                    == SlowStartStep::Exit
            })
        };
        assert_eq!(run(HystartRules::LINUX, 41 * MS), None);
        assert_eq!(run(HystartRules::LINUX, 60 * MS), Some(8));
        // ns-3 (25 ms minimum, threshold 25 ms): its round minimum is the first
        // eight's, 60 > 50, so it exits though the later samples are 26 ms.
        let mut h = Hystart::new(HystartRules::NS3);
        let exit = (0..20u64).find(|&i| {
            let rtt = if i < 8 { 60 * MS } else { 26 * MS };
            h.on_ack(&ack(i * 5 * MS, 20, (i + 1) * MSS, 1_000 * MSS), Some(rtt), Some(25 * MS)) == SlowStartStep::Exit
        });
        assert_eq!(exit, Some(8));
    }

    #[test]
    fn below_the_low_window_nothing_fires() {
        let mut h = Hystart::new(HystartRules::LINUX);
        assert_eq!(train(&mut h, 0, MS, 100, 15, 100 * MS, 40 * MS), None);
        assert!(!h.found());
        // At 16 segments the same ACKs exit.
        assert_eq!(train(&mut h, 200 * MS, MS, 100, 16, 100 * MS, 40 * MS), Some(8));
    }

    #[test]
    fn each_round_restarts_the_train_and_the_samples() {
        // Round one ends when an ACK passes byte 10 000. Eight samples in it,
        // then the new round needs eight of its own before the delay test.
        let mut h = Hystart::new(HystartRules::LINUX);
        for i in 0..8u64 {
            let a = ack(i * 5 * MS, 20, (i + 1) * MSS, 10 * MSS);
            assert_eq!(h.on_ack(&a, Some(40 * MS), Some(40 * MS)), SlowStartStep::Standard);
        }
        let fired = (0..16u64).find(|&i| {
            let a = ack(100 * MS + i * 5 * MS, 20, 11 * MSS + i * MSS, 40 * MSS);
            h.on_ack(&a, Some(60 * MS), Some(40 * MS)) == SlowStartStep::Exit
        });
        assert_eq!(fired, Some(8));
    }

    #[test]
    fn hystart_plus_plus_enters_css_on_a_delay_rise_and_leaves_after_five_rounds() {
        let mut h = HystartPlusPlus::default();
        // Round r covers bytes up to 20·(r + 1) segments; 20 ACKs per round.
        let round = |h: &mut HystartPlusPlus, r: u64, rtt: Nanos| -> Vec<SlowStartStep> {
            (0..20u64)
                .map(|i| {
                    let una = (20 * r + i + 1) * MSS;
                    h.on_ack(&ack(r * 100 * MS + i * MS, 20, una, (20 * r + 20) * MSS), Some(rtt))
                })
                .collect()
        };
        assert!(round(&mut h, 0, 40 * MS).iter().all(|s| *s == SlowStartStep::Standard));
        // 44 ms = 40 + clamp(5, 4, 16) − 1: no CSS. 45 ms: CSS from the 8th sample.
        assert!(round(&mut h, 1, 44 * MS).iter().all(|s| *s == SlowStartStep::Standard));
        let steps = round(&mut h, 2, 50 * MS);
        assert_eq!(steps.iter().position(|s| *s == SlowStartStep::Conservative(4)), Some(7));
        assert!(h.in_css());
        // Four more CSS rounds at the same delay; the fifth round's start exits.
        for r in 3..7 {
            assert!(round(&mut h, r, 50 * MS).iter().all(|s| *s == SlowStartStep::Conservative(4)), "round {r}");
        }
        assert_eq!(round(&mut h, 7, 50 * MS)[0], SlowStartStep::Exit);
        // §4.3: HyStart++ is over for the connection.
        assert!(round(&mut h, 8, 90 * MS).iter().all(|s| *s == SlowStartStep::Standard));
    }

    #[test]
    fn hystart_plus_plus_resumes_slow_start_when_the_rtt_falls_below_the_css_baseline() {
        let mut h = HystartPlusPlus::default();
        let round = |h: &mut HystartPlusPlus, r: u64, rtt: Nanos| -> SlowStartStep {
            (0..20u64)
                .map(|i| {
                    h.on_ack(&ack(r * 100 * MS + i * MS, 20, (20 * r + i + 1) * MSS, (20 * r + 20) * MSS), Some(rtt))
                })
                .last()
                .expect("20 ACKs")
        };
        round(&mut h, 0, 40 * MS);
        assert_eq!(round(&mut h, 1, 60 * MS), SlowStartStep::Conservative(4));
        // Baseline 60 ms; a round at 55 ms leaves CSS after its 8th sample.
        assert_eq!(round(&mut h, 2, 55 * MS), SlowStartStep::Standard);
        assert!(!h.in_css());
    }
}
