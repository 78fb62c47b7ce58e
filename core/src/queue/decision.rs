//! The drop-and-mark inspector's records: what a monitored queue decided
//! about one packet (drop, mark, or a sampled pass), why, and the scheme's
//! own state at that instant.
//!
//! A scheme declares the names of its state once ([`Qdisc::decision_fields`])
//! and, only while recording is on ([`QueueCtx::recording`]), notes the
//! values for the packet it is deciding about ([`QueueCtx::note`]) just
//! before the verdict. [`QueueCtx::drop`] and [`QueueCtx::drop_or_mark`]
//! turn the note (or none, for a scheme that records no state) into a
//! record; a note still pending when the call returns was a pass. With
//! recording off there is no tap and nothing is allocated or noted.
//!
//! [`Qdisc::decision_fields`]: super::Qdisc::decision_fields
//! [`QueueCtx::recording`]: super::QueueCtx::recording
//! [`QueueCtx::note`]: super::QueueCtx::note
//! [`QueueCtx::drop`]: super::QueueCtx::drop
//! [`QueueCtx::drop_or_mark`]: super::QueueCtx::drop_or_mark

use std::collections::VecDeque;

use super::DropReason;
use crate::kernel::Nanos;
use crate::net::{FlowId, Packet};

/// At most this many state values per decision.
pub const MAX_STATE: usize = 12;

/// One value of a scheme's state as its decisions record it: the CSV column
/// (`id`), the page's words (`label`), the paper's symbol and the unit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct FieldSpec {
    pub id: &'static str,
    pub label: &'static str,
    pub symbol: &'static str,
    pub unit: &'static str,
}

impl FieldSpec {
    pub const fn new(id: &'static str, label: &'static str, symbol: &'static str, unit: &'static str) -> FieldSpec {
        FieldSpec { id, label, symbol, unit }
    }
}

// Fields several schemes record, each declared once.

/// The uniform draw a random verdict compares with its probability.
pub const DRAW: FieldSpec = FieldSpec::new("draw", "uniform random draw", "u", "");
pub const DROP_PROBABILITY: FieldSpec = FieldSpec::new("p", "drop probability", "p", "");
/// RED's moving average of the queue, as RED's relatives keep it too.
pub const AVERAGE_QUEUE: FieldSpec = FieldSpec::new("avg", "average queue", "avg", "buffer");
pub const QUEUE_FOUND: FieldSpec = FieldSpec::new("queued", "queue the arrival found", "q", "buffer");
/// RED's count, which spaces its drops.
pub const COUNT_SINCE_DROP: FieldSpec = FieldSpec::new("count", "arrivals since the last drop", "count", "packets");
/// The queueing delay a delay-based scheme steers to.
pub const TARGET: FieldSpec = FieldSpec::new("target_ms", "target", "target", "ms");

/// What happened to the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Drop,
    Mark,
    Pass,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Drop => "drop",
            Verdict::Mark => "mark",
            Verdict::Pass => "pass",
        }
    }
}

/// Why: a drop's or mark's [`DropReason`], or `Accepted` for a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Early,
    Forced,
    Overflow,
    Accepted,
}

impl Reason {
    /// The stable word the CSV and the page use.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Early => DropReason::Early.as_str(),
            Reason::Forced => DropReason::Forced.as_str(),
            Reason::Overflow => DropReason::Overflow.as_str(),
            Reason::Accepted => "accepted",
        }
    }
}

impl From<DropReason> for Reason {
    fn from(r: DropReason) -> Reason {
        match r {
            DropReason::Early => Reason::Early,
            DropReason::Forced => Reason::Forced,
            DropReason::Overflow => Reason::Overflow,
        }
    }
}

/// The scheme's state for one decision: the first `len` values, in the
/// order of the scheme's declared fields; `len` 0 when it noted none.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct State {
    values: [f64; MAX_STATE],
    len: u8,
}

impl State {
    pub fn new(values: &[f64]) -> State {
        debug_assert!(values.len() <= MAX_STATE, "a decision notes at most {MAX_STATE} values");
        let len = values.len().min(MAX_STATE);
        let mut s = State { values: [0.0; MAX_STATE], len: len as u8 };
        s.values[..len].copy_from_slice(&values[..len]);
        s
    }

    pub fn values(&self) -> &[f64] {
        &self.values[..self.len as usize]
    }
}

/// One decision of a monitored queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub at: Nanos,
    /// The monitored hop (0 for the bottleneck).
    pub hop: usize,
    /// The scenario flow (its index) the packet belongs to.
    pub flow: FlowId,
    pub seq: u64,
    pub size_bytes: u32,
    pub verdict: Verdict,
    pub reason: Reason,
    pub state: State,
}

/// A note's packet and state, waiting for the verdict. Only the first `len`
/// values are the note's: a queue notes for every packet, so the note is
/// written in place and its [`State`] (zeroed beyond `len`) is made only for
/// a record. In WebAssembly a copy or fill of a whole `State` is a call out
/// of the module (`memory.copy`, `memory.fill`); the noted values alone are
/// few enough to be copied inline.
#[derive(Clone, Copy, Debug, Default)]
struct Note {
    flow: FlowId,
    seq: u64,
    size_bytes: u32,
    values: [f64; MAX_STATE],
    len: u8,
}

impl Note {
    fn state(&self) -> State {
        State::new(&self.values[..self.len as usize])
    }
}

/// Every `PASS_SAMPLE`th pass a queue notes is recorded (its 1st, 101st, …),
/// counted per hop: deterministic, and no draw from any RNG.
pub const PASS_SAMPLE: u32 = 100;

/// Where a simulation's queues leave their decisions while recording is on.
/// Records made during one queue call wait until the port settles the call
/// ([`DecisionTap::settle`]) and learns which hop made them.
#[derive(Debug)]
pub struct DecisionTap {
    /// The queue call's note, if `noted`.
    note: Note,
    noted: bool,
    unsettled: Vec<Decision>,
    records: VecDeque<Decision>,
    /// The newest records kept; older ones are let go.
    capacity: usize,
    passes_seen: Vec<u32>,
}

impl DecisionTap {
    /// A tap keeping at most the newest `capacity` records until taken.
    pub fn new(capacity: usize) -> DecisionTap {
        DecisionTap {
            note: Note::default(),
            noted: false,
            unsettled: Vec::new(),
            records: VecDeque::new(),
            capacity,
            passes_seen: Vec::new(),
        }
    }

    pub(crate) fn note(&mut self, pkt: &Packet, values: &[f64]) {
        debug_assert!(values.len() <= MAX_STATE, "a decision notes at most {MAX_STATE} values");
        let len = values.len().min(MAX_STATE);
        let note = &mut self.note;
        (note.flow, note.seq, note.size_bytes, note.len) = (pkt.owner, pkt.seq, pkt.size_bytes, len as u8);
        note.values[..len].copy_from_slice(&values[..len]);
        self.noted = true;
    }

    /// `pkt` was dropped or marked at `at`: the pending note, if any, is its state.
    pub(crate) fn verdict(&mut self, at: Nanos, pkt: &Packet, verdict: Verdict, reason: DropReason) {
        let state = if std::mem::take(&mut self.noted) { self.note.state() } else { State::default() };
        self.unsettled.push(Decision {
            at,
            hop: 0,
            flow: pkt.owner,
            seq: pkt.seq,
            size_bytes: pkt.size_bytes,
            verdict,
            reason: reason.into(),
            state,
        });
    }

    /// The queue call at `at` is over: its records belong to monitored hop
    /// `hop`, or are let go for a queue no hop monitors; a note still
    /// pending was a pass, kept if it is the hop's sampled one.
    pub fn settle(&mut self, at: Nanos, hop: Option<usize>) {
        let pass = std::mem::take(&mut self.noted);
        let Some(hop) = hop else {
            self.unsettled.clear();
            return;
        };
        for mut d in self.unsettled.drain(..) {
            d.hop = hop;
            self.records.push_back(d);
        }
        if pass {
            if self.passes_seen.len() <= hop {
                self.passes_seen.resize(hop + 1, 0);
            }
            let seen = &mut self.passes_seen[hop];
            if *seen % PASS_SAMPLE == 0 {
                let n = &self.note;
                let (flow, seq, size_bytes, state) = (n.flow, n.seq, n.size_bytes, n.state());
                let verdict = Verdict::Pass;
                self.records.push_back(Decision {
                    at,
                    hop,
                    flow,
                    seq,
                    size_bytes,
                    verdict,
                    reason: Reason::Accepted,
                    state,
                });
            }
            *seen = seen.wrapping_add(1);
        }
        while self.records.len() > self.capacity {
            self.records.pop_front();
        }
    }

    /// The records since the last take, oldest first.
    pub fn take(&mut self) -> Vec<Decision> {
        self.records.drain(..).collect()
    }
}

/// The CSV header of decisions recording `fields`: `t_s,flow,verdict,reason`,
/// the fields' ids, then the packet's `hop,seq,size_bytes`.
pub fn csv_header(fields: &[FieldSpec]) -> String {
    let mut columns = vec!["t_s", "flow", "verdict", "reason"];
    columns.extend(fields.iter().map(|f| f.id));
    columns.extend(["hop", "seq", "size_bytes"]);
    columns.join(",") + "\n"
}

/// Append one CSV row per decision to `out`, in [`csv_header`]'s columns
/// for a scheme of `width` fields; a decision without state leaves its
/// cells empty. Time is exact to the nanosecond.
pub fn csv_rows(decisions: &[Decision], width: usize, out: &mut String) {
    use std::fmt::Write;
    for d in decisions {
        let (s, ns) = (d.at / 1_000_000_000, d.at % 1_000_000_000);
        let _ = write!(out, "{s}.{ns:09},{},{},{}", d.flow, d.verdict.as_str(), d.reason.as_str());
        let values = d.state.values();
        for i in 0..width {
            out.push(',');
            if let Some(v) = values.get(i).filter(|v| !v.is_nan()) {
                let _ = write!(out, "{v}");
            }
        }
        let _ = writeln!(out, ",{},{},{}", d.hop, d.seq, d.size_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Dir, PacketKind};

    fn packet(seq: u64) -> Packet {
        let mut p = Packet::new(3, PacketKind::Data, Dir::Forward, 1000, 960);
        p.seq = seq;
        p
    }

    #[test]
    fn a_hop_keeps_every_hundredth_pass_and_every_drop() {
        let mut tap = DecisionTap::new(usize::MAX);
        for seq in 0..250 {
            tap.note(&packet(seq), &[seq as f64]);
            if seq % 50 == 7 {
                tap.verdict(seq, &packet(seq), Verdict::Drop, DropReason::Early);
            }
            tap.settle(seq, Some(1));
        }
        let kept = tap.take();
        let passes: Vec<u64> = kept.iter().filter(|d| d.verdict == Verdict::Pass).map(|d| d.seq).collect();
        // 245 passes: the 1st, 101st and 201st are kept (seq 0, 102 and 204).
        assert_eq!(passes, [0, 102, 204]);
        let drops: Vec<u64> = kept.iter().filter(|d| d.verdict == Verdict::Drop).map(|d| d.seq).collect();
        assert_eq!(drops, [7, 57, 107, 157, 207]);
        assert!(kept.iter().all(|d| d.hop == 1 && d.state.values() == [d.seq as f64]));
    }

    #[test]
    fn a_queue_no_hop_monitors_keeps_nothing_and_the_newest_are_kept() {
        let mut tap = DecisionTap::new(2);
        tap.verdict(1, &packet(1), Verdict::Drop, DropReason::Overflow);
        tap.settle(1, None);
        assert!(tap.take().is_empty());
        for seq in 0..5 {
            tap.verdict(seq, &packet(seq), Verdict::Mark, DropReason::Early);
            tap.settle(seq, Some(0));
        }
        assert_eq!(tap.take().iter().map(|d| d.seq).collect::<Vec<_>>(), [3, 4]);
    }

    #[test]
    fn csv_rows_follow_the_header_and_leave_missing_state_empty() {
        let fields = [AVERAGE_QUEUE, FieldSpec::new("p_a", "p", "p_a", "")];
        assert_eq!(csv_header(&fields), "t_s,flow,verdict,reason,avg,p_a,hop,seq,size_bytes\n");
        let mut tap = DecisionTap::new(usize::MAX);
        tap.note(&packet(9), &[7.5, 0.25]);
        tap.verdict(1_000_000_007, &packet(9), Verdict::Drop, DropReason::Early);
        tap.verdict(2_500_000_000, &packet(10), Verdict::Drop, DropReason::Overflow);
        tap.settle(2_500_000_000, Some(0));
        let mut out = String::new();
        csv_rows(&tap.take(), fields.len(), &mut out);
        assert_eq!(out, "1.000000007,3,drop,early,7.5,0.25,0,9,1000\n2.500000000,3,drop,overflow,,,0,10,1000\n");
    }
}
