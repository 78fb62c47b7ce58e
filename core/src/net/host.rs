//! The sender's side of its access link: the host's NIC queue and the
//! access link's jitter.
//!
//! **Host queue.** A host cannot put packets on its link faster than the link
//! serialises them; what it cannot send waits in the NIC queue (Linux's
//! `txqueuelen`, ns-3's 100-packet pfifo), and a full queue drops at the host.
//! [`HostQueue`] keeps the serialisation schedule of a FIFO of `limit`
//! packets at `rate_bps`: each admitted packet starts when the link is free
//! and the previous one is done, `start_i = max(now, end_{i-1})`. A packet
//! is waiting while its start lies in the future; an arrival that finds
//! `limit` packets waiting is a host drop. For a forward flow this is the same
//! schedule its access port runs (the port carries that flow's data and
//! nothing else), so the queue says exactly what that port's Drop Tail of
//! `limit` packets would say; it also tells a source when room opens, so a
//! source faster than its link skips ahead instead of making packets that
//! could only be dropped: the work stays bounded by the link's rate.
//!
//! **Jitter.** [`AccessJitter`] adds a uniform [0, J] delay to each packet
//! after serialisation and propagation, but never lets a packet overtake the
//! one before it: arrival = max(previous arrival, end of serialisation +
//! delay + U(0, J)). A link is a FIFO, and the variation being modelled
//! (scheduling and interrupt delays at the sender) delays a packet without
//! reordering the stream; holding the link instead (jittering the start of
//! serialisation) would lower its capacity. Jitter of 0 draws nothing, so
//! such runs are bit-identical to runs without it.

use crate::kernel::{tx_time_ns, Nanos, Rng};
use std::collections::VecDeque;

/// The addressing plan (docs/model.md, "Captures"): host `h` of flow group
/// `g` sends from 10.g.(h / 250).(h % 250 + 1). A flow's host number is its
/// index in its group, or 0 for every flow of a `one_host` group. Groups
/// past 255 and hosts past 31 999 wrap onto others' addresses.
pub fn sender_addr(group: usize, host: u32) -> [u8; 4] {
    [10, group as u8, (host / 250) as u8, (host % 250 + 1) as u8]
}

/// Where host `h` of group `g` receives: 10.g.(128 + h / 250).(h % 250 + 1).
pub fn receiver_addr(group: usize, host: u32) -> [u8; 4] {
    [10, group as u8, (128 + host / 250) as u8, (host % 250 + 1) as u8]
}

/// What a source may send now (see [`HostQueue::room`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostRoom {
    /// Packets the queue accepts right now.
    pub free_packets: u64,
    /// When a packet is next accepted: now when `free_packets > 0`, else
    /// when the first waiting packet starts its serialisation.
    pub next_at: Nanos,
}

impl HostRoom {
    /// No bound: what agents see outside a simulation (unit tests).
    pub const UNBOUNDED: HostRoom = HostRoom { free_packets: u64::MAX, next_at: 0 };
}

pub struct HostQueue {
    limit: usize,
    rate_bps: u64,
    /// Serialisation start of each admitted packet, oldest first; those at
    /// or before `now` have left the queue and are removed lazily.
    starts: VecDeque<Nanos>,
    /// When the link finishes the last admitted packet.
    free_at: Nanos,
    /// The last admitted packet's start: once it has passed, nothing waits
    /// and `starts` need not be read (its buffer is rarely in cache).
    last_start: Nanos,
}

impl HostQueue {
    pub fn new(limit_packets: u32, rate_bps: u64) -> HostQueue {
        HostQueue { limit: limit_packets.max(1) as usize, rate_bps, starts: VecDeque::new(), free_at: 0, last_start: 0 }
    }

    /// Packets waiting at `now` (not yet being serialised).
    fn waiting(&mut self, now: Nanos) -> usize {
        if self.last_start <= now {
            self.starts.clear();
            return 0;
        }
        while self.starts.front().is_some_and(|&s| s <= now) {
            self.starts.pop_front();
        }
        self.starts.len()
    }

    pub fn room(&mut self, now: Nanos) -> HostRoom {
        let waiting = self.waiting(now);
        if waiting < self.limit {
            HostRoom { free_packets: (self.limit - waiting) as u64, next_at: now }
        } else {
            // Full: the oldest waiting packet leaves the queue when it starts.
            HostRoom { free_packets: 0, next_at: self.starts.front().copied().unwrap_or(now) }
        }
    }

    /// Offer a packet of `bytes` at `now`: true if queued, false if the
    /// queue is full (a host drop).
    pub fn offer(&mut self, now: Nanos, bytes: u32) -> bool {
        if self.waiting(now) >= self.limit {
            return false;
        }
        let start = now.max(self.free_at);
        self.free_at = start + tx_time_ns(bytes, self.rate_bps);
        self.last_start = start;
        self.starts.push_back(start);
        true
    }
}

/// Uniform [0, J] extra delay per packet on one access link, in FIFO order.
pub struct AccessJitter {
    max_ns: Nanos,
    rng: Rng,
    last_arrival: Nanos,
}

impl AccessJitter {
    /// None for J = 0: nothing is drawn and arrivals are untouched.
    pub fn new(max_ns: Nanos, rng: Rng) -> Option<AccessJitter> {
        (max_ns > 0).then_some(AccessJitter { max_ns, rng, last_arrival: 0 })
    }

    /// The arrival time of a packet that would arrive at `unjittered`.
    pub fn arrival(&mut self, unjittered: Nanos) -> Nanos {
        let extra = (self.rng.uniform() * (self.max_ns + 1) as f64) as Nanos;
        self.last_arrival = self.last_arrival.max(unjittered + extra.min(self.max_ns));
        self.last_arrival
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_queue_admits_at_most_its_limit_beyond_the_packet_on_the_wire() {
        // 1000-byte packets at 1 Mb/s take 8 ms each; limit 3.
        let mut q = HostQueue::new(3, 1_000_000);
        let admitted = (0..10).filter(|_| q.offer(0, 1000)).count();
        // One starts at once (on the wire), three wait.
        assert_eq!(admitted, 4);
        assert_eq!(q.room(0), HostRoom { free_packets: 0, next_at: 8_000_000 });
        // When the first waiting packet starts, one slot frees.
        assert_eq!(q.room(8_000_000), HostRoom { free_packets: 1, next_at: 8_000_000 });
        assert!(q.offer(8_000_000, 1000) && !q.offer(8_000_000, 1000));
        // Long after, the queue is empty.
        assert_eq!(q.room(1_000_000_000).free_packets, 3);
    }

    #[test]
    fn a_source_at_twice_the_link_rate_loses_half_its_packets_at_the_host() {
        // Offered: one packet per 4 ms for 10 s into an 8 ms link: the link
        // carries 1250 of 2500 and the queue ends full.
        let mut q = HostQueue::new(50, 1_000_000);
        let admitted = (0..2500u64).filter(|i| q.offer(i * 4_000_000, 1000)).count();
        assert_eq!(admitted, 1250 + 50);
    }

    #[test]
    fn jitter_stays_within_bounds_and_keeps_fifo_order() {
        let mut j = AccessJitter::new(1_000_000, Rng::stream(1, "jitter")).unwrap();
        let mut last = 0;
        let mut extra_sum = 0.0;
        let n = 20_000u64;
        for i in 0..n {
            // Packets 0.1 ms apart: jitter of 1 ms would reorder them.
            let t = i * 100_000;
            let a = j.arrival(t);
            assert!(a >= last && a >= t && a <= t + 1_000_000);
            extra_sum += (a - t) as f64;
            last = a;
        }
        // FIFO holds each packet at least as long as the one before, so the
        // mean extra delay exceeds J/2 (without reordering it would be J/2).
        let mean = extra_sum / n as f64;
        assert!(mean > 0.6e6 && mean < 1e6, "{mean}");
        // Widely spaced packets keep their own uniform draw: mean J/2.
        let mut j = AccessJitter::new(1_000_000, Rng::stream(1, "jitter")).unwrap();
        let mean = (0..n).map(|i| (j.arrival(i * 10_000_000) - i * 10_000_000) as f64).sum::<f64>() / n as f64;
        assert!((mean / 0.5e6 - 1.0).abs() < 0.02, "{mean}");
        assert!(AccessJitter::new(0, Rng::stream(1, "jitter")).is_none());
    }
}
