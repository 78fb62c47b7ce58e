//! `aqm-sim run --decisions`: the CSV holds every drop and mark the summary
//! counts, with the scheme's state under the declared header, and a path that
//! cannot be written is refused by its flag, leaving no file behind.

use std::path::Path;
use std::process::Command;

const SCENARIO: &str = r#"{
  "version": 1, "name": "decisions", "seed": 5, "duration_s": 20, "measure_from_s": 5,
  "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 4000000, "delay_ms": 10 },
                "buffer": { "packets": 40 } },
  "queue": { "scheme": "red", "params": { "min_th": 5, "max_th": 15, "max_p": 0.1, "ecn": true } },
  "flows": [
    { "kind": "tcp", "count": 4, "ecn": true, "access_delay_ms": [2, 20] },
    { "kind": "tcp", "count": 2 },
    { "kind": "cbr", "count": 1, "rate_bps": 500000, "packet_bytes": 500 }
  ]
}"#;

fn run(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let scenario = dir.join("s.json");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_aqm-sim")).arg("run").arg(&scenario).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn the_decisions_csv_holds_every_drop_and_mark_the_summary_counts() {
    let dir = std::env::temp_dir().join(format!("aqm-decisions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("d.csv");
    let (ok, stdout, stderr) = run(&dir, &["--decisions", csv.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t_s,flow,verdict,reason,avg,queued,count,p_b,p_a,draw,hop,seq,size_bytes"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 13), "a row without 13 cells");
    // The summary counts what happened in the measurement window (from 5 s).
    let in_window = |verdict: &str, reason: &str| {
        rows.iter().filter(|r| r[0].parse::<f64>().unwrap() >= 5.0 && r[2] == verdict && r[3] == reason).count() as u64
    };
    for reason in ["early", "forced", "overflow"] {
        assert_eq!(
            in_window("drop", reason),
            summary["drops"]["by_reason"][reason].as_u64().unwrap(),
            "{reason} drops"
        );
    }
    let marks = in_window("mark", "early") + in_window("mark", "forced");
    assert!(marks > 0 && in_window("drop", "early") > 0, "the run should both mark and drop early");
    assert_eq!(marks, summary["marks"].as_u64().unwrap());
    assert!(rows.iter().any(|r| r[2] == "pass"));
    assert_eq!(files_in(&dir), ["d.csv", "s.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_decisions_path_that_cannot_be_written_is_refused_by_its_flag_leaving_nothing() {
    let dir = std::env::temp_dir().join(format!("aqm-decisions-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("c.pcap");
    for args in [
        vec!["--decisions", "/nonexistent-dir/d.csv"],
        // The capture's files, already started, go too.
        vec!["--pcap", pcap.to_str().unwrap(), "--decisions", "/nonexistent-dir/d.csv"],
    ] {
        let (ok, stdout, stderr) = run(&dir, &args);
        assert!(!ok && stdout.is_empty(), "{args:?}");
        assert!(stderr.contains("--decisions: cannot write /nonexistent-dir/d.csv"), "{stderr}");
        assert_eq!(files_in(&dir), ["s.json"], "{args:?} left files behind");
    }
    let (ok, _, stderr) = run(&dir, &["--decisions"]);
    assert!(!ok && stderr.contains("--decisions needs a value"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
