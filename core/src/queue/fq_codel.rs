//! FQ-CoDel — Flow Queue CoDel (Hoeiland-Joergensen, McKenney, Taht,
//! Gettys & Dumazet, RFC 8290).
//!
//! Enqueue (§4.1): hash the flow into one of `flows` queues; a queue that
//!   was in neither list joins the tail of new_flows with deficit = quantum.
//!   Over the buffer limit, drop from the head of the queue holding the most
//!   bytes (the "fattest").
//! Dequeue (§4.2), deficit round robin over the two lists, new_flows first:
//!   head queue's deficit ≤ 0 → deficit += quantum, move it to old_flows' tail;
//!   else take a packet through that queue's own CoDel (§2, codel.rs) and
//!   charge its size to the deficit. A queue found empty leaves its list,
//!   except that an empty new queue goes to the tail of old_flows first, so
//!   a flow cannot regain priority by sending one packet per round.
//! A sparse flow (less than a quantum per round) is new again each time it
//!   sends: its packet overtakes every backlogged queue.
//! Defaults (§5.2): target 5 ms, interval 100 ms, quantum 1514 bytes,
//! 1024 flows, ECN on (the Linux default).
//!
//! Choices where the RFC leaves room:
//! - The flow hash is Murmur3's 32-bit finaliser of the flow id under a
//!   fixed perturbation, scaled to `flows` buckets: every run and platform
//!   hashes alike. Flows that collide share a queue, as in the RFC (§5.3).
//! - Overflow drops one packet per excess arrival; Linux's batch drop (up
//!   to 64 packets at once) is not implemented.
//! - CoDel's "one MTU left" rule (§4.1 of RFC 8289) looks at the flow's own
//!   queue.
//! - Changing `flows` mid-run re-hashes the queued packets, in arrival
//!   order, into fresh queues (Linux refuses the change instead).

use super::codel::{self, CodelParams, CodelState};
use super::fq_scheme::{FqPolicy, FqScheme};
use super::prelude::*;
use crate::net::FlowId;
use std::collections::VecDeque;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "fq_codel",
    name: "FQ-CoDel",
    paper: "Hoeiland-Joergensen, McKenney, Taht, Gettys & Dumazet, The Flow Queue CoDel Packet Scheduler and \
            Active Queue Management Algorithm, RFC 8290, 2018",
    summary: "One CoDel queue per flow, served by deficit round robin with priority for sparse flows.",
    params: FqCodelParams::SPECS,
    probes: &LIST_PROBES,
    build,
    cross_check: super::codel::cross_check,
    model: None,
};

scheme_params! {
    /// FQ-CoDel's parameters; CoDel's apply to each flow queue.
    pub struct FqCodelParams {
        target: Nanos as ms = codel::TARGET.with_doc("CoDel's acceptable standing delay, per flow queue."),
        interval: Nanos as ms = codel::INTERVAL.with_doc("CoDel's interval, per flow queue: about a worst-case RTT."),
        quantum: i64 = ParamSpec::number("quantum", "bytes", 64.0..=65535.0, 1.0, 1514.0,
            "Bytes a queue may send per round-robin turn."),
        flows: usize = ParamSpec::number("flow queues", "queues", 1.0..=65536.0, 1.0, 1024.0,
            "Number of hash buckets; flows that hash alike share a queue."),
        mtu_bytes: u64 = CodelParams::spec("mtu_bytes")
            .with_doc("CoDel never drops from a queue holding at most this many bytes."),
        ecn: bool = ECN_PARAM.with_default(1.0),
    }
}

// FQ-PIE, FQ-COBALT and CAKE share these two with their own docs.
pub(crate) const QUANTUM: ParamSpec = FqCodelParams::spec("quantum");
pub(crate) const FLOWS: ParamSpec = FqCodelParams::spec("flows");

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(FqCodel::new(setup.limit), params)
}

/// The queue of `flow` among `n`: Murmur3's fmix32 of the flow id under a
/// fixed perturbation (Linux draws one at random per qdisc), scaled by a
/// multiply-shift. Like any hash it collides: flows 26 and 29 share a
/// queue out of 1024.
pub(crate) fn bucket(flow: FlowId, n: usize) -> usize {
    scale(hash32(flow), n)
}

/// Murmur3's fmix32 of `x` under the fixed perturbation (CAKE hashes flows
/// and host addresses with it too).
pub(crate) fn hash32(x: u32) -> u32 {
    let mut h = x ^ 0x9e37_79b9;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// A 32-bit hash scaled to `n` buckets by a multiply-shift.
pub(crate) fn scale(h: u32, n: usize) -> usize {
    ((h as u64 * n as u64) >> 32) as usize
}

/// What runs on each flow queue of a flow-queuing scheme: CoDel here, PIE
/// in FQ-PIE, COBALT in FQ-COBALT and CAKE.
pub(crate) trait FlowAqm {
    type Params;

    /// An arrival for `fifo`: the packet to queue (maybe marked), or None
    /// when it was dropped early. CoDel decides only at dequeue.
    fn admit(&mut self, pkt: Packet, _fifo: &Fifo, _p: &Self::Params, _ctx: &mut QueueCtx) -> Option<Packet> {
        Some(pkt)
    }

    /// The packet to send next from `fifo`, dropping through `ctx`.
    fn dequeue(&mut self, fifo: &mut Fifo, p: &Self::Params, ctx: &mut QueueCtx) -> Option<Packet>;

    /// What the scheme's decision records hold.
    const DECISION_FIELDS: &'static [FieldSpec] = &[];

    /// The period of the AQM's timed update (PIE's t_update); None: it has none.
    fn update_period(_p: &Self::Params) -> Option<Nanos> {
        None
    }

    /// One timed update of this queue's state; true when it is calm after
    /// (nothing changes until the next arrival, so the timer may sleep).
    fn tick(&mut self, _fifo: &Fifo, _p: &Self::Params) -> bool {
        true
    }

    /// The parameters changed: bring the state within the new ones.
    fn retune(&mut self, _p: &Self::Params) {}
}

impl FlowAqm for CodelState {
    type Params = CodelParams;
    const DECISION_FIELDS: &'static [FieldSpec] = codel::DECISION_FIELDS;

    fn dequeue(&mut self, fifo: &mut Fifo, p: &CodelParams, ctx: &mut QueueCtx) -> Option<Packet> {
        CodelState::dequeue(self, fifo, p, ctx)
    }
}

pub(crate) struct FlowQueue<A> {
    pub fifo: Fifo,
    pub aqm: A,
    deficit: i64,
    /// In new_flows or old_flows.
    listed: bool,
}

/// The flow queues and their deficit round robin (§4.1, §4.2), whatever
/// AQM runs on each queue.
pub(crate) struct FlowQueues<A> {
    limit: Limit,
    pub quantum: i64,
    queues: Vec<FlowQueue<A>>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    packets: usize,
    bytes: u64,
}

impl<A: FlowAqm> FlowQueues<A> {
    pub fn new(limit: Limit, n: usize, quantum: i64, fresh: impl Fn() -> A) -> FlowQueues<A> {
        FlowQueues {
            limit,
            quantum,
            queues: (0..n)
                .map(|_| FlowQueue { fifo: Fifo::default(), aqm: fresh(), deficit: 0, listed: false })
                .collect(),
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            packets: 0,
            bytes: 0,
        }
    }

    pub fn queues(&self) -> &[FlowQueue<A>] {
        &self.queues
    }

    pub fn queues_mut(&mut self) -> &mut [FlowQueue<A>] {
        &mut self.queues
    }

    fn push(&mut self, i: usize, pkt: Packet) {
        self.packets += 1;
        self.bytes += pkt.size_bytes as u64;
        let q = &mut self.queues[i];
        q.fifo.push(pkt);
        if !q.listed {
            q.listed = true;
            q.deficit = self.quantum;
            self.new_flows.push_back(i);
        }
    }

    /// Offer `pkt` to queue `i` through its AQM; over the buffer limit, drop
    /// from the fattest queue. The queue overflow last dropped from, if any.
    pub fn enqueue(&mut self, i: usize, pkt: Packet, p: &A::Params, ctx: &mut QueueCtx) -> Option<usize> {
        let q = &mut self.queues[i];
        let pkt = q.aqm.admit(pkt, &q.fifo, p, ctx)?;
        self.push(i, pkt);
        let mut fattest = None;
        while self.over_limit() {
            fattest = self.drop_from_fattest(ctx);
        }
        fattest
    }

    fn over_limit(&self) -> bool {
        self.limit.measure(self.packets, self.bytes) > self.limit.capacity() as f64
    }

    /// Drop the head of the queue with the most bytes (ties: lowest index).
    fn drop_from_fattest(&mut self, ctx: &mut QueueCtx) -> Option<usize> {
        let fattest = (0..self.queues.len()).rev().max_by_key(|&i| self.queues[i].fifo.bytes())?;
        let pkt = self.queues[fattest].fifo.pop()?;
        self.packets -= 1;
        self.bytes -= pkt.size_bytes as u64;
        ctx.drop(pkt, DropReason::Overflow);
        Some(fattest)
    }

    /// Queue `pkt` in the queue its flow hashes to.
    pub fn enqueue_flow(&mut self, pkt: Packet, p: &A::Params, ctx: &mut QueueCtx) -> Option<usize> {
        self.enqueue(bucket(pkt.flow, self.queues.len()), pkt, p, ctx)
    }

    /// The `flows` and `quantum` parameters: a new number of queues
    /// rehashes what is queued.
    pub fn configure(&mut self, flows: usize, quantum: i64, fresh: impl Fn() -> A) {
        self.quantum = quantum;
        if flows != self.queues.len() {
            self.rehash(flows, fresh);
        }
    }

    /// Start over with `n` queues, re-enqueueing what is queued in arrival
    /// order into the queue its flow hashes to.
    fn rehash(&mut self, n: usize, fresh: impl Fn() -> A) {
        let mut queued: Vec<Packet> = Vec::with_capacity(self.packets);
        for q in &mut self.queues {
            while let Some(p) = q.fifo.pop() {
                queued.push(p);
            }
        }
        queued.sort_by_key(|p| p.enqueued_at);
        *self = FlowQueues::new(self.limit, n, self.quantum, fresh);
        for p in queued {
            self.push(bucket(p.flow, n), p);
        }
    }

    pub fn dequeue(&mut self, p: &A::Params, ctx: &mut QueueCtx) -> Option<Packet> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[i];
            let emptied = if q.deficit <= 0 {
                q.deficit += self.quantum;
                false
            } else {
                let (len, bytes) = (q.fifo.len(), q.fifo.bytes());
                let pkt = q.aqm.dequeue(&mut q.fifo, p, ctx);
                self.packets -= len - q.fifo.len();
                self.bytes -= bytes - q.fifo.bytes();
                match pkt {
                    Some(p) => {
                        q.deficit -= p.size_bytes as i64;
                        return Some(p);
                    }
                    None => true,
                }
            };
            // The queue's turn is over: its deficit is spent, or it is empty.
            if from_new {
                self.new_flows.pop_front();
            } else {
                self.old_flows.pop_front();
            }
            if emptied && !from_new {
                self.queues[i].listed = false;
            } else {
                self.old_flows.push_back(i);
            }
        }
    }

    pub fn len_packets(&self) -> usize {
        self.packets
    }

    pub fn len_bytes(&self) -> u64 {
        self.bytes
    }

    /// The `new_flows`, `old_flows` and `backlog` probes.
    pub fn probe(&self, out: &mut ProbeSink) {
        out.put("new_flows", self.new_flows.len() as f64);
        out.put("old_flows", self.old_flows.len() as f64);
        out.put("backlog", self.bytes as f64);
    }
}

/// The probes of [`FlowQueues::probe`].
pub(crate) const LIST_PROBES: [ProbeSpec; 3] = [
    ProbeSpec::number("new_flows", "queues in the new-flows list", "flows"),
    ProbeSpec::number("old_flows", "queues in the old-flows list", "flows"),
    ProbeSpec::number("backlog", "total backlog", "bytes"),
];

/// FQ-CoDel: CoDel on each flow queue.
pub(crate) type FqCodel = FqScheme<FqCodelParams>;

impl FqPolicy for FqCodelParams {
    type Aqm = CodelState;

    fn split(&self) -> (CodelParams, usize, i64) {
        let FqCodelParams { target, interval, quantum, flows, mtu_bytes, ecn } = *self;
        (CodelParams { target, interval, mtu_bytes, ecn }, flows, quantum)
    }

    fn fresh(_: &CodelParams) -> CodelState {
        CodelState::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::tx_time_ns;
    use crate::queue::codel::tests::bufferbloat;
    use crate::queue::testing::Harness;
    use crate::testing::{dumbbell, max_min, run};

    fn harness(params: &[(&str, f64)], limit: Limit) -> Harness {
        Harness::new("fq_codel", params, limit)
    }

    #[test]
    fn the_hash_spreads_flows_and_sometimes_collides() {
        // The whole-simulation tests rely on flows 0..26 having queues of their own.
        let mut seen: Vec<usize> = (0..26).map(|f| bucket(f, 1024)).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 26);
        assert_eq!(bucket(26, 1024), bucket(29, 1024), "a birthday collision: 29 flows in 1024 queues");
        // Over many flows the buckets fill evenly: 100 per bucket on average.
        let mut load = vec![0u32; 1024];
        (0..102_400).for_each(|f| load[bucket(f, 1024)] += 1);
        assert!(load.iter().all(|&n| (55..=150).contains(&n)), "{:?}", (load.iter().min(), load.iter().max()));
        assert!((0..1000).all(|f| bucket(f, 1) == 0));
    }

    #[test]
    fn deficit_round_robin_shares_bytes_not_packets() {
        // Flow 1 sends 1500-byte packets, flow 2 500-byte ones: over many
        // rounds each gets one quantum (1514 bytes) of service per round.
        let mut h = harness(&[], Limit::Packets(10_000));
        for _ in 0..600 {
            h.arrive_from(1, 1500);
            h.arrive_n_from(3, 2, 500);
        }
        let mut bytes = [0u64; 3];
        for _ in 0..800 {
            let p = h.depart().expect("backlogged");
            bytes[p.flow as usize] += p.size_bytes as u64;
        }
        let (a, b) = (bytes[1] as f64, bytes[2] as f64);
        assert!((a - b).abs() <= 1514.0 + 1500.0, "{bytes:?}");
        assert!(h.dropped.is_empty());
    }

    #[test]
    fn a_sparse_flow_goes_ahead_of_backlogged_ones() {
        let mut h = harness(&[], Limit::Packets(10_000));
        for _ in 0..50 {
            h.arrive_from(1, 1500);
            h.arrive_from(2, 1500);
        }
        for _ in 0..10 {
            h.depart();
        }
        assert_eq!((h.probe("new_flows"), h.probe("old_flows")), (0.0, 2.0));
        h.arrive_from(9, 100);
        assert_eq!(h.probe("new_flows"), 1.0);
        assert_eq!(h.depart().map(|p| p.flow), Some(9), "the new flow is served first");
        // Its emptied queue moves to the old list instead of leaving at once.
        h.depart();
        assert_eq!((h.probe("new_flows"), h.probe("old_flows")), (0.0, 3.0));
    }

    #[test]
    fn overflow_drops_from_the_head_of_the_fattest_queue() {
        let mut h = harness(&[], Limit::Packets(10));
        h.arrive_n_from(8, 1, 1000);
        h.arrive_from(2, 1500);
        h.arrive_from(2, 1500);
        h.arrive_from(2, 1500);
        let (p, reason) = &h.dropped[0];
        assert_eq!((p.flow, *reason, h.dropped.len()), (1, DropReason::Overflow, 1));
        assert_eq!(h.q.len_packets(), 10);
        assert_eq!(h.probe("backlog"), 7000.0 + 4500.0);
        // In bytes, the fattest is the queue with the most bytes, not packets.
        let mut b = harness(&[], Limit::Bytes(6000));
        b.arrive_n_from(5, 1, 400);
        b.arrive_n_from(3, 2, 1500);
        assert_eq!(b.dropped.iter().map(|(p, _)| p.flow).collect::<Vec<_>>(), [2]);
        assert_eq!(b.q.len_bytes(), 5000);
    }

    #[test]
    fn one_flow_queue_is_a_codel_fifo() {
        let mut h = harness(&[("flows", 1.0)], Limit::Packets(100));
        for f in [3, 1, 2, 3] {
            h.arrive_from(f, 1000);
        }
        let order: Vec<_> = std::iter::from_fn(|| h.depart()).map(|p| p.flow).collect();
        assert_eq!(order, [3, 1, 2, 3]);
    }

    #[test]
    fn each_queue_runs_its_own_codel() {
        // A standing queue in flow 1 (as in codel.rs's tests) is dropped,
        // flow 2 with one packet per ms never is.
        let mut h = harness(&[], Limit::Packets(100_000));
        let times = h.standing_queue_beside_a_light_flow();
        assert!(h.dropped.iter().all(|(p, r)| p.flow == 1 && *r == DropReason::Early));
        // Flow 1's first dequeue at or above target comes at 6 ms (DRR's turn
        // order); then one interval, then interval/√2 later: CoDel's schedule.
        assert_eq!(times, [106, 206, 277]);
    }

    #[test]
    fn changing_the_number_of_queues_keeps_every_packet() {
        let mut h = harness(&[], Limit::Packets(100));
        for f in 0..20 {
            h.arrive_from(f, 1000);
        }
        h.q.set_param("flows", 4.0).unwrap();
        assert_eq!(h.q.len_packets(), 20);
        let mut flows: Vec<_> = std::iter::from_fn(|| h.depart()).map(|p| p.flow).collect();
        flows.sort();
        assert_eq!(flows, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn a_cbr_hog_gets_its_max_min_share_and_a_sparse_flow_no_queue() {
        // 10 Mb/s shared by a 10 Mb/s CBR hog (flow 0), two 2 Mb/s CBRs
        // (flows 1, 2) and a 64 kb/s "ping" of 100-byte packets (flow 3).
        // Max-min fair shares of the wire: 2, 2 and 0.064 Mb/s for the small
        // ones, all the rest, 5.936 Mb/s, for the hog.
        let flows = r#"{ "kind": "cbr", "rate_bps": 10000000, "packet_bytes": 1000, "start_s": [0, 1] },
                       { "kind": "cbr", "count": 2, "rate_bps": 2000000, "packet_bytes": 1000, "start_s": [0, 1] },
                       { "kind": "cbr", "rate_bps": 64000, "packet_bytes": 72, "start_s": [0, 1] }"#;
        let text = dumbbell(20.0, 1e7, 10.0, 1000, r#"{ "scheme": "fq_codel" }"#, flows);
        let s = run(&text);
        let shares = max_min(&[10e6, 2e6, 2e6, 64e3], 10e6);
        for (f, (share, payload)) in s.flows.iter().zip(shares.iter().zip([1000.0, 1000.0, 1000.0, 72.0])) {
            let want = share * payload / (payload + 28.0);
            assert!((f.goodput_bps / want - 1.0).abs() < 0.01, "flow {}: {} vs {want}", f.id, f.goodput_bps);
        }
        assert!(s.flows[1..].iter().all(|f| f.dropped_packets == 0));
        assert!(s.utilization > 0.999, "{}", s.utilization);
        // A sparse packet waits for the packet on the wire and at most the
        // two other new-flow packets (flows 1 and 2) ahead of it; on average
        // less than one packet's transmission time.
        let tx = tx_time_ns(1028, 10_000_000) as f64 / 1e6;
        let ping = &s.flows[3];
        assert!(ping.sent_packets > 1000);
        assert!(ping.max_queue_delay_ms <= 3.0 * tx + 1e-6, "{ping:?}");
        assert!(ping.mean_queue_delay_ms < tx, "{ping:?} vs {tx}");
        // The overload waits in the hog's own queue, and only there (CoDel
        // alone cannot hold an unresponsive flow: the fattest-queue drop does).
        assert!(s.flows[0].mean_queue_delay_ms > 100.0, "{:?}", s.flows[0]);
        assert!(s.flows[1].max_queue_delay_ms <= 3.0 * tx + 1e-6, "{:?}", s.flows[1]);

        // Drop Tail, for contrast: shares follow the offered loads, and the
        // ping waits behind a full buffer.
        let fifo = dumbbell(20.0, 1e7, 10.0, 1000, r#"{ "scheme": "droptail" }"#, flows);
        let d = run(&fifo);
        assert!(d.flows[1].goodput_bps < 0.8 * s.flows[1].goodput_bps, "{}", d.flows[1].goodput_bps);
        assert!(d.flows[3].mean_queue_delay_ms > 700.0, "{:?}", d.flows[3]);
    }

    #[test]
    fn a_ping_beside_bulk_tcp_barely_queues() {
        // The bufferbloat setting plus a 64 kb/s ping of 100-byte packets
        // (flow 10): its queue empties after each packet, so each one arrives
        // as a new flow and overtakes the bulk flows' queues.
        let ping = r#", { "kind": "cbr", "rate_bps": 64000, "packet_bytes": 72, "start_s": [0, 1] }"#;
        let with_ping = |queue: &str| bufferbloat(queue, false, ping);
        let s = run(&with_ping(r#"{ "scheme": "fq_codel" }"#));
        let tx = tx_time_ns(1040, 10_000_000) as f64 / 1e6;
        let bulk = s.flows[..10].iter().map(|f| f.mean_queue_delay_ms).fold(f64::INFINITY, f64::min);
        assert!(s.flows[10].sent_packets > 1000);
        assert!(s.flows[10].mean_queue_delay_ms < 1.5 * tx, "ping {:?} vs one packet {tx} ms", s.flows[10]);
        assert!(bulk > 5.0, "the bulk flows sit at CoDel's target: {bulk}");
        assert!(s.fairness.jain_tcp.is_some_and(|j| j > 0.99), "{:?}", s.fairness);
        assert!(s.utilization > 0.97, "{}", s.utilization);
        // One CoDel queue for all: the ping waits as long as everyone.
        let shared = run(&with_ping(r#"{ "scheme": "codel" }"#));
        assert!(shared.flows[10].mean_queue_delay_ms > 5.0, "{:?}", shared.flows[10]);
    }

    #[test]
    fn a_cbr_hog_among_tcp_flows_gets_its_max_min_share() {
        // 4 TCP flows (RTT 22–30 ms) and a CBR at the full 10 Mb/s: five
        // equal shares of 2 Mb/s on the wire.
        let flows = r#"{ "kind": "tcp", "count": 4, "segment_bytes": 1000, "access_delay_ms": [1, 5], "start_s": [0, 2] },
                       { "kind": "cbr", "rate_bps": 10000000, "packet_bytes": 1000, "start_s": [0, 1] }"#;
        let text = |scheme: &str| dumbbell(40.0, 1e7, 10.0, 1000, &format!(r#"{{ "scheme": "{scheme}" }}"#), flows);
        let s = run(&text("fq_codel"));
        let shares = max_min(&[f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY, 1e7], 1e7);
        for (f, share) in s.flows.iter().zip(shares) {
            let payload = if f.kind == "tcp" { 1000.0 / 1040.0 } else { 1000.0 / 1028.0 };
            assert!((f.goodput_bps / (share * payload) - 1.0).abs() < 0.05, "flow {}: {}", f.id, f.goodput_bps);
        }
        // A single CoDel queue lets the hog crowd the TCP flows out.
        let shared = run(&text("codel"));
        assert!(shared.flows[4].goodput_bps > 0.8 * 1e7, "{}", shared.flows[4].goodput_bps);
    }
}
