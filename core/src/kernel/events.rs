//! A priority queue of timed events. Ties are broken by a sequence number
//! given when an event is scheduled, so two runs that schedule the same
//! events in the same order pop them in the same order, on every platform.
//!
//! Events are meant to be small (a few words): the heap moves them on every
//! sift. Packets in flight do not ride in events; they wait in a link's
//! [`Pipe`](super::Pipe), which takes its sequence numbers from here.

use super::Nanos;

/// The order of events: time, then scheduling order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stamp {
    pub at: Nanos,
    pub seq: u64,
}

struct Entry<E> {
    stamp: Stamp,
    event: E,
}

pub struct EventQueue<E> {
    /// A binary min-heap by stamp: `heap[i]` is before both its children.
    heap: Vec<Entry<E>>,
    next_seq: u64,
    now: Nanos,
    /// The stamp of the event popped last: the one being handled.
    current: Stamp,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: Vec::new(), next_seq: 0, now: 0, current: Stamp { at: 0, seq: 0 }, popped: 0 }
    }

    pub fn now(&self) -> Nanos {
        self.now
    }

    /// The stamp of the event being handled (the last one popped). A stamp
    /// taken but never scheduled is before it exactly when its event would
    /// have run already.
    pub fn current(&self) -> Stamp {
        self.current
    }

    /// Events handled so far (for the `perf` block).
    pub fn popped(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The stamp an event scheduled now at `at` would get; times in the past
    /// run now. Each call takes the next sequence number.
    pub fn stamp(&mut self, at: Nanos) -> Stamp {
        let stamp = Stamp { at: at.max(self.now), seq: self.next_seq };
        self.next_seq += 1;
        stamp
    }

    /// Schedule `event` at absolute time `at`; times in the past run now.
    pub fn schedule(&mut self, at: Nanos, event: E) {
        let stamp = self.stamp(at);
        self.push(Entry { stamp, event });
    }

    /// Schedule `event` with a stamp taken earlier from [`Self::stamp`], so
    /// it keeps its place among events scheduled since.
    pub fn schedule_stamped(&mut self, stamp: Stamp, event: E) {
        debug_assert!(stamp.seq < self.next_seq && stamp.at >= self.now);
        self.push(Entry { stamp, event });
    }

    pub fn peek_time(&self) -> Option<Nanos> {
        self.heap.first().map(|e| e.stamp.at)
    }

    /// Pop the next event if it is due at or before `until`, advancing `now`.
    pub fn pop_until(&mut self, until: Nanos) -> Option<(Nanos, E)> {
        if self.heap.first()?.stamp.at > until {
            return None;
        }
        let Entry { stamp, event } = self.pop_first()?;
        self.now = stamp.at;
        self.current = stamp;
        self.popped += 1;
        Some((stamp.at, event))
    }

    fn push(&mut self, entry: Entry<E>) {
        let mut i = self.heap.len();
        self.heap.push(entry);
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[parent].stamp <= self.heap[i].stamp {
                break;
            }
            self.heap.swap(parent, i);
            i = parent;
        }
    }

    /// Take the root; the last entry fills its place and sinks. (Written
    /// out rather than `std::collections::BinaryHeap`, whose pop swaps
    /// entries in a way that stalls on store forwarding: most of a step's
    /// cost here.)
    fn pop_first(&mut self) -> Option<Entry<E>> {
        let last = self.heap.pop()?;
        if self.heap.is_empty() {
            return Some(last);
        }
        let first = std::mem::replace(&mut self.heap[0], last);
        let n = self.heap.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.heap[right].stamp < self.heap[left].stamp { right } else { left };
            if self.heap[i].stamp <= self.heap[child].stamp {
                break;
            }
            self.heap.swap(i, child);
            i = child;
        }
        Some(first)
    }

    /// Move the clock forward to `t` when no event is left before it.
    pub fn advance_clock(&mut self, t: Nanos) {
        debug_assert!(self.peek_time().is_none_or(|p| p >= t));
        self.now = self.now.max(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(20, "c");
        q.schedule(10, "a");
        q.schedule(10, "b");
        q.schedule(5, "first");
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(u64::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, ["first", "a", "b", "c"]);
        assert_eq!(q.now(), 20);
        assert_eq!(q.popped(), 4);
    }

    #[test]
    fn pop_until_respects_the_horizon() {
        let mut q = EventQueue::new();
        q.schedule(100, ());
        assert!(q.pop_until(99).is_none());
        assert_eq!(q.now(), 0);
        assert!(q.pop_until(100).is_some());
    }

    #[test]
    fn past_events_run_now() {
        let mut q = EventQueue::new();
        q.schedule(50, 1);
        q.pop_until(50);
        q.schedule(10, 2);
        assert_eq!(q.pop_until(u64::MAX), Some((50, 2)));
    }

    #[test]
    fn a_stamped_event_keeps_the_place_it_was_stamped_for() {
        let mut q = EventQueue::new();
        let early = q.stamp(10);
        q.schedule(10, "scheduled after the stamp");
        q.schedule_stamped(early, "stamped first");
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(u64::MAX).map(|(_, e)| e)).collect();
        assert_eq!(order, ["stamped first", "scheduled after the stamp"]);
    }
}
