//! A flow-queuing scheme over a per-queue AQM: FQ-CoDel's flow queues and
//! deficit round robin (fq_codel.rs, RFC 8290 §4) with one AQM state per
//! queue, as FQ-CoDel (CoDel) and FQ-PIE (PIE) are built.
//!
//! Enqueue: start the AQM's update timer if it has one; hash the flow to its
//!   queue, whose AQM admits, marks or drops the arrival; over the buffer
//!   limit, drop from the head of the fattest queue.
//! Dequeue: deficit round robin; the queue chosen sends through its AQM.
//! Timer (PIE's t_update): update every queue's AQM; sleep once all are calm.
//! Parameters: the scheme's own list ([`FqPolicy`]), which gives the AQM's
//!   parameters, the number of queues and the quantum.

use super::decision::FieldSpec;
use super::fq_codel::{FlowAqm, FlowQueues};
use super::pie::UpdateTimer;
use super::scheme::SchemeParams;
use super::{Limit, ParamError, ProbeSink, Qdisc, QueueCtx};
use crate::net::Packet;

/// What one flow-queuing scheme declares: its parameter list and the AQM
/// that runs on each flow queue.
pub(crate) trait FqPolicy: SchemeParams {
    type Aqm: FlowAqm;

    /// What each flow queue's AQM runs with, the number of flow queues and
    /// the bytes a queue may send per round. Implementations take `self`
    /// apart whole, so that a parameter added to the scheme and not passed
    /// on does not compile.
    fn split(&self) -> (<Self::Aqm as FlowAqm>::Params, usize, i64);

    /// A fresh queue's AQM state.
    fn fresh(aqm: &<Self::Aqm as FlowAqm>::Params) -> Self::Aqm;

    /// Probes beyond the flow lists' (the scheme's INFO lists them after those).
    fn probe(_queues: &FlowQueues<Self::Aqm>, _out: &mut ProbeSink) {}
}

pub(crate) struct FqScheme<P: FqPolicy> {
    p: P,
    /// `p` as each flow queue's AQM sees it.
    aqm: <P::Aqm as FlowAqm>::Params,
    queues: FlowQueues<P::Aqm>,
    timer: UpdateTimer,
}

impl<P: FqPolicy> FqScheme<P> {
    pub fn new(limit: Limit) -> FqScheme<P> {
        let p = P::default();
        let (aqm, flows, quantum) = p.split();
        let queues = FlowQueues::new(limit, flows, quantum, || P::fresh(&aqm));
        FqScheme { p, aqm, queues, timer: UpdateTimer::default() }
    }

    #[cfg(test)]
    pub(crate) fn queues(&self) -> &FlowQueues<P::Aqm> {
        &self.queues
    }

    /// Update every flow queue's AQM; true when all are calm.
    fn update_all(&mut self) -> bool {
        let mut calm = true;
        for q in self.queues.queues_mut() {
            calm &= q.aqm.tick(&q.fifo, &self.aqm);
        }
        calm
    }
}

impl<P: FqPolicy> Qdisc for FqScheme<P> {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        if let Some(period) = P::Aqm::update_period(&self.aqm) {
            self.timer.arm(period, ctx);
        }
        self.queues.enqueue_flow(pkt, &self.aqm, ctx);
    }

    fn decision_fields(&self) -> &'static [FieldSpec] {
        P::Aqm::DECISION_FIELDS
    }

    fn dequeue(&mut self, ctx: &mut QueueCtx) -> Option<Packet> {
        self.queues.dequeue(&self.aqm, ctx)
    }

    fn on_wake(&mut self, ctx: &mut QueueCtx) {
        let Some(due) = self.timer.take_due(ctx.now) else { return };
        if self.update_all() {
            return;
        }
        if let Some(period) = P::Aqm::update_period(&self.aqm) {
            self.timer.rearm(due + period, ctx);
        }
    }

    fn len_packets(&self) -> usize {
        self.queues.len_packets()
    }

    fn len_bytes(&self) -> u64 {
        self.queues.len_bytes()
    }

    fn set_param(&mut self, id: &str, v: f64) -> Result<(), ParamError> {
        self.p.set(id, v)?;
        let (aqm, flows, quantum) = self.p.split();
        self.aqm = aqm;
        self.queues.configure(flows, quantum, || P::fresh(&self.aqm));
        for q in self.queues.queues_mut() {
            q.aqm.retune(&self.aqm);
        }
        Ok(())
    }

    fn probe(&self, out: &mut ProbeSink) {
        self.queues.probe(out);
        P::probe(&self.queues, out);
    }
}
