//! DCTCP (RFC 8257): Reno's window growth and loss response, and a
//! reduction in proportion to the extent of CE marking.
//!
//! The sender keeps α, an estimate of the fraction of bytes marked, and
//! updates it once per window of data (§3.3):
//!
//! ```text
//! bytes_acked += acked;  bytes_marked += marked      (every ACK)
//! when SND.UNA > WindowEnd:
//!     F = bytes_marked / bytes_acked
//!     α ← (1 − g)·α + g·F,   g = 1/16
//!     WindowEnd = SND.NXT;  bytes_acked = bytes_marked = 0
//! ```
//!
//! At most once per window of marks (the sender's RFC 3168 §6.1.2 rule)
//! cwnd = ssthresh = cwnd·(1 − α/2) (§3.4). A loss halves the flight like
//! Reno (§3.5). α starts at 1, as Linux's `dctcp_alpha_on_init` and ns-3's
//! `DctcpAlphaOnInit` do, so the first marks halve the window like classic
//! ECN until α has learnt the path.

use super::{CongestionControl, Reno};
use crate::kernel::Nanos;

/// RFC 8257 §3.3: the EWMA gain g (§4.2 recommends 1/16).
pub const G: f64 = 1.0 / 16.0;

/// RFC 8257 §3.3's estimate α of the fraction of bytes marked, an EWMA
/// over windows of data; Prague keeps the same (draft-briscoe-iccrg-prague-
/// congestion-control-04 §2.3.2), only closing its windows on another gate.
#[derive(Clone, Debug)]
pub struct MarkedFraction {
    alpha: f64,
    /// SND.NXT when the current observation window began.
    window_end: u64,
    bytes_acked: u64,
    bytes_marked: u64,
}

impl Default for MarkedFraction {
    fn default() -> Self {
        MarkedFraction { alpha: 1.0, window_end: 0, bytes_acked: 0, bytes_marked: 0 }
    }
}

impl MarkedFraction {
    /// The current estimate of the fraction of bytes marked.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// §3.3 steps 1–2: count an ACK's bytes.
    pub fn count(&mut self, acked: u64, marked: u64) {
        self.bytes_acked += acked;
        self.bytes_marked += marked;
    }

    /// §3.3 step 3: has SND.UNA passed the end of the observation window?
    pub fn window_ended(&self, snd_una: u64) -> bool {
        snd_una > self.window_end
    }

    /// §3.3 steps 4–5: fold the window's marked fraction into α and open
    /// the next window, which ends at `snd_nxt`.
    pub fn close_window(&mut self, snd_nxt: u64) {
        // Marks reported on duplicate ACKs belong to bytes acknowledged later: F ≤ 1.
        let f = if self.bytes_acked == 0 { 1.0 } else { (self.bytes_marked as f64 / self.bytes_acked as f64).min(1.0) };
        self.alpha = (1.0 - G) * self.alpha + G * f;
        self.window_end = snd_nxt;
        self.bytes_acked = 0;
        self.bytes_marked = 0;
    }

    /// Open the next window without folding this one into α.
    pub fn skip_window(&mut self, snd_nxt: u64) {
        self.window_end = snd_nxt;
        self.bytes_acked = 0;
        self.bytes_marked = 0;
    }

    /// §3.4: the window after a reduction, cwnd·(1 − α/2), at least two
    /// segments as Linux's `dctcp_ssthresh`.
    pub fn reduced(&self, cwnd: u64, mss: u64) -> u64 {
        ((cwnd as f64 * (1.0 - self.alpha / 2.0)) as u64).max(2 * mss)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Dctcp {
    marked: MarkedFraction,
}

impl Dctcp {
    /// The current estimate of the fraction of bytes marked.
    pub fn alpha(&self) -> f64 {
        self.marked.alpha()
    }
}

impl CongestionControl for Dctcp {
    /// RFC 8257 §3.5: a loss is answered as by Reno (FlightSize/2).
    fn on_congestion(&mut self, cwnd: u64, flight: u64, mss: u64) -> u64 {
        Reno.on_congestion(cwnd, flight, mss)
    }

    /// RFC 8257 §3.4: cwnd·(1 − α/2), at least two segments as Linux's `dctcp_ssthresh`.
    fn on_ecn(&mut self, cwnd: u64, _flight: u64, mss: u64) -> u64 {
        self.marked.reduced(cwnd, mss)
    }

    fn on_ack_in_avoidance(&mut self, now: Nanos, cwnd: u64, acked: u64, srtt: Option<Nanos>, mss: u64) -> u64 {
        Reno.on_ack_in_avoidance(now, cwnd, acked, srtt, mss)
    }

    /// RFC 8257 §3.3 steps 1–5.
    fn on_ack_feedback(&mut self, snd_una: u64, snd_nxt: u64, acked: u64, marked: u64) {
        self.marked.count(acked, marked);
        if self.marked.window_ended(snd_una) {
            self.marked.close_window(snd_nxt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    /// A steady window of `w` segments, one ACK each: a first unmarked ACK
    /// closes the observation window that began at 0, then window j's `w`
    /// ACKs carry `marked[j]` CE-marked segments and the last one closes it
    /// (SND.NXT stays w − 1 segments ahead of SND.UNA).
    fn feed(d: &mut Dctcp, w: u64, marked: &[u64]) {
        d.on_ack_feedback(MSS, w * MSS, MSS, 0);
        for (j, &m) in marked.iter().enumerate() {
            for k in 1..=w {
                let una = MSS + (j as u64 * w + k) * MSS;
                d.on_ack_feedback(una, una + (w - 1) * MSS, MSS, if k <= m { MSS } else { 0 });
            }
        }
    }

    #[test]
    fn alpha_is_the_ewma_of_the_marked_fraction_per_window() {
        let w = 10;
        let marked = [0, 5, 10, 2, 0, 0, 3, 7, 1];
        let mut d = Dctcp::default();
        feed(&mut d, w, &marked);
        // Closed form: α_n = (1 − g)^n·α_0 + Σ_j g·(1 − g)^(n−j)·F_j, with
        // α_0 = 1 − g after the first window (F = 0) and F_j = marked/w.
        let n = marked.len() as i32;
        let expected = (1.0 - G).powi(n) * (1.0 - G)
            + (1..=n).map(|j| G * (1.0 - G).powi(n - j) * marked[j as usize - 1] as f64 / w as f64).sum::<f64>();
        assert!((d.alpha() - expected).abs() < 1e-12, "{} vs {expected}", d.alpha());
        // A steady fraction F is approached geometrically: α − F = (1 − g)^n·(α_0 − F).
        let mut d = Dctcp::default();
        feed(&mut d, w, &[3; 100]);
        let expected = 0.3 + (1.0 - G).powi(100) * (1.0 - G - 0.3);
        assert!((d.alpha() - expected).abs() < 1e-12, "{} vs {expected}", d.alpha());
        // Marks reported on duplicate ACKs (nothing newly acknowledged) count
        // towards the window that acknowledges their bytes, F capped at 1.
        let mut d = Dctcp::default();
        d.on_ack_feedback(0, 0, 0, 2 * MSS);
        d.on_ack_feedback(MSS, 2 * MSS, MSS, 0);
        assert_eq!(d.alpha(), 1.0);
    }

    #[test]
    fn ecn_reduction_scales_with_alpha_and_loss_halves() {
        let mut d = Dctcp::default();
        // α = 1: halve like classic ECN.
        assert_eq!(d.on_ecn(20_000, 20_000, MSS), 10_000);
        d.marked.alpha = 0.25;
        assert_eq!(d.on_ecn(20_000, 20_000, MSS), 17_500);
        d.marked.alpha = 0.0;
        assert_eq!(d.on_ecn(20_000, 20_000, MSS), 20_000);
        // Never below two segments.
        d.marked.alpha = 1.0;
        assert_eq!(d.on_ecn(3000, 3000, MSS), 2000);
        // RFC 8257 §3.5: a loss halves FlightSize whatever α.
        d.marked.alpha = 0.1;
        assert_eq!(d.on_congestion(20_000, 18_000, MSS), 9000);
    }
}
