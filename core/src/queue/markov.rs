//! Zheng & Atiquzzaman 2000 §2.3's Markov-chain model of a queue that drops arrivals with a
//! probability depending on its state, to draw theory beside a run: drop
//! probability P_D against the offered load ρ = λ/μ.
//!
//! Poisson arrivals at λ, exponential service at μ; state i is the number of
//! packets in the system, which the model takes as the average queue (w → 1).
//! An arrival in state i is accepted with probability p_a(i), so the chain is
//! birth–death with birth rates λ·p_a(i) (eq. 8) and death rate μ:
//! V(i) = V(0)·Π_{j<i} λ_j/μ (eqs. 5–6), P_D = 1 − Σ V(i)·p_a(i) (eq. 9).
//! The paper builds it for DSRED's drop function ([`super::dsred`]); RED gets
//! the same chain with RED's drop function ([`super::red::markov_model`]).
//! A scheme offers its model through its catalogue entry's `model`.

use super::scheme::{ParamValues, SchemeInfo};
use super::Limit;
use serde::Serialize;

/// The model at one offered load ρ = λ/μ.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ModelPoint {
    pub load: f64,
    /// P_D of eq. (9).
    pub drop_probability: f64,
    /// D of eq. (10) as printed: Σ (i+1)·V(i)·p_a(i)/μ, which counts a
    /// dropped packet's delay as zero.
    pub delay_s: f64,
    /// Mean sojourn (wait + service) of the packets that are queued: eq. (10)
    /// divided by the acceptance probability 1 − P_D. A run measures this.
    pub accepted_delay_s: f64,
}

/// Solve the chain for each offered load in `loads`. `p_a[i]` is the
/// acceptance probability in state i = 0..=N (0 in state N: the buffer is full).
pub fn birth_death(p_a: &[f64], service_rate_pps: f64, loads: &[f64]) -> Vec<ModelPoint> {
    loads
        .iter()
        .map(|&rho| {
            let mut v = Vec::with_capacity(p_a.len());
            v.push(1.0);
            for i in 1..p_a.len() {
                let next = v[i - 1] * rho * p_a[i - 1];
                if next > 1e200 {
                    // Rescale: only the ratios between states matter before eq. (6).
                    v.iter_mut().for_each(|x| *x *= 1e-200);
                    v.push(next * 1e-200);
                } else {
                    v.push(next);
                }
            }
            let total: f64 = v.iter().sum();
            let accepted: f64 = v.iter().zip(p_a).map(|(v, a)| v * a).sum::<f64>() / total;
            let delay_s = v.iter().zip(p_a).enumerate().map(|(i, (v, a))| (i + 1) as f64 * v * a).sum::<f64>()
                / total
                / service_rate_pps;
            ModelPoint {
                load: rho,
                drop_probability: (1.0 - accepted).clamp(0.0, 1.0),
                delay_s,
                accepted_delay_s: if accepted > 0.0 { delay_s / accepted } else { 0.0 },
            }
        })
        .collect()
}

/// What a scheme's model needs besides its parameters: thresholds and a byte
/// buffer turned into packets of the scheme's typical packet size
/// (`mean_packet_bytes`), which also sets μ = link rate / packet bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelSetup {
    /// N: the buffer in packets.
    pub buffer_packets: u32,
    /// Packets per unit of a threshold parameter (1, or 1/packet size for bytes).
    pub per_unit: f64,
    /// μ in packets per second.
    pub service_rate_pps: f64,
    pub link_rate_bps: u64,
}

/// The model for the running scheme with its current parameters, or `None`
/// for schemes whose entry declares none.
pub fn scheme_model(
    scheme: &SchemeInfo,
    params: &ParamValues,
    limit: Limit,
    link_rate_bps: u64,
    loads: &[f64],
) -> Option<Vec<ModelPoint>> {
    let model = scheme.model?;
    let packet_bytes = params.get("mean_packet_bytes").max(1.0);
    let (buffer_packets, per_unit) = match limit {
        Limit::Packets(n) => (n, 1.0),
        Limit::Bytes(b) => ((b as f64 / packet_bytes) as u64, 1.0 / packet_bytes),
    };
    let setup = ModelSetup {
        buffer_packets: u32::try_from(buffer_packets).unwrap_or(u32::MAX),
        per_unit,
        service_rate_pps: link_rate_bps as f64 / (8.0 * packet_bytes),
        link_rate_bps,
    };
    Some(model(params, &setup, loads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::red;
    use crate::queue::registry::find_scheme;

    fn model(scheme: &str, params: &ParamValues, limit: Limit, loads: &[f64]) -> Option<Vec<ModelPoint>> {
        scheme_model(find_scheme(scheme).expect("a registered scheme"), params, limit, 8e6 as u64, loads)
    }

    fn defaults(scheme: &str, overrides: &[(&str, f64)], limit: Limit) -> ParamValues {
        let info = find_scheme(scheme).expect("a registered scheme");
        let mut values = ParamValues::defaults(info, limit);
        for (id, v) in overrides {
            values.set(id, *v);
        }
        values
    }

    #[test]
    fn a_byte_buffer_gives_the_same_model_as_the_packet_buffer_it_holds() {
        let loads = [0.5, 0.9, 1.2];
        for (scheme, overrides) in
            [("red", vec![("min_th", 6.0), ("max_th", 20.0)]), ("dsred", vec![("k_l", 6.0), ("k_h", 20.0)])]
        {
            let packets =
                model(scheme, &defaults(scheme, &overrides, Limit::Packets(200)), Limit::Packets(200), &loads)
                    .expect("modelled");
            let in_bytes: Vec<(&str, f64)> = overrides.iter().map(|(id, v)| (*id, v * 1000.0)).collect();
            let bytes =
                model(scheme, &defaults(scheme, &in_bytes, Limit::Bytes(200_000)), Limit::Bytes(200_000), &loads)
                    .expect("modelled");
            for (p, b) in packets.iter().zip(&bytes) {
                assert!((p.drop_probability - b.drop_probability).abs() < 1e-12, "{scheme}: {p:?} vs {b:?}");
                // 1000-byte packets on 8 Mb/s: μ = 1000 packets/s.
                assert!((p.delay_s - b.delay_s).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn the_red_curve_follows_the_wait_switch() {
        // Wait drops about p_b/1.5 at a fixed p_b, F&J's rule about 2·p_b:
        // below saturation the chart's RED curve must drop less with wait on.
        let limit = Limit::Packets(200);
        let loads = [0.6, 0.8, 0.95];
        let red_model = |wait: f64| {
            let params = defaults("red", &[("min_th", 6.0), ("max_th", 20.0), ("wait", wait)], limit);
            model("red", &params, limit, &loads).expect("modelled")
        };
        let (on, off) = (red_model(1.0), red_model(0.0));
        for (w, f) in on.iter().zip(&off) {
            assert!(w.drop_probability < 0.8 * f.drop_probability, "{w:?} vs {f:?}");
        }
        let mut state = red::RedState { min_th: 6.0, max_th: 20.0, ..red::RedState::new(8e6 as u64) };
        state.count_rule = red::CountRule::Wait;
        assert_eq!(on, red::markov_model(&state, 200, 1e3, &loads));
    }

    #[test]
    fn only_red_and_dsred_are_modelled() {
        let modelled: Vec<_> =
            crate::queue::registry::SCHEMES.iter().filter(|s| s.model.is_some()).map(|s| s.id).collect();
        assert_eq!(modelled, ["red", "dsred"]);
        let limit = Limit::Packets(100);
        assert!(model("codel", &defaults("codel", &[], limit), limit, &[1.0]).is_none());
    }
}
