//! A log-linear histogram of durations (like HdrHistogram): values below 64
//! have a bucket each; above, every power of two [2^e, 2^(e+1)) is cut into
//! 64 equal buckets, so a bucket spans at most 1/64 (1.6%) of its lower edge
//! and a quantile read at the bucket's midpoint is within 1/128 of the truth.
//! A u64 needs at most [`MAX_BUCKETS`] (3776) counters, 30 KB, whatever the
//! number of samples; two histograms merge by adding their counters.

const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
/// Buckets of the largest u64: the bound on a histogram's counters.
pub const MAX_BUCKETS: usize = (64 - SUB_BITS as usize + 1) * SUB as usize;

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

/// The smallest value in bucket `b` (saturating past the last bucket).
fn lower_bound(b: usize) -> u64 {
    if b >= MAX_BUCKETS {
        return u64::MAX;
    }
    let (exp, sub) = (b as u64 / SUB, b as u64 % SUB);
    if exp == 0 {
        sub
    } else {
        (SUB + sub) << (exp - 1)
    }
}

/// The largest value in bucket `b`.
fn upper_edge(b: usize) -> u64 {
    if b + 1 >= MAX_BUCKETS {
        u64::MAX
    } else {
        lower_bound(b + 1) - 1
    }
}

/// The middle of bucket `b`, where a quantile is read.
fn midpoint(b: usize) -> f64 {
    (lower_bound(b) as f64 + lower_bound(b + 1) as f64 - 1.0) / 2.0
}

/// The bucket `v` falls in and its edges [lo, hi], for tests that allow one bin.
#[cfg(test)]
pub(crate) fn bin_edges(v: u64) -> (u64, u64) {
    let b = bucket_of(v);
    (lower_bound(b), upper_edge(b))
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

    /// Add `other`'s samples, as if they had been recorded here.
    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        self.total += other.total;
        self.sum += other.sum;
    }

    /// Counters held: at most [`MAX_BUCKETS`], however many samples.
    pub fn buckets(&self) -> usize {
        self.counts.len()
    }

    /// The empirical CDF at each occupied bucket: (the bucket's upper edge,
    /// the fraction of samples at or below it), in increasing order.
    pub fn cdf(&self) -> Vec<(u64, f64)> {
        let mut seen = 0;
        let mut points = Vec::new();
        for (b, &c) in self.counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            seen += c;
            points.push((upper_edge(b), seen as f64 / self.total as f64));
        }
        points
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
                return midpoint(b);
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

    #[test]
    fn the_last_bucket_holds_the_largest_value() {
        assert_eq!(bucket_of(u64::MAX), MAX_BUCKETS - 1);
        assert_eq!(bin_edges(u64::MAX), (lower_bound(MAX_BUCKETS - 1), u64::MAX));
    }

    #[test]
    fn size_does_not_grow_with_samples() {
        // Spread over 1 ns … 1 h: once the range is covered, more samples add no counter.
        let mut h = Histogram::default();
        let mut rng = crate::kernel::Rng::stream(7, "histogram");
        let hour = 3_600_000_000_000u64;
        let record = |h: &mut Histogram, rng: &mut crate::kernel::Rng, n: usize| {
            for _ in 0..n {
                h.record(libm::exp(rng.uniform_in(0.0, libm::log(hour as f64))) as u64);
            }
        };
        record(&mut h, &mut rng, 100_000);
        h.record(hour);
        let covered = h.buckets();
        record(&mut h, &mut rng, 1_000_000);
        assert_eq!(h.buckets(), covered);
        assert_eq!(h.count(), 1_100_001);
        h.record(u64::MAX);
        assert_eq!(h.buckets(), MAX_BUCKETS);
    }

    #[test]
    fn merging_equals_recording_everything_in_one() {
        let (mut a, mut b, mut both) = (Histogram::default(), Histogram::default(), Histogram::default());
        for v in 0..5_000u64 {
            let x = v * v * 37;
            if v % 3 == 0 {
                a.record(x)
            } else {
                b.record(x)
            }
            both.record(x);
        }
        a.merge(&b);
        assert_eq!((a.counts.clone(), a.total, a.sum), (both.counts.clone(), both.total, both.sum));
        assert_eq!(a.cdf(), both.cdf());
    }

    #[test]
    fn the_cdf_rises_to_one_through_each_occupied_bucket() {
        let mut h = Histogram::default();
        for v in [5u64, 5, 1000, 1_000_000] {
            h.record(v);
        }
        let cdf = h.cdf();
        assert_eq!(cdf.len(), 3);
        assert_eq!(cdf[0], (5, 0.5));
        assert_eq!(cdf[1].1, 0.75);
        assert!(cdf[1].0 >= 1000 && cdf[1].0 < 1000 + 1000 / 64);
        assert_eq!(cdf[2].1, 1.0);
    }
}
