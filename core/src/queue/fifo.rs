use super::{DropReason, Limit, QueueCtx};
use crate::net::Packet;
use std::collections::VecDeque;

/// The [`Qdisc`](super::Qdisc) lengths of a scheme whose whole queue is the
/// [`Fifo`] in its field `fifo`.
macro_rules! fifo_lengths {
    () => {
        fn len_packets(&self) -> usize {
            self.fifo.len()
        }

        fn len_bytes(&self) -> u64 {
            self.fifo.bytes()
        }
    };
}
pub(crate) use fifo_lengths;

/// A FIFO that keeps its length in packets and bytes; the storage every
/// single-queue scheme shares.
#[derive(Default)]
pub struct Fifo {
    packets: VecDeque<Packet>,
    bytes: u64,
}

impl Fifo {
    pub fn push(&mut self, pkt: Packet) {
        self.bytes += pkt.size_bytes as u64;
        self.packets.push_back(pkt);
    }

    /// Would a packet of `size` bytes overflow `limit`?
    pub fn is_full_for(&self, limit: Limit, size: u32) -> bool {
        limit.exceeded_by(self.len(), self.bytes, size)
    }

    /// Queue `pkt`, or drop it as an overflow when the buffer is full.
    pub fn push_within(&mut self, limit: Limit, pkt: Packet, ctx: &mut QueueCtx) {
        if self.is_full_for(limit, pkt.size_bytes) {
            ctx.drop(pkt, DropReason::Overflow);
        } else {
            self.push(pkt);
        }
    }

    /// The length in `limit`'s unit (packets or bytes).
    pub fn measure(&self, limit: Limit) -> f64 {
        limit.measure(self.len(), self.bytes)
    }

    pub fn pop(&mut self) -> Option<Packet> {
        let pkt = self.packets.pop_front()?;
        self.bytes -= pkt.size_bytes as u64;
        Some(pkt)
    }

    pub fn pop_back(&mut self) -> Option<Packet> {
        let pkt = self.packets.pop_back()?;
        self.bytes -= pkt.size_bytes as u64;
        Some(pkt)
    }

    pub fn remove(&mut self, index: usize) -> Option<Packet> {
        let pkt = self.packets.remove(index)?;
        self.bytes -= pkt.size_bytes as u64;
        Some(pkt)
    }

    pub fn front(&self) -> Option<&Packet> {
        self.packets.front()
    }

    pub fn get(&self, index: usize) -> Option<&Packet> {
        self.packets.get(index)
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}
