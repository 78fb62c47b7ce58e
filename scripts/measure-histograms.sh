#!/usr/bin/env bash
# The engine's memory with delay histograms over a long, large run, natively:
# 1 000 TCP flows and a ping on 100 Mb/s for 60 s and for one simulated hour.
# Each histogram holds at most 3 776 counters whatever the run's length, so
# the peak resident size of the hour-long run should match the minute-long
# one. Prints the peak RSS of each and writes
# e2e/measure-results/measurements/histogram-memory.json.
source "$(dirname "$0")/lib.sh"

ensure_rust
(cd "$ROOT" && cargo build --release -p aqm-core --bin aqm-sim)
out="$ROOT/e2e/measure-results/measurements"
mkdir -p "$out"
scratch="$(mktemp -d)"
results=()
for duration in 60 3600; do
  cat > "$scratch/run.json" <<JSON
{ "version": 1, "name": "1 000 TCP flows and a ping, ${duration} s (histogram memory)", "seed": 1,
  "duration_s": $duration, "measure_from_s": 10,
  "topology": { "kind": "dumbbell", "bottleneck": { "rate_bps": 100000000, "delay_ms": 10 }, "buffer": { "packets": 2000 } },
  "queue": { "scheme": "red" },
  "flows": [ { "kind": "tcp", "count": 1000, "segment_bytes": 1000, "access_delay_ms": [1, 50], "start_s": [0, 10] },
             { "kind": "ping", "interval_ms": 100 } ] }
JSON
  log "histogram memory: ${duration} s simulated"
  /usr/bin/time -f "%M" -o "$scratch/rss" "$ROOT/target/release/aqm-sim" run "$scratch/run.json" --force > "$scratch/summary.json"
  rss_kb="$(cat "$scratch/rss")"
  p99="$(node -e "const s = require('$scratch/summary.json'); console.log(s.groups[1].rtt_percentiles_ms.p99)")"
  echo "${duration} s: peak RSS ${rss_kb} KB, ping RTT p99 ${p99} ms"
  results+=("{ \"simulated_s\": $duration, \"peak_rss_kb\": $rss_kb, \"ping_rtt_p99_ms\": $p99 }")
done
(IFS=,; echo "{ \"date\": \"$(date -u +%F)\", \"runs\": [${results[*]}] }") > "$out/histogram-memory.json"
rm -rf "$scratch"
