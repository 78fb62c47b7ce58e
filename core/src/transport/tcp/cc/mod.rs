//! Congestion control as small policies: how much a sender backs off at a
//! congestion event and how its window grows in congestion avoidance. Slow
//! start, loss detection and recovery stay in the sender, the same for all.
//! BBR ([`bbr`]) is no such policy: it sets cwnd and the pacing rate itself
//! on every ACK, and the sender calls it directly.

pub mod bbr;
pub mod cubic;
pub mod dctcp;
pub mod hystart;
pub mod prague;
pub mod reno;

pub use cubic::Cubic;
pub use dctcp::Dctcp;
pub use prague::Prague;
pub use reno::Reno;

use crate::kernel::Nanos;

/// A new ACK in slow start, as a policy's slow-start rule sees it (after
/// the ACK's RTT sample): the sender's clock, window (bytes) and sequence
/// numbers after the ACK, `snd_nxt` the highest byte sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowStartAck {
    pub now: Nanos,
    pub cwnd: u64,
    pub mss: u64,
    pub snd_una: u64,
    pub snd_nxt: u64,
    pub paced: bool,
}

/// What slow start does with an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlowStartStep {
    /// RFC 5681: cwnd += min(acked, MSS).
    Standard,
    /// RFC 9406's Conservative Slow Start: that growth divided by this.
    Conservative(u64),
    /// Slow start ends here: ssthresh = cwnd (HyStart).
    Exit,
}

/// What the sender tells a policy, and what it gets back. Windows are in
/// bytes; `mss` is the sender's full segment size.
pub trait CongestionControl {
    /// A congestion event (a loss detected by duplicate ACKs or a timeout,
    /// or an ECN-Echo): `cwnd` is the window in force before it, `flight`
    /// the bytes outstanding. Returns the new ssthresh.
    fn on_congestion(&mut self, cwnd: u64, flight: u64, mss: u64) -> u64;

    /// A new ACK of `acked` bytes while in congestion avoidance. Returns the
    /// new cwnd; `srtt` is the sender's smoothed RTT, if it has one.
    fn on_ack_in_avoidance(&mut self, now: Nanos, cwnd: u64, acked: u64, srtt: Option<Nanos>, mss: u64) -> u64;

    /// An ECN congestion signal (at most one per window): the new
    /// ssthresh. A classic sender answers it as a loss (RFC 3168 §6.1.2).
    fn on_ecn(&mut self, cwnd: u64, flight: u64, mss: u64) -> u64 {
        self.on_congestion(cwnd, flight, mss)
    }

    /// Every ACK's feedback: `acked` bytes newly acknowledged, `marked`
    /// bytes reported CE-marked, and SND.UNA and SND.NXT after it. Only a
    /// policy that measures the extent of marking (DCTCP, Prague) uses it.
    fn on_ack_feedback(&mut self, _snd_una: u64, _snd_nxt: u64, _acked: u64, _marked: u64) {}

    /// Each round-trip time the sender measures (RFC 6298's samples). Only
    /// a policy that keeps its own RTT statistics (CUBIC's minimum) uses it.
    fn on_rtt_sample(&mut self, _rtt: Nanos) {}

    /// Every ACK, before the other calls: the sender's clock, SRTT and
    /// whether it is in slow start. Only a policy whose rules run on time
    /// (Prague's RTT independence) uses it.
    fn on_ack_clock(&mut self, _now: Nanos, _srtt: Option<Nanos>, _slow_start: bool) {}

    /// A new ACK in slow start: the policy's slow-start rule (CUBIC's
    /// HyStart or HyStart++); standard slow start for the others.
    fn on_slow_start_ack(&mut self, _ack: &SlowStartAck) -> SlowStartStep {
        SlowStartStep::Standard
    }

    /// A retransmission timeout (after `on_congestion`, if the sender
    /// asked for a new ssthresh): CUBIC forgets its minimum RTT and re-arms HyStart.
    fn on_timeout(&mut self) {}

    /// Does an ACK reporting CE marks still grow the window by its unmarked
    /// bytes? Not for a classic sender (RFC 3168 §6.1.2); Prague's does.
    fn grows_past_marks(&self) -> bool {
        false
    }

    /// May an ECN reduction happen now, the sender's once-per-window rule
    /// allowing? Prague spaces them a virtual RTT apart.
    fn ecn_reduction_due(&self) -> bool {
        true
    }

    /// The pacing rate out of slow start, in percent of cwnd/SRTT (Linux's
    /// `tcp_pacing_ca_ratio`, 120).
    fn pacing_avoidance_percent(&self) -> u64 {
        120
    }
}
