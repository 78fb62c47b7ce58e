//! Fairness references: the max-min fair allocation (progressive filling)
//! and the seed papers' fairness measures.

/// Max-min fair rates by progressive filling (Bertsekas & Gallager §6.5.2):
/// raise every unfrozen flow's rate together until a link on its path
/// saturates or its own demand is met; freeze those flows; repeat.
/// `paths[f]` lists the links flow f crosses; `demands[f]` is None for an
/// elastic (unbounded) flow.
pub fn max_min_shares(capacity: &[f64], paths: &[Vec<usize>], demands: &[Option<f64>]) -> Vec<f64> {
    let n = paths.len();
    let mut rate = vec![0.0; n];
    let mut frozen: Vec<bool> = paths.iter().map(|p| p.is_empty()).collect();
    let mut left = capacity.to_vec();
    while frozen.iter().any(|f| !f) {
        let mut users = vec![0usize; capacity.len()];
        for (f, path) in paths.iter().enumerate().filter(|(f, _)| !frozen[*f]) {
            debug_assert!(path.iter().all(|&l| l < capacity.len()), "flow {f} crosses an unknown link");
            path.iter().for_each(|&l| users[l] += 1);
        }
        let link_step = (0..capacity.len()).filter(|&l| users[l] > 0).map(|l| left[l] / users[l] as f64);
        let demand_step = (0..n).filter(|&f| !frozen[f]).filter_map(|f| demands[f].map(|d| d - rate[f]));
        let step = link_step.chain(demand_step).fold(f64::INFINITY, f64::min).max(0.0);
        if !step.is_finite() {
            break;
        }
        for f in (0..n).filter(|&f| !frozen[f]) {
            rate[f] += step;
            paths[f].iter().for_each(|&l| left[l] -= step);
        }
        let eps = 1e-9 * capacity.iter().fold(1.0, |a: f64, &c| a.max(c));
        for f in 0..n {
            let saturated = paths[f].iter().any(|&l| left[l] <= eps);
            let satisfied = demands[f].is_some_and(|d| rate[f] >= d - eps);
            frozen[f] |= saturated || satisfied;
        }
    }
    rate
}

/// Cho & Cho 2002 eq. 9: S = sqrt(1/(N−1)·Σ(goodput_i/share_i − 1)²), the spread
/// of goodput around the fair share (the paper's share is BW/N: all its
/// flows are backlogged; here share_i is flow i's max-min share).
pub fn share_deviation(goodput: &[f64], share: &[f64]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = goodput.iter().zip(share).filter(|(_, s)| **s > 0.0).map(|(g, s)| (*g, *s)).collect();
    if pairs.len() < 2 {
        return None;
    }
    let sum: f64 = pairs.iter().map(|(g, s)| (g / s - 1.0).powi(2)).sum();
    Some(libm::sqrt(sum / (pairs.len() - 1) as f64))
}

/// Karam & Tobagi's (2000) fairness measure, generalised: f = Σ(r_out − fair)² /
/// Σ(r_prop − fair)², where r_prop shares the capacity in proportion to
/// the input rates. 0 = max-min fair, 1 = as unfair as proportional
/// sharing. With input rates (i+1)·C/N this is the paper's formula.
pub fn fairness_f(out: &[f64], fair: &[f64], input: &[f64], capacity: f64) -> Option<f64> {
    let total_in: f64 = input.iter().sum();
    if total_in <= 0.0 {
        return None;
    }
    let scale = (capacity / total_in).min(1.0);
    let num: f64 = out.iter().zip(fair).map(|(o, f)| (o - f).powi(2)).sum();
    let den: f64 = input.iter().zip(fair).map(|(i, f)| (i * scale - f).powi(2)).sum();
    (den > 0.0).then(|| num / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_link_with_small_flows_below_the_share() {
        // 10 units, demands 1, 2 and two elastic flows: 1, 2, then 3.5 each.
        let s = max_min_shares(&[10.0], &vec![vec![0]; 4], &[Some(1.0), Some(2.0), None, None]);
        assert_eq!(s, [1.0, 2.0, 3.5, 3.5]);
    }

    #[test]
    fn seed_003_cbr_groups_on_20_mbps() {
        // Five flows each at 0.5, 1, 1.5, 2 Mb/s: the lower two groups get
        // their rate, the upper two split what is left: 1.25 Mb/s.
        let demands: Vec<Option<f64>> = [0.5, 1.0, 1.5, 2.0].iter().flat_map(|&r| [Some(r); 5]).collect();
        let s = max_min_shares(&[20.0], &vec![vec![0]; 20], &demands);
        assert!(s[..5].iter().all(|&r| (r - 0.5).abs() < 1e-9));
        assert!(s[5..10].iter().all(|&r| (r - 1.0).abs() < 1e-9));
        assert!(s[10..].iter().all(|&r| (r - 1.25).abs() < 1e-9), "{s:?}");
    }

    #[test]
    fn parking_lot_long_flow_gets_the_bottleneck_share() {
        // AFpFT (2011) §3D: flow 0 crosses 3 links of 10, each shared with 10
        // CBR flows at 2: every link has 11 flows, so 10/11 each.
        let mut paths = vec![vec![0, 1, 2]];
        let mut demands = vec![Some(2.0)];
        for l in 0..3 {
            for _ in 0..10 {
                paths.push(vec![l]);
                demands.push(Some(2.0));
            }
        }
        let s = max_min_shares(&[10.0; 3], &paths, &demands);
        assert!(s.iter().all(|&r| (r - 10.0 / 11.0).abs() < 1e-9), "{s:?}");
    }

    #[test]
    fn a_flow_limited_elsewhere_frees_capacity() {
        // Link 0 (cap 1) has flows A and B; link 1 (cap 10) has B and C:
        // A = B = 0.5, then C takes the rest of link 1: 9.5.
        let s = max_min_shares(&[1.0, 10.0], &[vec![0], vec![0, 1], vec![1]], &[None, None, None]);
        assert_eq!(s, [0.5, 0.5, 9.5]);
    }

    #[test]
    fn fairness_f_is_zero_when_fair_and_one_when_proportional() {
        let n = 8;
        let c = 8.0;
        let input: Vec<f64> = (0..n).map(|i| (i + 1) as f64 * c / n as f64).collect();
        let fair = max_min_shares(&[c], &vec![vec![0]; n], &input.iter().map(|&r| Some(r)).collect::<Vec<_>>());
        assert!(fair.iter().all(|&r| (r - 1.0).abs() < 1e-9));
        assert_eq!(fairness_f(&fair, &fair, &input, c), Some(0.0));
        let total: f64 = input.iter().sum();
        let proportional: Vec<f64> = input.iter().map(|r| r * c / total).collect();
        assert!((fairness_f(&proportional, &fair, &input, c).unwrap() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn share_deviation_matches_eq_9() {
        assert_eq!(share_deviation(&[1.0, 1.0, 1.0], &[1.0; 3]), Some(0.0));
        // Deviations +0.5 and −0.5: sqrt((0.25 + 0.25)/1).
        assert!((share_deviation(&[1.5, 0.5], &[1.0, 1.0]).unwrap() - 0.5f64.sqrt()).abs() < 1e-12);
    }
}
