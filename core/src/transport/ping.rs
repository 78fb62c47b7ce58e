//! A latency probe, as the ping flows of Flent's RRUL test: the source sends
//! an echo request of `packet_bytes` (the ICMP message; the wire adds a
//! 20-byte IP header) every `interval`, whatever happens to the earlier
//! ones; the receiver answers each with an echo reply of the same size,
//! carrying the request's send time as ping's payload carries its
//! timestamp. The source reports `now − that time` as an RTT sample.
//! A lost request or reply is never resent: it leaves a gap, as in ping.

use super::{Agent, AgentCtx, AgentProbe, TimerId};
use crate::kernel::Nanos;
use crate::net::{Dir, Packet, PacketKind};

/// Bytes of the IPv4 header in front of the ICMP message.
pub const IP_HEADER_BYTES: u32 = 20;

/// A ping group's settings (docs/scenario-format.md `ping` flows).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PingConfig {
    pub interval_ns: Nanos,
    /// The ICMP message: 8-byte header and data.
    pub packet_bytes: u32,
}

impl PingConfig {
    /// The requests' wire rate.
    pub fn wire_bps(&self) -> f64 {
        (self.packet_bytes + IP_HEADER_BYTES) as f64 * 8.0 * 1e9 / self.interval_ns as f64
    }
}

const SEND: TimerId = 0;

pub struct PingSource {
    cfg: PingConfig,
    seq: u64,
    running: bool,
    /// The latest RTT sample, charted as this flow's RTT.
    last_rtt: Option<Nanos>,
}

impl PingSource {
    pub fn new(cfg: PingConfig) -> PingSource {
        PingSource { cfg, seq: 0, running: false, last_rtt: None }
    }

    fn request(&mut self, ctx: &mut AgentCtx) {
        let size = self.cfg.packet_bytes + IP_HEADER_BYTES;
        let mut p = Packet::new(ctx.flow, PacketKind::Data, Dir::Forward, size, self.cfg.packet_bytes);
        p.seq = self.seq;
        self.seq += 1;
        if ctx.host_room.free_packets == 0 {
            ctx.host_drop(1);
        } else {
            ctx.send(p);
        }
        ctx.set_timer(ctx.now + self.cfg.interval_ns, SEND);
    }
}

impl Agent for PingSource {
    fn start(&mut self, ctx: &mut AgentCtx) {
        self.running = true;
        self.request(ctx);
    }

    fn stop(&mut self, _: &mut AgentCtx) {
        self.running = false;
    }

    /// An echo reply: its `ack` is the request's send time.
    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        let rtt = ctx.now.saturating_sub(pkt.ack);
        self.last_rtt = Some(rtt);
        ctx.report_rtt(rtt);
    }

    fn on_timer(&mut self, _: TimerId, ctx: &mut AgentCtx) {
        if self.running {
            self.request(ctx);
        }
    }

    /// A ping has no window; its RTT column is the latest sample, unsmoothed, as ping prints it.
    fn probe(&self) -> AgentProbe {
        AgentProbe { cwnd_packets: f64::NAN, srtt_ms: self.last_rtt.map_or(f64::NAN, |r| r as f64 / 1e6) }
    }
}

/// Answers every echo request at once with a reply of its size.
pub struct PingSink;

impl Agent for PingSink {
    fn start(&mut self, _: &mut AgentCtx) {}

    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx) {
        ctx.deliver(pkt.payload_bytes as u64);
        let mut reply = Packet::new(ctx.flow, PacketKind::Data, Dir::Reverse, pkt.size_bytes, pkt.payload_bytes);
        reply.seq = pkt.seq;
        reply.ack = pkt.sent_at;
        ctx.send(reply);
    }

    fn on_timer(&mut self, _: TimerId, _: &mut AgentCtx) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::testing::Drive;

    const CFG: PingConfig = PingConfig { interval_ns: 100_000_000, packet_bytes: 64 };

    #[test]
    fn requests_leave_every_interval_with_ip_headers() {
        let mut d = Drive::new(PingSource::new(CFG));
        let mut sent = d.call_timed(|a, c| a.start(c));
        sent.extend(d.advance_timed(450_000_000));
        let times: Vec<Nanos> = sent.iter().map(|(t, _)| *t).collect();
        assert_eq!(times, [0, 100_000_000, 200_000_000, 300_000_000, 400_000_000]);
        assert!(sent.iter().all(|(_, p)| p.size_bytes == 84 && p.dir == Dir::Forward));
        let seqs: Vec<u64> = sent.iter().map(|(_, p)| p.seq).collect();
        assert_eq!(seqs, [0, 1, 2, 3, 4]);
        assert!((CFG.wire_bps() - 84.0 * 8.0 * 10.0).abs() < 1e-9);
    }

    #[test]
    fn a_stopped_probe_sends_no_more() {
        let mut d = Drive::new(PingSource::new(CFG));
        d.call(|a, c| a.start(c));
        d.call(|a, c| a.stop(c));
        assert!(d.advance(1_000_000_000).send.is_empty());
    }

    #[test]
    fn the_receiver_echoes_the_request_with_its_send_time() {
        let mut request = Packet::new(0, PacketKind::Data, Dir::Forward, 84, 64);
        request.seq = 7;
        request.sent_at = 1_234;
        let mut sink = Drive::new(PingSink);
        let out = sink.recv(50_000_000, request);
        assert_eq!(out.delivered_bytes, 64);
        let reply = &out.send[0];
        assert_eq!((reply.dir, reply.size_bytes, reply.seq, reply.ack), (Dir::Reverse, 84, 7, 1_234));
    }

    #[test]
    fn a_reply_gives_one_rtt_sample_and_the_probe_shows_it() {
        let mut d = Drive::new(PingSource::new(CFG));
        assert!(d.agent.probe().srtt_ms.is_nan(), "no RTT before the first reply");
        d.call(|a, c| a.start(c));
        let mut reply = Packet::new(0, PacketKind::Data, Dir::Reverse, 84, 64);
        reply.ack = 0;
        d.now = 37_500_000;
        let out = d.call(|a, c| a.on_packet(reply, c));
        assert_eq!(out.rtt_samples, [37_500_000]);
        assert_eq!(d.agent.probe().srtt_ms, 37.5);
        assert!(d.agent.probe().cwnd_packets.is_nan());
    }
}
