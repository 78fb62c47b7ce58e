//! Links' items in flight. A link delivers in the order it sends, so its
//! items need no place in the event heap of their own: only the head of
//! each pipe is an event. Every item keeps the [`Stamp`] it would have had
//! as an event, so it pops in exactly the order a heap of all of them
//! would give, ties with other events included.
//!
//! All pipes share one pool of nodes, each pipe a list through it, and a
//! node let go is the next one taken. With ten thousand links in flight a
//! ring per link, each its own allocation sized by its busiest moment,
//! spread the items over half the heap; the pool holds about as many nodes
//! as items are in flight at once, and the ones in use stay few pages.

use super::events::{EventQueue, Stamp};
use super::prefetch::prefetch;
use super::Nanos;

/// No node: the end of a list.
const NONE: u32 = u32::MAX;

pub struct Pipes<T, E> {
    /// Each pipe's first and last node; the first is `NONE` when it is
    /// empty (the last is then left as it was).
    ends: Vec<Ends>,
    nodes: Vec<Node<T, E>>,
    /// The first free node, the free ones linked through `next`.
    free: u32,
    /// Each pipe's last item's time, to check that it delivers in order.
    #[cfg(debug_assertions)]
    last_at: Vec<Nanos>,
}

#[derive(Clone, Copy)]
struct Ends {
    head: u32,
    tail: u32,
}

/// An item and the link to the next item of its pipe (unless it is the
/// pipe's last), with that item's stamp and the event that will stand for
/// it: popping a head schedules the next without reading its node.
/// Aligned so that a node spans two cache lines, never three.
#[repr(align(64))]
struct Node<T, E> {
    item: Option<T>,
    next: u32,
    next_stamp: Stamp,
    next_head: Option<E>,
}

impl<T, E: Copy> Pipes<T, E> {
    /// `count` empty pipes, numbered from 0.
    pub fn new(count: usize) -> Self {
        Pipes {
            ends: vec![Ends { head: NONE, tail: NONE }; count],
            nodes: Vec::new(),
            free: NONE,
            #[cfg(debug_assertions)]
            last_at: vec![0; count],
        }
    }

    pub fn is_empty(&self, pipe: usize) -> bool {
        self.ends[pipe].head == NONE
    }

    /// Items in `pipe` (walks its list).
    pub fn len(&self, pipe: usize) -> usize {
        let Ends { head, tail } = self.ends[pipe];
        if head == NONE {
            return 0;
        }
        let mut count = 1;
        let mut node = head;
        while node != tail {
            node = self.nodes[node as usize].next;
            count += 1;
        }
        count
    }

    /// Items in all pipes.
    pub fn total_len(&self) -> usize {
        (0..self.ends.len()).map(|pipe| self.len(pipe)).sum()
    }

    /// Put `item` in `pipe` to come out at `at`, which must not be before
    /// the pipe's last item's time; `head` is the event that will stand for
    /// the pipe while the item is its head, scheduled in the item's place
    /// now if the pipe was empty, or when the item before it pops.
    pub fn push(&mut self, events: &mut EventQueue<E>, pipe: usize, at: Nanos, item: T, head: E) {
        let stamp = events.stamp(at);
        #[cfg(debug_assertions)]
        {
            debug_assert!(self.is_empty(pipe) || self.last_at[pipe] <= stamp.at, "a pipe delivers in order");
            self.last_at[pipe] = stamp.at;
        }
        let node = self.take_node(item);
        let ends = &mut self.ends[pipe];
        if ends.head == NONE {
            ends.head = node;
            events.schedule_stamped(stamp, head);
        } else {
            let tail = &mut self.nodes[ends.tail as usize];
            tail.next = node;
            tail.next_stamp = stamp;
            tail.next_head = Some(head);
        }
        ends.tail = node;
    }

    /// Take the head item of `pipe` (its event has just popped) and
    /// schedule the next item's event, if there is a next item.
    pub fn pop(&mut self, events: &mut EventQueue<E>, pipe: usize) -> Option<T> {
        let ends = &mut self.ends[pipe];
        let index = ends.head;
        let node = self.nodes.get_mut(index as usize)?;
        let item = node.item.take();
        if index == ends.tail {
            ends.head = NONE;
        } else {
            ends.head = node.next;
            // Set when the next item was pushed behind this one.
            if let Some(head) = node.next_head {
                events.schedule_stamped(node.next_stamp, head);
            }
        }
        node.next = self.free;
        self.free = index;
        item
    }

    /// Ask the processor to fetch `pipe`'s head item into the cache. With
    /// thousands of links in flight it was written long ago and is rarely
    /// cached: reading it was the largest single stall of a step.
    #[inline]
    pub fn prefetch_head(&self, pipe: usize) {
        if let Some(node) = self.ends.get(pipe).and_then(|ends| self.nodes.get(ends.head as usize)) {
            prefetch(node, &[0, 64]);
        }
    }

    /// A node to hold `item`: the one let go last, or a new one. The node
    /// is found before the item is moved, so that the item is written once,
    /// straight into it: moved through the stack first, its copy read back
    /// pieces of stores not yet done and stalled on store forwarding.
    #[inline]
    fn take_node(&mut self, item: T) -> u32 {
        let index = if self.free == NONE { self.new_node() } else { self.free };
        let node = &mut self.nodes[index as usize];
        self.free = node.next;
        // A free node holds nothing: forgetting what it held drops nothing,
        // and spares reading its old contents to check.
        let old = node.item.replace(item);
        debug_assert!(old.is_none());
        std::mem::forget(old);
        index
    }

    /// A new free node, put first on the free list.
    #[cold]
    #[inline(never)]
    fn new_node(&mut self) -> u32 {
        let index =
            u32::try_from(self.nodes.len()).ok().filter(|&i| i != NONE).expect("fewer than 2^32 items in flight");
        self.nodes.push(Node { item: None, next: self.free, next_stamp: Stamp { at: 0, seq: 0 }, next_head: None });
        self.free = index;
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::VecDeque;

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
        let mut pipes = Pipes::new(2);
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
                Some(p) => pipes.push(&mut events, p, at, id, Ev::Head(p)),
                None => events.schedule(at, Ev::Direct(id)),
            }
            reference.schedule(at, id);
        }
        let mut order = Vec::new();
        while let Some((at, ev)) = events.pop_until(u64::MAX) {
            let id = match ev {
                Ev::Head(p) => pipes.pop(&mut events, p).expect("a head event has an item"),
                Ev::Direct(id) => id,
            };
            order.push((at, id));
        }
        let expected: Vec<_> = std::iter::from_fn(|| reference.pop_until(u64::MAX)).collect();
        assert_eq!(order, expected);
        assert!((0..2).all(|p| pipes.is_empty(p)));
    }

    #[derive(Clone, Debug)]
    enum Op {
        /// Push onto a pipe, this long after its last item.
        Push(usize, Nanos),
        /// Pop the next event due.
        Pop,
    }

    const PIPES: usize = 4;

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![(0..PIPES, 0..20u64).prop_map(|(p, gap)| Op::Push(p, gap)), Just(Op::Pop)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Pipes sharing one pool hold and give back exactly what a
        /// `VecDeque` per pipe would, whatever the interleaving of pushes
        /// and pops; their heads pop in time order across pipes, each as
        /// the event given with its item.
        #[test]
        fn the_pool_behaves_as_a_deque_per_pipe(ops in prop::collection::vec(op(), 1..300)) {
            let mut events = EventQueue::new();
            let mut pipes = Pipes::new(PIPES);
            let mut deques: Vec<VecDeque<(Nanos, u32)>> = vec![VecDeque::new(); PIPES];
            let mut last = [0; PIPES];
            for (id, op) in ops.into_iter().enumerate() {
                match op {
                    Op::Push(p, gap) => {
                        last[p] = last[p].max(events.now()) + gap;
                        pipes.push(&mut events, p, last[p], id as u32, (p, id as u32));
                        deques[p].push_back((last[p], id as u32));
                    }
                    Op::Pop => {
                        let Some((now, (p, head))) = events.pop_until(Nanos::MAX) else { continue };
                        let item = pipes.pop(&mut events, p);
                        let expected = deques[p].pop_front();
                        prop_assert_eq!(item, expected.map(|(_, id)| id));
                        prop_assert_eq!(Some(head), item);
                        prop_assert_eq!(Some(now), expected.map(|(at, _)| at));
                        let earliest = deques.iter().filter_map(|d| d.front()).map(|&(at, _)| at).min();
                        prop_assert!(earliest.is_none_or(|at| at >= now));
                    }
                }
                for (p, deque) in deques.iter().enumerate() {
                    prop_assert_eq!(pipes.len(p), deque.len());
                    prop_assert_eq!(pipes.is_empty(p), deque.is_empty());
                }
                prop_assert_eq!(events.len(), deques.iter().filter(|d| !d.is_empty()).count());
            }
            prop_assert_eq!(pipes.total_len(), deques.iter().map(VecDeque::len).sum::<usize>());
        }
    }
}
