//! TCP: Reno and NewReno as the ns-2 agents the reproduced papers used, and
//! for today's Internet SACK (RFC 2018, RFC 6675 recovery) and CUBIC (RFC
//! 9438). A one-way bulk or finite transfer with no handshake, byte
//! sequence numbers from 0 (no wraparound), cwnd in bytes, and every segment
//! a full MSS except the last one of a finite transfer.
//!
//! The sender is an explicit state machine ([`TcpState`]); each RFC rule is
//! a small method named after it. How the window grows in congestion
//! avoidance and how far it falls at a congestion event is a policy
//! ([`cc::CongestionControl`]: Reno's for Reno and NewReno, or CUBIC's);
//! loss recovery is the sender's: Reno's, NewReno's (also CUBIC's without
//! SACK) or, with SACK, RFC 6675's whatever the policy. Where the RFCs
//! leave room:
//! - FlightSize is everything sent and not yet acknowledged (`snd_max −
//!   snd_una`), so a repeated timeout of the same segment yields the same
//!   ssthresh, as RFC 5681 §3.1 asks.
//! - Slow start adds min(bytes acked, MSS) per new ACK (no ABC); congestion
//!   avoidance adds max(1, MSS²/cwnd) per new ACK in integer bytes.
//! - An ACK carrying ECN-Echo never grows cwnd (RFC 3168 §6.1.2).
//! - Fast retransmit requires the cumulative ACK to cover `recover` for
//!   both variants (RFC 6582 §3.2; ns-2 applied it to Reno too as
//!   `bug_fix_`), and restarts the RTO timer as ns-2 did.
//! - NewReno is the "Impatient" variant (the RTO timer is reset on the first
//!   partial ACK only) and leaves recovery with cwnd = min(ssthresh,
//!   max(FlightSize, MSS) + MSS), RFC 6582's burst-avoiding option.
//! - No limited transmit (RFC 3042) without SACK: ns-2's Reno and NewReno had none.
//! - RTO: initial 1 s (RFC 6298 §2.1; ns-2 used 3 s), clock granularity
//!   G = 1 ms, 60 s cap. A new RTT sample clears the exponential backoff
//!   (RFC 6298 §5, the note on "collapsing" RTO).
//! - RTT samples ([`rtt`]): Reno and NewReno without SACK time one segment
//!   at a time like BSD, and any retransmission abandons the timing (Karn);
//!   every other sender samples on every ACK as Linux does, the earliest
//!   newly acknowledged segment sent once for the RTO, the latest for the
//!   congestion control.
//! - A timeout goes back N: snd_nxt returns to snd_una and the send rule
//!   resends from the hole as cwnd grows, as ns-2 did.
//! - One reduction per window for losses and CE marks together (RFC 3168
//!   §6.1.2): a fast retransmit of a segment sent before an ECN reduction
//!   keeps the ssthresh that reduction set.
//! - `stop()` caps the data at what was already sent, so a stopped bulk
//!   sender also ends in `Done` once that is acknowledged.
//! - `probe()` shows cwnd without fast-recovery inflation, as ns-2 traced it.
//! - SACK (see [`sack`]): recovery starts on the third duplicate ACK or as
//!   soon as IsLost(HighACK + 1) holds, sets cwnd = ssthresh (no
//!   inflation) and sends by pipe and NextSeg() until the cumulative ACK
//!   reaches RecoveryPoint; every new ACK restarts the RTO (RFC 6298 §5.3).
//!   Every ACK that does not advance counts as a duplicate, new SACK
//!   information or not (RFC 6675 §2 asks for new information; the
//!   ACKs without it answer resent data, and `recover` keeps those after
//!   a timeout from starting a recovery).
//!   Outside recovery the send rule counts only bytes not SACKed as in
//!   flight, which gives RFC 6675 §5 step (2)'s limited transmit on the
//!   first duplicate ACKs. After a timeout the scoreboard is kept (the
//!   receiver never reneges here) and going back N skips SACKed segments;
//!   a timeout during SACK recovery keeps the ssthresh recovery set
//!   (RFC 6675 detects no lost retransmission, so a dropped one ends in a
//!   timeout while new data has swollen FlightSize).
//! - BBR with SACK repairs losses as ns-3's `TcpSocketBase` does, since
//!   its results are checked against ns-3's (`sack::RecoveryRules::Ns3`):
//!   after a timeout the scoreboard picks what to send until the cumulative
//!   ACK passes the data sent before it, resending only below the highest
//!   SACK; the pipe keeps a resent segment until it is cumulatively
//!   acknowledged; recovery ends with cwnd = ssthresh.
//! - The receiver advertises no window: the sender applies `rwnd_packets`
//!   itself. With delayed ACKs the receiver ACKs every second segment,
//!   whatever its size, and otherwise after 100 ms (ns-2's DelAckSink
//!   interval); out-of-order, duplicate and hole-filling segments are ACKed
//!   at once. With SACK every ACK carries up to four blocks, the most
//!   recent first (RFC 2018 §4), and is 8·n + 2 bytes longer on the wire.
//! - ECN: the sender marks new data with the codepoint it was given, ECT(0)
//!   or ECT(1). The receiver's feedback follows the sender's `cc`: classic
//!   ECE until CWR (RFC 3168 §6.1) for Reno, NewReno and CUBIC; for DCTCP
//!   and Prague an accurate count of CE packets in Accurate ECN's ACE field
//!   (draft-ietf-tcpm-accurate-ecn §3.2; RFC 8257 §3.2 asks for one echo
//!   per CE packet, which a count carries whatever the ACK rate). The count
//!   starts at 0 (the draft's 5 detects middleboxes that zero it) and the
//!   sender reads each ACK's increase modulo 8; with an ACK at least every
//!   second segment fewer than 8 marks ride on one ACK.
//! - Pacing, when on: the rate is Linux's `tcp_update_pacing_rate`, 200 %
//!   of max(cwnd, FlightSize)/SRTT while cwnd < ssthresh/2 (slow start
//!   short of its end) and 120 % after, and each segment the window allows
//!   waits until the previous one's length at that rate has passed (Linux's
//!   internal pacing, `tcp_wstamp_ns`). No pacing before the first RTT
//!   sample. The retransmissions that fast retransmit, the start of SACK
//!   recovery and NewReno's partial ACKs order go at once, but still push
//!   the next segment's time back; after a timeout, going back N is paced.

pub mod cc;
mod ranges;
pub mod rate;
pub mod rtt;
pub mod sack;

use super::{Agent, AgentCtx, AgentProbe, TimerId};
use crate::kernel::{Nanos, NS_PER_MS, NS_PER_S};
use crate::net::{
    sack_option_bytes, Dir, Ecn, Packet, PacketKind, SackBlocks, ACE_MODULUS, ACK_BYTES, TCP_HEADER_BYTES,
};
use cc::bbr::{AckState, Bbr};
use cc::CongestionControl;
use ranges::Ranges;
use rate::RateStamp;
use rtt::RttTiming;
use sack::{NextSeg, RecoveryRules, SackOrder, Scoreboard};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcVariant {
    Reno,
    NewReno,
    /// RFC 9438; recovers like NewReno without SACK.
    Cubic,
    /// RFC 8257; recovers like NewReno without SACK.
    Dctcp,
    /// draft-briscoe-iccrg-prague-congestion-control-04; recovers like
    /// NewReno without SACK.
    Prague,
    /// BBR v1 ([`cc::bbr`]): sets cwnd and the pacing rate from its model.
    Bbr,
}

/// How the receiver reports the CE marks it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnFeedback {
    /// RFC 3168 §6.1.3: ECE on every ACK from a CE mark until CWR.
    Classic,
    /// draft-ietf-tcpm-accurate-ecn: a running count of CE packets (ACE).
    Accurate,
}

impl CcVariant {
    /// The feedback this sender needs: DCTCP reacts to the extent of
    /// marking, so it needs every mark counted.
    pub fn ecn_feedback(self) -> EcnFeedback {
        match self {
            CcVariant::Reno | CcVariant::NewReno | CcVariant::Cubic | CcVariant::Bbr => EcnFeedback::Classic,
            CcVariant::Dctcp | CcVariant::Prague => EcnFeedback::Accurate,
        }
    }
}

/// Per-flow TCP configuration (docs/scenario-format.md TCP knobs).
#[derive(Clone, Debug)]
pub struct TcpConfig {
    pub cc: CcVariant,
    /// Payload bytes per full segment (MSS); the wire size is this + 40.
    pub segment_bytes: u32,
    pub min_rto_ns: Nanos,
    pub initial_cwnd_packets: u32,
    pub delayed_ack: bool,
    /// Receiver window in segments; None = unlimited.
    pub rwnd_packets: Option<u32>,
    /// The ECN codepoint new data carries; `Ecn::NotEct` for no ECN.
    pub ecn: Ecn,
    /// Pace segments at Linux's pacing rate (see the module doc); BBR
    /// always paces, at its own rate.
    pub pacing: bool,
    /// Selective acknowledgements (RFC 2018) and SACK-based loss recovery (RFC 6675).
    pub sack: bool,
    /// Bytes the application sends; None = bulk (infinite) transfer.
    pub transfer_bytes: Option<u64>,
    /// CUBIC's slow-start exit and look-ahead RTT (ignored by other `cc`).
    pub cubic: cc::cubic::CubicOptions,
}

impl TcpConfig {
    /// BSD's RTT timing, one segment per round trip, for the ns-2 agents
    /// the reproduced papers used (Reno and NewReno without SACK); every
    /// other sender samples on every ACK as Linux does (see [`rtt`]).
    pub fn times_one_segment_per_round_trip(&self) -> bool {
        !self.sack && matches!(self.cc, CcVariant::Reno | CcVariant::NewReno)
    }
}

/// RFC 6298 §2.1: the RTO before any RTT sample.
const INITIAL_RTO_NS: Nanos = NS_PER_S;
/// RFC 6298 §2.5: the RTO may be capped, at no less than 60 s.
const MAX_RTO_NS: Nanos = 60 * NS_PER_S;
/// RFC 6298's clock granularity G: keeps the RTO above SRTT once RTTVAR has
/// decayed on a jitter-free simulated path.
const CLOCK_GRANULARITY_NS: Nanos = NS_PER_MS;
/// RFC 5681 §3.2: the duplicate ACK that signals a loss.
const DUPACK_THRESHOLD: u32 = 3;
/// Delayed-ACK timeout: ns-2's DelAckSink interval (RFC 5681 §4.2 allows up to 500 ms).
const DELACK_TIMEOUT_NS: Nanos = 100 * NS_PER_MS;

/// One logical timer over the kernel's cancel-free timers. It keeps a
/// deadline and at most one live event: moving the deadline later costs no
/// event (the live one re-arms itself when it fires early), and events it
/// has superseded carry an older id and are ignored.
#[derive(Default)]
pub(super) struct Timer {
    deadline: Option<Nanos>,
    live: Option<(Nanos, TimerId)>,
    next_id: TimerId,
    /// Set in every id this timer schedules, so that two timers of one
    /// agent never share an id.
    tag: TimerId,
}

/// The tag of a sender's pacing timer: a bit its RTO timer's ids do not
/// reach, below the 32 bits a web client keeps per connection.
const PACING_TIMER_TAG: TimerId = 1 << 31;

impl Timer {
    fn tagged(tag: TimerId) -> Timer {
        Timer { tag, ..Timer::default() }
    }

    pub(super) fn set(&mut self, at: Nanos, ctx: &mut AgentCtx) {
        self.deadline = Some(at);
        if self.live.is_none_or(|(live_at, _)| at < live_at) {
            self.schedule(at, ctx);
        }
    }

    pub(super) fn clear(&mut self) {
        self.deadline = None;
    }

    pub(super) fn is_set(&self) -> bool {
        self.deadline.is_some()
    }

    /// Event `id` fired: true when the deadline has passed (it is then cleared).
    pub(super) fn fired(&mut self, id: TimerId, ctx: &mut AgentCtx) -> bool {
        if self.live.map(|(_, live_id)| live_id) != Some(id) {
            return false;
        }
        self.live = None;
        match self.deadline {
            Some(d) if d <= ctx.now => {
                self.deadline = None;
                true
            }
            Some(d) => {
                self.schedule(d, ctx);
                false
            }
            None => false,
        }
    }

    fn schedule(&mut self, at: Nanos, ctx: &mut AgentCtx) {
        self.next_id = self.next_id.wrapping_add(1);
        let id = self.next_id | self.tag;
        self.live = Some((at, id));
        ctx.set_timer(at, id);
    }
}

/// The sender's congestion-control state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpState {
    /// cwnd < ssthresh: cwnd grows by up to one MSS per new ACK.
    SlowStart,
    /// cwnd ≥ ssthresh: cwnd grows by about one MSS per round trip.
    CongestionAvoidance,
    /// From a fast retransmit until the loss is repaired.
    FastRecovery,
    /// A finite (or stopped) transfer is fully acknowledged; nothing more is sent.
    Done,
}

/// The data source: sends segments, reacts to ACKs and its RTO timer.
pub struct TcpSender {
    cc: CcVariant,
    /// Window growth and reduction: Reno's, CUBIC's, DCTCP's or Prague's; None for BBR.
    policy: Option<Box<dyn CongestionControl>>,
    /// BBR's model, which sets cwnd and the pacing rate on every ACK.
    bbr: Option<Box<Bbr>>,
    /// Bytes resent since the last ACK: the losses BBR hears of.
    resent_since_ack: u64,
    /// Bytes the last ACK newly acknowledged or SACKed (BBR only).
    acked_sacked: u64,
    sack: bool,
    scoreboard: Scoreboard,
    mss: u64,
    min_rto: Nanos,
    /// The codepoint of new data; `Ecn::NotEct` when ECN is off.
    ecn: Ecn,
    feedback: EcnFeedback,
    /// The last ACE count read (accurate feedback).
    ace_seen: u8,
    pacing: bool,
    /// The earliest time pacing lets the next segment go.
    next_send_at: Nanos,
    pacing_timer: Timer,
    /// `rwnd_packets` in bytes; u64::MAX when unlimited.
    rwnd: u64,
    /// One past the last byte the application offers; None = unlimited.
    end: Option<u64>,
    state: TcpState,
    /// Oldest unacknowledged byte.
    snd_una: u64,
    /// Next byte to send; below `snd_max` after a timeout (go-back-N).
    snd_nxt: u64,
    /// One past the highest byte ever sent.
    snd_max: u64,
    cwnd: u64,
    ssthresh: u64,
    dupacks: u32,
    /// RFC 6582's `recover`, stored one past the highest byte sent then, so
    /// "the ACK covers more than recover" reads `ack >= recover`.
    recover: u64,
    /// `snd_max` at the last window reduction (loss or ECN): the window of
    /// data that reduction answered for.
    reduced_until: u64,
    partial_ack_seen: bool,
    /// Set CWR on the next new data packet (RFC 3168 §6.1.2).
    cwr_pending: bool,
    srtt: Option<Nanos>,
    rttvar: Nanos,
    rto: Nanos,
    /// Which ACK times which segment (BSD's or Linux's rule, see [`rtt`]).
    rtt: RttTiming,
    rto_timer: Timer,
    retransmits: u64,
    timeouts: u64,
    ecn_reductions: u64,
}

impl TcpSender {
    pub fn new(cfg: &TcpConfig) -> TcpSender {
        let mss = cfg.segment_bytes.max(1) as u64;
        let rwnd = cfg.rwnd_packets.map_or(u64::MAX, |w| (w as u64).saturating_mul(mss));
        let initial_cwnd = cfg.initial_cwnd_packets.max(1) as u64 * mss;
        let policy: Option<Box<dyn CongestionControl>> = match cfg.cc {
            CcVariant::Reno | CcVariant::NewReno => Some(Box::new(cc::Reno)),
            CcVariant::Cubic => Some(Box::new(cc::Cubic::new(cfg.cubic))),
            CcVariant::Dctcp => Some(Box::new(cc::Dctcp::default())),
            CcVariant::Prague => Some(Box::new(cc::Prague::default())),
            CcVariant::Bbr => None,
        };
        // Made again at start(), when its clock begins.
        let bbr = (cfg.cc == CcVariant::Bbr).then(|| Box::new(Bbr::new(0, initial_cwnd, mss)));
        TcpSender {
            cc: cfg.cc,
            policy,
            bbr,
            resent_since_ack: 0,
            acked_sacked: 0,
            sack: cfg.sack,
            scoreboard: Scoreboard::new(match cfg.cc {
                CcVariant::Bbr => RecoveryRules::Ns3,
                _ => RecoveryRules::Rfc6675,
            }),
            mss,
            min_rto: cfg.min_rto_ns,
            ecn: cfg.ecn,
            feedback: cfg.cc.ecn_feedback(),
            ace_seen: 0,
            pacing: cfg.pacing || cfg.cc == CcVariant::Bbr,
            next_send_at: 0,
            pacing_timer: Timer::tagged(PACING_TIMER_TAG),
            rwnd,
            end: cfg.transfer_bytes,
            state: TcpState::SlowStart,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cwnd: initial_cwnd,
            // RFC 5681 §3.1: "arbitrarily high", e.g. the receiver's window.
            ssthresh: rwnd,
            dupacks: 0,
            recover: 0,
            reduced_until: 0,
            partial_ack_seen: false,
            cwr_pending: false,
            srtt: None,
            rttvar: 0,
            rto: INITIAL_RTO_NS.max(cfg.min_rto_ns).min(MAX_RTO_NS),
            rtt: RttTiming::for_sender(cfg.times_one_segment_per_round_trip(), mss),
            rto_timer: Timer::default(),
            retransmits: 0,
            timeouts: 0,
            ecn_reductions: 0,
        }
    }

    pub fn state(&self) -> TcpState {
        self.state
    }

    pub fn cwnd_bytes(&self) -> u64 {
        self.cwnd
    }

    /// u64::MAX until the first reduction when no receiver window is set.
    pub fn ssthresh_bytes(&self) -> u64 {
        self.ssthresh
    }

    /// The current retransmission timeout, backoff included.
    pub fn rto_ns(&self) -> Nanos {
        self.rto
    }

    pub fn srtt_ns(&self) -> Option<Nanos> {
        self.srtt
    }

    /// Oldest unacknowledged byte: the bytes acknowledged so far.
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }

    /// Segments sent again, by fast retransmit, partial ACKs or timeouts.
    pub fn retransmits(&self) -> u64 {
        self.retransmits
    }

    pub fn timeouts(&self) -> u64 {
        self.timeouts
    }

    /// Window reductions in answer to ECN-Echo.
    pub fn ecn_reductions(&self) -> u64 {
        self.ecn_reductions
    }

    pub fn is_done(&self) -> bool {
        self.state == TcpState::Done
    }

    fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// cwnd without fast-recovery inflation.
    fn uninflated_cwnd(&self) -> u64 {
        if self.state == TcpState::FastRecovery {
            self.cwnd.min(self.ssthresh)
        } else {
            self.cwnd
        }
    }

    /// A congestion event's new ssthresh, from the policy: RFC 5681 §3.1
    /// equation (4) for Reno, FlightSize·β for CUBIC (RFC 9438 §4.6).
    /// BBR keeps ssthresh (ns-3's `GetSsThresh`).
    fn reduced_ssthresh(&mut self) -> u64 {
        let (cwnd, flight) = (self.uninflated_cwnd(), self.flight_size());
        self.policy.as_mut().map_or(self.ssthresh, |p| p.on_congestion(cwnd, flight, self.mss))
    }

    /// RFC 5681 §3.1: slow start below ssthresh, congestion avoidance from it on.
    fn open_state(&self) -> TcpState {
        if self.cwnd < self.ssthresh {
            TcpState::SlowStart
        } else {
            TcpState::CongestionAvoidance
        }
    }

    /// Length of the segment starting at `seq`, None past the application's data.
    fn segment_len(&self, seq: u64) -> Option<u64> {
        let end = self.end.unwrap_or(u64::MAX);
        (seq < end).then(|| self.mss.min(end - seq))
    }

    /// RFC 5681 §3.1 and §3.2 step 5: send from snd_nxt while the flight
    /// plus the segment fits in min(cwnd, rwnd), cwnd being inflated during
    /// fast recovery.
    fn send_what_the_window_allows(&mut self, ctx: &mut AgentCtx) {
        if self.sack_scoreboard_sends() {
            self.send_in_sack_recovery(ctx);
            return;
        }
        let window = self.cwnd.min(self.rwnd);
        while let Some(len) = self.segment_len(self.snd_nxt) {
            // Going back N after a timeout, skip what the receiver holds.
            if self.snd_nxt < self.snd_max && self.scoreboard.covers(self.snd_nxt, self.snd_nxt + len) {
                self.snd_nxt += len;
                continue;
            }
            let sacked = if self.sack { self.scoreboard.sacked_below(self.snd_nxt) } else { 0 };
            if self.snd_nxt - self.snd_una - sacked + len > window || self.paced_out(ctx) {
                break;
            }
            self.transmit(self.snd_nxt, len, ctx);
            self.snd_nxt += len;
            self.snd_max = self.snd_max.max(self.snd_nxt);
        }
    }

    /// With SACK, the scoreboard picks what to send in a recovery and after
    /// a timeout until the cumulative ACK passes the data sent before it.
    fn sack_scoreboard_sends(&self) -> bool {
        self.sack && (self.state == TcpState::FastRecovery || self.scoreboard.repairing_timeout())
    }

    /// RFC 6675 §5 step (C): while cwnd − pipe ≥ 1 SMSS, send what
    /// NextSeg() picks; each segment sent adds to the pipe (C.4).
    fn send_in_sack_recovery(&mut self, ctx: &mut AgentCtx) {
        let mut pipe = self.scoreboard.pipe(self.snd_una, self.snd_max, self.mss);
        while self.cwnd >= pipe + self.mss && !self.paced_out(ctx) {
            let new_data = self.segment_len(self.snd_max).filter(|&len| self.snd_max - self.snd_una + len <= self.rwnd);
            match self.scoreboard.next_seg(self.snd_una, self.snd_max, self.mss, new_data.is_some()) {
                Some(NextSeg::Retransmit(start, end)) => {
                    self.transmit(start, end - start, ctx);
                    self.scoreboard.note_retransmit(end);
                    pipe += end - start;
                }
                Some(NextSeg::NewData) => {
                    let len = new_data.unwrap_or(0);
                    self.transmit(self.snd_max, len, ctx);
                    self.snd_max += len;
                    self.snd_nxt = self.snd_max;
                    pipe += len;
                }
                Some(NextSeg::Rescue(start, end)) => {
                    self.transmit(start, end - start, ctx);
                    self.scoreboard.note_rescue(self.recover);
                    pipe += end - start;
                }
                None => break,
            }
        }
    }

    fn retransmit_first_unacked(&mut self, ctx: &mut AgentCtx) {
        if let Some(len) = self.segment_len(self.snd_una) {
            self.transmit(self.snd_una, len, ctx);
        }
    }

    /// Put one segment on the wire. Retransmissions are neither ECN-capable
    /// (RFC 3168 §6.1.5) nor timed (Karn, RFC 6298 §3).
    fn transmit(&mut self, seq: u64, len: u64, ctx: &mut AgentCtx) {
        let payload = len as u32; // len ≤ MSS, which came from a u32
        let mut pkt = Packet::new(ctx.flow, PacketKind::Data, Dir::Forward, payload + TCP_HEADER_BYTES, payload);
        pkt.seq = seq;
        let retransmission = seq < self.snd_max;
        let idle = self.bbr.is_some() && self.nothing_in_flight();
        let stamp = self.bbr.as_mut().map_or(RateStamp::default(), |bbr| bbr.rates.on_send(ctx.now, idle));
        if retransmission {
            if self.sack {
                self.scoreboard.note_resent(seq);
            }
            self.resent_since_ack += len;
            self.retransmits += 1;
        } else {
            pkt.ecn = self.ecn;
            pkt.cwr = std::mem::take(&mut self.cwr_pending);
        }
        self.rtt.on_transmit(seq, len, retransmission, ctx.now, stamp);
        ctx.send(pkt);
        if self.pacing {
            self.next_send_at = ctx.now + self.pacing_gap(len);
        }
        // RFC 6298 §5.1: start the timer if it is not running.
        if !self.rto_timer.is_set() {
            self.rto_timer.set(ctx.now + self.rto, ctx);
        }
    }

    /// Nothing in flight by the send rule's count: at the start, after a
    /// timeout without SACK, and whenever the scoreboard's pipe is empty
    /// (ns-3's `BytesInFlight() == 0` on sending).
    fn nothing_in_flight(&self) -> bool {
        match self.sack_scoreboard_sends() {
            true => self.scoreboard.pipe(self.snd_una, self.snd_max, self.mss) == 0,
            false => self.snd_nxt == self.snd_una,
        }
    }

    fn on_ack(&mut self, pkt: &Packet, ctx: &mut AgentCtx) {
        let prior_inflight = self.bbr_inflight();
        if self.sack {
            // RFC 6675 §4 Update(); blocks above snd_max acknowledge nothing we sent.
            let snd_max = self.snd_max;
            let sack = pkt.sack();
            let blocks = sack.ranges(pkt.ack).map(|(l, r)| (l, r.min(snd_max)));
            self.scoreboard.update(pkt.ack, blocks, |l, r| self.rtt.on_sacked(l, r));
        }
        let acked = pkt.ack - self.snd_una;
        if let Some(policy) = self.policy.as_mut() {
            policy.on_ack_clock(ctx.now, self.srtt, self.state == TcpState::SlowStart);
        }
        let (echo, marked) = match self.feedback {
            EcnFeedback::Classic => (pkt.ece, 0),
            EcnFeedback::Accurate => {
                let marks = self.count_ce_marks(pkt.ace, acked);
                (marks > 0, (marks * self.mss).min(acked))
            }
        };
        self.sample_rtt(pkt.ack, ctx);
        if pkt.ack > self.snd_una {
            self.on_new_ack(pkt.ack, echo, acked - marked, ctx);
        } else if self.snd_una < self.snd_max {
            self.on_duplicate_ack(ctx);
        }
        if echo {
            self.ecn_echo();
        }
        self.finish_if_complete();
        if self.state != TcpState::Done {
            self.bbr_control(prior_inflight, ctx);
            self.send_what_the_window_allows(ctx);
        }
    }

    /// BBR's count of bytes in flight: FlightSize less what is SACKed, and
    /// in SACK recovery the pipe (ns-3's `BytesInFlight`).
    fn bbr_inflight(&self) -> u64 {
        if self.bbr.is_none() {
            return 0;
        }
        if self.sack_scoreboard_sends() {
            return self.scoreboard.pipe(self.snd_una, self.snd_max, self.mss);
        }
        let sacked = if self.sack { self.scoreboard.sacked_below(self.snd_max) } else { 0 };
        self.flight_size().saturating_sub(sacked)
    }

    /// BBR on every ACK: the rate sample, then its model's cwnd (and the
    /// ssthresh it sets on leaving Startup).
    fn bbr_control(&mut self, prior_inflight: u64, ctx: &mut AgentCtx) {
        let inflight = self.bbr_inflight();
        let Some(bbr) = self.bbr.as_mut() else { return };
        let rs = bbr.rates.sample(std::mem::take(&mut self.resent_since_ack), prior_inflight);
        let in_recovery = self.state == TcpState::FastRecovery;
        let ack = AckState { now: ctx.now, cwnd: self.cwnd, inflight, in_recovery };
        let (cwnd, ssthresh) = bbr.on_ack(ack, rs, ctx.rng);
        self.cwnd = cwnd;
        self.ssthresh = ssthresh.unwrap_or(self.ssthresh);
        if !in_recovery {
            self.state = self.open_state();
        }
        // ns-3's `CalculateAppLimited`: no segment left to send and room in cwnd.
        if self.segment_len(self.snd_max).is_none() && inflight < self.cwnd {
            if let Some(bbr) = self.bbr.as_mut() {
                bbr.rates.note_app_limited(inflight);
            }
        }
    }

    /// BBR leaves loss recovery; returns cwnd. TcpBbr restores the cwnd it
    /// saved, then ns-3's `TcpSocketBase` sets cwnd = ssthresh as for any
    /// congestion control: for BBR the BDP it set on entering Drain.
    fn bbr_exit_recovery(&mut self) -> u64 {
        let restored = self.bbr.as_mut().map_or(self.cwnd, |bbr| bbr.exit_recovery(self.cwnd));
        if self.ssthresh == u64::MAX {
            restored
        } else {
            self.ssthresh
        }
    }

    /// BBR enters loss recovery with `pipe` bytes in flight; returns cwnd.
    fn bbr_enter_recovery(&mut self, pipe: u64) -> u64 {
        let (cwnd, acked) = (self.cwnd, self.acked_sacked);
        self.bbr.as_mut().map_or(cwnd, |bbr| bbr.enter_recovery(cwnd, pipe, acked))
    }

    /// A new cumulative ACK; `unmarked` of the bytes it acknowledges were
    /// not reported CE-marked.
    fn on_new_ack(&mut self, ack: u64, ece: bool, unmarked: u64, ctx: &mut AgentCtx) {
        let acked = ack - self.snd_una;
        self.snd_una = ack;
        // After a go-back-N timeout the receiver may acknowledge past snd_nxt.
        self.snd_nxt = self.snd_nxt.max(ack);
        self.dupacks = 0;
        let restart_rto = match (self.state, self.cc) {
            (TcpState::FastRecovery, _) if self.sack => {
                if ack >= self.recover {
                    self.sack_exit_recovery();
                }
                true
            }
            (TcpState::FastRecovery, CcVariant::Reno) => {
                self.reno_exit_fast_recovery();
                true
            }
            (TcpState::FastRecovery, _) if ack < self.recover => self.newreno_partial_ack(acked, ctx),
            (TcpState::FastRecovery, _) => {
                self.newreno_full_ack();
                true
            }
            // BBR sets cwnd after the ACK is processed (`bbr_control`).
            _ if self.bbr.is_some() => true,
            // RFC 3168 §6.1.2: an ECN-Echo ACK must not grow the window
            // (Prague's unmarked bytes do).
            _ if ece && !self.policy.as_ref().is_some_and(|p| p.grows_past_marks()) => true,
            (TcpState::SlowStart, _) => {
                self.slow_start(unmarked, ctx.now);
                true
            }
            _ => {
                if let Some(policy) = self.policy.as_mut() {
                    self.cwnd = policy.on_ack_in_avoidance(ctx.now, self.cwnd, unmarked, self.srtt, self.mss);
                }
                true
            }
        };
        // RFC 6298 §5.2–5.3: stop the timer when all is acknowledged, else restart it.
        if self.snd_una == self.snd_max {
            self.rto_timer.clear();
        } else if restart_rto {
            self.rto_timer.set(ctx.now + self.rto, ctx);
        }
    }

    /// RFC 5681 §3.1, equation (2): cwnd += min(N, SMSS) per new ACK,
    /// unless the policy's slow-start rule (CUBIC's HyStart) slows or ends
    /// it. Ending it sets ssthresh = cwnd and gives this ACK's bytes to
    /// congestion avoidance, as Linux's `tcp_cong_avoid` after `pkts_acked`.
    fn slow_start(&mut self, acked: u64, now: Nanos) {
        let ack = cc::SlowStartAck {
            now,
            cwnd: self.cwnd,
            mss: self.mss,
            snd_una: self.snd_una,
            snd_nxt: self.snd_max,
            paced: self.pacing,
        };
        // BBR has no window policy: it sets cwnd itself (`bbr_control`).
        let Some(policy) = self.policy.as_mut() else { return };
        match policy.on_slow_start_ack(&ack) {
            cc::SlowStartStep::Standard => self.cwnd += acked.min(self.mss),
            cc::SlowStartStep::Conservative(divisor) => self.cwnd += acked.min(self.mss) / divisor,
            cc::SlowStartStep::Exit => {
                self.ssthresh = self.cwnd;
                self.cwnd = policy.on_ack_in_avoidance(now, self.cwnd, acked, self.srtt, self.mss);
            }
        }
        self.state = self.open_state();
    }

    fn on_duplicate_ack(&mut self, ctx: &mut AgentCtx) {
        if self.state == TcpState::FastRecovery {
            // RFC 6675 counts the pipe instead of inflating cwnd.
            if !self.sack {
                self.fast_recovery_inflate();
            }
            return;
        }
        self.dupacks += 1;
        // RFC 6675 §5 step (3): with SACK, IsLost(HighACK + 1) also starts recovery.
        let loss_detected = self.dupacks == DUPACK_THRESHOLD
            || (self.sack && self.scoreboard.is_lost(self.snd_una, self.snd_max, self.mss));
        if loss_detected && self.covers_recover() {
            if self.sack {
                self.sack_enter_recovery(ctx);
            } else {
                self.fast_retransmit(ctx);
            }
        }
    }

    /// RFC 6675 §5 step (4): RecoveryPoint = HighData, ssthresh from the
    /// policy and cwnd = ssthresh, retransmit the first segment (4.3), then
    /// send what pipe allows (step C, from `on_ack`).
    fn sack_enter_recovery(&mut self, ctx: &mut AgentCtx) {
        self.reduce_for_loss();
        self.cwnd = match self.bbr.is_some() {
            // The pipe without the segment about to be resent.
            true => {
                let pipe = self.scoreboard.pipe(self.snd_una, self.snd_max, self.mss);
                let head_lost = self.scoreboard.is_lost(self.snd_una, self.snd_max, self.mss);
                self.bbr_enter_recovery(pipe.saturating_sub(if head_lost { 0 } else { self.mss }))
            }
            false => self.ssthresh,
        };
        self.state = TcpState::FastRecovery;
        self.scoreboard.begin_recovery(self.snd_una);
        if let Some(len) = self.segment_len(self.snd_una) {
            self.transmit(self.snd_una, len, ctx);
            self.scoreboard.note_first_retransmit(self.snd_una + len);
        }
        self.rto_timer.set(ctx.now + self.rto, ctx);
    }

    /// RFC 6675 §5 step (A): a cumulative ACK at or past RecoveryPoint ends
    /// recovery; cwnd stays at ssthresh.
    fn sack_exit_recovery(&mut self) {
        self.cwnd = match self.bbr.as_mut() {
            Some(_) => self.bbr_exit_recovery(),
            None => self.cwnd.min(self.ssthresh),
        };
        self.state = self.open_state();
    }

    /// A loss begins recovery: ssthresh from the policy, unless the loss is in
    /// the window an ECN reduction already answered for (RFC 3168 §6.1.2: one
    /// reduction per window for marks and losses); `recover` (RFC 6582 §3.2,
    /// RFC 6675's RecoveryPoint) = the highest sequence sent.
    fn reduce_for_loss(&mut self) {
        if self.snd_una >= self.reduced_until {
            self.ssthresh = self.reduced_ssthresh();
        }
        self.recover = self.snd_max;
        self.reduced_until = self.snd_max;
    }

    /// RFC 6582 §3.2 ("three duplicate ACKs"): enter fast retransmit only if
    /// the cumulative ACK covers more than `recover`, so the duplicates that
    /// a timeout's retransmissions provoke do not trigger a second one.
    fn covers_recover(&self) -> bool {
        self.snd_una >= self.recover
    }

    /// RFC 5681 §3.2 steps 2–3 (RFC 6582 §3.2 for `recover`): halve
    /// ssthresh, retransmit the missing segment and set cwnd = ssthresh +
    /// 3·SMSS for the segments that have left the network.
    fn fast_retransmit(&mut self, ctx: &mut AgentCtx) {
        self.reduce_for_loss();
        self.cwnd = match self.bbr.is_some() {
            // The duplicates' segments and the lost one have left the network.
            true => {
                self.bbr_enter_recovery(self.flight_size().saturating_sub((DUPACK_THRESHOLD as u64 + 1) * self.mss))
            }
            false => self.ssthresh + DUPACK_THRESHOLD as u64 * self.mss,
        };
        self.state = TcpState::FastRecovery;
        self.partial_ack_seen = false;
        self.retransmit_first_unacked(ctx);
        // As ns-2 did: the retransmission gets a full RTO to be acknowledged.
        self.rto_timer.set(ctx.now + self.rto, ctx);
    }

    /// RFC 5681 §3.2 step 4: each further duplicate ACK means another
    /// segment has left the network.
    fn fast_recovery_inflate(&mut self) {
        self.cwnd += self.mss;
    }

    /// RFC 5681 §3.2 step 6 (Reno): the first new ACK ends recovery and
    /// deflates the window to ssthresh.
    fn reno_exit_fast_recovery(&mut self) {
        self.cwnd = match self.bbr.as_mut() {
            Some(_) => self.bbr_exit_recovery(),
            None => self.ssthresh,
        };
        self.state = self.open_state();
    }

    /// RFC 6582 §3.2 ("full acknowledgments"): cwnd = min(ssthresh,
    /// max(FlightSize, SMSS) + SMSS), which avoids a burst on exit.
    fn newreno_full_ack(&mut self) {
        self.cwnd = match self.bbr.as_mut() {
            Some(_) => self.bbr_exit_recovery(),
            None => self.ssthresh.min(self.flight_size().max(self.mss) + self.mss),
        };
        self.state = self.open_state();
    }

    /// RFC 6582 §3.2 ("partial acknowledgments"): retransmit the next hole,
    /// deflate cwnd by the bytes acknowledged and add back one SMSS if at
    /// least one was, and stay in recovery. Returns whether to restart the
    /// RTO timer: on the first partial ACK only (the "Impatient" variant).
    fn newreno_partial_ack(&mut self, acked: u64, ctx: &mut AgentCtx) -> bool {
        self.retransmit_first_unacked(ctx);
        let add_back = if acked >= self.mss { self.mss } else { 0 };
        // Never below one segment: congestion avoidance divides by cwnd.
        self.cwnd = (self.cwnd.saturating_sub(acked) + add_back).max(self.mss);
        !std::mem::replace(&mut self.partial_ack_seen, true)
    }

    /// Accurate feedback: the CE packets the ACK's ACE count adds (modulo
    /// 8), handed to the policy with the bytes the ACK acknowledges, a full
    /// segment per mark (every segment is one but a transfer's last).
    fn count_ce_marks(&mut self, ace: u8, acked: u64) -> u64 {
        let marks = ace.wrapping_sub(self.ace_seen) % ACE_MODULUS;
        self.ace_seen = ace;
        let snd_una = self.snd_una + acked;
        if let Some(policy) = self.policy.as_mut() {
            policy.on_ack_feedback(snd_una, self.snd_max, acked, marks as u64 * self.mss);
        }
        marks as u64
    }

    /// RFC 3168 §6.1.2: an ECN congestion signal reduces like a loss
    /// without retransmitting: ssthresh from the policy (a loss's, or
    /// DCTCP's cwnd·(1 − α/2)), cwnd = ssthresh, CWR on the next new segment
    /// with classic feedback, at most once per window of data. The ACK that
    /// completes the window answered for may still echo the old mark, hence
    /// the strict comparison.
    fn ecn_echo(&mut self) {
        let (cwnd, flight) = (self.uninflated_cwnd(), self.flight_size());
        let Some(policy) = self.policy.as_mut() else { return };
        if self.ecn == Ecn::NotEct || self.snd_una <= self.reduced_until || !policy.ecn_reduction_due() {
            return;
        }
        self.ssthresh = policy.on_ecn(cwnd, flight, self.mss);
        self.cwnd = self.ssthresh;
        self.state = self.open_state();
        self.reduced_until = self.snd_max;
        self.cwr_pending = self.feedback == EcnFeedback::Classic;
        self.ecn_reductions += 1;
    }

    /// The time a segment of `len` bytes takes at BBR's pacing rate, or at
    /// Linux's: ratio·max(cwnd, FlightSize)/SRTT with the ratio 200 % while
    /// cwnd < ssthresh/2, the policy's after (`tcp_update_pacing_rate`). 0
    /// before the first RTT sample.
    fn pacing_gap(&self, len: u64) -> Nanos {
        let Some(policy) = &self.policy else {
            let rate = self.bbr.as_ref().map_or(0.0, |bbr| bbr.pacing_rate());
            return if rate > 0.0 { (len as f64 * NS_PER_S as f64 / rate) as Nanos } else { 0 };
        };
        let Some(srtt) = self.srtt else { return 0 };
        let ratio_percent = if self.cwnd < self.ssthresh / 2 { 200 } else { policy.pacing_avoidance_percent() as u128 };
        let window = self.uninflated_cwnd().max(self.flight_size()).max(1) as u128;
        (len as u128 * srtt as u128 * 100 / (ratio_percent * window)) as Nanos
    }

    /// Is the next segment held back by pacing? Then the pacing timer
    /// resumes sending when its time comes (one pending event at most).
    fn paced_out(&mut self, ctx: &mut AgentCtx) -> bool {
        if !self.pacing || ctx.now >= self.next_send_at {
            return false;
        }
        self.pacing_timer.set(self.next_send_at, ctx);
        true
    }

    /// The RTT sample this ACK yields under the sender's rule ([`rtt`]):
    /// BSD's one timed segment per round trip, or Linux's per-ACK sample
    /// from the segments it newly acknowledges (earliest to the RTO, latest
    /// to the congestion control). Either way only a segment sent once
    /// yields one (Karn, RFC 6298 §3). BBR's rate sampler gets the bytes
    /// the ACK newly delivered with the sample.
    fn sample_rtt(&mut self, ack: u64, ctx: &mut AgentCtx) {
        let sample = self.rtt.on_ack(ack, ctx.now);
        if let Some(sample) = sample {
            self.update_rto(sample.rto);
            if let Some(policy) = self.policy.as_mut() {
                policy.on_rtt_sample(sample.cc);
            }
            ctx.report_rtt(sample.rto);
        }
        if let Some(bbr) = self.bbr.as_mut() {
            if let Some(srtt) = self.srtt {
                bbr.rates.note_srtt(srtt);
            }
            let delivery = self.rtt.take_delivery();
            self.acked_sacked = delivery.bytes;
            bbr.rates.on_delivered(ctx.now, delivery, sample.map(|s| s.cc));
        }
    }

    /// RFC 6298 §2.2–2.5: SRTT and RTTVAR with α = 1/8, β = 1/4, then
    /// RTO = SRTT + max(G, 4·RTTVAR), floored at min_rto and capped. The
    /// new value replaces any backoff.
    fn update_rto(&mut self, r: Nanos) {
        let srtt = match self.srtt {
            None => {
                self.rttvar = r / 2;
                r
            }
            Some(srtt) => {
                self.rttvar = (3 * self.rttvar + srtt.abs_diff(r)) / 4;
                (7 * srtt + r) / 8
            }
        };
        self.srtt = Some(srtt);
        self.rto = (srtt + CLOCK_GRANULARITY_NS.max(4 * self.rttvar)).max(self.min_rto).min(MAX_RTO_NS);
    }

    /// RFC 6298 §5.4–5.6 with RFC 5681 §3.1 and RFC 6582 §3.2 ("retransmit
    /// timeouts"): ssthresh from the policy (RFC 9438 §4.8 for CUBIC), cwnd = one segment (the loss
    /// window), `recover` = highest byte sent, leave fast recovery, back off
    /// the RTO, and go back N: resend from snd_una as cwnd allows.
    fn retransmission_timeout(&mut self, ctx: &mut AgentCtx) {
        self.timeouts += 1;
        // With SACK, a timeout in the middle of a recovery answers for the
        // same window of data: keep the ssthresh that recovery set, as Linux
        // does. (FlightSize has grown with the new data NextSeg sent while
        // snd_una stood still; halving it would raise ssthresh.)
        if !(self.sack && self.state == TcpState::FastRecovery) {
            self.ssthresh = self.reduced_ssthresh();
        }
        if let Some(bbr) = self.bbr.as_mut() {
            bbr.on_timeout(self.cwnd, self.state == TcpState::FastRecovery);
        }
        if let Some(policy) = self.policy.as_mut() {
            policy.on_timeout();
        }
        self.cwnd = self.mss;
        self.recover = self.snd_max;
        self.reduced_until = self.snd_max;
        self.dupacks = 0;
        self.state = self.open_state();
        self.rto = (2 * self.rto).min(MAX_RTO_NS);
        self.snd_nxt = self.snd_una;
        let scoreboard_sends = self.sack && self.scoreboard.on_timeout(self.snd_una, self.snd_max);
        self.rto_timer.set(ctx.now + self.rto, ctx);
        self.send_what_the_window_allows(ctx);
        if scoreboard_sends {
            // The scoreboard sends from here on; nothing is in flight but
            // what it resends, and the send rule must not go back N again.
            self.snd_nxt = self.snd_max;
        }
    }

    /// A finite or stopped transfer whose every byte is acknowledged is over.
    fn finish_if_complete(&mut self) {
        if self.end.is_some_and(|end| self.snd_una >= end) {
            self.state = TcpState::Done;
            self.rto_timer.clear();
        }
    }
}

impl Agent for TcpSender {
    fn start(&mut self, ctx: &mut AgentCtx) {
        if self.bbr.is_some() {
            self.bbr = Some(Box::new(Bbr::new(ctx.now, self.cwnd, self.mss)));
        }
        self.state = self.open_state();
        self.finish_if_complete();
        if self.state != TcpState::Done {
            self.send_what_the_window_allows(ctx);
        }
    }

    /// No new data from now on; what was sent is still repaired until acknowledged.
    fn stop(&mut self, _: &mut AgentCtx) {
        self.end = Some(self.end.map_or(self.snd_max, |end| end.min(self.snd_max)));
        self.finish_if_complete();
    }

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        // An ACK below snd_una is stale; one above snd_max acknowledges nothing we sent.
        if pkt.kind == PacketKind::Ack
            && self.state != TcpState::Done
            && (self.snd_una..=self.snd_max).contains(&pkt.ack)
        {
            self.on_ack(&pkt, ctx);
        }
    }

    fn on_timer(&mut self, id: TimerId, ctx: &mut AgentCtx) {
        if self.state == TcpState::Done {
            return;
        }
        if self.rto_timer.fired(id, ctx) {
            self.retransmission_timeout(ctx);
        } else if self.pacing_timer.fired(id, ctx) {
            self.send_what_the_window_allows(ctx);
        }
    }

    /// cwnd without fast-recovery inflation (at most ssthresh while
    /// recovering), as ns-2 traced `cwnd_` and the papers plotted it.
    fn probe(&self) -> AgentProbe {
        AgentProbe {
            cwnd_packets: self.uninflated_cwnd() as f64 / self.mss as f64,
            srtt_ms: self.srtt.map_or(f64::NAN, |s| s as f64 / NS_PER_MS as f64),
        }
    }
}

/// The data sink: reassembles, delivers in order and ACKs cumulatively.
pub struct TcpReceiver {
    delayed_ack: bool,
    sack: bool,
    /// The order to report `out_of_order` ranges in (SACK only).
    sack_order: SackOrder,
    /// Next byte expected: the cumulative ACK.
    rcv_nxt: u64,
    /// Data above rcv_nxt.
    out_of_order: Ranges,
    /// In-order segments not yet acknowledged (delayed ACKs).
    unacked_segments: u32,
    delack_timer: Timer,
    feedback: EcnFeedback,
    /// RFC 3168 §6.1.3: echo congestion until the sender signals CWR.
    ece: bool,
    /// Accurate ECN's count of CE packets received, modulo 8.
    ce_packets: u8,
    delivered: u64,
}

impl TcpReceiver {
    pub fn new(cfg: &TcpConfig) -> TcpReceiver {
        TcpReceiver {
            delayed_ack: cfg.delayed_ack,
            sack: cfg.sack,
            sack_order: SackOrder::default(),
            rcv_nxt: 0,
            out_of_order: Ranges::default(),
            unacked_segments: 0,
            delack_timer: Timer::default(),
            feedback: cfg.cc.ecn_feedback(),
            ece: false,
            ce_packets: 0,
            delivered: 0,
        }
    }

    /// Payload bytes delivered in order to the application: the goodput.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// Classic (RFC 3168 §6.1.3): a CE mark sets ECE on every ACK until a
    /// CWR packet arrives (a packet with both restarts the echo). Accurate:
    /// every CE packet counts once.
    fn note_congestion_signals(&mut self, pkt: &Packet) {
        match self.feedback {
            EcnFeedback::Classic => {
                if pkt.cwr {
                    self.ece = false;
                }
                if pkt.ecn == Ecn::Ce {
                    self.ece = true;
                }
            }
            EcnFeedback::Accurate => {
                if pkt.ecn == Ecn::Ce {
                    self.ce_packets = (self.ce_packets + 1) % ACE_MODULUS;
                }
            }
        }
    }

    fn buffer_out_of_order(&mut self, start: u64, end: u64) {
        let (start, end) = self.out_of_order.insert(start, end);
        if self.sack {
            self.sack_order.touched(start, end);
        }
    }

    /// Advance rcv_nxt to `end` and across the buffered ranges it reaches;
    /// deliver exactly the bytes that became in order.
    fn accept_in_order(&mut self, end: u64, ctx: &mut AgentCtx) {
        let before = self.rcv_nxt;
        self.rcv_nxt = self.out_of_order.take_reached(end);
        self.delivered += self.rcv_nxt - before;
        ctx.deliver(self.rcv_nxt - before);
        if self.sack {
            self.sack_order.keep_only(&self.out_of_order);
        }
    }

    /// RFC 5681 §4.2 / RFC 1122 §4.2.3.2: ACK at least every second segment,
    /// and the first one within the delayed-ACK timeout.
    fn delay_ack(&mut self, ctx: &mut AgentCtx) {
        self.unacked_segments += 1;
        if self.unacked_segments >= 2 {
            self.send_ack(ctx);
        } else {
            self.delack_timer.set(ctx.now + DELACK_TIMEOUT_NS, ctx);
        }
    }

    fn send_ack(&mut self, ctx: &mut AgentCtx) {
        let mut pkt = Packet::new(ctx.flow, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        pkt.ack = self.rcv_nxt;
        pkt.ece = self.ece;
        pkt.ace = self.ce_packets;
        if self.sack {
            // RFC 2018 §4: the most recent block first; the option lengthens the ACK.
            let blocks = SackBlocks::new(self.rcv_nxt, self.sack_order.blocks(&self.out_of_order));
            pkt.size_bytes += sack_option_bytes(blocks.len());
            pkt.set_sack(blocks);
        }
        ctx.send(pkt);
        self.unacked_segments = 0;
        self.delack_timer.clear();
    }
}

impl Agent for TcpReceiver {
    fn start(&mut self, _: &mut AgentCtx) {}

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        if pkt.kind != PacketKind::Data {
            return;
        }
        self.note_congestion_signals(&pkt);
        let (start, end) = (pkt.seq, pkt.seq + pkt.payload_bytes as u64);
        if start > self.rcv_nxt {
            // RFC 5681 §4.2: out-of-order data is ACKed at once (a duplicate ACK).
            self.buffer_out_of_order(start, end);
            self.send_ack(ctx);
        } else if end <= self.rcv_nxt {
            // Data delivered already (a retransmission): ACK at once with how far we are.
            self.send_ack(ctx);
        } else {
            // RFC 5681 §4.2: a segment that fills (part of) a hole is ACKed at once.
            let fills_hole = !self.out_of_order.is_empty();
            self.accept_in_order(end, ctx);
            if fills_hole || !self.delayed_ack {
                self.send_ack(ctx);
            } else {
                self.delay_ack(ctx);
            }
        }
    }

    fn on_timer(&mut self, id: TimerId, ctx: &mut AgentCtx) {
        if self.delack_timer.fired(id, ctx) {
            self.send_ack(ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{tx_time_ns, EventQueue, Rng};
    use crate::transport::testing::{absorb, Drive};
    use crate::transport::AgentOutput;
    use CcVariant::{Cubic, Dctcp, NewReno, Prague, Reno};
    use TcpState::*;

    const MSS: u64 = 1000;
    const MS: Nanos = NS_PER_MS;

    fn cfg(cc: CcVariant, initial_cwnd_packets: u32) -> TcpConfig {
        TcpConfig {
            cc,
            segment_bytes: MSS as u32,
            min_rto_ns: 200 * MS,
            initial_cwnd_packets,
            delayed_ack: false,
            rwnd_packets: None,
            ecn: Ecn::NotEct,
            pacing: false,
            sack: false,
            transfer_bytes: None,
            cubic: Default::default(),
        }
    }

    fn sender(cfg: &TcpConfig) -> (Drive<TcpSender>, AgentOutput) {
        let mut s = Drive::new(TcpSender::new(cfg));
        let out = s.call(|a, c| a.start(c));
        (s, out)
    }

    fn ack_bytes(ack: u64) -> Packet {
        let mut p = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        p.ack = ack;
        p
    }

    fn ack(segments: u64) -> Packet {
        ack_bytes(segments * MSS)
    }

    fn ece(mut p: Packet) -> Packet {
        p.ece = true;
        p
    }

    fn data(segment: u64) -> Packet {
        let mut p = Packet::new(0, PacketKind::Data, Dir::Forward, MSS as u32 + TCP_HEADER_BYTES, MSS as u32);
        p.seq = segment * MSS;
        p
    }

    fn with_ecn(mut p: Packet, ecn: Ecn, cwr: bool) -> Packet {
        p.ecn = ecn;
        p.cwr = cwr;
        p
    }

    /// Segment numbers sent.
    fn segs(out: &AgentOutput) -> Vec<u64> {
        out.send.iter().map(|p| p.seq / MSS).collect()
    }

    /// Cumulative ACKs sent, in segments.
    fn acks(out: &AgentOutput) -> Vec<u64> {
        out.send.iter().map(|p| p.ack / MSS).collect()
    }

    fn rto_deadline(s: &Drive<TcpSender>) -> Option<Nanos> {
        s.agent.rto_timer.deadline
    }

    #[test]
    fn initial_window_sends_exactly_initial_cwnd_segments() {
        let (s, out) = sender(&cfg(NewReno, 3));
        assert_eq!(segs(&out), [0, 1, 2]);
        assert!(out.send.iter().all(|p| p.kind == PacketKind::Data
            && p.dir == Dir::Forward
            && (p.size_bytes, p.payload_bytes) == (1040, 1000)
            && p.ecn == Ecn::NotEct));
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes(), s.agent.ssthresh_bytes()), (SlowStart, 3000, u64::MAX));
        // RFC 6298 §2.1 and §5.1: one timer, 1 s after the first transmission.
        assert_eq!(s.timers, [(NS_PER_S, 1)]);
        let probe = s.agent.probe();
        assert_eq!(probe.cwnd_packets, 3.0);
        assert!(probe.srtt_ms.is_nan());
    }

    #[test]
    fn slow_start_adds_one_mss_per_new_ack_capped_at_the_bytes_acked() {
        let (mut s, _) = sender(&cfg(NewReno, 2));
        assert_eq!(segs(&s.recv(100 * MS, ack(1))), [2, 3]);
        assert_eq!(s.agent.cwnd_bytes(), 3000);
        assert_eq!(segs(&s.recv(101 * MS, ack(2))), [4, 5]);
        assert_eq!(s.agent.cwnd_bytes(), 4000);
        // A stretch ACK of two segments still adds one MSS.
        assert_eq!(segs(&s.recv(102 * MS, ack(4))), [6, 7, 8]);
        assert_eq!(s.agent.cwnd_bytes(), 5000);
        // An ACK of half a segment adds half a segment.
        assert_eq!(segs(&s.recv(103 * MS, ack_bytes(4500))), [9]);
        assert_eq!((s.agent.cwnd_bytes(), s.agent.state()), (5500, SlowStart));
    }

    #[test]
    fn congestion_avoidance_adds_about_one_mss_per_round_trip() {
        let mut s = Drive::new(TcpSender::new(&cfg(NewReno, 10)));
        s.agent.ssthresh = 10 * MSS;
        assert_eq!(segs(&s.call(|a, c| a.start(c))).len(), 10);
        assert_eq!(s.agent.state(), CongestionAvoidance);
        let mut expected = 10 * MSS;
        let mut acked = 0;
        let mut per_round = Vec::new();
        for round in 1..=3 {
            // Acknowledge, one by one, the window that was in flight at the round's start.
            let (first, last) = (acked + 1, s.agent.snd_max / MSS);
            let mut sent = 0;
            for k in first..=last {
                sent += s.recv(round * 100 * MS + k * 10_000, ack(k)).send.len();
                expected += MSS * MSS / expected;
            }
            acked = last;
            assert_eq!(s.agent.cwnd_bytes(), expected);
            per_round.push((sent, s.agent.cwnd_bytes()));
        }
        // cwnd += MSS²/cwnd per ACK: a little under one MSS per round trip
        // (each round acknowledges the window of the round before).
        assert_eq!(per_round, [(10, 10_956), (11, 11_833), (12, 12_727)]);
    }

    /// Ten segments out; the ACK of the first opens two more (cwnd 11); the
    /// second is lost, so `dups` duplicate ACKs of 1 follow.
    fn second_segment_lost(cc: CcVariant, dups: u64) -> (Drive<TcpSender>, AgentOutput) {
        let (mut s, _) = sender(&cfg(cc, 10));
        assert_eq!(segs(&s.recv(100 * MS, ack(1))), [10, 11]);
        let mut out = AgentOutput::default();
        for i in 1..=dups {
            absorb(&mut out, s.recv(100 * MS + i * MS, ack(1)));
        }
        (s, out)
    }

    #[test]
    fn fast_retransmit_fires_on_exactly_the_third_duplicate_ack() {
        let (mut s, out) = second_segment_lost(NewReno, 2);
        assert!(out.send.is_empty());
        assert_eq!(s.agent.state(), SlowStart);
        let out = s.recv(103 * MS, ack(1));
        assert_eq!(segs(&out), [1]);
        // FlightSize = 11 segments: ssthresh 5.5, cwnd = ssthresh + 3.
        assert_eq!((s.agent.state(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (FastRecovery, 5500, 8500));
        assert_eq!((s.agent.retransmits(), s.agent.recover), (1, 12_000));
        assert_eq!(s.agent.probe().cwnd_packets, 5.5);
        // The retransmission gets a full RTO (300 ms after the 100 ms sample).
        assert_eq!(rto_deadline(&s), Some(403 * MS));
        // Each further duplicate inflates cwnd by one MSS; at 12.5 MSS, 12 segments fit.
        let inflated: Vec<(u64, Vec<u64>)> = (4..=7)
            .map(|i| {
                let out = s.recv(100 * MS + i * MS, ack(1));
                (s.agent.cwnd_bytes(), segs(&out))
            })
            .collect();
        assert_eq!(inflated, [(9500, vec![]), (10_500, vec![]), (11_500, vec![]), (12_500, vec![12])]);
    }

    #[test]
    fn reno_leaves_recovery_on_the_first_new_ack() {
        let (mut s, _) = second_segment_lost(Reno, 3);
        // A partial ACK: segment 5 was lost too. Reno deflates to ssthresh
        // and retransmits nothing; flight 7 > cwnd 5.5.
        assert!(s.recv(150 * MS, ack(5)).send.is_empty());
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes()), (CongestionAvoidance, 5500));
        // Its duplicates do not cover `recover`: no second fast retransmit.
        for i in 1..=3 {
            assert!(s.recv(150 * MS + i * MS, ack(5)).send.is_empty());
        }
        assert_eq!((s.agent.retransmits(), s.agent.state()), (1, CongestionAvoidance));
        // Only the timer repairs the second hole: 300 ms after the partial ACK.
        assert!(s.advance(450 * MS - 1).send.is_empty());
        assert_eq!(segs(&s.advance(450 * MS)), [5]);
        assert_eq!((s.agent.ssthresh_bytes(), s.agent.cwnd_bytes(), s.agent.timeouts()), (3500, 1000, 1));
    }

    #[test]
    fn newreno_partial_ack_retransmits_the_next_hole_and_stays_in_recovery() {
        let (mut s, _) = second_segment_lost(NewReno, 3);
        assert_eq!(segs(&s.recv(150 * MS, ack(5))), [5]);
        // Deflate by the 4 segments acknowledged, add one back: 8.5 − 4 + 1.
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes()), (FastRecovery, 5500));
        // The first partial ACK resets the RTO timer...
        assert_eq!(rto_deadline(&s), Some(450 * MS));
        assert_eq!(segs(&s.recv(160 * MS, ack(7))), [7]);
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes()), (FastRecovery, 4500));
        // ...later ones do not ("Impatient").
        assert_eq!(rto_deadline(&s), Some(450 * MS));
        assert_eq!(s.agent.retransmits(), 3);
    }

    #[test]
    fn newreno_full_ack_leaves_recovery_with_min_of_ssthresh_and_flight_plus_mss() {
        // Nothing sent past `recover`: flight 0 after the full ACK, so cwnd = max(0, 1) + 1 MSS.
        let (mut s, _) = second_segment_lost(NewReno, 3);
        assert_eq!(segs(&s.recv(150 * MS, ack(12))), [12, 13]);
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes(), s.agent.ssthresh_bytes()), (SlowStart, 2000, 5500));
        // Eleven more duplicates inflate cwnd to 19.5 MSS and send segments
        // 12–19: flight 8 after the full ACK, so cwnd = ssthresh.
        let (mut s, out) = second_segment_lost(NewReno, 14);
        assert_eq!(segs(&out), [1, 12, 13, 14, 15, 16, 17, 18, 19]);
        assert!(s.recv(150 * MS, ack(12)).send.is_empty());
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes()), (CongestionAvoidance, 5500));
    }

    #[test]
    fn rto_follows_rfc6298_from_the_first_sample() {
        let (mut s, _) = sender(&cfg(NewReno, 1));
        assert_eq!(s.agent.rto_ns(), NS_PER_S);
        // §2.2: SRTT = R, RTTVAR = R/2, RTO = max(min_rto, R + 4·R/2).
        assert_eq!(segs(&s.recv(100 * MS, ack(1))), [1, 2]);
        assert_eq!((s.agent.srtt_ns(), s.agent.rttvar, s.agent.rto_ns()), (Some(100 * MS), 50 * MS, 300 * MS));
        assert_eq!(s.agent.probe().srtt_ms, 100.0);
        assert_eq!(rto_deadline(&s), Some(400 * MS));
        // §2.3: R' = 120 ms: RTTVAR = 3/4·50 + 1/4·20, SRTT = 7/8·100 + 1/8·120.
        s.recv(220 * MS, ack(2));
        assert_eq!((s.agent.srtt_ns(), s.agent.rttvar), (Some(102_500_000), 42_500_000));
        assert_eq!(s.agent.rto_ns(), 102_500_000 + 4 * 42_500_000);
        // §2.4: floored at min_rto: R = 10 ms gives 30 ms, raised to 200 ms.
        let (mut s, _) = sender(&cfg(NewReno, 1));
        s.recv(10 * MS, ack(1));
        assert_eq!(s.agent.rto_ns(), 200 * MS);
    }

    #[test]
    fn repeated_timeouts_double_the_rto_up_to_60_s() {
        let (mut s, _) = sender(&cfg(NewReno, 2));
        let mut t = 0;
        for expected_s in [2, 4, 8, 16, 32, 60, 60] {
            t += s.agent.rto_ns();
            assert!(s.advance(t - 1).send.is_empty());
            assert_eq!(segs(&s.advance(t)), [0]);
            assert_eq!(s.agent.rto_ns(), expected_s * NS_PER_S);
            assert_eq!((s.agent.cwnd_bytes(), s.agent.ssthresh_bytes()), (1000, 2000));
        }
        assert_eq!((s.agent.timeouts(), s.agent.retransmits()), (7, 7));
    }

    #[test]
    fn karn_takes_no_sample_from_a_retransmitted_segment() {
        let (mut s, _) = sender(&cfg(NewReno, 1));
        assert_eq!(segs(&s.advance(NS_PER_S)), [0]);
        // The ACK may answer either transmission: no sample, the backoff stays.
        assert_eq!(segs(&s.recv(1100 * MS, ack(1))), [1, 2]);
        assert_eq!((s.agent.srtt_ns(), s.agent.rto_ns()), (None, 2 * NS_PER_S));
        // Segment 1 was sent once: its sample clears the backoff.
        s.recv(1200 * MS, ack(2));
        assert_eq!((s.agent.srtt_ns(), s.agent.rto_ns()), (Some(100 * MS), 300 * MS));
    }

    #[test]
    fn timeout_collapses_cwnd_and_goes_back_to_snd_una() {
        let (mut s, _) = sender(&cfg(NewReno, 4));
        assert_eq!(segs(&s.recv(100 * MS, ack(1))), [4, 5]);
        // RTO 300 ms, restarted by the ACK at 100 ms.
        assert!(s.advance(400 * MS - 1).send.is_empty());
        assert_eq!(segs(&s.advance(400 * MS)), [1]);
        // FlightSize 5 segments: ssthresh 2.5; one-segment loss window.
        assert_eq!((s.agent.state(), s.agent.cwnd_bytes(), s.agent.ssthresh_bytes()), (SlowStart, 1000, 2500));
        assert_eq!((s.agent.rto_ns(), s.agent.recover), (600 * MS, 6000));
        // The receiver had 2 buffered: the ACK jumps to 3, and go-back-N
        // resends 3 and 4 though they may have arrived.
        assert_eq!(segs(&s.recv(500 * MS, ack(3))), [3, 4]);
        assert_eq!((s.agent.cwnd_bytes(), s.agent.retransmits()), (2000, 3));
        // Duplicates below `recover` (RFC 6582 §3.2) trigger no fast retransmit.
        for i in 1..=3 {
            assert!(s.recv(500 * MS + i * MS, ack(3)).send.is_empty());
        }
        assert_eq!((s.agent.state(), s.agent.retransmits()), (SlowStart, 3));
    }

    #[test]
    fn receiver_delivers_in_order_bytes_exactly_once() {
        let mut r = Drive::new(TcpReceiver::new(&cfg(NewReno, 2)));
        let mut delivered = Vec::new();
        for (seg, expect_ack) in
            [(0, 1), (2, 1), (3, 1), (2, 1), (5, 1), (7, 1), (6, 1), (1, 4), (4, 8), (1, 8), (0, 8)]
        {
            let out = r.recv(seg * MS, data(seg));
            assert_eq!(acks(&out), [expect_ack], "segment {seg}");
            delivered.push(out.delivered_bytes / MSS);
        }
        assert_eq!(delivered, [1, 0, 0, 0, 0, 0, 0, 3, 4, 0, 0]);
        // A segment straddling rcv_nxt delivers only its new half.
        let mut straddling = data(0);
        straddling.seq = 7500;
        let out = r.recv(20 * MS, straddling);
        assert_eq!((out.send[0].ack, out.delivered_bytes), (8500, 500));
        assert_eq!((r.agent.delivered_bytes(), r.agent.rcv_nxt()), (8500, 8500));
        assert!(out.send.iter().all(|p| (p.kind, p.dir, p.size_bytes, p.payload_bytes, p.ece)
            == (PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0, false)));
    }

    #[test]
    fn receiver_merges_out_of_order_ranges() {
        let mut r = Drive::new(TcpReceiver::new(&cfg(NewReno, 2)));
        for seg in [2, 6, 4, 3, 5, 9] {
            r.recv(0, data(seg));
        }
        let ranges: Vec<(u64, u64)> = r.agent.out_of_order.iter().collect();
        assert_eq!(ranges, [(2000, 7000), (9000, 10_000)]);
    }

    #[test]
    fn delayed_ack_every_second_segment_or_after_100_ms() {
        let mut r = Drive::new(TcpReceiver::new(&TcpConfig { delayed_ack: true, ..cfg(NewReno, 2) }));
        assert!(r.recv(0, data(0)).send.is_empty());
        assert_eq!(acks(&r.recv(10 * MS, data(1))), [2]);
        assert!(r.recv(20 * MS, data(2)).send.is_empty());
        assert!(r.advance(120 * MS - 1).send.is_empty());
        assert_eq!(acks(&r.advance(120 * MS)), [3]);
        // Out-of-order data and the segment filling its hole are ACKed at once.
        assert_eq!(acks(&r.recv(200 * MS, data(4))), [3]);
        assert_eq!(acks(&r.recv(210 * MS, data(3))), [5]);
        assert!(r.recv(220 * MS, data(5)).send.is_empty());
        assert_eq!(acks(&r.recv(230 * MS, data(6))), [7]);
        assert_eq!(r.agent.delivered_bytes(), 7000);
        // The timer armed at 220 ms went stale with the ACK at 230 ms.
        assert!(r.advance(NS_PER_S).send.is_empty());
    }

    #[test]
    fn receiver_echoes_ce_until_cwr() {
        let mut r = Drive::new(TcpReceiver::new(&cfg(NewReno, 2)));
        let echoes: Vec<bool> =
            [(Ecn::Ect0, false), (Ecn::Ce, false), (Ecn::Ect0, false), (Ecn::Ect0, true), (Ecn::Ce, true)]
                .into_iter()
                .enumerate()
                .map(|(seg, (ecn, cwr))| r.recv(0, with_ecn(data(seg as u64), ecn, cwr)).send[0].ece)
                .collect();
        assert_eq!(echoes, [false, true, true, false, true]);
    }

    #[test]
    fn ecn_echo_halves_once_per_window_and_sets_cwr() {
        let (mut s, out) = sender(&TcpConfig { ecn: Ecn::Ect0, ..cfg(NewReno, 10) });
        assert!(out.send.iter().all(|p| p.ecn == Ecn::Ect0 && !p.cwr));
        // FlightSize 9 after the ACK: ssthresh = cwnd = 4.5; no growth for an ECE ACK.
        assert!(s.recv(100 * MS, ece(ack(1))).send.is_empty());
        assert_eq!(
            (s.agent.state(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()),
            (CongestionAvoidance, 4500, 4500)
        );
        // The rest of the window still echoes: no second reduction, no growth.
        for k in 2..=6 {
            assert!(s.recv(100 * MS + k * MS, ece(ack(k))).send.is_empty());
        }
        // Flight 3 + 1 fits 4.5: the first new segment carries CWR, the next do not.
        let out = s.recv(107 * MS, ece(ack(7)));
        assert_eq!((segs(&out), out.send[0].cwr, out.send[0].ecn), (vec![10], true, Ecn::Ect0));
        assert!(!s.recv(108 * MS, ece(ack(8))).send[0].cwr);
        // The ACK completing the reduced window may still echo the old mark.
        s.recv(110 * MS, ece(ack(10)));
        assert_eq!((s.agent.ecn_reductions(), s.agent.cwnd_bytes()), (1, 4500));
        // A mark on data sent after the reduction starts a new window: halve again.
        s.recv(111 * MS, ece(ack(11)));
        assert_eq!((s.agent.ecn_reductions(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (2, 2000, 2000));
        assert_eq!((s.agent.retransmits(), s.agent.timeouts()), (0, 0));
    }

    fn ace(mut p: Packet, count: u8) -> Packet {
        p.ace = count;
        p
    }

    #[test]
    fn accurate_receiver_counts_every_ce_packet_and_ignores_cwr() {
        // DCTCP's receiver: the ACE field counts CE packets modulo 8; ECE is
        // never set (RFC 8257 §3.2's one echo per mark, as a count).
        let mut r = Drive::new(TcpReceiver::new(&cfg(Dctcp, 2)));
        let marks = [false, true, true, false, true, true, true, true, true, true, false, true];
        let acks: Vec<(u8, bool)> = marks
            .iter()
            .enumerate()
            .map(|(seg, &ce)| {
                let ecn = if ce { Ecn::Ce } else { Ecn::Ect1 };
                let a = &r.recv(0, with_ecn(data(seg as u64), ecn, seg == 3)).send[0];
                (a.ace, a.ece)
            })
            .collect();
        let expected: Vec<(u8, bool)> = marks
            .iter()
            .scan(0u8, |n, &ce| {
                *n += ce as u8;
                Some((*n % 8, false))
            })
            .collect();
        assert_eq!(acks, expected);
        // With delayed ACKs one ACK carries the marks of both segments.
        let mut r = Drive::new(TcpReceiver::new(&TcpConfig { delayed_ack: true, ..cfg(Dctcp, 2) }));
        assert!(r.recv(0, with_ecn(data(0), Ecn::Ce, false)).send.is_empty());
        assert_eq!(r.recv(MS, with_ecn(data(1), Ecn::Ce, false)).send[0].ace, 2);
        // The feedback follows the sender's cc: the classic ones get ECE
        // until CWR (RFC 3168 §6.1.3) and no count.
        for cc in [Reno, NewReno, Cubic] {
            let mut r = Drive::new(TcpReceiver::new(&cfg(cc, 2)));
            let first = r.recv(0, with_ecn(data(0), Ecn::Ce, false)).send[0].clone();
            let after_cwr = r.recv(0, with_ecn(data(1), Ecn::Ect0, true)).send[0].clone();
            assert_eq!((first.ece, first.ace, after_cwr.ece), (true, 0, false), "{cc:?}");
        }
    }

    #[test]
    fn dctcp_reduces_by_alpha_over_two_once_per_window_of_marks() {
        let (mut s, out) = sender(&TcpConfig { ecn: Ecn::Ect1, ..cfg(Dctcp, 10) });
        assert!(out.send.iter().all(|p| p.ecn == Ecn::Ect1 && !p.cwr));
        // The first ACK closes the observation window that began at 0 with
        // F = 1, so α stays 1: cwnd·(1 − 1/2), like classic ECN.
        assert!(s.recv(100 * MS, ace(ack(1), 1)).send.is_empty());
        assert_eq!((s.agent.ssthresh_bytes(), s.agent.cwnd_bytes(), s.agent.ecn_reductions()), (5000, 5000, 1));
        // More marks in the window already answered for: no second
        // reduction, and no growth on marked ACKs.
        let mut out = AgentOutput::default();
        for k in 2..=6 {
            absorb(&mut out, s.recv(100 * MS + k * MS, ace(ack(k), k as u8)));
        }
        assert_eq!((s.agent.ecn_reductions(), s.agent.cwnd_bytes()), (1, 5000));
        // Unmarked ACKs grow cwnd; no segment carries CWR (the count needs no handshake).
        for k in 7..=10 {
            absorb(&mut out, s.recv(100 * MS + k * MS, ace(ack(k), 6)));
        }
        assert!(!out.send.is_empty() && out.send.iter().all(|p| !p.cwr && p.ecn == Ecn::Ect1));
        // ACK 11 passes the window's end (SND.NXT = 10 segments at the first
        // ACK): ten segments acknowledged, six marked, so α = (1 − g) + g·0.6,
        // and one more mark reduces by α/2.
        let before = s.agent.cwnd_bytes();
        s.recv(112 * MS, ace(ack(11), 7));
        let alpha = (1.0 - cc::dctcp::G) + cc::dctcp::G * 0.6;
        let expected = (before as f64 * (1.0 - alpha / 2.0)) as u64;
        assert_eq!((s.agent.ecn_reductions(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (2, expected, expected));
        // The count wraps modulo 8: from 7, a count of 1 is two new marks.
        assert_eq!(s.agent.count_ce_marks(1, 0), 2);
        assert_eq!((s.agent.retransmits(), s.agent.timeouts()), (0, 0));
    }

    #[test]
    fn loss_in_a_window_already_reduced_by_ecn_does_not_reduce_again() {
        let (mut s, _) = sender(&TcpConfig { ecn: Ecn::Ect0, ..cfg(NewReno, 10) });
        s.recv(100 * MS, ece(ack(1)));
        s.recv(101 * MS, ack(3));
        assert_eq!((s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (4500, 4722));
        let mut out = AgentOutput::default();
        for i in 1..=3 {
            absorb(&mut out, s.recv(110 * MS + i * MS, ece(ack(3))));
        }
        // Halving FlightSize 7 would give 3.5; the ECN reduction stands.
        assert_eq!((s.agent.state(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (FastRecovery, 4500, 7500));
        // RFC 3168 §6.1.5: retransmissions are not ECN-capable.
        assert_eq!((segs(&out), out.send[0].ecn), (vec![3], Ecn::NotEct));
        assert_eq!(s.agent.ecn_reductions(), 1);
    }

    /// Linux's pacing gap of one full segment: SRTT·len / (ratio·cwnd).
    fn pacing_gap(srtt: Nanos, ratio: f64, cwnd: u64) -> f64 {
        srtt as f64 * MSS as f64 / (ratio * cwnd as f64)
    }

    /// Send times of what the window allows after one ACK of five segments
    /// at 100 ms (SRTT 100 ms), with every pacing timer fired.
    fn paced_burst(mut c: TcpConfig, ssthresh: u64) -> (Vec<Nanos>, u64, usize) {
        c.pacing = true;
        let mut s = Drive::new(TcpSender::new(&c));
        s.agent.ssthresh = ssthresh;
        // No RTT sample yet: the initial window goes at once.
        assert!(s.call_timed(|a, c| a.start(c)).iter().all(|&(t, _)| t == 0));
        let mut sent = s.recv_timed(100 * MS, ack(5));
        sent.extend(s.advance_timed(200 * MS));
        let pending_pacing_timers = s.timers.iter().filter(|&&(_, id)| id & PACING_TIMER_TAG != 0).count();
        (sent.iter().map(|&(t, _)| t).collect(), s.agent.cwnd_bytes(), pending_pacing_timers)
    }

    #[test]
    fn pacing_spaces_segments_at_200_percent_of_cwnd_over_srtt_in_slow_start() {
        // cwnd 11 segments after the ACK (slow start, ssthresh unlimited):
        // six segments fit, one every SRTT/(2·11).
        let (times, cwnd, pending) = paced_burst(cfg(NewReno, 10), u64::MAX);
        assert_eq!((times.len(), cwnd, pending), (6, 11_000, 0));
        let gap = pacing_gap(100 * MS, 2.0, cwnd);
        for (k, &t) in times.iter().enumerate() {
            assert!((t as f64 - (100 * MS) as f64 - k as f64 * gap).abs() <= k as f64, "segment {k} at {t}");
        }
    }

    #[test]
    fn pacing_slows_to_120_percent_from_half_of_ssthresh_on() {
        // Slow start (cwnd 11 < ssthresh 20) but past ssthresh/2: Linux
        // already paces at the congestion-avoidance ratio.
        let (times, cwnd, _) = paced_burst(cfg(NewReno, 10), 20 * MSS);
        let gap = pacing_gap(100 * MS, 2.0, cwnd);
        assert!((times[1] - times[0]) as f64 - gap > 1.0, "still the slow-start ratio");
        // In congestion avoidance: cwnd 10 + 1/10 segments, five segments fit.
        let (times, cwnd, _) = paced_burst(cfg(NewReno, 10), 10 * MSS);
        assert_eq!((times.len(), cwnd), (5, 10_100));
        let gap = pacing_gap(100 * MS, 1.2, cwnd);
        for pair in times.windows(2) {
            assert!(((pair[1] - pair[0]) as f64 - gap).abs() <= 1.0, "{pair:?} vs {gap}");
        }
        // Unpaced, the same window goes at once.
        let mut s = Drive::new(TcpSender::new(&cfg(NewReno, 10)));
        s.agent.ssthresh = 10 * MSS;
        s.call(|a, c| a.start(c));
        assert!(s.recv_timed(100 * MS, ack(5)).iter().all(|&(t, _)| t == 100 * MS));
    }

    #[test]
    fn prague_paces_at_100_percent_and_grows_by_the_bytes_acknowledged() {
        // Congestion avoidance: one unmarked ACK of five segments adds
        // 5000·MSS/cwnd = 500 bytes (Reno's rule adds MSS²/cwnd per ACK), and
        // the five segments that fit go one every SRTT·MSS/cwnd.
        let (times, cwnd, _) = paced_burst(TcpConfig { ecn: Ecn::Ect1, ..cfg(Prague, 10) }, 10 * MSS);
        assert_eq!((times.len(), cwnd), (5, 10_500));
        let gap = pacing_gap(100 * MS, 1.0, cwnd);
        for pair in times.windows(2) {
            assert!(((pair[1] - pair[0]) as f64 - gap).abs() <= 1.0, "{pair:?} vs {gap}");
        }
    }

    #[test]
    fn receiver_window_caps_the_flight() {
        let (mut s, out) = sender(&TcpConfig { rwnd_packets: Some(4), ..cfg(NewReno, 10) });
        assert_eq!(segs(&out), [0, 1, 2, 3]);
        assert_eq!((s.agent.state(), s.agent.ssthresh_bytes()), (CongestionAvoidance, 4000));
        assert_eq!(segs(&s.recv(100 * MS, ack(1))), [4]);
        assert_eq!(segs(&s.recv(101 * MS, ack(3))), [5, 6]);
        assert_eq!(s.agent.cwnd_bytes(), 10_199);
    }

    #[test]
    fn finite_transfer_finishes_and_goes_done() {
        let (mut s, out) = sender(&TcpConfig { transfer_bytes: Some(2500), ..cfg(NewReno, 4) });
        let sizes: Vec<(u32, u32)> = out.send.iter().map(|p| (p.payload_bytes, p.size_bytes)).collect();
        assert_eq!(sizes, [(1000, 1040), (1000, 1040), (500, 540)]);
        assert!(s.recv(100 * MS, ack(2)).send.is_empty());
        assert!(!s.agent.is_done());
        assert!(s.recv(110 * MS, ack_bytes(2500)).send.is_empty());
        assert_eq!((s.agent.state(), rto_deadline(&s)), (Done, None));
        assert!(s.recv(120 * MS, ack_bytes(2500)).send.is_empty());
        assert!(s.advance(100 * NS_PER_S).send.is_empty());
        let (s, out) = sender(&TcpConfig { transfer_bytes: Some(0), ..cfg(NewReno, 4) });
        assert!(out.send.is_empty() && s.agent.is_done());
    }

    #[test]
    fn stop_ends_new_data_but_repairs_what_was_sent() {
        let (mut s, out) = sender(&cfg(Reno, 4));
        assert_eq!(segs(&out), [0, 1, 2, 3]);
        s.advance(50 * MS);
        s.call(|a, c| a.stop(c));
        assert!(s.recv(100 * MS, ack(1)).send.is_empty());
        assert!(s.recv(101 * MS, ack(1)).send.is_empty());
        assert!(s.recv(102 * MS, ack(1)).send.is_empty());
        assert_eq!(segs(&s.advance(400 * MS)), [1]);
        assert!(s.recv(500 * MS, ack(4)).send.is_empty());
        assert!(s.agent.is_done());
    }

    enum Ev {
        ToReceiver(Packet),
        ToSender(Packet),
        SenderTimer(TimerId),
        ReceiverTimer(TimerId),
    }

    /// A test-only path: data crosses a 10 Mb/s bottleneck with a Drop
    /// Tail buffer of `buffer` packets that also loses (or, if ECN-capable,
    /// marks) every 41st arrival, then 20 ms of propagation; ACKs take 20 ms back.
    #[derive(Default)]
    struct Path {
        buffer: u64,
        /// When set, the segments lost on their first transmission instead
        /// of every 41st arrival.
        lost_segments: Option<Vec<u64>>,
        events: EventQueue<Ev>,
        link_free_at: Nanos,
        arrivals: u64,
        delivered: u64,
        acks: u64,
        sender_timers: u64,
        /// The sender's (time, cwnd, state) after each of its events.
        trace: Vec<(Nanos, u64, TcpState)>,
    }

    impl Path {
        fn route(&mut self, now: Nanos, from_sender: bool, out: AgentOutput) {
            self.delivered += out.delivered_bytes;
            for (at, id) in out.timers {
                self.sender_timers += from_sender as u64;
                self.events.schedule(at, if from_sender { Ev::SenderTimer(id) } else { Ev::ReceiverTimer(id) });
            }
            for mut pkt in out.send {
                if !from_sender {
                    self.acks += 1;
                    self.events.schedule(now + 20 * MS, Ev::ToSender(pkt));
                    continue;
                }
                self.arrivals += 1;
                let tx = tx_time_ns(pkt.size_bytes, 10_000_000);
                let full = self.link_free_at.saturating_sub(now) >= self.buffer * tx;
                if let Some(lost) = &mut self.lost_segments {
                    if let Some(i) = lost.iter().position(|&s| s * MSS == pkt.seq) {
                        lost.remove(i);
                        continue;
                    }
                } else if self.arrivals.is_multiple_of(41) {
                    if pkt.ecn == Ecn::NotEct {
                        continue;
                    }
                    pkt.ecn = Ecn::Ce;
                }
                if !full {
                    self.link_free_at = self.link_free_at.max(now) + tx;
                    self.events.schedule(self.link_free_at + 20 * MS, Ev::ToReceiver(pkt));
                }
            }
        }
    }

    fn transfer(cfg: &TcpConfig, buffer: u64) -> (TcpSender, TcpReceiver, Path) {
        transfer_over(cfg, Path { buffer, ..Path::default() })
    }

    fn transfer_over(cfg: &TcpConfig, mut path: Path) -> (TcpSender, TcpReceiver, Path) {
        let (mut tx, mut rx) = (TcpSender::new(cfg), TcpReceiver::new(cfg));
        let mut rng = Rng::stream(1, "t");
        let mut out = AgentOutput::default();
        tx.start(&mut AgentCtx::new(0, 0, &mut rng, &mut out));
        path.route(0, true, out);
        while let Some((now, ev)) = path.events.pop_until(120 * NS_PER_S) {
            let mut out = AgentOutput::default();
            let mut ctx = AgentCtx::new(now, 0, &mut rng, &mut out);
            let from_sender = match ev {
                Ev::ToReceiver(p) => {
                    rx.on_packet(p, &mut ctx);
                    false
                }
                Ev::ReceiverTimer(id) => {
                    rx.on_timer(id, &mut ctx);
                    false
                }
                Ev::ToSender(p) => {
                    tx.on_packet(p, &mut ctx);
                    true
                }
                Ev::SenderTimer(id) => {
                    tx.on_timer(id, &mut ctx);
                    true
                }
            };
            if from_sender {
                path.trace.push((now, tx.cwnd_bytes(), tx.state()));
            }
            path.route(now, from_sender, out);
            if tx.is_done() {
                break;
            }
        }
        (tx, rx, path)
    }

    #[test]
    fn a_megabyte_crosses_a_lossy_bottleneck_exactly_once() {
        // Buffer 20 with a small initial window: only the periodic losses.
        // Buffer 3 with a large one: overflow bursts and timeouts as well.
        let variants = [
            (Reno, false),
            (NewReno, false),
            (Cubic, false),
            (Dctcp, false),
            (NewReno, true),
            (Cubic, true),
            (Dctcp, true),
        ];
        for (cc, sack) in variants {
            for (delayed_ack, ecn, pacing) in (0..8).map(|i| (i & 1 == 1, i & 2 == 2, i & 4 == 4)) {
                if cc == Dctcp && !ecn {
                    continue;
                }
                for (buffer, icw) in [(20, 2), (3, 10)] {
                    let codepoint = if ecn { Ecn::Ect0 } else { Ecn::NotEct };
                    let c = TcpConfig {
                        transfer_bytes: Some(1_000_000),
                        delayed_ack,
                        ecn: codepoint,
                        pacing,
                        sack,
                        ..cfg(cc, icw)
                    };
                    let (tx, rx, path) = transfer(&c, buffer);
                    let run = format!(
                        "{cc:?} sack={sack} delayed_ack={delayed_ack} ecn={ecn} pacing={pacing} buffer={buffer}: {} ms, \
                         {} retransmits, {} timeouts, {} ECN reductions, {} timers, {} ACKs",
                        path.events.now() / MS,
                        tx.retransmits(),
                        tx.timeouts(),
                        tx.ecn_reductions(),
                        path.sender_timers,
                        path.acks
                    );
                    assert!(tx.is_done(), "{run}");
                    assert_eq!((path.delivered, rx.delivered_bytes(), rx.rcv_nxt()), (1_000_000, 1_000_000, 1_000_000));
                    assert!(path.events.now() < 20 * NS_PER_S, "{run}");
                    // Without overflow, ECN turns every loss into a mark.
                    assert_eq!(tx.retransmits() == 0, ecn && buffer == 20, "{run}");
                    assert_eq!(tx.ecn_reductions() > 0, ecn, "{run}");
                    // The RTO timer is not re-armed per ACK: far fewer timer events
                    // than ACKs; pacing adds at most one per segment.
                    let pacing_timers = if pacing { path.arrivals } else { 0 };
                    assert!(path.sender_timers * 5 < path.acks + 5 * pacing_timers, "{run}");
                }
            }
        }
    }

    /// SACK (RFC 2018) and RFC 6675 recovery.
    mod sack {
        use super::*;

        fn sack_cfg(initial_cwnd_packets: u32) -> TcpConfig {
            TcpConfig { sack: true, ..cfg(NewReno, initial_cwnd_packets) }
        }

        /// An ACK of `segments` carrying SACK blocks given in segments.
        fn sack_ack(segments: u64, blocks: &[(u64, u64)]) -> Packet {
            let mut p = ack(segments);
            p.set_sack(SackBlocks::new(p.ack, blocks.iter().map(|&(l, r)| (l * MSS, r * MSS))));
            p
        }

        /// SACK blocks of an ACK, in segments.
        fn blocks(p: &Packet) -> Vec<(u64, u64)> {
            p.sack().ranges(p.ack).map(|(l, r)| (l / MSS, r / MSS)).collect()
        }

        #[test]
        fn receiver_sends_up_to_four_blocks_most_recent_first() {
            let mut r = Drive::new(TcpReceiver::new(&sack_cfg(2)));
            let mut sent = Vec::new();
            for seg in [0, 2, 4, 6, 8, 10, 3] {
                sent.push(r.recv(0, data(seg)).send.remove(0));
            }
            type Reported = (u64, Vec<(u64, u64)>, u32);
            let reported: Vec<Reported> = sent.iter().map(|p| (p.ack / MSS, blocks(p), p.size_bytes)).collect();
            assert_eq!(
                reported,
                [
                    (1, vec![], 40),
                    (1, vec![(2, 3)], 40 + 10),
                    (1, vec![(4, 5), (2, 3)], 40 + 18),
                    (1, vec![(6, 7), (4, 5), (2, 3)], 40 + 26),
                    (1, vec![(8, 9), (6, 7), (4, 5), (2, 3)], 40 + 34),
                    // RFC 2018 §4: the oldest block drops out past four.
                    (1, vec![(10, 11), (8, 9), (6, 7), (4, 5)], 40 + 34),
                    // Segment 3 joins 2 and 4: that block is reported first.
                    (1, vec![(2, 5), (10, 11), (8, 9), (6, 7)], 40 + 34),
                ]
            );
            // Filling the hole at 1 delivers 1–4; the remaining blocks follow.
            let out = r.recv(0, data(1));
            assert_eq!((out.send[0].ack / MSS, blocks(&out.send[0])), (5, vec![(10, 11), (8, 9), (6, 7)]));
            // Without SACK the ACK carries no option.
            let mut plain = Drive::new(TcpReceiver::new(&cfg(NewReno, 2)));
            plain.recv(0, data(0));
            let p = plain.recv(0, data(2)).send.remove(0);
            assert_eq!((p.ext.is_none(), p.size_bytes), (true, ACK_BYTES));
        }

        #[test]
        fn first_duplicates_send_new_data_by_the_sacked_count() {
            // RFC 6675 §5 step (2): a SACKed segment has left the network, so
            // one new segment goes out per duplicate (limited transmit).
            let (mut s, out) = sender(&sack_cfg(10));
            assert_eq!(segs(&out), (0..10).collect::<Vec<_>>());
            assert_eq!(segs(&s.recv(100 * MS, sack_ack(0, &[(1, 2)]))), [10]);
            assert_eq!(segs(&s.recv(101 * MS, sack_ack(0, &[(1, 3)]))), [11]);
            assert_eq!((s.agent.state(), s.agent.cwnd_bytes()), (SlowStart, 10_000));
        }

        #[test]
        fn recovery_starts_when_is_lost_holds_even_before_three_duplicates() {
            // One duplicate SACKs three segments above the hole (the ACKs of
            // the others were lost): RFC 6675 §5 step (3).
            let (mut s, _) = sender(&sack_cfg(10));
            let out = s.recv(100 * MS, sack_ack(0, &[(1, 4)]));
            assert_eq!(segs(&out)[0], 0);
            // FlightSize 10: ssthresh = cwnd = 5, no inflation.
            assert_eq!((s.agent.state(), s.agent.ssthresh_bytes(), s.agent.cwnd_bytes()), (FastRecovery, 5000, 5000));
            assert_eq!(s.agent.retransmits(), 1);
        }

        #[test]
        fn recovery_retransmits_every_lost_segment_by_pipe_and_next_seg() {
            // Segments 0–9 out; 1, 4 and 6 lost.
            let (mut s, _) = sender(&sack_cfg(10));
            let mut sent = Vec::new();
            let mut arrived = vec![0u64];
            sent.extend(segs(&s.recv(100 * MS, ack(1))));
            assert_eq!(sent, [10, 11]);
            let mut t = 101 * MS;
            for seg in [2, 3, 5, 7, 8, 9, 10, 11] {
                arrived.push(seg);
                let ranges = ranges_above(1, &arrived);
                sent.extend(segs(&s.recv(t, sack_ack(1, &ranges))));
                t += MS;
            }
            // After 2 and 3 two new segments (limited transmit); at 5 three are
            // SACKed above 1: recovery. FlightSize then was 13 (1–13): ssthresh 6.5.
            assert_eq!(s.agent.ssthresh_bytes(), 6500);
            // 1 first (step 4.3), then 4 once three segments above it are SACKed
            // (rule 1), then new data as pipe allows; 6 follows when lost too.
            assert_eq!(s.agent.retransmits(), 3, "sent {sent:?}");
            let retransmitted: Vec<u64> = sent.iter().copied().filter(|&g| g < 12 && ![10, 11].contains(&g)).collect();
            assert_eq!(retransmitted, [1, 4, 6]);
            assert_eq!(s.agent.state(), FastRecovery);
            // The cumulative ACK reaching RecoveryPoint ends recovery at ssthresh.
            let recovery_point = s.agent.recover / MSS;
            s.recv(t + 50 * MS, ack(recovery_point));
            assert_eq!((s.agent.state(), s.agent.cwnd_bytes(), s.agent.timeouts()), (CongestionAvoidance, 6500, 0));
        }

        /// The received segments above `ack`, as merged [left, right) ranges, most recent first.
        fn ranges_above(ack: u64, arrived: &[u64]) -> Vec<(u64, u64)> {
            let mut sorted: Vec<u64> = arrived.iter().copied().filter(|&g| g > ack).collect();
            sorted.sort();
            let mut ranges: Vec<(u64, u64)> = Vec::new();
            for g in sorted {
                match ranges.last_mut() {
                    Some(r) if r.1 == g => r.1 = g + 1,
                    _ => ranges.push((g, g + 1)),
                }
            }
            let last = *arrived.last().unwrap_or(&0);
            ranges.sort_by_key(|&(l, r)| !(l <= last && last < r));
            ranges
        }

        #[test]
        fn a_timeout_during_recovery_keeps_the_ssthresh_recovery_set() {
            let (mut s, _) = sender(&sack_cfg(10));
            s.recv(100 * MS, sack_ack(0, &[(1, 4)]));
            assert_eq!((s.agent.state(), s.agent.ssthresh_bytes()), (FastRecovery, 5000));
            // The rest of the window arrives; new data goes out, the retransmission of 0 is lost.
            let mut sent = Vec::new();
            for hi in 5..=10 {
                sent.extend(segs(&s.recv(100 * MS + hi * MS, sack_ack(0, &[(1, hi)]))));
            }
            assert!(s.agent.flight_size() >= 14 * MSS, "sent {sent:?}");
            // The SACK samples have set the RTO; run to its first expiry.
            let deadline = rto_deadline(&s).unwrap();
            s.advance(deadline);
            // Halving FlightSize would give at least 7 segments.
            assert_eq!(
                (s.agent.timeouts(), s.agent.state(), s.agent.cwnd_bytes(), s.agent.ssthresh_bytes()),
                (1, SlowStart, 1000, 5000)
            );
        }

        #[test]
        fn rescue_retransmission_resends_the_tail_without_waiting_for_the_timer() {
            // A 10-segment transfer loses 0 and 9: nothing is ever SACKed above
            // 9, so only rule (4) resends it before the RTO, and only once the
            // cumulative ACK has passed the first retransmission (RFC 6675 §5
            // step 4.3 sets RescueRxt with HighRxt on entering recovery).
            let c = TcpConfig { transfer_bytes: Some(10 * MSS), ..sack_cfg(10) };
            let (mut s, _) = sender(&c);
            let mut sent = Vec::new();
            for (i, hi) in (2..=9).enumerate() {
                sent.extend(segs(&s.recv(100 * MS + i as u64 * MS, sack_ack(0, &[(1, hi)]))));
            }
            assert_eq!(sent, [0]);
            // The retransmitted 0 arrives: the ACK for 9 segments lets the rescue go.
            assert_eq!(segs(&s.recv(140 * MS, ack(9))), [9]);
            assert_eq!((s.agent.state(), s.agent.retransmits()), (FastRecovery, 2));
            assert!(s.recv(150 * MS, ack(10)).send.is_empty());
            assert_eq!((s.agent.state(), s.agent.timeouts()), (Done, 0));
        }

        #[test]
        fn sack_repairs_several_losses_in_one_window_without_a_timeout() {
            // Five of twenty segments lost in one window. NewReno
            // repairs one per round trip; Reno times out; SACK repairs all in
            // about one round trip, with no timeout and no needless retransmission.
            let lost = vec![3, 5, 8, 12, 15];
            let run = |sack: bool, cc: CcVariant| {
                let c = TcpConfig { transfer_bytes: Some(20 * MSS), sack, ..cfg(cc, 20) };
                let (tx, rx, path) =
                    transfer_over(&c, Path { buffer: 100, lost_segments: Some(lost.clone()), ..Path::default() });
                assert_eq!(rx.delivered_bytes(), 20 * MSS);
                (tx.timeouts(), tx.retransmits(), path.events.now() / MS)
            };
            let (sack_timeouts, sack_retransmits, sack_ms) = run(true, NewReno);
            let (newreno_timeouts, newreno_retransmits, newreno_ms) = run(false, NewReno);
            let (reno_timeouts, _, reno_ms) = run(false, CcVariant::Reno);
            // The five, and the rescue of the tail once no new data is left (rule 4).
            assert_eq!((sack_timeouts, sack_retransmits), (0, 6));
            assert_eq!((newreno_timeouts, newreno_retransmits), (0, 5));
            assert!(reno_timeouts >= 1);
            // Each round trip is about 40 ms plus queueing.
            assert!(newreno_ms >= sack_ms + 3 * 40, "SACK {sack_ms} ms, NewReno {newreno_ms} ms");
            assert!(reno_ms > newreno_ms, "Reno {reno_ms} ms, NewReno {newreno_ms} ms");
        }
    }

    /// CUBIC in a simulated transfer (RFC 9438).
    mod cubic {
        use super::*;
        use crate::transport::tcp::cc::cubic::CubicOptions;
        use crate::transport::tcp::cc::cubic::{BETA, C};
        use crate::transport::tcp::cc::hystart::SlowStartExit;

        /// A 2 000-segment transfer over the test path with a buffer that
        /// never overflows (BDP 48 segments: 10 Mb/s, 40 ms, 1 040-byte
        /// packets): the window where slow start ended (None if it never
        /// did) and the retransmissions.
        fn slow_start_end(exit: SlowStartExit) -> (Option<u64>, u64) {
            let cubic = CubicOptions { slow_start_exit: exit, ..CubicOptions::default() };
            let c = TcpConfig { transfer_bytes: Some(2_000 * MSS), sack: true, cubic, ..cfg(Cubic, 2) };
            let (tx, _, path) =
                transfer_over(&c, Path { buffer: 100_000, lost_segments: Some(vec![]), ..Path::default() });
            let end = path.trace.iter().find(|e| e.2 == CongestionAvoidance).map(|e| e.1 / MSS);
            (end, tx.retransmits())
        }

        #[test]
        fn hystart_ends_slow_start_near_the_path_bdp_without_a_loss() {
            let [linux, ns3, plus_plus, off] = [
                SlowStartExit::HystartLinux,
                SlowStartExit::HystartNs3,
                SlowStartExit::HystartPlusPlus,
                SlowStartExit::Off,
            ]
            .map(slow_start_end);
            let all = format!("Linux {linux:?}, ns-3 {ns3:?}, HyStart++ {plus_plus:?}, off {off:?}");
            // The window doubles per round from 2; bottleneck-spaced ACKs
            // (0.83 ms apart) make a round of W segments a train of W·0.83 ms.
            // Linux's train must outlast 20 ms (24 ACKs): the round that starts
            // at 32 ends it near 32 + 24; ns-3's 40 ms (48 ACKs): near 64 + 48.
            assert!(linux.0.is_some_and(|w| (40..=72).contains(&w)), "{all}");
            assert!(ns3.0.is_some_and(|w| (96..=128).contains(&w)), "{all}");
            // RFC 9406 compares round minima, and a round's minimum is its
            // first segment's, sent a round earlier: the rise (16 packets
            // queued, 13 ms) shows in the round that starts at 128. CSS then
            // runs 5 rounds at a quarter of the growth, 1.25× per round:
            // about 136·1.25⁵ ≈ 415.
            assert!(plus_plus.0.is_some_and(|w| (350..=450).contains(&w)), "{all}");
            assert_eq!((linux.1, ns3.1, plus_plus.1), (0, 0, 0), "{all}");
            // Without an exit, slow start runs on while the buffer holds.
            assert_eq!(off, (None, 0));
        }

        #[test]
        fn cwnd_follows_the_cubic_curve_between_losses() {
            // One loss in slow start (which HyStart would end before it);
            // afterwards a buffer that never overflows.
            let cubic = CubicOptions { slow_start_exit: SlowStartExit::Off, ..CubicOptions::default() };
            let c = TcpConfig { transfer_bytes: Some(12_000 * MSS), sack: true, cubic, ..cfg(Cubic, 2) };
            let path = Path { buffer: 100_000, lost_segments: Some(vec![150]), ..Path::default() };
            let (tx, _, path) = transfer_over(&c, path);
            assert_eq!((tx.timeouts(), tx.retransmits()), (0, 1));
            let trace = &path.trace;
            let recovery = trace.iter().position(|e| e.2 == FastRecovery).expect("a recovery");
            let w_max = trace[recovery - 1].1 as f64 / MSS as f64;
            // The stage (epoch) begins with the first ACK in congestion avoidance after recovery.
            let first_ca =
                recovery + trace[recovery..].iter().position(|e| e.2 == CongestionAvoidance).expect("avoidance");
            let (t0, cwnd_epoch, _) = trace[first_ca];
            let cwnd_epoch = cwnd_epoch as f64 / MSS as f64;
            // ssthresh = β·FlightSize, the flight being the window then.
            assert!((cwnd_epoch / w_max - BETA).abs() < 0.02, "{cwnd_epoch} after {w_max}");
            let k = libm::cbrt((w_max - cwnd_epoch) / C);
            let mut checked = 0;
            for &(t, cwnd, state) in &trace[first_ca..] {
                let t_s = (t - t0) as f64 / NS_PER_S as f64;
                if t_s > 2.0 * k {
                    break;
                }
                assert_eq!(state, CongestionAvoidance, "no other loss at {t_s} s");
                let w = cwnd as f64 / MSS as f64;
                let expected = C * (t_s - k).powi(3) + w_max;
                // The window aims one RTT ahead, reached in about one RTT.
                assert!((w - expected).abs() <= 2.0 + 0.02 * expected, "t − t0 = {t_s:.3} s: {w:.2} vs {expected:.2}");
                checked += 1;
            }
            assert!(k > 3.0 && checked > 1000, "K = {k} s, {checked} points");
        }
    }

    /// DCTCP over its step marker (RFC 8257 §3.1) in
    /// scenarios/dctcp-datacenter.json: 1 Gb/s, RTTs of about 0.3 ms
    /// (C·RTT ≈ 25 packets), K = 20 packets.
    mod datacenter {
        use crate::metrics::Summary;
        use crate::testing::run;

        const PRESET: &str = include_str!("../../../../scenarios/dctcp-datacenter.json");

        fn with_cc(cc: &str) -> Summary {
            let mut v: serde_json::Value = serde_json::from_str(PRESET).expect("a scenario");
            v["flows"][0]["cc"] = cc.into();
            run(&v.to_string())
        }

        #[test]
        fn dctcp_holds_the_queue_near_k_at_full_utilisation_without_a_drop() {
            let s = with_cc("dctcp");
            let k = 20.0;
            assert!(s.utilization > 0.995, "{}", s.utilization);
            assert!((s.queue.mean_packets / k - 1.0).abs() < 0.25, "{}", s.queue.mean_packets);
            assert_eq!((s.drops.total, s.host_drops), (0, 0));
            assert!(s.marks > 0 && s.flows.iter().all(|f| f.marked_packets > 0));
            // Alizadeh et al. 2010 §3.3: halving on every window of marks
            // with K below C·RTT drains the queue and loses throughput.
            let reno = with_cc("newreno");
            assert!(reno.utilization < 0.98 && reno.drops.total == 0, "{}", reno.utilization);
        }
    }

    /// The ns-3 comparison dumbbell (scenarios/ns3-dumbbell-*.json, with
    /// ns-3's 1 ms of access jitter), whole: AQM Lab against ns-3.44 with the
    /// same settings (IW 2, min RTO 200 ms, ACK every segment, SACK, 3 seeds).
    mod ns3_dumbbell {
        use crate::metrics::Summary;
        use crate::testing::run;

        const SACK: &str = include_str!("../../../../scenarios/ns3-dumbbell-sack.json");
        const CUBIC_SACK: &str = include_str!("../../../../scenarios/ns3-dumbbell-cubic-sack.json");

        fn with(text: &str, patch: impl Fn(&mut serde_json::Value)) -> Summary {
            let mut v: serde_json::Value = serde_json::from_str(text).expect("a scenario");
            patch(&mut v);
            run(&v.to_string())
        }

        #[test]
        fn sack_narrows_red_goodput_gap() {
            // Clustered early drops: without SACK some end in go-back-N timeouts.
            let mean = |sack: bool| {
                (1..=3u64)
                    .map(|seed| {
                        with(SACK, |v| {
                            v["seed"] = seed.into();
                            v["flows"][0]["sack"] = sack.into();
                        })
                        .aggregate_goodput_bps
                    })
                    .sum::<f64>()
                    / 3.0
            };
            let (with_sack, without) = (mean(true), mean(false));
            assert!(with_sack > 1.01 * without, "{with_sack} with SACK, {without} without");
        }

        /// Means over seeds 1–3 within 5% of ns-3's goodput, 30% of its mean
        /// queue and 0.08 of its Jain index, for every scheme ns-3 was run with.
        #[test]
        #[ignore = "long: npm run test:long"]
        fn every_scheme_lands_near_ns3() {
            let red = serde_json::json!({ "min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002, "gentle": false });
            let gentle = serde_json::json!({ "min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002, "gentle": true });
            let nlred = serde_json::json!({ "min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002 });
            let none = serde_json::json!({});
            let step = serde_json::json!({ "min_th": 20, "max_th": 20, "w_q": 1, "ecn": true });
            let mut dctcp: serde_json::Value = serde_json::from_str(SACK).expect("a scenario");
            dctcp["flows"][0]["cc"] = "dctcp".into();
            dctcp["flows"][0]["ecn"] = true.into();
            let dctcp = dctcp.to_string();
            let mut bbr: serde_json::Value = serde_json::from_str(SACK).expect("a scenario");
            bbr["flows"][0]["cc"] = "bbr".into();
            let bbr = bbr.to_string();
            // (preset, scheme, params, ns-3 goodput Mb/s, mean queue packets, Jain)
            let table = [
                (SACK, "red", &red, 9.00, 8.1, 0.88),
                (SACK, "red", &gentle, 9.03, 8.2, 0.88),
                (SACK, "nlred", &nlred, 8.97, 9.1, 0.86),
                (SACK, "droptail", &none, 9.54, 65.6, 0.94),
                (SACK, "fq_codel", &none, 9.48, 13.3, 1.00),
                (&dctcp, "red", &step, 9.58, 14.6, 0.82),
                (CUBIC_SACK, "red", &red, 9.46, 7.9, 0.89),
                (CUBIC_SACK, "droptail", &none, 9.49, 79.3, 0.90),
                (CUBIC_SACK, "codel", &none, 9.55, 13.9, 0.89),
                (CUBIC_SACK, "fq_codel", &none, 9.59, 16.4, 1.00),
                (SACK, "fq_pie", &none, 9.57, 31.1, 1.00),
                (SACK, "cobalt", &none, 9.10, 7.9, 0.87),
                (SACK, "fq_cobalt", &none, 9.22, 7.8, 0.98),
                (&bbr, "droptail", &none, 9.23, 93.7, 0.86),
                (&bbr, "fq_codel", &none, 9.30, 40.8, 1.00),
            ];
            let mut misses = Vec::new();
            for (preset, scheme, params, goodput_mbps, queue_packets, jain) in table {
                let (mut g, mut q, mut j) = (0.0, 0.0, 0.0);
                for seed in 1..=3 {
                    let s = with(preset, |v| {
                        v["seed"] = seed.into();
                        v["queue"] = serde_json::json!({ "scheme": scheme, "params": params });
                    });
                    g += s.aggregate_goodput_bps / 1e6 / 3.0;
                    q += s.queue.mean_packets / 3.0;
                    j += s.fairness.jain_all.unwrap_or(0.0) / 3.0;
                }
                let near = (g / goodput_mbps - 1.0).abs() <= 0.05
                    && (q / queue_packets - 1.0).abs() <= 0.30
                    && (j - jain).abs() <= 0.08;
                if !near {
                    misses.push(format!(
                        "{scheme} {params}: {g:.2} Mb/s, {q:.1} packets, Jain {j:.2} \
                         (ns-3 {goodput_mbps}, {queue_packets}, {jain})"
                    ));
                }
            }
            assert!(misses.is_empty(), "{misses:#?}");
        }
    }
}
