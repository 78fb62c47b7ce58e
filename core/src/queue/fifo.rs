use crate::net::Packet;
use std::collections::VecDeque;

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
