#!/usr/bin/env bash
# `npm test`: engine tests (cargo), web unit tests (vitest, including
# wasm-vs-native determinism), captures read by tshark, then end-to-end
# tests (Playwright on Chromium) against a production build. The engine
# tests that run many seconds of simulation each (the pinned reproductions,
# the ns-3 comparison) are `#[ignore]`d here and run by `npm run test:long`;
# .ci/run runs both.
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/target/test-results"
mkdir -p "$RESULTS"

ensure_rust
ensure_node_modules

# Each suite's wall time (compiling included), printed beside its count.
TIMES="$RESULTS/times"
: > "$TIMES"
timed() {
  local name="$1" started=$SECONDS
  shift
  "$@"
  echo "$name=$((SECONDS - started))" >> "$TIMES"
}

log "Engine tests (cargo test)"
engine_tests() { (cd "$ROOT" && cargo test --workspace 2>&1 | tee "$RESULTS/cargo.log"); }
timed engine engine_tests

# The determinism checks compare the page's engine with the native CLI. The
# engine tests just built it (the CLI's own tests run it), with the test
# profile's optimisation, so no second native build is needed.
export AQM_SIM="$ROOT/target/debug/aqm-sim"
[ -x "$AQM_SIM" ] || die "the engine tests did not build $AQM_SIM"

log "Captures read by tshark"
timed pcap "$ROOT/scripts/check-pcap.sh" "$AQM_SIM"

build_wasm

log "Web unit tests (vitest)"
web_tests() { (cd "$ROOT" && npm run test -w web -- --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json"); }
timed web web_tests

build_web
ensure_chromium

log "End-to-end tests (Playwright)"
e2e_tests() { (cd "$ROOT" && npm test -w e2e); }
timed e2e e2e_tests

node "$ROOT/scripts/tally.mjs" "$RESULTS/cargo.log" "$RESULTS/vitest.json" "$ROOT/e2e/test-results/results.json" "$TIMES"
