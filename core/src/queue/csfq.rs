//! CSFQ — Core-Stateless Fair Queueing (Stoica, Shenker & Zhang, SIGCOMM 1998,
//! §2 and the pseudocode of Fig. 2).
//!
//! Edge (the first scheme router a flow meets; its packets arrive unlabelled):
//!   r_i ← (1 − e^{−T/K})·l/T + e^{−T/K}·r_i      per flow ([`RateEstimator`])
//!   label ← r_i / w_i                           (weighted CSFQ, as Karam & Tobagi 2000 §II-B states it)
//! Every router, edge or core, for an arrival labelled r:
//!   p = max(0, 1 − α/r): drop with probability p; otherwise queue it and, if
//!   p > 0, relabel r ← α, the rate the flow leaves with (min(r, α)).
//! Fair share α (estimate_α): A and F, the aggregate arrival and accepted
//! rates, are exponential averages with constant K_α. While A ≥ C, every K_c
//! α ← α·C/F (eq. 6); once A < C for a whole K_c, α ← the largest label seen
//! in that window. Two buffer heuristics (§2, after Fig. 2; Karam & Tobagi 2000 fn. 5): every
//! overflow cuts α by 1%, at most 29 times between updates (0.99^29 ≈ 0.75,
//! "never more than 25%"); and after an uncongested window that ends with the
//! queue below `buffer_thresh` of the buffer, no packet is dropped early until
//! the queue reaches that threshold again (α then restarts from the largest
//! label seen meanwhile).
//! Defaults K = 100 ms, K_α = 200 ms (§3; AFpFT (2011) Table II), threshold 50% of
//! the buffer (AFpFT (2011) Table II, Karam & Tobagi 2000 fn. 5). The paper gives no separate
//! value for K_c; we use K_c = K_α, as Stoica's ns-2 code, which has a single
//! link constant (kLink_), does.
//! CSFQ does not mark: its drops are what holds an unresponsive flow to α.

use super::estimator::RateEstimator;
use super::prelude::*;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "csfq",
    name: "CSFQ",
    paper: "Stoica, Shenker & Zhang, Core-Stateless Fair Queueing: Achieving Approximately Fair Bandwidth \
            Allocations in High Speed Networks, ACM SIGCOMM 1998",
    summary: "Edge routers label packets with their flow's rate; every router drops a packet with probability \
              1 − α/label, holding each flow to the estimated fair share α.",
    params: CsfqParams::SPECS,
    probes: &[
        ProbeSpec::number("alpha", "fair share α (per unit weight)", "b/s"),
        ProbeSpec::number("arrival_rate", "arrival rate A", "b/s"),
        ProbeSpec::number("accepted_rate", "accepted rate F", "b/s"),
        ProbeSpec::switch("congested", "congested (A ≥ C)"),
        ProbeSpec::switch("dropping", "early drops armed"),
    ],
    build,
    cross_check: no_cross_check,
    model: None,
};

scheme_params! {
    /// CSFQ's parameters; RQRD shares its fair-share estimation.
    pub struct CsfqParams {
        "k_ms" => k: Nanos as ms = ParamSpec::number("flow rate constant K", "ms", 1.0..=5000.0, 1.0, 100.0,
            "Averaging constant of each flow's rate estimate at the edge."),
        "k_alpha_ms" => k_alpha: Nanos as ms = ParamSpec::number("link rate constant K_α", "ms", 1.0..=5000.0, 1.0, 200.0,
            "Averaging constant of the aggregate arrival and accepted rates A and F."),
        "k_c_ms" => k_c: Nanos as ms = ParamSpec::number("congestion window K_c", "ms", 1.0..=10000.0, 1.0, 200.0,
            "How long A must stay above (below) C before α is updated."),
        buffer_thresh: f64 = ParamSpec::number("drop threshold (fraction of buffer)", "", 0.0..=1.0, 0.05, 0.5,
            "After an uncongested spell, early drops resume once the queue reaches this fraction of the buffer."),
    }
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Csfq::new(setup.limit, setup.link_rate_bps), params)
}

/// Per-flow rate estimators of the flows a router is the edge of, by flow id.
#[derive(Clone, Debug, Default)]
pub struct EdgeLabels {
    flows: Vec<RateEstimator>,
}

impl EdgeLabels {
    /// The packet's label: if it arrives unlabelled this router is its
    /// flow's edge and stamps it with rate / weight; a labelled packet comes
    /// from an upstream router and keeps its label.
    pub fn label(&mut self, pkt: &mut Packet, now: Nanos, k_ns: Nanos) -> f64 {
        if pkt.labels().rate_bps <= 0.0 {
            let i = pkt.flow as usize;
            if self.flows.len() <= i {
                self.flows.resize(i + 1, RateEstimator::new());
            }
            pkt.labels_mut().rate_bps = self.flows[i].update(now, pkt.size_bytes, k_ns) / pkt.labels().weight;
        }
        pkt.labels().rate_bps
    }
}

/// Each buffer overflow multiplies α by this (1%, §2).
const OVERFLOW_CUT: f64 = 0.99;
/// At most this many cuts between two updates of α: 0.99^29 ≈ 0.75.
const MAX_OVERFLOW_CUTS: u32 = 29;
/// Floor of α after a congested update, so that α·C/F can grow again.
const MIN_ALPHA_BPS: f64 = 1.0;

/// CSFQ's fair-share estimator (estimate_α of Fig. 2 with the buffer
/// heuristics), shared with RQRD.
#[derive(Clone, Debug)]
pub struct FairShare {
    pub k_alpha_ns: Nanos,
    pub k_c_ns: Nanos,
    /// A: the aggregate arrival rate.
    pub arrivals: RateEstimator,
    /// F: the rate of arrivals that passed the probabilistic drop.
    pub accepted: RateEstimator,
    /// The fair share in label units (b/s per unit weight).
    pub alpha: f64,
    /// Whether α is in force; off until the queue first builds up, and again
    /// after an uncongested window that ends with a short queue.
    pub dropping: bool,
    /// A ≥ C at the last arrival.
    pub congested: bool,
    /// Start of the current congested or uncongested window.
    pub start: Nanos,
    /// Largest label seen since `start` while uncongested (tmp_α).
    pub max_label: f64,
    cuts_left: u32,
}

impl FairShare {
    pub fn new(k_alpha_ns: Nanos, k_c_ns: Nanos) -> FairShare {
        FairShare {
            k_alpha_ns,
            k_c_ns,
            arrivals: RateEstimator::new(),
            accepted: RateEstimator::new(),
            alpha: 0.0,
            dropping: false,
            congested: false,
            start: 0,
            max_label: 0.0,
            cuts_left: MAX_OVERFLOW_CUTS,
        }
    }

    /// p = max(0, 1 − α/label) (eq. 2), or 0 while α is not in force.
    pub fn drop_probability(&self, label: f64) -> f64 {
        if !self.dropping || label <= self.alpha {
            0.0
        } else {
            1.0 - self.alpha / label
        }
    }

    /// The averaging constant of A and F and the window of the congestion test.
    pub fn set_constants(&mut self, k_alpha_ns: Nanos, k_c_ns: Nanos) {
        self.k_alpha_ns = k_alpha_ns;
        self.k_c_ns = k_c_ns;
    }

    /// The probes every fair-share scheme shows: α, A and F.
    pub fn probe_rates(&self, out: &mut ProbeSink) {
        out.put("alpha", self.alpha);
        out.put("arrival_rate", self.arrivals.rate_bps);
        out.put("accepted_rate", self.accepted.rate_bps);
    }

    /// Advance A and F by an arrival: `arrived` bytes count towards A, `accepted` towards F.
    pub fn observe(&mut self, now: Nanos, arrived: u32, accepted: u32) {
        self.arrivals.update(now, arrived, self.k_alpha_ns);
        self.accepted.update(now, accepted, self.k_alpha_ns);
    }

    fn set_alpha(&mut self, alpha: f64) {
        self.alpha = alpha;
        self.cuts_left = MAX_OVERFLOW_CUTS;
    }

    /// estimate_α for an arrival labelled `label` on a link of capacity
    /// `c_bps`; `queue_high`: the queue is at or above the drop threshold.
    pub fn update(&mut self, now: Nanos, label: f64, c_bps: f64, queue_high: bool) {
        if !self.dropping {
            self.max_label = self.max_label.max(label);
            if !queue_high {
                return;
            }
            // The queue has built up: arm α at the largest rate seen while
            // disarmed, and start a fresh window.
            self.set_alpha(self.max_label);
            self.dropping = true;
            self.congested = self.arrivals.rate_bps >= c_bps;
            self.start = now;
            self.max_label = 0.0;
            return;
        }
        if self.arrivals.rate_bps >= c_bps {
            if !self.congested {
                self.congested = true;
                self.start = now;
            } else if now > self.start + self.k_c_ns {
                // F is linear in α through the origin: scale α to bring F to C.
                if self.accepted.rate_bps > 0.0 {
                    self.set_alpha((self.alpha * c_bps / self.accepted.rate_bps).max(MIN_ALPHA_BPS));
                }
                self.start = now;
            }
        } else if self.congested {
            self.congested = false;
            self.start = now;
            self.max_label = 0.0;
        } else if now < self.start + self.k_c_ns {
            self.max_label = self.max_label.max(label);
        } else {
            self.start = now;
            if queue_high {
                // Fig. 2 takes tmp_α alone; counting this packet too keeps α
                // positive when it is the only arrival of a quiet window.
                self.set_alpha(self.max_label.max(label));
                self.max_label = 0.0;
            } else {
                self.dropping = false;
                self.max_label = self.max_label.max(label);
            }
        }
    }

    /// The buffer overflowed: α was too high.
    pub fn on_overflow(&mut self) {
        if self.dropping && self.cuts_left > 0 {
            self.alpha *= OVERFLOW_CUT;
            self.cuts_left -= 1;
        }
    }

    /// p(label) over [0, top] with the kink at α, for a drop curve.
    pub fn curve(&self, top: f64) -> Vec<[f64; 2]> {
        let mut xs: Vec<f64> = (0..=200).map(|i| top * i as f64 / 200.0).collect();
        if self.alpha < top {
            xs.push(self.alpha);
        }
        xs.sort_by(f64::total_cmp);
        xs.into_iter().map(|x| [x, self.drop_probability(x)]).collect()
    }
}

pub struct Csfq {
    limit: Limit,
    link_rate_bps: f64,
    params: CsfqParams,
    pub(crate) share: FairShare,
    edge: EdgeLabels,
    /// Label and drop probability of the latest arrival (the curve's operating point).
    last: [f64; 2],
    fifo: Fifo,
}

impl Csfq {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Csfq {
        Csfq {
            limit,
            link_rate_bps: link_rate_bps as f64,
            params: CsfqParams::default(),
            share: FairShare::new(CsfqParams::default().k_alpha, CsfqParams::default().k_c),
            edge: EdgeLabels::default(),
            last: [0.0; 2],
            fifo: Fifo::default(),
        }
    }
}

/// The fair share α, which RQRD's decisions record too.
pub const FAIR_SHARE_FIELD: FieldSpec = FieldSpec::new("alpha", "fair share estimate", "α", "b/s");

/// The state a decision records, in the order `enqueue` notes it.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("label", "the packet's rate label", "r_i", "b/s"),
    FAIR_SHARE_FIELD,
    FieldSpec::new("p", "drop probability", "max(0, 1 − α/r_i)", ""),
    decision::DRAW,
];

impl Qdisc for Csfq {
    fn enqueue(&mut self, mut pkt: Packet, ctx: &mut QueueCtx) {
        let label = self.edge.label(&mut pkt, ctx.now, self.params.k);
        let p = self.share.drop_probability(label);
        // The draw is taken only when p > 0, as Rng::chance would.
        let draw = if p > 0.0 { ctx.rng.uniform() } else { f64::NAN };
        let accepted = !(p > 0.0 && draw < p);
        if ctx.recording() {
            ctx.note(&pkt, &[label, self.share.alpha, p, draw]);
        }
        let size = pkt.size_bytes;
        self.share.observe(ctx.now, size, if accepted { size } else { 0 });
        let q = self.limit.measure(self.fifo.len(), self.fifo.bytes());
        let queue_high = q >= self.params.buffer_thresh * self.limit.capacity() as f64;
        self.share.update(ctx.now, label, self.link_rate_bps, queue_high);
        self.last = [label, p];
        if !accepted {
            return ctx.drop(pkt, DropReason::Early);
        }
        if self.fifo.is_full_for(self.limit, size) {
            self.share.on_overflow();
            return ctx.drop(pkt, DropReason::Overflow);
        }
        if p > 0.0 {
            pkt.labels_mut().rate_bps = label.min(self.share.alpha);
        }
        self.fifo.push(pkt);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn dequeue(&mut self, _: &mut QueueCtx) -> Option<Packet> {
        self.fifo.pop()
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, value: f64) -> Result<(), ParamError> {
        self.params.set(id, value)?;
        self.share.set_constants(self.params.k_alpha, self.params.k_c);
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.share.probe_rates(out);
        out.put("congested", self.share.congested as u8 as f64);
        out.put("dropping", self.share.dropping as u8 as f64);
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        let top = (4.0 * self.share.alpha).max(1.25 * self.last[0]);
        let top = if top > 0.0 { top } else { self.link_rate_bps };
        Some(DropCurve {
            x_label: "packet label r (flow rate / weight)",
            x_unit: "b/s",
            points: self.share.curve(top),
            operating_point: self.last,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rng, NS_PER_MS};
    use crate::queue::testing::Harness;
    use crate::queue::QueueOutcome;
    use crate::testing::{assert_fair_against_cbr, dumbbell, max_min, run, udp_wire_bps as wire};

    /// Offer one packet to `q` at `now`; returns what the scheme did with it.
    fn offer(q: &mut Csfq, pkt: Packet, now: Nanos, rng: &mut Rng) -> QueueOutcome {
        let mut out = QueueOutcome::default();
        q.enqueue(pkt, &mut QueueCtx::new(now, rng, &mut out));
        out
    }

    fn labelled(flow: u32, label: f64) -> Packet {
        let mut p = Packet::new(flow, crate::net::PacketKind::Data, crate::net::Dir::Forward, 1000, 972);
        p.labels_mut().rate_bps = label;
        p
    }

    #[test]
    fn the_edge_labels_rate_over_weight_and_the_core_keeps_labels() {
        // 1000-byte packets every 8 ms: 1 Mb/s, well below the 10 Mb/s link.
        let mut h = Harness::new("csfq", &[], Limit::Packets(100));
        let mut last = 0.0;
        for i in 1..=200 {
            h.advance_to(i * 8 * NS_PER_MS);
            let mut p = h.packet(0, 1000);
            p.labels_mut().weight = 2.0;
            h.offer(p);
            last = h.depart().expect("queued").labels().rate_bps;
        }
        assert!((last / 0.5e6 - 1.0).abs() < 1e-6, "label {last}");
        // A packet labelled upstream is core traffic: its label is not re-estimated.
        h.offer(labelled(7, 3.0e6));
        assert_eq!(h.depart().expect("queued").labels().rate_bps, 3.0e6);
        assert!(h.dropped.is_empty());
    }

    #[test]
    fn drop_probability_is_one_minus_alpha_over_label() {
        let mut s = FairShare::new(ms(200.0), ms(200.0));
        s.alpha = 1e6;
        assert_eq!(s.drop_probability(4e6), 0.0, "not armed yet");
        s.dropping = true;
        assert_eq!(s.drop_probability(0.5e6), 0.0);
        assert_eq!(s.drop_probability(1e6), 0.0);
        assert!((s.drop_probability(4e6) - 0.75).abs() < 1e-15);
        let c = s.curve(4e6);
        assert!(c.iter().any(|p| p[0] == 1e6 && p[1] == 0.0), "kink sampled");
        assert!(c.iter().any(|p| p[0] == 2e6 && (p[1] - 0.5).abs() < 1e-15));
    }

    /// Arrivals of 1000 bytes every `gap_us` from t0 on, all accepted, with
    /// the given label; returns (time, α) at every change of α.
    fn drive(
        s: &mut FairShare,
        t0: Nanos,
        gap_us: u64,
        n: u64,
        c: f64,
        label: impl Fn(u64) -> f64,
    ) -> Vec<(Nanos, f64)> {
        let mut changes = Vec::new();
        for i in 0..n {
            let now = t0 + i * gap_us * 1000;
            let before = s.alpha;
            s.observe(now, 1000, 1000);
            s.update(now, label(i), c, true);
            if s.alpha != before {
                changes.push((now, s.alpha));
            }
        }
        changes
    }

    /// A fair share (K_α = K_c = 200 ms, dropping) at `alpha`, after
    /// accepted 1000-byte arrivals every `gap_us` until `until`.
    fn warmed(alpha: f64, gap_us: u64, until: Nanos) -> FairShare {
        let mut s = FairShare::new(ms(200.0), ms(200.0));
        s.dropping = true;
        s.alpha = alpha;
        let mut t = 0;
        while t < until {
            s.observe(t, 1000, 1000);
            t += gap_us * 1000;
        }
        s
    }

    #[test]
    fn while_congested_alpha_scales_by_c_over_f_every_k_c() {
        // 20 Mb/s arrive (every 0.4 ms), all accepted, on a 10 Mb/s link:
        // each K_c (200 ms) α ← α·C/F = α/2.
        let t0 = 3_000 * NS_PER_MS;
        let mut s = warmed(2e6, 400, t0);
        let changes = drive(&mut s, t0, 400, 1200, 10e6, |_| 5e6);
        assert!(s.congested);
        // Congestion starts at t0; the first arrival strictly after t0 + K_c updates.
        assert_eq!(changes[0].0, t0 + 200_400_000);
        assert_eq!(changes[1].0, t0 + 400_800_000);
        assert!((changes[0].1 / 1e6 - 1.0).abs() < 1e-6, "{changes:?}");
        assert!((changes[1].1 / 0.5e6 - 1.0).abs() < 1e-6, "{changes:?}");
    }

    #[test]
    fn while_uncongested_alpha_is_the_largest_label_of_the_window() {
        // 4 Mb/s on 10 Mb/s: never congested. Labels cycle 1, 3, 2 Mb/s in the
        // first window and stay at 2.5 Mb/s afterwards.
        let t0 = 2_000 * NS_PER_MS;
        let mut s = warmed(9e6, 2000, t0);
        s.start = t0;
        let label = |i: u64| if i < 100 { [1e6, 3e6, 2e6][(i % 3) as usize] } else { 2.5e6 };
        let changes = drive(&mut s, t0, 2000, 250, 10e6, label);
        assert!(!s.congested);
        assert_eq!(changes, [(t0 + 200 * NS_PER_MS, 3e6), (t0 + 400 * NS_PER_MS, 2.5e6)]);
    }

    #[test]
    fn overflows_cut_alpha_by_one_percent_at_most_29_times_per_update() {
        let mut s = FairShare::new(ms(200.0), ms(200.0));
        s.dropping = true;
        s.set_alpha(1e6);
        for _ in 0..40 {
            s.on_overflow();
        }
        let floor = 1e6 * libm::pow(0.99, 29.0);
        assert!((s.alpha - floor).abs() < 1e-6, "{}", s.alpha);
        assert!(floor / 1e6 > 0.74 && floor / 1e6 < 0.75, "never more than 25%");
        s.set_alpha(2e6);
        s.on_overflow();
        assert!((s.alpha - 1.98e6).abs() < 1e-6, "an update restores the budget");
    }

    #[test]
    fn no_early_drop_until_the_queue_reaches_the_threshold() {
        // 10 Mb/s link, nothing departs: flows 0 and 1 arrive at 24 and 8 Mb/s
        // and fill the 100-packet buffer. Early drops are disarmed until 50 packets.
        let mut h = Harness::new("csfq", &[], Limit::Packets(100));
        let mut t = 0;
        while h.q.len_packets() < 50 {
            assert_eq!(h.probe("dropping"), 0.0);
            t += 250_000;
            h.advance_to(t);
            h.arrive_from((t / 250_000 % 4 == 0) as u32, 1000);
        }
        assert!(h.dropped.is_empty());
        h.arrive_from(1, 1000);
        assert_eq!(h.probe("dropping"), 1.0);
        assert!(h.probe("alpha") > 0.0);
        // Drain, then a quiet spell longer than K_c with a short queue disarms again.
        while h.depart().is_some() {}
        for _ in 0..100 {
            t += 10 * NS_PER_MS;
            h.advance_to(t);
            h.arrive_from(0, 1000);
            h.depart();
        }
        assert_eq!(h.probe("congested"), 0.0);
        assert_eq!(h.probe("dropping"), 0.0);
    }

    #[test]
    fn drops_a_fraction_one_minus_alpha_over_r_and_relabels_to_alpha() {
        // α held at 1 Mb/s for a 10 s window; core packets labelled 4 Mb/s
        // arrive every 1 ms (8 Mb/s < C): 3/4 of them are dropped, and the
        // survivors leave labelled α.
        let mut q = Csfq::new(Limit::Packets(100), 100_000_000);
        q.set_param("k_c_ms", 10_000.0).unwrap();
        q.share.dropping = true;
        q.share.alpha = 1e6;
        let mut rng = Rng::stream(9, "csfq");
        let (mut dropped, n) = (0, 5000);
        for i in 1..=n {
            let out = offer(&mut q, labelled(3, 4e6), i * NS_PER_MS, &mut rng);
            dropped += out.drops.len();
            if let Some(p) = q.fifo.pop() {
                assert_eq!(p.labels().rate_bps, 1e6);
            }
        }
        assert_eq!(q.share.alpha, 1e6);
        let frac = dropped as f64 / n as f64;
        // Binomial sd = √(0.75·0.25/5000) ≈ 0.006.
        assert!((frac - 0.75).abs() < 0.025, "{frac}");
    }

    #[test]
    fn overflow_drops_at_the_hard_limit_and_cuts_alpha() {
        // With the threshold at the full buffer, α is armed by the arrival that
        // finds the queue full (at the largest label, 1 Mb/s): that packet
        // overflows and α drops by 1%.
        let mut h = Harness::new("csfq", &[("buffer_thresh", 1.0)], Limit::Packets(5));
        for _ in 0..6 {
            h.offer(labelled(0, 1e6));
        }
        assert_eq!(h.drops(DropReason::Overflow), 1);
        assert_eq!(h.dropped.len(), 1);
        assert_eq!(h.q.len_packets(), 5);
        assert!((h.probe("alpha") - 0.99e6).abs() < 1e-6, "{}", h.probe("alpha"));
    }

    // Whole simulations.

    fn cbr(rate_bps: f64, extra: &str) -> String {
        format!(r#"{{ "kind": "cbr", "rate_bps": {rate_bps}, "packet_bytes": 972{extra} }}"#)
    }

    #[test]
    fn thirty_two_cbr_flows_each_get_the_fair_share() {
        // §3 / AFpFT (2011) Fig. 6 (the preset): flow i sends i·C/32 on 10 Mb/s
        // with a 64 KB buffer. Every flow sends at least C/32, so max-min gives each C/32;
        // flow 1 sends exactly that and should keep nearly all of it.
        let c = 10e6;
        let s = run(include_str!("../../../scenarios/csfq-32-cbr.json"));
        let out: Vec<f64> = s.flows.iter().map(|f| wire(f.goodput_bps)).collect();
        assert_eq!(out.len(), 32);
        for (i, r) in out.iter().enumerate() {
            assert!((r / (c / 32.0) - 1.0).abs() < 0.12, "flow {}: {r} b/s vs {}", i + 1, c / 32.0);
        }
        // Karam & Tobagi 2000 §IV-A's measure f: 0 for perfect fairness, 1 for shares
        // proportional to the input rates.
        let n = 32.0;
        let num: f64 = out.iter().map(|r| (r - c / n).powi(2)).sum();
        let den: f64 = (0..32).map(|i| ((2.0 * (i + 1) as f64 / (n + 1.0) - 1.0) * c / n).powi(2)).sum();
        assert!(num / den < 0.01, "f = {}", num / den);
        assert!(s.utilization > 0.98, "{}", s.utilization);
        let first = &s.flows[0];
        assert!((first.dropped_packets as f64) < 0.05 * first.sent_packets as f64, "{first:?}");
    }

    #[test]
    fn cbr_flows_are_water_filled_to_the_max_min_shares() {
        // AFpFT (2011) Fig. 2 (the preset): five flows each at 0.5, 1, 1.5 and 2 Mb/s on 20 Mb/s.
        // Max-min: the two lower groups keep their rate, the others get 1.25 Mb/s.
        let demands: Vec<f64> = [0.5e6, 1e6, 1.5e6, 2e6].iter().flat_map(|r| [*r; 5]).collect();
        let shares = max_min(&demands, 20e6);
        let s = run(include_str!("../../../scenarios/csfq-20-cbr-water-filling.json"));
        assert!((shares[19] - 1.25e6).abs() < 1e-6);
        for (f, share) in s.flows.iter().zip(&shares) {
            assert!(
                (wire(f.goodput_bps) / share - 1.0).abs() < 0.06,
                "flow {}: {} vs {share}",
                f.id,
                wire(f.goodput_bps)
            );
        }
        // Flows below the fair share lose (almost) nothing.
        for f in &s.flows[..10] {
            assert!(f.dropped_packets as f64 <= 0.005 * f.sent_packets as f64, "{f:?}");
        }
    }

    #[test]
    fn weights_scale_the_shares() {
        // Three CBR flows at the link rate with weights 1, 2, 1: C/4, C/2, C/4.
        let flows = [cbr(10e6, ""), cbr(10e6, r#", "weight": 2"#), cbr(10e6, "")].join(",");
        let s = run(&dumbbell(20.0, 10e6, 1.0, 64, r#"{ "scheme": "csfq" }"#, &flows));
        for (f, share) in s.flows.iter().zip([2.5e6, 5e6, 2.5e6]) {
            assert!((wire(f.goodput_bps) / share - 1.0).abs() < 0.05, "flow {}: {}", f.id, wire(f.goodput_bps));
        }
    }

    #[test]
    fn relabelled_flows_pass_the_next_hop_as_core_traffic() {
        // Parking lot of two 10 Mb/s hops, every flow CBR at 10 Mb/s: flow 0
        // crosses both, flows 1 and 2 only hop 0, flow 3 only hop 1. Max-min:
        // hop 0 splits three ways (10/3 each), so flow 3 gets the rest of hop 1
        // (20/3). Hop 1 is flow 3's edge and flow 0's core: it must see flow 0
        // relabelled to hop 0's α, or it would cut flow 0 again.
        let text = r#"{ "version": 1, "seed": 1, "duration_s": 20, "measure_from_s": 5,
            "topology": { "kind": "parking_lot", "hops": 2, "bottleneck": { "rate_bps": 10e6, "delay_ms": 1 },
                          "buffer": { "packets": 64 } },
            "queue": { "scheme": "csfq" },
            "flows": [ { "kind": "cbr", "rate_bps": 10e6, "packet_bytes": 972 },
                       { "kind": "cbr", "count": 2, "rate_bps": 10e6, "packet_bytes": 972, "path": [0, 0] },
                       { "kind": "cbr", "rate_bps": 10e6, "packet_bytes": 972, "path": [1, 1] } ] }"#;
        let s = run(text);
        for (f, share) in s.flows.iter().zip([10e6 / 3.0, 10e6 / 3.0, 10e6 / 3.0, 20e6 / 3.0]) {
            assert!((wire(f.goodput_bps) / share - 1.0).abs() < 0.05, "flow {}: {}", f.id, wire(f.goodput_bps));
        }
    }

    #[test]
    fn one_cbr_at_the_link_rate_among_32_tcp_flows_is_held_near_the_fair_share() {
        // AFpFT (2011) §3B: under CSFQ "UDP takes up more than 3 times the fair share".
        assert_fair_against_cbr(serde_json::json!({ "scheme": "csfq" }), 5.0);
    }
}
