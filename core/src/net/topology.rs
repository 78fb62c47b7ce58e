//! Wiring: a chain of `hops` congested links (1 = dumbbell, more = parking
//! lot) between routers R0 … R_hops, with every sender on its own access
//! link into the router where its path starts.
//!
//! ```text
//!  sender_f ─access─► R_a ─hop a─► … ─hop b─► R_{b+1} ─► receiver_f
//!  sender_f ◄─access─ R_a ◄─rev a── … ◄─rev b── R_{b+1} ◄─ receiver_f
//! ```
//! Receivers sit directly behind their exit router, so a flow's base RTT is
//! 2·(access delay + Σ hop delays) plus serialisation. Reverse links run the
//! same rates. With all data flowing forward they have a large Drop Tail
//! buffer, so the ACK path is uncongested; when a flow group sends in reverse
//! they run the scenario's scheme and buffer too (the simulation decides, see
//! `sim`).

use super::PortId;
use crate::kernel::Nanos;

/// Drop Tail limit of access links, and of reverse links while no data flows
/// in reverse: never the bottleneck.
pub const UNCONGESTED_BUFFER_PACKETS: u64 = 100_000;

#[derive(Clone, Debug)]
pub struct FlowAttachment {
    pub access_rate_bps: u64,
    pub access_delay_ns: Nanos,
    /// First and last hop crossed.
    pub path: (u32, u32),
    /// Data flows right to left (sender behind the exit router), so its
    /// ACKs cross the forward hops.
    pub reverse: bool,
}

/// What to build a port of.
#[derive(Clone, Debug, PartialEq)]
pub enum PortRole {
    /// Forward congested hop `h`: runs the scheme under test.
    Hop(usize),
    /// Reverse direction of hop `h`.
    ReverseHop(usize),
    AccessUp(usize),
    AccessDown(usize),
}

#[derive(Clone, Debug)]
pub struct PortPlan {
    pub role: PortRole,
    pub rate_bps: u64,
    pub delay_ns: Nanos,
}

#[derive(Clone, Debug, Default)]
pub struct Route {
    pub forward: Vec<PortId>,
    pub reverse: Vec<PortId>,
}

pub struct Layout {
    pub ports: Vec<PortPlan>,
    pub routes: Vec<Route>,
}

/// The forward and reverse ports of hop `h` in a [`layout`] of `hops` hops.
pub fn hop_ports(hops: usize, h: usize) -> [PortId; 2] {
    [h, hops + h]
}

pub fn layout(hops: usize, rate_bps: u64, delay_ns: Nanos, flows: &[FlowAttachment]) -> Layout {
    let mut ports = Vec::with_capacity(2 * hops + 2 * flows.len());
    for h in 0..hops {
        ports.push(PortPlan { role: PortRole::Hop(h), rate_bps, delay_ns });
    }
    for h in 0..hops {
        ports.push(PortPlan { role: PortRole::ReverseHop(h), rate_bps, delay_ns });
    }
    let routes = flows
        .iter()
        .enumerate()
        .map(|(f, a)| {
            let up = ports.len();
            ports.push(PortPlan {
                role: PortRole::AccessUp(f),
                rate_bps: a.access_rate_bps,
                delay_ns: a.access_delay_ns,
            });
            let down = ports.len();
            ports.push(PortPlan {
                role: PortRole::AccessDown(f),
                rate_bps: a.access_rate_bps,
                delay_ns: a.access_delay_ns,
            });
            let (first, last) = (a.path.0 as usize, a.path.1 as usize);
            let mut forward = vec![up];
            forward.extend(first..=last);
            let mut reverse: Vec<PortId> = (first..=last).rev().map(|h| hops + h).collect();
            reverse.push(down);
            if a.reverse {
                // The sender sits behind router b+1: data takes the reverse
                // links and the access link last; ACKs the forward hops.
                Route { forward: reverse, reverse: forward }
            } else {
                Route { forward, reverse }
            }
        })
        .collect();
    Layout { ports, routes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parking_lot_routes_cross_their_hops_both_ways() {
        let a = |path| FlowAttachment { access_rate_bps: 1, access_delay_ns: 0, path, reverse: false };
        let l = layout(3, 10, 1, &[a((0, 2)), a((1, 1))]);
        assert_eq!(l.routes[0].forward, [6, 0, 1, 2]);
        assert_eq!(l.routes[0].reverse, [5, 4, 3, 7]);
        assert_eq!(l.routes[1].forward, [8, 1]);
        assert_eq!(l.routes[1].reverse, [4, 9]);
        assert_eq!(l.ports[8].role, PortRole::AccessUp(1));
        let [fwd, rev] = hop_ports(3, 1);
        assert_eq!((&l.ports[fwd].role, &l.ports[rev].role), (&PortRole::Hop(1), &PortRole::ReverseHop(1)));
        let back = layout(3, 10, 1, &[FlowAttachment { reverse: true, ..a((0, 2)) }]);
        assert_eq!(back.routes[0].forward, [5, 4, 3, 7]);
        assert_eq!(back.routes[0].reverse, [6, 0, 1, 2]);
    }
}
