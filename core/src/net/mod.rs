//! The network: packets and the topologies that wire links into per-flow
//! routes. (The output port, a queue scheme feeding a link, lives in `sim`,
//! which is the layer that knows both queues and links.)

mod host;
mod packet;
pub mod topology;
pub mod trace;

pub use host::{receiver_addr, sender_addr, AccessJitter, HostQueue, HostRoom};
/// An output port's index in the simulation's port list; routes are lists of them.
pub type PortId = usize;

pub use packet::{
    sack_option_bytes, Dir, Ecn, Extension, FlowId, Header, Labels, Lane, Packet, PacketKind, SackBlocks, TfrcHeader,
    ACE_MODULUS, ACK_BYTES, MAX_SACK_BLOCKS, TCP_HEADER_BYTES, UDP_HEADER_BYTES,
};
