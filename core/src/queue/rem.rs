//! REM — Random Exponential Marking (Athuraliya, Low, Li & Yin, REM: Active
//! Queue Management, IEEE Network 2001: the price update and the
//! exponential marking law; constants and units as in ns-2's rem.cc, whose
//! defaults Zhou, Yeung & Li 2009 §5 uses).
//!
//! Every update interval T, on the queue's timer:
//!   p ← max(0, p + γ·(α·(b − b*) + x − c))
//!   b: the backlog now; x: packets that arrived during the interval
//!   (dropped ones too: it is the input rate); c: packets the link can send
//!   in one interval, T·C
//! Each arrival is marked (ECN) or dropped with probability 1 − φ^(−p).
//! The price only stops moving when α·(b − b*) = c − x: with marks instead
//! of losses that is x = c and b = b*, and with losses b sits below b* by
//! the dropped packets per interval over α. Whatever the number of flows the
//! queue is steered to b* and the price alone carries the congestion level:
//! REM's decoupling of the congestion measure from the backlog.
//!
//! Choices: T = 2 ms, ns-2's pupdtime_. γ acts once per interval on
//! per-interval counts, so the defaults γ = 0.001, α = 0.1 (hard-coded in
//! ns-2), φ = 1.001 and b* = 20 packets only mean what they meant in ns-2
//! with T = 2 ms; T is a parameter so the effect of the update rate can be
//! explored. With a byte buffer, b, b*, x and c are counted in typical
//! packets (ns-2's queue-in-bytes mode) so the same γ applies; unlike that
//! mode we do not scale the probability by packet size. Unlike ns-2,
//! which marks at dequeue and never drops non-ECN packets in marking mode,
//! we signal at arrival like the other schemes: mark ECN-capable packets
//! when ECN is on, drop the rest.

use super::prelude::*;
use crate::kernel::to_secs;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "rem",
    name: "REM",
    paper: "Athuraliya, Low, Li & Yin, REM: Active Queue Management, IEEE Network 2001",
    summary: "A price that integrates backlog mismatch and rate mismatch; marks with probability 1 − φ^(−price).",
    params: RemParams::SPECS,
    probes: &[ProbeSpec::number("price", "price p", ""), ProbeSpec::number("p_mark", "marking probability", "")],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// REM's parameters; `b_star` is in the buffer's unit.
    pub struct RemParams {
        gamma: f64 = ParamSpec::number("step size γ", "", 0.0..=1.0, 0.0001, 0.001,
            "How far the price moves per update for a given mismatch."),
        alpha: f64 = ParamSpec::number("backlog weight α", "", 0.0..=10.0, 0.01, 0.1,
            "Weight of the backlog mismatch b − b* against the rate mismatch x − c."),
        phi: f64 = ParamSpec::number("base φ", "", 1.0001..=10.0, 0.0001, 1.001,
            "Marking probability is 1 − φ^(−price)."),
        b_star: f64 = ParamSpec::buffer("target backlog b*", 0.0..=5000.0, 1.0, 20.0,
            "The queue REM steers to."),
        "interval_ms" => interval: Nanos as ms = ParamSpec::number("update interval", "ms", 0.1..=1000.0, 0.1, 2.0,
            "Period of the price update; x and c are counted per interval."),
        mean_packet_bytes: f64 = ParamSpec::number("typical packet size", "bytes", 40.0..=65535.0, 1.0, 1000.0,
            "Packet size that turns the link rate into c packets per interval."),
        ecn: bool = ECN_PARAM,
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Rem::new(setup.limit, setup.link_rate_bps), params)
}

pub struct Rem {
    limit: Limit,
    link_rate_bps: u64,
    params: RemParams,
    price: f64,
    p_mark: f64,
    /// Arrivals since the last update, in typical packets.
    arrived: f64,
    /// Next price update; None until the first arrival arms the timer.
    next_update: Option<Nanos>,
    fifo: Fifo,
}

impl Rem {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Rem {
        Rem {
            limit,
            link_rate_bps,
            params: RemParams::default(),
            price: 0.0,
            p_mark: 0.0,
            arrived: 0.0,
            next_update: None,
            fifo: Fifo::default(),
        }
    }

    /// Bytes (or 1 packet) per typical packet in the buffer's unit.
    fn unit(&self) -> f64 {
        match self.limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => self.params.mean_packet_bytes,
        }
    }

    pub fn mark_probability(&self, price: f64) -> f64 {
        1.0 - libm::pow(self.params.phi, -price)
    }

    fn update_price(&mut self) {
        let unit = self.unit();
        let b = self.limit.measure(self.fifo.len(), self.fifo.bytes()) / unit;
        let c = to_secs(self.params.interval) * self.link_rate_bps as f64 / (8.0 * self.params.mean_packet_bytes);
        let mismatch = self.params.alpha * (b - self.params.b_star / unit) + self.arrived - c;
        self.price = (self.price + self.params.gamma * mismatch).max(0.0);
        self.p_mark = self.mark_probability(self.price);
        self.arrived = 0.0;
    }
}

/// The state a decision records, in the order `enqueue` notes it.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("price", "price", "p", ""),
    FieldSpec::new("p_mark", "marking probability", "1 − φ^(−p)", ""),
    FieldSpec::new("queued", "queue the arrival found", "b", "buffer"),
    decision::DRAW,
];

impl Qdisc for Rem {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if self.next_update.is_none() {
            let at = ctx.now + self.params.interval;
            self.next_update = Some(at);
            ctx.wake_at(at);
        }
        self.arrived += match self.limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => pkt.size_bytes as f64 / self.params.mean_packet_bytes,
        };
        if self.fifo.is_full_for(self.limit, pkt.size_bytes) {
            return ctx.drop(pkt, DropReason::Overflow);
        }
        let draw = ctx.rng.uniform();
        if ctx.recording() {
            let b = self.limit.measure(self.fifo.len(), self.fifo.bytes());
            ctx.note(&pkt, &[self.price, self.p_mark, b, draw]);
        }
        let pkt = if draw < self.p_mark {
            match ctx.drop_or_mark(pkt, DropReason::Early, self.params.ecn) {
                Some(marked) => marked,
                None => return,
            }
        } else {
            pkt
        };
        self.fifo.push(pkt);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn dequeue(&mut self, _: &mut QueueCtx) -> Option<Packet> {
        self.fifo.pop()
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        let Some(due) = self.next_update.filter(|t| *t <= ctx.now) else { return };
        self.update_price();
        let next = due + self.params.interval;
        self.next_update = Some(next);
        ctx.wake_at(next);
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.params.set(id, value)?;
        self.p_mark = self.mark_probability(self.price);
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("price", self.price);
        out.put("p_mark", self.p_mark);
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        // Up to the price that marks 99%, and past the operating point.
        let top = (libm::log(100.0) / libm::log(self.params.phi)).max(1.2 * self.price);
        Some(DropCurve {
            x_label: "price",
            x_unit: "",
            points: (0..=200).map(|i| top * i as f64 / 200.0).map(|x| [x, self.mark_probability(x)]).collect(),
            operating_point: [self.price, self.p_mark],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{secs_f64, Rng};
    use crate::net::{Dir, Ecn, PacketKind};
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::sim::{SeriesMode, Simulation};

    #[test]
    fn marking_probability_is_one_minus_phi_to_the_minus_price() {
        let mut q = Rem::new(Limit::Packets(100), 10_000_000);
        assert_eq!(q.mark_probability(0.0), 0.0);
        assert!((q.mark_probability(100.0) - 0.095_117_369_102_213_9).abs() < 1e-12);
        // φ^(−p) = 1/2 at p = ln 2 / ln φ = 693.49…
        assert!((q.mark_probability(693.493_696_416_899_4) - 0.5).abs() < 1e-12);
        q.set_param("phi", 2.0).unwrap();
        assert_eq!(q.mark_probability(3.0), 0.875);
    }

    #[test]
    fn the_price_integrates_backlog_and_rate_mismatch_on_the_timer() {
        // 10 Mb/s of 1000-byte packets, T = 2 ms: c = 2.5 packets per interval.
        let mut h = Harness::new("rem", &[], Limit::Packets(100));
        h.arrive_n(30, 1000);
        assert_eq!(h.wake_at, Some(ms(2.0)));
        // b = 30, x = 30: p = 0.001·(0.1·(30 − 20) + 30 − 2.5) = 0.0285.
        h.advance_ms(2.0);
        assert!((h.probe("price") - 0.0285).abs() < 1e-15, "{}", h.probe("price"));
        // No arrivals: p += 0.001·(0.1·10 − 2.5) = −0.0015.
        h.advance_ms(2.0);
        assert!((h.probe("price") - 0.027).abs() < 1e-15);
        assert!((h.probe("p_mark") - (1.0 - 1.001f64.powf(-0.027))).abs() < 1e-15);
        // Empty queue, no arrivals: −0.0045 per interval, floored at 0.
        while h.depart().is_some() {}
        h.advance_ms(2.0);
        assert!((h.probe("price") - 0.0225).abs() < 1e-15);
        h.advance_ms(20.0);
        assert_eq!(h.probe("price"), 0.0);
        assert_eq!(h.wake_at, Some(ms(28.0)), "the timer keeps running on an idle link");
    }

    #[test]
    fn a_byte_buffer_counts_in_typical_packets() {
        // Same numbers as above with 500-byte packets in a byte buffer: 30
        // of them are 15 typical packets. p = 0.001·(0.1·(15 − 20) + 15 − 2.5).
        let mut h = Harness::new("rem", &[], Limit::Bytes(100_000));
        h.arrive_n(30, 500);
        h.advance_ms(2.0);
        assert!((h.probe("price") - 0.012).abs() < 1e-15, "{}", h.probe("price"));
    }

    fn offered_at_price(ecn: bool, price: f64) -> (QueueOutcome, u32) {
        let mut q = Rem::new(Limit::Packets(1_000_000), 10_000_000);
        q.set_param("ecn", if ecn { 1.0 } else { 0.0 }).unwrap();
        q.price = price;
        q.p_mark = q.mark_probability(price);
        let mut rng = Rng::stream(5, "rem");
        let mut out = QueueOutcome::default();
        let n = 200_000;
        for _ in 0..n {
            let mut p = Packet::new(0, PacketKind::Data, Dir::Forward, 1000, 972);
            p.ecn = Ecn::Ect0;
            q.enqueue(p, &mut QueueCtx::new(0, &mut rng, &mut out));
        }
        (out, n)
    }

    #[test]
    fn arrivals_are_dropped_or_marked_independently_with_the_marking_probability() {
        // Price 100 marks 9.51%; binomial standard deviation over 200 000
        // arrivals is 0.066%, so ±0.3% is over four of them.
        let (out, n) = offered_at_price(false, 100.0);
        assert!(out.drops.iter().all(|(_, r)| *r == DropReason::Early));
        assert!((out.drops.len() as f64 / n as f64 - 0.0951).abs() < 0.003, "{}", out.drops.len());
        let (out, n) = offered_at_price(true, 100.0);
        assert!(out.drops.is_empty());
        assert!((out.marks.len() as f64 / n as f64 - 0.0951).abs() < 0.003, "{}", out.marks.len());
    }

    #[test]
    fn drop_curve_has_the_operating_point_on_it() {
        let mut q = Rem::new(Limit::Packets(100), 10_000_000);
        q.price = 100.0;
        q.p_mark = q.mark_probability(100.0);
        let c = q.drop_curve().expect("REM has a curve");
        assert_eq!(c.operating_point, [100.0, q.mark_probability(100.0)]);
        let last = c.points.last().expect("points");
        assert!((last[1] - 0.99).abs() < 1e-9 && c.points[0] == [0.0, 0.0]);
    }

    /// REM's equilibrium claim under TCP load. Over the K updates of the
    /// measurement window the price moved by Δp = γ·Σ(α(b − b*) + x − c) (it
    /// never touches 0 under load), so the backlog REM held on average is
    ///   b̄ = b* + (Δp/(γK) − (x̄ − c))/α,
    /// with x̄ − c the mean excess of arrivals over capacity per interval.
    /// Returns (mean queue in packets, that prediction, mean price).
    fn tcp_run(flows: u32) -> (f64, f64, f64) {
        let text = format!(
            r#"{{ "version": 1, "seed": 1, "duration_s": 100, "measure_from_s": 50,
                "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 1e7, "delay_ms": 20 }},
                               "buffer": {{ "packets": 200 }} }},
                "queue": {{ "scheme": "rem" }},
                "flows": [{{ "kind": "tcp", "count": {flows}, "segment_bytes": 960, "start_s": [0, 2],
                            "access_delay_ms": [5, 40] }}] }}"#
        );
        let mut sim = Simulation::from_json(&text, SeriesMode::default()).expect("valid scenario");
        let price = |sim: &Simulation| sim.probe()[0].1;
        sim.advance_to(secs_f64(50.0));
        let (p0, mut price_sum, mut samples) = (price(&sim), 0.0, 0);
        for step in 1..=500 {
            sim.advance_to(secs_f64(50.0 + 0.1 * step as f64));
            price_sum += price(&sim);
            samples += 1;
        }
        let s = sim.summary();
        let updates = 50.0 / 0.002;
        // 1000-byte packets (960 + 40) at 10 Mb/s, 2 ms: c = 2.5 per interval.
        let arrivals: u64 = s.flows.iter().map(|f| f.sent_packets).sum();
        let excess = arrivals as f64 / updates - 2.5;
        let predicted = 20.0 + ((price(&sim) - p0) / (0.001 * updates) - excess) / 0.1;
        (s.queue.mean_packets, predicted, price_sum / samples as f64)
    }

    #[test]
    fn the_queue_settles_near_b_star_whatever_the_number_of_flows() {
        // The paper's decoupling claim: 4× the flows needs a much higher
        // price (more marking), not a longer queue.
        let (q10, predicted10, price10) = tcp_run(10);
        let (q40, predicted40, price40) = tcp_run(40);
        for (q, predicted) in [(q10, predicted10), (q40, predicted40)] {
            assert!((q - 20.0).abs() < 2.5, "mean queue {q} vs b* = 20");
            assert!((q - predicted).abs() < 0.3, "mean queue {q} vs {predicted} from the price law");
        }
        assert!(price40 > 3.0 * price10, "price {price10} → {price40}");
    }
}
