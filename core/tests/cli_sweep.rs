//! `aqm-sim sweep --shard K/N --jobs J`: the CSV of shards 1…N, concatenated
//! under one header, is byte for byte the CSV of the whole sweep.

use std::io::Write;
use std::process::{Command, Stdio};

const SCENARIO: &str = r#"{ "version": 1, "seed": 1, "duration_s": 4, "measure_from_s": 1,
  "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 1000000, "delay_ms": 5 }, "buffer": { "packets": 40 } },
  "queue": { "scheme": "red", "params": { "min_th": 5, "max_th": 20 } },
  "flows": [ { "kind": "tcp", "count": 4, "start_s": [0, 1] } ] }"#;

fn sweep(extra: &[&str]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aqm-sim"))
        .args(["sweep", "-", "--param", "queue.params.max_p", "--values", "0.05,0.1,0.2", "--seeds", "3"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aqm-sim starts");
    // A refused flag ends the CLI before it reads stdin: a broken pipe here is expected then.
    let _ = child.stdin.take().expect("stdin").write_all(SCENARIO.as_bytes());
    let out = child.wait_with_output().expect("aqm-sim ends");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn shards_concatenated_are_the_whole_sweep() {
    let (ok, whole, _) = sweep(&[]);
    assert!(ok);
    assert_eq!(whole.lines().count(), 1 + 9);
    let mut joined = String::new();
    for k in 1..=4 {
        let (ok, shard, _) = sweep(&["--shard", &format!("{k}/4"), "--jobs", "2"]);
        assert!(ok);
        let mut lines = shard.lines();
        let header = lines.next().expect("a header");
        if k == 1 {
            joined += header;
            joined += "\n";
        }
        for line in lines {
            joined += line;
            joined += "\n";
        }
    }
    assert_eq!(joined, whole);
}

#[test]
fn a_bad_shard_or_job_count_is_refused_by_name() {
    for (flag, value) in [("--shard", "5/4"), ("--shard", "two"), ("--jobs", "0")] {
        let (ok, _, err) = sweep(&[flag, value]);
        assert!(!ok, "{flag} {value}");
        assert!(err.contains(flag), "{err}");
    }
}
