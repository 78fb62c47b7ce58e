//! Mean, standard deviation and the 95 % Student-t confidence interval of a
//! claim's metric over seeds. The t quantile is computed (density integrated
//! by Simpson's rule, inverted by bisection) rather than tabled, so any
//! number of seeds has its interval.

use serde::Serialize;

/// A metric over seeds 1…n.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Interval {
    pub seeds: usize,
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator).
    pub std_dev: f64,
    /// mean ± t(0.975, n − 1) · std_dev / √n.
    pub ci95: [f64; 2],
}

/// The interval of `xs` (at least one value; one value gives a point).
pub fn interval(xs: &[f64]) -> Interval {
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n.max(1) as f64;
    if n < 2 {
        return Interval { seeds: n, mean, std_dev: 0.0, ci95: [mean, mean] };
    }
    let variance = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let std_dev = variance.sqrt();
    let half = t_quantile(0.975, (n - 1) as f64) * std_dev / (n as f64).sqrt();
    Interval { seeds: n, mean, std_dev, ci95: [mean - half, mean + half] }
}

/// Student's t density with `df` degrees of freedom.
fn t_density(t: f64, df: f64) -> f64 {
    let log_norm = libm::lgamma((df + 1.0) / 2.0) - libm::lgamma(df / 2.0) - 0.5 * libm::log(df * std::f64::consts::PI);
    libm::exp(log_norm - (df + 1.0) / 2.0 * libm::log1p(t * t / df))
}

/// P(T ≤ t) for t ≥ 0: one half plus the density integrated over [0, t].
fn t_cdf(t: f64, df: f64) -> f64 {
    const STEPS: usize = 2000;
    let h = t / STEPS as f64;
    let inner: f64 = (1..STEPS).map(|i| t_density(i as f64 * h, df) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
    0.5 + h / 3.0 * (t_density(0.0, df) + inner + t_density(t, df))
}

/// The `p`-quantile (p in (0.5, 1)) of Student's t with `df` degrees of freedom.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    // The 0.9995 quantile of t with one degree of freedom is 636.6: the bracket holds every p used here.
    let (mut lo, mut hi) = (0.0, 1000.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t_quantile_matches_the_published_table() {
        // Two-sided 95 % critical values (e.g. NIST/SEMATECH e-Handbook, Table 1.3.6.7.2).
        for (df, t) in [(1.0, 12.706), (2.0, 4.303), (4.0, 2.776), (9.0, 2.262), (19.0, 2.093), (29.0, 2.045)] {
            assert!((t_quantile(0.975, df) - t).abs() < 1e-3, "df {df}: {}", t_quantile(0.975, df));
        }
        assert!((t_quantile(0.95, 10.0) - 1.812).abs() < 1e-3);
        // Many degrees of freedom approach the normal quantile.
        assert!((t_quantile(0.975, 1e6) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn the_interval_is_the_mean_plus_or_minus_t_times_the_standard_error() {
        let i = interval(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((i.seeds, i.mean), (5, 3.0));
        assert!((i.std_dev - 2.5f64.sqrt()).abs() < 1e-12);
        let half = 2.776 * 2.5f64.sqrt() / 5f64.sqrt();
        assert!((i.ci95[0] - (3.0 - half)).abs() < 1e-3 && (i.ci95[1] - (3.0 + half)).abs() < 1e-3);
        assert_eq!(interval(&[7.0, 7.0, 7.0]).ci95, [7.0, 7.0]);
    }
}
