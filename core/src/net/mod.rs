//! The network: packets and the topologies that wire links into per-flow
//! routes. (The output port, a queue scheme feeding a link, lives in `sim`,
//! which is the layer that knows both queues and links.)

mod packet;
pub mod topology;

/// An output port's index in the simulation's port list; routes are lists of them.
pub type PortId = usize;

pub use packet::{
    Dir, Ecn, FlowId, Labels, Packet, PacketKind, TfrcHeader, ACK_BYTES, TCP_HEADER_BYTES, UDP_HEADER_BYTES,
};
