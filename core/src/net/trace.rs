//! Links whose rate changes: a congested hop may follow a rate trace.
//!
//! Two models, as docs/model.md states:
//! - **Delivery opportunities** (mahimahi's `mm-link` format): the trace is a
//!   list of millisecond instants, repeated with the last entry as its period;
//!   each instant lets up to [`OPPORTUNITY_BYTES`] leave at once. A packet
//!   starts at an opportunity, takes its bytes from it and from as many
//!   following ones as it needs, and leaves at the instant of the last; the
//!   bytes it leaves over serve the next waiting packet at that same instant
//!   (so small packets share an opportunity, as in mahimahi), and an
//!   opportunity with nothing waiting is lost.
//! - **A piecewise-constant rate** (generated steps, outages, random walks):
//!   a packet is serialised at the rate in force, re-evaluated at each rate
//!   change, so a packet caught by an outage finishes after it; at rate 0 no
//!   packet starts, and the queue keeps what arrives.
//!
//! Both answer the same two questions, in non-decreasing time: when can the
//! link next start a packet (`ready`), and when does a packet started now
//! finish (`finish`).

use crate::kernel::{Nanos, Rng, NS_PER_MS, NS_PER_S};
use std::collections::VecDeque;

/// Bytes one delivery opportunity lets leave: one 1500-byte IP packet.
/// (mahimahi counts 1504, its TUN device's frame; our packets are IP packets.)
pub const OPPORTUNITY_BYTES: u64 = 1500;

/// A trace as the plan resolves it, for one hop.
#[derive(Clone, Debug, PartialEq)]
pub enum TracePlan {
    /// Opportunity instants in ms within one period, non-decreasing; the
    /// last is the period (> 0).
    Opportunities(Vec<u64>),
    /// `initial_bps` from 0, then each `(at, rate_bps)` from `at` on
    /// (increasing `at`; a rate may be 0, an outage).
    Steps { initial_bps: u64, steps: Vec<(Nanos, u64)> },
    /// From `start_bps`, every `step_ns` the rate is multiplied by
    /// exp(sigma·N(0,1)) and reflected into [min_bps, max_bps].
    RandomWalk { start_bps: u64, min_bps: u64, max_bps: u64, step_ns: Nanos, sigma: f64 },
}

impl TracePlan {
    /// The long-run mean rate over [0, until) (bits/s), for the work
    /// estimate and the utilisation of opportunity traces.
    pub fn mean_bps(&self, until: Nanos) -> f64 {
        match self {
            TracePlan::Opportunities(times) => {
                let period_ms = times.last().copied().unwrap_or(1).max(1);
                times.len() as f64 * OPPORTUNITY_BYTES as f64 * 8.0 * 1000.0 / period_ms as f64
            }
            TracePlan::Steps { initial_bps, steps } => {
                let until = until.max(1);
                let mut edges = vec![(0, *initial_bps)];
                edges.extend(steps.iter().copied().filter(|(at, _)| *at < until));
                let bits: f64 = edges
                    .iter()
                    .enumerate()
                    .map(|(i, &(at, rate))| {
                        let end = edges.get(i + 1).map_or(until, |e| e.0);
                        rate as f64 * end.saturating_sub(at) as f64
                    })
                    .sum();
                bits / until as f64
            }
            // The walk is symmetric in log-rate: its geometric midpoint.
            TracePlan::RandomWalk { min_bps, max_bps, .. } => (*min_bps as f64 * *max_bps as f64).sqrt(),
        }
    }
}

/// A hop's rate trace while the simulation runs.
pub enum LinkTrace {
    /// With the trace's mean rate, at which a packet's bytes count as busy
    /// time (an opportunity itself lasts no time).
    Opportunities(Opportunities, u64),
    Rate(RateSchedule),
}

impl LinkTrace {
    /// `rng` feeds a random walk (the hop's own named stream).
    pub fn new(plan: &TracePlan, rng: Rng) -> LinkTrace {
        match plan {
            TracePlan::Opportunities(times) => {
                LinkTrace::Opportunities(Opportunities::new(times), plan.mean_bps(0).round() as u64)
            }
            TracePlan::Steps { .. } | TracePlan::RandomWalk { .. } => {
                LinkTrace::Rate(RateSchedule::new(plan.clone(), rng))
            }
        }
    }

    /// The earliest time at or after `now` when the link can start a packet
    /// (None: never again).
    pub fn ready(&mut self, now: Nanos) -> Option<Nanos> {
        match self {
            LinkTrace::Opportunities(o, _) => Some(o.ready(now)),
            LinkTrace::Rate(r) => r.ready(now),
        }
    }

    /// When a packet of `bytes` started at `now` (a time `ready` returned)
    /// has left.
    pub fn finish(&mut self, now: Nanos, bytes: u32) -> Nanos {
        match self {
            LinkTrace::Opportunities(o, _) => o.finish(now, bytes),
            LinkTrace::Rate(r) => r.finish(now, bytes),
        }
    }

    /// How long a packet of `bytes` that took `tx` to leave kept the link
    /// busy, for utilisation: `tx` at a changing rate; its bytes at the mean
    /// rate for opportunities, so utilisation is the share of the trace's
    /// capacity used.
    pub fn busy_ns(&self, bytes: u32, tx: Nanos) -> Nanos {
        match self {
            LinkTrace::Opportunities(_, mean_bps) => crate::kernel::tx_time_ns(bytes, *mean_bps),
            LinkTrace::Rate(_) => tx,
        }
    }

    /// The capacity at `now` (bits/s): the rate in force, or for
    /// opportunities their bytes over the `window` ending at `now`.
    pub fn capacity_bps(&mut self, now: Nanos, window: Nanos) -> f64 {
        match self {
            LinkTrace::Opportunities(o, _) => o.capacity_bps(now, window),
            LinkTrace::Rate(r) => r.rate_at(now) as f64,
        }
    }
}

/// mahimahi's delivery opportunities, repeated with their period.
pub struct Opportunities {
    /// Instants within a period (ns), non-decreasing.
    times: Vec<Nanos>,
    period: Nanos,
    /// Index (over all periods) of the first opportunity not yet used.
    next: u64,
    /// Bytes left over at the instant of the last opportunity used.
    leftover: (Nanos, u64),
}

impl Opportunities {
    fn new(times_ms: &[u64]) -> Opportunities {
        let times: Vec<Nanos> = times_ms.iter().map(|t| t * NS_PER_MS).collect();
        let period = times.last().copied().unwrap_or(NS_PER_MS).max(1);
        Opportunities { times, period, next: 0, leftover: (0, 0) }
    }

    /// The instant of opportunity `i` (counted over all periods).
    fn time(&self, i: u64) -> Nanos {
        let n = self.times.len() as u64;
        (i / n) * self.period + self.times[(i % n) as usize]
    }

    /// How many opportunities fall strictly before `t`.
    fn count_before(&self, t: Nanos) -> u64 {
        let n = self.times.len() as u64;
        let (cycle, within) = (t / self.period, t % self.period);
        if within == 0 && cycle > 0 {
            // The previous period's entries at its very end fall on `t`.
            let at_end = self.times.iter().rev().take_while(|&&x| x == self.period).count() as u64;
            return cycle * n - at_end;
        }
        cycle * n + self.times.partition_point(|&x| x < within) as u64
    }

    fn ready(&mut self, now: Nanos) -> Nanos {
        if self.leftover.1 > 0 && self.leftover.0 == now {
            return now;
        }
        self.next = self.next.max(self.count_before(now));
        self.time(self.next)
    }

    fn finish(&mut self, now: Nanos, bytes: u32) -> Nanos {
        let mut have = if self.leftover.1 > 0 && self.leftover.0 == now {
            self.leftover.1
        } else {
            self.next += 1;
            OPPORTUNITY_BYTES
        };
        let bytes = bytes as u64;
        let mut end = now;
        if bytes > have {
            let more = (bytes - have).div_ceil(OPPORTUNITY_BYTES);
            self.next += more;
            end = self.time(self.next - 1);
            have += more * OPPORTUNITY_BYTES;
        }
        self.leftover = (end, have - bytes);
        end
    }

    fn capacity_bps(&self, now: Nanos, window: Nanos) -> f64 {
        let window = window.max(1);
        let upto = |t: Nanos| self.count_before(t + 1);
        let count = upto(now) - if now >= window { upto(now - window) } else { 0 };
        count as f64 * OPPORTUNITY_BYTES as f64 * 8.0 * NS_PER_S as f64 / window as f64
    }
}

/// A piecewise-constant rate, made as time goes (a random walk has no end),
/// keeping only the segments from the last time asked about on.
pub struct RateSchedule {
    plan: TracePlan,
    rng: Rng,
    /// `(start, rate_bps)`, increasing starts; each lasts until the next.
    segments: VecDeque<(Nanos, u64)>,
    /// Index into the plan's steps of the next to add.
    next_step: usize,
}

impl RateSchedule {
    fn new(plan: TracePlan, rng: Rng) -> RateSchedule {
        let first = match &plan {
            TracePlan::Steps { initial_bps, .. } => *initial_bps,
            TracePlan::RandomWalk { start_bps, min_bps, max_bps, .. } => (*start_bps).clamp(*min_bps, *max_bps),
            TracePlan::Opportunities(_) => 0,
        };
        RateSchedule { plan, rng, segments: VecDeque::from([(0, first)]), next_step: 0 }
    }

    /// Add the segment after the last; false when the rate never changes again.
    fn extend(&mut self) -> bool {
        let &(start, rate) = self.segments.back().expect("a schedule always has a segment");
        let next = match &self.plan {
            TracePlan::Steps { steps, .. } => {
                let step = steps.get(self.next_step).copied();
                self.next_step += 1;
                step
            }
            TracePlan::RandomWalk { min_bps, max_bps, step_ns, sigma, .. } => {
                let (lo, hi) = ((*min_bps as f64).ln(), (*max_bps as f64).ln());
                let mut x = (rate as f64).ln() + sigma * self.rng.normal();
                // Reflect at the bounds so the walk never sticks to one.
                if x > hi {
                    x = 2.0 * hi - x;
                }
                if x < lo {
                    x = 2.0 * lo - x;
                }
                let rate = libm::exp(x.clamp(lo, hi)).round() as u64;
                Some((start + step_ns, rate.clamp(*min_bps, *max_bps)))
            }
            TracePlan::Opportunities(_) => None,
        };
        match next {
            Some(segment) => {
                self.segments.push_back(segment);
                true
            }
            None => false,
        }
    }

    /// Drop the segments that ended before `now`; the front then holds `now`.
    fn forget_before(&mut self, now: Nanos) {
        loop {
            if self.segments.len() < 2 && !self.extend() {
                return;
            }
            if self.segments[1].0 > now {
                return;
            }
            self.segments.pop_front();
        }
    }

    fn rate_at(&mut self, now: Nanos) -> u64 {
        self.forget_before(now);
        self.segments[0].1
    }

    fn ready(&mut self, now: Nanos) -> Option<Nanos> {
        self.forget_before(now);
        let mut i = 0;
        loop {
            if self.segments[i].1 > 0 {
                return Some(self.segments[i].0.max(now));
            }
            if i + 1 == self.segments.len() && !self.extend() {
                return None;
            }
            i += 1;
        }
    }

    /// Integrate the rate from `now` until the packet's bits are sent. Work
    /// is counted in bit·ns per second so that a constant rate gives exactly
    /// [`crate::kernel::tx_time_ns`].
    fn finish(&mut self, now: Nanos, bytes: u32) -> Nanos {
        self.forget_before(now);
        let mut left = bytes as u128 * 8 * NS_PER_S as u128;
        let mut t = now;
        let mut i = 0;
        loop {
            let rate = self.segments[i].1 as u128;
            if i + 1 == self.segments.len() && !self.extend() {
                // The last rate lasts for ever (validation keeps it above 0).
                return t + left.div_ceil(rate.max(1)) as Nanos;
            }
            let end = self.segments[i + 1].0;
            let room = (end - t) as u128 * rate;
            if rate > 0 && left <= room {
                return t + left.div_ceil(rate) as Nanos;
            }
            left -= room;
            t = end;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{tx_time_ns, NS_PER_MS};

    fn opportunities(ms: &[u64]) -> Opportunities {
        Opportunities::new(ms)
    }

    #[test]
    fn opportunities_repeat_with_the_last_entry_as_period() {
        // Two opportunities per 10 ms period: at 3 and 10 ms, then 13 and 20, …
        let o = opportunities(&[3, 10]);
        let times: Vec<_> = (0..6).map(|i| o.time(i) / NS_PER_MS).collect();
        assert_eq!(times, [3, 10, 13, 20, 23, 30]);
        // count_before agrees with counting the instants one by one.
        let o = opportunities(&[0, 0, 4, 5, 5]);
        for t in (0..80).map(|k| k * NS_PER_MS / 2) {
            let brute = (0..100).filter(|&i| o.time(i) < t).count() as u64;
            assert_eq!(o.count_before(t), brute, "t = {t}");
        }
    }

    #[test]
    fn an_opportunity_serves_1500_bytes_shared_by_small_packets() {
        let mut o = opportunities(&[1, 2, 3, 4]);
        // A packet waiting at 0 starts at the first opportunity, 1 ms.
        assert_eq!(o.ready(0), NS_PER_MS);
        assert_eq!(o.finish(NS_PER_MS, 500), NS_PER_MS);
        // The 1000 bytes left serve a second 500 and a third 500 at 1 ms.
        assert_eq!(o.ready(NS_PER_MS), NS_PER_MS);
        assert_eq!(o.finish(NS_PER_MS, 500), NS_PER_MS);
        assert_eq!(o.finish(NS_PER_MS, 500), NS_PER_MS);
        // Nothing is left: the next packet waits for 2 ms.
        assert_eq!(o.ready(NS_PER_MS), 2 * NS_PER_MS);
        // A 4000-byte packet takes the opportunities at 2, 3 and 4 ms and
        // leaves at 4 ms, with 500 bytes over.
        assert_eq!(o.finish(2 * NS_PER_MS, 4000), 4 * NS_PER_MS);
        assert_eq!(o.leftover, (4 * NS_PER_MS, 500));
        // Opportunities pass unused while nothing waits: at 7.5 ms the next is 8 ms.
        assert_eq!(o.ready(7 * NS_PER_MS + NS_PER_MS / 2), 8 * NS_PER_MS);
    }

    #[test]
    fn opportunity_capacity_counts_the_window() {
        // One opportunity a millisecond: 12 Mb/s.
        let o = opportunities(&[1]);
        assert_eq!(o.capacity_bps(100 * NS_PER_MS, 10 * NS_PER_MS), 12e6);
    }

    #[test]
    fn a_constant_rate_serialises_as_a_fixed_link() {
        let plan = TracePlan::Steps { initial_bps: 10_000_000, steps: vec![] };
        let mut r = RateSchedule::new(plan, Rng::stream(1, "t"));
        for (now, bytes) in [(0, 1500), (1234, 40), (999_999_999, 1)] {
            assert_eq!(r.finish(now, bytes), now + tx_time_ns(bytes, 10_000_000));
        }
    }

    #[test]
    fn serialisation_is_re_evaluated_at_rate_changes_and_pauses_in_an_outage() {
        // 8 Mb/s (1 byte/µs), nothing from 1 ms to 3 ms, then 16 Mb/s.
        let plan =
            TracePlan::Steps { initial_bps: 8_000_000, steps: vec![(NS_PER_MS, 0), (3 * NS_PER_MS, 16_000_000)] };
        let mut r = RateSchedule::new(plan, Rng::stream(1, "t"));
        // 1500 bytes from 0.5 ms: 500 by 1 ms, a pause, 1000 at 2 bytes/µs: 3.5 ms.
        assert_eq!(r.finish(NS_PER_MS / 2, 1500), 3 * NS_PER_MS + NS_PER_MS / 2);
        // In the outage the link can start nothing before 3 ms.
        assert_eq!(r.ready(2 * NS_PER_MS), Some(3 * NS_PER_MS));
        assert_eq!(r.rate_at(4 * NS_PER_MS), 16_000_000);
    }

    #[test]
    fn a_random_walk_stays_in_its_bounds_and_moves() {
        let plan = TracePlan::RandomWalk {
            start_bps: 5_000_000,
            min_bps: 1_000_000,
            max_bps: 20_000_000,
            step_ns: NS_PER_MS,
            sigma: 0.5,
        };
        let mut r = RateSchedule::new(plan, Rng::stream(7, "trace/hop/0"));
        let rates: Vec<u64> = (0..2000).map(|i| r.rate_at(i * NS_PER_MS)).collect();
        assert!(rates.iter().all(|&x| (1_000_000..=20_000_000).contains(&x)));
        let distinct: std::collections::BTreeSet<_> = rates.iter().collect();
        assert!(distinct.len() > 1000, "{}", distinct.len());
        // Memory stays bounded: only the segments from now on are kept.
        assert!(r.segments.len() <= 2);
    }

    #[test]
    fn step_means_weight_each_rate_by_its_time() {
        let plan = TracePlan::Steps { initial_bps: 10, steps: vec![(NS_PER_S, 20), (3 * NS_PER_S, 0)] };
        assert_eq!(plan.mean_bps(4 * NS_PER_S), (10.0 + 2.0 * 20.0) / 4.0);
        assert_eq!(TracePlan::Opportunities(vec![1]).mean_bps(1), 12e6);
    }
}
