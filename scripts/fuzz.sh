#!/usr/bin/env bash
# `npm run fuzz`: the long fuzzing run (docs/robustness.md). FUZZ_CASES cases
# per property (default 10⁶) over the engine's scenario intake and live
# parameter changes (proptest) and the page's link decoder and scenario
# model (fast-check). `npm test` runs the same properties on a short budget.
source "$(dirname "$0")/lib.sh"
CASES="${FUZZ_CASES:-1000000}"
ensure_rust
ensure_node_modules

log "Engine: $CASES cases per property (proptest)"
(cd "$ROOT" && PROPTEST_CASES="$CASES" cargo test --release -p aqm-core --test main fuzz:: -- --nocapture)

log "Page: $CASES cases per property (fast-check)"
(cd "$ROOT" && FUZZ_RUNS="$CASES" npm run test -w web -- src/scenario/codec.fuzz.test.ts)
