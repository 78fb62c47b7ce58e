//! Captures read back with a minimal pcap reader: file and record headers,
//! every checksum, TCP sequence numbers continuous with the flow's goodput
//! (each hole in what passed is a segment the drops file shows), size
//! bounded by the window; and the CLI's refusals leave no file behind.

use aqm_core::sim::{CaptureField, CaptureRequest, SeriesMode, Simulation};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const SCENARIO: &str = r#"{
  "version": 1, "name": "capture", "seed": 3, "duration_s": 30, "measure_from_s": 10,
  "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 4000000, "delay_ms": 10 },
                "buffer": { "packets": 40 }, "access": { "rate_bps": 100000000, "delay_ms": 2 } },
  "queue": { "scheme": "red", "params": { "min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002, "gentle": true } },
  "flows": [
    { "kind": "tcp", "count": 4, "cc": "newreno", "sack": true, "segment_bytes": 1000, "access_delay_ms": [2, 20] },
    { "kind": "cbr", "count": 1, "rate_bps": 500000, "packet_bytes": 500 }
  ]
}"#;

struct Record {
    t_ns: u64,
    ip: Vec<u8>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn checksum(bytes: &[u8]) -> u16 {
    let mut sum: u64 = bytes.chunks(2).map(|w| ((w[0] as u64) << 8) | *w.get(1).unwrap_or(&0) as u64).sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// Parse a classic nanosecond pcap of raw IPv4, checking its headers and checksums.
fn read_pcap(bytes: &[u8]) -> Vec<Record> {
    assert_eq!(le32(bytes, 0), 0xa1b2_3c4d, "nanosecond magic");
    assert_eq!((le32(bytes, 16), le32(bytes, 20)), (65_535, 101), "snap length, LINKTYPE_RAW");
    let mut records = Vec::new();
    let mut at = 24;
    while at < bytes.len() {
        let (sec, nsec, incl, orig) = (le32(bytes, at), le32(bytes, at + 4), le32(bytes, at + 8), le32(bytes, at + 12));
        assert!(nsec < 1_000_000_000);
        assert_eq!(incl, orig, "packets are written whole");
        let ip = bytes[at + 16..at + 16 + incl as usize].to_vec();
        assert_eq!((ip[0], u16_at(&ip, 2) as u32), (0x45, incl));
        assert_eq!(checksum(&ip[..20]), 0, "IPv4 header checksum");
        let mut pseudo = ip[12..20].to_vec();
        pseudo.extend_from_slice(&[0, ip[9]]);
        pseudo.extend_from_slice(&(ip.len() as u16 - 20).to_be_bytes());
        pseudo.extend_from_slice(&ip[20..]);
        assert_eq!(checksum(&pseudo), 0, "TCP/UDP checksum with the pseudo-header");
        records.push(Record { t_ns: sec as u64 * 1_000_000_000 + nsec as u64, ip });
        at += 16 + incl as usize;
    }
    assert_eq!(at, bytes.len(), "no trailing bytes");
    assert!(records.windows(2).all(|w| w[0].t_ns <= w[1].t_ns), "records in time order");
    records
}

/// TCP data segments by sender address: (seq, end) ranges.
fn data_segments(records: &[Record]) -> BTreeMap<[u8; 4], Vec<(u32, u32)>> {
    let mut flows: BTreeMap<[u8; 4], Vec<(u32, u32)>> = BTreeMap::new();
    for r in records.iter().filter(|r| r.ip[9] == 6) {
        let header = (r.ip[32] >> 4) as usize * 4;
        let len = r.ip.len() - 20 - header;
        if len > 0 {
            let seq = u32_at(&r.ip, 24);
            flows.entry(r.ip[12..16].try_into().unwrap()).or_default().push((seq, seq + len as u32));
        }
    }
    flows
}

/// Sorted, merged ranges.
fn union(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (l, r) in ranges {
        match merged.last_mut() {
            Some(last) if l <= last.1 => last.1 = last.1.max(r),
            _ => merged.push((l, r)),
        }
    }
    merged
}

fn captured(request: CaptureRequest) -> (Simulation, Vec<Record>, Vec<Record>) {
    let mut sim = Simulation::from_json(SCENARIO, SeriesMode::default()).unwrap();
    sim.capture(request).unwrap();
    let (mut passed, mut dropped) = (Vec::new(), Vec::new());
    while !sim.is_finished() {
        sim.advance_to(sim.now() + 500_000_000);
        let bytes = sim.take_capture();
        passed.extend(bytes.passed);
        dropped.extend(bytes.dropped);
    }
    (sim, read_pcap(&passed), read_pcap(&dropped))
}

#[test]
fn tcp_sequence_numbers_are_continuous_with_goodput_and_holes_are_drops() {
    let (sim, passed, dropped) = captured(CaptureRequest::default());
    assert!(!dropped.is_empty(), "RED drops at this load");
    let summary = sim.summary();
    let (before, during): (Vec<Record>, Vec<Record>) = passed.into_iter().partition(|r| r.t_ns < 10_000_000_000);
    let highest = |recs: &[Record], sender| data_segments(recs)[&sender].iter().map(|s| s.1).max().unwrap();
    let dropped_data = data_segments(&dropped);
    // In flight at most: the buffer and the path's BDP, in bytes.
    let slack = (40 + 30) * 1000;
    for flow in summary.flows.iter().filter(|f| f.kind == "tcp") {
        let sender = [10, 0, 0, flow.id as u8 + 1];
        let span = highest(&during, sender) - highest(&before, sender);
        let delivered = flow.goodput_bps * 20.0 / 8.0;
        assert!((span as f64 - delivered).abs() <= slack as f64, "flow {}: span {span}, goodput {delivered}", flow.id);
        let mut all = data_segments(&before)[&sender].clone();
        all.extend(&data_segments(&during)[&sender]);
        let covered = union(all);
        assert_eq!(covered[0].0, 1, "flow {}: the first data byte is number 1", flow.id);
        let drops = dropped_data.get(&sender).cloned().unwrap_or_default();
        for gap in covered.windows(2).map(|w| (w[0].1, w[1].0)) {
            assert!(drops.iter().any(|&(l, r)| l <= gap.0 && gap.0 < r), "flow {}: hole {gap:?} not a drop", flow.id);
        }
    }
}

#[test]
fn every_packet_of_the_window_is_captured_and_the_file_grows_with_the_window_only() {
    let short = captured(CaptureRequest { hop: Some(0), from_s: Some(12.0), to_s: Some(13.0) });
    let long = captured(CaptureRequest { hop: Some(0), from_s: Some(12.0), to_s: Some(22.0) });
    // The bottleneck carries at most its rate both ways, plus a record header a packet.
    let bytes = |recs: &[Record]| recs.iter().map(|r| r.ip.len() as u64 + 16).sum::<u64>();
    let bound = |window_s: f64| 2.0 * (4e6 / 8.0 * window_s) * (1.0 + 16.0 / 40.0) + 24.0;
    assert!((bytes(&short.1) as f64) < bound(1.0));
    assert!((bytes(&long.1) as f64) < bound(10.0));
    assert!(long.1.len() > 5 * short.1.len(), "{} vs {}", long.1.len(), short.1.len());
    assert!(short.1.iter().any(|r| r.ip[9] == 17) && short.1.iter().any(|r| r.ip[9] == 6), "UDP and TCP both");
    // The capture changes nothing: the summary is the one of a run without it.
    let mut plain = Simulation::from_json(SCENARIO, SeriesMode::default()).unwrap();
    plain.run();
    let strip = |s: &serde_json::Value| {
        let mut s = s.clone();
        s.as_object_mut().unwrap().remove("perf");
        s
    };
    let with = serde_json::to_value(long.0.summary()).unwrap();
    assert_eq!(strip(&with), strip(&serde_json::to_value(plain.summary()).unwrap()));
}

#[test]
fn a_capture_request_outside_the_run_names_its_field() {
    let mut sim = Simulation::from_json(SCENARIO, SeriesMode::default()).unwrap();
    let field = |sim: &mut Simulation, r| sim.capture(r).unwrap_err().field;
    assert_eq!(field(&mut sim, CaptureRequest { hop: Some(1), ..Default::default() }), CaptureField::Hop);
    assert_eq!(field(&mut sim, CaptureRequest { from_s: Some(-1.0), ..Default::default() }), CaptureField::From);
    assert_eq!(field(&mut sim, CaptureRequest { to_s: Some(31.0), ..Default::default() }), CaptureField::To);
    let backwards = CaptureRequest { from_s: Some(5.0), to_s: Some(5.0), ..Default::default() };
    assert_eq!(field(&mut sim, backwards), CaptureField::To);
}

fn cli(dir: &Path, args: &[&str]) -> (bool, String) {
    let scenario = dir.join("s.json");
    std::fs::write(&scenario, SCENARIO).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_aqm-sim")).arg("run").arg(&scenario).args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).to_string())
}

#[test]
fn the_cli_writes_both_files_or_neither() {
    let dir = std::env::temp_dir().join(format!("aqm-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("c.pcap");
    let path = pcap.to_str().unwrap();
    for (args, flag) in [
        (vec!["--pcap", path, "--pcap-hop", "2"], "--pcap-hop:"),
        (vec!["--pcap", path, "--pcap-from", "40"], "--pcap-from:"),
        (vec!["--pcap", path, "--pcap-from", "3", "--pcap-to", "2"], "--pcap-to:"),
        (vec!["--pcap", path, "--pcap-to", "soon"], "--pcap-to:"),
        (vec!["--pcap-hop", "0"], "need --pcap"),
        (vec!["--pcap", "/nonexistent-dir/c.pcap"], "--pcap: cannot write /nonexistent-dir/c.pcap"),
    ] {
        let (ok, stderr) = cli(&dir, &args);
        assert!(!ok && stderr.contains(flag), "{args:?}: {stderr}");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, ["s.json"], "{args:?} left files behind");
    }
    let (ok, stderr) = cli(&dir, &["--pcap", path, "--pcap-from", "29"]);
    assert!(ok, "{stderr}");
    let passed = read_pcap(&std::fs::read(&pcap).unwrap());
    let dropped = read_pcap(&std::fs::read(dir.join("c.drops.pcap")).unwrap());
    assert!(!passed.is_empty() && passed.len() > dropped.len());
    std::fs::remove_dir_all(&dir).unwrap();
}
