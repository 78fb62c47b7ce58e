#!/usr/bin/env bash
# `npm test`: engine tests (cargo), web unit tests (vitest, including
# wasm-vs-native determinism), captures read by tshark, then end-to-end
# tests (Playwright on Chromium) against a production build. The engine
# tests that run many seconds of simulation each (the pinned reproductions,
# the ns-3 comparison) are `#[ignore]`d here and run by `npm run test:long`;
# .ci/run runs both. Steps that do not need each other overlap: the npm
# packages and the WebAssembly build run during the engine tests, the page
# build during the web unit tests.
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/target/test-results"
mkdir -p "$RESULTS"

ensure_rust
ensure_chromium

# Each suite's wall time (compiling included), printed beside its count.
TIMES="$RESULTS/times"
: > "$TIMES"
timed() {
  local name="$1" started=$SECONDS
  shift
  "$@"
  echo "$name=$((SECONDS - started))" >> "$TIMES"
}
# A step left running in the background ends with the script.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

# The npm packages and the WebAssembly build (another target, another
# profile: nothing to share with the engine tests' build) wait on the network,
# the disk and one core, alongside the engine tests' compile on the others.
background_step "npm packages" ensure_node_modules
background_step "engine for WebAssembly" build_wasm

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

wait_steps
# The page builds while the web unit tests run: both need only the bindings.
background_step "page build" build_web

log "Web unit tests (vitest)"
web_tests() { (cd "$ROOT" && npm run test -w web -- --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json"); }
timed web web_tests

wait_steps

log "End-to-end tests (Playwright)"
e2e_tests() { (cd "$ROOT" && npm test -w e2e); }
timed e2e e2e_tests

step_report
node "$ROOT/scripts/tally.mjs" "$RESULTS/cargo.log" "$RESULTS/vitest.json" "$ROOT/e2e/test-results/results.json" "$TIMES"
