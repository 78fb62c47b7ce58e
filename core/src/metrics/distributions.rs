//! Delay distributions over the measurement window: the queue sojourn time
//! of each monitored hop and of each flow group's packets, and the RTT
//! samples of each flow group, each a bounded [`Histogram`] (30 KB at most,
//! whatever the run's length). The summary reads percentiles from them; the
//! page draws their CDFs.

use super::{Histogram, Recorder};
use crate::transport::FlowKind;
use serde::Serialize;

/// Percentiles of a distribution in milliseconds, each read at the middle
/// of its histogram bucket (within 1/128 of the exact sample quantile).
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p999: f64,
}

/// The percentiles of `h` in ms; None without samples.
pub fn percentiles_ms(h: &Histogram) -> Option<Percentiles> {
    (h.count() > 0).then(|| Percentiles {
        p50: h.quantile(0.5) / 1e6,
        p90: h.quantile(0.9) / 1e6,
        p99: h.quantile(0.99) / 1e6,
        p999: h.quantile(0.999) / 1e6,
    })
}

/// An empirical CDF: at each occupied histogram bucket, its upper edge and
/// the fraction of samples at or below it.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Cdf {
    pub samples: u64,
    pub ms: Vec<f64>,
    pub fraction: Vec<f64>,
}

impl Cdf {
    fn of(h: &Histogram) -> Cdf {
        let (ms, fraction) = h.cdf().into_iter().map(|(ns, f)| (ns as f64 / 1e6, f)).unzip();
        Cdf { samples: h.count(), ms, fraction }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct HopDelays {
    pub hop: usize,
    pub sojourn: Cdf,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GroupDelays {
    pub group: usize,
    pub label: String,
    pub kind: &'static str,
    /// Queueing delay of the group's packets at the congested hops.
    pub sojourn: Cdf,
    /// The group's RTT samples: TCP and ping groups only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(target_arch = "wasm32", tsify(optional))]
    pub rtt: Option<Cdf>,
}

/// Every delay distribution of a run so far, for the page's CDF and box plots.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct DelayDistributions {
    pub hops: Vec<HopDelays>,
    pub groups: Vec<GroupDelays>,
}

/// Does a group of `kind` report RTT percentiles (TCP and ping groups)?
pub fn reports_rtt(kind: FlowKind) -> bool {
    matches!(kind, FlowKind::Tcp | FlowKind::Ping)
}

/// Per-group histograms, filled as packets leave monitored queues and as
/// transports measure RTTs (window only).
#[derive(Clone, Debug, Default)]
pub(super) struct GroupHistograms {
    pub sojourn: Histogram,
    pub rtt: Histogram,
}

pub(super) fn delay_distributions(r: &Recorder) -> DelayDistributions {
    DelayDistributions {
        hops: r.ports.iter().enumerate().map(|(hop, p)| HopDelays { hop, sojourn: Cdf::of(&p.delay) }).collect(),
        groups: r
            .group_hists
            .iter()
            .enumerate()
            .map(|(g, h)| {
                let kind = r.group_kinds[g];
                GroupDelays {
                    group: g,
                    label: r.group_labels[g].clone(),
                    kind: kind.as_str(),
                    sojourn: Cdf::of(&h.sojourn),
                    rtt: reports_rtt(kind).then(|| Cdf::of(&h.rtt)),
                }
            })
            .collect(),
    }
}
