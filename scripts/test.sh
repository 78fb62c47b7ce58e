#!/usr/bin/env bash
# `npm test`: every test there is. Engine tests (cargo), web unit tests
# (vitest, including wasm-vs-native determinism), then end-to-end tests
# (Playwright on Chromium) against a production build.
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/target/test-results"
mkdir -p "$RESULTS"

ensure_rust
ensure_node_modules

log "Engine tests (cargo test)"
(cd "$ROOT" && cargo test --workspace 2>&1 | tee "$RESULTS/cargo.log")

log "Native CLI (for the determinism check)"
(cd "$ROOT" && cargo build --release -p aqm-core --bin aqm-sim)
build_wasm

log "Web unit tests (vitest)"
(cd "$ROOT" && npm run test -w web -- --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json")

build_web
ensure_chromium

log "End-to-end tests (Playwright)"
(cd "$ROOT" && npm test -w e2e)

node "$ROOT/scripts/tally.mjs" "$RESULTS/cargo.log" "$RESULTS/vitest.json" "$ROOT/e2e/test-results/results.json"
