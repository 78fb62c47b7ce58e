//! DRR — Deficit Round Robin (Shreedhar & Varghese, SIGCOMM 1995, the DRR
//! algorithm and its pseudocode), with longest-queue drop as the BARE paper
//! (Cho & Cho 2002 §4) uses it.
//!
//! Every flow has its own FIFO and a deficit counter DC_i. Backlogged flows
//! sit in an active list served round robin:
//!   a flow's turn starts:   DC_i ← DC_i + Q
//!   while head packet ≤ DC_i: send it, DC_i ← DC_i − size
//!   queue empty:            DC_i ← 0, leave the active list
//!   otherwise:              go to the tail of the active list (DC_i kept)
//! A newly backlogged flow joins the tail with DC_i = 0. Each backlogged flow
//! thus gets Q bytes per round, whatever its packet sizes (the paper's
//! fairness bound: within one maximum packet size per round).
//!
//! Buffer: one shared limit. An arrival is always queued first; while the
//! buffer is over its limit the head packet of the longest queue (in the
//! buffer's unit) is dropped, as ns-2's drr.cc does — so an aggressive flow
//! loses its own packets instead of shutting others out. Ties go to the
//! lowest flow id.

use super::prelude::*;
use crate::net::FlowId;
use std::collections::VecDeque;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "drr",
    name: "DRR",
    paper: "Shreedhar & Varghese, Efficient Fair Queuing using Deficit Round Robin, SIGCOMM 1995",
    summary: "One queue per flow served round robin, a quantum of bytes per turn; drops from the longest queue.",
    params: DrrParams::SPECS,
    probes: &[
        ProbeSpec::number("backlogged", "backlogged flows", "flows"),
        ProbeSpec::buffer("longest", "longest flow queue"),
    ],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// DRR's parameter.
    pub struct DrrParams {
        quantum: u64 = ParamSpec::number("quantum Q", "bytes", 40.0..=65535.0, 1.0, 1500.0,
            "Bytes a backlogged flow may send per round; Q ≥ one MTU keeps the work per packet O(1)."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Drr::new(setup.limit), params)
}

#[derive(Default)]
struct FlowQueue {
    fifo: Fifo,
    deficit: u64,
}

pub struct Drr {
    limit: Limit,
    params: DrrParams,
    /// Indexed by flow id; flow ids are small and dense.
    flows: Vec<FlowQueue>,
    /// Backlogged flows in service order; the head is the flow whose turn it is.
    active: VecDeque<FlowId>,
    /// The head of `active` has had its quantum for this turn.
    turn_started: bool,
    len_packets: usize,
    len_bytes: u64,
}

impl Drr {
    pub fn new(limit: Limit) -> Drr {
        Drr {
            limit,
            params: DrrParams::default(),
            flows: Vec::new(),
            active: VecDeque::new(),
            turn_started: false,
            len_packets: 0,
            len_bytes: 0,
        }
    }

    fn over_limit(&self) -> bool {
        match self.limit {
            Limit::Packets(n) => self.len_packets as u64 > n,
            Limit::Bytes(n) => self.len_bytes > n,
        }
    }

    fn size_of(&self, q: &FlowQueue) -> u64 {
        match self.limit {
            Limit::Packets(_) => q.fifo.len() as u64,
            Limit::Bytes(_) => q.fifo.bytes(),
        }
    }

    /// The backlogged flow with the most queued (buffer unit), lowest id on ties.
    fn longest(&self) -> Option<FlowId> {
        let mut best: Option<(u64, FlowId)> = None;
        for &f in &self.active {
            let len = self.size_of(&self.flows[f as usize]);
            if best.is_none_or(|(l, id)| len > l || (len == l && f < id)) {
                best = Some((len, f));
            }
        }
        best.map(|(_, f)| f)
    }

    /// [`DECISION_FIELDS`] for a packet of flow `f` while it is queued.
    fn decision_state(&self, f: FlowId) -> [f64; 5] {
        let q = &self.flows[f as usize];
        let others = self.active.iter().filter(|&&a| a != f).map(|&a| self.size_of(&self.flows[a as usize]));
        let total = match self.limit {
            Limit::Packets(_) => self.len_packets as f64,
            Limit::Bytes(_) => self.len_bytes as f64,
        };
        let others_longest = others.max().unwrap_or(0) as f64;
        [self.size_of(q) as f64, q.deficit as f64, others_longest, total, self.active.len() as f64]
    }

    fn take(&mut self, f: FlowId, from_front: bool) -> Option<Packet> {
        let q = &mut self.flows[f as usize];
        let pkt = if from_front { q.fifo.pop() } else { q.fifo.pop_back() }?;
        self.len_packets -= 1;
        self.len_bytes -= pkt.size_bytes as u64;
        if q.fifo.is_empty() {
            q.deficit = 0;
            if self.active.front() == Some(&f) {
                self.turn_started = false;
            }
            self.active.retain(|&a| a != f);
        }
        Some(pkt)
    }
}

/// The state a decision records about a packet of flow i: the longest
/// queue's head dropped, or an arrival kept (its pass).
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("flow_queue", "its flow's queue", "q_i", "buffer"),
    FieldSpec::new("deficit", "its flow's deficit counter", "DC_i", "bytes"),
    FieldSpec::new("others_longest", "longest other flow's queue", "max q_j", "buffer"),
    FieldSpec::new("queued", "buffer in use", "Σq", "buffer"),
    FieldSpec::new("backlogged", "backlogged flows", "n", "flows"),
];

impl Qdisc for Drr {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        let f = pkt.flow;
        if self.flows.len() <= f as usize {
            self.flows.resize_with(f as usize + 1, FlowQueue::default);
        }
        let q = &mut self.flows[f as usize];
        if q.fifo.is_empty() {
            q.deficit = 0;
            self.active.push_back(f);
        }
        self.len_packets += 1;
        self.len_bytes += pkt.size_bytes as u64;
        q.fifo.push(pkt);
        while self.over_limit() {
            let Some(victim) = self.longest() else { break };
            let state = ctx.recording().then(|| self.decision_state(victim));
            if let Some(p) = self.take(victim, true) {
                if let Some(state) = state {
                    ctx.note(&p, &state);
                }
                ctx.drop(p, DropReason::Overflow);
            }
        }
        // Drops take from the front: a flow with packets left still holds the arrival.
        if ctx.recording() {
            let fifo = &self.flows[f as usize].fifo;
            if let Some(pkt) = fifo.len().checked_sub(1).and_then(|last| fifo.get(last)) {
                ctx.note(pkt, &self.decision_state(f));
            }
        }
    }

    fn dequeue(&mut self, _: &mut QueueCtx) -> Option<Packet> {
        loop {
            let f = *self.active.front()?;
            let q = &mut self.flows[f as usize];
            if !self.turn_started {
                q.deficit += self.params.quantum;
                self.turn_started = true;
            }
            let size = q.fifo.front().map_or(0, |p| p.size_bytes as u64);
            if size <= q.deficit {
                q.deficit -= size;
                return self.take(f, true);
            }
            // Not enough credit left: the rest carries over to the next round.
            self.active.rotate_left(1);
            self.turn_started = false;
        }
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn len_packets(&self) -> usize {
        self.len_packets
    }

    fn len_bytes(&self) -> u64 {
        self.len_bytes
    }

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.params.set(id, value)
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("backlogged", self.active.len() as f64);
        out.put("longest", self.longest().map_or(0.0, |f| self.size_of(&self.flows[f as usize]) as f64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::testing::Harness;
    use crate::sim::{SeriesMode, Simulation};

    fn served(h: &mut Harness, n: usize) -> Vec<(FlowId, u32)> {
        (0..n).filter_map(|_| h.depart()).map(|p| (p.flow, p.size_bytes)).collect()
    }

    #[test]
    fn quantum_gives_equal_bytes_per_round_despite_packet_sizes() {
        // Flow 0 sends 500-byte packets, flow 1 1500-byte ones; Q = 1500:
        // each round serves three of flow 0's and one of flow 1's.
        let mut h = Harness::new("drr", &[("quantum", 1500.0)], Limit::Packets(1000));
        h.arrive_n_from(30, 0, 500);
        h.arrive_n_from(10, 1, 1500);
        let order = served(&mut h, 8);
        assert_eq!(order, [(0, 500), (0, 500), (0, 500), (1, 1500), (0, 500), (0, 500), (0, 500), (1, 1500)]);
    }

    #[test]
    fn deficit_carries_over_when_the_quantum_is_smaller_than_a_packet() {
        // Q = 500 and 1000-byte packets: a flow needs two rounds per packet,
        // so two flows still alternate one packet each.
        let mut h = Harness::new("drr", &[("quantum", 500.0)], Limit::Packets(1000));
        for _ in 0..3 {
            h.arrive_from(0, 1000);
            h.arrive_from(1, 1000);
        }
        let flows: Vec<_> = served(&mut h, 6).iter().map(|(f, _)| *f).collect();
        assert_eq!(flows, [0, 1, 0, 1, 0, 1]);
        assert!(h.depart().is_none());
        assert_eq!(h.q.len_packets(), 0);
    }

    #[test]
    fn full_buffer_drops_the_head_of_the_longest_queue() {
        let mut h = Harness::new("drr", &[], Limit::Packets(5));
        h.arrive_n_from(4, 0, 1000);
        // Flow 1's second packet finds the buffer full (5): flow 0 holds 4, so it loses its head.
        h.arrive_n_from(2, 1, 1000);
        assert_eq!(h.drops(DropReason::Overflow), 1);
        assert_eq!(h.dropped[0].0.flow, 0);
        assert_eq!(h.q.len_packets(), 5);
        assert_eq!(h.probe("backlogged"), 2.0);
        assert_eq!(h.probe("longest"), 3.0);
    }

    #[test]
    fn byte_buffers_count_the_longest_queue_in_bytes() {
        // Flow 0 has 3 small packets (600 B), flow 1 one big one (1500 B):
        // over the 2500-byte limit, flow 1 is the longest in bytes.
        let mut h = Harness::new("drr", &[], Limit::Bytes(2500));
        h.arrive_n_from(3, 0, 200);
        h.arrive_from(1, 1500);
        h.arrive_from(0, 500);
        assert_eq!(h.dropped.len(), 1);
        assert_eq!(h.dropped[0].0.flow, 1);
        assert_eq!(h.q.len_bytes(), 1100);
    }

    /// Max-min fair shares of `capacity` among `demands` (water-filling).
    fn max_min(capacity: f64, demands: &[f64]) -> Vec<f64> {
        let mut share = vec![0.0; demands.len()];
        let mut left: Vec<usize> = (0..demands.len()).collect();
        let mut cap = capacity;
        while !left.is_empty() {
            let fair = cap / left.len() as f64;
            let (small, big): (Vec<usize>, Vec<usize>) = left.iter().partition(|&&i| demands[i] <= fair);
            if small.is_empty() {
                big.iter().for_each(|&i| share[i] = fair);
                break;
            }
            for &i in &small {
                share[i] = demands[i];
                cap -= demands[i];
            }
            left = big;
        }
        share
    }

    /// Wire rates (b/s) that CBR flows of (rate, payload bytes) get through DRR on 1 Mb/s.
    fn cbr_wire_rates(flows: &[(f64, u32)]) -> Vec<f64> {
        let groups: Vec<String> = flows
            .iter()
            .map(|(r, b)| format!(r#"{{ "kind": "cbr", "rate_bps": {r}, "packet_bytes": {b} }}"#))
            .collect();
        let text = format!(
            r#"{{ "version": 1, "duration_s": 20, "measure_from_s": 4,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1e6, "delay_ms": 5 }},
                               "buffer": {{ "packets": 40 }} }},
                "queue": {{ "scheme": "drr" }}, "flows": [{}] }}"#,
            groups.join(",")
        );
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
        sim.run();
        // Goodput counts payload; the wire adds 28 bytes of UDP/IP header per packet.
        let s = sim.summary();
        s.flows.iter().zip(flows).map(|(f, (_, b))| f.goodput_bps * (*b + 28) as f64 / *b as f64).collect()
    }

    #[test]
    fn backlogged_flows_get_equal_shares_whatever_their_rates() {
        // 4 CBR flows at 0.5, 1, 2, 4 × the 1 Mb/s link, with 500-, 1000-,
        // 1500- and 300-byte packets: each gets C/4 of the wire in bytes.
        let got = cbr_wire_rates(&[(0.5e6, 472), (1e6, 972), (2e6, 1472), (4e6, 272)]);
        for (i, g) in got.iter().enumerate() {
            assert!((g / 250_000.0 - 1.0).abs() < 0.01, "flow {i}: {g} b/s vs 250 kb/s");
        }
    }

    #[test]
    fn shares_are_max_min_fair_with_a_light_flow() {
        // 100 kb/s is below its fair share: it keeps all of it, the other
        // three split the remaining 900 kb/s (water-filling: 300 kb/s each).
        let flows = [(0.1e6, 972), (0.6e6, 472), (1.2e6, 1472), (2.4e6, 972)];
        let demands: Vec<f64> = flows.iter().map(|f| f.0).collect();
        let expect = max_min(1e6, &demands);
        assert_eq!(expect, [0.1e6, 0.3e6, 0.3e6, 0.3e6]);
        let got = cbr_wire_rates(&flows);
        for (i, (g, e)) in got.iter().zip(&expect).enumerate() {
            assert!((g / e - 1.0).abs() < 0.01, "flow {i}: {g} b/s vs {e}");
        }
    }
}
