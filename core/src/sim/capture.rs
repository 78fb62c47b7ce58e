//! A capture tap on one congested hop: the packets that leave it in either
//! direction (forward link and its reverse twin, as a capture on the
//! router's interface sees them) and the packets its queues drop, within a
//! window of simulated time, as pcap bytes (`metrics/pcap.rs`). The
//! simulation calls the tap only when a capture is configured.

use crate::kernel::{secs_f64, Nanos};
use crate::metrics::pcap::{self, WireFlow, WireTransport, MAX_FLOWS_PER_GROUP, MAX_GROUPS};
use crate::net::{topology, Packet, PortId};
use crate::scenario::{Plan, TrafficPlan};
use crate::transport::tcp::EcnFeedback;

/// What to capture: hop (0-based; default 0, the first congested hop)
/// and the window [from, to) in seconds of simulated time (default the
/// whole run).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CaptureRequest {
    pub hop: Option<u32>,
    pub from_s: Option<f64>,
    pub to_s: Option<f64>,
}

/// Which part of a [`CaptureRequest`] was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureField {
    Hop,
    From,
    To,
    /// The scenario itself (more groups or flows than the addressing plan numbers apart).
    Scenario,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaptureError {
    pub field: CaptureField,
    pub message: String,
}

/// Bytes captured since the last take: passed packets and drops, each a
/// pcap stream (the first take of each starts with the file header).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureBytes {
    pub passed: Vec<u8>,
    pub dropped: Vec<u8>,
}

pub(super) struct Capture {
    /// Forward and reverse port of the hop.
    ports: [PortId; 2],
    from_ns: Nanos,
    to_ns: Nanos,
    /// By scenario flow (a packet's `owner`).
    flows: Vec<WireFlow>,
    bytes: CaptureBytes,
}

fn refuse(field: CaptureField, message: String) -> CaptureError {
    CaptureError { field, message }
}

/// A window bound in seconds, checked to lie within the run.
fn window_bound(
    value: Option<f64>,
    default: Nanos,
    duration: Nanos,
    field: CaptureField,
) -> Result<Nanos, CaptureError> {
    let Some(s) = value else { return Ok(default) };
    let run_s = duration as f64 / 1e9;
    if !(s.is_finite() && (0.0..=run_s).contains(&s)) {
        return Err(refuse(field, format!("{s} s is outside the run (0 to {run_s} s)")));
    }
    Ok(secs_f64(s))
}

/// How each flow of `plan` appears on the wire.
fn wire_flows(plan: &Plan) -> Result<Vec<WireFlow>, CaptureError> {
    if plan.groups.len() > MAX_GROUPS {
        let message = format!("the capture's addresses number at most {MAX_GROUPS} flow groups apart");
        return Err(refuse(CaptureField::Scenario, message));
    }
    let mut flows = Vec::with_capacity(plan.flow_count());
    for (g, group) in plan.groups.iter().enumerate() {
        if group.count > MAX_FLOWS_PER_GROUP {
            let message =
                format!("the capture's addresses number at most {MAX_FLOWS_PER_GROUP} flows of a group apart");
            return Err(refuse(CaptureField::Scenario, message));
        }
        let (transport, server_port) = match &group.traffic {
            TrafficPlan::Tcp(cfg) => {
                (WireTransport::Tcp { accurate_ecn: cfg.cc.ecn_feedback() == EcnFeedback::Accurate }, 5201)
            }
            TrafficPlan::Web(cfg, _) => {
                (WireTransport::Tcp { accurate_ecn: cfg.cc.ecn_feedback() == EcnFeedback::Accurate }, 80)
            }
            _ => (WireTransport::Udp, 5001),
        };
        let one_host = group.one_host;
        flows.extend((0..group.count).map(|index| WireFlow {
            group: g as u8,
            index,
            one_host,
            transport,
            server_port,
        }));
    }
    Ok(flows)
}

impl Capture {
    pub(super) fn new(plan: &Plan, request: CaptureRequest) -> Result<Capture, CaptureError> {
        let hop = request.hop.unwrap_or(0);
        if hop >= plan.hops {
            let message = format!("hop {hop} does not exist: the scenario has hops 0 to {}", plan.hops - 1);
            return Err(refuse(CaptureField::Hop, message));
        }
        let from_ns = window_bound(request.from_s, 0, plan.duration_ns, CaptureField::From)?;
        let to_ns = window_bound(request.to_s, plan.duration_ns, plan.duration_ns, CaptureField::To)?;
        if from_ns >= to_ns {
            let message = format!(
                "the window ends ({} s) at or before it starts ({} s)",
                to_ns as f64 / 1e9,
                from_ns as f64 / 1e9
            );
            return Err(refuse(CaptureField::To, message));
        }
        let ports = topology::hop_ports(plan.hops as usize, hop as usize);
        let header = pcap::global_header().to_vec();
        let bytes = CaptureBytes { passed: header.clone(), dropped: header };
        Ok(Capture { ports, from_ns, to_ns, flows: wire_flows(plan)?, bytes })
    }

    fn watches(&self, now: Nanos, port: PortId) -> bool {
        self.ports.contains(&port) && (self.from_ns..self.to_ns).contains(&now)
    }

    /// `pkt` starts to leave `port`'s link. Out of line, as is `on_drop`:
    /// few runs capture, and the per-packet path stays small.
    #[cold]
    #[inline(never)]
    pub(super) fn on_departure(&mut self, now: Nanos, port: PortId, pkt: &Packet) {
        if self.watches(now, port) {
            pcap::write_record(&mut self.bytes.passed, now, pkt, &self.flows[pkt.owner as usize]);
        }
    }

    /// `port`'s queue dropped `pkt`.
    #[cold]
    #[inline(never)]
    pub(super) fn on_drop(&mut self, now: Nanos, port: PortId, pkt: &Packet) {
        if self.watches(now, port) {
            pcap::write_record(&mut self.bytes.dropped, now, pkt, &self.flows[pkt.owner as usize]);
        }
    }

    pub(super) fn take(&mut self) -> CaptureBytes {
        std::mem::take(&mut self.bytes)
    }
}
