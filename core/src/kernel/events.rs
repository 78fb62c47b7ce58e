//! A priority queue of timed events. Ties are broken by insertion order, so
//! two runs that schedule the same events in the same order pop them in the
//! same order, on every platform.
//!
//! Events (which carry whole packets) stay put in a slab; the heap orders
//! small keys that point into it. Sifting a 24-byte key instead of a
//! 130-byte event is most of what a simulation step costs.

use super::Nanos;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    at: Nanos,
    seq: u64,
    slot: u32,
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    // BinaryHeap is a max-heap: reverse so the earliest (then first-inserted) wins.
    // `seq` is unique, so `slot` never decides.
    fn cmp(&self, other: &Self) -> Ordering {
        other.at.cmp(&self.at).then_with(|| other.seq.cmp(&self.seq))
    }
}

pub struct EventQueue<E> {
    heap: BinaryHeap<Key>,
    /// Pending events by slot; `None` marks a free slot.
    slots: Vec<Option<E>>,
    free: Vec<u32>,
    next_seq: u64,
    now: Nanos,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::new(), slots: Vec::new(), free: Vec::new(), next_seq: 0, now: 0, popped: 0 }
    }

    pub fn now(&self) -> Nanos {
        self.now
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

    /// Schedule `event` at absolute time `at`; times in the past run now.
    pub fn schedule(&mut self, at: Nanos, event: E) {
        let at = at.max(self.now);
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slots.push(Some(event));
                u32::try_from(self.slots.len() - 1).expect("fewer than 2³² pending events")
            }
        };
        self.heap.push(Key { at, seq: self.next_seq, slot });
        self.next_seq += 1;
    }

    /// Pending events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.slots.iter().flatten()
    }

    pub fn peek_time(&self) -> Option<Nanos> {
        self.heap.peek().map(|k| k.at)
    }

    /// Pop the next event if it is due at or before `until`, advancing `now`.
    pub fn pop_until(&mut self, until: Nanos) -> Option<(Nanos, E)> {
        if self.heap.peek()?.at > until {
            return None;
        }
        let key = self.heap.pop()?;
        let event = self.slots[key.slot as usize].take()?;
        self.free.push(key.slot);
        self.now = key.at;
        self.popped += 1;
        Some((key.at, event))
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
    fn slots_are_reused_and_order_survives_interleaving() {
        let mut q = EventQueue::new();
        let mut popped = Vec::new();
        for round in 0..50u64 {
            for k in 0..4u64 {
                q.schedule(round * 10 + (k * 7) % 5, (round, k));
            }
            popped.extend(std::iter::from_fn(|| q.pop_until(round * 10 + 2)));
        }
        popped.extend(std::iter::from_fn(|| q.pop_until(u64::MAX)));
        assert_eq!(popped.len(), 200);
        assert!(popped.windows(2).all(|w| w[0].0 <= w[1].0), "times never go back");
        assert!(q.slots.len() <= 8, "a drained queue reuses its slots: {}", q.slots.len());
        assert_eq!(q.iter().count(), 0);
    }
}
