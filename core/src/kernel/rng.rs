//! Deterministic random numbers. Each component draws from its own stream,
//! derived from the scenario seed and a stream name, so adding a flow never
//! changes another flow's draws. The generator (xoshiro256**) and the
//! transcendental functions (`libm`, not the platform's) give bit-identical
//! sequences natively and in wasm32.

pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of the stream name, to mix a name into the seed.
fn hash_name(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

impl Rng {
    /// The stream called `name` (e.g. "flow/3/start", "queue/0") of `seed`.
    pub fn stream(seed: u64, name: &str) -> Rng {
        let mut st = seed ^ hash_name(name).rotate_left(17);
        let s = [splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st), splitmix64(&mut st)];
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let r = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        r
    }

    /// Uniform on [0, 1) with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on [lo, hi).
    pub fn uniform_in(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// Uniform integer in [0, n); n > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        // Lemire's multiply-shift; the tiny bias is irrelevant for simulation.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability p.
    pub fn chance(&mut self, p: f64) -> bool {
        self.uniform() < p
    }

    /// Exponential with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(1.0 - self.uniform())
    }

    /// Standard normal (Box-Muller; the second value is discarded to keep
    /// the stream stateless).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        libm::sqrt(-2.0 * libm::log(u1)) * libm::cos(2.0 * core::f64::consts::PI * u2)
    }

    /// Log-normal with geometric mean `gm` and geometric std-dev `gsd`.
    pub fn lognormal(&mut self, gm: f64, gsd: f64) -> f64 {
        gm * libm::exp(libm::log(gsd) * self.normal())
    }

    /// Pareto with the given mean and shape (> 1).
    pub fn pareto(&mut self, mean: f64, shape: f64) -> f64 {
        let scale = mean * (shape - 1.0) / shape;
        scale / libm::pow(1.0 - self.uniform(), 1.0 / shape)
    }

    /// Poisson with the given mean: Knuth's product of uniforms below 30,
    /// the normal approximation (rounded, at least 0) above, where its
    /// relative error in the mean and variance is under 1%.
    pub fn poisson(&mut self, mean: f64) -> u64 {
        if mean.is_nan() || mean <= 0.0 {
            return 0;
        }
        if mean < 30.0 {
            let floor = libm::exp(-mean);
            let (mut k, mut product) = (0, self.uniform());
            while product > floor {
                k += 1;
                product *= self.uniform();
            }
            return k;
        }
        libm::round(mean + libm::sqrt(mean) * self.normal()).max(0.0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = Rng::stream(7, "flow/0");
                move |_| r.next_u64()
            })
            .collect();
        let mut again = Rng::stream(7, "flow/0");
        assert!(a.iter().all(|&x| x == again.next_u64()));
        let mut other = Rng::stream(7, "flow/1");
        assert_ne!(a[0], other.next_u64());
        let mut other_seed = Rng::stream(8, "flow/0");
        assert_ne!(a[0], other_seed.next_u64());
    }

    #[test]
    fn moments_match_the_distributions() {
        let mut r = Rng::stream(1, "moments");
        let n = 200_000;
        let mean = |f: &mut dyn FnMut() -> f64| (0..n).map(|_| f()).sum::<f64>() / n as f64;
        assert!((mean(&mut || r.uniform()) - 0.5).abs() < 0.005);
        assert!((mean(&mut || r.exponential(2.0)) - 2.0).abs() < 0.03);
        assert!((mean(&mut || r.normal())).abs() < 0.01);
        // Pareto with shape 2.5 has a finite variance, so its sample mean converges.
        assert!((mean(&mut || r.pareto(30_000.0, 2.5)) / 30_000.0 - 1.0).abs() < 0.03);
        // Log-normal mean is gm * exp(ln(gsd)^2 / 2).
        let expect = 1.0 * (2f64.ln().powi(2) / 2.0).exp();
        assert!((mean(&mut || r.lognormal(1.0, 2.0)) / expect - 1.0).abs() < 0.02);
        for m in [0.5, 7.0, 1e4] {
            let draws: Vec<f64> = (0..n).map(|_| r.poisson(m) as f64).collect();
            let mean = draws.iter().sum::<f64>() / n as f64;
            let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            assert!((mean / m - 1.0).abs() < 0.01 && (var / m - 1.0).abs() < 0.03, "{m}: {mean} {var}");
        }
        assert_eq!(r.poisson(0.0), 0);
        let below: Vec<u64> = (0..10_000).map(|_| r.below(3)).collect();
        assert!(below.iter().all(|&x| x < 3));
    }
}
