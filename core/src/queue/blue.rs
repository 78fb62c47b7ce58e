//! BLUE (Feng, Kandlur, Saha & Shin, "BLUE: A New Class of Active Queue
//! Management Algorithms", U. Michigan CSE-TR-387-99, 1999; "The BLUE
//! Active Queue Management Algorithms", IEEE/ACM ToN 10(4), 2002, §IV).
//!
//! One marking probability p_m, learnt from loss and idleness instead of
//! the queue length:
//!   packet loss (buffer overflow), or queue > L:
//!       if now − last_update > freeze_time: p_m += d1, last_update = now
//!   link idle:
//!       if now − last_update > freeze_time: p_m −= d2, last_update = now
//! Every arrival is dropped (or ECN-marked) with probability p_m.
//! d1 ≫ d2 so that p_m climbs fast when the load outgrows the link and
//! decays slowly; freeze_time spaces the updates so that each one can take
//! effect before the next.
//!
//! Defaults d1 = 0.0025, d2 = 0.00025, freeze_time = 100 ms: those of the
//! ns-3 port (NITK's BlueQueueDisc) of Feng's ns-1.1 model, and one of the
//! configurations of the paper's evaluation, which also runs d1 = 0.02,
//! d2 = 0.002 and a 10 ms freeze_time.
//!
//! Choices where the paper leaves room:
//! - L is given as a fraction of the buffer; 1 (the default) means p_m
//!   rises only on overflow, the paper's basic algorithm.
//! - "Link idle" is a state, not just the moment the queue empties: while the
//!   link stays idle the event repeats once per freeze_time (by a wake-up),
//!   so p_m also decays when no packet arrives at all.

use super::prelude::*;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "blue",
    name: "BLUE",
    paper: "Feng, Kandlur, Saha & Shin, BLUE: A New Class of Active Queue Management Algorithms, CSE-TR-387-99, 1999",
    summary: "Raises the drop probability on buffer overflow, lowers it when the link goes idle.",
    params: BlueParams::SPECS,
    probes: &[ProbeSpec::number("p_m", "marking probability p_m", "")],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// BLUE's parameters.
    pub struct BlueParams {
        d1: f64 = ParamSpec::number("increment d1", "", 0.0..=1.0, 0.0005, 0.0025,
            "Added to p_m on each buffer overflow (at most once per freeze time)."),
        d2: f64 = ParamSpec::number("decrement d2", "", 0.0..=1.0, 0.00005, 0.00025,
            "Taken from p_m while the link is idle (at most once per freeze time)."),
        freeze_time: Nanos as ms = ParamSpec::number("freeze time", "ms", 0.0..=10000.0, 1.0, 100.0,
            "Minimum time between two changes of p_m."),
        l_fraction: f64 = ParamSpec::number("L (fraction of buffer)", "", 0.01..=1.0, 0.01, 1.0,
            "Raise p_m already when the queue exceeds this share of the buffer; 1 = on overflow only."),
        ecn: bool = ECN_PARAM,
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Blue::new(setup.limit), params)
}

pub struct Blue {
    limit: Limit,
    fifo: Fifo,
    p: BlueParams,
    p_m: f64,
    /// Time of the last change of p_m; None before the first.
    last_update: Option<Nanos>,
    /// The link found nothing to send and has not been given a packet since.
    idle: bool,
    /// The wake-up asked for and not yet delivered.
    wake: Option<Nanos>,
}

impl Blue {
    pub fn new(limit: Limit) -> Blue {
        Blue {
            limit,
            fifo: Fifo::default(),
            p: BlueParams::default(),
            p_m: 0.0,
            last_update: None,
            idle: true,
            wake: None,
        }
    }

    fn thawed(&self, now: Nanos) -> bool {
        self.last_update.is_none_or(|t| now - t > self.p.freeze_time)
    }

    /// Packet loss or queue above L.
    fn congestion_event(&mut self, now: Nanos) {
        if self.thawed(now) {
            self.p_m = (self.p_m + self.p.d1).min(1.0);
            self.last_update = Some(now);
        }
    }

    /// The link is idle; ask to be woken when the next decrement is allowed.
    fn idle_event(&mut self, ctx: &mut QueueCtx) {
        if self.thawed(ctx.now) && self.p_m > 0.0 {
            self.p_m = (self.p_m - self.p.d2).max(0.0);
            self.last_update = Some(ctx.now);
        }
        if self.p_m > 0.0 {
            let thaw = self.last_update.map_or(ctx.now, |t| t + self.p.freeze_time + 1).max(ctx.now + 1);
            // One chain of wake-ups, however many idle periods start meanwhile.
            if self.wake.is_none_or(|w| w > thaw) {
                self.wake = Some(thaw);
                ctx.wake_at(thaw);
            }
        }
    }
}

/// The state a decision records, in the order `enqueue` notes it.
pub const DECISION_FIELDS: &[FieldSpec] =
    &[FieldSpec::new("p_m", "marking probability", "p_m", ""), decision::QUEUE_FOUND, decision::DRAW];

impl Qdisc for Blue {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if self.fifo.is_full_for(self.limit, pkt.size_bytes) {
            self.congestion_event(ctx.now);
            return ctx.drop(pkt, DropReason::Overflow);
        }
        let q = self.limit.measure(self.fifo.len(), self.fifo.bytes());
        if self.p.l_fraction < 1.0 && q > self.p.l_fraction * self.limit.capacity() as f64 {
            self.congestion_event(ctx.now);
        }
        let uniform = ctx.rng.uniform();
        if ctx.recording() {
            ctx.note(&pkt, &[self.p_m, q, uniform]);
        }
        let pkt = if uniform < self.p_m {
            match ctx.drop_or_mark(pkt, DropReason::Early, self.p.ecn) {
                Some(marked) => marked,
                None => return,
            }
        } else {
            pkt
        };
        self.idle = false;
        self.fifo.push(pkt);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        let pkt = self.fifo.pop();
        if pkt.is_none() && !self.idle {
            self.idle = true;
            self.idle_event(ctx);
        }
        pkt
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        if self.wake.is_some_and(|w| w <= ctx.now) {
            self.wake = None;
        }
        if self.idle && self.fifo.is_empty() {
            self.idle_event(ctx);
        }
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        self.p.set(id, v)
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("p_m", self.p_m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{NS_PER_MS, NS_PER_S};
    use crate::queue::testing::Harness;
    use crate::sim::{SeriesMode, Simulation};
    use crate::testing::dumbbell;

    const MS: Nanos = NS_PER_MS;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// A Harness with a 2-packet buffer, already full.
    fn full() -> Harness {
        let mut h = Harness::new("blue", &[], Limit::Packets(2));
        h.arrive(1000);
        h.arrive(1000);
        h
    }

    #[test]
    fn overflow_raises_p_m_by_d1_at_most_once_per_freeze_time() {
        let mut h = full();
        h.arrive(1000);
        assert_eq!(h.drops(DropReason::Overflow), 1);
        assert!(close(h.probe("p_m"), 0.0025));
        for t in [1, 50, 100] {
            h.advance_to(t * MS);
            h.arrive(1000);
            assert!(close(h.probe("p_m"), 0.0025), "frozen at {t} ms: only strictly after freeze_time");
        }
        h.advance_to(100 * MS + 1);
        h.arrive(1000);
        assert!(close(h.probe("p_m"), 0.005));
        assert_eq!(h.drops(DropReason::Overflow), 5);
    }

    #[test]
    fn the_queue_exceeding_l_counts_as_congestion() {
        let mut h = Harness::new("blue", &[("l_fraction", 0.5)], Limit::Packets(10));
        h.arrive_n(6, 1000);
        assert_eq!(h.probe("p_m"), 0.0, "5 queued is not above L = 5");
        h.arrive(1000);
        assert!(close(h.probe("p_m"), 0.0025));
        assert!(h.dropped.is_empty(), "the packet itself is queued");
    }

    #[test]
    fn an_idle_link_lowers_p_m_by_d2_per_freeze_time() {
        let mut h = Harness::new("blue", &[("d1", 0.1), ("d2", 0.01)], Limit::Packets(1));
        h.arrive(1000);
        h.arrive(1000);
        assert!(close(h.probe("p_m"), 0.1));
        // Idle 50 ms later: still frozen; the decrement waits for the thaw.
        h.advance_to(50 * MS);
        h.depart();
        assert_eq!(h.depart().map(|p| p.flow), None);
        assert!(close(h.probe("p_m"), 0.1));
        assert_eq!(h.wake_at, Some(100 * MS + 1));
        // Then one d2 per freeze_time (+1 ns, the test is strict) while idle.
        h.advance_to(100 * MS + 1);
        assert!(close(h.probe("p_m"), 0.09));
        h.advance_to(500 * MS);
        assert!(close(h.probe("p_m"), 0.06), "{}", h.probe("p_m"));
        h.advance_to(2000 * MS);
        assert_eq!(h.probe("p_m"), 0.0);
        assert_eq!(h.wake_at, None, "no wake-ups once p_m is 0");
    }

    #[test]
    fn arrivals_are_dropped_or_marked_with_p_m() {
        let mut h = Harness::new("blue", &[("d1", 0.3)], Limit::Packets(1));
        h.arrive(1000);
        h.arrive(1000);
        h.depart();
        let before = h.dropped.len();
        for _ in 0..10_000 {
            h.arrive(1000);
            h.depart();
        }
        let share = (h.drops(DropReason::Early) - before) as f64 / 10_000.0;
        assert!((share - 0.3).abs() < 0.015, "{share}");
        let mut ecn = Harness::new("blue", &[("d1", 0.3), ("ecn", 1.0)], Limit::Packets(1));
        ecn.ect = true;
        ecn.arrive(1000);
        ecn.arrive(1000);
        ecn.depart();
        for _ in 0..10_000 {
            ecn.arrive(1000);
            ecn.depart();
        }
        assert_eq!(ecn.drops(DropReason::Early), 0);
        assert!((ecn.marks as f64 / 10_000.0 - 0.3).abs() < 0.015);
    }

    #[test]
    fn p_m_learns_the_overload_and_forgets_it_when_the_load_goes() {
        // A 15 Mb/s CBR into 10 Mb/s for 20 s, then only a 100 kb/s trickle.
        // Without loss the link takes (1 − p_m)·15 ≤ 10 Mb/s: p_m ≥ 1/3, and
        // BLUE settles just there, where the queue now overflows, now idles.
        // The paper's faster configuration: d1 = 0.02, d2 = 0.002.
        let flows = r#"{ "kind": "cbr", "rate_bps": 15000000, "packet_bytes": 972, "stop_s": 20 },
                       { "kind": "cbr", "rate_bps": 100000, "packet_bytes": 972 }"#;
        let queue = r#"{ "scheme": "blue", "params": { "d1": 0.02, "d2": 0.002 } }"#;
        let text = dumbbell(30.0, 1e7, 10.0, 100, queue, flows);
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid");
        let p_m = |sim: &Simulation| sim.probe()[0].1;
        sim.advance_to(2 * NS_PER_S);
        assert!(p_m(&sim) >= 0.3, "17 increments at most 10 per second: {}", p_m(&sim));
        let mut lo: f64 = 1.0;
        let mut hi: f64 = 0.0;
        for t in 5..=20 {
            sim.advance_to(t * NS_PER_S);
            lo = lo.min(p_m(&sim));
            hi = hi.max(p_m(&sim));
        }
        // It only climbs past 1/3 by one d1 from below it, and only falls
        // under 1/3 until the next overflow: within ±d1 of 1/3.
        assert!(lo > 1.0 / 3.0 - 0.02 && hi < 1.0 / 3.0 + 0.02, "p_m in [{lo}, {hi}]");
        let at_stop = p_m(&sim);
        // Load gone: the link idles, one d2 every freeze_time (100 ms): −0.02/s.
        sim.advance_to(30 * NS_PER_S);
        let fell = at_stop - p_m(&sim);
        assert!((fell - 0.2).abs() < 0.0021, "p_m fell by {fell} in 10 s");
        // Meanwhile the link stayed busy: from 7.5 to 20 s of the 22.5 s
        // window the CBR got all that the trickle left.
        let s = sim.summary();
        let want = (10e6 - 0.1e6) * 972.0 / 1000.0 * 12.5 / 22.5;
        assert!((s.flows[0].goodput_bps / want - 1.0).abs() < 0.02, "{} vs {want}", s.flows[0].goodput_bps);
    }
}
