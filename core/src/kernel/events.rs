//! A priority queue of timed events. Ties are broken by a sequence number
//! given when an event is scheduled, so two runs that schedule the same
//! events in the same order pop them in the same order, on every platform.
//!
//! The queue is a hierarchical timing wheel (Varghese & Lauck 1987, scheme
//! 7) over integer nanoseconds: level `l` has 64 slots, each covering
//! 2^(6l) ns, and an event sits at the level of the highest bit in which its
//! time differs from the wheel's `base` (the time of the last event popped),
//! in the slot its time has there. So every event of a level comes before
//! every event of the levels above, and slot order is time order within a
//! level. Scheduling is a push onto a slot; when the events due at `base`
//! run out, the lowest occupied slot is emptied, `base` moves to its
//! earliest time, and its events fall to lower levels or become due, like
//! a radix heap. An event moves down at most once per level (11 for 64-bit
//! time), and each step is a sequential push rather than a binary heap's
//! log n scattered swaps, which with ten thousand links in flight cost more
//! than a quarter of a step. Events at one time always share a slot, and the ones
//! due now are kept in sequence order, so the order is exactly a heap's.
//!
//! Events are meant to be small (a few words): the wheel moves them when a
//! slot is emptied. Packets in flight do not ride in events; they wait in a
//! link's pipe ([`Pipes`](super::Pipes)), which takes its sequence numbers from here.

use super::Nanos;
use std::collections::VecDeque;
use std::num::NonZeroU64;

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

/// Bits of time per level, and so 64 slots a level (one occupancy word).
const LEVEL_BITS: u32 = 6;
const SLOTS: usize = 1 << LEVEL_BITS;
/// Enough levels for every bit of a 64-bit time.
const LEVELS: usize = (Nanos::BITS as usize).div_ceil(LEVEL_BITS as usize);

pub struct EventQueue<E> {
    /// Events at `base`, in sequence order.
    due: VecDeque<Entry<E>>,
    /// `slots[level][slot]`: events later than `base`. Arrays, so that
    /// indices the compiler can bound need no checks.
    slots: Box<[[Vec<Entry<E>>; SLOTS]; LEVELS]>,
    /// Bit `s` of `occupied[l]` is set when slot `s` of level `l` holds events.
    occupied: [u64; LEVELS],
    /// Where the wheel stands: no event is before it. At most `now`.
    base: Nanos,
    len: usize,
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
        EventQueue {
            due: VecDeque::new(),
            slots: Box::new(std::array::from_fn(|_| std::array::from_fn(|_| Vec::new()))),
            occupied: [0; LEVELS],
            base: 0,
            len: 0,
            next_seq: 0,
            now: 0,
            current: Stamp { at: 0, seq: 0 },
            popped: 0,
        }
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
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        self.len += 1;
        self.place(stamp, event);
    }

    /// Schedule `event` with a stamp taken earlier from [`Self::stamp`], so
    /// it keeps its place among events scheduled since.
    pub fn schedule_stamped(&mut self, stamp: Stamp, event: E) {
        debug_assert!(stamp.seq < self.next_seq && stamp.at >= self.now);
        self.len += 1;
        self.place(stamp, event);
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Nanos> {
        if !self.due.is_empty() {
            return Some(self.base);
        }
        let (level, slot) = self.lowest_slot()?;
        if level == 0 {
            return Some((self.base & !(SLOTS as Nanos - 1)) | slot as Nanos);
        }
        self.slots[level][slot].iter().map(|e| e.stamp.at).min()
    }

    /// The event that pops next unless one is scheduled before it, when it
    /// is at hand without moving the wheel: for fetching the state it will
    /// touch into the cache while the current event runs.
    pub fn peek_next(&self) -> Option<&E> {
        if let Some(first) = self.due.front() {
            return Some(&first.event);
        }
        let (level, slot) = self.lowest_slot()?;
        match &self.slots[level][slot][..] {
            [only] => Some(&only.event),
            _ => None,
        }
    }

    /// Pop the next event if it is due at or before `until`, advancing `now`.
    pub fn pop_until(&mut self, until: Nanos) -> Option<(Nanos, E)> {
        let Entry { stamp, event } = match self.due.front() {
            Some(first) if first.stamp.at > until => return None,
            Some(_) => self.due.pop_front()?,
            None => self.take_earliest(until)?,
        };
        self.len -= 1;
        self.now = stamp.at;
        self.current = stamp;
        self.popped += 1;
        Some((stamp.at, event))
    }

    /// Move the clock forward to `t` when no event is left before it.
    pub fn advance_clock(&mut self, t: Nanos) {
        debug_assert!(self.peek_time().is_none_or(|p| p >= t));
        self.now = self.now.max(t);
    }

    /// Put an event where its time belongs relative to `base`. Inlined,
    /// and given the stamp and event apart, so the entry is built in
    /// registers where it is stored: read back from the caller's stack, a
    /// just-written entry stalls on store forwarding.
    #[inline(always)]
    fn place(&mut self, stamp: Stamp, event: E) {
        let Some(diff) = NonZeroU64::new(stamp.at ^ self.base) else {
            // Mostly the latest sequence number; a stamp taken earlier
            // goes in its place.
            if self.due.back().is_none_or(|last| last.stamp.seq < stamp.seq) {
                self.due.push_back(Entry { stamp, event });
            } else {
                let i = self.due.partition_point(|e| e.stamp.seq < stamp.seq);
                self.due.insert(i, Entry { stamp, event });
            }
            return;
        };
        let level = (diff.ilog2() / LEVEL_BITS) as usize;
        let slot = (stamp.at >> (level as u32 * LEVEL_BITS)) as usize & (SLOTS - 1);
        self.slots[level][slot].push(Entry { stamp, event });
        self.occupied[level] |= 1 << slot;
    }

    /// The occupied slot holding the earliest events: the lowest slot of the
    /// lowest occupied level (slots at or below `base`'s own are empty).
    fn lowest_slot(&self) -> Option<(usize, usize)> {
        let level = self.occupied.iter().position(|&bits| bits != 0)?;
        Some((level, self.occupied[level].trailing_zeros() as usize))
    }

    /// With nothing due, take the earliest event if it is at or before
    /// `until`, moving `base` to its time (nothing moves otherwise). Its slot
    /// is spread below `base`, so the events left at that time become due;
    /// a slot of one event, the usual case, is taken straight out.
    fn take_earliest(&mut self, until: Nanos) -> Option<Entry<E>> {
        let (level, slot) = self.lowest_slot()?;
        if let [only] = &self.slots[level][slot][..] {
            if only.stamp.at > until {
                return None;
            }
            self.base = only.stamp.at;
            self.occupied[level] &= !(1 << slot);
            return self.slots[level][slot].pop();
        }
        let earliest = if level == 0 {
            (self.base & !(SLOTS as Nanos - 1)) | slot as Nanos
        } else {
            self.slots[level][slot].iter().map(|e| e.stamp.at).min()?
        };
        if earliest > until {
            return None;
        }
        self.base = earliest;
        self.occupied[level] &= !(1 << slot);
        // None of its events comes back to this slot; it keeps its capacity.
        let mut spill = std::mem::take(&mut self.slots[level][slot]);
        for Entry { stamp, event } in spill.drain(..) {
            self.place(stamp, event);
        }
        self.slots[level][slot] = spill;
        self.due.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

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

    /// What a schedule does to the queue; times are relative to its clock.
    #[derive(Clone, Debug)]
    enum Op {
        Schedule(Nanos),
        /// Schedule at a time already past: it runs now.
        SchedulePast(Nanos),
        /// Take a stamp now, to schedule later.
        Stamp(Nanos),
        /// Schedule the stamp taken `n`-th from last, if still in the future.
        ScheduleStamped(usize),
        /// Pop if something is due within this horizon.
        Pop(Nanos),
        /// Move the clock toward this horizon, not past the next event.
        Advance(Nanos),
    }

    /// Gaps from now: equal times (0), a few ns, within and across slots
    /// and levels, and far future up to the end of time.
    fn gap() -> impl Strategy<Value = Nanos> {
        prop_oneof![
            3 => Just(0),
            4 => 0..8u64,
            4 => 0..5_000u64,
            3 => 0..100_000_000u64,
            1 => 0..Nanos::MAX / 2,
            1 => Just(Nanos::MAX),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => gap().prop_map(Op::Schedule),
            1 => gap().prop_map(Op::SchedulePast),
            2 => gap().prop_map(Op::Stamp),
            2 => (0..4usize).prop_map(Op::ScheduleStamped),
            6 => gap().prop_map(Op::Pop),
            1 => gap().prop_map(Op::Advance),
        ]
    }

    /// A binary heap of (time, sequence), its stamps and clock kept apart
    /// from the queue under test.
    #[derive(Default)]
    struct Reference {
        heap: BinaryHeap<Reverse<(Stamp, u32)>>,
        now: Nanos,
        seq: u64,
    }

    impl Reference {
        fn stamp(&mut self, at: Nanos) -> Stamp {
            self.seq += 1;
            Stamp { at: at.max(self.now), seq: self.seq - 1 }
        }

        fn pop_until(&mut self, until: Nanos) -> Option<(Nanos, u32)> {
            let Reverse((stamp, id)) = *self.heap.peek()?;
            if stamp.at > until {
                return None;
            }
            self.heap.pop();
            self.now = stamp.at;
            Some((stamp.at, id))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any mix of schedules, stamps, pops and clock moves pops exactly
        /// what a binary heap of (time, sequence) pops, in its order.
        #[test]
        fn pops_as_a_binary_heap_of_time_and_sequence_would(ops in prop::collection::vec(op(), 1..400)) {
            let mut q = EventQueue::new();
            let mut reference = Reference::default();
            let mut stamps: Vec<Stamp> = Vec::new();
            let mut next_id = 0u32;
            let mut id = || { next_id += 1; next_id };
            for op in ops {
                let now = reference.now;
                match op {
                    Op::Schedule(gap) => {
                        let (at, id) = (now.saturating_add(gap), id());
                        q.schedule(at, id);
                        let stamp = reference.stamp(at);
                        reference.heap.push(Reverse((stamp, id)));
                    }
                    Op::SchedulePast(gap) => {
                        let (at, id) = (now.saturating_sub(gap), id());
                        q.schedule(at, id);
                        let stamp = reference.stamp(at);
                        reference.heap.push(Reverse((stamp, id)));
                    }
                    Op::Stamp(gap) => {
                        let at = now.saturating_add(gap);
                        let stamp = q.stamp(at);
                        prop_assert_eq!(stamp, reference.stamp(at));
                        stamps.push(stamp);
                    }
                    Op::ScheduleStamped(back) => {
                        let Some(i) = stamps.len().checked_sub(1 + back) else { continue };
                        let stamp = stamps.remove(i);
                        // A stamp whose time has passed would have run already.
                        if stamp.at >= now {
                            let id = id();
                            q.schedule_stamped(stamp, id);
                            reference.heap.push(Reverse((stamp, id)));
                        }
                    }
                    Op::Pop(gap) => {
                        let until = now.saturating_add(gap);
                        prop_assert_eq!(q.pop_until(until), reference.pop_until(until));
                    }
                    Op::Advance(gap) => {
                        let next = reference.heap.peek().map_or(Nanos::MAX, |Reverse((s, _))| s.at);
                        let t = now.saturating_add(gap).min(next);
                        q.advance_clock(t);
                        reference.now = reference.now.max(t);
                    }
                }
                prop_assert_eq!(q.now(), reference.now);
                prop_assert_eq!(q.len(), reference.heap.len());
                // What it offers as next is what pops next.
                if let Some(&next) = q.peek_next() {
                    prop_assert_eq!(Some(next), reference.heap.peek().map(|Reverse((_, id))| *id));
                }
                prop_assert_eq!(q.peek_time(), reference.heap.peek().map(|Reverse((s, _))| s.at));
            }
            loop {
                let (got, want) = (q.pop_until(Nanos::MAX), reference.pop_until(Nanos::MAX));
                prop_assert_eq!(got, want);
                if got.is_none() {
                    break;
                }
            }
            prop_assert!(q.is_empty());
        }
    }

    /// Many events at one time, scheduled between others and spread over
    /// every level, pop in scheduling order.
    #[test]
    fn equal_times_pop_in_scheduling_order_across_levels() {
        let mut q = EventQueue::new();
        let times = [1u64 << 40, 5, 1 << 40, 64, 1 << 20, 5, Nanos::MAX, 1 << 40, 64, 0];
        for (i, &at) in times.iter().enumerate() {
            q.schedule(at, i);
        }
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Nanos::MAX)).collect();
        let mut expected: Vec<_> = times.iter().copied().zip(0..).collect();
        expected.sort_by_key(|&(at, i)| (at, i));
        assert_eq!(order, expected);
    }
}
