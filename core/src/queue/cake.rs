//! CAKE — Common Applications Kept Enhanced (Høiland-Jørgensen, Täht &
//! Morton, "Piece of CAKE: A Comprehensive Queue Management Solution for
//! Home Gateways", IEEE LANMAN 2018, §III; Linux `sch_cake.c`), one tin.
//!
//! Enqueue: the flow's 32-bit hash picks a queue by set-associative
//!   hashing (§III, flow hashing): the `flows` queues form sets of 8 ways;
//!   the flow takes the way already tagged with its hash, else an idle way
//!   of its set, and only when all 8 are busy does it share (a collision).
//!   Its source and destination host addresses are hashed into host slots
//!   the same way. Over the buffer (or memory) limit, drop from the head of
//!   the fattest queue and tell that queue's COBALT the buffer was full.
//! Dequeue, DRR++ over new, old and decaying queues as FQ-CoDel
//!   (fq_codel.rs), with triple isolation (§III, host isolation): a queue
//!   whose deficit is spent gets
//!     deficit += quantum / host_load,
//!     host_load = max(bulk queues of its source host, of its destination)
//!   so each host's queues together earn about one quantum per round: a
//!   host with 8 bulk flows gets what a host with one gets. A queue is
//!   "bulk" once it has used a whole quantum and still has packets, "sparse"
//!   before. The queue sends through its own COBALT (cobalt.rs); a queue
//!   found empty waits in the decaying list until its COBALT is at rest.
//!   Unlike FQ-CoDel, a new queue found empty leaves at once instead of
//!   going to the old list (Linux), so a flow whose queue COBALT empties
//!   returns as a new flow.
//! Shaper (§III, bandwidth shaping), in deficit mode: with `rate_bps` > 0,
//!   each packet sent moves the next send time on by its size at that rate,
//!   counted from the previous send time (not from now), so scheduling
//!   delays are caught up without a burst parameter; an idle queue
//!   restarts the clock at now. At low rates (as Linux) COBALT's target
//!   becomes at least 1.5 MTU times at the rate, and the interval grows by
//!   as much.
//! Defaults (Linux `cake_init`): triple isolation, target 5 ms, interval
//! 100 ms, 1024 queues in sets of 8, quantum 1514 bytes (one MTU frame),
//! ECN on, rate unlimited, memory limit 4 × rate × interval but at least
//! 4 MB; BLUE's steps 1/256 and 1/4096.
//!
//! Not built: DiffServ tins (one best-effort tin), the overhead and ATM/PTM
//! framing compensation, the ACK filter, NAT lookup, GSO splitting, ingress
//! mode, Linux's lower quantum at low rates (rate / 4096, at least 300 bytes)
//! and its shaped-mode rule that a sojourn must also exceed four MTU times
//! before CoDel acts.
//!
//! Choices where the sources leave room:
//! - Hosts are the addressing plan's IPv4 addresses (docs/model.md,
//!   "Captures"), a flow group with `one_host` sharing one pair; outside a
//!   simulation each flow id is its own source and destination.
//! - COBALT is cobalt.rs's, with ns-3's BLUE threshold (400 ms); as Linux,
//!   a queue's last packet is never dropped (CoDel may mark it).
//! - quantum / host_load is dithered with the scheme's own RNG stream, as
//!   Linux dithers its 16-bit fixed point with a random number.
//! - The memory limit counts wire bytes (Linux counts buffer truesize) and
//!   applies beside the scenario's buffer: whichever is hit first drops.
//!   Unshaped, the link's rate stands in for the rate (Linux then allows
//!   10 240 MTU-sized packets).
//! - A shaper rate above the link's is refused: the link would shape instead.
//! - Changing `flows` mid-run re-enqueues what is queued, in arrival order.

use super::cobalt::{self, CakeQueue, CobaltParams, CobaltState};
use super::codel;
use super::fq_cobalt::MAX_P_DROP;
use super::fq_codel::{self, hash32, scale, LIST_PROBES};
use super::prelude::*;
use super::FlowHosts;
use crate::kernel::tx_time_ns;
use crate::net::Dir;
use std::collections::VecDeque;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "cake",
    name: "CAKE",
    paper: "Høiland-Jørgensen, Täht & Morton, Piece of CAKE: A Comprehensive Queue Management Solution for Home \
            Gateways, IEEE LANMAN 2018, §III (as Linux sch_cake, one tin)",
    summary: "COBALT per flow queue, set-associative hashing, fairness between hosts first, and a built-in shaper.",
    params: CakeParams::SPECS,
    probes: &[LIST_PROBES[0], LIST_PROBES[1], LIST_PROBES[2], MAX_P_DROP, DECAYING_PROBE, COLLISIONS_PROBE],
    build,
    cross_check: codel::cross_check,
    model: None,
};

const DECAYING_PROBE: ProbeSpec = ProbeSpec::number("decaying_flows", "empty queues whose COBALT decays", "flows");
const COLLISIONS_PROBE: ProbeSpec =
    ProbeSpec::number("way_collisions", "flows that found every way of their set busy", "flows");

/// Ways of a set (Linux `CAKE_SET_WAYS`).
const WAYS: usize = 8;
/// Linux's memory limit when nothing larger applies.
const MIN_MEMORY_BYTES: u64 = 4 << 20;
/// The MTU frame the low-rate target is scaled by.
const MTU_BYTES: u32 = 1514;

scheme_params! {
    /// CAKE's parameters; COBALT's apply to each flow queue.
    pub struct CakeParams {
        rate_bps: u64 = ParamSpec::number("shaper rate (0 = link rate)", "bps", 0.0..=1e10, 1e5, 0.0,
            "The built-in shaper's rate; 0 leaves the link's rate as the bottleneck. At most the link's rate."),
        host_isolation: bool = ParamSpec::switch("triple isolation", true,
            "Share first between source hosts and between destination hosts, then between each host's flows; off: between flows only."),
        target: Nanos as ms = codel::TARGET.with_doc("COBALT's acceptable standing delay, per flow queue."),
        interval: Nanos as ms = codel::INTERVAL.with_doc("COBALT's interval, per flow queue: about a worst-case RTT."),
        increment: f64 = CobaltParams::spec("increment"),
        decrement: f64 = CobaltParams::spec("decrement"),
        blue_threshold: Nanos as ms = CobaltParams::spec("blue_threshold"),
        quantum: i64 = fq_codel::QUANTUM.with_doc("Bytes a host (or a flow alone on its hosts) may send per round."),
        flows: usize = fq_codel::FLOWS.with_doc(
            "Flow queues, in sets of 8 ways: a flow shares a queue only when every way of its set is busy."),
        memory_bytes: u64 = ParamSpec::number("memory limit (0 = auto)", "bytes", 0.0..=1e9, 1e4, 0.0,
            "Queued bytes at most; 0 = 4 × rate × interval, at least 4 MB. The scenario's buffer applies too."),
        ecn: bool = ECN_PARAM
            .with_default(1.0)
            .with_doc("COBALT's CoDel marks ECN-capable packets instead of dropping them; BLUE always drops."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Cake::new(setup), params)
}

/// Where a queue stands in DRR++ (Linux `CAKE_SET_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    /// In no list.
    Idle,
    /// Has not yet used a whole quantum.
    Sparse,
    /// Used its quantum, then emptied: counted sparse, rotating with the old.
    SparseWait,
    Bulk,
    /// Empty, with COBALT state still decaying.
    Decaying,
}

struct FlowQueue {
    fifo: Fifo,
    cobalt: CobaltState,
    deficit: i64,
    set: Set,
    /// The full hash of the flow the queue is reserved for.
    tag: Option<u32>,
    src_host: usize,
    dst_host: usize,
}

impl FlowQueue {
    fn new() -> FlowQueue {
        FlowQueue {
            fifo: Fifo::default(),
            cobalt: CobaltState::default(),
            deficit: 0,
            set: Set::Idle,
            tag: None,
            src_host: 0,
            dst_host: 0,
        }
    }
}

/// A host slot, as a source ([`SRC`]) and as a destination ([`DST`]):
/// the address hash it holds and its bulk queues (Linux `cake_host`).
#[derive(Clone, Copy, Default)]
struct HostSlot {
    tag: [Option<u32>; 2],
    bulk: [u32; 2],
}

const SRC: usize = 0;
const DST: usize = 1;

/// The ways of the set that bucket `reduced` of `n` belongs to, starting at
/// `reduced` and wrapping within the set.
fn set_ways(reduced: usize, n: usize) -> impl Iterator<Item = usize> {
    let outer = reduced - reduced % WAYS;
    let len = WAYS.min(n - outer);
    let inner = reduced - outer;
    (0..len).map(move |i| outer + (inner + i) % len)
}

pub struct Cake {
    p: CakeParams,
    /// `p` as each flow queue's COBALT sees it (target scaled to the rate).
    cobalt: CobaltParams,
    limit: Limit,
    link_rate_bps: u64,
    /// The hosts of each scenario flow, by `owner`.
    hosts_of: Vec<FlowHosts>,
    queues: Vec<FlowQueue>,
    hosts: Vec<HostSlot>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    decaying_flows: VecDeque<usize>,
    packets: usize,
    bytes: u64,
    memory_limit: u64,
    /// The shaper's next send time.
    time_next_packet: Nanos,
    /// The wake-up asked for, so that each is asked once.
    wake_armed: Option<Nanos>,
    way_collisions: u64,
}

impl Cake {
    pub fn new(setup: &QueueSetup) -> Cake {
        let p = CakeParams::default();
        let mut cake = Cake {
            cobalt: CobaltParams::default(),
            limit: setup.limit,
            link_rate_bps: setup.link_rate_bps,
            hosts_of: setup.hosts.to_vec(),
            queues: (0..p.flows).map(|_| FlowQueue::new()).collect(),
            hosts: vec![HostSlot::default(); p.flows],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            decaying_flows: VecDeque::new(),
            packets: 0,
            bytes: 0,
            memory_limit: 0,
            time_next_packet: 0,
            wake_armed: None,
            way_collisions: 0,
            p,
        };
        cake.derive();
        cake
    }

    /// COBALT's parameters and the memory limit for the current rate.
    fn derive(&mut self) {
        let p = &self.p;
        let (mut target, mut interval) = (p.target, p.interval);
        if p.rate_bps > 0 {
            // Linux cake_set_rate: a target below 1.5 MTU times cannot be met.
            let scaled = tx_time_ns(MTU_BYTES, p.rate_bps) * 3 / 2;
            interval += scaled.saturating_sub(target);
            target = target.max(scaled);
        }
        self.cobalt = CobaltParams {
            target,
            interval,
            increment: p.increment,
            decrement: p.decrement,
            blue_threshold: p.blue_threshold,
            ecn: p.ecn,
        };
        let rate = if p.rate_bps > 0 { p.rate_bps } else { self.link_rate_bps };
        let auto = (rate as u128 / 8 * p.interval as u128 * 4 / 1_000_000_000) as u64;
        self.memory_limit = if p.memory_bytes > 0 { p.memory_bytes } else { auto.max(MIN_MEMORY_BYTES) };
    }

    /// The packet's (source, destination) addresses.
    fn addresses(&self, pkt: &Packet) -> (u32, u32) {
        let FlowHosts { sender, receiver } = self
            .hosts_of
            .get(pkt.owner as usize)
            .copied()
            .unwrap_or(FlowHosts { sender: pkt.flow, receiver: pkt.flow });
        match pkt.dir {
            Dir::Forward => (sender, receiver),
            Dir::Reverse => (receiver, sender),
        }
    }

    /// The queue for the flow hashed to `tag` (Linux cake_hash): the way
    /// reserved for it, else an idle way of its set, else a shared one.
    fn queue_for(&mut self, tag: u32, addrs: (u32, u32)) -> usize {
        let n = self.queues.len();
        let reduced = scale(tag, n);
        let q = &self.queues[reduced];
        if q.tag == Some(tag) && q.set != Set::Idle {
            return reduced;
        }
        let found = set_ways(reduced, n).find(|&k| self.queues[k].tag == Some(tag));
        let (k, allocate) = match found {
            Some(k) => (k, self.queues[k].set == Set::Idle),
            None => match set_ways(reduced, n).find(|&k| self.queues[k].set == Set::Idle) {
                Some(k) => (k, true),
                None => {
                    self.way_collisions += 1;
                    if self.queues[reduced].set == Set::Bulk {
                        self.count_bulk(reduced, -1);
                    }
                    (reduced, true)
                }
            },
        };
        self.queues[k].tag = Some(tag);
        if allocate {
            self.queues[k].src_host = self.host_slot(addrs.0, SRC);
            self.queues[k].dst_host = self.host_slot(addrs.1, DST);
            if self.queues[k].set == Set::Bulk {
                self.count_bulk(k, 1);
            }
        }
        k
    }

    /// The host slot for `addr` on `side`: the one tagged with it, else one
    /// with no bulk queue, else (a host collision) the first way.
    fn host_slot(&mut self, addr: u32, side: usize) -> usize {
        let tag = hash32(addr);
        let n = self.hosts.len();
        let reduced = scale(tag, n);
        if let Some(k) = set_ways(reduced, n).find(|&k| self.hosts[k].tag[side] == Some(tag)) {
            return k;
        }
        let k = set_ways(reduced, n).find(|&k| self.hosts[k].bulk[side] == 0).unwrap_or(reduced);
        self.hosts[k].tag[side] = Some(tag);
        k
    }

    /// Count queue `i` as one more (or one fewer) bulk queue of its hosts.
    fn count_bulk(&mut self, i: usize, delta: i32) {
        let (s, d) = (self.queues[i].src_host, self.queues[i].dst_host);
        for (slot, side) in [(s, SRC), (d, DST)] {
            let bulk = &mut self.hosts[slot].bulk[side];
            *bulk = bulk.saturating_add_signed(delta);
        }
    }

    /// The bulk queues of queue `i`'s busier host (at least 1; 1 without
    /// host isolation).
    fn host_load(&self, i: usize) -> u32 {
        let q = &self.queues[i];
        if self.p.host_isolation {
            self.hosts[q.src_host].bulk[SRC].max(self.hosts[q.dst_host].bulk[DST]).max(1)
        } else {
            1
        }
    }

    /// quantum / host_load for queue `i`, rounded down after adding
    /// `dither` (uniform on [0, 1) keeps the mean exact).
    fn flow_quantum(&self, i: usize, dither: f64) -> i64 {
        let load = self.host_load(i);
        if load == 1 {
            return self.p.quantum;
        }
        (self.p.quantum as f64 / load as f64 + dither).floor() as i64
    }

    /// Put `pkt` in queue `i`, listing the queue if it was idle or decaying.
    fn push(&mut self, i: usize, pkt: Packet) {
        self.packets += 1;
        self.bytes += pkt.size_bytes as u64;
        self.queues[i].fifo.push(pkt);
        match self.queues[i].set {
            Set::Idle | Set::Decaying => {
                if self.queues[i].set == Set::Decaying {
                    self.decaying_flows.retain(|&q| q != i);
                }
                self.new_flows.push_back(i);
                self.queues[i].set = Set::Sparse;
                self.queues[i].deficit = self.flow_quantum(i, 0.0);
            }
            Set::SparseWait => {
                self.queues[i].set = Set::Bulk;
                self.count_bulk(i, 1);
            }
            Set::Sparse | Set::Bulk => {}
        }
    }

    fn over_limit(&self) -> bool {
        self.bytes > self.memory_limit || self.limit.measure(self.packets, self.bytes) > self.limit.capacity() as f64
    }

    /// Drop the head of the queue with the most bytes (ties: lowest index)
    /// and tell its COBALT the buffer was full (Linux cake_drop).
    /// False when every queue is empty.
    fn drop_from_fattest(&mut self, ctx: &mut QueueCtx) -> bool {
        let Some(fattest) = (0..self.queues.len()).rev().max_by_key(|&i| self.queues[i].fifo.bytes()) else {
            return false;
        };
        let q = &mut self.queues[fattest];
        let Some(pkt) = q.fifo.pop() else { return false };
        q.cobalt.queue_full(ctx.now, &self.cobalt);
        self.packets -= 1;
        self.bytes -= pkt.size_bytes as u64;
        ctx.drop(pkt, DropReason::Overflow);
        true
    }

    /// The shaper holds the next packet until `time_next_packet`.
    fn shaper_holds(&mut self, ctx: &mut QueueCtx) -> bool {
        if self.p.rate_bps == 0 || self.time_next_packet <= ctx.now {
            return false;
        }
        if self.wake_armed != Some(self.time_next_packet) {
            self.wake_armed = Some(self.time_next_packet);
            ctx.wake_at(self.time_next_packet);
        }
        true
    }

    /// Queue `i` has used its deficit: top it up by its share of a quantum
    /// and send it to the back of the old list; a sparse queue becomes bulk.
    fn end_turn(&mut self, i: usize, ctx: &mut QueueCtx) {
        if self.queues[i].set == Set::Sparse {
            if self.queues[i].fifo.is_empty() {
                self.queues[i].set = Set::SparseWait;
            } else {
                self.queues[i].set = Set::Bulk;
                self.count_bulk(i, 1);
            }
        }
        self.queues[i].deficit += self.flow_quantum(i, ctx.rng.uniform());
        self.old_flows.push_back(i);
    }

    /// Queue `i` was found empty: it decays, or leaves the lists at rest.
    fn emptied(&mut self, i: usize, now: Nanos) {
        if self.queues[i].set == Set::Bulk {
            self.count_bulk(i, -1);
        }
        if self.queues[i].cobalt.at_rest(now) {
            self.queues[i].set = Set::Idle;
        } else {
            self.queues[i].set = Set::Decaying;
            self.decaying_flows.push_back(i);
        }
    }

    /// The next queue in DRR++ order, taken off its list: one decaying queue
    /// first on each dequeue (so their state decays), then new, old, decaying.
    fn next_queue(&mut self, first: bool) -> Option<usize> {
        if first {
            if let Some(i) = self.decaying_flows.pop_front() {
                return Some(i);
            }
        }
        self.new_flows.pop_front().or_else(|| self.old_flows.pop_front()).or_else(|| self.decaying_flows.pop_front())
    }

    /// Take a packet from queue `i` through its COBALT.
    fn take(&mut self, i: usize, ctx: &mut QueueCtx) -> Option<Packet> {
        let at = CakeQueue { index: i, host_load: self.host_load(i) };
        let q = &mut self.queues[i];
        let (len, bytes) = (q.fifo.len(), q.fifo.bytes());
        let pkt = q.cobalt.dequeue(&mut q.fifo, Some(at), &self.cobalt, ctx);
        self.packets -= len - q.fifo.len();
        self.bytes -= bytes - q.fifo.bytes();
        pkt
    }

    /// Start over with `n` queues, re-enqueueing what is queued in arrival order.
    fn rebuild(&mut self, n: usize) {
        let mut queued: Vec<Packet> = Vec::with_capacity(self.packets);
        for q in &mut self.queues {
            while let Some(p) = q.fifo.pop() {
                queued.push(p);
            }
        }
        queued.sort_by_key(|p| p.enqueued_at);
        self.queues = (0..n).map(|_| FlowQueue::new()).collect();
        self.hosts = vec![HostSlot::default(); n];
        self.new_flows.clear();
        self.old_flows.clear();
        self.decaying_flows.clear();
        (self.packets, self.bytes) = (0, 0);
        for pkt in queued {
            let i = self.queue_for(hash32(pkt.flow), self.addresses(&pkt));
            self.push(i, pkt);
        }
    }
}

impl Qdisc for Cake {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if self.packets == 0 && self.time_next_packet < ctx.now {
            self.time_next_packet = ctx.now;
        }
        let i = self.queue_for(hash32(pkt.flow), self.addresses(&pkt));
        self.push(i, pkt);
        while self.over_limit() && self.drop_from_fattest(ctx) {}
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        let mut first = true;
        while self.packets > 0 {
            if self.shaper_holds(ctx) {
                return None;
            }
            let i = self.next_queue(first)?;
            first = false;
            if self.queues[i].deficit <= 0 {
                self.end_turn(i, ctx);
                continue;
            }
            let Some(pkt) = self.take(i, ctx) else {
                self.emptied(i, ctx.now);
                continue;
            };
            self.queues[i].deficit -= pkt.size_bytes as i64;
            // Back at the head of its list: it keeps its turn.
            match self.queues[i].set {
                Set::Sparse => self.new_flows.push_front(i),
                _ => self.old_flows.push_front(i),
            }
            if self.p.rate_bps > 0 {
                self.time_next_packet += tx_time_ns(pkt.size_bytes, self.p.rate_bps);
            }
            return Some(pkt);
        }
        None
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        if self.wake_armed.is_some_and(|w| w <= ctx.now) {
            self.wake_armed = None;
        }
    }

    fn len_packets(&self) -> usize {
        self.packets
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        let link = self.link_rate_bps;
        if id == "rate_bps" && v > link as f64 {
            let message = format!("{v} b/s is above the link's rate ({link} b/s): the link would shape instead");
            return Err(ParamError::new(id, message));
        }
        self.p.set(id, v)?;
        self.derive();
        if self.p.flows != self.queues.len() {
            self.rebuild(self.p.flows);
        }
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("new_flows", self.new_flows.len() as f64);
        out.put("old_flows", self.old_flows.len() as f64);
        out.put("backlog", self.bytes as f64);
        out.put("max_p_drop", self.queues.iter().map(|q| q.cobalt.p_drop).fold(0.0, f64::max));
        out.put("decaying_flows", self.decaying_flows.len() as f64);
        out.put("way_collisions", self.way_collisions as f64);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        cobalt::CAKE_FIELDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::NS_PER_MS;
    use crate::queue::decision::Decision;
    use crate::queue::fq_codel::bucket;
    use crate::queue::scheme::apply;
    use crate::queue::testing::Harness;
    use crate::testing::{dumbbell, run};

    const MS: Nanos = NS_PER_MS;

    /// A harness whose CAKE sees `hosts` (by flow id) and `params`.
    fn harness(hosts: &[FlowHosts], params: &[(&str, f64)]) -> Harness {
        let mut h = Harness::new("cake", &[], Limit::Packets(100_000));
        let setup = QueueSetup { limit: Limit::Packets(100_000), link_rate_bps: 10_000_000, hosts };
        let mut values = ParamValues::defaults(&INFO, setup.limit);
        for (id, v) in params {
            values.set(id, *v);
        }
        let mut cake = Cake::new(&setup);
        apply(&mut cake, &values);
        h.q = Box::new(cake);
        h
    }

    /// Two flows that FQ-CoDel's hash puts in one bucket of 1024.
    fn colliding_pair() -> (u32, u32) {
        let mut first = vec![None; 1024];
        for f in 0..10_000u32 {
            match first[bucket(f, 1024)] {
                Some(g) => return (g, f),
                None => first[bucket(f, 1024)] = Some(f),
            }
        }
        unreachable!("10 000 flows in 1024 buckets collide")
    }

    #[test]
    fn flows_that_hash_alike_get_separate_ways_until_the_set_is_full() {
        let setup = QueueSetup { limit: Limit::Packets(1000), link_rate_bps: 10_000_000, hosts: &[] };
        let packet = |f: u32| Harness::new("cake", &[], Limit::Packets(10)).packet(f, 1000);
        let queue_of = |cake: &mut Cake, f: u32| cake.queue_for(hash32(f), (f, f));
        let mut cake = Cake::new(&setup);
        let (a, b) = colliding_pair();
        let qa = queue_of(&mut cake, a);
        cake.push(qa, packet(a));
        let qb = queue_of(&mut cake, b);
        assert_ne!(qa, qb, "FQ-CoDel would share bucket {}", bucket(a, 1024));
        assert_eq!(qa / WAYS, qb / WAYS, "another way of the same set");
        assert_eq!(queue_of(&mut cake, a), qa, "a flow keeps its way");
        // Nine busy flows hashing to one set: eight ways, then a collision.
        let mut cake = Cake::new(&setup);
        let set = qa / WAYS;
        let same_set: Vec<u32> = (0..1_000_000u32).filter(|&f| scale(hash32(f), 1024) / WAYS == set).take(9).collect();
        let mut used = Vec::new();
        for &f in &same_set[..8] {
            let q = queue_of(&mut cake, f);
            cake.push(q, packet(f));
            used.push(q);
        }
        used.sort();
        assert_eq!(used, (set * WAYS..(set + 1) * WAYS).collect::<Vec<_>>());
        assert_eq!(cake.way_collisions, 0);
        let shared = queue_of(&mut cake, same_set[8]);
        assert!(used.contains(&shared));
        assert_eq!(cake.way_collisions, 1);
    }

    #[test]
    fn one_flow_per_queue_for_the_whole_simulation_flows() {
        // Collisions FQ-CoDel has among 29 flows (26 and 29) do not happen.
        let mut h = harness(&[], &[]);
        for f in 0..40 {
            h.arrive_from(f, 1000);
        }
        assert_eq!(h.probe("new_flows"), 40.0);
        assert_eq!(h.probe("way_collisions"), 0.0);
    }

    /// Bytes sent per host over `n` departures of a backlog in which host A
    /// (flow 0) has one flow and host B (flows 1..=8) eight.
    fn bytes_per_host(params: &[(&str, f64)], n: usize) -> [f64; 2] {
        let hosts: Vec<FlowHosts> =
            (0..9).map(|f| FlowHosts { sender: if f == 0 { 1 } else { 2 }, receiver: 100 + f }).collect();
        let mut h = harness(&hosts, params);
        // 1600 packets from A, 250 from each flow of B: within the 4 MB
        // memory limit, and each host has more than its half of `n`.
        for i in 0..1600 {
            h.arrive_from(0, 1000);
            if i < 250 {
                (1..9).for_each(|f| h.arrive_from(f, 1000));
            }
        }
        let mut bytes = [0.0; 2];
        for _ in 0..n {
            let p = h.depart().expect("backlogged");
            bytes[(p.flow > 0) as usize] += p.size_bytes as f64;
        }
        bytes
    }

    #[test]
    fn host_deficit_shares_first_between_hosts_then_their_flows() {
        // Triple isolation: host B's 8 bulk flows each earn quantum / 8 per
        // round, so B as a whole gets what A's one flow gets.
        let [a, b] = bytes_per_host(&[], 2000);
        assert!((a / b - 1.0).abs() < 0.03, "{a} vs {b}");
        // Flow isolation only: nine equal flows, B gets 8/9.
        let [a, b] = bytes_per_host(&[("host_isolation", 0.0)], 2000);
        assert!((b / (a + b) - 8.0 / 9.0).abs() < 0.01, "{a} vs {b}");
    }

    #[test]
    fn the_shaper_sends_at_its_rate_and_catches_up_on_late_polls() {
        // 1 Mb/s: a 1000-byte packet every 8 ms, whatever the polling.
        let mut h = harness(&[], &[("rate_bps", 1e6)]);
        h.arrive_n_from(500, 1, 1000);
        let mut sent = 0;
        for t in 0..=1000 {
            // Polled every 1 ms except a 30 ms stall: the shaper lets the
            // packets the stall held go at once (deficit mode).
            if (500..530).contains(&t) {
                continue;
            }
            h.advance_to(t * MS);
            while h.depart().is_some() {
                sent += 1;
            }
        }
        // Sends due at 0, 8, …, 1000 ms: 126 (COBALT's drops of packets
        // that waited cost no shaper time, as in Linux's egress mode).
        assert_eq!(sent, 126);
    }

    #[test]
    fn an_idle_shaper_restarts_at_now_without_a_burst() {
        let mut h = harness(&[], &[("rate_bps", 1e6)]);
        h.arrive_from(1, 1000);
        assert!(h.depart().is_some());
        h.advance_to(1000 * MS);
        h.arrive_n_from(10, 1, 1000);
        assert!(h.depart().is_some());
        assert!(h.depart().is_none(), "the next is 8 ms away");
        assert_eq!(h.wake_at, Some(1008 * MS), "and asks to be woken then");
    }

    #[test]
    fn a_shaper_rate_above_the_link_is_refused_naming_the_field() {
        let mut h = harness(&[], &[]);
        let err = h.q.set_param("rate_bps", 2e7).expect_err("10 Mb/s link");
        assert_eq!(err.param, "rate_bps");
        assert!(h.q.set_param("rate_bps", 1e7).is_ok());
        let text = dumbbell(5.0, 1e7, 10.0, 100, r#"{ "scheme": "cake", "params": { "rate_bps": 2e7 } }"#, TCP1);
        let err = crate::Scenario::from_json(&text).and_then(|s| s.plan()).expect_err("above the bottleneck");
        assert!(err.to_string().contains("queue.params.rate_bps"), "{err}");
    }

    #[test]
    fn a_low_rate_stretches_target_to_one_and_a_half_mtu_times() {
        // 1514 bytes at 1 Mb/s take 12.112 ms: target 18.168 ms, and the
        // interval grows by the same 13.168 ms.
        let setup = QueueSetup { limit: Limit::Packets(100), link_rate_bps: 10_000_000, hosts: &[] };
        let mut cake = Cake::new(&setup);
        cake.set_param("rate_bps", 1e6).unwrap();
        assert_eq!((cake.cobalt.target, cake.cobalt.interval), (18_168_000, 113_168_000));
        cake.set_param("rate_bps", 0.0).unwrap();
        assert_eq!((cake.cobalt.target, cake.cobalt.interval), (5 * MS, 100 * MS));
        // The memory limit: 4 × 10 Mb/s × 100 ms = 500 kB, so 4 MB.
        assert_eq!(cake.memory_limit, 4 << 20);
    }

    #[test]
    fn each_queue_runs_cobalt_and_an_overflow_steps_up_the_fattest_queues_blue() {
        // As fq_cobalt.rs: a standing queue in flow 1, one packet per ms
        // from flow 2; only flow 1 is dropped, first an interval after its
        // sojourn passes 5 ms, then closer (interval / √count).
        let mut h = harness(&[], &[]);
        let times = h.standing_queue_beside_a_light_flow();
        assert!(h.dropped.iter().all(|(p, r)| p.flow == 1 && *r == DropReason::Early));
        assert_eq!(times[0], 106, "{times:?}");
        assert!(times.windows(2).all(|w| w[1] - w[0] < 100), "{times:?}");
        assert_eq!(h.probe("max_p_drop"), 0.0);
        // A full buffer drops from the fattest queue and raises its BLUE.
        let mut full = Harness::new("cake", &[], Limit::Packets(10));
        full.advance_to(10 * MS);
        full.arrive_n_from(9, 1, 1000);
        full.arrive_from(2, 1000);
        full.arrive_from(2, 1000);
        assert_eq!(full.dropped.iter().map(|(p, _)| p.flow).collect::<Vec<_>>(), [1]);
        assert_eq!(full.probe("max_p_drop"), 1.0 / 256.0);
    }

    const TCP1: &str = r#"{ "kind": "tcp", "segment_bytes": 1000 }"#;

    /// `scenario` with its seed replaced by `seed`.
    fn seeded(scenario: &str, seed: u64) -> String {
        scenario.replacen(r#""seed": 1,"#, &format!(r#""seed": {seed},"#), 1)
    }

    #[test]
    fn the_hosts_are_the_addressing_plans_and_one_host_groups_share_theirs() {
        let flows =
            r#"{ "kind": "tcp", "count": 2 }, { "kind": "cbr", "count": 3, "one_host": true, "rate_bps": 1e6 }"#;
        let text = dumbbell(5.0, 1e7, 10.0, 100, r#"{ "scheme": "cake" }"#, flows);
        let plan = crate::Scenario::from_json(&text).and_then(|s| s.plan()).expect("valid");
        let ip = |a: [u8; 4]| u32::from_be_bytes(a);
        let hosts = plan.flow_hosts();
        assert_eq!(hosts[1], FlowHosts { sender: ip([10, 0, 0, 2]), receiver: ip([10, 0, 128, 2]) });
        assert!(hosts[2..]
            .iter()
            .all(|h| *h == FlowHosts { sender: ip([10, 1, 0, 1]), receiver: ip([10, 1, 128, 1]) }));
    }

    #[test]
    fn a_host_with_eight_flows_gets_what_a_host_with_one_gets() {
        // One TCP flow on host A, eight on host B (`one_host`), same RTT, on
        // 10 Mb/s: each host half the goodput within 10 %, on every seed.
        // The RTT is short (8 ms) so that A's lone flow keeps its queue busy
        // after halving its window (alone on 5 Mb/s it fills it). At 40 ms
        // it does not (it fills 86 % alone) and B, work-conserving, takes
        // the slack; B's small-window flows also keep emptying their queues
        // and return as sparse flows, which host loads do not count (Linux
        // alike): A gets 0.55 of B's goodput, 0.70 with CUBIC (docs/model.md,
        // "CAKE's host fairness"). The scheduler's split itself is the unit
        // test above.
        let flows = r#"{ "kind": "tcp", "label": "A", "segment_bytes": 1000, "access_delay_ms": 1, "start_s": [0, 1] },
                       { "kind": "tcp", "label": "B", "count": 8, "one_host": true, "segment_bytes": 1000,
                         "access_delay_ms": 1, "start_s": [0, 1] }"#;
        let text = |queue: &str| dumbbell(40.0, 1e7, 2.0, 1000, queue, flows);
        for seed in 1..=3 {
            let s = run(&seeded(&text(r#"{ "scheme": "cake" }"#), seed));
            let a = s.flows[0].goodput_bps;
            let b: f64 = s.flows[1..].iter().map(|f| f.goodput_bps).sum();
            assert!((a / b - 1.0).abs() < 0.1, "seed {seed}: A {a} vs B {b}");
            // Without triple isolation host B takes about 8/9.
            let flat = run(&seeded(&text(r#"{ "scheme": "cake", "params": { "host_isolation": false } }"#), seed));
            let a = flat.flows[0].goodput_bps;
            assert!(a < 0.2 * flat.flows.iter().map(|f| f.goodput_bps).sum::<f64>(), "seed {seed}: {a}");
        }
    }

    #[test]
    fn an_unresponsive_flow_gets_no_more_than_its_fair_share() {
        // Eight TCP flows and a 5 Mb/s CBR on 10 Mb/s: the CBR's fair share
        // is a ninth of the wire (1.11 Mb/s); it gets at most 1.6 times that,
        // and the TCP flows share the rest evenly (Jain ≥ 0.9), every seed.
        let flows = r#"{ "kind": "tcp", "count": 8, "segment_bytes": 1000, "access_delay_ms": [5, 15], "start_s": [0, 1] },
                       { "kind": "cbr", "rate_bps": 5000000, "packet_bytes": 1000, "start_s": [0, 1] }"#;
        let text = dumbbell(30.0, 1e7, 10.0, 1000, r#"{ "scheme": "cake" }"#, flows);
        for seed in 1..=3 {
            let s = run(&seeded(&text, seed));
            let cbr = s.flows.iter().find(|f| f.kind == "cbr").expect("a CBR flow").goodput_bps;
            assert!(cbr <= 1.6 * 1e7 / 9.0, "seed {seed}: {cbr}");
            assert!(s.fairness.jain_tcp.unwrap_or(0.0) >= 0.9, "seed {seed}: {:?}", s.fairness);
            assert!(s.utilization > 0.95, "seed {seed}: {}", s.utilization);
        }
    }

    #[test]
    fn each_decision_follows_its_queues_cobalt_and_names_its_queue_and_host_load() {
        // Host A: one TCP flow; host B: eight, and a 20 Mb/s CBR on a third
        // host. Each verdict follows the queue's COBALT (cobalt.rs), the
        // last packet of a queue is never dropped, and B's queues divide
        // the quantum among up to its eight bulk flows.
        let flows = r#"{ "kind": "tcp", "start_s": [0, 1], "access_delay_ms": 5 },
                       { "kind": "tcp", "count": 8, "one_host": true, "start_s": [0, 1], "access_delay_ms": 5 },
                       { "kind": "cbr", "rate_bps": 2e7, "start_s": [2, 3] }"#;
        let text = dumbbell(10.0, 1e7, 10.0, 200, r#"{ "scheme": "cake" }"#, flows);
        let (ds, fields, rules) = crate::queue::cobalt::tests::checked_decisions(&text);
        assert_eq!(fields, cobalt::CAKE_FIELDS.iter().map(|f| f.id).collect::<Vec<_>>());
        assert!(rules.codel > 20 && rules.blue > 20 && rules.passes > 20, "{rules:?}");
        let load = |d: &Decision| d.state.values()[11];
        let judged: Vec<&Decision> = ds.iter().filter(|d| !d.state.values().is_empty()).collect();
        assert!(
            judged.iter().filter(|d| !(1..=8).contains(&d.flow)).all(|d| load(d) == 1.0),
            "A and the CBR are alone on their hosts"
        );
        let b: Vec<f64> = judged.iter().filter(|d| (1..=8).contains(&d.flow)).map(|d| load(d)).collect();
        assert!(b.iter().all(|l| (1.0..=8.0).contains(l)) && b.iter().any(|l| *l > 1.0), "{b:?}");
    }
}
