//! A flow's state in the simulation: its two agents, their RNG streams, the
//! sender's host queue, and its routes.
//!
//! With thousands of flows a flow's state is rarely in cache when its next
//! packet arrives, so its layout decides how many misses a delivery costs:
//! a TCP flow's agents sit inline beside its host queue, with no pointer to
//! follow, and every flow's route sits in one small table.

use crate::kernel::{prefetch, Rng};
use crate::net::topology::Route;
use crate::net::{Dir, FlowId, HostQueue, PortId};
use crate::scenario::TrafficPlan;
use crate::transport::ping::{PingSink, PingSource};
use crate::transport::tcp::{TcpReceiver, TcpSender};
use crate::transport::tfrc::{TfrcReceiver, TfrcSender};
use crate::transport::udp::{OnOffSource, UdpSink, UdpSource, VbrSource};
use crate::transport::web::{WebClient, WebServer};
use crate::transport::Agent;

/// One end of a flow. TCP, nearly every flow of a large run, is held
/// inline; the other transports, fewer and some large, are boxed.
pub enum Endpoint<T> {
    Tcp(T),
    Other(Box<dyn Agent>),
}

impl<T: Agent + 'static> Endpoint<T> {
    pub fn agent(&self) -> &dyn Agent {
        match self {
            Endpoint::Tcp(agent) => agent,
            Endpoint::Other(agent) => agent.as_ref(),
        }
    }

    pub fn agent_mut(&mut self) -> &mut dyn Agent {
        match self {
            Endpoint::Tcp(agent) => agent,
            Endpoint::Other(agent) => agent.as_mut(),
        }
    }
}

pub struct FlowRuntime {
    pub source: Endpoint<TcpSender>,
    pub sink: Endpoint<TcpReceiver>,
    pub source_rng: Rng,
    pub sink_rng: Rng,
    /// The sender's NIC queue: what the source may put on its access link.
    pub host: HostQueue,
    /// Opens a connection per transfer, each a flow of its own to routers.
    pub multi_connection: bool,
    pub weight: f64,
    pub drop_precedence: u8,
}

impl FlowRuntime {
    /// Ask the processor for the start of the agent a packet is about to
    /// reach: its kind and first fields (x86-64 only, elsewhere nothing).
    #[inline]
    pub fn prefetch(&self, at_sink: bool) {
        let agent: *const u8 =
            if at_sink { std::ptr::from_ref(&self.sink).cast() } else { std::ptr::from_ref(&self.source).cast() };
        prefetch(agent, &[0, 64]);
    }
}

/// A flow's source and sink agents.
pub fn endpoints(traffic: &TrafficPlan) -> (Endpoint<TcpSender>, Endpoint<TcpReceiver>) {
    let boxed = |source: Box<dyn Agent>, sink: Box<dyn Agent>| (Endpoint::Other(source), Endpoint::Other(sink));
    match traffic {
        TrafficPlan::Tcp(cfg) => (Endpoint::Tcp(TcpSender::new(cfg)), Endpoint::Tcp(TcpReceiver::new(cfg))),
        TrafficPlan::Tfrc(cfg) => boxed(Box::new(TfrcSender::new(cfg)), Box::new(TfrcReceiver::new())),
        TrafficPlan::Web(cfg, pattern) => boxed(Box::new(WebClient::new(cfg, *pattern)), Box::new(WebServer::new(cfg))),
        TrafficPlan::Udp { rate_bps, payload_bytes, spacing } => {
            boxed(Box::new(UdpSource::new(*rate_bps, *payload_bytes, *spacing)), Box::new(UdpSink))
        }
        TrafficPlan::Vbr { rate_bps, payload_bytes, burst_gsd, burst_interval_s } => {
            boxed(Box::new(VbrSource::new(*rate_bps, *payload_bytes, *burst_gsd, *burst_interval_s)), Box::new(UdpSink))
        }
        TrafficPlan::OnOff { peak_rate_bps, payload_bytes, on_mean_s, off_mean_s } => boxed(
            Box::new(OnOffSource::new(*peak_rate_bps, *payload_bytes, *on_mean_s, *off_mean_s)),
            Box::new(UdpSink),
        ),
        TrafficPlan::Ping(cfg) => boxed(Box::new(PingSource::new(*cfg)), Box::new(PingSink)),
    }
}

/// Every flow's routes in one array, forward then reverse: a few bytes a
/// flow, so the table stays cached where a route of each flow's own was
/// two more allocations to reach.
#[derive(Default)]
pub struct RouteTable {
    ports: Vec<u32>,
    /// Per flow: where its forward route starts, where its reverse route
    /// starts, and where it ends.
    spans: Vec<[u32; 3]>,
}

impl RouteTable {
    pub fn push(&mut self, route: &Route) {
        let start = self.ports.len() as u32;
        self.ports.extend(route.forward.iter().map(|&p| p as u32));
        let reverse = self.ports.len() as u32;
        self.ports.extend(route.reverse.iter().map(|&p| p as u32));
        self.spans.push([start, reverse, self.ports.len() as u32]);
    }

    /// The ports `flow`'s packets going `dir` cross, in order.
    pub fn path(&self, flow: FlowId, dir: Dir) -> &[u32] {
        let [start, reverse, end] = self.spans[flow as usize];
        match dir {
            Dir::Forward => &self.ports[start as usize..reverse as usize],
            Dir::Reverse => &self.ports[reverse as usize..end as usize],
        }
    }

    /// The first port of `flow`'s route going `dir`.
    pub fn first(&self, flow: FlowId, dir: Dir) -> PortId {
        self.path(flow, dir)[0] as PortId
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_table_gives_each_flow_its_own_paths() {
        let mut table = RouteTable::default();
        table.push(&Route { forward: vec![6, 0, 1, 2], reverse: vec![5, 4, 3, 7] });
        table.push(&Route { forward: vec![8, 1], reverse: vec![4, 9] });
        assert_eq!(table.path(0, Dir::Forward), [6, 0, 1, 2]);
        assert_eq!(table.path(0, Dir::Reverse), [5, 4, 3, 7]);
        assert_eq!(table.path(1, Dir::Forward), [8, 1]);
        assert_eq!((table.first(1, Dir::Reverse), table.first(1, Dir::Forward)), (4, 8));
    }
}
