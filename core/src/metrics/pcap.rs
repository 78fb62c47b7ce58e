//! Packets as a Wireshark capture: classic pcap with nanosecond timestamps
//! (magic 0xa1b23c4d), LINKTYPE_RAW (each record an IPv4 packet). Only the
//! bytes live here; which packets are captured, and when, is the
//! simulation's business (`sim/capture.rs`).
//!
//! - Addresses (docs/model.md, "Captures"): flow `k` of group `g` sends
//!   from 10.g.(k / 250).(k % 250 + 1) to its receiver at
//!   10.g.(128 + k / 250).(k % 250 + 1). The sender's port is 10000 plus
//!   the connection number (modulo 50 000); the receiver's port is the
//!   flow kind's ([`WireFlow::server_port`]).
//! - IPv4 (RFC 791): DF set, ID 0, TTL 64, the ECN field as simulated
//!   (RFC 3168 §5), the header checksum.
//! - TCP (RFC 9293): no handshake is simulated, so sequence numbers are
//!   those of a connection whose SYN took number 0: the first data byte is
//!   1. Data segments carry ACK 1; ACKs carry the cumulative ACK and their
//!   SACK blocks (RFC 2018 §3, after two NOPs). ECE/CWR as simulated; with
//!   Accurate ECN an ACK's ACE count takes the AE, CWR and ECE bits
//!   (draft-ietf-tcpm-accurate-ecn §3.2.2). The window field is 65535:
//!   the model's receiver advertises no window.
//! - UDP (RFC 768) for every other flow, TFRC included (its own header
//!   fields are not written).
//! - Payloads are zero bytes and every packet is written whole (snap
//!   length 65535, the largest IPv4 packet), so every checksum can be
//!   verified.

use crate::kernel::Nanos;
use crate::net::{
    receiver_addr, sack_option_bytes, sender_addr, Dir, Ecn, Packet, PacketKind, SackBlocks, TCP_HEADER_BYTES,
    UDP_HEADER_BYTES,
};

/// Classic pcap's magic for nanosecond timestamps.
pub const PCAP_MAGIC_NANOS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_RAW: the record starts with the IP header.
pub const LINKTYPE_RAW: u32 = 101;
/// Every packet fits whole: 65535 is the largest IPv4 total length.
pub const SNAP_LEN: u32 = 65_535;
/// Bytes of a pcap record header.
pub const RECORD_HEADER_BYTES: usize = 16;
/// First port of the senders' range.
pub const SENDER_PORT_BASE: u16 = 10_000;
/// Connections share the senders' port range modulo this.
pub const SENDER_PORTS: u32 = 50_000;
/// Flows per group that the addressing plan numbers apart.
pub const MAX_FLOWS_PER_GROUP: u32 = 128 * 250;
/// Groups the addressing plan numbers apart (the second octet).
pub const MAX_GROUPS: usize = 256;

const IPV4_HEADER_BYTES: usize = 20;
const TCP_BASE_HEADER_BYTES: usize = 20;
const UDP_BASE_HEADER_BYTES: usize = 8;
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;
const TTL: u8 = 64;
const TCP_WINDOW: u16 = 65_535;

/// How one scenario flow appears on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireFlow {
    /// Flow group (the second octet of both addresses).
    pub group: u8,
    /// The flow's number within its group.
    pub index: u32,
    /// The group's flows share one sender and one receiver host.
    pub one_host: bool,
    pub transport: WireTransport,
    /// The receiver's port: 5201 for bulk TCP, 80 for web, 5001 for UDP-like flows.
    pub server_port: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireTransport {
    /// `accurate_ecn`: ACKs carry the ACE count in AE, CWR and ECE.
    Tcp {
        accurate_ecn: bool,
    },
    Udp,
}

impl WireFlow {
    /// The flow's host number in the addressing plan ([`crate::net::sender_addr`]).
    fn host(&self) -> u32 {
        if self.one_host {
            0
        } else {
            self.index
        }
    }

    pub fn sender_addr(&self) -> [u8; 4] {
        sender_addr(self.group as usize, self.host())
    }

    pub fn receiver_addr(&self) -> [u8; 4] {
        receiver_addr(self.group as usize, self.host())
    }

    /// Flows sharing a host are told apart by their port: each counts
    /// from its own index.
    pub fn sender_port(&self, conn: u32) -> u16 {
        let first = if self.one_host { self.index } else { 0 };
        SENDER_PORT_BASE + ((first as u64 + conn as u64) % SENDER_PORTS as u64) as u16
    }
}

/// The 24-byte file header: version 2.4, no time zone, [`SNAP_LEN`], raw IP.
pub fn global_header() -> [u8; 24] {
    let mut h = [0u8; 24];
    h[0..4].copy_from_slice(&PCAP_MAGIC_NANOS.to_le_bytes());
    h[4..6].copy_from_slice(&2u16.to_le_bytes());
    h[6..8].copy_from_slice(&4u16.to_le_bytes());
    h[16..20].copy_from_slice(&SNAP_LEN.to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_RAW.to_le_bytes());
    h
}

/// Append one record: `pkt` of `flow` seen at simulated time `t`.
pub fn write_record(out: &mut Vec<u8>, t: Nanos, pkt: &Packet, flow: &WireFlow) {
    let start = out.len();
    out.extend_from_slice(&[0u8; RECORD_HEADER_BYTES]);
    write_ipv4(out, pkt, flow);
    let len = (out.len() - start - RECORD_HEADER_BYTES) as u32;
    let header = &mut out[start..start + RECORD_HEADER_BYTES];
    header[0..4].copy_from_slice(&((t / 1_000_000_000) as u32).to_le_bytes());
    header[4..8].copy_from_slice(&((t % 1_000_000_000) as u32).to_le_bytes());
    header[8..12].copy_from_slice(&len.to_le_bytes());
    header[12..16].copy_from_slice(&len.to_le_bytes());
}

/// The IP header's ECN field (RFC 3168 §5).
pub fn ecn_bits(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect1 => 0b01,
        Ecn::Ect0 => 0b10,
        Ecn::Ce => 0b11,
    }
}

/// The RFC 1071 Internet checksum of `sum` (a running 32-bit sum of 16-bit words).
fn fold(mut sum: u32) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Sum of `bytes` as big-endian 16-bit words (an odd last byte padded with zero).
fn word_sum(bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    let mut sum: u32 = chunks.by_ref().map(|w| u16::from_be_bytes([w[0], w[1]]) as u32).sum();
    if let [last] = chunks.remainder() {
        sum += (*last as u32) << 8;
    }
    sum
}

/// RFC 1071 checksum of `bytes`.
pub fn internet_checksum(bytes: &[u8]) -> u16 {
    fold(word_sum(bytes))
}

/// TCP/UDP checksum over the IPv4 pseudo-header and `segment` (RFC 9293 §3.1, RFC 768).
pub fn transport_checksum(src: [u8; 4], dst: [u8; 4], proto: u8, segment: &[u8]) -> u16 {
    let pseudo = word_sum(&src) + word_sum(&dst) + proto as u32 + segment.len() as u32;
    fold(pseudo + word_sum(segment))
}

/// Wire bytes of a TCP SACK option carrying `n` blocks, with the two NOPs
/// that align it (RFC 2018 §3).
fn sack_option_wire_bytes(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        2 + 8 * n + 2
    }
}

fn write_ipv4(out: &mut Vec<u8>, pkt: &Packet, flow: &WireFlow) {
    let (src, dst) = match pkt.dir {
        Dir::Forward => (flow.sender_addr(), flow.receiver_addr()),
        Dir::Reverse => (flow.receiver_addr(), flow.sender_addr()),
    };
    let ip_start = out.len();
    out.extend_from_slice(&[0u8; IPV4_HEADER_BYTES]);
    let proto = match flow.transport {
        WireTransport::Tcp { accurate_ecn } => {
            write_tcp(out, pkt, flow, accurate_ecn);
            PROTO_TCP
        }
        WireTransport::Udp => {
            write_udp(out, pkt, flow);
            PROTO_UDP
        }
    };
    let total = out.len() - ip_start;
    let seg_start = ip_start + IPV4_HEADER_BYTES;
    let check_at = seg_start + if proto == PROTO_TCP { 16 } else { 6 };
    let mut check = transport_checksum(src, dst, proto, &out[seg_start..]);
    if proto == PROTO_UDP && check == 0 {
        check = 0xffff; // RFC 768: zero means "no checksum"
    }
    out[check_at..check_at + 2].copy_from_slice(&check.to_be_bytes());
    let ip = &mut out[ip_start..seg_start];
    ip[0] = 0x45;
    ip[1] = ecn_bits(pkt.ecn);
    ip[2..4].copy_from_slice(&(total as u16).to_be_bytes());
    ip[6] = 0x40; // DF
    ip[8] = TTL;
    ip[9] = proto;
    ip[12..16].copy_from_slice(&src);
    ip[16..20].copy_from_slice(&dst);
    let check = internet_checksum(ip);
    ip[10..12].copy_from_slice(&check.to_be_bytes());
}

/// Payload bytes on the wire: the simulated size less the headers it counts.
fn payload_bytes(pkt: &Packet, header_bytes: u32) -> usize {
    pkt.size_bytes.saturating_sub(header_bytes) as usize
}

fn write_tcp(out: &mut Vec<u8>, pkt: &Packet, flow: &WireFlow, accurate_ecn: bool) {
    let sack = pkt.sack();
    let options = sack_option_wire_bytes(sack.len());
    let payload = payload_bytes(pkt, TCP_HEADER_BYTES + sack_option_bytes(sack.len()));
    let (sport, dport) = ports(pkt, flow);
    // Sequence space as after a SYN numbered 0 each way.
    let (seq, ack) = match pkt.kind {
        PacketKind::Data => (pkt.seq.wrapping_add(1) as u32, 1u32),
        PacketKind::Ack => (1u32, pkt.ack.wrapping_add(1) as u32),
    };
    let mut flags: u16 = 0x010; // ACK
    if pkt.kind == PacketKind::Ack && accurate_ecn {
        // ACE's bits, most significant first, are AE (0x100), CWR, ECE.
        flags |= (pkt.ace as u16 & 0b111) << 6;
    } else {
        flags |= if pkt.cwr { 0x080 } else { 0 } | if pkt.ece { 0x040 } else { 0 };
    }
    let offset_words = ((TCP_BASE_HEADER_BYTES + options) / 4) as u16;
    out.extend_from_slice(&sport.to_be_bytes());
    out.extend_from_slice(&dport.to_be_bytes());
    out.extend_from_slice(&seq.to_be_bytes());
    out.extend_from_slice(&ack.to_be_bytes());
    out.extend_from_slice(&((offset_words << 12) | flags).to_be_bytes());
    out.extend_from_slice(&TCP_WINDOW.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]); // checksum (filled in later), urgent pointer
    write_sack_option(out, &sack, pkt.ack);
    out.resize(out.len() + payload, 0);
}

/// RFC 2018 §3: NOP, NOP, kind 5, length, then each block's left and right
/// edges, in the sequence space of [`write_tcp`].
fn write_sack_option(out: &mut Vec<u8>, sack: &SackBlocks, ack: u64) {
    if sack.is_empty() {
        return;
    }
    out.extend_from_slice(&[1, 1, 5, (2 + 8 * sack.len()) as u8]);
    for (left, right) in sack.ranges(ack) {
        out.extend_from_slice(&(left.wrapping_add(1) as u32).to_be_bytes());
        out.extend_from_slice(&(right.wrapping_add(1) as u32).to_be_bytes());
    }
}

fn write_udp(out: &mut Vec<u8>, pkt: &Packet, flow: &WireFlow) {
    let payload = payload_bytes(pkt, UDP_HEADER_BYTES);
    let (sport, dport) = ports(pkt, flow);
    out.extend_from_slice(&sport.to_be_bytes());
    out.extend_from_slice(&dport.to_be_bytes());
    out.extend_from_slice(&((UDP_BASE_HEADER_BYTES + payload) as u16).to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    out.resize(out.len() + payload, 0);
}

/// (source, destination) ports of a packet in its direction.
fn ports(pkt: &Packet, flow: &WireFlow) -> (u16, u16) {
    let sender = flow.sender_port(pkt.conn);
    match pkt.dir {
        Dir::Forward => (sender, flow.server_port),
        Dir::Reverse => (flow.server_port, sender),
    }
}

#[cfg(test)]
mod tests;
