//! Unresponsive UDP sources and their sink.
//!
//! `Cbr` sends fixed-size packets at a constant rate; `Poisson` draws
//! exponential inter-departure times with the same mean rate (the arrival
//! process of the M/D/1/K checks).

use super::{Agent, AgentCtx};
use crate::kernel::{secs_f64, Nanos};
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

const SEND: u32 = 0;

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

    fn emit(&mut self, ctx: &mut AgentCtx) {
        let mut p = Packet::new(
            ctx.flow,
            PacketKind::Data,
            Dir::Forward,
            self.payload_bytes + UDP_HEADER_BYTES,
            self.payload_bytes,
        );
        p.seq = self.seq;
        self.seq += 1;
        ctx.send(p);
        let gap = self.next_gap(ctx);
        ctx.set_timer(ctx.now + gap, SEND);
    }
}

impl Agent for UdpSource {
    fn start(&mut self, ctx: &mut AgentCtx) {
        self.running = true;
        self.emit(ctx);
    }

    fn stop(&mut self, _: &mut AgentCtx) {
        self.running = false;
    }

    fn on_packet(&mut self, _: Packet, _: &mut AgentCtx) {}

    fn on_timer(&mut self, _: u32, ctx: &mut AgentCtx) {
        if self.running {
            self.emit(ctx);
        }
    }
}

/// Counts UDP payload as delivered once per packet number (duplicates cannot
/// arise on these paths, so every arrival is new).
pub struct UdpSink;

impl Agent for UdpSink {
    fn start(&mut self, _: &mut AgentCtx) {}

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        ctx.deliver(pkt.payload_bytes as u64);
    }

    fn on_timer(&mut self, _: u32, _: &mut AgentCtx) {}
}
