//! Drop Tail: a FIFO that drops arrivals once the buffer is full.

use super::prelude::*;

pub static INFO: SchemeInfo = SchemeInfo {
    id: "droptail",
    name: "Drop Tail",
    paper: "FIFO with tail drop (the Internet's default)",
    summary: "Queue everything until the buffer is full, then drop arrivals.",
    params: &[],
    probes: &[],
    build,
    cross_check: no_cross_check,
    model: None,
};

fn build(setup: &QueueSetup, _: &ParamValues) -> Box<dyn Qdisc> {
    Box::new(DropTail::new(setup.limit))
}

pub struct DropTail {
    limit: Limit,
    fifo: Fifo,
}

impl DropTail {
    pub fn new(limit: Limit) -> DropTail {
        DropTail { limit, fifo: Fifo::default() }
    }
}

impl Qdisc for DropTail {
    fn enqueue(&mut self, pkt: Packet, ctx: &mut QueueCtx) {
        self.fifo.push_within(self.limit, pkt, ctx);
    }

    fn dequeue(&mut self, _: &mut QueueCtx) -> Option<Packet> {
        self.fifo.pop()
    }

    super::fifo_lengths!();

    fn set_param(&mut self, id: &str, _: f64) -> Result<(), ParamError> {
        Err(ParamError::unknown(id))
    }

    fn probe(&self, _: &mut ProbeSink) {}
}
