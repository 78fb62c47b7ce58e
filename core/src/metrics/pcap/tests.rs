//! Byte-level checks of the capture format. The expected checksums were
//! computed apart from this code, from RFC 1071's definition over the
//! packets spelled out in each test.

use super::*;
use crate::net::{Packet, ACK_BYTES};

const TCP_FLOW: WireFlow = WireFlow {
    group: 1,
    index: 0,
    one_host: false,
    transport: WireTransport::Tcp { accurate_ecn: false },
    server_port: 5201,
};

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// One record of `pkt` at `t`, split into (record header, IP packet).
fn record(t: Nanos, pkt: &Packet, flow: &WireFlow) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    write_record(&mut out, t, pkt, flow);
    let ip = out.split_off(RECORD_HEADER_BYTES);
    (out, ip)
}

fn data(seq: u64, payload: u32) -> Packet {
    let mut p = Packet::new(0, PacketKind::Data, Dir::Forward, payload + TCP_HEADER_BYTES, payload);
    p.seq = seq;
    p
}

#[test]
fn the_global_header_declares_nanosecond_raw_ipv4() {
    let h = global_header();
    assert_eq!(h[..4], [0x4d, 0x3c, 0xb2, 0xa1], "magic 0xa1b23c4d, little-endian");
    assert_eq!(h[4..8], [2, 0, 4, 0], "version 2.4");
    assert_eq!(h[8..16], [0; 8], "no time zone, no accuracy");
    assert_eq!(u32::from_le_bytes(h[16..20].try_into().unwrap()), 65_535);
    assert_eq!(u32::from_le_bytes(h[20..24].try_into().unwrap()), 101, "LINKTYPE_RAW");
}

#[test]
fn a_record_header_splits_seconds_and_nanoseconds_and_keeps_the_whole_packet() {
    let (header, ip) = record(12_345_678_901, &data(0, 100), &TCP_FLOW);
    let le = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap());
    assert_eq!((le(0), le(4)), (12, 345_678_901));
    assert_eq!((le(8), le(12)), (140, 140), "captured = original = IP total length");
    assert_eq!(ip.len(), 140);
}

#[test]
fn ipv4_header_carries_ecn_and_a_valid_checksum() {
    let mut pkt = data(1000, 100);
    pkt.ecn = Ecn::Ect0;
    let (_, ip) = record(0, &pkt, &TCP_FLOW);
    assert_eq!((ip[0], ip[1], u16_at(&ip, 2)), (0x45, 0b10, 140));
    assert_eq!((ip[6], ip[8], ip[9]), (0x40, 64, 6), "DF, TTL 64, TCP");
    assert_eq!((&ip[12..16], &ip[16..20]), (&[10, 1, 0, 1][..], &[10, 1, 128, 1][..]));
    assert_eq!(u16_at(&ip, 10), 0xa666);
    assert_eq!(internet_checksum(&ip[..20]), 0, "a header with its checksum sums to zero");
    for (ecn, bits) in [(Ecn::NotEct, 0), (Ecn::Ect1, 1), (Ecn::Ect0, 2), (Ecn::Ce, 3)] {
        pkt.ecn = ecn;
        let (_, ip) = record(0, &pkt, &TCP_FLOW);
        assert_eq!(ip[1] & 0b11, bits, "{ecn:?}");
        assert_eq!(internet_checksum(&ip[..20]), 0);
    }
}

#[test]
fn a_data_segment_numbers_its_first_byte_after_an_unseen_syn() {
    let (_, ip) = record(0, &data(1000, 100), &TCP_FLOW);
    let tcp = &ip[20..];
    assert_eq!((u16_at(tcp, 0), u16_at(tcp, 2)), (10_000, 5201));
    assert_eq!((u32_at(tcp, 4), u32_at(tcp, 8)), (1001, 1), "seq = byte 1000 + 1, ACK of the receiver's SYN");
    assert_eq!(u16_at(tcp, 12), (5 << 12) | 0x010, "20-byte header, ACK");
    assert_eq!(u16_at(tcp, 14), 65_535);
    assert_eq!(u16_at(tcp, 16), 0xdc21, "checksum over the pseudo-header and the zero payload");
    assert!(tcp[20..].iter().all(|&b| b == 0) && tcp.len() == 120);
}

#[test]
fn sequence_numbers_wrap_at_two_to_the_32() {
    let (_, ip) = record(0, &data((1 << 32) + 41, 100), &TCP_FLOW);
    assert_eq!(u32_at(&ip[20..], 4), 42);
}

#[test]
fn an_ack_carries_its_sack_blocks_after_two_nops() {
    let mut ack = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
    ack.ack = 5000;
    ack.ece = true;
    let blocks = SackBlocks::new(5000, [(6000, 7000), (8000, 9000)]);
    ack.size_bytes += sack_option_bytes(blocks.len());
    ack.set_sack(blocks);
    let (_, ip) = record(0, &ack, &TCP_FLOW);
    assert_eq!((u16_at(&ip, 2), &ip[12..16], &ip[16..20]), (60, &[10, 1, 128, 1][..], &[10, 1, 0, 1][..]));
    assert_eq!(u16_at(&ip, 10), 0xa6b8);
    let tcp = &ip[20..];
    assert_eq!((u16_at(tcp, 0), u16_at(tcp, 2)), (5201, 10_000));
    assert_eq!((u32_at(tcp, 4), u32_at(tcp, 8)), (1, 5001));
    assert_eq!(u16_at(tcp, 12), (10 << 12) | 0x010 | 0x040, "40-byte header, ACK, ECE");
    assert_eq!(tcp[20..24], [1, 1, 5, 18], "NOP, NOP, SACK, 2 + 8·2 bytes");
    let edges: Vec<u32> = (0..4).map(|i| u32_at(tcp, 24 + 4 * i)).collect();
    assert_eq!(edges, [6001, 7001, 8001, 9001]);
    assert_eq!(u16_at(tcp, 16), 0x014a);
}

#[test]
fn accurate_ecn_acks_spread_the_ace_count_over_ae_cwr_and_ece() {
    let flow = WireFlow { transport: WireTransport::Tcp { accurate_ecn: true }, ..TCP_FLOW };
    for (ace, flags) in [(0u8, 0x000), (1, 0x040), (2, 0x080), (5, 0x140), (7, 0x1c0)] {
        let mut ack = Packet::new(0, PacketKind::Ack, Dir::Reverse, ACK_BYTES, 0);
        ack.ace = ace;
        ack.ece = true; // a classic echo the accurate receiver also keeps: not on the wire
        let (_, ip) = record(0, &ack, &flow);
        assert_eq!(u16_at(&ip[20..], 12) & 0x1ff, 0x010 | flags, "ACE {ace}");
    }
}

#[test]
fn a_udp_datagram_has_its_length_and_checksum() {
    let flow = WireFlow { group: 2, index: 300, one_host: false, transport: WireTransport::Udp, server_port: 5001 };
    let pkt = Packet::new(0, PacketKind::Data, Dir::Forward, 200, 172);
    let (_, ip) = record(0, &pkt, &flow);
    assert_eq!((u16_at(&ip, 2), ip[9]), (200, 17));
    assert_eq!((&ip[12..16], &ip[16..20]), (&[10, 2, 1, 51][..], &[10, 2, 129, 51][..]));
    let udp = &ip[20..];
    assert_eq!((u16_at(udp, 0), u16_at(udp, 2), u16_at(udp, 4)), (10_000, 5001, 180));
    assert_eq!(u16_at(udp, 6), 0x2d83);
    assert_eq!(internet_checksum(&ip[..20]), 0);
}

#[test]
fn connections_take_their_own_sender_ports() {
    let mut pkt = data(0, 10);
    pkt.conn = 50_003;
    let (_, ip) = record(0, &pkt, &TCP_FLOW);
    assert_eq!(u16_at(&ip[20..], 0), 10_003);
}
