//! Scheme ids → constructors and catalogues. Adding a scheme is one line here.

use super::{
    afpft, ared, bare, blue, choke, codel, csfq, droptail, drr, dsred, fq_codel, fred, nlred, pie, red, rem, rqrd,
    sfred, switch_on, Limit, ParamError, ParamKind, ParamSpec, ProbeSpec, Qdisc, QueueSetup,
};
use serde::Serialize;

/// Fully resolved parameter values of one scheme instance, in catalogue order.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValues {
    values: Vec<(&'static str, f64)>,
}

impl ParamValues {
    /// Every parameter at its default for `limit`'s unit.
    pub fn defaults(info: &SchemeInfo, limit: Limit) -> ParamValues {
        ParamValues { values: info.params.iter().map(|p| (p.id, p.for_limit(limit).default)).collect() }
    }

    /// The value of one of the scheme's own parameters.
    pub fn get(&self, id: &str) -> f64 {
        let found = self.values.iter().find(|(k, _)| *k == id);
        debug_assert!(found.is_some(), "scheme asked for a parameter it does not declare: {id}");
        found.map_or(0.0, |(_, v)| *v)
    }

    /// The value of one of the scheme's own switch parameters.
    pub fn flag(&self, id: &str) -> bool {
        switch_on(self.get(id))
    }

    pub fn set(&mut self, id: &str, value: f64) -> bool {
        match self.values.iter_mut().find(|(k, _)| *k == id) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.values.iter().copied()
    }
}

/// A relation between parameters that ranges alone cannot express, e.g.
/// RED's `min_th < max_th`, refused with the offending parameter's id.
pub type CrossCheck = fn(&ParamValues) -> Result<(), ParamError>;

pub struct SchemeInfo {
    pub id: &'static str,
    pub name: &'static str,
    pub paper: &'static str,
    pub summary: &'static str,
    pub params: &'static [ParamSpec],
    pub probes: &'static [ProbeSpec],
    pub build: fn(&QueueSetup, &ParamValues) -> Box<dyn Qdisc>,
    pub cross_check: CrossCheck,
}

/// A scheme instance with every parameter applied through its own
/// `set_param`, so that building and live changes share one path.
pub fn configured<Q: Qdisc + 'static>(mut q: Q, params: &ParamValues) -> Box<dyn Qdisc> {
    apply(&mut q, params);
    Box::new(q)
}

/// Apply every parameter through the scheme's own `set_param`.
pub fn apply<Q: Qdisc>(q: &mut Q, params: &ParamValues) {
    for (id, v) in params.iter() {
        // ParamValues holds exactly the scheme's catalogue ids, and the
        // registry tests apply each of them, so this cannot fail at run time.
        let applied = q.set_param(id, v);
        debug_assert!(applied.is_ok(), "{applied:?}");
    }
}

pub fn no_cross_check(_: &ParamValues) -> Result<(), ParamError> {
    Ok(())
}

impl std::fmt::Debug for SchemeInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "SchemeInfo({})", self.id)
    }
}

impl SchemeInfo {
    pub fn param(&self, id: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.id == id)
    }

    /// `value` for parameter `id` if the scheme has it and the value is in
    /// range for a buffer of `limit`'s unit.
    pub fn check_param(&self, id: &str, value: f64, limit: Limit) -> Result<f64, ParamError> {
        let spec =
            self.param(id).ok_or_else(|| ParamError::new(id, format!("`{}` has no parameter `{id}`", self.id)))?;
        spec.for_limit(limit).check(value)
    }
}

/// Every scheme, in the order the UI lists them.
#[rustfmt::skip]
pub static SCHEMES: &[&SchemeInfo] = &[
    &droptail::INFO,
    &red::INFO, &ared::INFO, &nlred::INFO, &dsred::INFO, &rem::INFO,
    &fred::INFO, &sfred::INFO, &choke::INFO, &drr::INFO,
    &bare::INFO, &afpft::INFO,
    &csfq::INFO, &rqrd::INFO,
    &codel::INFO, &pie::INFO, &fq_codel::INFO, &blue::INFO,
];

pub fn find_scheme(id: &str) -> Option<&'static SchemeInfo> {
    SCHEMES.iter().copied().find(|s| s.id == id)
}

/// The catalogue entry of one scheme as `aqm-sim schemes` prints it.
#[derive(Serialize, Clone, Debug)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct CatalogueEntry {
    pub id: &'static str,
    pub name: &'static str,
    pub paper: &'static str,
    pub summary: &'static str,
    pub params: Vec<ParamSpec>,
    pub probes: Vec<ProbeSpec>,
    /// Ids of the parameters in the buffer's unit (queue thresholds such as
    /// RED's min_th): once resolved, "packets" or "bytes" no longer tells a
    /// threshold from, say, a packet size, and the page draws thresholds.
    pub buffer_params: Vec<&'static str>,
}

/// The catalogue with "buffer"-unit parameters resolved for `limit`.
pub fn catalogue(limit: Limit) -> Vec<CatalogueEntry> {
    SCHEMES
        .iter()
        .map(|s| CatalogueEntry {
            id: s.id,
            name: s.name,
            paper: s.paper,
            summary: s.summary,
            params: s.params.iter().map(|p| p.for_limit(limit)).collect(),
            probes: s.probes.to_vec(),
            buffer_params: s.params.iter().filter(|p| p.kind == ParamKind::Buffer).map(|p| p.id).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::ProbeSink;

    #[test]
    fn every_default_is_in_range_and_passes_cross_checks() {
        for limit in [Limit::Packets(100), Limit::Bytes(100_000)] {
            for s in SCHEMES {
                for p in s.params {
                    let p = p.for_limit(limit);
                    assert!(p.check(p.default).is_ok(), "{}.{} default out of range", s.id, p.id);
                    assert!(p.step > 0.0 && p.min < p.max, "{}.{} bad range", s.id, p.id);
                    assert!(!p.doc.is_empty() && !p.label.is_empty());
                }
                assert!((s.cross_check)(&ParamValues::defaults(s, limit)).is_ok(), "{}", s.id);
            }
        }
    }

    #[test]
    fn every_scheme_takes_its_own_params_and_refuses_others() {
        let setup = QueueSetup { limit: Limit::Packets(100), link_rate_bps: 10_000_000 };
        for s in SCHEMES {
            let mut q = (s.build)(&setup, &ParamValues::defaults(s, setup.limit));
            for p in s.params {
                assert_eq!(q.set_param(p.id, p.default), Ok(()), "{}.{}", s.id, p.id);
            }
            let err = q.set_param("no_such_param", 1.0).expect_err(s.id);
            assert_eq!(err.param, "no_such_param");
            assert_eq!(err.to_string(), "queue.params.no_such_param: is not a parameter of this scheme");
        }
    }

    #[test]
    fn every_scheme_probes_each_declared_probe() {
        let setup = QueueSetup { limit: Limit::Bytes(100_000), link_rate_bps: 10_000_000 };
        for s in SCHEMES {
            let q = (s.build)(&setup, &ParamValues::defaults(s, setup.limit));
            let mut values = vec![f64::NAN; s.probes.len()];
            // An undeclared id panics inside put (debug assertion).
            q.probe(&mut ProbeSink::new(s.probes, &mut values));
            for (p, v) in s.probes.iter().zip(&values) {
                assert!(!v.is_nan(), "{}: probe {} was not written", s.id, p.id);
            }
        }
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<_> = SCHEMES.iter().map(|s| s.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), SCHEMES.len());
    }
}
