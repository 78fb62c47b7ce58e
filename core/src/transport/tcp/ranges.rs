//! Disjoint byte ranges in sequence space, as the SACK scoreboard and the
//! receiver's out-of-order buffer keep them.
//!
//! A sorted `Vec` rather than a B-tree: these sets hold a few ranges (one
//! per hole in the window), so a binary search and a short shift beat a
//! tree's node walk, and by far the most in WebAssembly, where a B-tree
//! node's key shifts are `memory.copy` calls.

/// Ranges [start, end), sorted by start, disjoint and not touching: an
/// inserted range absorbs every range it overlaps or touches. A set of
/// sequence numbers is the ranges [s, s + 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Ranges {
    ranges: Vec<(u64, u64)>,
}

impl Ranges {
    pub(super) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    pub(super) fn clear(&mut self) {
        self.ranges.clear();
    }

    /// The ranges, lowest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ranges.iter().copied()
    }

    /// The end of the range starting exactly at `start`.
    pub(super) fn end_of(&self, start: u64) -> Option<u64> {
        self.ranges.binary_search_by_key(&start, |r| r.0).ok().map(|i| self.ranges[i].1)
    }

    /// Whether one range holds all of [start, end).
    pub(super) fn covers(&self, start: u64, end: u64) -> bool {
        let at_or_below = self.ranges.partition_point(|r| r.0 <= start);
        at_or_below > 0 && self.ranges[at_or_below - 1].1 >= end
    }

    /// Bytes held below `upto`.
    pub(super) fn len_below(&self, upto: u64) -> u64 {
        let below = self.ranges.partition_point(|r| r.0 < upto);
        self.ranges[..below].iter().map(|&(s, e)| e.min(upto) - s).sum()
    }

    /// The ranges sharing bytes with [left, right), lowest first.
    pub(super) fn overlapping(&self, left: u64, right: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let first = self.ranges.partition_point(|r| r.1 <= left);
        self.ranges[first..].iter().copied().take_while(move |r| r.0 < right)
    }

    /// Add [start, end), joined with the ranges it overlaps or touches;
    /// returns the joined range.
    pub(super) fn insert(&mut self, start: u64, end: u64) -> (u64, u64) {
        // The ranges to join are consecutive: those starting at or before
        // `end`, walking down until one ends before `start`.
        let upto = self.ranges.partition_point(|r| r.0 <= end);
        let joined = self.ranges[..upto].iter().rev().take_while(|r| r.1 >= start).count();
        let from = upto - joined;
        let (mut start, mut end) = (start, end);
        for &(s, e) in &self.ranges[from..upto] {
            start = start.min(s);
            end = end.max(e);
        }
        self.ranges.splice(from..upto, [(start, end)]);
        (start, end)
    }

    /// Drop the bytes below `point`: a range straddling it now starts there.
    pub(super) fn trim_below(&mut self, point: u64) {
        let gone = self.ranges.iter().take_while(|r| r.1 <= point).count();
        self.ranges.drain(..gone);
        if let Some(first) = self.ranges.first_mut() {
            first.0 = first.0.max(point);
        }
    }

    /// From `pos`, take each range starting at or before the position
    /// reached so far; returns the position reached.
    pub(super) fn take_reached(&mut self, pos: u64) -> u64 {
        let (mut reached, mut taken) = (pos, 0);
        for &(s, e) in &self.ranges {
            if s > reached {
                break;
            }
            reached = reached.max(e);
            taken += 1;
        }
        self.ranges.drain(..taken);
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// The B-tree code these ranges replaced, operation for operation.
    #[derive(Default)]
    struct Reference(BTreeMap<u64, u64>);

    impl Reference {
        fn insert(&mut self, start: u64, end: u64) -> (u64, u64) {
            let (mut start, mut end) = (start, end);
            let merged: Vec<(u64, u64)> =
                self.0.range(..=end).rev().take_while(|&(_, &e)| e >= start).map(|(&s, &e)| (s, e)).collect();
            for (s, e) in merged {
                self.0.remove(&s);
                start = start.min(s);
                end = end.max(e);
            }
            self.0.insert(start, end);
            (start, end)
        }

        fn covers(&self, start: u64, end: u64) -> bool {
            self.0.range(..=start).next_back().is_some_and(|(_, &e)| e >= end)
        }

        fn len_below(&self, upto: u64) -> u64 {
            self.0.range(..upto).map(|(&s, &e)| e.min(upto) - s).sum()
        }

        fn overlapping(&self, left: u64, right: u64) -> Vec<(u64, u64)> {
            let straddling = self.0.range(..=left).next_back().filter(|&(_, &e)| e > left);
            straddling.into_iter().chain(self.0.range(left + 1..right)).map(|(&s, &e)| (s, e)).collect()
        }

        fn trim_below(&mut self, point: u64) {
            while let Some(entry) = self.0.first_entry() {
                match (*entry.key(), *entry.get()) {
                    (_, end) if end <= point => {
                        entry.remove();
                    }
                    (start, end) if start < point => {
                        entry.remove();
                        self.0.insert(point, end);
                    }
                    _ => break,
                }
            }
        }

        fn take_reached(&mut self, pos: u64) -> u64 {
            let mut reached = pos;
            while let Some(entry) = self.0.first_entry() {
                if *entry.key() > reached {
                    break;
                }
                reached = reached.max(entry.remove());
            }
            reached
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Insert(u64, u64),
        TrimBelow(u64),
        TakeReached(u64),
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        // A small sequence space, so that ranges overlap, touch and nest often.
        prop_oneof![
            8 => (0..200u64, 0..12u64).prop_map(|(s, len)| Op::Insert(s, s + len)),
            2 => (0..200u64).prop_map(Op::TrimBelow),
            2 => (0..200u64).prop_map(Op::TakeReached),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any mix of inserts, trims and takes leaves the ranges a B-tree
        /// map of start → end would hold, and every query answers as on it.
        #[test]
        fn behaves_as_the_b_tree_map_it_replaces(ops in prop::collection::vec(op(), 1..100)) {
            let (mut ranges, mut reference) = (Ranges::default(), Reference::default());
            for op in ops {
                match op {
                    Op::Insert(s, e) => prop_assert_eq!(ranges.insert(s, e), reference.insert(s, e)),
                    Op::TrimBelow(p) => {
                        ranges.trim_below(p);
                        reference.trim_below(p);
                    }
                    Op::TakeReached(p) => prop_assert_eq!(ranges.take_reached(p), reference.take_reached(p)),
                    Op::Clear => {
                        ranges.clear();
                        reference.0.clear();
                    }
                }
                let held: Vec<(u64, u64)> = reference.0.iter().map(|(&s, &e)| (s, e)).collect();
                prop_assert_eq!(ranges.iter().collect::<Vec<_>>(), held);
                prop_assert_eq!(ranges.is_empty(), reference.0.is_empty());
                for x in 0..215 {
                    prop_assert_eq!(ranges.end_of(x), reference.0.get(&x).copied());
                    prop_assert_eq!(ranges.len_below(x), reference.len_below(x));
                    for len in [1, 3, 10] {
                        prop_assert_eq!(ranges.covers(x, x + len), reference.covers(x, x + len));
                        let overlapping: Vec<(u64, u64)> = ranges.overlapping(x, x + len).collect();
                        prop_assert_eq!(overlapping, reference.overlapping(x, x + len));
                    }
                }
            }
        }

        /// As a set of sequence numbers (the ranges [s, s + 1)), they hold
        /// what a B-tree set would after the same inserts and trims.
        #[test]
        fn as_a_set_behaves_as_a_b_tree_set(ops in prop::collection::vec((any::<bool>(), 0..100u64), 1..200)) {
            let (mut ranges, mut reference) = (Ranges::default(), std::collections::BTreeSet::new());
            for (insert, x) in ops {
                if insert {
                    ranges.insert(x, x + 1);
                    reference.insert(x);
                } else {
                    ranges.trim_below(x);
                    reference.retain(|&s| s >= x);
                }
                for s in 0..110 {
                    prop_assert_eq!(ranges.covers(s, s + 1), reference.contains(&s));
                }
            }
        }
    }

    #[test]
    fn insert_joins_overlapping_and_touching_ranges() {
        let mut r = Ranges::default();
        r.insert(10, 20);
        r.insert(30, 40);
        r.insert(50, 60);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(10, 20), (30, 40), (50, 60)]);
        // Touching 20 and overlapping 30–40: one range.
        assert_eq!(r.insert(20, 35), (10, 40));
        assert_eq!(r.iter().collect::<Vec<_>>(), [(10, 40), (50, 60)]);
        assert!(r.covers(12, 40) && !r.covers(12, 41) && !r.covers(45, 46));
        assert_eq!(r.len_below(55), 30 + 5);
    }

    #[test]
    fn trim_and_take_drop_the_bytes_below_a_point() {
        let mut r = Ranges::default();
        for (s, e) in [(10, 20), (30, 40), (50, 60)] {
            r.insert(s, e);
        }
        r.trim_below(35);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(35, 40), (50, 60)]);
        // From 35 the take reaches 40, short of 50.
        assert_eq!(r.take_reached(35), 40);
        assert_eq!(r.iter().collect::<Vec<_>>(), [(50, 60)]);
        assert_eq!(r.take_reached(49), 49);
        assert_eq!(r.take_reached(70), 70);
        assert!(r.is_empty());
    }
}
