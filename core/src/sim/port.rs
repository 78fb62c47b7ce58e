//! A router output: a queue scheme in front of a link.

use crate::kernel::{tx_time_ns, Nanos};
use crate::net::AccessJitter;
use crate::queue::Qdisc;

/// A router output: the queue scheme in front of a link. The link serialises
/// one packet at a time at `rate_bps`, then propagates it for `delay_ns`.
pub struct Port {
    pub queue: Box<dyn Qdisc>,
    pub rate_bps: u64,
    pub delay_ns: Nanos,
    /// True while a packet is being serialised.
    pub busy: bool,
    /// A flow's access link in its data direction may add jitter.
    pub jitter: Option<AccessJitter>,
}

impl Port {
    pub fn tx_time(&self, bytes: u32) -> Nanos {
        tx_time_ns(bytes, self.rate_bps)
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
