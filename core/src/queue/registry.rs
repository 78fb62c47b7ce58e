//! Every scheme, by id, and the catalogue the page receives. Adding a
//! scheme is one line here; what a scheme declares lives in [`super::scheme`].

use super::scheme::SchemeInfo;
use super::{
    afpft, ared, bare, blue, cake, choke, cobalt, codel, csfq, droptail, drr, dsred, dualpi2, fq_cobalt, fq_codel,
    fq_pie, fred, nlred, pie, red, rem, rqrd, sfred, Limit, ParamKind, ParamSpec, ProbeSpec,
};
use serde::Serialize;

/// Every scheme, in the order the UI lists them.
#[rustfmt::skip]
pub static SCHEMES: &[&SchemeInfo] = &[
    &droptail::INFO,
    &red::INFO, &ared::INFO, &nlred::INFO, &dsred::INFO, &rem::INFO,
    &fred::INFO, &sfred::INFO, &choke::INFO, &drr::INFO,
    &bare::INFO, &afpft::INFO,
    &csfq::INFO, &rqrd::INFO,
    &codel::INFO, &pie::INFO, &dualpi2::INFO, &fq_codel::INFO, &blue::INFO,
    &fq_pie::INFO, &cobalt::INFO, &fq_cobalt::INFO, &cake::INFO,
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
    use crate::queue::scheme::ParamValues;
    use crate::queue::testing::Harness;
    use crate::queue::{DropReason, ProbeSink, QueueSetup};

    #[test]
    fn the_readme_lists_every_scheme_once() {
        // The README's scheme table is written by hand: one row a scheme,
        // `| `id` | name | paper | what the tests check |`.
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README.md");
        let mut listed: Vec<&str> = readme.lines().filter_map(|l| l.strip_prefix("| `")?.split('`').next()).collect();
        listed.sort_unstable();
        let mut ids: Vec<&str> = SCHEMES.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        assert_eq!(listed, ids);
    }

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
        let setup = QueueSetup { limit: Limit::Packets(100), link_rate_bps: 10_000_000, hosts: &[] };
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
        let setup = QueueSetup { limit: Limit::Bytes(100_000), link_rate_bps: 10_000_000, hosts: &[] };
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
    fn every_scheme_drops_what_overflows_its_buffer() {
        // Five 1000-byte packets at once into room for three, in packets as
        // in bytes: the buffer holds three and drops two for overflow. Only
        // CSFQ already drops early among them (its rule compares each
        // packet's rate label with the fair-share estimate), one of its two.
        for limit in [Limit::Packets(3), Limit::Bytes(3000)] {
            for s in SCHEMES {
                let mut h = Harness::new(s.id, &[], limit);
                h.arrive_n(5, 1000);
                let early = usize::from(s.id == "csfq");
                let got = (h.q.len_packets(), h.drops(DropReason::Overflow), h.drops(DropReason::Early));
                assert_eq!(got, (3, 2 - early, early), "{} in {limit:?}", s.id);
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
