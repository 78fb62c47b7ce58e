//! COBALT — CoDel and BLUE Alternate (Høiland-Jørgensen, Täht & Morton,
//! "Piece of CAKE", IEEE LANMAN 2018, §III-C; Linux `sch_cake`'s cobalt.c,
//! ns-3 `CobaltQueueDisc`).
//!
//! Two controllers judge each packet at dequeue, with its sojourn time s:
//! CoDel, for responsive flows (RFC 8289's control law, codel.rs):
//!   s > target: enter dropping, drop_next = now + interval/√count (count ≥ 1)
//!   s ≤ target: leave dropping
//!   dropping and now ≥ drop_next: drop (or mark), count += 1,
//!     drop_next += interval/√count
//!   not dropping: while count > 0 and now ≥ drop_next: count −= 1,
//!     drop_next += interval/√count (count decays instead of resetting)
//! BLUE, for unresponsive ones (Feng et al. 2001, blue.rs), on p_drop:
//!   buffer full, or s > blue_threshold: p_drop += increment
//!   dequeue finds the queue empty: p_drop −= decrement
//!   (each at most once per target); drop each packet with p_drop, never mark.
//! A full buffer drops the arrival and also puts CoDel in dropping state
//!   with drop_next = now.
//! Defaults (ns-3 `CobaltQueueDisc`): target 5 ms, interval 100 ms,
//! increment 1/256, decrement 1/4096, BLUE threshold 400 ms, ECN off.
//!
//! Choices where the sources leave room:
//! - interval/√count in floating point, as CoDel here, where Linux and
//!   ns-3 use a Newton-iterated fixed-point reciprocal square root.
//! - A BLUE drop of a packet CoDel would have marked is a drop only (ns-3
//!   marks it, then drops it).
//! - CoDel's one-MTU-left rule is absent, as in cobalt.c.

use super::codel::{self, control_law};
use super::scheme::{configured, scheme_params, ParamValues, SchemeInfo};
use super::{
    DropReason, Fifo, Limit, ParamError, ParamSpec, ProbeSink, ProbeSpec, Qdisc, QueueCtx, QueueSetup, ECN_PARAM,
};
use crate::kernel::{ms, Nanos, NS_PER_MS};
use crate::net::Packet;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "cobalt",
    name: "COBALT",
    paper: "Høiland-Jørgensen, Täht & Morton, Piece of CAKE: A Comprehensive Queue Management Solution for Home \
            Gateways, IEEE LANMAN 2018, §III-C",
    summary:
        "CoDel for responsive flows, with BLUE raising a drop probability when the queue overflows or waits too long.",
    params: CobaltParams::SPECS,
    probes: &PROBES,
    build,
    cross_check: codel::cross_check,
    model: None,
};

/// COBALT's probes; FQ-COBALT and CAKE show the largest p_drop of their queues.
const PROBES: [ProbeSpec; 4] = [
    ProbeSpec::number("p_drop", "BLUE drop probability", ""),
    ProbeSpec::number("count", "CoDel count", "packets"),
    ProbeSpec::switch("dropping", "CoDel dropping state"),
    ProbeSpec::number("sojourn", "sojourn time of the last packet sent", "ms"),
];

// FQ-COBALT and CAKE run these per flow queue.
pub(crate) const INCREMENT: ParamSpec = ParamSpec::number(
    "BLUE increment",
    "",
    0.0..=1.0,
    0.0001,
    1.0 / 256.0,
    "Added to p_drop when the buffer overflows or a packet waited past the BLUE threshold.",
);
pub(crate) const DECREMENT: ParamSpec = ParamSpec::number(
    "BLUE decrement",
    "",
    0.0..=1.0,
    0.0001,
    1.0 / 4096.0,
    "Taken from p_drop when a dequeue finds the queue empty.",
);
pub(crate) const BLUE_THRESHOLD: ParamSpec = ParamSpec::number(
    "BLUE threshold",
    "ms",
    1.0..=10000.0,
    1.0,
    400.0,
    "A packet that waited longer than this raises p_drop, as an overflow does.",
);

scheme_params! {
    /// COBALT's parameters, named as ns-3's attributes.
    pub struct CobaltParams {
        target: Nanos as ms = codel::TARGET,
        interval: Nanos as ms = codel::INTERVAL,
        increment: f64 = INCREMENT,
        decrement: f64 = DECREMENT,
        blue_threshold: Nanos as ms = BLUE_THRESHOLD,
        ecn: bool = ECN_PARAM.with_doc("CoDel marks ECN-capable packets instead of dropping them; BLUE always drops."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Cobalt::new(setup.limit), params)
}

/// One queue's COBALT state: CoDel's and BLUE's.
#[derive(Clone, Debug, Default)]
pub struct CobaltState {
    count: u32,
    dropping: bool,
    drop_next: Nanos,
    pub(crate) p_drop: f64,
    last_blue_update: Nanos,
    /// Sojourn time of the last packet judged.
    sojourn: Nanos,
}

/// `now` is more than `b` after `since`.
fn after(now: Nanos, since: Nanos, b: Nanos) -> bool {
    now as i64 - since as i64 > b as i64
}

impl CobaltState {
    /// BLUE: raise p_drop, at most once per target.
    fn blue_up(&mut self, now: Nanos, p: &CobaltParams) {
        if after(now, self.last_blue_update, p.target) {
            self.p_drop = (self.p_drop + p.increment).min(1.0);
            self.last_blue_update = now;
        }
    }

    /// The buffer was full at `now` (cobalt_queue_full).
    pub fn queue_full(&mut self, now: Nanos, p: &CobaltParams) {
        self.blue_up(now, p);
        self.dropping = true;
        self.drop_next = now;
        self.count = self.count.max(1);
    }

    /// A dequeue found the queue empty at `now` (cobalt_queue_empty).
    fn queue_empty(&mut self, now: Nanos, p: &CobaltParams) {
        if self.p_drop > 0.0 && after(now, self.last_blue_update, p.target) {
            self.p_drop = (self.p_drop - p.decrement).max(0.0);
            self.last_blue_update = now;
        }
        self.dropping = false;
        if self.count > 0 && now >= self.drop_next {
            self.count -= 1;
            self.drop_next = control_law(self.drop_next, p.interval, self.count);
        }
    }

    /// Nothing left to decay at `now`: no BLUE probability, no CoDel count
    /// and its activity timeout passed (CAKE then forgets the queue).
    pub fn at_rest(&self, now: Nanos) -> bool {
        self.p_drop == 0.0 && self.count == 0 && now >= self.drop_next
    }

    /// CoDel's verdict on a packet that waited `sojourn`: signal it? (cobalt_should_drop)
    fn codel_says_drop(&mut self, sojourn: Nanos, now: Nanos, p: &CobaltParams) -> (bool, i64) {
        let mut schedule = now as i64 - self.drop_next as i64;
        let mut next_due = self.count > 0 && schedule >= 0;
        if sojourn > p.target {
            if !self.dropping {
                self.dropping = true;
                self.drop_next = control_law(now, p.interval, self.count);
            }
            self.count = self.count.max(1);
        } else {
            self.dropping = false;
        }
        if next_due && self.dropping {
            self.count = self.count.saturating_add(1);
            self.drop_next = control_law(self.drop_next, p.interval, self.count);
            return (true, now as i64 - self.drop_next as i64);
        }
        while next_due {
            self.count -= 1;
            self.drop_next = control_law(self.drop_next, p.interval, self.count);
            schedule = now as i64 - self.drop_next as i64;
            next_due = self.count > 0 && schedule >= 0;
        }
        (false, schedule)
    }

    /// Judge the packet leaving now: it, maybe marked, or None when dropped.
    fn judge(&mut self, pkt: Packet, p: &CobaltParams, ctx: &mut QueueCtx) -> Option<Packet> {
        let now = ctx.now;
        let sojourn = now.saturating_sub(pkt.enqueued_at);
        self.sojourn = sojourn;
        let (codel_signal, schedule) = self.codel_says_drop(sojourn, now, p);
        if sojourn > p.blue_threshold {
            self.blue_up(now, p);
        }
        let blue_drop = self.p_drop > 0.0 && ctx.rng.uniform() < self.p_drop;
        let pkt = if blue_drop {
            ctx.drop(pkt, DropReason::Early);
            None
        } else if codel_signal {
            ctx.drop_or_mark(pkt, DropReason::Early, p.ecn)
        } else {
            Some(pkt)
        };
        // drop_next doubles as an activity timeout while count is 0.
        if self.count == 0 {
            self.drop_next = now + p.interval;
        } else if schedule > 0 && pkt.is_some() {
            self.drop_next = now;
        }
        pkt
    }

    /// The packet to send next from `fifo`, dropping through `ctx`.
    pub fn dequeue(&mut self, fifo: &mut Fifo, p: &CobaltParams, ctx: &mut QueueCtx) -> Option<Packet> {
        loop {
            let Some(pkt) = fifo.pop() else {
                self.queue_empty(ctx.now, p);
                return None;
            };
            if let Some(pkt) = self.judge(pkt, p, ctx) {
                return Some(pkt);
            }
        }
    }

    pub fn probe(&self, out: &mut ProbeSink) {
        out.put("p_drop", self.p_drop);
        out.put("count", self.count as f64);
        out.put("dropping", self.dropping as u8 as f64);
        out.put("sojourn", self.sojourn as f64 / NS_PER_MS as f64);
    }
}

pub struct Cobalt {
    limit: Limit,
    params: CobaltParams,
    state: CobaltState,
    fifo: Fifo,
}

impl Cobalt {
    pub fn new(limit: Limit) -> Cobalt {
        Cobalt { limit, params: CobaltParams::default(), state: CobaltState::default(), fifo: Fifo::default() }
    }
}

impl Qdisc for Cobalt {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if self.fifo.is_full_for(self.limit, pkt.size_bytes) {
            self.state.queue_full(ctx.now, &self.params);
            ctx.drop(pkt, DropReason::Overflow);
        } else {
            self.fifo.push(pkt);
        }
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        self.state.dequeue(&mut self.fifo, &self.params, ctx)
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.params.set(id, value)
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.state.probe(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::codel::tests::bufferbloat;
    use crate::queue::testing::Harness;
    use crate::testing::run;

    const MS: Nanos = NS_PER_MS;
    const INC: f64 = 1.0 / 256.0;
    const DEC: f64 = 1.0 / 4096.0;

    #[test]
    fn blue_raises_p_drop_on_overflow_at_most_once_per_target() {
        let mut h = Harness::new("cobalt", &[], Limit::Packets(5));
        h.advance_to(10 * MS);
        for _ in 0..8 {
            h.arrive(1000);
        }
        assert_eq!(h.drops(DropReason::Overflow), 3);
        assert_eq!(h.probe("p_drop"), INC, "three overflows within target: one step");
        assert_eq!(h.probe("dropping"), 1.0, "an overflow also starts CoDel's dropping state");
        h.advance_to(15 * MS);
        h.arrive(1000);
        assert_eq!(h.probe("p_drop"), INC, "exactly target later: not yet");
        h.advance_to(15 * MS + 1);
        h.arrive(1000);
        assert_eq!(h.probe("p_drop"), 2.0 * INC);
    }

    #[test]
    fn blue_lowers_p_drop_when_a_dequeue_finds_the_queue_empty() {
        let mut h = Harness::new("cobalt", &[], Limit::Packets(1));
        h.advance_to(10 * MS);
        h.arrive(1000);
        h.arrive(1000);
        assert_eq!(h.probe("p_drop"), INC);
        // The queued packet leaves (BLUE may drop it); the next dequeue finds
        // the queue empty, but within target of the last change: no step.
        h.depart();
        h.advance_to(14 * MS);
        h.depart();
        assert_eq!(h.probe("p_drop"), INC);
        h.advance_to(20 * MS);
        assert!(h.depart().is_none());
        assert_eq!(h.probe("p_drop"), INC - DEC);
        h.depart();
        assert_eq!(h.probe("p_drop"), INC - DEC, "again within target");
    }

    #[test]
    fn blue_raises_p_drop_for_packets_past_the_blue_threshold() {
        // One packet sent every 10 ms from a queue of 1000: waits grow by
        // about 10 ms each; beyond 400 ms each dequeue at least a target
        // after the last step adds one increment.
        let mut h = Harness::new("cobalt", &[], Limit::Packets(10_000));
        for _ in 0..1000 {
            h.arrive(1000);
        }
        let mut steps = 0;
        for t in 1..=60 {
            h.advance_to(t * 10 * MS);
            let before = h.probe("p_drop");
            h.depart();
            if h.probe("p_drop") > before {
                assert!(h.probe("sojourn") > 400.0);
                steps += 1;
            }
        }
        // Sojourns pass 400 ms at the 41st dequeue (410 ms): 20 steps to 600 ms.
        assert_eq!(steps, 20);
        assert!((h.probe("p_drop") - 20.0 * INC).abs() < 1e-12);
    }

    #[test]
    fn codel_drops_follow_interval_over_sqrt_count_and_count_decays() {
        // A standing queue: 1000 packets at 0, then one arrival and one
        // departure each ms. Sojourns pass 5 ms at 6 ms; the first drop is
        // one interval later, then interval/√count apart.
        let mut h = Harness::new("cobalt", &[], Limit::Packets(100_000));
        for _ in 0..1000 {
            h.arrive(1000);
        }
        let mut drops = Vec::new();
        for t in 1..=400u64 {
            h.advance_to(t * MS);
            h.arrive(1000);
            let before = h.dropped.len();
            h.depart();
            drops.extend(std::iter::repeat_n(t, h.dropped.len() - before));
        }
        let mut want = vec![106u64];
        let (mut next, mut count) = (106.0 * MS as f64, 2u32);
        loop {
            next += (100.0 * MS as f64 / (count as f64).sqrt()).round();
            let at = (next / MS as f64).ceil() as u64;
            if at > 400 {
                break;
            }
            want.push(at);
            count += 1;
        }
        assert_eq!(drops, want);
        assert!(h.dropped.iter().all(|(_, r)| *r == DropReason::Early));
        // Drained, the dropping state ends; count then falls by one at each
        // dequeue of the empty queue at least interval/√count apart,
        // instead of resetting as CoDel's does.
        h.advance_to(2000 * MS);
        while h.depart().is_some() {}
        assert_eq!(h.probe("dropping"), 0.0);
        let mut last = h.probe("count");
        assert!(last > 20.0, "{last}");
        for t in 0..20 {
            h.advance_to((3000 + 200 * t) * MS);
            h.depart();
            assert_eq!(h.probe("count"), last - 1.0);
            last = h.probe("count");
        }
    }

    #[test]
    fn blue_holds_an_unresponsive_flood_that_codel_cannot() {
        // Ten TCP flows and a 20 Mb/s CBR into 10 Mb/s with 1000 packets of
        // buffer. CoDel's drops at interval/√count cannot keep up: the buffer
        // fills. COBALT's BLUE, raised by each overflow, drops at dequeue until
        // the queue stops overflowing.
        let cbr = r#", { "kind": "cbr", "rate_bps": 20000000, "packet_bytes": 1000, "start_s": [0, 1] }"#;
        let codel = run(&bufferbloat(r#"{ "scheme": "codel" }"#, false, cbr));
        let cobalt = run(&bufferbloat(r#"{ "scheme": "cobalt" }"#, false, cbr));
        assert!(codel.queue.mean_packets > 900.0, "{:?}", codel.queue);
        assert!(cobalt.queue.mean_packets < 0.5 * codel.queue.mean_packets, "{:?}", cobalt.queue);
        assert!(cobalt.utilization > 0.99, "{}", cobalt.utilization);
    }
}
