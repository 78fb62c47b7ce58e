//! A hand driver for one transport agent in unit tests: calls at chosen
//! times, firing the agent's timers on the way, with no network around it.

use super::{Agent, AgentCtx, AgentOutput, TimerId};
use crate::kernel::{Nanos, Rng};
use crate::net::Packet;

pub(crate) struct Drive<A> {
    pub agent: A,
    rng: Rng,
    pub now: Nanos,
    pub timers: Vec<(Nanos, TimerId)>,
}

/// `from`'s packets and delivered bytes added to `into`.
pub(crate) fn absorb(into: &mut AgentOutput, from: AgentOutput) {
    into.send.extend(from.send);
    into.delivered_bytes += from.delivered_bytes;
}

/// What the calls sent, each packet with the time it was sent.
fn timed(steps: Vec<(Nanos, AgentOutput)>) -> Vec<(Nanos, Packet)> {
    steps.into_iter().flat_map(|(t, out)| out.send.into_iter().map(move |p| (t, p))).collect()
}

impl<A: Agent> Drive<A> {
    pub fn new(agent: A) -> Self {
        Drive { agent, rng: Rng::stream(1, "t"), now: 0, timers: Vec::new() }
    }

    /// One call at the current time; the timers it sets are kept.
    pub fn call(&mut self, f: impl FnOnce(&mut A, &mut AgentCtx)) -> AgentOutput {
        let mut out = AgentOutput::default();
        f(&mut self.agent, &mut AgentCtx::new(self.now, 0, &mut self.rng, &mut out));
        self.timers.append(&mut out.timers);
        out
    }

    /// Move the clock to `t`, firing the timers due on the way (earliest,
    /// then first set, first); each timer's output with its time.
    fn fire_until(&mut self, t: Nanos) -> Vec<(Nanos, AgentOutput)> {
        let mut steps = Vec::new();
        while let Some(i) = (0..self.timers.len()).filter(|&i| self.timers[i].0 <= t).min_by_key(|&i| self.timers[i].0)
        {
            let (at, id) = self.timers.remove(i);
            self.now = self.now.max(at);
            let out = self.call(|a, c| a.on_timer(id, c));
            steps.push((self.now, out));
        }
        self.now = self.now.max(t);
        steps
    }

    fn fire_then_receive(&mut self, t: Nanos, pkt: Packet) -> Vec<(Nanos, AgentOutput)> {
        let mut steps = self.fire_until(t);
        let out = self.call(|a, c| a.on_packet(pkt, c));
        steps.push((self.now, out));
        steps
    }

    /// [`Self::fire_until`], what the timers did merged into one output.
    pub fn advance(&mut self, t: Nanos) -> AgentOutput {
        let mut all = AgentOutput::default();
        self.fire_until(t).into_iter().for_each(|(_, out)| absorb(&mut all, out));
        all
    }

    /// Advance to `t`, then hand the agent `pkt`; everything merged.
    pub fn recv(&mut self, t: Nanos, pkt: Packet) -> AgentOutput {
        let mut all = AgentOutput::default();
        self.fire_then_receive(t, pkt).into_iter().for_each(|(_, out)| absorb(&mut all, out));
        all
    }

    /// [`Self::call`], returning what it sent with the time.
    pub fn call_timed(&mut self, f: impl FnOnce(&mut A, &mut AgentCtx)) -> Vec<(Nanos, Packet)> {
        let out = self.call(f);
        timed(vec![(self.now, out)])
    }

    /// [`Self::advance`], returning what was sent with when.
    pub fn advance_timed(&mut self, t: Nanos) -> Vec<(Nanos, Packet)> {
        timed(self.fire_until(t))
    }

    /// [`Self::recv`], returning what was sent with when.
    pub fn recv_timed(&mut self, t: Nanos, pkt: Packet) -> Vec<(Nanos, Packet)> {
        timed(self.fire_then_receive(t, pkt))
    }
}
