//! BARE — Buffer management based on rate estimation (Cho & Cho 2002, §3 and the
//! pseudocode and constants of Appendix A).
//!
//! One FIFO; per-flow state for the active flows. With N the active flows
//! (Σ weights in weighted BARE, §4.5):
//!   vmaxq = vth(N), maxth = vmaxq/N, targetq = min(vmaxq/2, maxtargetq),
//!   ratefair = BW/N                                       (update_gv)
//! On arrival of p of flow i (lines 1–32):
//!   q ≥ vmaxq or the buffer is full: drop
//!   no state for i: take a free state (or recycle a random one with q_i = 0)
//!       and accept p
//!   Fair Drop: q ≥ fdth: drop (i has state, so it was buffered recently, §3.5)
//!   q_i += len; after every 4·maxth_i of arrivals update β_i:
//!       rate_i > ratefair_i and avgq > targetq: β_i /= rate_i/ratefair_i
//!       otherwise:                              β_i *= a
//!   drop with p_i = (q_i/maxth_i)^β_i                     (eq. 6)
//!   else queue p and update rate_i with the CSFQ estimator (eq. 4)
//! A flow with nothing queued for Timeout = 3K expires (§3.4).
//! Weighted BARE multiplies maxth and ratefair by the flow's weight w_i
//! (`labels.weight`, set at the source).
//!
//! The virtual threshold function vth is only drawn (Fig. 1); §2.1 gives its
//! three modes and we read them as a clamp:
//!   vth(N) = max(N·low, min(N·high, plateau))
//! no congestion: every flow may buffer `high` (8000 B); moderate: the total
//! stays at `plateau` (160 KB = half the 320 KB buffer, which BARE "controls q
//! not to exceed", §3.1) while the per-flow share shrinks; severe: every flow
//! keeps `low` (4000 B, "at least 4 packets", §2.1). The two ends meet at
//! N = 20 and N = 40, which fits §4.3 (raise vmaxq "when the number of flows
//! is smaller than 20") and Fig. 5 (delay above RED's for 50–80 flows).
//! Other choices: thresholds are in the buffer's unit (bytes or packets) and
//! the paper's byte constants are the defaults for a byte buffer; count_i is
//! zeroed when β_i is updated (its comment says "since last β update"; the
//! pseudocode omits the reset); with no active flow vth is taken at N = 1;
//! if every state is taken and none has an empty queue (the paper argues it
//! cannot happen) the packet is dropped.

use super::estimator::RateEstimator;
use super::prelude::*;
use super::red;
use crate::net::FlowId;
use std::collections::{BTreeMap, BTreeSet};

pub static INFO: SchemeInfo = SchemeInfo {
    id: "bare",
    name: "BARE",
    paper: "Cho & Cho, Dynamic buffer management scheme based on rate estimation, Computer Networks 39(6), 2002",
    summary: "Drops flow i with p = (q_i/maxth)^β_i, β_i driven by its estimated rate; per-flow buffer shrinks with N.",
    params: BareParams::SPECS,
    probes: &[
        ProbeSpec::number("nflow", "active flows Nflow", "flows"),
        ProbeSpec::buffer("vmaxq", "virtual buffer vmaxq"),
        ProbeSpec::buffer("targetq", "target queue"),
        ProbeSpec::buffer("maxth", "per-flow limit maxth"),
        ProbeSpec::buffer("avgq", "average queue"),
        ProbeSpec::number("mean_beta", "mean β_i", ""),
        ProbeSpec::number("ratefair", "fair rate BW/Nflow", "b/s"),
    ],
    build,
    cross_check,
    model: None,
};

scheme_params! {
    /// BARE's parameters; the thresholds are in the buffer's unit.
    pub struct BareParams {
        "k_ms" => k: Nanos as ms = ParamSpec::number("rate averaging K", "ms", 1.0..=5000.0, 1.0, 150.0,
            "Per-flow rate estimate time constant; idle flows expire after 3K (§3.3, §3.4)."),
        vth_high: f64 = ParamSpec::buffer("per-flow buffer (light)", 0.1..=1000.0, 0.1, 8.0,
            "What each flow may buffer while N·high fits under the plateau (8000 B, §2.1)."),
        vth_low: f64 = ParamSpec::buffer("per-flow buffer (severe)", 0.1..=1000.0, 0.1, 4.0,
            "The least each flow may buffer, however many flows (4000 B, §2.1)."),
        vth_plateau: f64 = ParamSpec::buffer("virtual buffer (moderate)", 1.0..=1e5, 1.0, 160.0,
            "vmaxq between the two modes: half the paper's 320 KB buffer (§3.1)."),
        maxtargetq: f64 = ParamSpec::buffer("max target queue", 0.0..=1e5, 1.0, 120.0,
            "Cap on targetq = vmaxq/2, the average queue BARE steers to (120000 B)."),
        fdth: f64 = ParamSpec::buffer("Fair Drop threshold", 0.0..=1e5, 1.0, 140.0,
            "Above this queue, packets of flows that have state are dropped (140000 B, §3.5)."),
        fair_drop: bool = ParamSpec::switch("Fair Drop", true,
            "Drop recently buffered flows above fdth, making room for the others (§3.5)."),
        maxnflow: usize = ParamSpec::number("flow states", "flows", 1.0..=10_000.0, 1.0, 320.0,
            "Per-flow states kept; when all are taken a state with an empty queue is reused."),
        alpha: f64 = ParamSpec::number("β increase factor a", "", 1.0..=3.0, 0.01, 1.2,
            "β_i is multiplied by this when the flow is within its share or the queue is short."),
        beta_min: f64 = ParamSpec::number("β min", "", 0.01..=100.0, 0.01, 0.5,
            "Smallest exponent: drop probability √(q_i/maxth) for a flow far above its share."),
        beta_max: f64 = ParamSpec::number("β max", "", 0.01..=100.0, 0.01, 10.0,
            "Largest exponent: a flow at half its maxth sees 0.5^10 ≈ 0.001 (§3.2)."),
        beta_init: f64 = ParamSpec::number("β initial", "", 0.01..=100.0, 0.01, 7.5,
            "Exponent a new flow starts with."),
        w_q: f64 = red::W_Q.with_default(0.004).with_doc("EWMA weight of the queue average compared with targetq."),
    }
}

pub(crate) fn cross_check(p: &ParamValues) -> Result<(), ParamError> {
    if p.get("vth_low") > p.get("vth_high") {
        return Err(ParamError::new("vth_low", format!("must not exceed vth_high ({})", p.get("vth_high"))));
    }
    if p.get("beta_min") > p.get("beta_max") {
        return Err(ParamError::new("beta_min", format!("must not exceed beta_max ({})", p.get("beta_max"))));
    }
    let init = p.get("beta_init");
    if init < p.get("beta_min") || init > p.get("beta_max") {
        return Err(ParamError::new(
            "beta_init",
            format!("must lie in [beta_min, beta_max] = [{}, {}]", p.get("beta_min"), p.get("beta_max")),
        ));
    }
    Ok(())
}

fn build(setup: &QueueSetup, params: &ParamValues) -> Box<dyn Qdisc> {
    configured(Bare::new(setup.limit, setup.link_rate_bps), params)
}

/// Per-flow variables of Appendix A.
#[derive(Clone, Debug)]
struct FlowState {
    /// w_i: a share of w_i·maxth and w_i·ratefair.
    weight: f64,
    /// q_i, buffer units.
    q: f64,
    /// count_i: arrivals (buffer units) since β_i was last updated.
    count: f64,
    beta: f64,
    /// rate_i; its last arrival is qtime_i, the last time the flow was buffered.
    rate: RateEstimator,
}

/// What update_beta needs from the globals.
#[derive(Clone, Copy)]
struct BetaRule {
    ratefair: f64,
    /// avgq > targetq.
    long_queue: bool,
    alpha: f64,
    lo: f64,
    hi: f64,
}

impl FlowState {
    /// update_beta, then restart count_i.
    fn update_beta(&mut self, r: BetaRule) {
        let ratio = self.rate.rate_bps / (self.weight * r.ratefair);
        self.beta =
            if ratio > 1.0 && r.long_queue { (self.beta / ratio).max(r.lo) } else { (self.beta * r.alpha).min(r.hi) };
        self.count = 0.0;
    }
}

pub struct Bare {
    limit: Limit,
    link_rate_bps: f64,
    params: BareParams,

    /// Nflow: Σ w_i over the active flows.
    nflow: f64,
    vmaxq: f64,
    /// Per unit of weight.
    maxth: f64,
    targetq: f64,
    /// Per unit of weight, b/s.
    ratefair: f64,
    /// q and avgq, buffer units.
    q: f64,
    avgq: f64,
    fifo: Fifo,
    /// The active flows' states.
    flows: BTreeMap<FlowId, FlowState>,
    /// (when, flow) for flows whose queue emptied; checked when due.
    expiries: BTreeSet<(Nanos, FlowId)>,
    /// Earliest wake-up asked for and not yet delivered.
    armed: Option<Nanos>,
}

impl Bare {
    pub fn new(limit: Limit, link_rate_bps: u64) -> Bare {
        let mut b = Bare {
            limit,
            link_rate_bps: link_rate_bps as f64,
            params: BareParams::default(),
            nflow: 0.0,
            vmaxq: 0.0,
            maxth: 0.0,
            targetq: 0.0,
            ratefair: 0.0,
            q: 0.0,
            avgq: 0.0,
            fifo: Fifo::default(),
            flows: BTreeMap::new(),
            expiries: BTreeSet::new(),
            armed: None,
        };
        b.update_gv();
        b
    }

    /// The virtual threshold function (Fig. 1, as read in the module comment).
    pub fn vth(&self, n: f64) -> f64 {
        (n * self.params.vth_high).min(self.params.vth_plateau).max(n * self.params.vth_low)
    }

    /// Per-flow drop probability, eq. 6.
    pub fn drop_probability(q_i: f64, maxth_i: f64, beta: f64) -> f64 {
        libm::pow(q_i / maxth_i, beta).min(1.0)
    }

    /// update_gv: the globals that follow Nflow.
    fn update_gv(&mut self) {
        let n = if self.nflow > 0.0 { self.nflow } else { 1.0 };
        self.vmaxq = self.vth(n);
        self.maxth = self.vmaxq / n;
        self.targetq = (self.vmaxq / 2.0).min(self.params.maxtargetq);
        self.ratefair = self.link_rate_bps / n;
    }

    /// update_gq: q and its average after a change of `delta`.
    fn update_gq(&mut self, delta: f64) {
        self.q += delta;
        self.avgq = (1.0 - self.params.w_q) * self.avgq + self.params.w_q * self.q;
    }

    fn beta_rule(&self) -> BetaRule {
        BetaRule {
            ratefair: self.ratefair,
            long_queue: self.avgq > self.targetq,
            alpha: self.params.alpha,
            lo: self.params.beta_min,
            hi: self.params.beta_max,
        }
    }

    /// A packet's size in the buffer's unit.
    fn units(&self, pkt: &Packet) -> f64 {
        match self.limit {
            Limit::Packets(_) => 1.0,
            Limit::Bytes(_) => pkt.size_bytes as f64,
        }
    }

    /// Make room for a new flow's state (lines 5–11): fine while fewer than
    /// maxnflow are kept, else reuse the state of a random flow with nothing
    /// queued. False when there is none.
    fn make_room(&mut self, ctx: &mut QueueCtx) -> bool {
        if self.flows.len() < self.params.maxnflow {
            return true;
        }
        let idle: Vec<FlowId> = self.flows.iter().filter(|(_, st)| st.q <= 0.0).map(|(f, _)| *f).collect();
        if idle.is_empty() {
            return false;
        }
        let victim = idle[ctx.rng.below(idle.len() as u64) as usize];
        if let Some(old) = self.flows.remove(&victim) {
            self.nflow -= old.weight;
        }
        true
    }

    /// Forget an idle flow (line 37).
    fn expire(&mut self, flow: FlowId) {
        if let Some(st) = self.flows.remove(&flow) {
            self.nflow = if self.flows.is_empty() { 0.0 } else { self.nflow - st.weight };
            self.update_gv();
        }
    }

    fn timeout_ns(&self) -> Nanos {
        3 * self.params.k
    }

    fn arm(&mut self, at: Nanos, ctx: &mut QueueCtx) {
        if self.armed.is_none_or(|a| at < a) {
            self.armed = Some(at);
            ctx.wake_at(at);
        }
    }

    fn accept(&mut self, pkt: Packet, size: f64) {
        self.update_gq(size);
        self.fifo.push(pkt);
    }

    fn mean_beta(&self) -> f64 {
        if self.flows.is_empty() {
            return self.params.beta_init;
        }
        self.flows.values().map(|s| s.beta).sum::<f64>() / self.flows.len() as f64
    }
}

/// The state a decision records, in the order `enqueue` notes it.
pub const DECISION_FIELDS: &[FieldSpec] = &[
    FieldSpec::new("q_flow", "the flow's queued", "q_i", "buffer"),
    FieldSpec::new("share", "the flow's share of maxth", "w_i·maxth", "buffer"),
    FieldSpec::new("beta", "the flow's β", "β_i", ""),
    decision::DROP_PROBABILITY,
    decision::DRAW,
    FieldSpec::new("rate_bps", "the flow's rate estimate", "rate_i", "b/s"),
];

impl Qdisc for Bare {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        let size = self.units(&pkt);
        // Line 1: the hard limit (maxq), then the virtual one.
        if self.fifo.is_full_for(self.limit, pkt.size_bytes) {
            return ctx.drop(pkt, DropReason::Overflow);
        }
        if self.q >= self.vmaxq {
            return ctx.drop(pkt, DropReason::Forced);
        }
        let (rule, maxth, k_ns) = (self.beta_rule(), self.maxth, self.params.k);
        let fair_drop = self.params.fair_drop && self.q >= self.params.fdth;
        let Some(st) = self.flows.get_mut(&pkt.flow) else {
            // Lines 5–14: a flow without state is never dropped here.
            if !self.make_room(ctx) {
                return ctx.drop(pkt, DropReason::Forced);
            }
            let mut rate = RateEstimator::new();
            // initialize_pfv: rate 0, qtime = now (the estimator's clock).
            rate.update(ctx.now, pkt.size_bytes, k_ns);
            rate.rate_bps = 0.0;
            let weight = pkt.labels().weight;
            self.flows.insert(pkt.flow, FlowState { weight, q: size, count: size, beta: self.params.beta_init, rate });
            self.nflow += weight;
            self.update_gv();
            return self.accept(pkt, size);
        };
        // Line 16: Fair Drop.
        if fair_drop {
            return ctx.drop(pkt, DropReason::Forced);
        }
        st.q += size;
        st.count += size;
        if st.count >= 4.0 * st.weight * maxth {
            st.update_beta(rule);
        }
        let (uniform, share) = (ctx.rng.uniform(), st.weight * maxth);
        let p = Bare::drop_probability(st.q, share, st.beta);
        if ctx.recording() {
            ctx.note(&pkt, &[st.q, share, st.beta, p, uniform, st.rate.rate_bps]);
        }
        if uniform < p {
            st.q -= size;
            return ctx.drop(pkt, DropReason::Early);
        }
        st.rate.update(ctx.now, pkt.size_bytes, k_ns);
        self.accept(pkt, size);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        DECISION_FIELDS
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        let pkt = self.fifo.pop()?;
        let size = self.units(&pkt);
        let (rule, maxth, timeout) = (self.beta_rule(), self.maxth, self.timeout_ns());
        let mut emptied_at = None;
        if let Some(st) = self.flows.get_mut(&pkt.flow) {
            st.q -= size;
            if st.count >= 4.0 * st.weight * maxth {
                st.update_beta(rule);
            }
            if st.q <= 0.0 {
                emptied_at = st.rate.last_arrival();
            }
        }
        if let Some(qtime) = emptied_at {
            self.expiries.insert((qtime + timeout, pkt.flow));
            self.arm(qtime + timeout, ctx);
        }
        self.update_gq(-size);
        Some(pkt)
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        self.armed = None;
        let timeout = self.timeout_ns();
        while let Some(&(at, flow)) = self.expiries.first() {
            if at > ctx.now {
                self.arm(at, ctx);
                break;
            }
            self.expiries.pop_first();
            // Entries go stale when the flow is buffered again (its next
            // departure files a new one) or its state is reused; an idle flow
            // not yet due (K was raised live) is filed again.
            let Some(st) = self.flows.get(&flow).filter(|st| st.q <= 0.0) else { continue };
            let due = st.rate.last_arrival().map_or(ctx.now, |t| t + timeout);
            if ctx.now >= due {
                self.expire(flow);
            } else {
                self.expiries.insert((due, flow));
            }
        }
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        self.params.set(id, v)?;
        self.update_gv();
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        out.put("nflow", self.nflow);
        out.put("vmaxq", self.vmaxq);
        out.put("targetq", self.targetq);
        out.put("maxth", self.maxth);
        out.put("avgq", self.avgq);
        out.put("mean_beta", self.mean_beta());
        out.put("ratefair", self.ratefair);
    }

    fn drop_curve(&self) -> Option<DropCurve> {
        // p against q_i for a flow of weight 1 with the mean β of the active flows;
        // p reaches 1 at maxth.
        let (maxth, beta) = (self.maxth, self.mean_beta());
        let mut points: Vec<[f64; 2]> =
            (0..=200).map(|k| maxth * k as f64 / 200.0).map(|x| [x, Bare::drop_probability(x, maxth, beta)]).collect();
        points.push([1.25 * maxth, 1.0]);
        let per_flow = if self.nflow > 0.0 { self.q / self.nflow } else { 0.0 };
        Some(DropCurve {
            x_label: "per-flow queue q_i",
            x_unit: self.limit.unit(),
            points,
            operating_point: [per_flow, Bare::drop_probability(per_flow, maxth, beta)],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Rng, NS_PER_MS};
    use crate::net::{Dir, PacketKind};
    use crate::queue::QueueOutcome;

    /// BARE at 20 Mb/s with the catalogue defaults for `limit` and `params` on top.
    fn bare(limit: Limit, params: &[(&str, f64)]) -> Bare {
        let mut values = ParamValues::defaults(&INFO, limit);
        for (id, v) in params {
            assert!(values.set(id, *v), "no parameter {id}");
        }
        let mut q = Bare::new(limit, 20_000_000);
        for (id, v) in values.iter() {
            q.set_param(id, v).unwrap();
        }
        q
    }

    struct Bench {
        q: Bare,
        now: Nanos,
        rng: Rng,
        wake: Option<Nanos>,
    }

    impl Bench {
        fn new(q: Bare) -> Bench {
            Bench { q, now: 0, rng: Rng::stream(1, "bare"), wake: None }
        }

        fn call<T>(&mut self, f: impl FnOnce(&mut Bare, &mut QueueCtx) -> T) -> (T, QueueOutcome) {
            let mut out = QueueOutcome::default();
            let r = f(&mut self.q, &mut QueueCtx::new(self.now, &mut self.rng, &mut out));
            if let Some(w) = out.wake_at {
                self.wake = Some(self.wake.map_or(w, |x| x.min(w)));
            }
            (r, out)
        }

        /// Offer a packet; the reason if it was dropped.
        fn offer(&mut self, flow: FlowId, weight: f64) -> Option<DropReason> {
            let mut p = Packet::new(flow, PacketKind::Data, Dir::Forward, 1000, 1000);
            p.labels_mut().weight = weight;
            let ((), out) = self.call(|q, ctx| q.enqueue(p, ctx));
            out.drops.first().map(|(_, r)| *r)
        }

        fn arrive(&mut self, flow: FlowId) -> Option<DropReason> {
            self.offer(flow, 1.0)
        }

        fn serve(&mut self) -> Option<FlowId> {
            self.call(|q, ctx| q.dequeue(ctx)).0.map(|p| p.flow)
        }

        fn advance_to(&mut self, t: Nanos) {
            while let Some(w) = self.wake.filter(|w| *w <= t) {
                self.wake = None;
                self.now = self.now.max(w);
                self.call(|q, ctx| q.on_wake(ctx));
            }
            self.now = self.now.max(t);
        }

        fn probe(&self, id: &str) -> f64 {
            let mut out = vec![0.0; INFO.probes.len()];
            self.q.probe(&mut ProbeSink::new(INFO.probes, &mut out));
            out[INFO.probes.iter().position(|p| p.id == id).expect("probe")]
        }
    }

    #[test]
    fn virtual_threshold_function_has_three_modes() {
        // §2.1 with the Appendix A buffer of 320 KB: 8000 B per flow up to
        // 20 flows, 160 KB up to 40, then 4000 B per flow.
        let q = bare(Limit::Bytes(320_000), &[]);
        assert_eq!(q.vth(5.0), 40_000.0);
        assert_eq!(q.vth(20.0), 160_000.0);
        assert_eq!(q.vth(30.0), 160_000.0);
        assert_eq!(q.vth(40.0), 160_000.0);
        assert_eq!(q.vth(80.0), 320_000.0);
    }

    #[test]
    fn globals_follow_the_number_of_active_flows() {
        // update_gv: maxth = vmaxq/N, targetq = min(vmaxq/2, 120000), ratefair = BW/N.
        let mut b = Bench::new(bare(Limit::Bytes(320_000), &[]));
        for f in 0..30 {
            assert_eq!(b.arrive(f), None, "a flow's first packet is accepted");
        }
        assert_eq!(b.probe("nflow"), 30.0);
        assert_eq!(b.probe("vmaxq"), 160_000.0);
        assert_eq!(b.probe("maxth"), 160_000.0 / 30.0);
        assert_eq!(b.probe("targetq"), 80_000.0);
        assert_eq!(b.probe("ratefair"), 20e6 / 30.0);
        for f in 30..60 {
            b.arrive(f);
        }
        assert_eq!((b.probe("vmaxq"), b.probe("maxth"), b.probe("targetq")), (240_000.0, 4000.0, 120_000.0));
    }

    #[test]
    fn drop_probability_is_exponential_in_beta() {
        // §3.2: a flow at half its maxth with β = 10 sees 0.5^10 ≈ 0.001; β = 0.5 gives √.
        assert_eq!(Bare::drop_probability(4000.0, 8000.0, 10.0), 0.0009765625);
        assert!((Bare::drop_probability(7200.0, 8000.0, 0.5) - 0.9f64.sqrt()).abs() < 1e-15);
        assert_eq!(Bare::drop_probability(8000.0, 8000.0, 7.5), 1.0);
        assert_eq!(Bare::drop_probability(9000.0, 8000.0, 7.5), 1.0);
    }

    #[test]
    fn beta_is_divided_by_the_rate_ratio_or_multiplied_by_a() {
        let mut rate = RateEstimator::new();
        rate.rate_bps = 3e6;
        let mut st = FlowState { weight: 1.0, q: 0.0, count: 5.0, beta: 7.5, rate };
        let rule = BetaRule { ratefair: 1e6, long_queue: true, alpha: 1.2, lo: 0.5, hi: 10.0 };
        st.update_beta(rule);
        assert_eq!((st.beta, st.count), (2.5, 0.0));
        st.update_beta(rule);
        assert!((st.beta - 2.5 / 3.0).abs() < 1e-15);
        st.update_beta(rule);
        assert_eq!(st.beta, 0.5, "clamped at β_min");
        // A short queue, or a flow within its share, raises β by a.
        st.update_beta(BetaRule { long_queue: false, ..rule });
        assert!((st.beta - 0.6).abs() < 1e-15);
        st.weight = 3.0;
        st.update_beta(rule);
        assert!((st.beta - 0.72).abs() < 1e-15, "3 Mb/s is the share of weight 3");
        st.beta = 9.0;
        st.update_beta(BetaRule { long_queue: false, ..rule });
        assert_eq!(st.beta, 10.0, "clamped at β_max");
    }

    #[test]
    fn beta_is_updated_every_four_maxth_of_arrivals() {
        // One flow: maxth = 8 packets, so β moves every 32 arrivals. The
        // queue is served at once, so avgq stays below targetq: β rises by a.
        let mut b = Bench::new(bare(Limit::Packets(320), &[]));
        for _ in 0..31 {
            b.arrive(0);
            b.serve();
        }
        assert_eq!(b.probe("mean_beta"), 7.5);
        b.arrive(0);
        assert_eq!(b.probe("mean_beta"), 7.5 * 1.2);
    }

    #[test]
    fn rate_starts_at_zero_then_follows_eq_4() {
        // 1000-byte packets every 4 ms (2 Mb/s), K = 150 ms.
        let mut b = Bench::new(bare(Limit::Bytes(320_000), &[]));
        b.arrive(0);
        b.serve();
        assert_eq!(b.q.flows[&0].rate.rate_bps, 0.0);
        b.advance_to(4 * NS_PER_MS);
        b.arrive(0);
        b.serve();
        let w = libm::exp(-4.0 / 150.0);
        assert!((b.q.flows[&0].rate.rate_bps - (1.0 - w) * 2e6).abs() < 1e-6);
        for i in 2..400 {
            b.advance_to(i * 4 * NS_PER_MS);
            assert_eq!(b.arrive(0), None);
            b.serve();
        }
        assert!((b.q.flows[&0].rate.rate_bps / 2e6 - 1.0).abs() < 1e-3);
    }

    #[test]
    fn idle_flows_expire_after_three_k() {
        // §3.4: Timeout Value = 3K = 450 ms after the flow was last buffered.
        let mut b = Bench::new(bare(Limit::Bytes(320_000), &[]));
        b.arrive(0);
        b.arrive(1);
        b.serve();
        b.advance_to(300 * NS_PER_MS);
        b.serve();
        b.arrive(1);
        b.serve();
        b.advance_to(450 * NS_PER_MS - 1);
        assert_eq!(b.probe("nflow"), 2.0);
        b.advance_to(450 * NS_PER_MS);
        assert_eq!(b.probe("nflow"), 1.0, "flow 0 expired; flow 1 was buffered again at 300 ms");
        assert_eq!(b.probe("vmaxq"), 8000.0);
        b.advance_to(750 * NS_PER_MS);
        assert_eq!(b.probe("nflow"), 0.0);
    }

    #[test]
    fn a_full_table_reuses_the_state_of_a_flow_with_nothing_queued() {
        let mut b = Bench::new(bare(Limit::Packets(100), &[("maxnflow", 2.0)]));
        b.arrive(0);
        b.arrive(1);
        assert_eq!(b.arrive(2), Some(DropReason::Forced), "no state has an empty queue");
        assert_eq!(b.serve(), Some(0));
        assert_eq!(b.arrive(2), None, "flow 0's state goes to flow 2");
        assert_eq!(b.probe("nflow"), 2.0);
        assert!(!b.q.flows.contains_key(&0));
        assert_eq!(b.arrive(0), Some(DropReason::Forced));
    }

    #[test]
    fn fair_drop_turns_away_recently_buffered_flows_above_fdth() {
        // fdth = 3 packets, and vth large enough that nothing else drops.
        for fair_drop in [1.0, 0.0] {
            let params = [("fdth", 3.0), ("vth_high", 100.0), ("vth_plateau", 1000.0), ("fair_drop", fair_drop)];
            let mut b = Bench::new(bare(Limit::Packets(320), &params));
            for _ in 0..3 {
                assert_eq!(b.arrive(0), None);
            }
            let expect = if fair_drop > 0.0 { Some(DropReason::Forced) } else { None };
            assert_eq!(b.arrive(0), expect);
            assert_eq!(b.arrive(1), None, "a flow without state is let in");
        }
    }

    #[test]
    fn the_virtual_and_the_hard_limit_drop_every_flow() {
        let mut b = Bench::new(bare(Limit::Packets(320), &[]));
        for f in 0..10 {
            b.arrive(f);
        }
        // Ten flows may hold 80 packets; shrink that to 0.5·10 live.
        b.q.set_param("vth_low", 0.5).unwrap();
        b.q.set_param("vth_high", 0.5).unwrap();
        assert_eq!(b.q.vmaxq, 5.0);
        assert_eq!(b.arrive(99), Some(DropReason::Forced), "q = 10 ≥ vmaxq, even for a new flow");
        let mut b = Bench::new(bare(Limit::Packets(3), &[]));
        for f in 0..3 {
            b.arrive(f);
        }
        assert_eq!(b.arrive(3), Some(DropReason::Overflow));
    }

    #[test]
    fn weighted_flows_get_weighted_buffer_shares() {
        // §4.5: weights 1 and 3 make Nflow = 4; vmaxq = 32 packets, maxth = 8
        // per unit of weight. With nothing served, flow 0 (w 1) is held below
        // 8 packets (p = 1 there) and flow 1 (w 3) below 24.
        let mut b = Bench::new(bare(Limit::Packets(320), &[]));
        b.offer(0, 1.0);
        b.offer(1, 3.0);
        assert_eq!((b.probe("nflow"), b.probe("vmaxq"), b.probe("maxth")), (4.0, 32.0, 8.0));
        for _ in 0..30 {
            b.offer(0, 1.0);
        }
        for _ in 0..30 {
            b.offer(1, 3.0);
        }
        let (q0, q1) = (b.q.flows[&0].q, b.q.flows[&1].q);
        assert!((5.0..=7.0).contains(&q0), "weight 1: {q0}");
        assert!((15.0..=23.0).contains(&q1), "weight 3: {q1}");
    }

    #[test]
    fn drop_curve_uses_the_mean_beta_and_reaches_one_at_maxth() {
        let mut b = Bench::new(bare(Limit::Packets(320), &[]));
        b.arrive(0);
        b.arrive(0);
        let c = b.q.drop_curve().expect("BARE has a drop curve");
        assert_eq!(c.operating_point, [2.0, libm::pow(2.0 / 8.0, 7.5)]);
        assert!(c.points.iter().any(|p| p == &[4.0, libm::pow(0.5, 7.5)]));
        assert!(c.points.iter().any(|p| p == &[8.0, 1.0]));
    }

    /// Whole-simulation checks in the paper's setting (§4.1: 20 Mb/s, 2 ms,
    /// a 320 KB buffer, 1000-byte packets on the wire), then in the AFpFT paper's (2011).
    mod scenarios {
        use crate::metrics::Summary;
        use crate::testing::{assert_fair_against_cbr, run, tcp32_cbr1_mean_goodputs, udp_wire_bps};

        /// The §4.1 dumbbell (base RTT 2·(8 + 2) = 20 ms) with UDP `flows`, as the presets have it.
        fn paper_setting(secs: f64, from_s: f64, flows: &str) -> String {
            format!(
                r#"{{ "version": 1, "seed": 1, "duration_s": {secs}, "measure_from_s": {from_s},
                    "topology": {{ "kind": "dumbbell", "bottleneck": {{ "rate_bps": 20e6, "delay_ms": 2 }},
                                   "buffer": {{ "bytes": 320000 }}, "access": {{ "rate_bps": 100e6, "delay_ms": 8 }} }},
                    "queue": {{ "scheme": "bare" }}, "flows": [{flows}] }}"#
            )
        }

        #[test]
        fn cbr_at_three_times_the_fair_share_is_held_near_it() {
            // §4.3's mix without TCP: 8 CBR flows at 3 Mb/s and 12 Poisson
            // flows at 1 Mb/s, the fair share BW/N. From 2 s on the CBR flows
            // (1.67 Mb/s each under Drop Tail) are held near 1 Mb/s, and the
            // queue sits at targetq = vth(20)/2 = 80 KB (§4.2).
            let flows = r#"{ "kind": "cbr", "count": 8, "rate_bps": 3e6, "packet_bytes": 972, "start_s": [0, 1] },
                           { "kind": "poisson", "count": 12, "rate_bps": 1e6, "packet_bytes": 972,
                             "start_s": [0, 1] }"#;
            let s = run(&paper_setting(20.0, 2.0, flows));
            let wire = |i: usize| udp_wire_bps(s.flows[i].goodput_bps);
            for i in 0..8 {
                assert!(wire(i) < 1.2e6, "CBR {i}: {} b/s", wire(i));
            }
            for i in 8..20 {
                assert!(wire(i) > 0.85e6, "Poisson {i}: {} b/s", wire(i));
            }
            assert!((s.queue.mean_bytes / 80_000.0 - 1.0).abs() < 0.1, "mean queue {}", s.queue.mean_bytes);
        }

        #[test]
        fn weighted_bare_shares_in_proportion_to_the_weights() {
            // §4.5 with unresponsive flows: eight 6 Mb/s CBR flows, two each
            // of weight 1, 2, 3, 4 (Σ = 20) on 20 Mb/s: w_i·1 Mb/s each.
            let flows: Vec<String> = (1..=4)
                .map(|w| {
                    format!(
                        r#"{{ "kind": "cbr", "count": 2, "rate_bps": 6e6, "packet_bytes": 972,
                              "start_s": [0, 1], "weight": {w} }}"#
                    )
                })
                .collect();
            let s = run(&paper_setting(20.0, 5.0, &flows.join(",")));
            for (i, f) in s.flows.iter().enumerate() {
                let share = (i / 2 + 1) as f64 * 1e6;
                let wire = udp_wire_bps(f.goodput_bps);
                assert!((wire / share - 1.0).abs() < 0.05, "flow {i} (weight {}): {wire} b/s", i / 2 + 1);
            }
        }

        #[test]
        fn cbr_flows_among_tcp_are_regulated_within_a_few_seconds() {
            // Fig. 9 (the preset): 12 TCP and 8 CBR flows, the CBR flows at
            // 3 Mb/s, three times the fair share. Measured from 2 s, the CBR
            // flows are held near the share: they keep a little more (≈ 1.25×,
            // measured) because BARE lets a flow's queue approach maxth =
            // vmaxq/N while the TCP flows average less. TCP shares the rest evenly.
            let s = run(include_str!("../../../scenarios/bare-12-tcp-8-cbr.json"));
            for f in &s.flows {
                // Goodput share: the fair 1 Mb/s of wire carries 960 or 972 payload bytes per 1000.
                let share = f.goodput_bps / if f.kind == "tcp" { 0.96e6 } else { 0.972e6 };
                match f.kind {
                    "tcp" => assert!(share > 0.75, "TCP {}: {share} of the fair share", f.id),
                    _ => assert!(share < 1.4, "CBR {}: {share} of the fair share", f.id),
                }
            }
            assert!(s.fairness.jain_tcp.is_some_and(|j| j > 0.999), "{:?}", s.fairness.jain_tcp);
        }

        /// Eq. 9: the standard deviation of goodput_i/(BW/N) over the N flows,
        /// with BW the link's payload capacity.
        fn eq9(s: &Summary, payload_bw: f64) -> f64 {
            let n = s.flows.len() as f64;
            let sq: f64 = s.flows.iter().map(|f| (f.goodput_bps / (payload_bw / n) - 1.0).powi(2)).sum();
            (sq / (n - 1.0)).sqrt()
        }

        #[test]
        fn fair_drop_keeps_two_hundred_tcp_flows_near_their_share() {
            // Figs. 5–6 and §3.5 (the preset): 200 TCP flows, 1.6 KB of the
            // 320 KB buffer each. Fair Drop holds the queue under fdth =
            // 140 KB and eq. 9 at ≈ 0.1; a Drop Tail buffer of that same
            // 140 KB leaves it ≈ 0.27. Without Fair Drop BARE is as fair but
            // needs 240 KB.
            let preset = include_str!("../../../scenarios/bare-200-tcp.json");
            let bare = run(preset);
            let s_bare = eq9(&bare, 19.2e6);
            assert!(s_bare < 0.15, "BARE: S = {s_bare}");
            assert!(bare.queue.mean_bytes < 140_000.0, "mean queue {}", bare.queue.mean_bytes);
            let fifo = run(&preset
                .replace(r#""scheme": "bare", "params": { "fair_drop": 1 }"#, r#""scheme": "droptail""#)
                .replace("320000", "140000"));
            let s_fifo = eq9(&fifo, 19.2e6);
            assert!(s_fifo > 2.0 * s_bare, "Drop Tail, 140 KB: S = {s_fifo} vs BARE {s_bare}");
            let no_fd = run(&preset.replace(r#""fair_drop": 1"#, r#""fair_drop": 0"#));
            assert!(no_fd.queue.mean_bytes > 200_000.0, "without Fair Drop: {}", no_fd.queue.mean_bytes);
        }

        #[test]
        fn weighted_tcp_flows_get_goodput_in_proportion_to_their_weights() {
            // §4.5, Fig. 12 (the preset): 8 TCP flows, two each of weight 1, 2, 3, 4.
            let s = run(include_str!("../../../scenarios/bare-weighted-tcp.json"));
            let per_weight: Vec<f64> =
                s.flows.iter().enumerate().map(|(i, f)| f.goodput_bps / (i / 2 + 1) as f64).collect();
            let mean = per_weight.iter().sum::<f64>() / 8.0;
            for (i, g) in per_weight.iter().enumerate() {
                assert!((g / mean - 1.0).abs() < 0.15, "flow {i}: {g} b/s per unit of weight, mean {mean}");
            }
        }

        #[test]
        fn one_cbr_at_the_link_rate_among_32_tcp_flows_is_held_near_the_fair_share() {
            assert_fair_against_cbr(serde_json::json!({ "scheme": "bare" }), 2.5);
        }

        #[test]
        fn averaged_over_runs_the_cbr_is_held_under_one_and_a_half_shares() {
            // AFpFT (2011) §3B averaged over ten replications (the paper averages
            // 30) with the Appendix A constants, so the 100 kB buffer, not
            // fdth, is the hard limit: the CBR is held at ≈ 1.35× the share
            // C/33 (see the Fig. 9 test), the TCP flows share evenly. BARE's
            // severe mode needs room for vth_low = 4 packets per flow (§2.1):
            // in 50 packets (1.5 per flow) the CBR keeps about 4 of them and
            // 3.6 times its share.
            let mean = tcp32_cbr1_mean_goodputs(serde_json::json!({ "scheme": "bare" }), 10);
            let (cbr, fair) = (udp_wire_bps(mean[32]), 1e6 / 33.0);
            assert!(cbr < 1.5 * fair, "CBR: {cbr} b/s, share {fair}");
            let jain = crate::metrics::jain(mean[..32].iter().copied());
            assert!(jain.is_some_and(|j| j > 0.998), "{jain:?}");
        }
    }
}
