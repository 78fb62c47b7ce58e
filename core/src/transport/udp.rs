//! Unresponsive UDP sources and their sink. Rates count wire bytes
//! (payload + 28), so a CBR at the link rate fills the link exactly.
//!
//! - [`UdpSource`]: CBR (constant spacing) or Poisson (exponential spacing,
//!   the arrival process of the M/D/1/K checks).
//! - [`VbrSource`]: Karam & Tobagi 2000 §IV: bursts of log-normal size (geometric
//!   std-dev σ_M) every T, T uniform on [0, 2·T_f]; each burst is handed to
//!   the access link at once.
//! - [`OnOffSource`]: AFpFT (2011) §3E: constant-rate packets during
//!   exponential ON periods, silence during exponential OFF periods.
//!
//! None of them makes packets faster than its access link carries them:
//! when the host queue is full ([`AgentCtx::host_room`]), a source counts
//! the packets it would have made until room opens as host drops, in one
//! step, and sleeps until then (crate::net::host).

use super::{Agent, AgentCtx, TimerId};
use crate::kernel::{secs_f64, to_secs, Nanos};
use crate::net::{Dir, Packet, PacketKind, UDP_HEADER_BYTES};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spacing {
    Constant,
    Exponential,
}

pub struct UdpSource {
    rate_bps: f64,
    payload_bytes: u32,
    spacing: Spacing,
    seq: u64,
    running: bool,
}

const SEND: TimerId = 0;

impl UdpSource {
    pub fn new(rate_bps: f64, payload_bytes: u32, spacing: Spacing) -> UdpSource {
        UdpSource { rate_bps, payload_bytes, spacing, seq: 0, running: false }
    }

    /// Mean gap between packets: the rate counts wire bytes (payload + 28),
    /// so a 1 Mb/s CBR occupies exactly 1 Mb/s of a link.
    fn mean_gap_s(&self) -> f64 {
        (self.payload_bytes + UDP_HEADER_BYTES) as f64 * 8.0 / self.rate_bps
    }

    fn next_gap(&self, ctx: &mut AgentCtx) -> Nanos {
        let mean = self.mean_gap_s();
        let gap = match self.spacing {
            Spacing::Constant => mean,
            Spacing::Exponential => ctx.rng.exponential(mean),
        };
        secs_f64(gap).max(1)
    }

    /// The host queue is full until `until` (> now): this packet and every
    /// one due before then would be dropped at the host. Count them at once
    /// and wake at the first one due after. Poisson arrivals in the gap are
    /// a Poisson count, and by memorylessness the next one follows `until`
    /// by an exponential gap.
    fn skip_until(&mut self, until: Nanos, ctx: &mut AgentCtx) {
        let (skipped, next) = match self.spacing {
            Spacing::Constant => {
                let gap = secs_f64(self.mean_gap_s()).max(1);
                let k = until.saturating_sub(ctx.now).div_ceil(gap).max(1);
                (k, ctx.now + k * gap)
            }
            Spacing::Exponential => {
                let mean = self.mean_gap_s();
                let more = ctx.rng.poisson(to_secs(until.saturating_sub(ctx.now)) / mean);
                (1 + more, until.max(ctx.now) + secs_f64(ctx.rng.exponential(mean)).max(1))
            }
        };
        self.seq += skipped;
        ctx.host_drop(skipped);
        ctx.set_timer(next, SEND);
    }
}

impl Clocked for UdpSource {
    fn step(&mut self, ctx: &mut AgentCtx) {
        if ctx.host_room.free_packets == 0 {
            self.skip_until(ctx.host_room.next_at, ctx);
            return;
        }
        emit_datagram(&mut self.seq, self.payload_bytes, ctx);
        let gap = self.next_gap(ctx);
        ctx.set_timer(ctx.now + gap, SEND);
    }

    fn running(&mut self) -> &mut bool {
        &mut self.running
    }
}

/// Log-normal bursts at a mean rate (Karam & Tobagi 2000 §IV, "VBR UDP traffic").
pub struct VbrSource {
    payload_bytes: u32,
    /// Geometric mean burst size in bytes, from the mean rate: E[M] =
    /// rate·T_f and E[M] = M̄·e^{ln²σ/2} for a log-normal.
    geo_mean_bytes: f64,
    gsd: f64,
    mean_interval_s: f64,
    /// Burst bytes not yet sent as whole packets, carried to the next burst
    /// so that the long-run rate is exact.
    credit_bytes: f64,
    seq: u64,
    running: bool,
}

impl VbrSource {
    pub fn new(rate_bps: f64, payload_bytes: u32, gsd: f64, mean_interval_s: f64) -> VbrSource {
        let mean_burst = rate_bps * mean_interval_s / 8.0;
        let ln_gsd = libm::log(gsd);
        VbrSource {
            payload_bytes,
            geo_mean_bytes: mean_burst / libm::exp(ln_gsd * ln_gsd / 2.0),
            gsd,
            mean_interval_s,
            credit_bytes: 0.0,
            seq: 0,
            running: false,
        }
    }
}

impl Clocked for VbrSource {
    fn step(&mut self, ctx: &mut AgentCtx) {
        let wire = (self.payload_bytes + UDP_HEADER_BYTES) as f64;
        self.credit_bytes += ctx.rng.lognormal(self.geo_mean_bytes, self.gsd);
        let packets = libm::floor(self.credit_bytes / wire);
        self.credit_bytes -= packets * wire;
        // What does not fit in the host queue is dropped there at once.
        let sent = (packets as u64).min(ctx.host_room.free_packets);
        for _ in 0..sent {
            emit_datagram(&mut self.seq, self.payload_bytes, ctx);
        }
        self.seq += packets as u64 - sent;
        ctx.host_drop(packets as u64 - sent);
        let gap = ctx.rng.uniform_in(0.0, 2.0 * self.mean_interval_s);
        ctx.set_timer(ctx.now + secs_f64(gap).max(1), SEND);
    }

    fn running(&mut self) -> &mut bool {
        &mut self.running
    }
}

/// Exponential ON/OFF source (ns-2's EXPOO): peak rate while ON.
pub struct OnOffSource {
    payload_bytes: u32,
    gap: Nanos,
    on_mean_s: f64,
    off_mean_s: f64,
    /// End of the current ON period; None while OFF.
    on_until: Option<Nanos>,
    seq: u64,
    running: bool,
}

impl OnOffSource {
    pub fn new(peak_rate_bps: f64, payload_bytes: u32, on_mean_s: f64, off_mean_s: f64) -> OnOffSource {
        let gap = secs_f64((payload_bytes + UDP_HEADER_BYTES) as f64 * 8.0 / peak_rate_bps).max(1);
        OnOffSource { payload_bytes, gap, on_mean_s, off_mean_s, on_until: None, seq: 0, running: false }
    }
}

impl Clocked for OnOffSource {
    /// Send while ON; at the end of an ON period, sleep through an OFF one.
    fn step(&mut self, ctx: &mut AgentCtx) {
        let until = match self.on_until {
            Some(until) => until,
            None => {
                let until = ctx.now + secs_f64(ctx.rng.exponential(self.on_mean_s));
                self.on_until = Some(until);
                until
            }
        };
        let mut next = ctx.now + self.gap;
        if ctx.now < until {
            if ctx.host_room.free_packets > 0 {
                emit_datagram(&mut self.seq, self.payload_bytes, ctx);
            } else {
                // Host queue full: skip what is due before room opens (or ON ends).
                let skipped = ctx.host_room.next_at.min(until).saturating_sub(ctx.now).div_ceil(self.gap).max(1);
                self.seq += skipped;
                ctx.host_drop(skipped);
                next = ctx.now + skipped * self.gap;
            }
        }
        if next < until {
            ctx.set_timer(next, SEND);
        } else {
            self.on_until = None;
            let off = secs_f64(ctx.rng.exponential(self.off_mean_s)).max(1);
            ctx.set_timer(until.max(ctx.now) + off, SEND);
        }
    }

    fn running(&mut self) -> &mut bool {
        &mut self.running
    }
}

/// A source that sends on its own clock: one step when it starts, then one
/// at each of its timers until it stops (each step sets the next timer);
/// nothing comes back to it.
trait Clocked {
    fn step(&mut self, ctx: &mut AgentCtx);
    fn running(&mut self) -> &mut bool;
}

impl<S: Clocked> Agent for S {
    fn start(&mut self, ctx: &mut AgentCtx) {
        *self.running() = true;
        self.step(ctx);
    }

    fn stop(&mut self, _: &mut AgentCtx) {
        *self.running() = false;
    }

    fn on_packet(&mut self, _: Packet, _: &mut AgentCtx) {}

    fn on_timer(&mut self, _: TimerId, ctx: &mut AgentCtx) {
        if *self.running() {
            self.step(ctx);
        }
    }
}

fn emit_datagram(seq: &mut u64, payload_bytes: u32, ctx: &mut AgentCtx) {
    let mut p = Packet::new(ctx.flow, PacketKind::Data, Dir::Forward, payload_bytes + UDP_HEADER_BYTES, payload_bytes);
    p.seq = *seq;
    *seq += 1;
    ctx.send(p);
}

/// Counts UDP payload as delivered once per packet number (duplicates cannot
/// arise on these paths, so every arrival is new).
pub struct UdpSink;

impl Agent for UdpSink {
    fn start(&mut self, _: &mut AgentCtx) {}

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        ctx.deliver(pkt.payload_bytes as u64);
    }

    fn on_timer(&mut self, _: TimerId, _: &mut AgentCtx) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rng, NS_PER_S};
    use crate::transport::AgentOutput;

    /// Run a source alone for `secs`, returning the wire bits it sent per second.
    fn offered_bps(agent: &mut dyn Agent, secs: u64) -> f64 {
        let mut rng = Rng::stream(4, "udp");
        let mut out = AgentOutput::default();
        agent.start(&mut AgentCtx::new(0, 0, &mut rng, &mut out));
        let mut bits = 0u64;
        loop {
            bits += out.send.drain(..).map(|p| p.size_bytes as u64 * 8).sum::<u64>();
            let Some((at, id)) = out.timers.pop() else { break };
            assert!(out.timers.is_empty(), "one timer chain");
            if at > secs * NS_PER_S {
                break;
            }
            agent.on_timer(id, &mut AgentCtx::new(at, 0, &mut rng, &mut out));
        }
        bits as f64 / secs as f64
    }

    /// Run a source for `secs` through a host queue of 100 packets on a
    /// 1 Mb/s link: (packets admitted, host drops, callbacks made).
    fn through_host_queue(agent: &mut dyn Agent, secs: u64) -> (u64, u64, u64) {
        let mut rng = Rng::stream(4, "udp");
        let mut out = AgentOutput::default();
        let mut queue = crate::net::HostQueue::new(100, 1_000_000);
        let (mut admitted, mut dropped, mut callbacks) = (0, 0, 0);
        let mut next: Option<(Nanos, TimerId)> = None;
        loop {
            let now = next.map_or(0, |(at, _)| at);
            let mut ctx = AgentCtx::new(now, 0, &mut rng, &mut out);
            ctx.host_room = queue.room(now);
            match next {
                None => agent.start(&mut ctx),
                Some((_, id)) => agent.on_timer(id, &mut ctx),
            }
            callbacks += 1;
            for p in out.send.drain(..) {
                if queue.offer(now, p.size_bytes) {
                    admitted += 1;
                } else {
                    dropped += 1;
                }
            }
            dropped += std::mem::take(&mut out.host_drops);
            next = out.timers.pop();
            if next.is_none_or(|(at, _)| at > secs * NS_PER_S) {
                return (admitted, dropped, callbacks);
            }
        }
    }

    #[test]
    fn sources_faster_than_their_link_skip_what_the_host_queue_drops() {
        // 100 Mb/s offered into a 1 Mb/s link for 20 s: the link carries
        // 20·1e6/8224 = 2432 packets (+100 left queued); every other packet
        // is a host drop, counted without a callback of its own.
        let offered = 20.0 * 100e6 / 8224.0;
        let cases: Vec<(&str, Box<dyn Agent>, f64, f64)> = vec![
            ("cbr", Box::new(UdpSource::new(100e6, 1000, Spacing::Constant)), offered, 0.001),
            ("poisson", Box::new(UdpSource::new(100e6, 1000, Spacing::Exponential)), offered, 0.01),
            ("vbr", Box::new(VbrSource::new(100e6, 1000, 1.5, 0.01)), offered, 0.03),
            // ON 0.5 s, OFF 0.5 s on average: half the peak, over few periods.
            ("onoff", Box::new(OnOffSource::new(200e6, 1000, 0.5, 0.5)), offered, 0.25),
        ];
        for (name, mut agent, expect, tolerance) in cases {
            let (admitted, dropped, callbacks) = through_host_queue(agent.as_mut(), 20);
            assert!((2300..=2540).contains(&admitted), "{name}: admitted {admitted}");
            let total = (admitted + dropped) as f64;
            assert!((total / expect - 1.0).abs() < tolerance, "{name}: {total} made, {expect} offered");
            // Work follows the link: at most two callbacks per packet carried.
            assert!(callbacks <= 2 * admitted + 100, "{name}: {callbacks} callbacks");
        }
    }

    #[test]
    fn cbr_and_poisson_offer_their_rate() {
        assert!((offered_bps(&mut UdpSource::new(1e6, 972, Spacing::Constant), 100) / 1e6 - 1.0).abs() < 0.001);
        assert!((offered_bps(&mut UdpSource::new(1e6, 972, Spacing::Exponential), 1000) / 1e6 - 1.0).abs() < 0.02);
    }

    #[test]
    fn vbr_offers_its_mean_rate() {
        // σ_M = 5 makes bursts heavy-tailed (CV ≈ 3.5), so average over many.
        let got = offered_bps(&mut VbrSource::new(2e6, 972, 5.0, 0.05), 20_000);
        assert!((got / 2e6 - 1.0).abs() < 0.03, "{got}");
    }

    #[test]
    fn onoff_offers_peak_times_duty_cycle() {
        // AFpFT (2011) §3E: ON mean 0.2 s, OFF mean 19 × 0.2 s: 5% duty cycle.
        let got = offered_bps(&mut OnOffSource::new(10e6, 972, 0.2, 3.8), 20_000);
        assert!((got / 0.5e6 - 1.0).abs() < 0.05, "{got}");
    }
}
