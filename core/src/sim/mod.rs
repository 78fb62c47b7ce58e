//! The `Simulation` facade: build from a scenario, advance, drain series,
//! change a parameter live, probe, summarise. The CLI and the wasm bindings
//! are thin layers over this and nothing else.

use crate::kernel::{EventQueue, Nanos, Pipes, Rng};
use crate::metrics::{DelayDistributions, FlowInfo, Recorder, RecorderConfig, SeriesChunk, SeriesView, Summary};
use crate::net::topology::{self, FlowAttachment, PortRole, UNCONGESTED_BUFFER_PACKETS};
use crate::net::trace::LinkTrace;
use crate::net::{AccessJitter, Dir, FlowId, HostQueue, Lane, Packet, PortId};
use crate::queue::decision::{Decision, DecisionTap, FieldSpec};
use crate::queue::droptail::DropTail;
use crate::queue::markov::{self, ModelPoint};
use crate::queue::scheme::ParamValues;
use crate::queue::{DropCurve, Limit, ParamError, ProbeSink, QueueCtx, QueueOutcome, QueueSetup};
use crate::scenario::{GroupPlan, Plan, Scenario, ScenarioError, TrafficPlan};
use crate::transport::{Agent, AgentCtx, AgentOutput, AgentProbe, TimerId};
use std::collections::BTreeMap;

mod capture;
mod flow;
mod port;
pub mod sweep;
mod view;
pub mod work;

use capture::Capture;
pub use capture::{CaptureBytes, CaptureError, CaptureField, CaptureRequest};
use flow::{FlowRuntime, RouteTable};
use port::{Port, PortQueue};
pub use view::{ResolvedGroup, ResolvedPlan};

/// With this many events pending, links in flight no longer fit in the
/// cache, and fetching the next event's packet, or the port a delivery's
/// reply takes, ahead of use pays; below, it costs more than it saves.
const PREFETCH_FROM_EVENTS: usize = if cfg!(target_arch = "x86_64") { 2048 } else { usize::MAX };

/// What happens next. Events are small: packets on a link wait in the
/// port's pipe, and only the pipe's head is an event (`Landed` or
/// `Reached`), naming where its packet goes, so that the loop can fetch
/// that state an event ahead.
#[derive(Clone, Copy)]
enum Event {
    /// The first packet in `port`'s pipe reaches the far end of its link
    /// and goes on into port `next`.
    Landed {
        port: u32,
        next: u32,
    },
    /// The first packet in `port`'s pipe reaches the far end of its link,
    /// the end of its route: `flow`'s sink or source.
    Reached {
        port: u32,
        flow: FlowId,
        at_sink: bool,
    },
    /// `port`'s link finished serialising a packet.
    TxDone {
        port: PortId,
    },
    Timer {
        flow: FlowId,
        at_sink: bool,
        id: TimerId,
    },
    QueueWake {
        port: PortId,
    },
    Start {
        flow: FlowId,
    },
    Stop {
        flow: FlowId,
    },
    Sample,
}

/// What entered and left the network, for the conservation check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketLedger {
    pub injected: u64,
    pub delivered: u64,
    pub dropped: u64,
}

pub struct Simulation {
    plan: Plan,
    events: EventQueue<Event>,
    ports: Vec<Port>,
    /// Each port's packets serialised and on their way to the far end, in
    /// order, one pipe a port. Beside the ports rather than in them: the
    /// event loop reads the next event's pipe ahead of time, and these two
    /// words a port stay cached where the ports, ten thousand with 5 000
    /// flows, do not.
    pipes: Pipes<Packet, Event>,
    /// Monitored hop of each port (the congested forward links).
    port_hop: Vec<Option<usize>>,
    /// Ports whose queue is the scheme under test (parameters apply live).
    runs_scheme: Vec<bool>,
    port_rngs: Vec<Rng>,
    flows: Vec<FlowRuntime>,
    routes: RouteTable,
    params: ParamValues,
    recorder: Recorder,
    ledger: PacketLedger,
    agent_out: AgentOutput,
    queue_out: QueueOutcome,
    probe_buf: Vec<f64>,
    agent_probes: Vec<AgentProbe>,
    /// Each hop's capacity at the last sample (empty when no hop has a trace).
    capacity_buf: Vec<f64>,
    /// Router-visible flow ids of multi-connection flows' connections,
    /// numbered after the scenario's flows.
    connection_ids: BTreeMap<(FlowId, u32), FlowId>,
    /// The capture tap, when one is configured ([`Simulation::capture`]).
    capture: Option<Box<Capture>>,
    mode: SeriesMode,
    /// The document the plan came from ([`Simulation::scenario`]).
    document: Option<Scenario>,
}

/// How a simulation keeps its time series.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeriesMode {
    /// Keep a decimated history of the whole run (CSV export).
    pub history: bool,
    /// Keep rows until [`Simulation::drain`] takes them (live charts).
    pub streaming: bool,
}

/// The output ports of a layout with what the simulation keeps beside each.
struct PortSet {
    ports: Vec<Port>,
    port_hop: Vec<Option<usize>>,
    runs_scheme: Vec<bool>,
    port_rngs: Vec<Rng>,
}

impl PortSet {
    fn build(plan: &Plan, layout: &[topology::PortPlan]) -> PortSet {
        let any_reverse = plan.groups.iter().any(|g| g.reverse);
        let hosts = plan.flow_hosts();
        let scheme = |rate_bps| {
            let setup = QueueSetup { limit: plan.limit, link_rate_bps: rate_bps, hosts: &hosts };
            (plan.scheme.build)(&setup, &plan.params)
        };
        let mut set = PortSet {
            ports: Vec::with_capacity(layout.len()),
            port_hop: Vec::with_capacity(layout.len()),
            runs_scheme: Vec::with_capacity(layout.len()),
            port_rngs: Vec::with_capacity(layout.len()),
        };
        for p in layout {
            let (name, queue, hop) = match p.role {
                PortRole::Hop(h) => (format!("hop/{h}"), PortQueue::Scheme(scheme(p.rate_bps)), Some(h)),
                // With traffic in both directions the reverse links are
                // congested links too: they run the scheme (unmonitored).
                PortRole::ReverseHop(h) if any_reverse => {
                    (format!("rev/{h}"), PortQueue::Scheme(scheme(p.rate_bps)), None)
                }
                PortRole::ReverseHop(h) => (format!("rev/{h}"), uncongested(), None),
                PortRole::AccessUp(f) => (format!("up/{f}"), uncongested(), None),
                PortRole::AccessDown(f) => (format!("down/{f}"), uncongested(), None),
            };
            set.port_rngs.push(Rng::stream(plan.seed, &format!("port/{name}")));
            let runs_scheme =
                matches!(p.role, PortRole::Hop(_)) || (any_reverse && matches!(p.role, PortRole::ReverseHop(_)));
            set.ports.push(Port {
                queue,
                rate_bps: p.rate_bps,
                delay_ns: p.delay_ns,
                busy: false,
                tx_done_on_demand: !runs_scheme,
                unscheduled_tx_done: None,
                jitter: None,
                last_tx: (0, 0),
                trace: match p.role {
                    PortRole::Hop(h) => plan.traces[h].as_ref().map(|trace| {
                        Box::new(LinkTrace::new(trace, Rng::stream(plan.seed, &format!("trace/hop/{h}"))))
                    }),
                    _ => None,
                },
            });
            set.port_hop.push(hop);
            set.runs_scheme.push(runs_scheme);
        }
        set
    }
}

/// Who a flow of `group` (number `index`) is, for the recorder.
fn flow_info(index: usize, group: &GroupPlan) -> FlowInfo {
    FlowInfo {
        group: index,
        kind: group.kind,
        demand_wire_bps: group.traffic.offered_wire_bps(),
        payload_fraction: group.traffic.payload_fraction(),
        path: (group.path.0 as usize, group.path.1 as usize),
        reverse: group.reverse,
        tcp: match &group.traffic {
            TrafficPlan::Tcp(cfg) => Some((cfg.segment_bytes, cfg.min_rto_ns)),
            _ => None,
        },
    }
}

/// Each hop's capacity at the last sample, when some hop follows a trace
/// (a hop without one keeps its nominal rate); empty otherwise.
fn capacity_buffer(plan: &Plan) -> Vec<f64> {
    if plan.traces.iter().any(Option::is_some) {
        vec![plan.bottleneck_rate_bps as f64; plan.hops as usize]
    } else {
        Vec::new()
    }
}

fn recorder(plan: &Plan, flows: Vec<FlowInfo>, mode: SeriesMode) -> Recorder {
    Recorder::new(RecorderConfig {
        window_from: plan.measure_from_ns,
        flows,
        group_labels: plan.groups.iter().map(|g| g.label.clone()).collect(),
        hops: plan.hops as usize,
        hop_rate_bps: plan.bottleneck_rate_bps as f64,
        probes: plan.scheme.probes.iter().map(|p| p.id).collect(),
        dual_queue: std::ptr::eq(plan.scheme, &crate::queue::dualpi2::INFO),
        cov_interval_ns: plan.cov_interval_ns,
        capacity_columns: plan.traces.iter().any(Option::is_some),
        history: mode.history,
        streaming: mode.streaming,
    })
}

impl Simulation {
    pub fn from_json(text: &str, mode: SeriesMode) -> Result<Simulation, ScenarioError> {
        Simulation::new(&Scenario::from_json(text)?, mode)
    }

    pub fn new(scenario: &Scenario, mode: SeriesMode) -> Result<Simulation, ScenarioError> {
        let mut sim = Simulation::from_plan(scenario.plan()?, mode);
        sim.document = Some(scenario.clone());
        Ok(sim)
    }

    pub fn from_plan(plan: Plan, mode: SeriesMode) -> Simulation {
        let flow_plans = plan.flows();
        let attachments: Vec<FlowAttachment> = flow_plans
            .iter()
            .map(|f| FlowAttachment {
                access_rate_bps: f.access_rate_bps,
                access_delay_ns: f.access_delay_ns,
                path: plan.groups[f.group].path,
                reverse: plan.groups[f.group].reverse,
            })
            .collect();
        let layout =
            topology::layout(plan.hops as usize, plan.bottleneck_rate_bps, plan.bottleneck_delay_ns, &attachments);
        let PortSet { mut ports, port_hop, runs_scheme, port_rngs } = PortSet::build(&plan, &layout.ports);
        let mut events = EventQueue::new();
        let mut member = vec![0u32; plan.groups.len()];
        let mut flows = Vec::with_capacity(flow_plans.len());
        let mut routes = RouteTable::default();
        let mut infos = Vec::with_capacity(flow_plans.len());
        for (i, (fp, route)) in flow_plans.iter().zip(layout.routes).enumerate() {
            let group = &plan.groups[fp.group];
            let k = member[fp.group];
            member[fp.group] += 1;
            let (source, sink) = flow::endpoints(&group.traffic);
            let stream = |side: &str| Rng::stream(plan.seed, &format!("group/{}/flow/{k}/{side}", fp.group));
            // The flow's own access link in the direction its data takes: a
            // reverse flow's data crosses it last (topology.rs).
            let data_access = if group.reverse { route.forward.last() } else { route.forward.first() };
            if let Some(&port) = data_access {
                ports[port].jitter = AccessJitter::new(group.access_jitter_ns, stream("jitter")).map(Box::new);
            }
            // A reverse flow's sender sits at its router, so its NIC feeds
            // the first congested link it crosses.
            let host_rate_bps = ports[route.forward[0]].rate_bps;
            flows.push(FlowRuntime {
                source,
                sink,
                source_rng: stream("source"),
                sink_rng: stream("sink"),
                host: HostQueue::new(group.host_queue_packets, host_rate_bps),
                multi_connection: matches!(group.traffic, TrafficPlan::Web(..)),
                weight: group.weight,
                drop_precedence: group.drop_precedence,
            });
            routes.push(&route);
            infos.push(flow_info(fp.group, group));
            events.schedule(fp.start_ns, Event::Start { flow: i as FlowId });
            if let Some(stop) = group.stop_ns.filter(|s| *s < plan.duration_ns) {
                events.schedule(stop, Event::Stop { flow: i as FlowId });
            }
        }
        // Samples feed only the series; a summary-only run needs none.
        if mode.history || mode.streaming {
            events.schedule(plan.sample_interval_ns, Event::Sample);
        }

        Simulation {
            recorder: recorder(&plan, infos, mode),
            probe_buf: vec![0.0; plan.scheme.probes.len()],
            agent_probes: vec![AgentProbe::default(); flows.len()],
            capacity_buf: capacity_buffer(&plan),
            params: plan.params.clone(),
            plan,
            events,
            pipes: Pipes::new(ports.len()),
            ports,
            port_hop,
            runs_scheme,
            port_rngs,
            flows,
            routes,
            ledger: PacketLedger::default(),
            agent_out: AgentOutput::default(),
            queue_out: QueueOutcome::default(),
            connection_ids: BTreeMap::new(),
            capture: None,
            mode,
            document: None,
        }
    }

    /// Capture the packets leaving a congested hop, and its drops, as
    /// pcap (`sim/capture.rs`); take the bytes with [`Simulation::take_capture`].
    pub fn capture(&mut self, request: CaptureRequest) -> Result<(), CaptureError> {
        self.capture = Some(Box::new(Capture::new(&self.plan, request)?));
        Ok(())
    }

    /// Record the monitored queues' decisions from now on, keeping at most
    /// the newest `capacity` until [`Simulation::take_decisions`] takes them.
    pub fn record_decisions(&mut self, capacity: usize) {
        self.queue_out.decisions = Some(Box::new(DecisionTap::new(capacity)));
    }

    /// Stop recording decisions: the queues no longer gather their state
    /// and the records not yet taken are let go.
    pub fn stop_recording_decisions(&mut self) {
        self.queue_out.decisions = None;
    }

    /// The decisions recorded since the last take, oldest first.
    pub fn take_decisions(&mut self) -> Vec<Decision> {
        self.queue_out.decisions.as_deref_mut().map_or_else(Vec::new, DecisionTap::take)
    }

    /// The scheme state each decision records, in column order.
    pub fn decision_fields(&self) -> &'static [FieldSpec] {
        self.ports[0].queue.decision_fields()
    }

    /// The capture's bytes since the last take (empty without a capture).
    pub fn take_capture(&mut self) -> CaptureBytes {
        self.capture.as_deref_mut().map(Capture::take).unwrap_or_default()
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    pub fn now(&self) -> Nanos {
        self.events.now()
    }

    pub fn duration(&self) -> Nanos {
        self.plan.duration_ns
    }

    pub fn is_finished(&self) -> bool {
        self.now() >= self.plan.duration_ns
    }

    pub fn events_handled(&self) -> u64 {
        self.events.popped()
    }

    pub fn ledger(&self) -> PacketLedger {
        self.ledger
    }

    /// Packets sitting in queues or on links right now.
    pub fn packets_in_network(&self) -> u64 {
        let queued: usize = self.ports.iter().map(|p| p.queue.len_packets()).sum();
        let on_links = self.pipes.total_len();
        (queued + on_links) as u64
    }

    /// Run to the end of the scenario.
    pub fn run(&mut self) {
        self.advance_to(self.plan.duration_ns);
    }

    /// Handle every event up to `t` (capped at the scenario's duration).
    pub fn advance_to(&mut self, t: Nanos) {
        let until = t.min(self.plan.duration_ns);
        while let Some((now, event)) = self.events.pop_until(until) {
            if self.events.len() >= PREFETCH_FROM_EVENTS {
                match self.events.peek_next() {
                    Some(&Event::Landed { port, next }) => {
                        self.pipes.prefetch_head(port as PortId);
                        self.ports[next as PortId].prefetch();
                    }
                    Some(&Event::Reached { port, flow, at_sink }) => {
                        self.pipes.prefetch_head(port as PortId);
                        self.flows[flow as usize].prefetch(at_sink);
                    }
                    _ => {}
                }
            }
            self.handle(now, event);
        }
        self.events.advance_clock(until);
    }

    fn handle(&mut self, now: Nanos, event: Event) {
        match event {
            Event::Landed { port, next } => {
                if let Some(pkt) = self.pipes.pop(&mut self.events, port as PortId) {
                    self.arrive(now, next as PortId, pkt);
                }
            }
            Event::Reached { port, .. } => {
                if let Some(pkt) = self.pipes.pop(&mut self.events, port as PortId) {
                    self.deliver(now, pkt);
                }
            }
            Event::TxDone { port } => {
                self.ports[port].busy = false;
                self.start_tx(now, port);
            }
            Event::Timer { flow, at_sink, id } => self.with_agent(now, flow, at_sink, |a, ctx| a.on_timer(id, ctx)),
            Event::QueueWake { port } => self.wake_queue(now, port),
            Event::Start { flow } => self.start_or_stop(now, flow, true),
            Event::Stop { flow } => self.start_or_stop(now, flow, false),
            Event::Sample => {
                self.sample(now);
                self.events.schedule(now + self.plan.sample_interval_ns, Event::Sample);
            }
        }
    }

    // The events below come once per flow or per wake-up of a scheme that
    // asks for one, not per packet: out of line, so that the per-packet
    // loop stays small in the instruction cache.

    #[inline(never)]
    fn wake_queue(&mut self, now: Nanos, port: PortId) {
        let mut ctx = QueueCtx::new(now, &mut self.port_rngs[port], &mut self.queue_out);
        self.ports[port].queue.on_wake(&mut ctx);
        self.settle_queue(now, port);
        self.start_tx(now, port);
    }

    #[cold]
    #[inline(never)]
    fn start_or_stop(&mut self, now: Nanos, flow: FlowId, start: bool) {
        if start {
            self.with_agent(now, flow, false, |a, ctx| a.start(ctx));
        } else {
            self.with_agent(now, flow, false, |a, ctx| a.stop(ctx));
        }
    }

    /// A packet reaches the endpoint its direction points to.
    fn deliver(&mut self, now: Nanos, pkt: Packet) {
        self.ledger.delivered += 1;
        let flow = pkt.owner;
        let at_sink = pkt.dir == Dir::Forward;
        // What the agent sends back mostly starts at the flow's own access
        // link, rarely in cache with many links in flight: fetch it while
        // the agent runs.
        if self.events.len() >= PREFETCH_FROM_EVENTS {
            let reply = if at_sink { Dir::Reverse } else { Dir::Forward };
            self.ports[self.routes.first(flow, reply)].prefetch();
        }
        self.with_agent(now, flow, at_sink, |agent, ctx| agent.on_packet(pkt, ctx));
    }

    /// Run one agent callback, then act on what it asked for.
    fn with_agent(&mut self, now: Nanos, flow: FlowId, at_sink: bool, f: impl FnOnce(&mut dyn Agent, &mut AgentCtx)) {
        let out = &mut self.agent_out;
        let rt = &mut self.flows[flow as usize];
        let (agent, rng) =
            if at_sink { (rt.sink.agent_mut(), &mut rt.sink_rng) } else { (rt.source.agent_mut(), &mut rt.source_rng) };
        let mut ctx = AgentCtx::new(now, flow, rng, out);
        if !at_sink {
            ctx.host_room = rt.host.room(now);
        }
        f(agent, &mut ctx);
        if out.host_drops > 0 {
            self.recorder.on_host_drops(flow as usize, out.host_drops, now);
            out.host_drops = 0;
        }

        for (at, id) in out.timers.drain(..) {
            self.events.schedule(at, Event::Timer { flow, at_sink, id });
        }
        if out.delivered_bytes > 0 {
            self.recorder.on_delivered(flow as usize, out.delivered_bytes, now);
            out.delivered_bytes = 0;
        }
        for duration in out.completions.drain(..) {
            self.recorder.on_transfer_complete(duration, now);
        }
        for rtt in out.rtt_samples.drain(..) {
            self.recorder.on_rtt(flow as usize, rtt, now);
        }
        // Sending reaches the queues, which need the whole simulation; no
        // agent runs meanwhile, so the packets are taken from the back in
        // place. (Moved out and back, the list's header was read whole just
        // after its length was written, a stall on store forwarding.)
        out.send.reverse();
        while let Some(pkt) = self.agent_out.send.pop() {
            self.send(now, flow, at_sink, pkt);
        }
    }

    /// Put a packet an agent sent on its first link (a source's through its host queue).
    fn send(&mut self, now: Nanos, flow: FlowId, at_sink: bool, mut pkt: Packet) {
        if !at_sink && !self.flows[flow as usize].host.offer(now, pkt.size_bytes) {
            self.recorder.on_host_drops(flow as usize, 1, now);
            return;
        }
        pkt.owner = flow;
        pkt.flow = self.router_flow_id(flow, pkt.conn);
        let rt = &self.flows[flow as usize];
        pkt.sent_at = now;
        pkt.hop = 0;
        // Most flows' packets carry the unlabelled defaults and need no extension.
        let labels = pkt.labels();
        if labels.weight != rt.weight || labels.drop_precedence != rt.drop_precedence {
            label(&mut pkt, rt);
        }
        let first = self.routes.first(flow, pkt.dir);
        self.ledger.injected += 1;
        if pkt.dir == Dir::Forward {
            self.recorder.on_sent(flow as usize, now);
        }
        self.arrive(now, first, pkt);
    }

    /// The flow id routers see for connection `conn` of `owner`.
    fn router_flow_id(&mut self, owner: FlowId, conn: u32) -> FlowId {
        if !self.flows[owner as usize].multi_connection {
            return owner;
        }
        self.connection_id(owner, conn)
    }

    #[cold]
    #[inline(never)]
    fn connection_id(&mut self, owner: FlowId, conn: u32) -> FlowId {
        let next = (self.flows.len() + self.connection_ids.len()) as FlowId;
        *self.connection_ids.entry((owner, conn)).or_insert(next)
    }

    fn arrive(&mut self, now: Nanos, port: PortId, mut pkt: Packet) {
        pkt.enqueued_at = now;
        pkt.lane = Lane::Single;
        self.catch_up_tx_done(port);
        let p = &self.ports[port];
        if p.tx_done_on_demand && !p.busy && p.queue.len_packets() == 0 {
            // A plain FIFO with nothing in it and an idle link: the packet
            // would go in and straight out again.
            self.transmit(now, port, pkt);
            return;
        }
        if let Some(h) = self.port_hop[port] {
            self.recorder.on_arrival(h, now, pkt.size_bytes);
        }
        let mut ctx = QueueCtx::new(now, &mut self.port_rngs[port], &mut self.queue_out);
        self.ports[port].queue.enqueue(pkt, &mut ctx);
        self.settle_queue(now, port);
        self.start_tx(now, port);
    }

    /// Account for a scheme's drops, marks and wake-up request.
    fn settle_queue(&mut self, now: Nanos, port: PortId) {
        let hop = self.port_hop[port];
        let out = &mut self.queue_out;
        if let Some(tap) = out.decisions.as_deref_mut() {
            tap.settle(now, hop);
        }
        for (pkt, reason) in out.drops.drain(..) {
            if let Some(capture) = self.capture.as_deref_mut() {
                capture.on_drop(now, port, &pkt);
            }
            self.ledger.dropped += 1;
            self.recorder.on_drop(hop, pkt.owner as usize, pkt.lane, reason, now);
        }
        for pkt in out.marks.drain(..) {
            self.recorder.on_mark(hop, pkt.owner as usize, pkt.lane, now);
        }
        if let Some(at) = out.wake_at.take() {
            self.events.schedule(at, Event::QueueWake { port });
        }
        if let Some(h) = hop {
            let q = &self.ports[port].queue;
            self.recorder.on_queue_len(h, now, q.len_packets(), q.len_bytes());
        }
    }

    /// A port's unscheduled end of serialisation, as it would have been
    /// handled by now: before the event being handled, it has freed the
    /// link; after, it becomes an event now that a packet may wait for it.
    fn catch_up_tx_done(&mut self, port: PortId) {
        let p = &mut self.ports[port];
        if let Some(done) = p.unscheduled_tx_done.take() {
            if done < self.events.current() {
                p.busy = false;
            } else {
                self.events.schedule_stamped(done, Event::TxDone { port });
            }
        }
    }

    /// If the link is idle, take the next packet and put it on the wire.
    fn start_tx(&mut self, now: Nanos, port: PortId) {
        if self.ports[port].busy || !self.link_ready(now, port) {
            return;
        }
        let mut ctx = QueueCtx::new(now, &mut self.port_rngs[port], &mut self.queue_out);
        let next = self.ports[port].queue.dequeue(&mut ctx);
        self.settle_queue(now, port);
        if let Some(pkt) = next {
            self.transmit(now, port, pkt);
        }
    }

    /// Whether a traced link can start a packet now. If not and packets
    /// wait, the link holds them until it can: a `TxDone` then starts the
    /// next, and meanwhile the queue (and its scheme) keeps them.
    fn link_ready(&mut self, now: Nanos, port: PortId) -> bool {
        if self.ports[port].trace.is_none() {
            return true;
        }
        self.traced_link_ready(now, port)
    }

    #[cold]
    #[inline(never)]
    fn traced_link_ready(&mut self, now: Nanos, port: PortId) -> bool {
        let p = &mut self.ports[port];
        let Some(trace) = p.trace.as_mut() else { return true };
        match trace.ready(now) {
            Some(at) if at == now => true,
            Some(at) => {
                if p.queue.len_packets() > 0 {
                    p.busy = true;
                    self.events.schedule(at, Event::TxDone { port });
                }
                false
            }
            None => false,
        }
    }

    /// Put `pkt` on `port`'s idle link.
    fn transmit(&mut self, now: Nanos, port: PortId, mut pkt: Packet) {
        if let Some(capture) = self.capture.as_deref_mut() {
            capture.on_departure(now, port, &pkt);
        }
        let p = &mut self.ports[port];
        p.busy = true;
        let (tx, busy) = match p.trace.as_deref_mut() {
            Some(trace) => traced_tx(trace, now, pkt.size_bytes),
            None => {
                let tx = p.tx_time(pkt.size_bytes);
                (tx, tx)
            }
        };
        let arrival = p.arrival(now + tx);
        if let Some(h) = self.port_hop[port] {
            self.recorder.on_departure(h, pkt.owner as usize, pkt.lane, now, now - pkt.enqueued_at, busy);
        }
        let tx_done = self.events.stamp(now + tx);
        let p = &mut self.ports[port];
        if p.tx_done_on_demand && p.queue.len_packets() == 0 {
            p.unscheduled_tx_done = Some(tx_done);
        } else {
            self.events.schedule_stamped(tx_done, Event::TxDone { port });
        }

        pkt.hop += 1;
        let head = match self.routes.path(pkt.owner, pkt.dir).get(pkt.hop as usize) {
            Some(&next) => Event::Landed { port: port as u32, next },
            None => Event::Reached { port: port as u32, flow: pkt.owner, at_sink: pkt.dir == Dir::Forward },
        };
        self.pipes.push(&mut self.events, port, arrival, pkt, head);
    }

    fn sample(&mut self, now: Nanos) {
        self.ports[0].queue.probe(&mut ProbeSink::new(self.plan.scheme.probes, &mut self.probe_buf));
        for (slot, f) in self.agent_probes.iter_mut().zip(&self.flows) {
            *slot = f.source.agent().probe();
        }
        if !self.capacity_buf.is_empty() {
            let window = self.plan.sample_interval_ns;
            for (port, hop) in self.ports.iter_mut().zip(&self.port_hop) {
                if let (Some(trace), Some(h)) = (port.trace.as_mut(), hop) {
                    self.capacity_buf[*h] = trace.capacity_bps(now, window);
                }
            }
        }
        self.recorder.sample(now, &self.probe_buf, &self.agent_probes, &self.capacity_buf);
    }

    /// Change a scheme parameter on every congested hop, mid-run.
    pub fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        let scheme = self.plan.scheme;
        let value = scheme.check_param(id, value, self.plan.limit)?;
        let mut next = self.params.clone();
        next.set(id, value);
        (scheme.cross_check)(&next)?;
        // A scheme may refuse a value for its link (CAKE's shaper rate);
        // every congested hop runs at the same rate, so the first refuses
        // before any has changed.
        for (port, &scheme) in self.ports.iter_mut().zip(&self.runs_scheme) {
            if scheme {
                port.queue.set_param(id, value)?;
            }
        }
        self.params = next;
        Ok(())
    }

    pub fn params(&self) -> &ParamValues {
        &self.params
    }

    /// The scheme's probe values at the first congested hop, now.
    pub fn probe(&self) -> Vec<(&'static str, f64)> {
        let mut out = vec![0.0; self.plan.scheme.probes.len()];
        self.ports[0].queue.probe(&mut ProbeSink::new(self.plan.scheme.probes, &mut out));
        self.plan.scheme.probes.iter().map(|p| p.id).zip(out).collect()
    }

    pub fn drop_curve(&self) -> Option<DropCurve> {
        self.ports[0].queue.drop_curve()
    }

    /// Zheng & Atiquzzaman's (2000) Markov-chain drop probability of the running scheme at
    /// each offered load, with its current parameters (RED and DSRED only).
    pub fn markov_model(&self, loads: &[f64]) -> Option<Vec<ModelPoint>> {
        markov::scheme_model(self.plan.scheme, &self.params, self.plan.limit, self.plan.bottleneck_rate_bps, loads)
    }

    /// The delay distributions of the measurement window so far.
    pub fn delay_distributions(&self) -> DelayDistributions {
        self.recorder.delay_distributions()
    }

    pub fn summary(&self) -> Summary {
        self.recorder.summary(self.now(), self.events.popped(), self.ledger.injected)
    }

    /// Time-series rows added since the last drain (streaming mode), valid
    /// until the next drain; their columns are [`Simulation::series_columns`].
    pub fn drain(&mut self) -> SeriesView<'_> {
        self.recorder.drain()
    }

    /// The time-series column ids, in the order of every drain and history.
    pub fn series_columns(&self) -> Vec<String> {
        self.recorder.series_columns()
    }

    /// The decimated history of every series (history mode).
    pub fn history(&self) -> SeriesChunk {
        self.recorder.history()
    }
}

/// Give a packet its flow's labels (the weight and drop precedence that
/// only some scenarios set): out of line, as most packets keep the defaults.
#[cold]
#[inline(never)]
fn label(pkt: &mut Packet, flow: &FlowRuntime) {
    let labels = pkt.labels_mut();
    labels.weight = flow.weight;
    labels.drop_precedence = flow.drop_precedence;
}

/// A traced link's serialisation time for `bytes` starting now, and the
/// time it counts as busy: out of line, as few links follow a trace.
#[cold]
#[inline(never)]
fn traced_tx(trace: &mut LinkTrace, now: Nanos, bytes: u32) -> (Nanos, Nanos) {
    let tx = trace.finish(now, bytes) - now;
    (tx, trace.busy_ns(bytes, tx))
}

fn uncongested() -> PortQueue {
    PortQueue::Plain(DropTail::new(Limit::Packets(UNCONGESTED_BUFFER_PACKETS)))
}

#[cfg(test)]
mod decision_tests;
#[cfg(test)]
mod delay_tests;
#[cfg(test)]
mod sender_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod trace_tests;
