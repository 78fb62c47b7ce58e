//! TCP Reno / NewReno (placeholder: being written).

use crate::kernel::Nanos;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcVariant {
    Reno,
    NewReno,
}

/// Per-flow TCP configuration (SCENARIO.md TCP knobs).
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
    pub ecn: bool,
    /// Bytes the application sends; None = bulk (infinite) transfer.
    pub transfer_bytes: Option<u64>,
}

// TEMPORARY until the TCP agent lands.
pub struct TcpSender;
pub struct TcpReceiver;
impl TcpSender { pub fn new(_: &TcpConfig) -> Self { TcpSender } }
impl TcpReceiver { pub fn new(_: &TcpConfig) -> Self { TcpReceiver } }
impl super::Agent for TcpSender { fn start(&mut self, _: &mut super::AgentCtx) {} fn on_packet(&mut self, _: crate::net::Packet, _: &mut super::AgentCtx) {} fn on_timer(&mut self, _: u32, _: &mut super::AgentCtx) {} }
impl super::Agent for TcpReceiver { fn start(&mut self, _: &mut super::AgentCtx) {} fn on_packet(&mut self, _: crate::net::Packet, _: &mut super::AgentCtx) {} fn on_timer(&mut self, _: u32, _: &mut super::AgentCtx) {} }
