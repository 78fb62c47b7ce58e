//! The exponential rate estimator of CSFQ (Stoica et al. 1998, §2.3), which
//! BARE (Cho & Cho 2002 §3.1) and RQRD (Karam & Tobagi 2000 §II) reuse:
//!
//!   r_new = (1 − e^{−T/K})·l/T + e^{−T/K}·r_old
//!
//! with T the gap since the flow's previous packet and l this packet's
//! length. Weighting by e^{−T/K} instead of a constant makes the estimate
//! independent of packet sizes and arrival pattern, and converges to the
//! true rate within a few K.

use crate::kernel::Nanos;

#[derive(Clone, Copy, Debug)]
pub struct RateEstimator {
    /// Current estimate in bits per second.
    pub rate_bps: f64,
    last: Option<Nanos>,
}

impl Default for RateEstimator {
    fn default() -> Self {
        RateEstimator::new()
    }
}

impl RateEstimator {
    pub const fn new() -> RateEstimator {
        RateEstimator { rate_bps: 0.0, last: None }
    }

    /// Account a packet of `bytes` arriving at `now`, with averaging
    /// constant `k_ns`; returns the new estimate.
    pub fn update(&mut self, now: Nanos, bytes: u32, k_ns: Nanos) -> f64 {
        let bits = bytes as f64 * 8.0;
        match self.last {
            None => {
                // No gap to divide by yet: start from one packet per K.
                self.rate_bps = bits / (k_ns.max(1) as f64 / 1e9);
            }
            Some(prev) => {
                let t = now.saturating_sub(prev);
                if t == 0 {
                    // Simultaneous arrivals: fold the bits into the current
                    // window (the limit of the formula as T → 0 adds l/K).
                    self.rate_bps += bits / (k_ns.max(1) as f64 / 1e9);
                } else {
                    let w = libm::exp(-(t as f64) / k_ns.max(1) as f64);
                    self.rate_bps = (1.0 - w) * bits / (t as f64 / 1e9) + w * self.rate_bps;
                }
            }
        }
        self.last = Some(now);
        self.rate_bps
    }

    /// When the flow's previous packet arrived.
    pub fn last_arrival(&self) -> Option<Nanos> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rng, NS_PER_MS};

    #[test]
    fn converges_to_a_constant_rate() {
        // 1000-byte packets every 8 ms = 1 Mb/s.
        let mut e = RateEstimator::new();
        for i in 1..200 {
            e.update(i * 8 * NS_PER_MS, 1000, 100 * NS_PER_MS);
        }
        assert!((e.rate_bps / 1e6 - 1.0).abs() < 1e-6, "{}", e.rate_bps);
    }

    #[test]
    fn tracks_poisson_arrivals_without_bias() {
        // Poisson at 2 Mb/s with mixed sizes: the long-run mean of the
        // estimate is the true rate.
        let mut e = RateEstimator::new();
        let mut rng = Rng::stream(5, "est");
        let (mut t, mut sum, mut n) = (0u64, 0.0, 0);
        for i in 0..200_000 {
            let size = if i % 3 == 0 { 1500 } else { 500 };
            // mean size 833.3 B → mean gap 3.333 ms for 2 Mb/s.
            t += (rng.exponential(833.333 * 8.0 / 2e6) * 1e9) as u64;
            let r = e.update(t, size, 100 * NS_PER_MS);
            if i > 1000 {
                sum += r;
                n += 1;
            }
        }
        assert!((sum / n as f64 / 2e6 - 1.0).abs() < 0.03, "{}", sum / n as f64);
    }
}
