//! A bench for driving one scheme by hand in unit tests: arrivals and
//! departures at chosen times, with drops and marks counted.

use super::scheme::ParamValues;
use super::{find_scheme, DropReason, Limit, ProbeSink, Qdisc, QueueCtx, QueueOutcome, QueueSetup, SchemeInfo};
use crate::kernel::{ms, Nanos, Rng, NS_PER_MS};
use crate::net::{Dir, Ecn, FlowId, Packet, PacketKind};

pub struct Harness {
    pub info: &'static SchemeInfo,
    pub q: Box<dyn Qdisc>,
    pub now: Nanos,
    pub rng: Rng,
    pub dropped: Vec<(Packet, DropReason)>,
    pub marks: u64,
    pub wake_at: Option<Nanos>,
    /// Arrivals are ECN-capable.
    pub ect: bool,
    /// Flow id given to arrivals by [`Harness::arrive`].
    pub flow: FlowId,
}

impl Harness {
    pub fn new(scheme: &str, params: &[(&str, f64)], limit: Limit) -> Harness {
        Harness::with_rate(scheme, params, limit, 10_000_000)
    }

    pub fn with_rate(scheme: &str, params: &[(&str, f64)], limit: Limit, link_rate_bps: u64) -> Harness {
        let info = find_scheme(scheme).expect("known scheme");
        let mut values = ParamValues::defaults(info, limit);
        for (id, v) in params {
            assert!(values.set(id, *v), "{scheme} has no parameter {id}");
        }
        let q = (info.build)(&QueueSetup { limit, link_rate_bps, hosts: &[] }, &values);
        Harness {
            info,
            q,
            now: 0,
            rng: Rng::stream(1, "harness"),
            dropped: Vec::new(),
            marks: 0,
            wake_at: None,
            ect: false,
            flow: 0,
        }
    }

    /// A RED-family `scheme` whose average is the queue each arrival finds
    /// (w_q = 1) and which marks instead of dropping early (ECN on), after
    /// `n` ECN-capable 1000-byte arrivals at once; `params` set the rest.
    pub fn red_marking_burst(scheme: &str, params: &[(&str, f64)], limit: Limit, n: usize) -> Harness {
        let mut h = Harness::new(scheme, &[params, &[("w_q", 1.0), ("ecn", 1.0)]].concat(), limit);
        h.ect = true;
        h.arrive_n(n, 1000);
        h
    }

    fn settle(&mut self, out: QueueOutcome) {
        self.marks += out.marks.len() as u64;
        self.dropped.extend(out.drops);
        if let Some(w) = out.wake_at {
            self.wake_at = Some(self.wake_at.map_or(w, |current| current.min(w)));
        }
    }

    pub fn packet(&self, flow: FlowId, size: u32) -> Packet {
        let mut p = Packet::new(flow, PacketKind::Data, Dir::Forward, size, size);
        p.ecn = if self.ect { Ecn::Ect0 } else { Ecn::NotEct };
        p.enqueued_at = self.now;
        p.sent_at = self.now;
        p
    }

    pub fn offer(&mut self, pkt: Packet) {
        let mut out = QueueOutcome::default();
        self.q.enqueue(pkt, &mut QueueCtx::new(self.now, &mut self.rng, &mut out));
        self.settle(out);
    }

    pub fn arrive(&mut self, size: u32) {
        self.offer(self.packet(self.flow, size));
    }

    /// `n` arrivals of `size` bytes at the current time.
    pub fn arrive_n(&mut self, n: usize, size: u32) {
        for _ in 0..n {
            self.arrive(size);
        }
    }

    pub fn arrive_from(&mut self, flow: FlowId, size: u32) {
        self.offer(self.packet(flow, size));
    }

    /// `n` arrivals of flow `flow`, `size` bytes each, at the current time.
    pub fn arrive_n_from(&mut self, n: usize, flow: FlowId, size: u32) {
        for _ in 0..n {
            self.arrive_from(flow, size);
        }
    }

    pub fn depart(&mut self) -> Option<Packet> {
        let mut out = QueueOutcome::default();
        let p = self.q.dequeue(&mut QueueCtx::new(self.now, &mut self.rng, &mut out));
        self.settle(out);
        p
    }

    /// Move the clock, delivering the wake-up the scheme asked for if it falls due.
    pub fn advance_to(&mut self, t: Nanos) {
        while let Some(w) = self.wake_at.filter(|w| *w <= t) {
            self.now = self.now.max(w);
            self.wake_at = None;
            let mut out = QueueOutcome::default();
            self.q.on_wake(&mut QueueCtx::new(self.now, &mut self.rng, &mut out));
            self.settle(out);
        }
        self.now = self.now.max(t);
    }

    pub fn advance_ms(&mut self, v: f64) {
        self.advance_to(self.now + ms(v));
    }

    pub fn probe(&self, id: &str) -> f64 {
        let mut out = vec![0.0; self.info.probes.len()];
        self.q.probe(&mut ProbeSink::new(self.info.probes, &mut out));
        let i = self.info.probes.iter().position(|p| p.id == id).expect("known probe");
        out[i]
    }

    /// A standing queue beside a light flow, as the flow-queuing schemes'
    /// tests drive it: 1000 packets of flow 1 at 0, then each ms for 300 ms
    /// one arrival from flows 1 and 2 and two departures. The ms of each
    /// drop, in order (a ms twice for two drops in it).
    pub fn standing_queue_beside_a_light_flow(&mut self) -> Vec<u64> {
        self.arrive_n_from(1000, 1, 1000);
        let mut times = Vec::new();
        for t in 1..=300 {
            self.advance_to(t * NS_PER_MS);
            self.arrive_from(1, 1000);
            self.arrive_from(2, 1000);
            let before = self.dropped.len();
            self.depart();
            self.depart();
            times.extend(std::iter::repeat_n(t, self.dropped.len() - before));
        }
        times
    }

    pub fn drops(&self, reason: DropReason) -> usize {
        self.dropped.iter().filter(|(_, r)| *r == reason).count()
    }
}
