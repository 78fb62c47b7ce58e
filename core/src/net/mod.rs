//! The network: packets, output ports (a queue scheme feeding a link), and
//! the topologies that wire them into per-flow routes.

mod host;
mod packet;
mod port;
pub mod topology;

pub use host::{AccessJitter, HostQueue, HostRoom};
pub use packet::{
    sack_option_bytes, Dir, Ecn, Extension, FlowId, Labels, Packet, PacketKind, SackBlocks, TfrcHeader, ACK_BYTES,
    MAX_SACK_BLOCKS, TCP_HEADER_BYTES, UDP_HEADER_BYTES,
};
pub use port::{Port, PortId};
