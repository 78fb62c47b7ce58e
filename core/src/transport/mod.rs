//! Traffic endpoints. Every flow is a pair of agents: a source at the sender
//! and a sink at the receiver. Agents see packets addressed to them, their
//! own timers and their own RNG stream; they act through [`AgentCtx`].

pub mod ping;
pub mod tcp;
#[cfg(test)]
pub(crate) mod testing;
pub mod tfrc;
pub mod udp;
pub mod web;

use crate::kernel::{Nanos, Rng};
use crate::net::{FlowId, HostRoom, Packet};

/// The kind of traffic a flow group generates (a scenario's `flows[].kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum FlowKind {
    #[default]
    Tcp,
    Cbr,
    Poisson,
    Vbr,
    Onoff,
    Web,
    Tfrc,
    /// A latency probe: echo requests at a fixed interval, echoed by the receiver.
    Ping,
}

impl FlowKind {
    pub const ALL: [FlowKind; 8] = [
        FlowKind::Tcp,
        FlowKind::Cbr,
        FlowKind::Poisson,
        FlowKind::Vbr,
        FlowKind::Onoff,
        FlowKind::Web,
        FlowKind::Tfrc,
        FlowKind::Ping,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FlowKind::Tcp => "tcp",
            FlowKind::Cbr => "cbr",
            FlowKind::Poisson => "poisson",
            FlowKind::Vbr => "vbr",
            FlowKind::Onoff => "onoff",
            FlowKind::Web => "web",
            FlowKind::Tfrc => "tfrc",
            FlowKind::Ping => "ping",
        }
    }
}

/// An agent-defined timer id, echoed back by [`Agent::on_timer`].
pub type TimerId = u64;

/// What an agent asked for during one call.
#[derive(Default)]
pub struct AgentOutput {
    /// Packets to put on the wire, in order.
    pub send: Vec<Packet>,
    /// Timers to fire: (absolute time, agent-defined id).
    pub timers: Vec<(Nanos, TimerId)>,
    /// Payload bytes newly delivered in order to the receiving application.
    pub delivered_bytes: u64,
    /// Completion times of finite transfers that ended.
    pub completions: Vec<Nanos>,
    /// Round-trip time samples the transport measured.
    pub rtt_samples: Vec<Nanos>,
    /// Packets the source skipped because its host queue was full (each
    /// would have been dropped at the host).
    pub host_drops: u64,
}

pub struct AgentCtx<'a> {
    pub now: Nanos,
    pub flow: FlowId,
    pub rng: &'a mut Rng,
    pub(crate) out: &'a mut AgentOutput,
    /// Room in the sender's host queue when the callback began (sources
    /// only; unbounded elsewhere). Packets sent beyond it are dropped at the
    /// host, so a source faster than its link should skip ahead instead.
    pub host_room: HostRoom,
}

impl<'a> AgentCtx<'a> {
    pub fn new(now: Nanos, flow: FlowId, rng: &'a mut Rng, out: &'a mut AgentOutput) -> Self {
        AgentCtx { now, flow, rng, out, host_room: HostRoom::UNBOUNDED }
    }

    /// Hand a packet to the network (the simulation stamps `sent_at`,
    /// route and labels).
    pub fn send(&mut self, pkt: Packet) {
        self.out.send.push(pkt);
    }

    /// Fire [`Agent::on_timer`] with `id` at `at`. There is no cancel: an
    /// agent ignores timers it no longer wants (keep a deadline, compare).
    pub fn set_timer(&mut self, at: Nanos, id: TimerId) {
        self.out.timers.push((at, id));
    }

    /// Count `packets` the source did not make because its host queue was
    /// full: host drops, reported in one step.
    pub fn host_drop(&mut self, packets: u64) {
        self.out.host_drops += packets;
    }

    /// Report payload bytes delivered in order to the application.
    pub fn deliver(&mut self, bytes: u64) {
        self.out.delivered_bytes += bytes;
    }

    /// Report a round-trip time the transport measured (for statistics).
    pub fn report_rtt(&mut self, rtt: Nanos) {
        self.out.rtt_samples.push(rtt);
    }

    /// Report a finite transfer that took `duration` from its request to
    /// its last acknowledgement.
    pub fn complete_transfer(&mut self, duration: Nanos) {
        self.out.completions.push(duration);
    }
}

/// Per-flow internals shown in charts; NaN where an agent has no such thing.
#[derive(Clone, Copy, Debug)]
pub struct AgentProbe {
    pub cwnd_packets: f64,
    pub srtt_ms: f64,
}

impl Default for AgentProbe {
    fn default() -> Self {
        AgentProbe { cwnd_packets: f64::NAN, srtt_ms: f64::NAN }
    }
}

pub trait Agent {
    /// The flow begins (its `start_s`).
    fn start(&mut self, ctx: &mut AgentCtx);
    /// The flow stops offering new data (its `stop_s`).
    fn stop(&mut self, _ctx: &mut AgentCtx) {}
    fn on_packet(&mut self, pkt: Packet, ctx: &mut AgentCtx);
    fn on_timer(&mut self, id: TimerId, ctx: &mut AgentCtx);
    fn probe(&self) -> AgentProbe {
        AgentProbe::default()
    }
}
