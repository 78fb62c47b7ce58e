//! SFRED — Scalable Fair RED (Zhou, Yeung & Li 2009 §2): RED plus a most-recently-used
//! list (MRUL) of the N flows seen last, each with packets received H_ri and
//! dropped H_di; H_r, H_d are their sums and n the number of entries (§2.1).
//! On every arrival, after RED's average update, the flow's entry moves to
//! the head (created, evicting the tail when the list is full) and counts
//! the packet; then, with the fair rate T_f = (H_r − H_d)/n and T_i = H_ri:
//!   slow        H_ri < η and H_di = 0: RED with both thresholds raised by
//!               k packets, a reserve for new, short flows (§2.4)
//!   unresponsive fast, and L_i = H_di/H_ri > (1+β)·L, L = H_d/H_r: drop
//!               every packet (§2.3)
//!   fast        T_i > (1+α)·T_f: RED with max_p·T_i/T_f (§2.2)
//!   otherwise   plain RED.
//! Every drop of the packet (early, forced or overflow) counts in H_di.
//! Reading of §2.2: the extracted formula lost its fraction bar and the prose
//! says "increase by T_f/T_i times"; an increase for a fast flow
//! (T_i > T_f) is the factor T_i/T_f, which is also what the cited argument
//! (TCP rate falls as loss rises) needs to bring T_i down to T_f. We use
//! max_pd = min(1, max_p·T_i/T_f).
//! The paper leaves N, k and the time scale of "recently seen" open. Ours:
//! N = 128, k = 5 packets (= min_th); and two additions that are not in the
//! paper, each switched off by 0: a flow not seen for `idle_ms` (1 s)
//! leaves the list, so n counts the flows active now and finished flows do
//! not dilute T_f; and counters age: whenever H_r reaches `window` (1000)
//! packets every counter is halved (entries left with nothing leave), so
//! they measure recent traffic and a flow that backed off stops looking
//! fast. Without both (the paper's list, emptied only by eviction when
//! full) counters grow for ever: 8 long TCP flows among short ones keep
//! 0.29 instead of 0.86 Mb/s and the link runs at 76% (tested below), so
//! both stay on by default. α = β = 0.1 and η = 10 are the paper's; RED's min_th 5, max_th 15,
//! w_q 0.002, max_p 0.1 are its §3 settings. The paper works in packets
//! ("packet mode"): counters are packets; thresholds and k are in the
//! buffer's unit.

use super::prelude::*;
use super::red::{self, spaced_probability, RedQueue, RedScheme};
use crate::net::FlowId;
use std::collections::BTreeMap;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "sfred",
    name: "SFRED",
    paper: "Zhou, Yeung & Li, On the Scalable Fairness and Efficient Active Queue Management of RED, \
            IJCNS 2(1), 2009",
    summary: "RED that tracks the most recently seen flows: fast flows get a higher drop rate, unresponsive \
              ones are cut off, new slow flows get extra room.",
    params: PARAMS,
    probes: &[
        red::AVG_PROBE,
        ProbeSpec::number("fast", "fast flows", "flows"),
        ProbeSpec::number("unresponsive", "unresponsive fast flows", "flows"),
        ProbeSpec::number("listed", "flows in the MRU list (n)", "flows"),
        ProbeSpec::number("fair", "fair share T_f", "packets"),
    ],
    build,
    cross_check: red::cross_check,
    model: None,
};

const PARAMS: &[ParamSpec] = &[
    red::MIN_TH,
    red::MAX_TH,
    ParamSpec { doc: "Drop probability at max_th for flows at or below their fair share.", ..red::MAX_P },
    ParamSpec { doc: "EWMA weight of the instantaneous queue in the average.", ..red::W_Q },
    red::WAIT,
    ParamSpec::number(
        "MRU list size N",
        "flows",
        1.0..=10000.0,
        1.0,
        128.0,
        "Flows remembered; the work per packet grows with N, not with the number of flows.",
    )
    .with_id("list_size"),
    ParamSpec::number(
        "fast margin α",
        "",
        0.0..=10.0,
        0.01,
        0.1,
        "A flow is fast when it sends more than (1+α) times the fair share.",
    )
    .with_id("alpha"),
    ParamSpec::number(
        "loss margin β",
        "",
        0.0..=10.0,
        0.01,
        0.1,
        "A fast flow losing more than (1+β) times the average loss rate is unresponsive and cut off.",
    )
    .with_id("beta"),
    ParamSpec::number(
        "slow-flow packets η",
        "packets",
        0.0..=1000.0,
        1.0,
        10.0,
        "A flow with fewer packets counted and no drop is slow (about when TCP can fast-retransmit).",
    )
    .with_id("eta"),
    ParamSpec::buffer(
        "slow-flow reserve k",
        0.0..=5000.0,
        1.0,
        5.0,
        "Both thresholds are raised by this much for slow flows.",
    )
    .with_id("k"),
    ParamSpec::number(
        "counting window (0 = off)",
        "packets",
        0.0..=1e7,
        10.0,
        1000.0,
        "All counters are halved each time the list has counted this many arrivals. Not in the paper; 0 = never.",
    )
    .with_id("window"),
    ParamSpec::number(
        "idle timeout (0 = off)",
        "ms",
        0.0..=1e6,
        1.0,
        1000.0,
        "A flow not seen for this long leaves the list. Not in the paper; 0 = only eviction from a full list.",
    )
    .with_id("idle_ms"),
    red::MEAN_PACKET_BYTES,
];

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Sfred::new(setup.limit, setup.link_rate_bps), params)
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    received: u64,
    dropped: u64,
    /// Position in the recency order (larger = seen later).
    stamp: u64,
    last_seen: Nanos,
}

/// How the MRUL classifies a flow (§2.2–2.4).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    Slow,
    Normal,
    /// Carries T_i/T_f.
    Fast(f64),
    Unresponsive,
}

pub struct Sfred {
    queue: RedQueue,
    list_size: usize,
    alpha: f64,
    beta: f64,
    eta: u64,
    k: f64,
    /// Halve the counters when H_r reaches this; `None`: never (the paper).
    window: Option<u64>,
    /// Forget flows not seen for this long; `None`: never (the paper).
    idle_ns: Option<Nanos>,
    list: BTreeMap<FlowId, Entry>,
    /// stamp → flow: the first entry is the list's tail, evicted first.
    recency: BTreeMap<u64, FlowId>,
    next_stamp: u64,
    h_r: u64,
    h_d: u64,
}

impl Sfred {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Sfred {
        // The zero settings are replaced by PARAMS' defaults at once.
        Sfred {
            queue: RedQueue::new(limit, link_rate_bps),
            list_size: 0,
            alpha: 0.0,
            beta: 0.0,
            eta: 0,
            k: 0.0,
            window: None,
            idle_ns: None,
            list: BTreeMap::new(),
            recency: BTreeMap::new(),
            next_stamp: 0,
            h_r: 0,
            h_d: 0,
        }
        .with_defaults()
    }

    /// Move `flow` to the head of the list (creating it, evicting the tail
    /// if full) and count one received packet.
    fn touch(&mut self, flow: FlowId, now: Nanos) {
        self.forget_idle(now);
        match self.list.get(&flow) {
            Some(e) => {
                self.recency.remove(&e.stamp);
            }
            None => {
                while !self.list.is_empty() && self.list.len() >= self.list_size {
                    self.evict_tail();
                }
            }
        }
        let e = self.list.entry(flow).or_default();
        e.stamp = self.next_stamp;
        e.last_seen = now;
        e.received += 1;
        self.recency.insert(self.next_stamp, flow);
        self.next_stamp += 1;
        self.h_r += 1;
    }

    /// Remove the least recently seen flow with its counts.
    fn evict_tail(&mut self) {
        if let Some(old) = self.recency.pop_first().and_then(|(_, tail)| self.list.remove(&tail)) {
            self.h_r -= old.received;
            self.h_d -= old.dropped;
        }
    }

    /// Remove flows not seen for `idle_ns` from the tail of the list.
    fn forget_idle(&mut self, now: Nanos) {
        let Some(idle_ns) = self.idle_ns else { return };
        while let Some(tail) = self.recency.values().next().and_then(|f| self.list.get(f)) {
            if now.saturating_sub(tail.last_seen) < idle_ns {
                break;
            }
            self.evict_tail();
        }
    }

    /// Halve every counter, forgetting flows left with nothing counted.
    fn age(&mut self) {
        let recency = &mut self.recency;
        self.list.retain(|_, e| {
            e.received /= 2;
            e.dropped /= 2;
            if e.received == 0 {
                recency.remove(&e.stamp);
            }
            e.received > 0
        });
        self.h_r = self.list.values().map(|e| e.received).sum();
        self.h_d = self.list.values().map(|e| e.dropped).sum();
    }

    /// T_f = (H_r − H_d)/n, in packets.
    fn fair(&self) -> f64 {
        (self.h_r - self.h_d) as f64 / self.list.len().max(1) as f64
    }

    /// L = H_d/H_r, the listed flows' loss rate.
    fn loss(&self) -> f64 {
        self.h_d as f64 / self.h_r.max(1) as f64
    }

    fn classify(&self, e: &Entry) -> Class {
        if e.received < self.eta && e.dropped == 0 {
            return Class::Slow;
        }
        let t_f = self.fair();
        let t_i = e.received as f64;
        if t_i <= (1.0 + self.alpha) * t_f {
            return Class::Normal;
        }
        let l_i = e.dropped as f64 / t_i;
        if l_i > (1.0 + self.beta) * self.loss() {
            Class::Unresponsive
        } else if t_f > 0.0 {
            Class::Fast(t_i / t_f)
        } else {
            // Nothing accepted lately: no rate to compare with, drop at max.
            Class::Fast(f64::INFINITY)
        }
    }

    /// RED's decision with the class's thresholds and max_p.
    fn red_verdict(&mut self, class: Class, ctx: &mut QueueCtx) -> Judged {
        let r = &self.queue.state;
        let (lo, hi, max_p) = match class {
            Class::Slow => (r.min_th + self.k, r.max_th + self.k, r.max_p),
            Class::Fast(ratio) => (r.min_th, r.max_th, (r.max_p * ratio).min(1.0)),
            Class::Normal | Class::Unresponsive => (r.min_th, r.max_th, r.max_p),
        };
        let avg = r.avg;
        if avg >= hi {
            self.queue.state.count = 0;
            return Judged { reason: Some(DropReason::Forced), count: 0, p_a: 1.0, draw: f64::NAN };
        }
        if avg < lo {
            if avg < self.queue.state.min_th {
                self.queue.state.count = -1;
            }
            return Judged { reason: None, count: self.queue.state.count, p_a: 0.0, draw: f64::NAN };
        }
        self.queue.state.count += 1;
        let count = self.queue.state.count;
        let p_b = max_p * (avg - lo) / (hi - lo);
        let p_a = spaced_probability(self.queue.state.count_rule, p_b, count);
        let draw = ctx.rng.uniform();
        let reason = (draw < p_a).then_some(DropReason::Early);
        if reason.is_some() {
            self.queue.state.count = 0;
        }
        Judged { reason, count, p_a, draw }
    }

    fn counts(&self) -> (usize, usize) {
        let classes = self.list.values().map(|e| self.classify(e));
        classes.fold((0, 0), |(fast, unresp), c| match c {
            Class::Fast(_) => (fast + 1, unresp),
            Class::Unresponsive => (fast + 1, unresp + 1),
            _ => (fast, unresp),
        })
    }
}

/// RED's verdict under the flow's class: the reason for a drop (none to
/// queue it), RED's count as used, the probability applied and the draw
/// (NaN when nothing was drawn).
struct Judged {
    reason: Option<DropReason>,
    count: i64,
    p_a: f64,
    draw: f64,
}

/// The state a decision records, in the order `admit` notes it: the
/// flow's MRU-list counters, the list's fair share and loss rate that
/// classify it, and RED's decision under its class.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("received", "its flow's packets counted", "H_ri", "packets"),
    FieldSpec::new("dropped", "its flow's drops counted", "H_di", "packets"),
    FieldSpec::new("fair", "fair share", "T_f", "packets"),
    FieldSpec::new("loss", "listed flows' loss rate", "L", ""),
    decision::AVERAGE_QUEUE,
    FieldSpec::new("count", "arrivals since the last drop", "count", ""),
    FieldSpec::new("p_a", "drop probability", "p_a", ""),
    decision::DRAW,
];

impl RedScheme for Sfred {
    red::red_scheme_parts!();

    /// SFRED decides by its own class rules, not through `RedQueue::admit`.
    fn state_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn admit(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.touch(pkt.flow, ctx.now);
        let entry = self.list[&pkt.flow];
        let judged = match self.classify(&entry) {
            Class::Unresponsive => {
                Judged { reason: Some(DropReason::Forced), count: self.queue.state.count, p_a: 1.0, draw: f64::NAN }
            }
            class => self.red_verdict(class, ctx),
        };
        if ctx.recording() {
            let (h_ri, h_di) = (entry.received as f64, entry.dropped as f64);
            let (avg, count) = (self.queue.state.avg, judged.count as f64);
            ctx.note(&pkt, &[h_ri, h_di, self.fair(), self.loss(), avg, count, judged.p_a, judged.draw]);
        }
        let reason = judged
            .reason
            .or_else(|| self.queue.fifo.is_full_for(self.queue.limit, pkt.size_bytes).then_some(DropReason::Overflow));
        match reason {
            Some(reason) => {
                if let Some(e) = self.list.get_mut(&pkt.flow) {
                    e.dropped += 1;
                }
                self.h_d += 1;
                ctx.drop(pkt, reason);
            }
            None => self.queue.fifo.push(pkt),
        }
        if self.window.is_some_and(|w| self.h_r >= w) {
            self.age();
        }
    }

    fn set_own(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        match id {
            "list_size" => self.list_size = value.max(1.0) as usize,
            "alpha" => self.alpha = value,
            "beta" => self.beta = value,
            "eta" => self.eta = value as u64,
            "k" => self.k = value,
            "window" => self.window = (value >= 1.0).then_some(value as u64),
            "idle_ms" => self.idle_ns = (value > 0.0).then(|| crate::kernel::ms(value)),
            _ => self.queue.set(id, value)?,
        }
        Ok(())
    }

    fn probe_into(&self, out: &mut ProbeSink) {
        let (fast, unresponsive) = self.counts();
        out.put("avg", self.queue.state.avg);
        out.put("fast", fast as f64);
        out.put("unresponsive", unresponsive as f64);
        out.put("listed", self.list.len() as f64);
        out.put("fair", self.fair());
    }

    fn curve(&self) -> Option<DropCurve> {
        let s = &self.queue.state;
        Some(DropCurve { x_label: "average queue (flows at their fair share)", ..self.queue.drop_curve(|x| s.p_b(x)) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use crate::net::{Dir, PacketKind};
    use crate::queue::QueueOutcome;
    use crate::sim::{SeriesMode, Simulation};

    /// An SFRED that never drops by RED (avg stays 0), with list size `n`.
    fn quiet(n: usize, window: u64) -> Sfred {
        let mut q = Sfred::new(Limit::Packets(10_000), 10_000_000);
        q.queue.state.w_q = 0.0;
        q.list_size = n;
        q.window = Some(window);
        q
    }

    fn offer(q: &mut Sfred, flow: FlowId, rng: &mut Rng) -> Option<DropReason> {
        let mut out = QueueOutcome::default();
        q.enqueue(Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 960), &mut QueueCtx::new(0, rng, &mut out));
        out.drops.first().map(|d| d.1)
    }

    fn listed(q: &Sfred) -> Vec<FlowId> {
        q.recency.values().copied().collect()
    }

    #[test]
    fn the_list_keeps_the_n_most_recently_seen_flows() {
        let mut q = quiet(3, 1000);
        let mut rng = Rng::stream(1, "sfred");
        for f in [0, 1, 2, 3] {
            offer(&mut q, f, &mut rng);
        }
        assert_eq!(listed(&q), [1, 2, 3], "flow 0, the least recently seen, was evicted");
        offer(&mut q, 1, &mut rng);
        offer(&mut q, 4, &mut rng);
        assert_eq!(listed(&q), [3, 1, 4]);
        assert_eq!(q.list[&1].received, 2);
        assert_eq!(q.h_r, 4, "H_r sums the listed flows only");
    }

    #[test]
    fn counters_halve_each_window_and_empty_entries_leave() {
        let mut q = quiet(10, 10);
        let mut rng = Rng::stream(2, "sfred");
        for f in [0, 0, 0, 0, 0, 0, 1, 1, 1, 2] {
            offer(&mut q, f, &mut rng);
        }
        // The 10th arrival reached the window: 6, 3, 1 → 3, 1, 0.
        assert_eq!((q.list[&0].received, q.list[&1].received), (3, 1));
        assert_eq!(listed(&q), [0, 1]);
        assert_eq!(q.h_r, 4);
    }

    #[test]
    fn flows_idle_for_idle_ms_leave_the_list() {
        let mut q = quiet(10, 1000);
        let mut rng = Rng::stream(5, "sfred");
        let mut out = QueueOutcome::default();
        let mut at = |q: &mut Sfred, flow: FlowId, t_ms: f64| {
            let pkt = Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 960);
            q.enqueue(pkt, &mut QueueCtx::new(crate::kernel::ms(t_ms), &mut rng, &mut out));
        };
        at(&mut q, 0, 0.0);
        at(&mut q, 1, 500.0);
        at(&mut q, 0, 900.0);
        // At 1400 ms flow 1 was last seen 900 ms ago, flow 0 500 ms ago.
        at(&mut q, 2, 1400.0);
        assert_eq!(listed(&q), [1, 0, 2]);
        at(&mut q, 2, 1500.0);
        assert_eq!(listed(&q), [0, 2], "flow 1, silent for 1000 ms, is gone");
        assert_eq!(q.h_r, 4);
    }

    fn entry(received: u64, dropped: u64) -> Entry {
        Entry { received, dropped, stamp: 0, last_seen: 0 }
    }

    fn with_entries(entries: &[(FlowId, u64, u64)]) -> Sfred {
        let mut q = quiet(100, 1_000_000);
        for (i, &(f, r, d)) in entries.iter().enumerate() {
            q.list.insert(f, Entry { stamp: i as u64, ..entry(r, d) });
            q.recency.insert(i as u64, f);
        }
        q.h_r = entries.iter().map(|e| e.1).sum();
        q.h_d = entries.iter().map(|e| e.2).sum();
        q
    }

    #[test]
    fn classification_follows_the_fair_rate_and_loss_rates() {
        // H_r = 180, H_d = 40, n = 3: T_f = 140/3 = 46.7, L = 0.222.
        let q = with_entries(&[(0, 50, 0), (1, 30, 0), (2, 100, 40)]);
        assert!((q.fair() - 140.0 / 3.0).abs() < 1e-12);
        // 50 ≤ 1.1·46.7 = 51.3: not fast. 100 is, and L_2 = 0.4 > 1.1·0.222.
        assert_eq!(q.classify(&q.list[&0]), Class::Normal);
        assert_eq!(q.classify(&q.list[&2]), Class::Unresponsive);
        // Alone in losing, even 5 drops would make it unresponsive. With the
        // others losing too (H_d = 13): L = 13/180, L_2 = 0.05 < 1.1·L, so
        // it is fast with T_i/T_f = 100/(167/3).
        let alone = with_entries(&[(0, 50, 0), (1, 30, 0), (2, 100, 5)]);
        assert_eq!(alone.classify(&alone.list[&2]), Class::Unresponsive);
        let q = with_entries(&[(0, 50, 5), (1, 30, 3), (2, 100, 5)]);
        match q.classify(&q.list[&2]) {
            Class::Fast(ratio) => assert!((ratio - 300.0 / 167.0).abs() < 1e-12),
            c => panic!("{c:?}"),
        }
        assert_eq!(q.classify(&entry(9, 0)), Class::Slow);
        assert_eq!(q.classify(&entry(9, 1)), Class::Normal, "a flow that lost a packet is no longer protected");
        let mut probe = [0.0; 5];
        q.probe(&mut ProbeSink::new(INFO.probes, &mut probe));
        assert_eq!(probe[1..4], [1.0, 0.0, 3.0]);
    }

    /// RED's long-run drop rate with count spacing (wait on, the default)
    /// at a fixed p: a + Σ P(gap > n) over the uniform range (see red.rs).
    fn spaced_drop_rate(p: f64) -> f64 {
        red::spaced_drop_fraction(red::CountRule::Wait, p)
    }

    fn drop_rate(class: Class, avg: f64) -> f64 {
        let mut q = quiet(100, 1000);
        q.queue.state.avg = avg;
        let mut rng = Rng::stream(3, "sfred");
        let mut out = QueueOutcome::default();
        let n = 100_000;
        let drops =
            (0..n).filter(|_| q.red_verdict(class, &mut QueueCtx::new(0, &mut rng, &mut out)).reason.is_some()).count();
        drops as f64 / n as f64
    }

    #[test]
    fn fast_flows_see_max_p_scaled_and_slow_flows_raised_thresholds() {
        // avg = 10 in [5, 15): p_b = 0.1·5/10 = 0.05 for a normal flow,
        // 3× that for a flow at three times the fair rate.
        for (class, p) in [(Class::Normal, 0.05), (Class::Fast(3.0), 0.15)] {
            let (got, expect) = (drop_rate(class, 10.0), spaced_drop_rate(p));
            assert!((got / expect - 1.0).abs() < 0.03, "{class:?}: {got} vs {expect}");
        }
        // Slow flows see [10, 20): nothing at avg 10, p_b = 0.05 at 15
        // where every other flow is already in the forced region.
        assert_eq!(drop_rate(Class::Slow, 9.99), 0.0);
        assert_eq!(drop_rate(Class::Normal, 15.0), 1.0);
        let (got, expect) = (drop_rate(Class::Slow, 15.0), spaced_drop_rate(0.05));
        assert!((got / expect - 1.0).abs() < 0.03, "slow at 15: {got} vs {expect}");
    }

    #[test]
    fn an_unresponsive_flow_loses_every_packet() {
        let mut q = with_entries(&[(0, 50, 0), (1, 30, 0), (2, 100, 40)]);
        let mut rng = Rng::stream(4, "sfred");
        for _ in 0..50 {
            assert_eq!(offer(&mut q, 2, &mut rng), Some(DropReason::Forced));
            assert_eq!(offer(&mut q, 0, &mut rng), None);
        }
        assert_eq!(q.list[&2].dropped, 90);
    }

    /// 8 long TCP flows on 1.5 Mb/s (Zhou, Yeung & Li 2009 §3: 10 ms, 50-packet buffer,
    /// 1000-byte segments) and a short TCP flow starting every second, each
    /// sending for 0.5–1.5 s: the web-like flows, emulated by start/stop.
    /// Returns (short flows' goodput, long flows' goodput, utilisation).
    fn long_and_short(queue: &str) -> (f64, f64, f64) {
        let mut flows =
            vec![r#"{ "kind": "tcp", "count": 8, "start_s": [0, 2], "access_delay_ms": [5, 50] }"#.to_string()];
        for t in 4..36 {
            flows.push(format!(
                r#"{{ "kind": "tcp", "start_s": [{t}, {}], "stop_s": {}, "access_delay_ms": 10 }}"#,
                t + 1,
                t as f64 + 1.5
            ));
        }
        let text = format!(
            r#"{{ "version": 1, "duration_s": 40,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1.5e6, "delay_ms": 10 }},
                               "buffer": {{ "packets": 50 }}, "access": {{ "rate_bps": 1e7, "delay_ms": 10 }} }},
                "queue": {queue}, "flows": [{}] }}"#,
            flows.join(",")
        );
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
        sim.run();
        let s = sim.summary();
        let goodput = |range: std::ops::Range<usize>| s.flows[range].iter().map(|f| f.goodput_bps).sum::<f64>();
        (goodput(8..s.flows.len()), goodput(0..8), s.utilization)
    }

    #[test]
    fn short_flows_are_protected() {
        // RED drops a new flow's first packets like anyone's; SFRED holds the
        // long flows to the fair share (fast-flow rule) and gives flows with
        // fewer than η packets k packets more room (§2.4). Switching the
        // reserve off (k = 0) isolates the second effect.
        let (red_short, red_long, _) = long_and_short(r#"{ "scheme": "red" }"#);
        let (short, long, utilization) = long_and_short(r#"{ "scheme": "sfred" }"#);
        let (short_k0, _, _) = long_and_short(r#"{ "scheme": "sfred", "params": { "k": 0 } }"#);
        let what = format!("short flows: RED {red_short:.0}, SFRED {short:.0}, SFRED k=0 {short_k0:.0} b/s");
        assert!(short > 1.5 * red_short, "{what}");
        assert!(short > 1.05 * short_k0, "{what}");
        assert!(long < red_long, "the long flows pay: {long} vs {red_long}");
        assert!(utilization > 0.9, "without wasting the link: {utilization}");
    }

    #[test]
    fn without_aging_and_idle_eviction_the_long_flows_starve() {
        // The paper's list: counters never age and finished flows leave only
        // when a full list evicts them. A long flow's H_ri then counts all it
        // ever sent while the short flows' entries stay with a few packets
        // each, so T_f = (H_r − H_d)/n falls far below it: every long flow is
        // "fast" with max_p scaled up by T_i/T_f and the link goes idle.
        let (_, long, utilization) = long_and_short(r#"{ "scheme": "sfred" }"#);
        let paper = r#"{ "scheme": "sfred", "params": { "window": 0, "idle_ms": 0 } }"#;
        let (_, paper_long, paper_utilization) = long_and_short(paper);
        let what = format!(
            "long flows {paper_long:.0} vs {long:.0} b/s, utilisation {paper_utilization:.3} vs {utilization:.3}"
        );
        assert!(paper_long < 0.5 * long, "{what}");
        assert!(paper_utilization < 0.85 && utilization > 0.9, "{what}");
    }
}
