//! Simulated time is an integer count of nanoseconds (u64 covers 584 years),
//! so it never accumulates floating-point error.

pub type Nanos = u64;

pub const NS_PER_MS: Nanos = 1_000_000;
pub const NS_PER_S: Nanos = 1_000_000_000;

/// Milliseconds (possibly fractional, from a scenario) to nanoseconds, rounded.
pub fn ms(v: f64) -> Nanos {
    (v * NS_PER_MS as f64).round().max(0.0) as Nanos
}

/// Seconds (possibly fractional, from a scenario) to nanoseconds, rounded.
pub fn secs_f64(v: f64) -> Nanos {
    (v * NS_PER_S as f64).round().max(0.0) as Nanos
}

pub fn to_secs(t: Nanos) -> f64 {
    t as f64 / NS_PER_S as f64
}

/// Serialisation time of `bytes` on a link of `rate_bps`, rounded up to the
/// next nanosecond; exact integer arithmetic, identical on every platform.
pub fn tx_time_ns(bytes: u32, rate_bps: u64) -> Nanos {
    let rate = rate_bps.max(1);
    // Below 2³¹ bytes the product fits in 64 bits, whose division is many
    // times cheaper than 128-bit division; every packet takes this path.
    if bytes < 1 << 31 {
        return (bytes as u64 * 8 * NS_PER_S).div_ceil(rate);
    }
    (bytes as u128 * 8 * NS_PER_S as u128).div_ceil(rate as u128) as Nanos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialisation_time_is_exact() {
        // 1000 bytes at 1 Mb/s take exactly 8 ms.
        assert_eq!(tx_time_ns(1000, 1_000_000), 8 * NS_PER_MS);
        // 1500 bytes at 10 Gb/s: 1.2 us.
        assert_eq!(tx_time_ns(1500, 10_000_000_000), 1200);
        // Rounds up: 1 byte at 3 b/s is 2.666.. s.
        assert_eq!(tx_time_ns(1, 3), 2_666_666_667);
        // Both sides of the 64-bit path agree with the exact quotient.
        for bytes in [(1u32 << 31) - 1, 1 << 31, u32::MAX] {
            let exact = (bytes as u128 * 8_000_000_000).div_ceil(7) as Nanos;
            assert_eq!(tx_time_ns(bytes, 7), exact, "{bytes}");
        }
    }

    #[test]
    fn conversions_round() {
        assert_eq!(ms(1.5), 1_500_000);
        assert_eq!(secs_f64(0.1), 100_000_000);
        assert_eq!(to_secs(NS_PER_S / 4), 0.25);
    }
}
