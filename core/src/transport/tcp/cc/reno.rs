//! Reno's congestion avoidance (RFC 5681 §3.1), shared by Reno and NewReno
//! (they differ in loss recovery, which the sender does).

use super::CongestionControl;
use crate::kernel::Nanos;

#[derive(Clone, Copy, Debug, Default)]
pub struct Reno;

impl CongestionControl for Reno {
    /// RFC 5681 §3.1, equation (4): ssthresh = max(FlightSize / 2, 2·SMSS).
    fn on_congestion(&mut self, _cwnd: u64, flight: u64, mss: u64) -> u64 {
        (flight / 2).max(2 * mss)
    }

    /// RFC 5681 §3.1, equation (3): cwnd += SMSS·SMSS/cwnd per new ACK, at
    /// least one byte (no ABC).
    fn on_ack_in_avoidance(&mut self, _now: Nanos, cwnd: u64, _acked: u64, _srtt: Option<Nanos>, mss: u64) -> u64 {
        cwnd + (mss * mss / cwnd).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_the_flight_but_keeps_two_segments() {
        assert_eq!(Reno.on_congestion(40_000, 30_000, 1000), 15_000);
        assert_eq!(Reno.on_congestion(40_000, 3000, 1000), 2000);
    }

    #[test]
    fn adds_mss_squared_over_cwnd_per_ack() {
        assert_eq!(Reno.on_ack_in_avoidance(0, 10_000, 1000, None, 1000), 10_100);
        // Past MSS² the integer step would be 0: at least one byte.
        assert_eq!(Reno.on_ack_in_avoidance(0, 2_000_000, 1000, None, 1000), 2_000_001);
    }
}
