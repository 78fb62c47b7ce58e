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
use super::prelude::*;
use crate::kernel::NS_PER_MS;

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
scheme_params! {
    /// COBALT's parameters, named as ns-3's attributes.
    pub struct CobaltParams {
        target: Nanos as ms = codel::TARGET,
        interval: Nanos as ms = codel::INTERVAL,
        increment: f64 = ParamSpec::number("BLUE increment", "", 0.0..=1.0, 0.0001, 1.0 / 256.0,
            "Added to p_drop when the buffer overflows or a packet waited past the BLUE threshold."),
        decrement: f64 = ParamSpec::number("BLUE decrement", "", 0.0..=1.0, 0.0001, 1.0 / 4096.0,
            "Taken from p_drop when a dequeue finds the queue empty."),
        blue_threshold: Nanos as ms = ParamSpec::number("BLUE threshold", "ms", 1.0..=10000.0, 1.0, 400.0,
            "A packet that waited longer than this raises p_drop, as an overflow does."),
        ecn: bool = ECN_PARAM.with_doc("CoDel marks ECN-capable packets instead of dropping them; BLUE always drops."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Cobalt::new(setup.limit), params)
}

/// The state a COBALT decision records: CoDel's as codel.rs records it
/// (count, dropping and drop_next as the packet found them, drop_next′
/// after it), then BLUE's p_drop and the draw (NaN when p_drop is 0 and
/// nothing is drawn).
pub const DECISION_FIELDS: &[FieldSpec] = &[
    codel::SOJOURN_FIELD,
    decision::TARGET,
    FieldSpec::new("count", "CoDel count as the packet found it", "count", "packets"),
    codel::DROPPING_FIELD,
    FieldSpec::new("due_s", "when CoDel's next drop was due", "drop_next", "s"),
    FieldSpec::new("next_drop_s", "CoDel's next drop after this packet", "drop_next′", "s"),
    codel::INTERVAL_FIELD,
    FieldSpec::new("p_drop", "BLUE drop probability", "p_drop", ""),
    FieldSpec::new("draw", "uniform random draw for BLUE", "u", ""),
];

/// CAKE's records: COBALT's, then whether the packet was its queue's last
/// (never dropped), the flow queue and its host load (quantum divisor).
pub const CAKE_FIELDS: &[FieldSpec] = &[
    DECISION_FIELDS[0],
    DECISION_FIELDS[1],
    DECISION_FIELDS[2],
    DECISION_FIELDS[3],
    DECISION_FIELDS[4],
    DECISION_FIELDS[5],
    DECISION_FIELDS[6],
    DECISION_FIELDS[7],
    DECISION_FIELDS[8],
    FieldSpec::new("last", "the queue's last packet (kept)", "last", "on/off"),
    FieldSpec::new("queue", "flow queue", "queue", ""),
    FieldSpec::new("host_load", "bulk flows of its busier host", "host_load", "flows"),
];

/// A CAKE flow queue as its COBALT sees it: where it is, for the records.
#[derive(Clone, Copy, Debug)]
pub struct CakeQueue {
    pub index: usize,
    pub host_load: u32,
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
    /// CAKE's `last` packet (its queue now empty) is never dropped: the state
    /// moves as for a drop, and CoDel may still mark it.
    fn judge(
        &mut self,
        pkt: Packet,
        cake: Option<CakeQueue>,
        last: bool,
        p: &CobaltParams,
        ctx: &mut QueueCtx,
    ) -> Option<Packet> {
        let now = ctx.now;
        let sojourn = now.saturating_sub(pkt.enqueued_at);
        self.sojourn = sojourn;
        let before = (self.count, self.dropping, self.drop_next);
        let (codel_signal, schedule) = self.codel_says_drop(sojourn, now, p);
        if sojourn > p.blue_threshold {
            self.blue_up(now, p);
        }
        let draw = if self.p_drop > 0.0 { ctx.rng.uniform() } else { f64::NAN };
        let blue_drop = draw < self.p_drop && !last;
        let mark = p.ecn && pkt.ecn_capable();
        let signal = codel_signal && (!last || mark);
        let dropped = blue_drop || signal && !mark;
        // drop_next doubles as an activity timeout while count is 0.
        if self.count == 0 {
            self.drop_next = now + p.interval;
        } else if schedule > 0 && !dropped {
            self.drop_next = now;
        }
        if ctx.recording() {
            let record = self.record(before, p, draw, cake.map(|c| (c, last)));
            ctx.note(&pkt, &record[..if cake.is_some() { CAKE_FIELDS.len() } else { DECISION_FIELDS.len() }]);
        }
        if blue_drop {
            ctx.drop(pkt, DropReason::Early);
            None
        } else if signal {
            ctx.drop_or_mark(pkt, DropReason::Early, p.ecn)
        } else {
            Some(pkt)
        }
    }

    /// The inspector's record ([`DECISION_FIELDS`], then CAKE's three):
    /// `before` is (count, dropping, drop_next) as the packet found them.
    fn record(
        &self,
        before: (u32, bool, Nanos),
        p: &CobaltParams,
        draw: f64,
        cake: Option<(CakeQueue, bool)>,
    ) -> [f64; 12] {
        let ms = |t: Nanos| t as f64 / NS_PER_MS as f64;
        let (count, dropping, due) = before;
        let (queue, host_load, last) = cake.map_or((f64::NAN, f64::NAN, f64::NAN), |(c, last)| {
            (c.index as f64, c.host_load as f64, last as u8 as f64)
        });
        [
            ms(self.sojourn),
            ms(p.target),
            count as f64,
            dropping as u8 as f64,
            crate::kernel::to_secs(due),
            crate::kernel::to_secs(self.drop_next),
            ms(p.interval),
            self.p_drop,
            draw,
            last,
            queue,
            host_load,
        ]
    }

    /// The packet to send next from `fifo`, dropping through `ctx`. For
    /// CAKE's `cake` queue the last packet is never dropped (Linux
    /// `cake_dequeue`; ns-3's COBALT drops it).
    pub fn dequeue(
        &mut self,
        fifo: &mut Fifo,
        cake: Option<CakeQueue>,
        p: &CobaltParams,
        ctx: &mut QueueCtx,
    ) -> Option<Packet> {
        loop {
            let Some(pkt) = fifo.pop() else {
                self.queue_empty(ctx.now, p);
                return None;
            };
            if let Some(pkt) = self.judge(pkt, cake, cake.is_some() && fifo.is_empty(), p, ctx) {
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
        self.state.dequeue(&mut self.fifo, None, &self.params, ctx)
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.params.set(id, value)
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.state.probe(out);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::queue::codel::tests::bufferbloat;
    use crate::queue::decision::{Decision, Reason, Verdict};
    use crate::queue::testing::Harness;
    use crate::sim::{SeriesMode, Simulation};
    use crate::testing::{dumbbell, run};

    /// Verdicts of one run's recorded COBALT decisions, by the rule that
    /// made them: (CoDel's drops, BLUE's drops, passes).
    #[derive(Debug, Default)]
    pub(crate) struct Rules {
        pub codel: usize,
        pub blue: usize,
        pub passes: usize,
    }

    /// Run `text` recording every decision and check each verdict against
    /// its recorded state: a drop exactly when BLUE's draw fell below p_drop
    /// or CoDel's drop was due (sojourn above target, count > 0, now at or
    /// past drop_next), never of CAKE's last packet; after a CoDel drop the
    /// next is interval/√count later. Returns the records and the tally.
    pub(crate) fn checked_decisions(text: &str) -> (Vec<Decision>, Vec<&'static str>, Rules) {
        let mut sim = Simulation::from_json(text, SeriesMode::default()).expect("valid scenario");
        sim.record_decisions(usize::MAX);
        sim.run();
        let fields: Vec<&str> = sim.decision_fields().iter().map(|f| f.id).collect();
        let ds = sim.take_decisions();
        let mut rules = Rules::default();
        let nanos = |s: f64| (s * 1e9).round() as Nanos;
        for d in ds.iter().filter(|d| !d.state.values().is_empty()) {
            let f = |id: &str| d.state.values()[fields.iter().position(|f| *f == id).expect("declared")];
            let (p_drop, draw, count) = (f("p_drop"), f("draw"), f("count"));
            assert_eq!(draw.is_nan(), p_drop == 0.0, "a draw exactly when p_drop > 0: {d:?}");
            let last = fields.contains(&"last") && f("last") == 1.0;
            let blue = draw < p_drop && !last;
            let due = f("sojourn_ms") > f("target_ms") && count > 0.0 && d.at >= nanos(f("due_s"));
            let interval = nanos(f("interval_ms") / 1e3);
            match d.verdict {
                Verdict::Pass => {
                    assert!(!blue && (!due || last), "a pass COBALT should have dropped: {d:?}");
                    rules.passes += 1;
                }
                Verdict::Mark => assert!(due && !blue, "a mark without CoDel's signal: {d:?}"),
                Verdict::Drop => {
                    assert_eq!(d.reason, Reason::Early, "{d:?}");
                    assert!(!last, "CAKE dropped its queue's last packet: {d:?}");
                    assert!(blue || due, "a drop neither BLUE nor CoDel called for: {d:?}");
                    if blue {
                        rules.blue += 1;
                    } else {
                        rules.codel += 1;
                    }
                }
            }
            if due && d.verdict == Verdict::Drop {
                let from =
                    if f("dropping") == 1.0 { nanos(f("due_s")) } else { control_law(d.at, interval, count as u32) };
                assert_eq!(nanos(f("next_drop_s")), control_law(from, interval, count as u32 + 1), "{d:?}");
            }
        }
        (ds, fields, rules)
    }

    #[test]
    fn each_decision_follows_codel_or_blue_from_its_recorded_state() {
        // Eight TCP flows and a 20 Mb/s CBR into 10 Mb/s, 200 packets of
        // buffer: CoDel's drops for the TCP flows, BLUE's once overflows
        // have raised p_drop.
        let flows = r#"{ "kind": "tcp", "count": 8, "start_s": [0, 1], "access_delay_ms": [1, 20] },
                       { "kind": "cbr", "rate_bps": 2e7, "start_s": [2, 3] }"#;
        let (_, fields, rules) = checked_decisions(&dumbbell(10.0, 1e7, 10.0, 200, r#"{ "scheme": "cobalt" }"#, flows));
        assert_eq!(fields, DECISION_FIELDS.iter().map(|f| f.id).collect::<Vec<_>>());
        assert!(rules.codel > 20 && rules.blue > 20 && rules.passes > 20, "{rules:?}");
    }

    const MS: Nanos = NS_PER_MS;
    const INC: f64 = 1.0 / 256.0;
    const DEC: f64 = 1.0 / 4096.0;

    #[test]
    fn blue_raises_p_drop_on_overflow_at_most_once_per_target() {
        let mut h = Harness::new("cobalt", &[], Limit::Packets(5));
        h.advance_to(10 * MS);
        h.arrive_n(8, 1000);
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
        h.arrive_n(1000, 1000);
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
        h.arrive_n(1000, 1000);
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
