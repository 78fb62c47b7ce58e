//! A log-linear histogram of durations (like HdrHistogram): 64 sub-buckets
//! per power of two, so any quantile is within 1/64 (1.6%) of the truth in
//! constant memory.

const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;

#[derive(Clone, Debug, Default)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    sum: f64,
}

fn bucket_of(v: u64) -> usize {
    if v < SUB {
        return v as usize;
    }
    let exp = 63 - v.leading_zeros() - SUB_BITS + 1;
    let sub = (v >> (exp - 1)) & (SUB - 1);
    (exp as u64 * SUB + sub) as usize
}

/// The smallest value in bucket `b`.
fn lower_bound(b: usize) -> u64 {
    let (exp, sub) = (b as u64 / SUB, b as u64 % SUB);
    if exp == 0 {
        sub
    } else {
        (SUB + sub) << (exp - 1)
    }
}

impl Histogram {
    pub fn record(&mut self, v: u64) {
        let b = bucket_of(v);
        if b >= self.counts.len() {
            self.counts.resize(b + 1, 0);
        }
        self.counts[b] += 1;
        self.total += 1;
        self.sum += v as f64;
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.sum / self.total as f64
        }
    }

    /// The value below which a fraction `q` of the samples lie (bucket midpoint).
    pub fn quantile(&self, q: f64) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let rank = (q.clamp(0.0, 1.0) * self.total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (b, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let lo = lower_bound(b) as f64;
                let hi = lower_bound(b + 1) as f64;
                return (lo + hi - 1.0) / 2.0;
            }
        }
        lower_bound(self.counts.len()) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous_and_ordered() {
        for b in 0..2000 {
            assert_eq!(bucket_of(lower_bound(b)), b);
            assert_eq!(bucket_of(lower_bound(b + 1) - 1), b);
        }
    }

    #[test]
    fn quantiles_are_within_resolution() {
        let mut h = Histogram::default();
        for v in 1..=100_000u64 {
            h.record(v * 1000);
        }
        for (q, exact) in [(0.5, 50_000_000.0), (0.99, 99_000_000.0), (1.0, 100_000_000.0)] {
            let got = h.quantile(q);
            assert!((got / exact - 1.0).abs() < 1.0 / 64.0, "q{q}: {got} vs {exact}");
        }
        assert!((h.mean() - 50_000_500.0).abs() < 1.0);
    }
}
