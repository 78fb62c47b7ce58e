//! What the engine made of a scenario, for the page: the plan with every
//! default applied ([`ResolvedPlan`]) and the document with live parameter
//! values folded in ([`Simulation::scenario`]). The page reads these rather
//! than re-applying a default of its own.

use super::Simulation;
use crate::kernel::to_secs;
use crate::queue::scheme::ParamValues;
use crate::scenario::{CcName, CubicRttName, HystartName, ParamValue, Plan, Scenario, Spread, TrafficPlan};
use crate::transport::tcp::cc::cubic::{CubicOptions, TargetRtt};
use crate::transport::tcp::cc::hystart::SlowStartExit;
use crate::transport::tcp::CcVariant;
use crate::transport::FlowKind;
use serde::Serialize;
use std::collections::BTreeMap;

/// A running simulation's plan as the page needs it, every default applied.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ResolvedPlan {
    pub duration_s: f64,
    pub measure_from_s: f64,
    pub sample_interval_ms: f64,
    /// The seed of every random stream.
    pub seed: u64,
    /// Congested links in a row (1 for a dumbbell).
    pub hops: u32,
    pub scheme: String,
    /// Every parameter of the scheme, at its live value.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, number>"))]
    pub params: BTreeMap<String, f64>,
    /// Flow groups in order; flows are numbered group by group.
    pub groups: Vec<ResolvedGroup>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ResolvedGroup {
    /// The group's label, or its kind when it has none.
    pub label: String,
    pub kind: FlowKind,
    pub count: u32,
    /// The number of the group's first flow.
    pub first_flow: u32,
    /// When the group's flows start, in s: one time, or `[lo, hi]` spread over them.
    pub start_s: Spread,
    /// Upper end of each data packet's extra access delay, in ms.
    pub access_jitter_ms: f64,
    /// Selective acknowledgements (TCP and web groups; false for others).
    pub sack: bool,
    /// Paced segments (TCP and web groups; false for others).
    pub pacing: bool,
    /// Every flow of the group on one host (what CAKE's host isolation sees).
    pub one_host: bool,
    /// The senders' congestion control (TCP and web groups; absent for others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cc: Option<CcName>,
    /// CUBIC's slow-start exit (CUBIC groups only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hystart: Option<HystartName>,
    /// The RTT CUBIC's target looks ahead by (CUBIC groups only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cubic_rtt: Option<CubicRttName>,
}

/// The scenario's name for a sender's congestion control.
fn cc_name(cc: CcVariant) -> CcName {
    match cc {
        CcVariant::Reno => CcName::Reno,
        CcVariant::NewReno => CcName::Newreno,
        CcVariant::Cubic => CcName::Cubic,
        CcVariant::Dctcp => CcName::Dctcp,
        CcVariant::Prague => CcName::Prague,
        CcVariant::Bbr => CcName::Bbr,
    }
}

/// The scenario's names for a CUBIC sender's options.
fn cubic_names(options: &CubicOptions) -> (HystartName, CubicRttName) {
    let hystart = match options.slow_start_exit {
        SlowStartExit::HystartLinux => HystartName::Linux,
        SlowStartExit::HystartNs3 => HystartName::Ns3,
        SlowStartExit::HystartPlusPlus => HystartName::PlusPlus,
        SlowStartExit::Off => HystartName::Off,
    };
    let rtt = match options.target_rtt {
        TargetRtt::Min => CubicRttName::Min,
        TargetRtt::Smoothed => CubicRttName::Srtt,
    };
    (hystart, rtt)
}

impl ResolvedPlan {
    /// What `plan` runs, every default applied, with the scheme at `params`.
    pub fn of(plan: &Plan, params: &ParamValues) -> ResolvedPlan {
        let mut next = 0;
        let groups = plan
            .groups
            .iter()
            .map(|g| {
                let first_flow = next;
                next += g.count;
                let tcp = match &g.traffic {
                    TrafficPlan::Tcp(tcp) | TrafficPlan::Web(tcp, _) => Some(tcp),
                    _ => None,
                };
                let cubic = tcp.filter(|t| t.cc == CcVariant::Cubic).map(|t| cubic_names(&t.cubic));
                ResolvedGroup {
                    label: g.label.clone(),
                    kind: g.kind,
                    count: g.count,
                    first_flow,
                    start_s: g.start_s,
                    access_jitter_ms: g.access_jitter_ns as f64 / 1e6,
                    sack: tcp.is_some_and(|t| t.sack),
                    pacing: tcp.is_some_and(|t| t.pacing),
                    one_host: g.one_host,
                    cc: tcp.map(|t| cc_name(t.cc)),
                    hystart: cubic.map(|(hystart, _)| hystart),
                    cubic_rtt: cubic.map(|(_, rtt)| rtt),
                }
            })
            .collect();
        ResolvedPlan {
            duration_s: to_secs(plan.duration_ns),
            measure_from_s: to_secs(plan.measure_from_ns),
            sample_interval_ms: plan.sample_interval_ns as f64 / 1e6,
            seed: plan.seed,
            hops: plan.hops,
            scheme: plan.scheme.id.to_string(),
            params: params.iter().map(|(id, v)| (id.to_string(), v)).collect(),
            groups,
        }
    }
}

impl Simulation {
    /// The plan this simulation runs, with its live parameter values.
    pub fn resolved(&self) -> ResolvedPlan {
        ResolvedPlan::of(&self.plan, &self.params)
    }

    /// The scenario document this simulation was built from, with every
    /// parameter changed live folded into `queue.params` (a switch stays a
    /// switch): building it again gives this run's setup at time 0. None for
    /// a simulation built from a plan alone.
    pub fn scenario(&self) -> Option<Scenario> {
        let mut document = self.document.clone()?;
        let defaults = crate::queue::scheme::ParamValues::defaults(self.plan.scheme, self.plan.limit);
        for (id, value) in self.params.iter() {
            let folded = match document.queue.params.get(id) {
                Some(ParamValue::Switch(_)) => ParamValue::Switch(crate::queue::switch_on(value)),
                Some(ParamValue::Number(_)) => ParamValue::Number(value),
                None if value != defaults.get(id) => ParamValue::Number(value),
                None => continue,
            };
            document.queue.params.insert(id.to_string(), folded);
        }
        Some(document)
    }

    /// Start again from time 0 with the same setup and the live parameter
    /// values (a capture is not kept).
    pub fn reset(&mut self) {
        let mut plan = self.plan.clone();
        plan.params = self.params.clone();
        let document = self.document.take();
        *self = Simulation::from_plan(plan, self.mode);
        self.document = document;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{catalogue, Limit};
    use crate::sim::SeriesMode;
    use crate::testing::dumbbell;

    const QUEUE: &str = r#"{ "scheme": "red", "params": { "min_th": 5, "max_th": 15, "gentle": true } }"#;
    const FLOWS: &str = r#"{ "kind": "tcp" }, { "kind": "cbr", "label": "video", "count": 3, "rate_bps": 2e5 }"#;

    fn sim(text: &str) -> Simulation {
        Simulation::from_json(text, SeriesMode::default()).expect("valid scenario")
    }

    /// The summary without its perf block (wall time varies between runs).
    fn results(sim: &mut Simulation) -> serde_json::Value {
        sim.run();
        let mut value = serde_json::to_value(sim.summary()).expect("summary serialises");
        value.as_object_mut().expect("summary is an object").remove("perf");
        value
    }

    #[test]
    fn a_document_resolves_as_its_simulation_does_with_tcp_options_and_jitter() {
        // Prague paces unless told not to; SACK and jitter are off unless set.
        let flows = r#"{ "kind": "tcp", "cc": "prague", "ecn": "ect1" },
                       { "kind": "tcp", "sack": true, "access_jitter_ms": 2 },
                       { "kind": "cbr", "rate_bps": 2e5 }"#;
        let text = dumbbell(4.0, 1e6, 10.0, 30, QUEUE, flows);
        let plan = Scenario::from_json(&text).and_then(|s| s.plan()).expect("valid scenario");
        let resolved = ResolvedPlan::of(&plan, &plan.params);
        assert_eq!(resolved, sim(&text).resolved());
        let options: Vec<_> = resolved.groups.iter().map(|g| (g.sack, g.pacing, g.access_jitter_ms)).collect();
        assert_eq!(options, [(false, true, 0.0), (true, false, 2.0), (false, false, 0.0)]);
    }

    #[test]
    fn the_resolved_plan_applies_every_default() {
        let plan = sim(&dumbbell(4.0, 1e6, 10.0, 30, QUEUE, FLOWS)).resolved();
        // The document sets neither the sample interval nor the TCP group's count or label.
        assert_eq!(plan.sample_interval_ms, 10.0);
        assert_eq!((plan.duration_s, plan.measure_from_s, plan.hops), (4.0, 1.0, 1));
        let groups: Vec<_> = plan.groups.iter().map(|g| (g.label.as_str(), g.kind, g.count, g.first_flow)).collect();
        assert_eq!(groups, [("tcp", FlowKind::Tcp, 1, 0), ("video", FlowKind::Cbr, 3, 1)]);
        let red = catalogue(Limit::Packets(30)).into_iter().find(|e| e.id == "red").expect("red is listed");
        for spec in &red.params {
            let expected = match spec.id {
                "min_th" => 5.0,
                "max_th" => 15.0,
                "gentle" => 1.0,
                _ => spec.default,
            };
            assert_eq!(plan.params[spec.id], expected, "{}", spec.id);
        }
        assert_eq!(plan.params.len(), red.params.len());
    }

    #[test]
    fn the_scenario_folds_in_live_changes_and_nothing_else() {
        let mut running = sim(&dumbbell(4.0, 1e6, 10.0, 30, QUEUE, FLOWS));
        running.set_param("max_p", 0.25).expect("in range");
        running.set_param("gentle", 0.0).expect("a switch");
        let document = running.scenario().expect("built from a document");
        let params = &document.queue.params;
        assert_eq!(params.get("max_p"), Some(&ParamValue::Number(0.25)));
        assert_eq!(params.get("gentle"), Some(&ParamValue::Switch(false)));
        assert_eq!(params.get("min_th"), Some(&ParamValue::Number(5.0)));
        assert_eq!(params.len(), 4, "a parameter at its default stays out: {params:?}");
        // The document builds the run's setup: the same plan and the same results.
        let mut rebuilt = Simulation::new(&document, SeriesMode::default()).expect("valid");
        assert_eq!(rebuilt.resolved(), running.resolved());
        running.reset();
        assert_eq!(results(&mut rebuilt), results(&mut running));
    }

    #[test]
    fn reset_replays_the_run_from_time_zero_with_live_values() {
        let text = dumbbell(4.0, 1e6, 10.0, 30, QUEUE, FLOWS);
        let mut running = sim(&text);
        running.advance_to(crate::kernel::secs_f64(1.5));
        running.set_param("max_p", 0.3).expect("in range");
        running.reset();
        assert_eq!(running.now(), 0);
        assert_eq!(running.events_handled(), 0);
        let mut fresh = sim(&text);
        fresh.set_param("max_p", 0.3).expect("in range");
        assert_eq!(results(&mut running), results(&mut fresh));
        assert_eq!(running.scenario(), fresh.scenario());
    }
}
