//! A router output: a queue scheme in front of a link.

use crate::kernel::{prefetch, tx_time_ns, Nanos, Stamp};
use crate::net::trace::LinkTrace;
use crate::net::{AccessJitter, Packet};
use crate::queue::droptail::DropTail;
use crate::queue::{Qdisc, QueueCtx};
use std::ops::{Deref, DerefMut};

/// A router output: the queue scheme in front of a link. The link serialises
/// one packet at a time at `rate_bps`, then propagates it for `delay_ns`.
pub struct Port {
    pub queue: PortQueue,
    pub rate_bps: u64,
    pub delay_ns: Nanos,
    /// True while a packet is being serialised.
    pub busy: bool,
    /// The link's queue is a plain FIFO, whose dequeue from empty does
    /// nothing: the end of a packet's serialisation needs an event only
    /// when another packet waits for the link.
    pub tx_done_on_demand: bool,
    /// The stamp the end of the current serialisation would have as an
    /// event, while nothing waits and no event stands for it.
    pub unscheduled_tx_done: Option<Stamp>,
    /// A flow's access link in its data direction may add jitter.
    pub jitter: Option<Box<AccessJitter>>,
    /// The last packet size serialised here and its serialisation time.
    pub last_tx: (u32, Nanos),
    /// A congested hop may follow a rate trace instead of `rate_bps`.
    pub trace: Option<Box<LinkTrace>>,
}

/// A port's queue. Most ports are uncongested access links whose queue is
/// a plain Drop Tail: it sits in the port itself, so that a packet passing
/// through finds the queue's length beside the port's other state, not in
/// an allocation of its own behind a virtual call. What lives only on some
/// ports (a trace, jitter) is boxed, so that it does not spread every port
/// over more cache lines.
pub enum PortQueue {
    Plain(DropTail),
    Scheme(Box<dyn Qdisc>),
}

impl Deref for PortQueue {
    type Target = dyn Qdisc;

    fn deref(&self) -> &(dyn Qdisc + 'static) {
        match self {
            PortQueue::Plain(queue) => queue,
            PortQueue::Scheme(queue) => queue.as_ref(),
        }
    }
}

impl DerefMut for PortQueue {
    fn deref_mut(&mut self) -> &mut (dyn Qdisc + 'static) {
        match self {
            PortQueue::Plain(queue) => queue,
            PortQueue::Scheme(queue) => queue.as_mut(),
        }
    }
}

/// What every packet calls at every hop, with the plain queue's code called
/// directly (and inlined) rather than through the trait object's table:
/// in WebAssembly an indirect call checks its signature and is not inlined
/// by Node's V8. These take precedence over the same methods reached
/// through `Deref`.
impl PortQueue {
    #[inline]
    pub fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        match self {
            PortQueue::Plain(queue) => queue.enqueue(pkt, ctx),
            PortQueue::Scheme(queue) => queue.enqueue(pkt, ctx),
        }
    }

    #[inline]
    pub fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        match self {
            PortQueue::Plain(queue) => queue.dequeue(ctx),
            PortQueue::Scheme(queue) => queue.dequeue(ctx),
        }
    }

    #[inline]
    pub fn len_packets(&self) -> usize {
        match self {
            PortQueue::Plain(queue) => queue.len_packets(),
            PortQueue::Scheme(queue) => queue.len_packets(),
        }
    }

    #[inline]
    pub fn len_bytes(&self) -> u64 {
        match self {
            PortQueue::Plain(queue) => queue.len_bytes(),
            PortQueue::Scheme(queue) => queue.len_bytes(),
        }
    }
}

impl Port {
    /// Ask the processor to fetch the port into the cache, ahead of a
    /// packet it will soon take (x86-64 only; elsewhere nothing).
    #[inline]
    pub fn prefetch(&self) {
        prefetch(self, &[0, 64, std::mem::size_of::<Port>() - 1]);
    }

    pub fn tx_time(&mut self, bytes: u32) -> Nanos {
        // A link mostly carries one size of packet (data one way, ACKs the
        // other): keep the last answer rather than divide again.
        if self.last_tx.0 != bytes {
            self.last_tx = (bytes, tx_time_ns(bytes, self.rate_bps));
        }
        self.last_tx.1
    }

    /// When a packet whose serialisation ends at `tx_end` reaches the far end.
    pub fn arrival(&mut self, tx_end: Nanos) -> Nanos {
        let unjittered = tx_end + self.delay_ns;
        match &mut self.jitter {
            Some(j) => j.arrival(unjittered),
            None => unjittered,
        }
    }
}
