//! Selective acknowledgements: the receiver's blocks (RFC 2018) and the
//! sender's scoreboard for loss recovery (RFC 6675).
//!
//! Segments start at multiples of the MSS (the sender never re-segments),
//! so the scoreboard works a segment at a time: a segment is SACKed when a
//! block covers all of it.

use super::ranges::Ranges;

/// RFC 6675 §2: DupThresh.
pub const DUP_THRESH: u64 = 3;

/// The receiver's out-of-order ranges in the order RFC 2018 §4 reports
/// them: the block holding the segment that triggered the ACK first, then
/// the others from the most recently changed on.
#[derive(Default)]
pub(super) struct SackOrder {
    /// Range starts, most recent first (a subset of the receiver's ranges).
    recent: Vec<u64>,
}

impl SackOrder {
    /// A segment arrived out of order and now lies in the range [start,
    /// end): the ranges it absorbed started within it.
    pub(super) fn touched(&mut self, start: u64, end: u64) {
        self.recent.retain(|s| !(start..=end).contains(s));
        self.recent.insert(0, start);
    }

    /// Forget the ranges that are no longer buffered (now in order).
    pub(super) fn keep_only(&mut self, ranges: &Ranges) {
        self.recent.retain(|s| ranges.end_of(*s).is_some());
    }

    /// The blocks to send, most recent first, as [left, right) ranges.
    pub(super) fn blocks<'a>(&'a self, ranges: &'a Ranges) -> impl Iterator<Item = (u64, u64)> + 'a {
        self.recent.iter().filter_map(|s| ranges.end_of(*s).map(|e| (*s, e)))
    }
}

/// What RFC 6675 §4's NextSeg() chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextSeg {
    /// Rules (1) and (3): retransmit [start, end) and raise HighRxt to `end`.
    Retransmit(u64, u64),
    /// Rule (2): send new data.
    NewData,
    /// Rule (4): the rescue retransmission of [start, end).
    Rescue(u64, u64),
}

/// Whose loss-recovery rules the scoreboard keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecoveryRules {
    /// RFC 6675: SetPipe() counts a retransmission below HighRxt while it is
    /// not SACKed; a timeout leaves the scoreboard alone (the sender goes
    /// back N).
    #[default]
    Rfc6675,
    /// ns-3.44's `TcpSocketBase` and `TcpTxBuffer`, as BBR runs on them in
    /// the comparison of docs/model.md: a timeout marks every segment not
    /// SACKed lost (`SetSentListLost`) and NextSeg() then resends only
    /// below the highest SACK; the pipe is `BytesInFlight()`, where a
    /// resent segment counts until the cumulative ACK passes it, SACKed or
    /// not.
    Ns3,
}

/// One segment between HighACK and HighData as the scoreboard sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    start: u64,
    end: u64,
    sacked: bool,
    /// RFC 6675 §4 IsLost(): more than (DupThresh − 1)·SMSS bytes SACKed
    /// above it, or sent before a timeout that is still being repaired.
    lost: bool,
}

/// The sender's record of what the receiver holds above the cumulative
/// ACK, and of what this recovery has retransmitted.
#[derive(Default, Debug)]
pub struct Scoreboard {
    rules: RecoveryRules,
    /// SACKed ranges above HighACK.
    sacked: Ranges,
    /// HighRxt, stored one past the highest byte retransmitted.
    high_rxt: u64,
    /// RescueRxt: the RecoveryPoint of the last rescue retransmission.
    rescue_rxt: Option<u64>,
    /// After a retransmission timeout, HighData at the timeout: every
    /// segment below it not SACKed counts as lost until the cumulative ACK
    /// reaches it (ns-3's `TcpTxBuffer::SetSentListLost`).
    timed_out_below: Option<u64>,
    /// ns-3's rules: starts of the segments above HighACK resent since the
    /// last timeout, SACKed since or not (`TcpTxItem::m_retrans`), each
    /// start s as the range [s, s + 1).
    resent: Ranges,
}

impl Scoreboard {
    pub fn new(rules: RecoveryRules) -> Scoreboard {
        Scoreboard { rules, ..Scoreboard::default() }
    }

    /// RFC 6675 §4 Update(): record the blocks of an ACK for `high_ack` and
    /// drop what it acknowledges cumulatively. Each range of bytes not
    /// SACKed before goes to `newly_sacked`; returns whether there was any.
    pub fn update(
        &mut self,
        high_ack: u64,
        blocks: impl Iterator<Item = (u64, u64)>,
        mut newly_sacked: impl FnMut(u64, u64),
    ) -> bool {
        let mut news = false;
        for (left, right) in blocks {
            let left = left.max(high_ack);
            if right > left && !self.covers(left, right) {
                self.uncovered(left, right, &mut newly_sacked);
                self.sacked.insert(left, right);
                news = true;
            }
        }
        self.resent.trim_below(high_ack);
        if self.timed_out_below.is_some_and(|point| high_ack >= point) {
            self.timed_out_below = None;
        }
        self.sacked.trim_below(high_ack);
        news
    }

    /// A recovery starts: nothing retransmitted in it yet.
    pub fn begin_recovery(&mut self, high_ack: u64) {
        self.high_rxt = high_ack;
    }

    /// A retransmission timeout. Under ns-3's rules (`SetSentListLost`,
    /// RFC 6675 §5.1 keeping the SACK information) every segment of
    /// [high_ack, high_data) not SACKed is lost and none resent yet, until
    /// the cumulative ACK reaches high_data; returns whether the scoreboard
    /// now picks what to send.
    pub fn on_timeout(&mut self, high_ack: u64, high_data: u64) -> bool {
        if self.rules != RecoveryRules::Ns3 {
            return false;
        }
        self.high_rxt = high_ack;
        self.resent.clear();
        self.timed_out_below = Some(high_data);
        true
    }

    /// Whether a timeout's losses are still being repaired (ns-3's CA_LOSS).
    pub fn repairing_timeout(&self) -> bool {
        self.timed_out_below.is_some()
    }

    /// The segment starting at `start` was sent again.
    pub fn note_resent(&mut self, start: u64) {
        if self.rules == RecoveryRules::Ns3 {
            self.resent.insert(start, start + 1);
        }
    }

    pub fn note_retransmit(&mut self, end: u64) {
        self.high_rxt = self.high_rxt.max(end);
    }

    /// RFC 6675 §5 step (4.3): the retransmission that starts a recovery
    /// sets HighRxt and RescueRxt both, so no rescue goes out before the
    /// cumulative ACK has passed it.
    pub fn note_first_retransmit(&mut self, end: u64) {
        self.note_retransmit(end);
        self.rescue_rxt = Some(end);
    }

    pub fn note_rescue(&mut self, recovery_point: u64) {
        self.rescue_rxt = Some(recovery_point);
    }

    /// Whether [start, end) is SACKed in full.
    pub fn covers(&self, start: u64, end: u64) -> bool {
        self.sacked.covers(start, end)
    }

    /// SACKed bytes below `upto`.
    pub fn sacked_below(&self, upto: u64) -> u64 {
        self.sacked.len_below(upto)
    }

    /// SACKed ranges, in order (for tests and traces).
    pub fn ranges(&self) -> Vec<(u64, u64)> {
        self.sacked.iter().collect()
    }

    /// The parts of [left, right) no SACKed range covers, in order.
    fn uncovered(&self, left: u64, right: u64, mut gap: impl FnMut(u64, u64)) {
        let mut pos = left;
        for (s, e) in self.sacked.overlapping(left, right) {
            if s > pos {
                gap(pos, s);
            }
            pos = pos.max(e);
        }
        if pos < right {
            gap(pos, right);
        }
    }

    /// The segments of [high_ack, high_data), lowest first, with IsLost().
    fn segments(&self, high_ack: u64, high_data: u64, mss: u64) -> Vec<Seg> {
        let mut segs = Vec::new();
        let mut start = high_ack;
        while start < high_data {
            let end = ((start / mss + 1) * mss).min(high_data);
            segs.push(Seg { start, end, sacked: self.covers(start, end), lost: false });
            start = end;
        }
        let mut sacked_above = 0;
        for seg in segs.iter_mut().rev() {
            if seg.sacked {
                sacked_above += seg.end - seg.start;
            } else {
                seg.lost = sacked_above > (DUP_THRESH - 1) * mss
                    || self.timed_out_below.is_some_and(|point| seg.start < point);
            }
        }
        segs
    }

    /// RFC 6675 §4 IsLost(seq) for the segment starting at `seq`.
    pub fn is_lost(&self, seq: u64, high_data: u64, mss: u64) -> bool {
        self.segments(seq, high_data, mss).first().is_some_and(|s| s.lost)
    }

    /// RFC 6675 §4 SetPipe(): bytes thought to be in the network. Every
    /// segment not SACKed counts once unless it is lost, and once more if
    /// this recovery has retransmitted it (it lies below HighRxt). Under
    /// ns-3's rules (`BytesInFlight()`) a resent segment counts once more
    /// until the cumulative ACK passes it, SACKed or not.
    pub fn pipe(&self, high_ack: u64, high_data: u64, mss: u64) -> u64 {
        self.segments(high_ack, high_data, mss)
            .iter()
            .map(|s| {
                let len = s.end - s.start;
                let in_flight = if s.sacked || s.lost { 0 } else { len };
                let resent = match self.rules {
                    RecoveryRules::Rfc6675 => !s.sacked && s.start < self.high_rxt,
                    RecoveryRules::Ns3 => self.resent.covers(s.start, s.start + 1),
                };
                in_flight + if resent { len } else { 0 }
            })
            .sum()
    }

    /// RFC 6675 §4 NextSeg(). `new_data` says whether rule (2) may send new
    /// data (the application has some and the receiver's window allows it).
    /// The caller records a rescue with [`Scoreboard::note_rescue`].
    ///
    /// After a timeout (ns-3's `TcpTxBuffer::NextSeg` in CA_LOSS): rule (1)
    /// takes a lost segment only below the start of the highest SACKed one
    /// (RFC 6675's (1.b)), or any lost one when nothing is SACKed, so data
    /// still in flight above the highest SACK is not sent twice; rules (3)
    /// and (4) are for recovery only.
    pub fn next_seg(&self, high_ack: u64, high_data: u64, mss: u64, new_data: bool) -> Option<NextSeg> {
        let segs = self.segments(high_ack, high_data, mss);
        let candidates = || segs.iter().filter(|s| !s.sacked && s.start >= self.high_rxt);
        let highest_sacked = segs.iter().rev().find(|s| s.sacked);
        // (1) the first lost segment above HighRxt (and below the highest SACK).
        let below_highest_sack = |s: &&Seg| highest_sacked.is_none_or(|h| s.start < h.start);
        if let Some(s) = candidates().filter(below_highest_sack).find(|s| s.lost) {
            return Some(NextSeg::Retransmit(s.start, s.end));
        }
        // (2) new data.
        if new_data {
            return Some(NextSeg::NewData);
        }
        if self.repairing_timeout() {
            return None;
        }
        // (3) the first segment above HighRxt not SACKed, with SACKed data above it.
        let highest_sacked = highest_sacked.map(|s| s.end);
        if let Some(s) = candidates().find(|s| highest_sacked.is_some_and(|h| s.end < h)) {
            return Some(NextSeg::Retransmit(s.start, s.end));
        }
        // (4) rescue: once per recovery, the highest segment not SACKed,
        // when the cumulative ACK has passed the last RescueRxt.
        if self.rescue_rxt.is_none_or(|r| high_ack > r) {
            if let Some(s) = segs.iter().rev().find(|s| !s.sacked) {
                return Some(NextSeg::Rescue(s.start, s.end));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    /// A scoreboard with segments `sacked` (numbers) SACKed above segment 0.
    fn board(sacked: &[u64]) -> Scoreboard {
        board_with(RecoveryRules::Rfc6675, sacked)
    }

    fn board_with(rules: RecoveryRules, sacked: &[u64]) -> Scoreboard {
        let mut b = Scoreboard::new(rules);
        b.update(0, sacked.iter().map(|&s| (s * MSS, (s + 1) * MSS)), |_, _| {});
        b
    }

    /// What NextSeg() picks, one after another, each resend recorded, until
    /// it picks new data or nothing.
    fn picks(b: &mut Scoreboard, high_data: u64) -> Vec<NextSeg> {
        let mut out = Vec::new();
        while let Some(next) = b.next_seg(0, high_data, MSS, true) {
            out.push(next);
            match next {
                NextSeg::Retransmit(start, end) => {
                    b.note_retransmit(end);
                    b.note_resent(start);
                }
                _ => return out,
            }
        }
        out
    }

    #[test]
    fn ns3_set_sent_list_lost_then_next_seg_resends_only_below_the_highest_sack() {
        // Ten segments out, segment 5 SACKed: 0–4 are resent, 6–9 may still
        // be in flight, so new data goes next.
        let mut b = board_with(RecoveryRules::Ns3, &[5]);
        assert!(b.on_timeout(0, 10 * MSS) && b.repairing_timeout());
        let resent: Vec<NextSeg> = (0..5).map(|k| NextSeg::Retransmit(k * MSS, (k + 1) * MSS)).collect();
        assert_eq!(picks(&mut b, 10 * MSS), [resent, vec![NextSeg::NewData]].concat());
        // Rules (3) and (4) are for recovery only.
        assert_eq!(b.next_seg(0, 10 * MSS, MSS, false), None);
    }

    #[test]
    fn ns3_timeout_without_sack_resends_every_segment() {
        let mut b = board_with(RecoveryRules::Ns3, &[]);
        b.on_timeout(0, 3 * MSS);
        let resent: Vec<NextSeg> = (0..3).map(|k| NextSeg::Retransmit(k * MSS, (k + 1) * MSS)).collect();
        assert_eq!(picks(&mut b, 3 * MSS), [resent, vec![NextSeg::NewData]].concat());
    }

    #[test]
    fn ns3_timeout_repair_ends_when_the_cumulative_ack_reaches_high_data() {
        let mut b = board_with(RecoveryRules::Ns3, &[5]);
        b.on_timeout(0, 10 * MSS);
        b.update(9 * MSS, std::iter::empty(), |_, _| {});
        assert!(b.repairing_timeout());
        b.update(10 * MSS, std::iter::empty(), |_, _| {});
        assert!(!b.repairing_timeout());
        // RFC 6675's sender goes back N itself: the scoreboard stays out of it.
        let mut rfc = board(&[5]);
        assert!(!rfc.on_timeout(0, 10 * MSS) && !rfc.repairing_timeout());
    }

    #[test]
    fn ns3_bytes_in_flight_counts_a_resent_segment_until_the_cumulative_ack() {
        // Segments 0–5 out, 2–4 SACKed: 0 and 1 are lost and resent; then
        // the resent 1 is SACKed.
        for (rules, pipe_after_sack) in [(RecoveryRules::Rfc6675, 2 * MSS), (RecoveryRules::Ns3, 3 * MSS)] {
            let mut b = board_with(rules, &[2, 3, 4]);
            b.begin_recovery(0);
            for k in 0..2 {
                b.note_retransmit((k + 1) * MSS);
                b.note_resent(k * MSS);
            }
            // Both resent and lost, and segment 5 in flight.
            assert_eq!(b.pipe(0, 6 * MSS, MSS), 3 * MSS, "{rules:?}");
            b.update(0, [(MSS, 2 * MSS)].into_iter(), |_, _| {});
            assert_eq!(b.pipe(0, 6 * MSS, MSS), pipe_after_sack, "{rules:?}");
            // Once cumulatively acknowledged, only segment 5 is left.
            b.update(5 * MSS, std::iter::empty(), |_, _| {});
            assert_eq!(b.pipe(5 * MSS, 6 * MSS, MSS), MSS, "{rules:?}");
        }
    }

    #[test]
    fn update_merges_blocks_and_trims_below_the_cumulative_ack() {
        let mut b = board(&[2, 3, 5]);
        assert_eq!(b.ranges(), [(2000, 4000), (5000, 6000)]);
        // A repeated block is no news; a new one is.
        let mut newly = Vec::new();
        assert!(!b.update(0, [(2000, 3000)].into_iter(), |l, r| newly.push((l, r))));
        assert!(newly.is_empty());
        // Only the bytes not SACKed before are new: the gap between ranges and past the last.
        assert!(b.update(0, [(1000, 8000)].into_iter(), |l, r| newly.push((l, r))));
        assert_eq!(newly, [(1000, 2000), (4000, 5000), (6000, 8000)]);
        assert_eq!(b.ranges(), [(1000, 8000)]);
        b.update(3000, std::iter::empty(), |_, _| {});
        assert_eq!(b.ranges(), [(3000, 8000)]);
        b.update(8000, std::iter::empty(), |_, _| {});
        assert!(b.ranges().is_empty());
    }

    #[test]
    fn is_lost_needs_more_than_two_segments_sacked_above() {
        // RFC 6675 §4: DupThresh = 3 segments SACKed above the sequence.
        let b = board(&[3, 5, 7]);
        let high_data = 8 * MSS;
        let lost: Vec<bool> = (0..8).map(|s| b.is_lost(s * MSS, high_data, MSS)).collect();
        assert_eq!(lost, [true, true, true, false, false, false, false, false]);
    }

    #[test]
    fn pipe_counts_unsacked_not_lost_and_retransmitted_once_more() {
        // Segments 0..10 out; 3..=6 SACKed, so 0, 1 and 2 are lost.
        let mut b = board(&[3, 4, 5, 6]);
        // In flight: 7, 8, 9 (not lost); 0–2 lost, 3–6 SACKed.
        assert_eq!(b.pipe(0, 10 * MSS, MSS), 3000);
        // Retransmitting 0 and 1 puts them back in the pipe.
        b.begin_recovery(0);
        b.note_retransmit(2000);
        assert_eq!(b.pipe(0, 10 * MSS, MSS), 5000);
    }

    #[test]
    fn next_seg_prefers_lost_then_new_then_unsacked_then_rescue() {
        let mut b = board(&[3, 4, 5, 8]);
        b.begin_recovery(0);
        let next = |b: &Scoreboard, new_data| b.next_seg(0, 10 * MSS, MSS, new_data);
        // (1) lost segments above HighRxt, lowest first: 0, 1, 2 (6 and 7 have only one SACKed above).
        assert_eq!(next(&b, true), Some(NextSeg::Retransmit(0, 1000)));
        b.note_retransmit(3000);
        // (2) then new data, if there is any.
        assert_eq!(next(&b, true), Some(NextSeg::NewData));
        // (3) else a segment below the highest SACKed one though not yet lost: 6.
        assert_eq!(next(&b, false), Some(NextSeg::Retransmit(6000, 7000)));
        b.note_retransmit(7000);
        assert_eq!(next(&b, false), Some(NextSeg::Retransmit(7000, 8000)));
        b.note_retransmit(8000);
        // (4) else the rescue: the highest segment not SACKed, 9.
        assert_eq!(next(&b, false), Some(NextSeg::Rescue(9000, 10_000)));
        b.note_rescue(10 * MSS);
        // At most one until the cumulative ACK passes RescueRxt.
        assert_eq!(next(&b, false), None);
    }

    #[test]
    fn no_rescue_before_the_first_retransmission_is_acknowledged() {
        // RFC 6675 §5 (4.3): entering recovery sets RescueRxt with HighRxt.
        // Nothing SACKed above 9, only 1–2 SACKed: no rule (1)–(3) segment.
        let mut b = board(&[1, 2]);
        b.begin_recovery(0);
        b.note_first_retransmit(MSS);
        assert_eq!(b.next_seg(0, 10 * MSS, MSS, false), None);
        assert_eq!(b.next_seg(MSS, 10 * MSS, MSS, false), None);
        // The cumulative ACK passes segment 0: the rescue may go.
        b.update(3 * MSS, std::iter::empty(), |_, _| {});
        assert_eq!(b.next_seg(3 * MSS, 10 * MSS, MSS, false), Some(NextSeg::Rescue(9000, 10_000)));
    }

    #[test]
    fn receiver_reports_the_most_recently_changed_block_first() {
        let mut ranges = Ranges::default();
        let mut order = SackOrder::default();
        let arrive = |ranges: &mut Ranges, order: &mut SackOrder, start: u64| {
            let (start, end) = ranges.insert(start, start + MSS);
            order.touched(start, end);
        };
        for seg in [2, 5, 8] {
            arrive(&mut ranges, &mut order, seg * MSS);
        }
        let blocks = |order: &SackOrder, ranges: &Ranges| order.blocks(ranges).collect::<Vec<_>>();
        assert_eq!(blocks(&order, &ranges), [(8000, 9000), (5000, 6000), (2000, 3000)]);
        // Segment 3 extends the oldest range: it moves to the front.
        arrive(&mut ranges, &mut order, 3 * MSS);
        assert_eq!(blocks(&order, &ranges), [(2000, 4000), (8000, 9000), (5000, 6000)]);
        // Segment 4 joins 2000–4000 and 5000–6000 into one range.
        arrive(&mut ranges, &mut order, 4 * MSS);
        assert_eq!(blocks(&order, &ranges), [(2000, 6000), (8000, 9000)]);
        // Delivered ranges are no longer reported.
        assert_eq!(ranges.take_reached(2000), 6000);
        order.keep_only(&ranges);
        assert_eq!(blocks(&order, &ranges), [(8000, 9000)]);
    }
}
