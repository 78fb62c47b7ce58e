#!/usr/bin/env bash
# `npm run test:long`: the engine tests `npm test` leaves out because each
# simulates many seconds (every pinned reproduction on all its seeds, the
# ns-3 comparison). They are `#[ignore]`d with the reason "long".
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/target/test-results"
mkdir -p "$RESULTS"

ensure_rust

log "Long engine tests (cargo test -- --ignored)"
started=$SECONDS
(cd "$ROOT" && cargo test --workspace --lib -- --ignored 2>&1 | tee "$RESULTS/cargo-long.log")
awk -v seconds=$((SECONDS - started)) '
  /^test result: / { passed += $4; failed += $6 }
  END {
    printf "engine (long): %d passed, %d failed in %d s\n", passed, failed, seconds
    printf "total: %d passed, %d failed\n", passed, failed
    exit failed > 0
  }' "$RESULTS/cargo-long.log"
