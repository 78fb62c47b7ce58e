//! A router output: a queue scheme in front of a link.

use crate::kernel::{tx_time_ns, Nanos};
use crate::queue::Qdisc;

/// A router output: the queue scheme in front of a link. The link serialises
/// one packet at a time at `rate_bps`, then propagates it for `delay_ns`.
pub struct Port {
    pub queue: Box<dyn Qdisc>,
    pub rate_bps: u64,
    pub delay_ns: Nanos,
    /// True while a packet is being serialised.
    pub busy: bool,
}

impl Port {
    pub fn tx_time(&self, bytes: u32) -> Nanos {
        tx_time_ns(bytes, self.rate_bps)
    }
}
