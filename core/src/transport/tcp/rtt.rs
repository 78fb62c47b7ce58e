//! RTT sampling: which acknowledgement times which segment.
//!
//! Two rules, chosen per sender:
//! - [`RttTiming::Bsd`], for Reno and NewReno without SACK (the ns-2 agents
//!   the reproduced papers used): one segment is timed per round trip, and
//!   any retransmission abandons the timing (Karn, RFC 6298 §3).
//! - [`RttTiming::PerAck`], for every SACK sender and for CUBIC, DCTCP,
//!   Prague and BBR, as Linux samples (`tcp_clean_rtx_queue`, `tcp_ack_update_rtt`):
//!   every ACK that newly acknowledges, cumulatively or by SACK, a segment
//!   sent only once yields a sample. The RTO estimator gets now − the send
//!   time of the earliest such segment, the congestion control now − that
//!   of the latest. A cumulative ACK yields the sample from the segments it
//!   acknowledges that were not SACKed before; when it yields none, the
//!   segments the ACK newly SACKs yield it. Karn holds: a retransmitted
//!   segment never yields a sample, and a cumulative ACK that covers one
//!   yields no cumulative sample (the retransmission may have provoked it,
//!   and the segments above the hole waited at the receiver).
//!
//! Segments start at multiples of the MSS (the sender never re-segments),
//! so the per-ACK record is one entry per segment in flight, from SND.UNA:
//! memory bounded by the flight and O(1) amortised per ACK. Each entry also
//! carries the segment's delivery-rate stamp ([`super::rate`]), and the
//! record sums what each ACK newly delivers for BBR's rate sample.

use super::rate::{Delivery, RateStamp};
use crate::kernel::Nanos;
use std::collections::VecDeque;

/// An RTT measurement from one ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttSample {
    /// For the RTO estimator (RFC 6298): from the earliest segment acknowledged.
    pub rto: Nanos,
    /// For the congestion control: from the latest segment acknowledged.
    pub cc: Nanos,
}

/// One segment in flight as the per-ACK rule sees it.
#[derive(Clone, Copy, Debug)]
struct SentSegment {
    /// The last transmission (a retransmitted segment never yields an RTT sample).
    sent_at: Nanos,
    retransmitted: bool,
    sacked: bool,
    stamp: RateStamp,
}

/// The earliest and latest send times of the segments one ACK newly acknowledges.
#[derive(Clone, Copy, Default)]
struct SendSpan(Option<(Nanos, Nanos)>);

impl SendSpan {
    fn add(&mut self, sent_at: Nanos) {
        self.0 = Some(self.0.map_or((sent_at, sent_at), |(first, last)| (first.min(sent_at), last.max(sent_at))));
    }

    fn sample(self, now: Nanos) -> Option<RttSample> {
        self.0.map(|(first, last)| RttSample { rto: now - first, cc: now - last })
    }
}

pub enum RttTiming {
    /// The segment being timed: (its end, when it was sent).
    Bsd(Option<(u64, Nanos)>),
    PerAck(SendRecord),
}

impl RttTiming {
    /// Per-ACK sampling for every sender but the ns-2 agents (Reno and
    /// NewReno without SACK), which keep BSD's one-at-a-time timing.
    pub fn for_sender(bsd: bool, mss: u64) -> RttTiming {
        if bsd {
            RttTiming::Bsd(None)
        } else {
            RttTiming::PerAck(SendRecord::new(mss))
        }
    }

    /// A segment [seq, seq + len) went out; `retransmission` if it was
    /// sent before; `stamp` its delivery-rate stamp (kept per ACK only).
    pub fn on_transmit(&mut self, seq: u64, len: u64, retransmission: bool, now: Nanos, stamp: RateStamp) {
        match self {
            // Karn: a retransmission abandons the timing, whose ACK is now ambiguous.
            RttTiming::Bsd(probe) if retransmission => *probe = None,
            RttTiming::Bsd(probe) => *probe = probe.or(Some((seq + len, now))),
            RttTiming::PerAck(record) => record.on_transmit(seq, retransmission, now, stamp),
        }
    }

    /// [left, right) newly SACKed (call before [`RttTiming::on_ack`]).
    pub fn on_sacked(&mut self, left: u64, right: u64) {
        if let RttTiming::PerAck(record) = self {
            record.on_sacked(left, right);
        }
    }

    /// An ACK whose cumulative point is `ack`: the sample it yields.
    pub fn on_ack(&mut self, ack: u64, now: Nanos) -> Option<RttSample> {
        match self {
            RttTiming::Bsd(probe) => {
                let (_, sent_at) = probe.filter(|&(end, _)| ack >= end)?;
                *probe = None;
                Some(RttSample { rto: now - sent_at, cc: now - sent_at })
            }
            RttTiming::PerAck(record) => record.on_ack(ack, now),
        }
    }

    /// What the ACKs since the last call newly delivered (per ACK only).
    pub fn take_delivery(&mut self) -> Delivery {
        match self {
            RttTiming::Bsd(_) => Delivery::default(),
            RttTiming::PerAck(record) => std::mem::take(&mut record.delivery),
        }
    }
}

/// Send time and state of each segment from SND.UNA on.
pub struct SendRecord {
    mss: u64,
    /// Start of the front segment (SND.UNA once anything was acknowledged).
    base: u64,
    segments: VecDeque<SentSegment>,
    /// The segments newly SACKed since the last ACK was sampled.
    sacked_span: SendSpan,
    /// The segments newly acknowledged or SACKed since the last take.
    delivery: Delivery,
}

impl SendRecord {
    fn new(mss: u64) -> SendRecord {
        SendRecord {
            mss,
            base: 0,
            segments: VecDeque::new(),
            sacked_span: SendSpan::default(),
            delivery: Delivery::default(),
        }
    }

    fn index(&self, seq: u64) -> Option<usize> {
        let index = seq.checked_sub(self.base)? / self.mss;
        usize::try_from(index).ok().filter(|&i| i < self.segments.len())
    }

    fn on_transmit(&mut self, seq: u64, retransmission: bool, now: Nanos, stamp: RateStamp) {
        if retransmission {
            if let Some(i) = self.index(seq) {
                self.segments[i] = SentSegment { sent_at: now, retransmitted: true, stamp, ..self.segments[i] };
            }
        } else {
            self.segments.push_back(SentSegment { sent_at: now, retransmitted: false, sacked: false, stamp });
        }
    }

    /// Each segment is newly SACKed once, so this is amortised O(1) per segment.
    fn on_sacked(&mut self, left: u64, right: u64) {
        let left = left.max(self.base);
        if right <= left {
            return;
        }
        let Some(first) = self.index(left) else { return };
        let last = self.index(right.saturating_sub(1)).unwrap_or(self.segments.len() - 1);
        for (i, seg) in self.segments.range_mut(first..=last).enumerate().filter(|(_, s)| !s.sacked) {
            seg.sacked = true;
            if !seg.retransmitted {
                self.sacked_span.add(seg.sent_at);
            }
            let start = self.base + (first + i) as u64 * self.mss;
            self.delivery.add((start + self.mss).min(right) - start, seg.sent_at, seg.stamp);
        }
    }

    /// The cumulative sample if the ACK yields one, else the SACK sample.
    fn on_ack(&mut self, ack: u64, now: Nanos) -> Option<RttSample> {
        let mut cumulative = SendSpan::default();
        let mut covers_retransmission = false;
        while self.base < ack {
            let Some(seg) = self.segments.pop_front() else { break };
            if !seg.sacked {
                self.delivery.add((self.base + self.mss).min(ack) - self.base, seg.sent_at, seg.stamp);
            }
            self.base += self.mss;
            covers_retransmission |= seg.retransmitted;
            if !seg.retransmitted && !seg.sacked {
                cumulative.add(seg.sent_at);
            }
        }
        self.base = self.base.max(ack);
        let sacked = std::mem::take(&mut self.sacked_span);
        let cumulative = if covers_retransmission { None } else { cumulative.sample(now) };
        cumulative.or(sacked.sample(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn per_ack_with_sent(times: &[Nanos]) -> RttTiming {
        let mut t = RttTiming::for_sender(false, MSS);
        for (i, &at) in times.iter().enumerate() {
            t.on_transmit(i as u64 * MSS, MSS, false, at, RateStamp::default());
        }
        t
    }

    #[test]
    fn an_ack_covering_several_segments_gives_rto_the_earliest_and_cc_the_latest() {
        let mut t = per_ack_with_sent(&[0, 10, 20, 30]);
        assert_eq!(t.on_ack(3 * MSS, 100), Some(RttSample { rto: 100, cc: 80 }));
        // Every ACK samples, not one per round trip.
        assert_eq!(t.on_ack(4 * MSS, 130), Some(RttSample { rto: 100, cc: 100 }));
        // A duplicate ACK acknowledges nothing new.
        assert_eq!(t.on_ack(4 * MSS, 140), None);
    }

    #[test]
    fn a_retransmitted_segment_gives_no_sample() {
        let mut t = per_ack_with_sent(&[0, 10, 20]);
        t.on_transmit(0, MSS, true, 50, RateStamp::default());
        // The ACK covers the retransmitted segment: no cumulative sample,
        // though the segments above it were sent once.
        assert_eq!(t.on_ack(2 * MSS, 80), None);
        assert_eq!(t.on_ack(3 * MSS, 90), Some(RttSample { rto: 70, cc: 70 }));
        // A SACKed retransmission yields no SACK sample either.
        let mut t = per_ack_with_sent(&[0, 10, 20]);
        t.on_transmit(MSS, MSS, true, 50, RateStamp::default());
        t.on_sacked(MSS, 2 * MSS);
        assert_eq!(t.on_ack(0, 80), None);
    }

    #[test]
    fn newly_sacked_segments_sample_when_the_cumulative_ack_does_not() {
        let mut t = per_ack_with_sent(&[0, 10, 20, 30]);
        t.on_sacked(MSS, 3 * MSS);
        assert_eq!(t.on_ack(0, 100), Some(RttSample { rto: 90, cc: 80 }));
        // SACKed again: nothing new.
        t.on_sacked(MSS, 3 * MSS);
        assert_eq!(t.on_ack(0, 110), None);
        t.on_sacked(MSS, 4 * MSS);
        assert_eq!(t.on_ack(0, 120), Some(RttSample { rto: 90, cc: 90 }));
        // The hole filled by the original: only it is newly acknowledged
        // cumulatively (the SACKed segments sampled already).
        assert_eq!(t.on_ack(4 * MSS, 150), Some(RttSample { rto: 150, cc: 150 }));
    }

    #[test]
    fn the_cumulative_sample_wins_over_the_sack_sample() {
        let mut t = per_ack_with_sent(&[0, 10, 20, 30]);
        t.on_sacked(3 * MSS, 4 * MSS);
        assert_eq!(t.on_ack(MSS, 100), Some(RttSample { rto: 100, cc: 100 }));
    }

    #[test]
    fn bsd_times_one_segment_per_round_trip_and_a_retransmission_abandons_it() {
        let mut t = RttTiming::for_sender(true, MSS);
        t.on_transmit(0, MSS, false, 0, RateStamp::default());
        t.on_transmit(MSS, MSS, false, 10, RateStamp::default());
        assert_eq!(t.on_ack(MSS, 100), Some(RttSample { rto: 100, cc: 100 }));
        // The second segment was sent while the first was timed: not timed.
        assert_eq!(t.on_ack(2 * MSS, 110), None);
        t.on_transmit(2 * MSS, MSS, false, 120, RateStamp::default());
        t.on_transmit(2 * MSS, MSS, true, 130, RateStamp::default());
        assert_eq!(t.on_ack(3 * MSS, 200), None);
    }
}
