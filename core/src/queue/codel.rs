//! CoDel — Controlled Delay (Nichols, Jacobson, McGregor & Iyengar, RFC 8289).
//!
//! Every packet's sojourn time (now − enqueued_at) is checked as it leaves
//! the queue (§3.1; `dodequeue` of the §5 pseudocode):
//!   sojourn < target, or at most one MTU left queued (§4.1)  → "below"
//!   above target without a break for a whole interval        → ok_to_drop
//! Not dropping and ok_to_drop: drop (or ECN-mark) that packet and enter the
//!   dropping state with count = 1, or count = count − lastcount when the
//!   last dropping state was recent (< 16 intervals ago): the drop rate that
//!   last controlled the queue is a good start (§5.5).
//! Dropping: leave at the first packet below target; otherwise at each
//!   drop_next drop the head, count += 1, drop_next += interval/√count: the
//!   drop rate rises as √count, the inverse of TCP's rate ∝ 1/√p (§3.3).
//! Drops happen at the head, at dequeue; a full buffer drops at the tail.
//! Defaults: target 5 ms (§4.3), interval 100 ms (§4.2).
//!
//! Choices where the RFC leaves room:
//! - `now − drop_next < 16·interval` is evaluated signed (as Linux does): a
//!   drop_next still in the future means the last drop was recent. With the
//!   pseudocode's unsigned time_t it would wrap and forget the old count.
//! - ECN: an ECN-capable packet that would be dropped is marked and sent,
//!   ending that dequeue (Linux's codel_impl.h); count and drop_next advance
//!   exactly as for a drop.
//! - The §4.1 "one MTU" is the `mtu_bytes` parameter, 1500 bytes: §5.3's
//!   pseudocode has `maxpacket = 512` with "SHOULD use interface MTU".

use super::prelude::*;
use crate::kernel::NS_PER_MS;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "codel",
    name: "CoDel",
    paper: "Nichols, Jacobson, McGregor & Iyengar, Controlled Delay Active Queue Management, RFC 8289, 2018",
    summary: "Drops at the head once packets have waited longer than target for a whole interval, ever faster.",
    params: CodelParams::SPECS,
    probes: &[
        ProbeSpec::number("sojourn", "sojourn time of the last packet sent", "ms"),
        ProbeSpec::switch("dropping", "dropping state"),
        ProbeSpec::number("count", "drops in this dropping state", "packets"),
        ProbeSpec::number("next_drop", "time until the next drop", "ms"),
    ],
    build,
    cross_check,
    model: None,
};

scheme_params! {
    /// CoDel's parameters, shared by every queue of an FQ-CoDel instance.
    pub struct CodelParams {
        target: Nanos as ms = ParamSpec::delay("target", 0.1..=1000.0, 0.1, 5.0,
            "Acceptable standing queue delay: packets that waited less are never dropped."),
        interval: Nanos as ms = ParamSpec::number("interval", "ms", 1.0..=10000.0, 1.0, 100.0,
            "How long the delay must stay above target before the first drop; about a worst-case RTT."),
        mtu_bytes: u64 = ParamSpec::number("MTU", "bytes", 64.0..=65535.0, 1.0, 1500.0,
            "Never drop while at most this many bytes remain queued, so a slow link keeps a packet to send."),
        ecn: bool = ECN_PARAM,
    }
}

// The flow-queuing schemes run CoDel's two timers per flow queue, with their own docs.
pub(crate) const TARGET: ParamSpec = CodelParams::spec("target");
pub(crate) const INTERVAL: ParamSpec = CodelParams::spec("interval");

pub(crate) fn cross_check(p: &ParamValues) -> Result<(), ParamError> {
    if p.get("target") >= p.get("interval") {
        return Err(ParamError::new("target", format!("must be below interval ({} ms)", p.get("interval"))));
    }
    Ok(())
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Codel::new(setup.limit), params)
}

/// drop_next after a drop at `t` with `count` drops so far (`control_law`, §5).
pub(crate) fn control_law(t: Nanos, interval: Nanos, count: u32) -> Nanos {
    t + libm::round(interval as f64 / libm::sqrt(count.max(1) as f64)) as Nanos
}

/// CoDel's state as COBALT's decisions record it too.
pub const SOJOURN_FIELD: FieldSpec = FieldSpec::new("sojourn_ms", "time the packet waited", "sojourn", "ms");
pub const DROPPING_FIELD: FieldSpec =
    FieldSpec::new("dropping", "in the dropping state before this packet", "dropping", "on/off");
pub const INTERVAL_FIELD: FieldSpec = FieldSpec::new("interval_ms", "interval", "interval", "ms");

/// The state a CoDel decision records (FQ-CoDel's per flow queue too).
pub const DECISION_FIELDS: &[FieldSpec] = &[
    SOJOURN_FIELD,
    decision::TARGET,
    FieldSpec::new("count", "drops in this dropping state", "count", "packets"),
    DROPPING_FIELD,
    FieldSpec::new("due_s", "when this drop was due", "drop_next", "s"),
    FieldSpec::new("next_drop_s", "next drop by the control law", "drop_next′", "s"),
    INTERVAL_FIELD,
];

/// The per-queue state machine of the §5 pseudocode, driving any [`Fifo`].
#[derive(Clone, Debug, Default)]
pub struct CodelState {
    /// When the sojourn time will have been above target for an interval.
    first_above_time: Option<Nanos>,
    drop_next: Nanos,
    count: u32,
    lastcount: u32,
    dropping: bool,
    /// Sojourn time of the last packet taken from the queue.
    sojourn: Nanos,
    /// Time of the last dequeue, for the probes.
    last_now: Nanos,
}

impl CodelState {
    /// Take the head and tell whether it may be dropped (`dodequeue`).
    fn dodequeue(&mut self, q: &mut Fifo, p: &CodelParams, now: Nanos) -> (Option<Packet>, bool) {
        let Some(pkt) = q.pop() else {
            self.first_above_time = None;
            return (None, false);
        };
        self.sojourn = now.saturating_sub(pkt.enqueued_at);
        if self.sojourn < p.target || q.bytes() <= p.mtu_bytes {
            self.first_above_time = None;
            return (Some(pkt), false);
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + p.interval);
                (Some(pkt), false)
            }
            Some(t) => (Some(pkt), now >= t),
        }
    }

    /// The packet to send next from `q`, dropping through `ctx` (§5.5 dequeue).
    pub fn dequeue(&mut self, q: &mut Fifo, p: &CodelParams, ctx: &mut QueueCtx) -> Option<Packet> {
        let now = ctx.now;
        self.last_now = now;
        let (mut pkt, ok_to_drop) = self.dodequeue(q, p, now);
        if self.dropping {
            self.dropping = ok_to_drop;
            // A large backlog may call for several drops at once: hence a loop.
            while self.dropping && now >= self.drop_next {
                let victim = pkt.take()?;
                self.count += 1;
                let next = control_law(self.drop_next, p.interval, self.count);
                self.note(ctx, &victim, p, Some(self.drop_next), Some(next));
                if let Some(marked) = ctx.drop_or_mark(victim, DropReason::Early, p.ecn) {
                    self.drop_next = next;
                    return Some(marked);
                }
                let (next_pkt, ok) = self.dodequeue(q, p, now);
                pkt = next_pkt;
                self.dropping = ok;
                if ok {
                    self.drop_next = next;
                }
            }
        } else if ok_to_drop {
            let victim = pkt.take()?;
            // The count of the new dropping state, decided before the drop
            // so that the inspector can record it (the drop changes neither).
            let delta = self.count.saturating_sub(self.lastcount);
            let since_drop_next = now as i64 - self.drop_next as i64;
            self.count = if delta > 1 && since_drop_next < 16 * p.interval as i64 { delta } else { 1 };
            let next = control_law(now, p.interval, self.count);
            self.note(ctx, &victim, p, self.first_above_time, Some(next));
            pkt = match ctx.drop_or_mark(victim, DropReason::Early, p.ecn) {
                Some(marked) => Some(marked),
                None => self.dodequeue(q, p, now).0,
            };
            self.dropping = true;
            self.drop_next = next;
            self.lastcount = self.count;
        }
        if let Some(sent) = &pkt {
            let due = if self.dropping { Some(self.drop_next) } else { self.first_above_time };
            self.note(ctx, sent, p, due, None);
        }
        pkt
    }

    /// The inspector's record of the decision about `pkt` ([`DECISION_FIELDS`]):
    /// `due` is when its drop was (or will be) due, `next` the control law's
    /// next drop time after it.
    fn note(&self, ctx: &mut QueueCtx, pkt: &Packet, p: &CodelParams, due: Option<Nanos>, next: Option<Nanos>) {
        if !ctx.recording() {
            return;
        }
        let secs = |t: Option<Nanos>| t.map_or(f64::NAN, crate::kernel::to_secs);
        let ms = |t: Nanos| t as f64 / NS_PER_MS as f64;
        let values = [
            ms(self.sojourn),
            ms(p.target),
            self.count as f64,
            self.dropping as u8 as f64,
            secs(due),
            secs(next),
            ms(p.interval),
        ];
        ctx.note(pkt, &values);
    }

    /// Probe values: sojourn (ms), dropping (0/1), count, time to the next drop (ms).
    pub fn probe(&self, out: &mut ProbeSink) {
        out.put("sojourn", self.sojourn as f64 / NS_PER_MS as f64);
        out.put("dropping", self.dropping as u8 as f64);
        out.put("count", self.count as f64);
        let next_drop_ms =
            if self.dropping { self.drop_next.saturating_sub(self.last_now) as f64 / NS_PER_MS as f64 } else { 0.0 };
        out.put("next_drop", next_drop_ms);
    }
}

pub struct Codel {
    limit: Limit,
    params: CodelParams,
    state: CodelState,
    fifo: Fifo,
}

impl Codel {
    pub fn new(limit: Limit) -> Codel {
        Codel { limit, params: CodelParams::default(), state: CodelState::default(), fifo: Fifo::default() }
    }
}

impl Qdisc for Codel {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.fifo.push_within(self.limit, pkt, ctx);
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

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::queue::testing::Harness;
    use crate::testing::{dumbbell, run};

    const MS: Nanos = NS_PER_MS;

    /// `backlog` 1000-byte packets at `start_ms`, then one arrival and one
    /// departure every ms up to `end_ms`: a standing queue that drops cannot
    /// drain in time. Returns the times of the drops.
    fn standing_queue(h: &mut Harness, backlog: usize, start_ms: u64, end_ms: u64) -> Vec<Nanos> {
        h.advance_to(start_ms * MS);
        h.arrive_n(backlog, 1000);
        let mut times = Vec::new();
        for t in start_ms + 1..=end_ms {
            h.advance_to(t * MS);
            h.arrive(1000);
            let before = h.dropped.len();
            h.depart();
            times.extend(std::iter::repeat_n(h.now, h.dropped.len() - before));
        }
        times
    }

    /// Depart everything at once: the last packet leaves ≤ one MTU behind.
    fn drain(h: &mut Harness, at_ms: u64) {
        h.advance_to(at_ms * MS);
        while h.depart().is_some() {}
    }

    /// The drops up to `end_ms` of one dropping state entered at `entry`
    /// with `count`, seen by dequeues on a 1 ms grid (RFC 8289 §5).
    fn schedule(entry: Nanos, mut count: u32, end_ms: u64) -> Vec<Nanos> {
        let mut times = vec![entry];
        let mut next = entry + (100.0 * MS as f64 / (count as f64).sqrt()).round() as Nanos;
        while next.div_ceil(MS) <= end_ms {
            times.push(next.div_ceil(MS) * MS);
            count += 1;
            next += (100.0 * MS as f64 / (count as f64).sqrt()).round() as Nanos;
        }
        times
    }

    /// Bufferbloat: ten bulk TCP flows with RTTs of 90–110 ms into 10 Mb/s
    /// and a 1000-packet buffer (BDP ≈ 120 packets), plus `more` flow
    /// groups (flow ids from 10); the last 30 of 40 s.
    pub(crate) fn bufferbloat(queue: &str, ecn: bool, more: &str) -> String {
        let flows = format!(
            r#"{{ "kind": "tcp", "count": 10, "segment_bytes": 1000, "access_delay_ms": [5, 15], "start_s": [0, 2],
                 "ecn": {ecn} }}{more}"#
        );
        dumbbell(40.0, 1e7, 40.0, 1000, queue, &flows)
    }

    #[test]
    fn drops_follow_interval_over_sqrt_count() {
        let mut h = Harness::new("codel", &[], Limit::Packets(100_000));
        let drops = standing_queue(&mut h, 1000, 0, 1500);
        // The sojourn time reaches target at 5 ms; after a whole interval
        // above it, at 105 ms, the first drop; then 100/√count ms apart.
        assert_eq!(drops, schedule(105 * MS, 1, 1500));
        // n drops take Σ_{j<n} interval/√j ≈ 2·interval·(√n − 0.73): 59 in 1.4 s.
        assert_eq!(drops.len(), 59);
        assert_eq!(h.probe("dropping"), 1.0);
        assert_eq!(h.probe("count"), 59.0);
        // Each drop lets the next packet leave earlier: 1000 ms, less 59.
        assert_eq!(h.probe("sojourn"), 1000.0 - 59.0);
        assert_eq!(h.drops(DropReason::Early), 59);
    }

    #[test]
    fn a_recent_dropping_state_is_resumed_at_count_minus_lastcount() {
        let mut h = Harness::new("codel", &[], Limit::Packets(100_000));
        standing_queue(&mut h, 1000, 0, 1500);
        drain(&mut h, 1501);
        assert_eq!(h.probe("dropping"), 0.0, "the last packet left below one MTU behind it");
        let count = h.probe("count") as u32;
        // Back above target 100 ms later: well within 16 intervals of the
        // last drop_next, so count restarts at count − lastcount = count − 1.
        let mut drops = standing_queue(&mut h, 1000, 1600, 1705);
        assert_eq!(drops, [1705 * MS]);
        assert_eq!(h.probe("count"), (count - 1) as f64);
        let gap = (100.0 / ((count - 1) as f64).sqrt() * 1e6).round() / 1e6;
        assert!((h.probe("next_drop") - gap).abs() < 1e-9, "{} vs {gap}", h.probe("next_drop"));
        drops.extend(standing_queue(&mut h, 0, 1705, 2600));
        assert_eq!(drops, schedule(1705 * MS, count - 1, 2600));
        assert_eq!(h.probe("count") as usize, count as usize - 1 + drops.len() - 1);
    }

    #[test]
    fn an_old_dropping_state_is_forgotten() {
        let mut h = Harness::new("codel", &[], Limit::Packets(100_000));
        standing_queue(&mut h, 1000, 0, 1500);
        drain(&mut h, 1501);
        // 16 intervals after the last drop_next, count starts again at 1.
        let drops = standing_queue(&mut h, 1000, 3400, 4400);
        assert_eq!(drops, schedule(3505 * MS, 1, 4400));
    }

    #[test]
    fn dropping_stops_at_the_first_packet_below_target() {
        let mut h = Harness::new("codel", &[], Limit::Packets(100_000));
        standing_queue(&mut h, 1000, 0, 300);
        assert_eq!(h.probe("dropping"), 1.0);
        // Serve the queue at once: the packets that arrived in the last 5 ms
        // (one per ms up to 300 ms) are the first below target.
        while h.probe("dropping") == 1.0 {
            h.depart();
        }
        assert_eq!(h.probe("sojourn"), 4.0, "the packet of 296 ms");
        assert_eq!(h.q.len_packets(), 4, "297..300 ms still queued: left by target, not by the MTU rule");
    }

    #[test]
    fn one_mtu_left_is_never_dropped() {
        // Two 1000-byte packets queued, each waiting 50 ms (a slow link):
        // after a dequeue 1000 bytes remain, within the 1500-byte MTU rule.
        for (mtu, drops) in [(1500.0, false), (500.0, true)] {
            let mut h = Harness::new("codel", &[("mtu_bytes", mtu)], Limit::Packets(100));
            h.arrive(1000);
            for t in 1..=100 {
                h.advance_to(t * 50 * MS);
                h.arrive(1000);
                h.depart();
            }
            assert_eq!(h.dropped.is_empty(), !drops, "mtu {mtu}");
        }
    }

    #[test]
    fn ecn_marks_what_it_would_drop() {
        let mut h = Harness::new("codel", &[("ecn", 1.0)], Limit::Packets(100_000));
        h.ect = true;
        standing_queue(&mut h, 1000, 0, 1500);
        assert!(h.dropped.is_empty());
        // Marking leaves the queue as long, so the schedule is the one the
        // drops would follow, and count advances the same way.
        assert_eq!(h.marks, 59);
        assert_eq!(h.probe("count"), 59.0);
        let mut plain = Harness::new("codel", &[("ecn", 1.0)], Limit::Packets(100_000));
        standing_queue(&mut plain, 1000, 0, 1500);
        assert_eq!((plain.marks, plain.drops(DropReason::Early)), (0, 59), "not-ECT packets are dropped");
    }

    #[test]
    fn target_must_be_below_interval() {
        let limit = Limit::Packets(100);
        let mut p = ParamValues::defaults(&INFO, limit);
        assert!(cross_check(&p).is_ok());
        p.set("target", 100.0);
        assert_eq!(cross_check(&p).unwrap_err().param, "target");
    }

    #[test]
    fn codel_holds_the_standing_queue_near_target_where_drop_tail_bloats() {
        let codel = run(&bufferbloat(r#"{ "scheme": "codel" }"#, false, ""));
        // Sojourn times above target for an interval are cut back: the mean
        // delay stays within a few targets, and the buffer never fills.
        assert!((5.0..=15.0).contains(&codel.queue.mean_delay_ms), "{:?}", codel.queue);
        assert!(codel.utilization > 0.95, "{}", codel.utilization);
        assert_eq!(codel.drops.by_reason.overflow, 0);
        assert!(codel.drops.by_reason.early > 50);
        // Drop Tail keeps hundreds of packets queued: most of a second's delay.
        let fifo = run(&bufferbloat(r#"{ "scheme": "droptail" }"#, false, ""));
        assert!(fifo.queue.mean_packets > 400.0, "{:?}", fifo.queue);
        assert!(fifo.queue.mean_delay_ms > 30.0 * codel.queue.mean_delay_ms);
        assert!(fifo.utilization > 0.99);
    }

    #[test]
    fn ecn_capable_tcp_sees_marks_instead_of_drops() {
        let s = run(&bufferbloat(r#"{ "scheme": "codel", "params": { "ecn": true } }"#, true, ""));
        // New data is ECN-capable (retransmissions are not, RFC 3168 §6.1.5,
        // but without losses there are none): every signal is a mark.
        assert_eq!(s.drops.total, 0, "{:?}", s.drops);
        assert!(s.marks > 100, "{}", s.marks);
        assert!(s.utilization > 0.95, "{}", s.utilization);
        assert!(s.queue.mean_delay_ms <= 15.0, "{:?}", s.queue);
    }
}
