//! Congestion control as small policies: how much a sender backs off at a
//! congestion event and how its window grows in congestion avoidance. Slow
//! start, loss detection and recovery stay in the sender, the same for all.

pub mod cubic;
pub mod reno;

pub use cubic::Cubic;
pub use reno::Reno;

use crate::kernel::Nanos;

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
}
