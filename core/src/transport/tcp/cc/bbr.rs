//! BBR v1 (draft-cardwell-iccrg-bbr-congestion-control-00) as ns-3.44's
//! `TcpBbr` runs it. BBR does not react to loss as a signal: it models the
//! path as a bottleneck bandwidth (BtlBw, a windowed maximum of delivery
//! rate samples) and a round-trip propagation time (RTprop, a windowed
//! minimum of RTT samples), and paces at gain·BtlBw with a cwnd of
//! gain·BtlBw·RTprop. On every ACK (draft §4.1):
//!
//! ```text
//! sample = delivery rate over the ACKed packet's flight   (DeliveryRate)
//! round starts when a packet sent after the last round start is ACKed
//! BtlBw = max(sample rates over the last 10 rounds); RTprop = min RTT, 10 s
//! Startup:  pacing_gain = cwnd_gain = 2.89 (2/ln 2) until BtlBw grew < 25 %
//!           in 3 rounds running ("full pipe"), then Drain (ssthresh = BDP)
//! Drain:    pacing_gain = 1/2.89 until inflight ≤ BDP, then ProbeBW
//! ProbeBW:  pacing_gain cycles 5/4, 3/4, 1 ×6, one phase per RTprop (5/4
//!           also waits for a loss or inflight ≥ 5/4·BDP; 3/4 ends early at
//!           inflight ≤ BDP); the first phase is drawn at random, never 3/4
//! ProbeRTT: when RTprop is 10 s old: cwnd = 4 segments until 200 ms and a
//!           round have passed with inflight that low, then back
//! pacing_rate = pacing_gain·BtlBw·(1 − 1 %);  cwnd → cwnd_gain·BDP + 3 MSS
//!           + the ACK-aggregation allowance, growing by the bytes ACKed
//! ```
//!
//! ns-3's (and Linux's) details that the results depend on, kept here:
//! - The 1 % pacing margin, and Linux's ACK-aggregation cwnd term: the
//!   bytes ACKed beyond what BtlBw explains since the epoch began, max over
//!   5 rounds, at most BtlBw·100 ms and at most cwnd, added once the pipe
//!   is full. As ns-3 does, an epoch restarts when it is ahead of BtlBw or
//!   has gathered 4096 bytes, and its time counts in whole seconds, so the
//!   allowance stays within a few segments.
//! - There is no handshake: the initial window goes out unpaced, and the
//!   first RTT sample sets RTprop, BtlBw = cwnd/RTT (RTT in whole ms) and
//!   the pacing rate, as ns-3 does from the handshake's RTT. Until the pipe
//!   is full the pacing rate only rises.
//! - In ProbeBW's first phase (5/4) the cwnd target has 2 MSS more.
//! - Loss recovery: at its start cwnd is saved and set to the pipe plus the
//!   bytes this ACK delivered; for a round cwnd never falls below inflight +
//!   ACKed (packet conservation), then grows as usual; cwnd falls by the
//!   bytes found lost; at its end cwnd goes back to at least the saved one.
//!   A timeout saves cwnd too (the sender sets it to one segment).
//! - Each flow draws its first ProbeBW phase from its own source stream.
//!   (ns-3 gives every TcpBbr its stream 4, so all its flows draw alike.)
//!
//! Not modelled: idle restarts matter only to an application that pauses,
//! and the application-limited marks follow ns-3 (a sender with less than a
//! segment to send and room in cwnd), not Linux's ProbeRTT bubble.

use super::super::rate::{DeliveryRate, RateSample};
use crate::kernel::{Nanos, Rng, NS_PER_MS, NS_PER_S};

/// Startup's gain, 2/ln 2 rounded as ns-3's `HighGain` (2.89).
pub const HIGH_GAIN: f64 = 2.89;
/// ProbeBW's cwnd gain.
pub const CWND_GAIN: f64 = 2.0;
/// ProbeBW's pacing gains, one phase per RTprop.
pub const PACING_GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// BtlBw is the maximum over this many round trips.
pub const BW_WINDOW_ROUNDS: u64 = 10;
/// RTprop is the minimum over this long; older, ProbeRTT re-measures it.
pub const MIN_RTT_WINDOW_NS: Nanos = 10 * NS_PER_S;
/// ProbeRTT holds cwnd at `MIN_PIPE_SEGMENTS` this long (and a round).
pub const PROBE_RTT_NS: Nanos = 200 * NS_PER_MS;
/// The smallest cwnd BBR keeps, and ProbeRTT's.
pub const MIN_PIPE_SEGMENTS: u64 = 4;
/// The pipe is full once BtlBw grew less than this factor ...
pub const FULL_BW_GROWTH: f64 = 1.25;
/// ... in this many rounds running.
pub const FULL_BW_ROUNDS: u32 = 3;
/// The pacing rate is this fraction below gain·BtlBw, to drain queues.
pub const PACING_MARGIN: f64 = 0.01;
/// The ACK-aggregation allowance is the max over this many rounds.
const EXTRA_ACKED_ROUNDS: u32 = 5;
/// An aggregation epoch restarts once it has gathered this many bytes (ns-3).
const ACK_EPOCH_RESET_BYTES: u64 = 1 << 12;
/// The ACK-aggregation allowance is at most BtlBw times this.
const MAX_AGGREGATION_NS: Nanos = 100 * NS_PER_MS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BbrState {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// A windowed maximum over round counts (Kathleen Nichols' algorithm as in
/// ns-3's and QUIC's `WindowedFilter`): the best, second and third best
/// samples of the window, so an old maximum expires without a history.
#[derive(Clone, Copy, Debug)]
pub struct MaxFilter {
    window: u64,
    /// (round, value): best, second best, third best.
    estimates: [(u64, f64); 3],
}

impl MaxFilter {
    pub fn new(window: u64, round: u64, value: f64) -> MaxFilter {
        MaxFilter { window, estimates: [(round, value); 3] }
    }

    pub fn best(&self) -> f64 {
        self.estimates[0].1
    }

    pub fn update(&mut self, round: u64, value: f64) {
        let e = &mut self.estimates;
        if value >= e[0].1 || round - e[2].0 > self.window {
            *e = [(round, value); 3];
            return;
        }
        if value >= e[1].1 {
            e[1] = (round, value);
            e[2] = (round, value);
        } else if value >= e[2].1 {
            e[2] = (round, value);
        }
        // Expire the best (and maybe the second) when they fell out of the window.
        if round - e[0].0 > self.window {
            e[0] = e[1];
            e[1] = e[2];
            e[2] = (round, value);
            if round - e[0].0 > self.window {
                e[0] = e[1];
                e[1] = e[2];
            }
            return;
        }
        // Keep later samples in the second and third places as the window moves.
        if e[1].1 == e[0].1 && round - e[1].0 > self.window / 4 {
            e[1] = (round, value);
            e[2] = (round, value);
            return;
        }
        if e[2].1 == e[1].1 && round - e[2].0 > self.window / 2 {
            e[2] = (round, value);
        }
    }
}

/// What the sender tells BBR on each ACK.
#[derive(Clone, Copy, Debug)]
pub struct AckState {
    pub now: Nanos,
    /// cwnd before the ACK.
    pub cwnd: u64,
    /// Bytes in flight after the ACK.
    pub inflight: u64,
    pub in_recovery: bool,
}

/// BBR's control: the window and the pacing rate.
#[derive(Debug)]
pub struct Bbr {
    state: BbrState,
    mss: u64,
    initial_cwnd: u64,
    pacing_gain: f64,
    cwnd_gain: f64,
    /// Bytes per second.
    pacing_rate: f64,
    btl_bw: MaxFilter,
    has_seen_rtt: bool,
    min_rtt: Option<Nanos>,
    min_rtt_at: Nanos,
    min_rtt_expired: bool,
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    filled_pipe: bool,
    full_bw: f64,
    full_bw_count: u32,
    cycle_index: usize,
    cycle_at: Nanos,
    /// ProbeRTT ends after this time (and a round); None until inflight is low.
    probe_rtt_done_at: Option<Nanos>,
    probe_rtt_round_done: bool,
    packet_conservation: bool,
    prior_cwnd: u64,
    extra_acked: [u64; 2],
    extra_acked_index: usize,
    extra_acked_rounds: u32,
    ack_epoch_at: Nanos,
    ack_epoch_acked: u64,
    pub rates: DeliveryRate,
}

impl Bbr {
    /// BBR at the connection's start (ns-3 initialises it on entering the
    /// open state): Startup, and cwnd per millisecond as the first BtlBw.
    pub fn new(now: Nanos, cwnd: u64, mss: u64) -> Bbr {
        Bbr {
            state: BbrState::Startup,
            mss,
            initial_cwnd: cwnd,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            pacing_rate: 0.0,
            btl_bw: MaxFilter::new(BW_WINDOW_ROUNDS, 0, 0.0),
            has_seen_rtt: false,
            min_rtt: None,
            min_rtt_at: now,
            min_rtt_expired: false,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            filled_pipe: false,
            full_bw: 0.0,
            full_bw_count: 0,
            cycle_index: 0,
            cycle_at: now,
            probe_rtt_done_at: None,
            probe_rtt_round_done: false,
            packet_conservation: false,
            prior_cwnd: cwnd,
            extra_acked: [0; 2],
            extra_acked_index: 0,
            extra_acked_rounds: 0,
            ack_epoch_at: now,
            ack_epoch_acked: 0,
            rates: DeliveryRate::default(),
        }
    }

    pub fn state(&self) -> BbrState {
        self.state
    }

    /// Bytes per second; 0 (not paced) before the first RTT sample.
    pub fn pacing_rate(&self) -> f64 {
        self.pacing_rate
    }

    /// BtlBw, bytes per second.
    pub fn btl_bw(&self) -> f64 {
        self.btl_bw.best()
    }

    pub fn min_rtt(&self) -> Option<Nanos> {
        self.min_rtt
    }

    pub fn pacing_gain(&self) -> f64 {
        self.pacing_gain
    }

    /// The model's bytes in flight for `gain`: gain·BtlBw·RTprop + 3 send
    /// quanta (one MSS each), 2 MSS more in ProbeBW's 5/4 phase; the
    /// initial window before any RTT sample.
    pub fn inflight(&self, gain: f64) -> u64 {
        let Some(min_rtt) = self.min_rtt else { return self.initial_cwnd };
        let bdp = self.btl_bw.best() * min_rtt as f64 / NS_PER_S as f64;
        let probing = if self.state == BbrState::ProbeBw && self.cycle_index == 0 { 2 * self.mss } else { 0 };
        (gain * bdp) as u64 + 3 * self.mss + probing
    }

    /// One ACK with its rate sample: update the model and state (draft
    /// §4.1.1), then the pacing rate and cwnd (§4.2). Returns the new cwnd,
    /// and the ssthresh to set on entering Drain.
    pub fn on_ack(&mut self, ack: AckState, rs: RateSample, rng: &mut Rng) -> (u64, Option<u64>) {
        if let Some(rtt) = rs.rtt.filter(|_| !self.has_seen_rtt) {
            self.init_from_first_rtt(ack.now, ack.cwnd, rtt);
        }
        self.update_bottleneck_bandwidth(&rs);
        self.update_ack_aggregation(ack, &rs);
        self.check_cycle_phase(ack.now, &rs);
        self.check_full_pipe(&rs);
        let ssthresh = self.check_drain(ack.now, ack.inflight, rng);
        self.update_rtprop(ack.now, rs.rtt);
        let cwnd = self.check_probe_rtt(ack, rng);
        self.set_pacing_rate(self.pacing_gain);
        (self.set_cwnd(AckState { cwnd, ..ack }, &rs), ssthresh)
    }

    /// A round trip starts when a packet sent at or after the last round's
    /// start is delivered; BtlBw takes the sample unless it is app-limited
    /// and below the current estimate.
    fn update_bottleneck_bandwidth(&mut self, rs: &RateSample) {
        if rs.delivered.is_none() || rs.interval == 0 {
            return;
        }
        self.round_start = rs.prior_delivered >= self.next_round_delivered;
        if self.round_start {
            self.next_round_delivered = self.rates.delivered();
            self.round_count += 1;
            self.packet_conservation = false;
        }
        if rs.rate >= self.btl_bw.best() || !rs.app_limited {
            self.btl_bw.update(self.round_count, rs.rate);
        }
    }

    /// Linux's ACK-aggregation estimate: the bytes ACKed in the epoch
    /// beyond BtlBw times its length (in whole seconds, as ns-3 counts it).
    fn update_ack_aggregation(&mut self, ack: AckState, rs: &RateSample) {
        if rs.acked_sacked == 0 || rs.delivered.is_none() {
            return;
        }
        if self.round_start {
            self.extra_acked_rounds = (self.extra_acked_rounds + 1).min(31);
            if self.extra_acked_rounds >= EXTRA_ACKED_ROUNDS {
                self.extra_acked_rounds = 0;
                self.extra_acked_index = 1 - self.extra_acked_index;
                self.extra_acked[self.extra_acked_index] = 0;
            }
        }
        let epoch_s = (ack.now - self.ack_epoch_at) / NS_PER_S;
        let mut expected = (self.btl_bw.best() * epoch_s as f64) as u64;
        if self.ack_epoch_acked <= expected || self.ack_epoch_acked + rs.acked_sacked >= ACK_EPOCH_RESET_BYTES {
            self.ack_epoch_acked = 0;
            self.ack_epoch_at = ack.now;
            expected = 0;
        }
        self.ack_epoch_acked += rs.acked_sacked;
        let extra = (self.ack_epoch_acked - expected).min(ack.cwnd);
        let slot = &mut self.extra_acked[self.extra_acked_index];
        *slot = (*slot).max(extra);
    }

    /// The ACK-aggregation cwnd allowance, once the pipe is full.
    fn aggregation_cwnd(&self) -> u64 {
        if !self.filled_pipe {
            return 0;
        }
        let cap = (self.btl_bw.best() * MAX_AGGREGATION_NS as f64 / NS_PER_S as f64) as u64;
        self.extra_acked[0].max(self.extra_acked[1]).min(cap)
    }

    /// ProbeBW moves on after an RTprop at gain 1; at 5/4 also once a loss
    /// or inflight reaching 5/4·BDP shows the probe is done; at 3/4 after
    /// an RTprop or as soon as inflight has drained to the BDP.
    fn check_cycle_phase(&mut self, now: Nanos, rs: &RateSample) {
        if self.state != BbrState::ProbeBw {
            return;
        }
        let full_length = self.min_rtt.is_some_and(|m| now - self.cycle_at > m);
        let next = if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && (rs.lost > 0 || rs.prior_inflight >= self.inflight(self.pacing_gain))
        } else {
            full_length || rs.prior_inflight <= self.inflight(1.0)
        };
        if next {
            self.advance_cycle_phase(now);
        }
    }

    fn advance_cycle_phase(&mut self, now: Nanos) {
        self.cycle_at = now;
        self.cycle_index = (self.cycle_index + 1) % PACING_GAIN_CYCLE.len();
        self.pacing_gain = PACING_GAIN_CYCLE[self.cycle_index];
    }

    /// Draft §4.3.2.2: the pipe is full when BtlBw has grown by less than
    /// 25 % for 3 round trips running (samples that are not app-limited).
    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.app_limited {
            return;
        }
        if self.btl_bw.best() >= self.full_bw * FULL_BW_GROWTH {
            self.full_bw = self.btl_bw.best();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.filled_pipe = self.full_bw_count >= FULL_BW_ROUNDS;
    }

    /// Startup → Drain on a full pipe (ssthresh = BDP, as ns-3); Drain →
    /// ProbeBW once inflight is down to the BDP.
    fn check_drain(&mut self, now: Nanos, inflight: u64, rng: &mut Rng) -> Option<u64> {
        let mut ssthresh = None;
        if self.state == BbrState::Startup && self.filled_pipe {
            self.state = BbrState::Drain;
            self.pacing_gain = 1.0 / HIGH_GAIN;
            self.cwnd_gain = HIGH_GAIN;
            ssthresh = Some(self.inflight(1.0));
        }
        if self.state == BbrState::Drain && inflight <= self.inflight(1.0) {
            self.enter_probe_bw(now, rng);
        }
        ssthresh
    }

    /// ProbeBW starts in a random phase other than 3/4 (draft §4.3.4.3).
    /// As ns-3 draws it, the phase after 3/4 is excluded too: the draw is
    /// one of six, the phase 5/4 or one of the last five at gain 1.
    fn enter_probe_bw(&mut self, now: Nanos, rng: &mut Rng) {
        self.state = BbrState::ProbeBw;
        self.cwnd_gain = CWND_GAIN;
        let phases = PACING_GAIN_CYCLE.len() as u64;
        self.cycle_index = (phases - 1 - rng.below(phases - 2)) as usize;
        self.advance_cycle_phase(now);
    }

    /// Draft §4.1.2.3: RTprop is the smallest RTT in 10 s; an expired one
    /// takes the current sample.
    fn update_rtprop(&mut self, now: Nanos, rtt: Option<Nanos>) {
        self.min_rtt_expired = now > self.min_rtt_at + MIN_RTT_WINDOW_NS;
        let Some(rtt) = rtt.filter(|&r| r > 0) else { return };
        if self.min_rtt.is_none_or(|m| rtt <= m) || self.min_rtt_expired {
            self.min_rtt = Some(rtt);
            self.min_rtt_at = now;
        }
    }

    /// Draft §4.3.5: enter ProbeRTT when RTprop expired; leave once inflight
    /// has been at most 4 segments for 200 ms and a round trip. Returns cwnd.
    fn check_probe_rtt(&mut self, ack: AckState, rng: &mut Rng) -> u64 {
        let mut cwnd = ack.cwnd;
        if self.state != BbrState::ProbeRtt && self.min_rtt_expired {
            self.state = BbrState::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd(cwnd, ack.in_recovery);
            self.probe_rtt_done_at = None;
        }
        if self.state != BbrState::ProbeRtt {
            return cwnd;
        }
        match self.probe_rtt_done_at {
            None if ack.inflight <= MIN_PIPE_SEGMENTS * self.mss => {
                self.probe_rtt_done_at = Some(ack.now + PROBE_RTT_NS);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = self.rates.delivered();
            }
            None => {}
            Some(done_at) => {
                self.probe_rtt_round_done |= self.round_start;
                if self.probe_rtt_round_done && ack.now > done_at {
                    self.min_rtt_at = ack.now;
                    cwnd = cwnd.max(self.prior_cwnd);
                    self.exit_probe_rtt(ack.now, rng);
                }
            }
        }
        cwnd
    }

    fn exit_probe_rtt(&mut self, now: Nanos, rng: &mut Rng) {
        if self.filled_pipe {
            self.enter_probe_bw(now, rng);
        } else {
            self.state = BbrState::Startup;
            self.pacing_gain = HIGH_GAIN;
            self.cwnd_gain = HIGH_GAIN;
        }
    }

    /// The first RTT sample (ns-3 has the handshake's when BBR starts):
    /// RTprop is that RTT, BtlBw cwnd per RTT (in whole milliseconds, at
    /// least one, as ns-3 counts it), and pacing begins at the gain times that.
    fn init_from_first_rtt(&mut self, now: Nanos, cwnd: u64, rtt: Nanos) {
        let rtt_ms = (rtt / NS_PER_MS).max(1);
        let bw = cwnd as f64 * 1000.0 / rtt_ms as f64;
        self.min_rtt = Some(rtt);
        self.min_rtt_at = now;
        self.pacing_rate = self.pacing_gain * bw;
        self.btl_bw = MaxFilter::new(BW_WINDOW_ROUNDS, 0, bw);
        self.has_seen_rtt = true;
    }

    /// Draft §4.2.1: pacing_rate = gain·BtlBw less the 1 % margin; until the
    /// pipe is full it only rises.
    fn set_pacing_rate(&mut self, gain: f64) {
        let rate = gain * self.btl_bw.best() * (1.0 - PACING_MARGIN);
        if self.filled_pipe || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    /// Draft §4.2.3: cwnd moves towards cwnd_gain·BDP (plus the aggregation
    /// allowance) by the bytes delivered, and never below 4 segments;
    /// packet conservation in recovery's first round; ProbeRTT's 4 segments.
    fn set_cwnd(&mut self, ack: AckState, rs: &RateSample) -> u64 {
        let mut cwnd = ack.cwnd;
        let min_pipe = MIN_PIPE_SEGMENTS * self.mss;
        if rs.acked_sacked > 0 && !(ack.in_recovery && self.modulate_for_recovery(&mut cwnd, ack.inflight, rs)) {
            let target = self.inflight(self.cwnd_gain) + self.aggregation_cwnd();
            if self.filled_pipe {
                cwnd = (cwnd + rs.acked_sacked).min(target);
            } else if cwnd < target || self.rates.delivered() < self.initial_cwnd {
                cwnd += rs.acked_sacked;
            }
            cwnd = cwnd.max(min_pipe);
        }
        if self.state == BbrState::ProbeRtt {
            cwnd = cwnd.min(min_pipe);
        }
        cwnd
    }

    /// In recovery: cwnd falls by the bytes lost, and in its first round
    /// stays at least inflight + ACKed. True while conserving packets.
    fn modulate_for_recovery(&self, cwnd: &mut u64, inflight: u64, rs: &RateSample) -> bool {
        if rs.lost > 0 {
            *cwnd = cwnd.saturating_sub(rs.lost).max(self.mss);
        }
        if self.packet_conservation {
            *cwnd = (*cwnd).max(inflight + rs.acked_sacked);
        }
        self.packet_conservation
    }

    /// Remember the last good cwnd (draft §4.2.3.4); in recovery or ProbeRTT
    /// keep the larger.
    fn save_cwnd(&mut self, cwnd: u64, in_recovery: bool) {
        self.prior_cwnd =
            if in_recovery || self.state == BbrState::ProbeRtt { self.prior_cwnd.max(cwnd) } else { cwnd };
    }

    /// Loss recovery begins: save cwnd and conserve packets for a round,
    /// from the pipe plus what this ACK delivered. Returns cwnd.
    pub fn enter_recovery(&mut self, cwnd: u64, pipe: u64, acked_sacked: u64) -> u64 {
        self.save_cwnd(cwnd, false);
        self.packet_conservation = true;
        pipe + acked_sacked.max(self.mss)
    }

    /// Loss recovery is over: back to at least the saved cwnd.
    pub fn exit_recovery(&mut self, cwnd: u64) -> u64 {
        self.packet_conservation = false;
        cwnd.max(self.prior_cwnd)
    }

    /// A retransmission timeout: save cwnd; the next ACK starts a round.
    pub fn on_timeout(&mut self, cwnd: u64, in_recovery: bool) {
        self.save_cwnd(cwnd, in_recovery);
        self.round_start = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;
    const MS: Nanos = NS_PER_MS;
    const RTT: Nanos = 100 * MS;

    /// A valid sample of `rate` bytes/s that starts a round.
    fn sample(rate: f64, acked: u64, prior_inflight: u64) -> RateSample {
        RateSample {
            delivered: Some(acked),
            interval: RTT,
            rate,
            prior_delivered: u64::MAX,
            acked_sacked: acked,
            prior_inflight,
            rtt: Some(RTT),
            ..RateSample::default()
        }
    }

    fn ack(now: Nanos, cwnd: u64, inflight: u64) -> AckState {
        AckState { now, cwnd, inflight, in_recovery: false }
    }

    /// BBR after Startup saw BtlBw grow to 1 MB/s, then plateau for three
    /// rounds, and Drain emptied the queue: ProbeBW at t ≈ 0.7 s.
    fn in_probe_bw(rng: &mut Rng) -> Bbr {
        let mut b = Bbr::new(0, 2 * MSS, MSS);
        // The first RTT sample starts BtlBw at the initial window per RTT.
        b.on_ack(ack(RTT, 2 * MSS, MSS), sample(20e3, MSS, MSS), rng);
        let mut t = 2 * RTT;
        for rate in [250e3, 500e3, 1e6, 1e6, 1e6, 1e6] {
            b.on_ack(ack(t, 200 * MSS, 150 * MSS), sample(rate, MSS, 150 * MSS), rng);
            t += RTT;
        }
        assert_eq!(b.state(), BbrState::Drain);
        b.on_ack(ack(t, 200 * MSS, 10 * MSS), sample(1e6, MSS, 10 * MSS), rng);
        assert_eq!(b.state(), BbrState::ProbeBw);
        b
    }

    #[test]
    fn max_filter_keeps_the_best_for_its_window_of_rounds() {
        let mut f = MaxFilter::new(BW_WINDOW_ROUNDS, 0, 100.0);
        for round in 1..=BW_WINDOW_ROUNDS {
            f.update(round, 50.0 + round as f64);
            assert_eq!(f.best(), 100.0, "round {round}");
        }
        // Eleven rounds on, the best has expired: the best since then takes over.
        f.update(BW_WINDOW_ROUNDS + 1, 40.0);
        assert!(f.best() < 100.0 && f.best() > 50.0, "{}", f.best());
        // A new maximum replaces everything at once.
        f.update(12, 500.0);
        assert_eq!(f.best(), 500.0);
    }

    #[test]
    fn min_rtt_takes_lower_samples_and_expires_after_10_s() {
        let mut b = Bbr::new(0, 2 * MSS, MSS);
        b.update_rtprop(MS, Some(80 * MS));
        b.update_rtprop(2 * MS, Some(90 * MS));
        assert_eq!(b.min_rtt(), Some(80 * MS));
        b.update_rtprop(3 * MS, Some(70 * MS));
        assert_eq!(b.min_rtt(), Some(70 * MS));
        // Ten seconds without a lower one: the current sample replaces it.
        b.update_rtprop(3 * MS + MIN_RTT_WINDOW_NS, Some(120 * MS));
        assert_eq!(b.min_rtt(), Some(70 * MS));
        b.update_rtprop(4 * MS + MIN_RTT_WINDOW_NS, Some(120 * MS));
        assert_eq!((b.min_rtt(), b.min_rtt_expired), (Some(120 * MS), true));
    }

    #[test]
    fn startup_ends_after_three_rounds_of_less_than_25_percent_growth() {
        let mut rng = Rng::stream(1, "bbr");
        let mut b = Bbr::new(0, 2 * MSS, MSS);
        assert_eq!(b.pacing_rate(), 0.0);
        b.on_ack(ack(RTT, 2 * MSS, MSS), sample(20e3, MSS, MSS), &mut rng);
        assert_eq!(b.btl_bw(), 20e3);
        let mut t = 2 * RTT;
        // Doubling each round, then three rounds less than 25 % above 1 MB/s fill the pipe.
        for (rate, state) in [
            (250e3, BbrState::Startup),
            (500e3, BbrState::Startup),
            (1e6, BbrState::Startup),
            (1.1e6, BbrState::Startup),
            (1.2e6, BbrState::Startup),
            (1.24e6, BbrState::Drain),
        ] {
            let (_, ssthresh) = b.on_ack(ack(t, 200 * MSS, 150 * MSS), sample(rate, MSS, 150 * MSS), &mut rng);
            assert_eq!(b.state(), state, "at {rate}");
            if state == BbrState::Drain {
                // ssthresh = BDP + 3 quanta, as ns-3 sets it.
                let bdp = (b.btl_bw() * RTT as f64 / NS_PER_S as f64) as u64;
                assert_eq!(ssthresh, Some(bdp + 3 * MSS));
            }
            t += RTT;
        }
        assert_eq!(b.pacing_gain(), 1.0 / HIGH_GAIN);
    }

    #[test]
    fn startup_paces_at_high_gain_and_drain_waits_for_inflight_at_the_bdp() {
        let mut rng = Rng::stream(1, "bbr");
        let mut b = Bbr::new(0, 2 * MSS, MSS);
        b.on_ack(ack(RTT, 10 * MSS, 2 * MSS), sample(500e3, MSS, 2 * MSS), &mut rng);
        assert_eq!(b.pacing_rate(), HIGH_GAIN * b.btl_bw() * (1.0 - PACING_MARGIN));
        let mut t = 2 * RTT;
        for _ in 0..4 {
            b.on_ack(ack(t, 200 * MSS, 150 * MSS), sample(500e3, MSS, 150 * MSS), &mut rng);
            t += RTT;
        }
        assert_eq!(b.state(), BbrState::Drain);
        // BDP = 500 kB/s · 100 ms = 50 segments, + 3 quanta.
        assert_eq!(b.inflight(1.0), 53 * MSS);
        b.on_ack(ack(t, 200 * MSS, 54 * MSS), sample(500e3, MSS, 55 * MSS), &mut rng);
        assert_eq!(b.state(), BbrState::Drain);
        b.on_ack(ack(t + MS, 200 * MSS, 53 * MSS), sample(500e3, MSS, 54 * MSS), &mut rng);
        assert_eq!(b.state(), BbrState::ProbeBw);
    }

    #[test]
    fn probe_bw_starts_in_a_random_phase_but_never_at_three_quarters() {
        let mut phases = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let b = in_probe_bw(&mut Rng::stream(seed, "bbr"));
            phases.insert(b.cycle_index);
        }
        // ns-3's draw: 5/4 (phase 0) or one of the gain-1 phases 3–7.
        assert_eq!(phases.into_iter().collect::<Vec<_>>(), [0, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn the_gain_cycle_probes_drains_and_cruises_one_rtprop_each() {
        let mut rng = Rng::stream(3, "bbr");
        let mut b = in_probe_bw(&mut rng);
        // Put it at the start of the 5/4 phase.
        b.cycle_index = PACING_GAIN_CYCLE.len() - 1;
        b.advance_cycle_phase(NS_PER_S);
        let bdp = b.inflight(1.0) - 3 * MSS;
        let probe_target = b.inflight(1.25);
        let low = sample(1e6, MSS, bdp);
        let check = |b: &mut Bbr, at: Nanos, rs: RateSample, rng: &mut Rng| {
            b.on_ack(ack(at, 200 * MSS, rs.prior_inflight), rs, rng);
            b.pacing_gain()
        };
        // 5/4 lasts at least an RTprop, and until inflight reaches 5/4·BDP.
        assert_eq!(check(&mut b, NS_PER_S + RTT, low, &mut rng), 1.25);
        assert_eq!(check(&mut b, NS_PER_S + RTT + MS, low, &mut rng), 1.25);
        let full = sample(1e6, MSS, probe_target);
        assert_eq!(check(&mut b, NS_PER_S + RTT + 2 * MS, full, &mut rng), 0.75);
        // 3/4 ends as soon as inflight is down to the BDP.
        let t = NS_PER_S + RTT + 3 * MS;
        assert_eq!(check(&mut b, t, sample(1e6, MSS, bdp + 4 * MSS), &mut rng), 0.75);
        assert_eq!(check(&mut b, t + MS, sample(1e6, MSS, bdp), &mut rng), 1.0);
        // Six phases at 1, an RTprop each, then 5/4 again.
        let mut at = t + MS;
        for _ in 0..6 {
            assert_eq!(check(&mut b, at + RTT, low, &mut rng), 1.0);
            at += RTT + MS;
            check(&mut b, at, low, &mut rng);
        }
        assert_eq!(b.pacing_gain(), 1.25);
        assert_eq!(b.pacing_rate(), 1.25 * b.btl_bw() * (1.0 - PACING_MARGIN));
    }

    #[test]
    fn probe_rtt_after_10_s_without_a_lower_rtt_holds_4_segments_for_200_ms_and_a_round() {
        let mut rng = Rng::stream(5, "bbr");
        let mut b = in_probe_bw(&mut rng);
        let later = |rtt: Nanos| RateSample { rtt: Some(rtt), ..sample(1e6, MSS, 60 * MSS) };
        let mut b_at = |b: &mut Bbr, t: Nanos, inflight: u64, rs: RateSample| {
            b.on_ack(ack(t, 120 * MSS, inflight), rs, &mut rng).0
        };
        // RTprop was last measured at 0.8 s, the last ACK in_probe_bw gave; later samples are higher.
        // cwnd grows by the segment ACKed (the target is far above).
        assert_eq!(b_at(&mut b, 10 * NS_PER_S, 60 * MSS, later(150 * MS)), 121 * MSS);
        assert_eq!(b.state(), BbrState::ProbeBw);
        let cwnd = b_at(&mut b, 10 * NS_PER_S + 801 * MS, 60 * MSS, later(150 * MS));
        assert_eq!((b.state(), cwnd), (BbrState::ProbeRtt, MIN_PIPE_SEGMENTS * MSS));
        // The 200 ms begin once inflight is down to 4 segments.
        let t0 = 11 * NS_PER_S;
        b_at(&mut b, t0, 4 * MSS, later(101 * MS));
        assert_eq!(b.probe_rtt_done_at, Some(t0 + PROBE_RTT_NS));
        b_at(&mut b, t0 + PROBE_RTT_NS, 4 * MSS, later(101 * MS));
        assert_eq!(b.state(), BbrState::ProbeRtt);
        // After 200 ms and a round: back to ProbeBW with the saved cwnd.
        let cwnd = b_at(&mut b, t0 + PROBE_RTT_NS + MS, 4 * MSS, later(101 * MS));
        assert_eq!(b.state(), BbrState::ProbeBw);
        assert_eq!(cwnd, 121 * MSS);
        assert_eq!(b.min_rtt(), Some(101 * MS));
    }

    #[test]
    fn cwnd_grows_by_the_bytes_delivered_up_to_twice_the_bdp_plus_the_aggregation_allowance() {
        let mut rng = Rng::stream(2, "bbr");
        let mut b = in_probe_bw(&mut rng);
        let target = b.inflight(CWND_GAIN) + b.aggregation_cwnd();
        assert!(b.aggregation_cwnd() <= 4 * MSS, "{}", b.aggregation_cwnd());
        let mut cwnd = 100 * MSS;
        for i in 0..200 {
            let (next, _) =
                b.on_ack(ack(NS_PER_S + i * MS, cwnd, 100 * MSS), sample(1e6, 2 * MSS, 100 * MSS), &mut rng);
            assert!(next == (cwnd + 2 * MSS).min(target) || b.cycle_index == 0, "{next} after {cwnd}");
            cwnd = next;
        }
        assert!(cwnd <= b.inflight(CWND_GAIN) + 2 * MSS + b.aggregation_cwnd());
    }

    #[test]
    fn recovery_conserves_packets_for_a_round_then_restores_cwnd() {
        let mut rng = Rng::stream(4, "bbr");
        let mut b = in_probe_bw(&mut rng);
        assert_eq!(b.enter_recovery(150 * MSS, 90 * MSS, MSS), 91 * MSS);
        let mut rs = sample(1e6, MSS, 91 * MSS);
        // Not yet a new round: inflight + ACKed, whatever the target.
        b.next_round_delivered = 1;
        rs.prior_delivered = 0;
        let in_recovery = AckState { in_recovery: true, ..ack(2 * NS_PER_S, 91 * MSS, 95 * MSS) };
        assert_eq!(b.on_ack(in_recovery, rs, &mut rng).0, 96 * MSS);
        assert_eq!(b.exit_recovery(96 * MSS), 150 * MSS);
    }
}
