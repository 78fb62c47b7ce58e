//! TCP-Friendly Rate Control (RFC 5348): a rate-paced source that always has
//! data, and a receiver that measures the loss event rate and reports about
//! once per round trip. Nothing is retransmitted, so every packet received
//! is goodput.
//!
//! The sender is an explicit state machine ([`TfrcState`]); each RFC rule is
//! a small method named after it. Where the RFC leaves room:
//! - A data packet is `segment_bytes + 40` on the wire, the header of a TCP
//!   segment, so that TFRC and TCP compare like for like; a feedback packet
//!   is 40 bytes, like a pure ACK. The equation's s is the payload (§3.1:
//!   "excluding IP and transport protocol headers"), as TCP's MSS is, and X
//!   counts payload bytes per second.
//! - Packets leave exactly s/X apart (§4.6 with no timer granularity, so
//!   no bursts); a new X moves the next departure to last departure + s/X.
//! - The equation uses b = 1 and t_RTO = 4R (§3.1).
//! - The source is never idle or data-limited while it runs, so the
//!   data-limited branches of §4.3 and the idle exceptions of §4.4 never
//!   apply and are left out.
//! - No oscillation prevention (§4.5, optional) and no history discounting
//!   (§5.5, optional): the open interval I_0 counts only when it raises the
//!   average (§5.4's max of I_tot0 and I_tot1).
//! - Loss detection waits for NDUPACK = 3 later packets (§5.1); a lost
//!   packet's send time is interpolated between its received neighbours
//!   (§5.2). A packet that arrives after it was declared lost is goodput but
//!   the loss stands; the simulated network never reorders a flow's packets,
//!   so this does not arise.
//! - The first loss interval is synthesised from the receive rate of the
//!   last RTT by inverting the equation (§6.3.1).
//! - The receiver reports at the first packet (§6.3), every R_m while data
//!   arrives (§6.2, R_m being the sender's R carried by the latest packet),
//!   and at once when p increases (§6.1 step 3), which happens only when a
//!   new loss event begins. X_recv counts the packets of the past R_m, or
//!   since the first packet not yet reported if that is longer.
//! - Until the sender has an RTT sample its packets carry R = 0: the receiver
//!   then answers every packet, reports X_recv = 0 and cannot group losses
//!   (each one starts a loss event). The sender's nofeedback interval uses
//!   2 s in place of 4R while it has no R.
//! - Packets are not ECN-capable.

use super::tcp::Timer;
use super::{Agent, AgentCtx, AgentProbe, TimerId};
use crate::kernel::{secs_f64, to_secs, Nanos, NS_PER_MS, NS_PER_S};
use crate::net::{Dir, Packet, PacketKind, TfrcHeader, ACK_BYTES, TCP_HEADER_BYTES};
use std::collections::{BTreeMap, VecDeque};

/// Per-flow TFRC configuration (docs/scenario-format.md `tfrc` flows).
#[derive(Clone, Debug)]
pub struct TfrcConfig {
    /// Payload bytes per packet (s); the wire size is this + 40.
    pub segment_bytes: u32,
}

/// §4.3: t_mbi, the maximum backoff interval: X never falls below s/t_mbi.
const T_MBI_S: f64 = 64.0;
/// §4.2: the nofeedback timeout before the sender has an RTT sample.
const NO_RTT_NOFEEDBACK_NS: Nanos = 2 * NS_PER_S;
/// §5.1: the later arrivals that reveal a missing packet as lost.
const NDUPACK: u32 = 3;
/// §5.4: the weights of the n = 8 most recent loss intervals.
const LOSS_INTERVAL_WEIGHTS: [f64; 8] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

/// RFC 5348 §3.1 (Cho & Cho 2002 eq. 13): TCP's average sending rate in bytes/s
/// for segment size `s` bytes, round-trip time `rtt_s`, loss event rate `p`
/// and retransmission timeout `t_rto_s`, with one packet per ACK (b = 1):
/// s / (R·√(2p/3) + t_RTO·3·√(3p/8)·p·(1 + 32p²)). Infinite for p = 0.
pub fn throughput_equation(s: f64, rtt_s: f64, p: f64, t_rto_s: f64) -> f64 {
    let timeouts = t_rto_s * 3.0 * libm::sqrt(3.0 * p / 8.0) * p * (1.0 + 32.0 * p * p);
    s / (rtt_s * libm::sqrt(2.0 * p / 3.0) + timeouts)
}

/// The equation as TFRC uses it: t_RTO = 4R (§3.1).
pub fn tfrc_rate(s: f64, rtt_s: f64, p: f64) -> f64 {
    throughput_equation(s, rtt_s, p, 4.0 * rtt_s)
}

/// The loss event rate at which [`tfrc_rate`] gives `x` bytes/s, in
/// [1e-9, 1], by bisection on log p (the rate falls as p grows).
fn loss_event_rate_for(s: f64, rtt_s: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (libm::log(1e-9), 0.0);
    for _ in 0..64 {
        let mid = (lo + hi) / 2.0;
        if tfrc_rate(s, rtt_s, libm::exp(mid)) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    libm::exp(hi)
}

/// RFC 5348 §5.4: the average loss interval from the open interval I_0
/// (packets since the most recent loss event began) and the closed ones
/// I_1, I_2, … (most recent first; beyond n = 8 they are ignored):
/// max(Σ w_i·I_i for i < k, Σ w_i·I_(i+1) for i < k) / Σ w_i for i < k, with
/// k the number of closed intervals used. None before any loss event.
pub fn average_loss_interval(open: f64, closed: &[f64]) -> Option<f64> {
    let w = &LOSS_INTERVAL_WEIGHTS[..closed.len().min(LOSS_INTERVAL_WEIGHTS.len())];
    let i_tot0: f64 = std::iter::once(&open).chain(closed).zip(w).map(|(i, w)| i * w).sum();
    let i_tot1: f64 = closed.iter().zip(w).map(|(i, w)| i * w).sum();
    (!w.is_empty()).then(|| i_tot0.max(i_tot1) / w.iter().sum::<f64>())
}

/// The sender's congestion-control state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TfrcState {
    /// No feedback yet: one packet per second (§4.2).
    AwaitingFeedback,
    /// Feedback reports p = 0: X doubles once per RTT, up to twice the
    /// receive rate (§4.3 step 4, "initial slow-start").
    SlowStart,
    /// p > 0: X follows the throughput equation, up to twice the receive rate.
    Equation,
    /// `stop()` was called: nothing more is sent.
    Stopped,
}

/// The data source: paces packets at X and adapts X to the feedback.
pub struct TfrcSender {
    /// Payload bytes per packet.
    s: f64,
    state: TfrcState,
    /// Allowed sending rate X, payload bytes/s.
    x: f64,
    /// X_Bps: the equation's rate at the last feedback with p > 0.
    x_bps: f64,
    /// The receive rate the last feedback reported.
    x_recv: f64,
    /// §4.3's X_recv_set: recent receive rates and when they were recorded.
    x_recv_set: Vec<(f64, Nanos)>,
    p: f64,
    /// Smoothed RTT R, None before the first feedback.
    rtt: Option<Nanos>,
    /// §4.3's tld: when X last doubled in slow start.
    tld: Nanos,
    next_seq: u64,
    last_sent: Nanos,
    next_send: Nanos,
    nofeedback_at: Nanos,
    /// Fires at the earlier of the next departure and the nofeedback deadline.
    timer: Timer,
    feedbacks: u64,
    nofeedback_expiries: u64,
}

impl TfrcSender {
    pub fn new(cfg: &TfrcConfig) -> TfrcSender {
        let s = cfg.segment_bytes.max(1) as f64;
        TfrcSender {
            s,
            state: TfrcState::AwaitingFeedback,
            // §4.2: one packet per second until the first feedback.
            x: s,
            x_bps: 0.0,
            x_recv: 0.0,
            x_recv_set: Vec::new(),
            p: 0.0,
            rtt: None,
            tld: 0,
            next_seq: 0,
            last_sent: 0,
            next_send: 0,
            nofeedback_at: NO_RTT_NOFEEDBACK_NS,
            timer: Timer::default(),
            feedbacks: 0,
            nofeedback_expiries: 0,
        }
    }

    pub fn state(&self) -> TfrcState {
        self.state
    }

    /// The allowed sending rate X in payload bytes/s.
    pub fn rate_bytes_per_s(&self) -> f64 {
        self.x
    }

    pub fn rtt_ns(&self) -> Option<Nanos> {
        self.rtt
    }

    /// The loss event rate of the last feedback.
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }

    pub fn packets_sent(&self) -> u64 {
        self.next_seq
    }

    pub fn feedbacks(&self) -> u64 {
        self.feedbacks
    }

    pub fn nofeedback_expiries(&self) -> u64 {
        self.nofeedback_expiries
    }

    fn min_rate(&self) -> f64 {
        self.s / T_MBI_S
    }

    /// §4.2: W_init/R with W_init = min(4s, max(2s, 4380)) (RFC 3390's window).
    fn initial_rate(&self, rtt: Nanos) -> f64 {
        (4.0 * self.s).min((2.0 * self.s).max(4380.0)) / to_secs(rtt)
    }

    /// §4.3 steps 1–2: R_sample = now − t_recvdata − t_delay; the first
    /// sample is R, later ones enter R = q·R + (1 − q)·R_sample with q = 0.9.
    fn update_rtt(&mut self, now: Nanos, t_recvdata: Nanos, t_delay: Nanos) -> Nanos {
        let sample = now.saturating_sub(t_recvdata).saturating_sub(t_delay).max(1);
        let rtt = self.rtt.map_or(sample, |r| (9 * r + sample) / 10);
        self.rtt = Some(rtt);
        rtt
    }

    /// §4.3 "Update X_recv_set": add the new report and forget those older
    /// than two RTTs; returns recv_limit = 2·max(X_recv_set).
    fn update_x_recv_set(&mut self, x_recv: f64, now: Nanos, rtt: Nanos) -> f64 {
        self.x_recv_set.push((x_recv, now));
        self.x_recv_set.retain(|&(_, at)| at + 2 * rtt >= now);
        2.0 * self.x_recv_set.iter().fold(0.0, |m, &(x, _)| x.max(m))
    }

    /// §4.3 step 4 with p > 0: X = max(min(X_Bps, recv_limit), s/t_mbi).
    fn follow_the_equation(&mut self, recv_limit: f64, rtt: Nanos) {
        self.x_bps = tfrc_rate(self.s, to_secs(rtt), self.p);
        self.x = self.x_bps.min(recv_limit).max(self.min_rate());
        self.state = TfrcState::Equation;
    }

    /// §4.3 step 4 with p = 0: at most once per RTT, X = max(min(2X,
    /// recv_limit), initial rate).
    fn slow_start(&mut self, recv_limit: f64, rtt: Nanos, now: Nanos) {
        if now - self.tld >= rtt {
            self.x = (2.0 * self.x).min(recv_limit).max(self.initial_rate(rtt));
            self.tld = now;
        }
        self.state = TfrcState::SlowStart;
    }

    /// §4.3: a feedback packet updates R, X_recv_set and X, and restarts the
    /// nofeedback timer. The first one sets X to the initial rate (§4.2).
    fn on_feedback(&mut self, t_recvdata: Nanos, t_delay: Nanos, x_recv: f64, p: f64, ctx: &mut AgentCtx) {
        self.feedbacks += 1;
        let rtt = self.update_rtt(ctx.now, t_recvdata, t_delay);
        if self.state == TfrcState::AwaitingFeedback {
            self.x = self.initial_rate(rtt);
            self.tld = ctx.now;
        }
        self.x_recv = x_recv;
        self.p = p;
        let recv_limit = self.update_x_recv_set(x_recv, ctx.now, rtt);
        if p > 0.0 {
            self.follow_the_equation(recv_limit, rtt);
        } else {
            self.slow_start(recv_limit, rtt, ctx.now);
        }
        self.restart_nofeedback_timer(ctx.now);
        self.repace(ctx.now);
        self.arm(ctx);
    }

    /// §4.3 step 6 and §4.4 step 2: max(4R, 2s/X), 2 s standing in for 4R
    /// before there is an R.
    fn restart_nofeedback_timer(&mut self, now: Nanos) {
        let four_r = self.rtt.map_or(NO_RTT_NOFEEDBACK_NS, |r| 4 * r);
        self.nofeedback_at = now + four_r.max(secs_f64(2.0 * self.s / self.x));
    }

    /// §4.4 step 1 for a sender that is never idle: halve X directly while
    /// there is no X_Bps; otherwise halve whichever of X_Bps and 2·X_recv was
    /// limiting X, through the receive-rate limit so that slow start can
    /// recover if feedback resumes without loss.
    fn nofeedback_timer_expired(&mut self, now: Nanos) {
        self.nofeedback_expiries += 1;
        match self.state {
            TfrcState::AwaitingFeedback | TfrcState::SlowStart => self.x = (self.x / 2.0).max(self.min_rate()),
            TfrcState::Equation if self.x_bps > 2.0 * self.x_recv => self.update_limits(self.x_recv, now),
            TfrcState::Equation => self.update_limits(self.x_bps / 2.0, now),
            TfrcState::Stopped => {}
        }
        self.restart_nofeedback_timer(now);
    }

    /// §4.4 "Update_Limits": X_recv_set = {timer_limit/2}, then X as in §4.3
    /// step 4, where recv_limit is now timer_limit.
    fn update_limits(&mut self, timer_limit: f64, now: Nanos) {
        let limit = timer_limit.max(self.min_rate());
        self.x_recv_set = vec![(limit / 2.0, now)];
        self.x = self.x_bps.min(limit).max(self.min_rate());
    }

    /// §4.6: at the current X, the next packet leaves s/X after the last
    /// one, or now if that is past.
    fn repace(&mut self, now: Nanos) {
        self.next_send = (self.last_sent + self.interpacket_gap()).max(now);
    }

    fn interpacket_gap(&self) -> Nanos {
        secs_f64(self.s / self.x).max(1)
    }

    fn arm(&mut self, ctx: &mut AgentCtx) {
        self.timer.set(self.next_send.min(self.nofeedback_at), ctx);
    }

    /// §3.2.1: sequence number, timestamp (`sent_at`, stamped by the
    /// network) and the sender's RTT estimate.
    fn send_packet(&mut self, ctx: &mut AgentCtx) {
        let payload = self.s as u32;
        let mut pkt = Packet::new(ctx.flow, PacketKind::Data, Dir::Forward, payload + TCP_HEADER_BYTES, payload);
        pkt.seq = self.next_seq;
        pkt.set_tfrc(TfrcHeader::Data { rtt_ns: self.rtt.unwrap_or(0) });
        ctx.send(pkt);
        self.next_seq += 1;
        self.last_sent = ctx.now;
        self.next_send = ctx.now + self.interpacket_gap();
    }
}

impl Agent for TfrcSender {
    /// §4.2: send at once, one packet per second; X_recv_set starts with one
    /// infinite rate, so the receive rate limits nothing until reports from
    /// two RTTs have replaced it.
    fn start(&mut self, ctx: &mut AgentCtx) {
        self.x_recv_set = vec![(f64::INFINITY, ctx.now)];
        self.nofeedback_at = ctx.now + NO_RTT_NOFEEDBACK_NS;
        self.send_packet(ctx);
        self.arm(ctx);
    }

    fn stop(&mut self, _: &mut AgentCtx) {
        self.state = TfrcState::Stopped;
        self.timer.clear();
    }

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        match pkt.tfrc() {
            Some(&TfrcHeader::Feedback { t_recvdata, t_delay, x_recv, p }) if self.state != TfrcState::Stopped => {
                self.on_feedback(t_recvdata, t_delay, x_recv, p, ctx)
            }
            _ => {}
        }
    }

    fn on_timer(&mut self, id: TimerId, ctx: &mut AgentCtx) {
        if self.state == TfrcState::Stopped || !self.timer.fired(id, ctx) {
            return;
        }
        if ctx.now >= self.nofeedback_at {
            self.nofeedback_timer_expired(ctx.now);
            self.repace(ctx.now);
        }
        if ctx.now >= self.next_send {
            self.send_packet(ctx);
        }
        self.arm(ctx);
    }

    /// The window that sends X for one RTT: X·R/s packets.
    fn probe(&self) -> AgentProbe {
        match self.rtt {
            Some(r) => AgentProbe { cwnd_packets: self.x * to_secs(r) / self.s, srtt_ms: r as f64 / NS_PER_MS as f64 },
            None => AgentProbe::default(),
        }
    }
}

/// A missing packet not yet declared lost.
#[derive(Clone, Copy, Debug)]
struct Hole {
    /// Packets with a higher sequence number that arrived since.
    later_arrivals: u32,
    /// Its send time, interpolated (§5.2).
    sent_at: Nanos,
}

/// The receiver's loss history (§5): missing packets, loss events and the
/// loss intervals between them. It begins with the first packet received
/// (§6.3): nothing is known of earlier ones.
#[derive(Default)]
struct LossHistory {
    /// The highest sequence number received and its send time.
    highest: Option<(u64, Nanos)>,
    holes: BTreeMap<u64, Hole>,
    /// The first lost packet of the most recent loss event: (seq, send time).
    event: Option<(u64, Nanos)>,
    /// Closed loss intervals in packets, most recent first, at most n.
    closed: Vec<f64>,
    events: u64,
    lost: u64,
}

impl LossHistory {
    /// Record an arrival; returns the packets it reveals as lost (§5.1),
    /// in sequence order, with their interpolated send times.
    fn arrive(&mut self, seq: u64, sent_at: Nanos) -> Vec<(u64, Nanos)> {
        match self.highest {
            Some((top, top_sent)) if seq > top => {
                for missing in top + 1..seq {
                    let sent = interpolate(top, top_sent, seq, sent_at, missing);
                    self.holes.insert(missing, Hole { later_arrivals: 0, sent_at: sent });
                }
                self.highest = Some((seq, sent_at));
            }
            Some(_) => {
                self.holes.remove(&seq);
            }
            None => self.highest = Some((seq, sent_at)),
        }
        let mut lost = Vec::new();
        for (&missing, hole) in self.holes.range_mut(..seq) {
            hole.later_arrivals += 1;
            if hole.later_arrivals >= NDUPACK {
                lost.push((missing, hole.sent_at));
            }
        }
        for (missing, _) in &lost {
            self.holes.remove(missing);
        }
        self.lost += lost.len() as u64;
        lost
    }

    /// §5.2: a loss sent more than one RTT after the first loss of the
    /// current event starts a new event, closing the interval since that
    /// one (§5.3); the very first event's closed interval is `synthetic()`
    /// (§6.3.1).
    fn add_loss(&mut self, seq: u64, sent_at: Nanos, rtt: Nanos, synthetic: impl FnOnce() -> f64) {
        let interval = match self.event {
            Some((_, first_sent)) if rtt > 0 && sent_at <= first_sent + rtt => return,
            Some((first, _)) => (seq - first) as f64,
            None => synthetic(),
        };
        self.closed.insert(0, interval);
        self.closed.truncate(LOSS_INTERVAL_WEIGHTS.len());
        self.event = Some((seq, sent_at));
        self.events += 1;
    }

    /// §5.4: p = 1 / average loss interval; 0 before any loss event.
    fn loss_event_rate(&self) -> f64 {
        let (Some((first, _)), Some((top, _))) = (self.event, self.highest) else { return 0.0 };
        let open = (top + 1 - first) as f64;
        average_loss_interval(open, &self.closed).map_or(0.0, |mean| 1.0 / mean)
    }
}

/// §5.2: T_loss = T_before + (T_after − T_before)·(S_loss − S_before)/(S_after − S_before).
fn interpolate(s_before: u64, t_before: Nanos, s_after: u64, t_after: Nanos, s_loss: u64) -> Nanos {
    let span = t_after.saturating_sub(t_before) as u128;
    t_before + (span * (s_loss - s_before) as u128 / (s_after - s_before) as u128) as Nanos
}

/// §6.3.1: the loss interval that would give the receive rate `x_recv` by
/// the equation; without a receive rate (no RTT yet), the packets received.
fn first_loss_interval(s: f64, rtt: Nanos, x_recv: f64, packets: u64) -> f64 {
    if x_recv > 0.0 {
        1.0 / loss_event_rate_for(s, to_secs(rtt), x_recv)
    } else {
        packets as f64
    }
}

/// The data sink: delivers every packet, tracks losses and reports.
///
/// §6.2's feedback timer expires every R_m even while no data arrives, and
/// only then skips the report. Rather than fire for nothing (forever, once a
/// flow stops), it goes quiet and the next packet re-arms it at the expiry
/// it would have reached: the same reports, without the idle events.
pub struct TfrcReceiver {
    /// The sender's RTT estimate carried by the latest packet (0 = none yet).
    rtt: Nanos,
    /// Payload bytes of the latest packet (s, for the synthetic interval).
    s: u32,
    /// Arrivals within the last RTT or so: (arrival time, payload bytes).
    recent: VecDeque<(Nanos, u32)>,
    /// The latest data packet: (its timestamp, its arrival time).
    last_data: (Nanos, Nanos),
    losses: LossHistory,
    packets: u64,
    /// The loss event rate after the latest packet.
    p: f64,
    /// Arrival of the first packet not yet covered by a report.
    unreported_since: Option<Nanos>,
    feedback_timer: Timer,
    /// The feedback timer found no data at this expiry and went quiet:
    /// (when, the R_m it was running on).
    quiet_since: Option<(Nanos, Nanos)>,
    delivered: u64,
    feedbacks: u64,
}

impl Default for TfrcReceiver {
    fn default() -> Self {
        Self::new()
    }
}

impl TfrcReceiver {
    pub fn new() -> TfrcReceiver {
        TfrcReceiver {
            rtt: 0,
            s: 0,
            recent: VecDeque::new(),
            last_data: (0, 0),
            losses: LossHistory::default(),
            packets: 0,
            p: 0.0,
            unreported_since: None,
            feedback_timer: Timer::default(),
            quiet_since: None,
            delivered: 0,
            feedbacks: 0,
        }
    }

    /// Payload bytes received: the goodput.
    pub fn delivered_bytes(&self) -> u64 {
        self.delivered
    }

    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }

    pub fn loss_events(&self) -> u64 {
        self.losses.events
    }

    pub fn packets_lost(&self) -> u64 {
        self.losses.lost
    }

    /// Closed loss intervals, most recent first.
    pub fn loss_intervals(&self) -> &[f64] {
        &self.losses.closed
    }

    pub fn feedbacks(&self) -> u64 {
        self.feedbacks
    }

    /// §6.2: payload bytes/s received within the past R_m, stretched to
    /// the first packet not yet reported: with less than a packet per RTT,
    /// R_m may shrink between a packet and its report, and a report must not
    /// claim X_recv = 0 for data it acknowledges (X would fall to s/t_mbi).
    /// 0 while the sender has no RTT estimate.
    fn receive_rate(&mut self, now: Nanos) -> f64 {
        if self.rtt == 0 {
            return 0.0;
        }
        let window = self.unreported_since.map_or(self.rtt, |first| (now - first).max(self.rtt));
        while self.recent.front().is_some_and(|&(at, _)| at + window < now) {
            self.recent.pop_front();
        }
        let bytes: u64 = self.recent.iter().map(|&(_, b)| b as u64).sum();
        bytes as f64 / to_secs(window)
    }

    /// The first expiry after `now` of a timer running every R_m: one R_m
    /// from now, or, after a quiet spell, on the quiet timer's beat.
    fn next_expiry(&mut self, now: Nanos) -> Nanos {
        match self.quiet_since.take() {
            Some((since, period)) if period > 0 => since + ((now - since) / period + 1) * period,
            _ => now + self.rtt,
        }
    }

    /// §6.2: report the last packet's timestamp and how long it was held,
    /// X_recv and p, then wait one RTT for the next report.
    fn send_feedback(&mut self, ctx: &mut AgentCtx) {
        let (t_recvdata, arrived) = self.last_data;
        let x_recv = self.receive_rate(ctx.now);
        let mut pkt = Packet::new(ctx.flow, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        pkt.set_tfrc(TfrcHeader::Feedback { t_recvdata, t_delay: ctx.now - arrived, x_recv, p: self.p });
        ctx.send(pkt);
        self.feedbacks += 1;
        self.unreported_since = None;
        self.quiet_since = None;
        if self.rtt > 0 {
            self.feedback_timer.set(ctx.now + self.rtt, ctx);
        } else {
            self.feedback_timer.clear();
        }
    }
}

impl Agent for TfrcReceiver {
    fn start(&mut self, _: &mut AgentCtx) {}

    /// §6.1: record the packet, update p, and report at once for the first
    /// packet (§6.3), when p increased, or while there is no RTT to wait.
    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        let Some(&TfrcHeader::Data { rtt_ns }) = pkt.tfrc() else { return };
        if rtt_ns > 0 {
            self.rtt = rtt_ns;
        }
        self.s = pkt.payload_bytes;
        self.packets += 1;
        self.delivered += pkt.payload_bytes as u64;
        ctx.deliver(pkt.payload_bytes as u64);
        self.recent.push_back((ctx.now, pkt.payload_bytes));
        self.last_data = (pkt.sent_at, ctx.now);
        self.unreported_since.get_or_insert(ctx.now);
        let lost = self.losses.arrive(pkt.seq, pkt.sent_at);
        if !lost.is_empty() {
            let (s, rtt, x_recv, packets) = (self.s as f64, self.rtt, self.receive_rate(ctx.now), self.packets);
            for (seq, sent_at) in lost {
                self.losses.add_loss(seq, sent_at, rtt, || first_loss_interval(s, rtt, x_recv, packets));
            }
        }
        let p_prev = std::mem::replace(&mut self.p, self.losses.loss_event_rate());
        if self.packets == 1 || self.rtt == 0 || self.p > p_prev {
            self.send_feedback(ctx);
        } else if !self.feedback_timer.is_set() {
            let next = self.next_expiry(ctx.now);
            self.feedback_timer.set(next, ctx);
        }
    }

    /// §6.2: report if data arrived since the last report, else go quiet.
    fn on_timer(&mut self, id: TimerId, ctx: &mut AgentCtx) {
        if !self.feedback_timer.fired(id, ctx) {
            return;
        }
        if self.unreported_since.is_some() {
            self.send_feedback(ctx);
        } else {
            self.quiet_since = Some((ctx.now, self.rtt));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{FlowSummary, Summary};
    use crate::testing::{dumbbell, run, run_with_random_loss};
    use crate::transport::testing::Drive;
    use TfrcState::*;

    const MS: Nanos = NS_PER_MS;

    fn close(got: f64, want: f64) -> bool {
        (got / want - 1.0).abs() < 1e-9
    }

    fn sender() -> Drive<TfrcSender> {
        let mut s = Drive::new(TfrcSender::new(&TfrcConfig { segment_bytes: 1000 }));
        s.call_timed(|a, c| a.start(c));
        s
    }

    /// A report at `t` on a data packet sent 100 ms earlier, answered at once.
    fn feedback(t: Nanos, x_recv: f64, p: f64) -> (Nanos, Packet) {
        let mut pkt = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        pkt.set_tfrc(TfrcHeader::Feedback { t_recvdata: t - 100 * MS, t_delay: 0, x_recv, p });
        (t, pkt)
    }

    fn times_ms(sent: &[(Nanos, Packet)]) -> Vec<Nanos> {
        sent.iter().map(|(t, _)| t / MS).collect()
    }

    #[test]
    fn the_equation_matches_hand_computed_values() {
        // s = 1000, R = 0.1, p = 0.01: R·√(2p/3) = 0.1·√0.006667 = 0.0081650;
        // 4R·3·√(3p/8)·p·(1 + 32p²) = 0.4·3·0.0612372·0.01·1.0032 = 0.0007372;
        // X = 1000 / 0.0089022 = 112 332 bytes/s.
        assert!((tfrc_rate(1000.0, 0.1, 0.01) - 112_332.2).abs() < 0.1);
        // p = 0.0001: the timeout term is 0.09% of the other, X ≈ s/(R·√(2p/3)) = 1000/0.00081650.
        assert!((tfrc_rate(1000.0, 0.1, 0.0001) - 1_223_643.6).abs() < 0.1);
        // s = 500, R = 0.05, p = 0.1: 0.0129099 + 0.2·3·0.193649·0.1·1.32 = 0.0129099 + 0.0153370.
        assert!((tfrc_rate(500.0, 0.05, 0.1) - 17_701.02).abs() < 0.01);
        // A t_RTO of its own, 1 s: 1000 / (0.0081650 + 1.0·3·0.0612372·0.01·1.0032) = 1000 / 0.0100080.
        assert!((throughput_equation(1000.0, 0.1, 0.01, 1.0) - 99_920.4).abs() < 0.1);
        assert!(tfrc_rate(1000.0, 0.1, 0.0).is_infinite());
        for p in [1e-6, 0.003, 0.2, 0.9] {
            assert!(close(loss_event_rate_for(1000.0, 0.1, tfrc_rate(1000.0, 0.1, p)), p));
        }
    }

    #[test]
    fn the_average_loss_interval_weighs_the_last_eight() {
        let closed = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 1e6];
        // Without I_0: 10 + 20 + 30 + 40 + 0.8·50 + 0.6·60 + 0.4·70 + 0.2·80 = 220; Σw = 6.
        // With I_0 = 5: 5 + 10 + 20 + 30 + 0.8·40 + 0.6·50 + 0.4·60 + 0.2·70 = 165, smaller: ignored.
        // The ninth interval (1e6) is beyond n = 8.
        assert!(close(average_loss_interval(5.0, &closed).unwrap(), 220.0 / 6.0));
        // A long open interval raises the average: 100 + 60 + 32 + 30 + 24 + 14 = 260.
        assert!(close(average_loss_interval(100.0, &closed).unwrap(), 260.0 / 6.0));
        // Two closed intervals: weights 1, 1: max(5 + 10, 10 + 20) / 2.
        assert!(close(average_loss_interval(5.0, &[10.0, 20.0]).unwrap(), 15.0));
        assert_eq!(average_loss_interval(5.0, &[]), None);
    }

    #[test]
    fn one_packet_per_second_until_feedback_halved_after_two_seconds() {
        let mut s = Drive::new(TfrcSender::new(&TfrcConfig { segment_bytes: 1000 }));
        let sent = s.call_timed(|a, c| a.start(c));
        let (_, first) = &sent[0];
        assert_eq!((first.seq, first.size_bytes, first.payload_bytes), (0, 1040, 1000));
        assert_eq!(
            (first.kind, first.dir, first.tfrc()),
            (PacketKind::Data, Dir::Forward, Some(&TfrcHeader::Data { rtt_ns: 0 }))
        );
        assert_eq!((s.agent.state(), s.agent.rate_bytes_per_s()), (AwaitingFeedback, 1000.0));
        assert!(s.agent.probe().cwnd_packets.is_nan());
        assert_eq!(times_ms(&s.advance_timed(1999 * MS)), [1000]);
        // §4.4: at 2 s X halves; the packet due then waits for the new gap, 2 s after the last.
        assert!(s.advance_timed(2000 * MS).is_empty());
        assert_eq!((s.agent.rate_bytes_per_s(), s.agent.nofeedback_expiries()), (500.0, 1));
        // Next expiry max(2 s, 2s/X = 4 s) later.
        assert_eq!(times_ms(&s.advance_timed(5999 * MS)), [3000, 5000]);
        s.advance_timed(6000 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 250.0);
    }

    #[test]
    fn first_feedback_sets_r_and_the_initial_rate_and_packets_are_paced() {
        let mut s = sender();
        let (t, fb) = feedback(100 * MS, 0.0, 0.0);
        let mut sent = s.recv_timed(t, fb);
        // §4.2: W_init = min(4s, max(2s, 4380)) = 4000 bytes per R = 100 ms.
        assert_eq!(
            (s.agent.state(), s.agent.rtt_ns(), s.agent.rate_bytes_per_s()),
            (SlowStart, Some(100 * MS), 40_000.0)
        );
        assert_eq!((s.agent.probe().cwnd_packets, s.agent.probe().srtt_ms), (4.0, 100.0));
        // Due since 25 ms after the first packet: sent now, then every s/X = 25 ms.
        sent.extend(s.advance_timed(199 * MS));
        assert_eq!(times_ms(&sent), [100, 125, 150, 175]);
        assert!(sent.iter().all(|(_, p)| p.tfrc() == Some(&TfrcHeader::Data { rtt_ns: 100 * MS })));
        assert_eq!(sent.iter().map(|(_, p)| p.seq).collect::<Vec<_>>(), [1, 2, 3, 4]);
    }

    #[test]
    fn rtt_samples_exclude_the_receivers_delay_and_are_smoothed_with_q_0_9() {
        let mut s = sender();
        let (t, fb) = feedback(100 * MS, 0.0, 0.0);
        s.recv_timed(t, fb);
        // Packet sent at 100 ms, held 20 ms by the receiver, report back at 320 ms: 200 ms.
        let mut fb = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        fb.set_tfrc(TfrcHeader::Feedback { t_recvdata: 100 * MS, t_delay: 20 * MS, x_recv: 0.0, p: 0.0 });
        s.recv_timed(320 * MS, fb);
        assert_eq!(s.agent.rtt_ns(), Some(110 * MS));
    }

    #[test]
    fn slow_start_doubles_once_per_rtt_up_to_twice_the_receive_rate() {
        let mut s = sender();
        let rates: Vec<f64> =
            [(100, 30e3), (150, 30e3), (200, 30e3), (300, 30e3), (400, 20e3), (500, 20e3), (600, 20e3)]
                .into_iter()
                .map(|(t, x_recv)| {
                    let (t, fb) = feedback(t * MS, x_recv, 0.0);
                    s.recv_timed(t, fb);
                    s.agent.rate_bytes_per_s()
                })
                .collect();
        // 100 ms: the initial rate. 150 ms: less than an RTT since then. 200 ms:
        // doubled, the initial infinite X_recv still in the set. 300 ms: capped
        // at 2·30 kB/s. 400–500 ms: 30 kB/s is still within two RTTs. 600 ms:
        // 2·20 kB/s, which is also the initial rate, the floor of slow start.
        assert_eq!(rates, [40e3, 40e3, 80e3, 60e3, 60e3, 60e3, 40e3]);
        assert_eq!(s.agent.state(), SlowStart);
    }

    #[test]
    fn a_loss_report_switches_to_the_equation_within_the_receive_limit() {
        let mut s = sender();
        for (t, x_recv, p) in [(100, 1e9, 0.0), (200, 1e9, 0.01)] {
            let (t, fb) = feedback(t * MS, x_recv, p);
            s.recv_timed(t, fb);
        }
        assert_eq!(s.agent.state(), Equation);
        assert!(close(s.agent.rate_bytes_per_s(), tfrc_rate(1000.0, 0.1, 0.01)));
        let mut s = sender();
        for (t, x_recv, p) in [(100, 30e3, 0.0), (300, 30e3, 0.01)] {
            let (t, fb) = feedback(t * MS, x_recv, p);
            s.recv_timed(t, fb);
        }
        // The equation allows 112 kB/s; twice the receive rate, 60 kB/s.
        assert_eq!((s.agent.state(), s.agent.rate_bytes_per_s()), (Equation, 60e3));
    }

    #[test]
    fn the_nofeedback_timer_halves_the_rate() {
        // Slow start: halve X, every max(4R, 2s/X), down to s/t_mbi.
        let mut s = sender();
        let (t, fb) = feedback(100 * MS, 0.0, 0.0);
        s.recv_timed(t, fb);
        s.advance_timed(499 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 40e3);
        s.advance_timed(500 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 20e3);
        s.advance_timed(900 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 10e3);
        // Twelve halvings reach the floor at 205.7 s; then an expiry every 2s/X = 128 s.
        s.advance_timed(1000 * NS_PER_S);
        assert_eq!((s.agent.rate_bytes_per_s(), s.agent.nofeedback_expiries()), (1000.0 / 64.0, 18));
        // Limited by the equation: X_Bps/2 (nofeedback 4R after the report).
        let mut s = sender();
        for (t, x_recv, p) in [(100, 1e9, 0.0), (200, 1e9, 0.01)] {
            let (t, fb) = feedback(t * MS, x_recv, p);
            s.recv_timed(t, fb);
        }
        let x_bps = tfrc_rate(1000.0, 0.1, 0.01);
        s.advance_timed(600 * MS);
        assert!(close(s.agent.rate_bytes_per_s(), x_bps / 2.0));
        // Limited by 2·X_recv = 60 kB/s: X_recv.
        let mut s = sender();
        for (t, x_recv, p) in [(100, 30e3, 0.0), (300, 30e3, 0.01)] {
            let (t, fb) = feedback(t * MS, x_recv, p);
            s.recv_timed(t, fb);
        }
        s.advance_timed(699 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 60e3);
        s.advance_timed(700 * MS);
        assert_eq!(s.agent.rate_bytes_per_s(), 30e3);
        // A report resumes the normal rules: the fresh X_recv lifts the limit.
        let (t, fb) = feedback(800 * MS, 1e9, 0.01);
        s.recv_timed(t, fb);
        assert!(close(s.agent.rate_bytes_per_s(), x_bps));
    }

    #[test]
    fn stop_ends_sending() {
        let mut s = sender();
        let (t, fb) = feedback(100 * MS, 0.0, 0.0);
        s.recv_timed(t, fb);
        assert_eq!(s.advance_timed(150 * MS).len(), 3);
        s.call_timed(|a, c| a.stop(c));
        assert!(s.advance_timed(10 * NS_PER_S).is_empty());
        let (t, fb) = feedback(11 * NS_PER_S, 1e9, 0.0);
        assert!(s.recv_timed(t, fb).is_empty());
        assert_eq!((s.agent.state(), s.agent.packets_sent(), s.agent.feedbacks()), (Stopped, 4, 1));
    }

    /// Data packet `seq`, sent at `seq` × 10 ms by a sender whose R is 100 ms.
    fn data(seq: u64) -> Packet {
        let mut p = Packet::new(0, PacketKind::Data, Dir::Forward, 1040, 1000);
        p.seq = seq;
        p.sent_at = seq * 10 * MS;
        p.set_tfrc(TfrcHeader::Data { rtt_ns: 100 * MS });
        p
    }

    fn receiver() -> Drive<TfrcReceiver> {
        Drive::new(TfrcReceiver::new())
    }

    /// Deliver packets `seqs` 5 ms after they were sent; returns the reports.
    fn deliver(r: &mut Drive<TfrcReceiver>, seqs: impl IntoIterator<Item = u64>) -> Vec<(Nanos, Packet)> {
        seqs.into_iter().flat_map(|k| r.recv_timed(k * 10 * MS + 5 * MS, data(k))).collect()
    }

    fn report(pkt: &Packet) -> (Nanos, Nanos, f64, f64) {
        match pkt.tfrc() {
            Some(&TfrcHeader::Feedback { t_recvdata, t_delay, x_recv, p }) => {
                (t_recvdata / MS, t_delay / MS, x_recv, p)
            }
            _ => panic!("not a report: {pkt:?}"),
        }
    }

    #[test]
    fn the_receiver_reports_at_the_first_packet_then_once_per_rtt() {
        let mut r = receiver();
        let reports = deliver(&mut r, 0..=15);
        assert_eq!(times_ms(&reports), [5, 105]);
        assert_eq!((reports[0].1.kind, reports[0].1.dir, reports[0].1.size_bytes), (PacketKind::Ack, Dir::Reverse, 40));
        // One packet in the past RTT; then ten, 5..95 ms (packet 10 arrives just after).
        assert_eq!(report(&reports[0].1), (0, 0, 10_000.0, 0.0));
        // The last packet was sent at 90 ms and arrived at 95 ms.
        assert_eq!(report(&reports[1].1), (90, 10, 100_000.0, 0.0));
        // Data since 105 ms: a report at 205 ms. None at 305 ms (no data), nor 405 ms.
        assert_eq!(times_ms(&r.advance_timed(450 * MS)), [205]);
        // A packet at 455 ms is reported at the timer's next expiry, 505 ms.
        assert!(deliver(&mut r, [45]).is_empty());
        let late = r.advance_timed(NS_PER_S);
        assert_eq!((times_ms(&late), report(&late[0].1)), (vec![505], (450, 50, 10_000.0, 0.0)));
        assert_eq!((r.agent.delivered_bytes(), r.agent.feedbacks()), (17_000, 4));
    }

    #[test]
    fn a_report_covers_its_packet_when_r_shrank_below_the_gap() {
        // Under one packet per RTT: packet 20 arrives at 206 ms, just after
        // the quiet timer's 205 ms beat, and carries R = 98 ms. Its report, on
        // the next beat at 305 ms, is 99 ms later: the past R_m alone would
        // say X_recv = 0; the window stretches to the packet.
        let mut r = receiver();
        deliver(&mut r, [0]);
        let mut late = data(20);
        late.set_tfrc(TfrcHeader::Data { rtt_ns: 98 * MS });
        assert!(r.recv_timed(206 * MS, late).is_empty());
        let reports = r.advance_timed(NS_PER_S);
        assert_eq!(times_ms(&reports), [305]);
        assert!(close(report(&reports[0].1).2, 1000.0 / 0.099));
    }

    #[test]
    fn a_missing_packet_is_lost_once_three_later_ones_arrived() {
        let mut r = receiver();
        deliver(&mut r, (0..5).chain(6..8));
        assert_eq!((r.agent.packets_lost(), r.agent.loss_event_rate()), (0, 0.0));
        // The third later packet reveals the loss, which raises p: report at once.
        let reports = deliver(&mut r, [8]);
        assert_eq!((r.agent.packets_lost(), r.agent.loss_events()), (1, 1));
        assert_eq!(times_ms(&reports), [85]);
        assert!(report(&reports[0].1).3 > 0.0);
        // A late packet fills its hole before then: no loss.
        let mut r = receiver();
        deliver(&mut r, [0, 1, 3, 4, 2, 5, 6, 7]);
        assert_eq!(r.agent.packets_lost(), 0);
    }

    #[test]
    fn losses_within_one_rtt_of_the_first_form_one_loss_event() {
        let lost = [20, 25, 29, 31, 45, 50];
        let mut r = receiver();
        deliver(&mut r, (0..70).filter(|k| !lost.contains(k)));
        // Sent at 200, 250, 290 ms: one event. 310 > 200 + 100: a new one;
        // 450 > 310 + 100: another, which 500 joins.
        assert_eq!((r.agent.packets_lost(), r.agent.loss_events()), (6, 3));
        assert_eq!(r.agent.loss_intervals()[..2], [45.0 - 31.0, 31.0 - 20.0]);
        // Open interval 69 − 45 + 1 = 25 packets; the synthetic one is larger.
        let mean = average_loss_interval(25.0, r.agent.loss_intervals()).unwrap();
        assert!(close(r.agent.loss_event_rate(), 1.0 / mean));
        // Lost send times are interpolated between the neighbours received.
        assert_eq!(interpolate(10, 100, 14, 180, 11), 120);
    }

    #[test]
    fn the_first_loss_interval_is_synthesised_from_the_receive_rate() {
        let mut r = receiver();
        deliver(&mut r, (0..40).chain(41..44));
        // Packet 43 reveals the loss at 435 ms. Ten packets of 1000 bytes
        // arrived in [335, 435] ms (33–43 but the lost 40): X_recv = 100 kB/s,
        // which the equation gives for p = 1/82.15.
        let synthetic = r.agent.loss_intervals()[0];
        assert!(close(tfrc_rate(1000.0, 0.1, 1.0 / synthetic), 100_000.0));
        assert!((synthetic - 82.15).abs() < 0.01, "{synthetic}");
        // I_0 = 4 packets (40..=43) is shorter: p = 1/I_1.
        assert!(close(r.agent.loss_event_rate(), 1.0 / synthetic));
    }

    fn tfrc_flows(s: &Summary) -> Vec<&FlowSummary> {
        s.flows.iter().filter(|f| f.kind == "tfrc").collect()
    }

    /// The summary's mean goodput CoV (Cho & Cho 2002 eq. 12) of the one group of
    /// `kind`, checked against the mean of its flows' own CoVs.
    fn mean_cov(s: &Summary, kind: &str) -> f64 {
        let covs: Vec<f64> = s.flows.iter().filter(|f| f.kind == kind).filter_map(|f| f.cov).collect();
        let group = s.groups.iter().find(|g| g.kind == kind).and_then(|g| g.mean_cov).expect("group CoV");
        assert!((group - covs.iter().sum::<f64>() / covs.len() as f64).abs() < 1e-12);
        group
    }

    #[test]
    fn tfrc_sends_at_the_equation_rate_under_random_loss() {
        // 100 Mb/s keeps the queue empty: R is the base 100 ms and the only
        // losses are the random ones, independent, so the loss event rate is
        // close to p while losses are rarer than one per RTT.
        let text = r#"{ "version": 1, "duration_s": 200, "measure_from_s": 20,
            "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1e8, "delay_ms": 40 },
                          "buffer": { "packets": 10000 }, "access": { "rate_bps": 1e9, "delay_ms": 10 } },
            "queue": { "scheme": "droptail" }, "flows": [{ "kind": "tfrc", "segment_bytes": 1000, "count": 4 }] }"#;
        for p in [0.005, 0.01, 0.02] {
            let s = run_with_random_loss(text, p);
            let flows = tfrc_flows(&s);
            let sent_bps = flows.iter().map(|f| f.sent_packets as f64 * 8000.0).sum::<f64>() / 4.0 / s.window_s;
            let equation = tfrc_rate(1000.0, 0.1, p) * 8.0;
            assert!((sent_bps / equation - 1.0).abs() < 0.25, "p={p}: {sent_bps} b/s vs equation {equation}");
        }
    }

    #[test]
    fn tfrc_and_newreno_share_a_drop_tail_bottleneck() {
        let flows =
            r#"{ "kind": "tfrc", "count": 2, "start_s": [0, 1] }, { "kind": "tcp", "count": 2, "start_s": [0, 1] }"#;
        let s = run(&dumbbell(100.0, 4e6, 20.0, 50, r#"{ "scheme": "droptail" }"#, flows));
        let tfrc = tfrc_flows(&s).iter().map(|f| f.goodput_bps).sum::<f64>();
        let tcp = s.flows.iter().filter(|f| f.kind == "tcp").map(|f| f.goodput_bps).sum::<f64>();
        assert!((0.33..3.0).contains(&(tfrc / tcp)), "TFRC {tfrc} b/s vs TCP {tcp} b/s");
        assert!(s.utilization > 0.9, "{}", s.utilization);
    }

    #[test]
    fn seed_000_preset_tfrc_is_smoother_than_tcp_and_none_starves() {
        // 40 TFRC + 60 TCP on 20 Mb/s under RED: each flow gets about a
        // packet per RTT at 8% loss, where a report may cover a single packet.
        let s = run(include_str!("../../../scenarios/tfrc-tcp-red-smoothness.json"));
        let tfrc = tfrc_flows(&s);
        let mean = tfrc.iter().map(|f| f.goodput_bps).sum::<f64>() / tfrc.len() as f64;
        let worst = tfrc.iter().map(|f| f.goodput_bps).fold(f64::INFINITY, f64::min);
        let (tfrc_cov, tcp_cov) = (mean_cov(&s, "tfrc"), mean_cov(&s, "tcp"));
        assert!(worst > 0.5 * mean, "a TFRC flow starved: {worst} b/s vs mean {mean}");
        assert!(tfrc_cov < tcp_cov, "CoV TFRC {tfrc_cov} vs TCP {tcp_cov}");
    }

    #[test]
    fn tfrc_is_smoother_than_tcp_under_red() {
        // Cho & Cho 2002 §4.4: 40% TFRC and 60% TCP, 500-byte packets, CoV of
        // goodput over T_m = 2 s bins (eq. 12).
        let flows = r#"{ "kind": "tfrc", "count": 4, "segment_bytes": 500, "start_s": [0, 2] },
                       { "kind": "tcp", "count": 6, "segment_bytes": 500, "start_s": [0, 2] }"#;
        // With ten flows one run is noisy: under RED's wait rule seed 1 has
        // TFRC at 0.27 and TCP at 0.23, seeds 2–4 the other way round. The
        // claim is about the mean, so average three seeds.
        let red = r#"{ "scheme": "red", "params": { "min_th": 15, "max_th": 45, "gentle": true } }"#;
        let (mut tfrc, mut tcp) = (0.0, 0.0);
        for seed in 1..=3 {
            let mut v: serde_json::Value = serde_json::from_str(&dumbbell(100.0, 5e6, 10.0, 100, red, flows)).unwrap();
            v["cov_interval_ms"] = 2000.into();
            v["seed"] = seed.into();
            let s = run(&v.to_string());
            tfrc += mean_cov(&s, "tfrc") / 3.0;
            tcp += mean_cov(&s, "tcp") / 3.0;
        }
        assert!(tfrc < tcp, "mean CoV TFRC {tfrc} vs TCP {tcp}");
    }
}
