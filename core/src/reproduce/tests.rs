use super::*;
use serde_json::json;
use std::path::Path;

/// The repository root, where scenario paths in reproduction files start.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Runs at once for a file's seeds: the test profile is optimised, and the
/// seeds of one file are independent runs.
fn jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Run a reproduction file of `reproductions/` on all its seeds and check
/// that every claim gets the verdict the file pins (`expected`). To re-pin
/// after a model change, compare `aqm-sim reproduce --json` with the files
/// and update `expected`, the explanation and the ablations of each claim
/// that moved, then the README's tally (scripts/readme-tally.sh).
fn pinned(file: &str) {
    let path = root().join("reproductions").join(file);
    let text = std::fs::read_to_string(&path).expect("reproduction file");
    let repro = Reproduction::from_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let scenario = repro
        .scenario_text(|p| std::fs::read_to_string(root().join(p)).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    let rows = repro.run(&scenario, jobs()).unwrap_or_else(|e| panic!("{file}: {e}"));
    let moved: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict != r.expected)
        .map(|r| format!("{} now {:?} (mean {:?}, 95% {:?}, paper {})", r.id, r.verdict, r.mean, r.ci95, r.paper_value))
        .collect();
    assert!(moved.is_empty(), "{file}: {moved:?}");
}

// Each file runs its scenario on every seed, seconds of simulation apiece:
// `npm run test:long` runs them (`cargo test -- --ignored`), `npm test` does not.
macro_rules! pin {
    ($($name:ident => $file:literal),* $(,)?) => {
        $(#[test] #[ignore = "long: npm run test:long"] fn $name() { pinned($file); })*
        const PINNED: &[&str] = &[$($file),*];
    };
}

pin! {
    afpft_3b_tcp_and_cbr => "afpft-3b-tcp-and-cbr.json",
    afpft_fig2_water_filling => "afpft-fig2-water-filling.json",
    afpft_fig6_32_cbr => "afpft-fig6-32-cbr.json",
    afpft_parking_lot => "afpft-parking-lot.json",
    afpft_table3_web => "afpft-table3-web.json",
    bare_eq9_200_flows => "bare-eq9-200-flows.json",
    bare_fig9 => "bare-fig9.json",
    bare_weighted => "bare-weighted.json",
    dsred_table1 => "dsred-table1.json",
    dsred_table2 => "dsred-table2.json",
    dualpi2_k8_prague_cubic => "dualpi2-k8-prague-cubic.json",
    dualpi2_prague_cubic => "dualpi2-prague-cubic.json",
    nlred_experiment1 => "nlred-experiment1.json",
    rqrd_drop_precedence => "rqrd-drop-precedence.json",
    rqrd_fig3a => "rqrd-fig3a.json",
    rqrd_fig8 => "rqrd-fig8.json",
    sfred_cbr => "sfred-cbr.json",
    sfred_two_ftp => "sfred-two-ftp.json",
    sfred_web_and_ftp => "sfred-web-and-ftp.json",
}

fn all_files() -> Vec<(String, Reproduction)> {
    let mut files: Vec<(String, Reproduction)> = std::fs::read_dir(root().join("reproductions"))
        .expect("reproductions/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let text = std::fs::read_to_string(&p).expect("readable");
            let repro = Reproduction::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, repro)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

#[test]
fn every_reproduction_file_has_a_pinning_test() {
    let names: Vec<String> = all_files().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, PINNED.iter().map(|s| s.to_string()).collect::<Vec<_>>());
}

#[test]
fn the_claims_cover_all_five_papers() {
    let files = all_files();
    for paper in [
        "Cho & Cho 2002",
        "Karam & Tobagi 2000",
        "Zheng & Atiquzzaman 2000",
        "the AFpFT paper (2011)",
        "Zhou, Yeung & Li 2009",
    ] {
        assert!(files.iter().any(|(_, r)| r.paper == paper), "no claim from {paper}");
    }
}

/// The README's tally line, as `aqm-sim reproduce --tally` prints it.
fn readme_tally() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let line = readme.lines().find(|l| l.contains(" reproduced, ") && l.contains(" claims")).unwrap_or_default();
    line.trim().trim_end_matches('.').to_string()
}

#[test]
fn the_readme_tally_is_the_run_s() {
    // Every file's test pins each claim's verdict on its full run to
    // `expected`, so the pinned verdicts are the run's.
    let claims: Vec<Verdict> = all_files().iter().flat_map(|(_, r)| r.claims.iter().map(|c| c.expected)).collect();
    let count = |v: Verdict| claims.iter().filter(|&&c| c == v).count();
    let expected = format!(
        "{} reproduced, {} diverge, {} inconclusive, of {} claims",
        count(Verdict::Reproduced),
        count(Verdict::Diverges),
        count(Verdict::Inconclusive),
        claims.len()
    );
    assert!(readme_tally().ends_with(&expected), "README says `{}`, the run `{expected}`", readme_tally());
    // The figures' line, from the verdicts every_figure_gets_its_pinned_verdict holds them to.
    let figures: Vec<Option<Verdict>> =
        all_files().iter().flat_map(|(_, r)| r.figures.iter().map(|f| f.expected)).collect();
    let expected = format!("Figures: {}.", figure_tally(&figures));
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(readme.lines().any(|l| l.trim() == expected), "README has no line `{expected}`");
}

fn file(claims: serde_json::Value) -> serde_json::Value {
    json!({ "paper": "P", "experiment": "E", "scenario": "scenarios/x.json", "queue_source": "§1",
            "compare": { "scheme": "red", "source": "§2" }, "seeds": 5, "claims": claims })
}

fn claim(metric: &str, paper_value: serde_json::Value, tolerance: serde_json::Value) -> serde_json::Value {
    json!({ "id": "c", "figure": "Fig. 1", "claim": "text", "metric": metric, "paper_value": paper_value,
            "paper_source": "Table 1", "tolerance": tolerance, "tolerance_basis": "why", "expected": "reproduced" })
}

/// Summaries for the runs of a file with one compare run and no ablations:
/// seed s's main run is `main(s)`, its compare run `compare(s)`.
fn summaries(
    repro: &Reproduction,
    main: impl Fn(u64) -> serde_json::Value,
    compare: impl Fn(u64) -> serde_json::Value,
) -> Vec<serde_json::Value> {
    repro.runs().iter().map(|k| if k.side == Side::Main { main(k.seed) } else { compare(k.seed) }).collect()
}

fn judge_one(
    claim: serde_json::Value,
    main: impl Fn(u64) -> serde_json::Value,
    compare: impl Fn(u64) -> serde_json::Value,
) -> ClaimResult {
    let repro = Reproduction::from_json(&file(json!([claim])).to_string()).expect("valid");
    repro.judge(&summaries(&repro, main, compare)).expect("judged").remove(0)
}

/// Five seeds measuring 10 + (s − 3)·spread: mean 10, 95 % interval 10 ± 1.963·spread.
fn around_ten(spread: f64) -> impl Fn(u64) -> serde_json::Value {
    move |s| json!({ "queue": { "mean_packets": 10.0 + (s as f64 - 3.0) * spread } })
}

#[test]
fn the_verdict_is_read_from_the_interval_against_the_tolerance() {
    let at = |spread: f64, tol: serde_json::Value| {
        judge_one(claim("queue.mean_packets", json!(10.5), tol), around_ten(spread), |_| json!({})).verdict
    };
    // Half-width: t(0.975, 4) · spread·√2.5 / √5 = 1.963·spread.
    assert_eq!(at(0.1, json!({ "absolute": 1.0 })), Verdict::Reproduced);
    assert_eq!(at(0.5, json!({ "absolute": 1.0 })), Verdict::Inconclusive);
    assert_eq!(at(0.1, json!({ "absolute": 0.2 })), Verdict::Diverges);
    assert_eq!(at(0.0, json!({ "relative": 0.05 })), Verdict::Reproduced);
    assert_eq!(at(0.0, json!({ "relative": 0.04 })), Verdict::Diverges);
    let r =
        judge_one(claim("queue.mean_packets", json!(10.5), json!({ "absolute": 1.0 })), around_ten(1.0), |_| json!({}));
    assert_eq!((r.seeds, r.mean), (5, Some(10.0)));
    assert!((r.std_dev.unwrap() - 2.5f64.sqrt()).abs() < 1e-12);
    let [lo, hi] = r.ci95.unwrap();
    assert!((hi - lo - 2.0 * 2.776 * 2.5f64.sqrt() / 5f64.sqrt()).abs() < 1e-2, "{lo} {hi}");
}

#[test]
fn a_relation_between_runs_is_judged_on_the_paired_differences() {
    // The main run varies a lot from seed to seed, but is always 1 above the
    // compare run of the same seed: the paired difference decides.
    let main = |s: u64| json!({ "flows": [{ "goodput_bps": 100.0 * s as f64 + 1.0 }] });
    let compare = |s: u64| json!({ "flows": [{ "goodput_bps": 100.0 * s as f64 }] });
    let r = judge_one(
        claim("flows[0].goodput_bps", json!("more"), json!({ "greater_than": "compare:flows[0].goodput_bps" })),
        main,
        compare,
    );
    assert_eq!(r.verdict, Verdict::Reproduced);
    assert_eq!(r.difference.as_ref().map(|d| d.ci95), Some([1.0, 1.0]));
    let r = judge_one(
        claim("flows[0].goodput_bps", json!("less"), json!({ "less_than": "compare:flows[0].goodput_bps" })),
        main,
        compare,
    );
    assert_eq!(r.verdict, Verdict::Diverges);
    // Differences of either sign: the interval straddles zero.
    let r = judge_one(
        claim("flows[0].goodput_bps", json!("more"), json!({ "greater_than": "compare:flows[0].goodput_bps" })),
        |s| json!({ "flows": [{ "goodput_bps": if s % 2 == 0 { 2.0 } else { -1.0 } }] }),
        |_| json!({ "flows": [{ "goodput_bps": 0.0 }] }),
    );
    assert_eq!(r.verdict, Verdict::Inconclusive);
}

#[test]
fn one_sided_bounds_against_a_value_are_strict() {
    let at = |tol: serde_json::Value| {
        judge_one(claim("queue.mean_packets", json!("under"), tol), around_ten(0.0), |_| json!({})).verdict
    };
    assert_eq!(at(json!({ "less_than": 10.5 })), Verdict::Reproduced);
    assert_eq!(at(json!({ "less_than": 10.0 })), Verdict::Diverges);
    assert_eq!(at(json!({ "greater_than": 9.5 })), Verdict::Reproduced);
    let straddles =
        judge_one(claim("queue.mean_packets", json!("under"), json!({ "less_than": 10.5 })), around_ten(1.0), |_| {
            json!({})
        });
    assert_eq!(straddles.verdict, Verdict::Inconclusive);
}

#[test]
fn a_null_in_any_seed_is_measured_as_nothing_and_diverges() {
    let r = judge_one(
        claim("fairness.jain_tcp", json!(1.0), json!({ "absolute": 0.1 })),
        |s| json!({ "fairness": { "jain_tcp": if s == 3 { serde_json::Value::Null } else { json!(1.0) } } }),
        |_| json!({}),
    );
    assert_eq!((r.verdict, r.mean, r.ci95), (Verdict::Diverges, None, None));
}

#[test]
fn a_path_that_is_not_in_the_summary_is_an_error_naming_the_claim() {
    let repro = Reproduction::from_json(
        &file(json!([claim("flows[3].goodput_bps", json!(1.0), json!({ "relative": 0.1 }))])).to_string(),
    )
    .unwrap();
    let e = repro.judge(&summaries(&repro, |_| json!({ "flows": [] }), |_| json!({}))).unwrap_err();
    assert_eq!(e.to_string(), "claims[0].metric: not in the summary");
}

#[test]
fn bad_files_are_refused_with_the_field_named() {
    let refused = |v: serde_json::Value| Reproduction::from_json(&v.to_string()).unwrap_err().to_string();
    let ok = || file(json!([claim("utilization", json!(1.0), json!({ "relative": 0.1 }))]));
    let mut unknown = ok();
    unknown["claims"][0]["tolerence"] = json!(1);
    let e = refused(unknown);
    assert!(e.starts_with("claims[0].tolerence: unknown field `tolerence`"), "{e}");
    assert!(refused(file(json!([claim("utilization", json!("all"), json!({ "relative": 0.1 }))])))
        .starts_with("claims[0].paper_value: a relative or absolute tolerance needs a number"));
    assert!(refused(file(json!([claim("flows[x].goodput_bps", json!(1.0), json!({ "relative": 0.1 }))])))
        .starts_with("claims[0].metric:"));
    assert!(refused(file(json!([claim("utilization", json!(1.0), json!({ "relative": -0.1 }))])))
        .starts_with("claims[0].tolerance:"));
    let mut no_source = ok();
    no_source["claims"][0]["paper_source"] = json!("");
    assert!(refused(no_source).starts_with("claims[0].paper_source:"));
    let mut no_compare_source = ok();
    no_compare_source["compare"]["source"] = json!("");
    assert!(refused(no_compare_source).starts_with("compare.source:"));
    let mut no_queue_source = ok();
    no_queue_source.as_object_mut().unwrap().remove("queue_source");
    assert!(refused(no_queue_source).starts_with("queue_source:"));
    let mut no_basis = ok();
    no_basis["claims"][0]["tolerance_basis"] = json!("");
    assert!(refused(no_basis).starts_with("claims[0].tolerance_basis:"));
    let mut no_compare = file(json!([claim("compare:utilization", json!(1.0), json!({ "relative": 0.1 }))]));
    no_compare.as_object_mut().unwrap().remove("compare");
    assert!(refused(no_compare).starts_with("claims[0].metric: reads compare run 0"));
    assert!(refused(file(json!([claim("compare[1]:utilization", json!(1.0), json!({ "relative": 0.1 }))])))
        .starts_with("claims[0].metric: reads compare run 1"));
    let mut diverges = ok();
    diverges["claims"][0]["expected"] = json!("diverges");
    assert!(refused(diverges.clone()).starts_with("claims[0].explanation:"));
    diverges["claims"][0]["explanation"] = json!("a cause");
    assert!(refused(diverges.clone()).starts_with("claims[0].ablations: a claim not reproduced needs an ablation"));
    diverges["claims"][0]["ablations"] = json!(["wait-off"]);
    assert!(refused(diverges.clone()).starts_with("claims[0].ablations[0]: no ablation `wait-off`"));
    diverges["ablations"] =
        json!([{ "id": "wait-off", "change": "RED's wait off", "set": { "compare:queue.params.wait": 0 } }]);
    assert!(Reproduction::from_json(&diverges.to_string()).is_ok());
    let mut unused = ok();
    unused["ablations"] = json!([{ "id": "a", "change": "c", "set": { "duration_s": 5 } }]);
    assert!(refused(unused).starts_with("ablations[0].id: no claim uses `a`"));
    let mut scheme = ok();
    scheme["compare"]["scheme"] = json!("wred");
    assert!(refused(scheme).starts_with("compare.scheme: `wred`"));
    let mut seeds = ok();
    seeds["seeds"] = json!(3);
    assert!(refused(seeds).starts_with("seeds: must be 5 to 30"));
}

#[test]
fn compare_runs_take_the_paper_s_parameters_and_ablations_set_fields_by_run() {
    let mut v = file(json!([claim("utilization", json!(1.0), json!({ "relative": 0.1 }))]));
    v["compare"] = json!([
        { "scheme": "red", "params": { "min_th": 6, "max_th": 20 }, "source": "§3.1" },
        { "scheme": "droptail", "source": "no parameters" }
    ]);
    v["set"] = json!({ "duration_s": 100 });
    v["ablations"] = json!([{ "id": "a", "change": "c",
        "set": { "compare[0]:queue.params.wait": 0, "main:queue.params.fair_drop": 0, "flows[0].count": 2 } }]);
    v["claims"][0]["ablations"] = json!(["a"]);
    let repro = Reproduction::from_json(&v.to_string()).unwrap();
    let scenario = repro
        .scenario_text(|_| Ok(r#"{ "queue": { "scheme": "bare" }, "flows": [{ "count": 1 }], "seed": 3 }"#.into()))
        .unwrap();
    let keys = repro.runs();
    assert_eq!(keys.len(), 2 * 5 * 3);
    let run = |side, ablation, seed| {
        let text = repro.run_text(&scenario, RunKey { side, ablation, seed }).unwrap();
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    assert_eq!(
        run(Side::Compare(0), None, 2),
        json!({ "queue": { "scheme": "red", "params": { "min_th": 6, "max_th": 20 } }, "flows": [{ "count": 1 }],
                "duration_s": 100, "seed": 2 })
    );
    assert_eq!(run(Side::Compare(1), None, 1)["queue"], json!({ "scheme": "droptail" }));
    assert_eq!(run(Side::Main, Some(0), 4)["queue"], json!({ "scheme": "bare", "params": { "fair_drop": 0 } }));
    assert_eq!(run(Side::Main, Some(0), 4)["flows"], json!([{ "count": 2 }]));
    assert_eq!(
        run(Side::Compare(0), Some(0), 5)["queue"],
        json!({ "scheme": "red", "params": { "min_th": 6, "max_th": 20, "wait": 0 } })
    );
    assert_eq!(run(Side::Compare(1), Some(0), 5)["queue"], json!({ "scheme": "droptail" }));
}

#[test]
fn a_file_with_one_compare_scheme_and_no_seeds_stays_valid() {
    let mut v = file(json!([claim("compare:utilization", json!(1.0), json!({ "relative": 0.1 }))]));
    v.as_object_mut().unwrap().remove("seeds");
    let repro = Reproduction::from_json(&v.to_string()).unwrap();
    assert_eq!((repro.seed_count(), repro.compares().len()), (DEFAULT_SEEDS, 1));
}

#[test]
fn numbers_print_with_four_significant_digits_and_no_trailing_zeros() {
    assert_eq!(fmt_number(0.0924812), "0.09248");
    assert_eq!(fmt_number(135618.37), "135618");
    assert_eq!(fmt_number(2.6), "2.6");
    assert_eq!(fmt_number(15.000000000000002), "15");
    assert_eq!(fmt_number(-0.5), "-0.5");
    assert_eq!(Tolerance::Relative(0.15).to_string(), "±15%");
}

/// Every run of `figure` over `scenario`, on the test's jobs, aggregated.
fn run_figure(figure: &Figure, scenario: &str) -> FigureResult {
    let variants = figure
        .runs()
        .into_iter()
        .map(|run| {
            let text = figure.run_text(scenario, run).expect("run text");
            (run.x as f64, run.seed, crate::scenario::Scenario::from_json(&text).expect("scenario"))
        })
        .collect();
    let points = sweep::run_variants(variants, jobs(), |_, _| {}).expect("runs");
    let summaries: Vec<Value> = points.into_iter().map(|p| serde_json::to_value(p.summary).expect("json")).collect();
    figure.result(&summaries).expect("result")
}

fn figure_of(file: &str, id: &str) -> (Reproduction, Figure, String) {
    let text = std::fs::read_to_string(root().join("reproductions").join(file)).expect("reproduction file");
    let repro = Reproduction::from_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let figure = repro.figure(id).unwrap_or_else(|| panic!("{file}: no figure {id}")).clone();
    let scenario = repro
        .scenario_text(|p| std::fs::read_to_string(root().join(p)).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    (repro, figure, scenario)
}

#[test]
fn a_figure_expands_to_one_run_per_x_scheme_and_seed_with_its_fields_set() {
    let (_, figure, scenario) = figure_of("bare-fig9.json", "bare-fig8");
    let runs = figure.runs();
    assert_eq!(runs.len(), 6 * 3 * 5);
    assert_eq!(runs[0], FigureRun { x: 0, series: 0, seed: 1 });
    assert_eq!(runs[6], FigureRun { x: 0, series: 1, seed: 2 });
    assert_eq!(runs[89], FigureRun { x: 5, series: 2, seed: 5 });
    // 650 flows: 390 TCP and 260 CBR at 3 × 20 Mb/s / 650 (Cho & Cho 2002 §4.3), FRED with §4.1's parameters.
    let text = figure.run_text(&scenario, FigureRun { x: 5, series: 1, seed: 3 }).expect("run text");
    let run: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(run["flows"][0]["count"], json!(390));
    assert_eq!(run["flows"][1]["count"], json!(260));
    assert_eq!(run["flows"][1]["rate_bps"], json!(92308));
    assert_eq!(run["queue"]["scheme"], json!("fred"));
    assert_eq!(run["queue"]["params"]["max_th"], json!(160000));
    assert_eq!((run["seed"].clone(), run["duration_s"].clone()), (json!(3), json!(30)));
    crate::scenario::Scenario::from_json(&text).expect("a valid scenario");
    // x written to its path as a whole number, so a count field takes it.
    let (_, nlred, scenario) = figure_of("nlred-experiment1.json", "nlred-fig19");
    let text = nlred.run_text(&scenario, FigureRun { x: 3, series: 1, seed: 1 }).expect("run text");
    let run: Value = serde_json::from_str(&text).expect("json");
    assert_eq!((run["flows"][0]["count"].clone(), run["queue"]["scheme"].clone()), (json!(40), json!("rem")));
}

/// AFpFT (2011) §3B, Fig. 5: with the UDP flow sending at 5 Mb/s on the
/// 1 Mb/s link, RED leaves it nearly the whole link, while AFpFT holds it
/// at the max-min fair share (1 Mb/s over 33 flows) at every sending rate
/// above that share.
#[test]
fn afpft_fig5_red_gives_the_udp_flow_the_link_and_afpft_its_fair_share() {
    let (_, figure, scenario) = figure_of("afpft-3b-tcp-and-cbr.json", "afpft-fig5");
    let result = run_figure(&figure, &scenario);
    let at =
        |series: &str, x: f64| result.points.iter().find(|p| p.series == series && p.x == x).expect("point").clone();
    let red = at("RED", 5e6);
    assert!(red.ci_lo.expect("interval") > 0.95e6, "{red:?}");
    assert_eq!(red.paper, Some(971_903.0));
    let share = 1e6 / 33.0;
    for x in [1e5, 5e5, 1e6, 5e6] {
        let p = at("AFpFT", x);
        assert!(p.ci_lo.expect("interval") > 0.9 * share && p.ci_hi.expect("interval") < 1.1 * share, "{p:?}");
    }
    assert!(result.csv().starts_with("x,scheme,mean,ci_lo,ci_hi,paper\n10000,RED,"));
}

#[test]
fn bad_figures_are_refused_with_the_field_named() {
    let base = json!({
        "paper": "P", "experiment": "E", "queue_source": "defaults",
        "scenario": "scenarios/red-ten-flows.json",
        "claims": [{ "id": "c", "figure": "Fig. 1", "claim": "c", "metric": "utilization", "paper_value": 1,
                     "paper_source": "§1", "tolerance": { "less_than": 2 }, "expected": "reproduced" }],
        "figures": [{ "id": "p-fig1", "title": "T", "source": "§1",
                      "x": { "path": "flows[0].count", "values": [1, 2], "label": "N" },
                      "y": { "metric": "utilization", "label": "u" },
                      "series": [{ "label": "RED", "scheme": "red", "source": "defaults" }],
                      "marks": [{ "series": "RED", "x": 2, "y": 1, "quote": "q", "tolerance": "below" }],
                      "marks_note": "no other values in our copy", "expected": "reproduced" }]
    });
    Reproduction::from_json(&base.to_string()).expect("the base file is valid");
    // x may sweep a parameter of the series' scheme: the scheme is set first.
    let mut swept = base.clone();
    swept["figures"][0]["x"] = json!({ "path": "queue.params.max_p", "values": [0.05, 0.3], "label": "max_p" });
    swept["figures"][0]["marks"] = json!([]);
    swept["figures"][0].as_object_mut().expect("figure").remove("expected");
    let repro = Reproduction::from_json(&swept.to_string()).expect("valid");
    let scenario = std::fs::read_to_string(root().join("scenarios/red-ten-flows.json")).expect("scenario");
    let text = repro.figures[0].run_text(&scenario, FigureRun { x: 1, series: 0, seed: 2 }).expect("run text");
    let run: Value = serde_json::from_str(&text).expect("json");
    assert_eq!((run["queue"]["scheme"].clone(), run["queue"]["params"]["max_p"].clone()), (json!("red"), json!(0.3)));
    let refused = |path: &str, value: Value| {
        let mut doc = base.clone();
        doc["figures"][0][path] = value;
        Reproduction::from_json(&doc.to_string()).expect_err("refused").path
    };
    assert_eq!(
        refused("marks", json!([{ "series": "FRED", "x": 2, "y": 1, "quote": "q", "tolerance": "below" }])),
        "figures[0].marks[0].series"
    );
    assert_eq!(
        refused("marks", json!([{ "series": "RED", "x": 3, "y": 1, "quote": "q", "tolerance": "below" }])),
        "figures[0].marks[0].x"
    );
    assert_eq!(refused("marks_note", json!("")), "figures[0].marks_note");
    assert_eq!(refused("id", json!("Fig 1")), "figures[0].id");
    assert_eq!(refused("y", json!({ "metric": "compare:utilization", "label": "u" })), "figures[0].y.metric");
    let with = json!({ "values": [1, 2], "label": "N", "with": { "flows[0].count": [1] } });
    assert_eq!(refused("x", with), "figures[0].x.with.flows[0].count");
}

/// Every figure of every file, run on its seeds, gets the verdict against
/// its marks that the file pins (`expected`; none for a figure without
/// marks). Long: every figure's sweep.
#[test]
#[ignore = "long: npm run test:long"]
fn every_figure_gets_its_pinned_verdict() {
    let mut moved = Vec::new();
    for (name, repro) in all_files() {
        for figure in &repro.figures {
            let (_, figure, scenario) = figure_of(&name, &figure.id);
            let result = run_figure(&figure, &scenario);
            if result.verdict != figure.expected {
                moved.push(format!("{} now {:?} (marks {:?})", figure.id, result.verdict, result.mark_verdicts));
            }
        }
    }
    assert!(moved.is_empty(), "{moved:?}");
}

/// A figure over synthetic summaries: a CDF read at the buckets' edges, one
/// run per series and seed, and each mark judged on the interval at its point.
#[test]
fn a_cdf_figure_reads_every_x_from_one_run_and_its_marks_are_judged_on_the_interval() {
    let doc = json!({
        "paper": "P", "experiment": "E", "queue_source": "defaults", "scenario": "scenarios/red-ten-flows.json",
        "claims": [{ "id": "c", "figure": "Fig. 1", "claim": "c", "metric": "utilization", "paper_value": 1,
                     "paper_source": "§1", "tolerance": { "less_than": 2 }, "expected": "reproduced" }],
        "figures": [{ "id": "p-cdf", "title": "T", "source": "§1",
                      "x": { "values": [1, 2], "label": "s" },
                      "y": { "metric": "web.fct_buckets", "label": "share", "cdf": true },
                      "series": [{ "label": "RED", "scheme": "red", "source": "defaults" },
                                 { "label": "RED, wait off", "scheme": "red", "source": "defaults",
                                   "set": { "queue.params.wait": 0 }, "ablation": "wait off" }],
                      "marks": [{ "series": "RED", "x": 1, "y": 0.5, "quote": "q", "tolerance": "above" },
                                { "series": "RED", "x": 2, "y": 0.78, "quote": "q", "tolerance": { "absolute": 0.04 },
                                  "tolerance_basis": "b" }],
                      "marks_note": "n", "expected": "inconclusive", "explanation": "why" }]
    });
    let repro = Reproduction::from_json(&doc.to_string()).expect("valid");
    let figure = &repro.figures[0];
    let runs = figure.runs();
    assert_eq!(runs.len(), 2 * 5);
    assert!(runs.iter().all(|r| r.x == 0));
    let text = figure.run_text(r#"{ "queue": { "scheme": "red" }, "flows": [] }"#, runs[5]).expect("run text");
    assert_eq!(serde_json::from_str::<Value>(&text).expect("json")["queue"]["params"]["wait"], json!(0));
    // Seed s: 50 + s % within 1 s, 20 % more within 2 s, the rest beyond.
    let summary = |s: u64| {
        let first = 50.0 + s as f64;
        json!({ "web": { "fct_buckets": [
            { "from_s": 0, "to_s": 1, "percent": first }, { "from_s": 1, "to_s": 2, "percent": 20 },
            { "from_s": 2, "to_s": null, "percent": 30.0 - s as f64 }] } })
    };
    let summaries: Vec<Value> = runs.iter().map(|r| summary(r.seed)).collect();
    let result = figure.result(&summaries).expect("result");
    let at = |series: &str, x: f64| result.points.iter().find(|p| p.series == series && p.x == x).expect("point");
    assert!((at("RED", 1.0).mean.expect("mean") - 0.53).abs() < 1e-12);
    assert!((at("RED, wait off", 2.0).mean.expect("mean") - 0.73).abs() < 1e-12);
    assert_eq!(result.points.iter().map(|p| p.x).collect::<Vec<_>>(), vec![1.0, 1.0, 2.0, 2.0]);
    // 0.53 ± 0.02 is above 0.5; 0.73 ± 0.02 lies across the band's lower edge 0.74.
    assert_eq!(result.mark_verdicts, vec![Verdict::Reproduced, Verdict::Inconclusive]);
    assert_eq!(result.verdict, Some(Verdict::Inconclusive));
    assert_eq!(result.ablations[0].series, "RED, wait off");
    // An x that is not a bucket edge is refused, naming the field.
    let mut off_edge = repro.figures[0].clone();
    off_edge.x.values = vec![1.5];
    off_edge.marks.clear();
    assert_eq!(off_edge.result(&summaries).expect_err("refused").path, "x.values");
    let refused = |path: &str, value: Value| {
        let mut bad = doc.clone();
        bad["figures"][0][path] = value;
        Reproduction::from_json(&bad.to_string()).expect_err("refused").path
    };
    assert_eq!(refused("expected", Value::Null), "figures[0].expected");
    assert_eq!(refused("explanation", json!("")), "figures[0].explanation");
    assert_eq!(refused("x", json!({ "path": "duration_s", "values": [1], "label": "s" })), "figures[0].x.path");
    let unmarked = json!([{ "series": "RED", "x": 2, "y": 0.8, "quote": "q", "tolerance": { "absolute": 0.05 } }]);
    assert_eq!(refused("marks", unmarked), "figures[0].marks[0].tolerance_basis");
    let on_ablation = json!([{ "series": "RED, wait off", "x": 2, "y": 0.8, "quote": "q", "tolerance": "below" }]);
    assert_eq!(refused("marks", on_ablation), "figures[0].marks[0].series");
}
