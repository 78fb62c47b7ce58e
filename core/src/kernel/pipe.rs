//! A link's items in flight. A link delivers in the order it sends, so its
//! items need no place in the event heap of their own: only the head of
//! each pipe is an event. Every item keeps the [`Stamp`] it would have had
//! as an event, so it pops in exactly the order a heap of all of them
//! would give, ties with other events included.

use super::events::{EventQueue, Stamp};
use super::Nanos;
use std::collections::VecDeque;

pub struct Pipe<T> {
    items: VecDeque<(Stamp, T)>,
}

impl<T> Default for Pipe<T> {
    fn default() -> Self {
        Pipe { items: VecDeque::new() }
    }
}

impl<T> Pipe<T> {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Put `item` in the pipe to come out at `at`, which must not be before
    /// the last item's time. When the pipe was empty, `head` (the event that
    /// stands for this pipe) is scheduled in the item's place.
    pub fn push<E>(&mut self, events: &mut EventQueue<E>, at: Nanos, item: T, head: E) {
        let stamp = events.stamp(at);
        debug_assert!(self.items.back().is_none_or(|(last, _)| last.at <= stamp.at), "a pipe delivers in order");
        if self.items.is_empty() {
            events.schedule_stamped(stamp, head);
        }
        self.items.push_back((stamp, item));
    }

    /// Ask the processor to fetch the head item into the cache. With
    /// thousands of links in flight it was written long ago and is rarely
    /// cached: reading it was the largest single stall of a step.
    #[inline]
    pub fn prefetch_head(&self) {
        #[cfg(target_arch = "x86_64")]
        if let Some(head) = self.items.front() {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let at = (head as *const (Stamp, T)).cast::<i8>();
            // SAFETY: SSE is part of x86-64, and a prefetch never faults
            // nor changes what the program computes.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(at);
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(64));
            }
        }
    }

    /// Take the head item (its event has just popped) and schedule `head`
    /// again for the next item, if any.
    pub fn pop<E>(&mut self, events: &mut EventQueue<E>, head: E) -> Option<T> {
        let (_, item) = self.items.pop_front()?;
        if let Some((next, _)) = self.items.front() {
            events.schedule_stamped(*next, head);
        }
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two pipes and direct events interleaved come out as one heap of all
    /// of them would give them: by time, ties in scheduling order.
    #[test]
    fn pipes_and_events_pop_as_one_heap_would() {
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Ev {
            Head(usize),
            Direct(u32),
        }
        let mut events = EventQueue::new();
        let mut pipes: [Pipe<u32>; 2] = Default::default();
        let mut reference = EventQueue::new();
        let plan: [(Option<usize>, Nanos, u32); 8] = [
            (Some(0), 10, 1),
            (None, 10, 2),
            (Some(1), 5, 3),
            (Some(0), 10, 4),
            (None, 7, 5),
            (Some(1), 12, 6),
            (Some(0), 30, 7),
            (None, 12, 8),
        ];
        for (pipe, at, id) in plan {
            match pipe {
                Some(p) => pipes[p].push(&mut events, at, id, Ev::Head(p)),
                None => events.schedule(at, Ev::Direct(id)),
            }
            reference.schedule(at, id);
        }
        let mut order = Vec::new();
        while let Some((at, ev)) = events.pop_until(u64::MAX) {
            let id = match ev {
                Ev::Head(p) => pipes[p].pop(&mut events, Ev::Head(p)).expect("a head event has an item"),
                Ev::Direct(id) => id,
            };
            order.push((at, id));
        }
        let expected: Vec<_> = std::iter::from_fn(|| reference.pop_until(u64::MAX)).collect();
        assert_eq!(order, expected);
        assert!(pipes.iter().all(Pipe::is_empty));
    }
}
