#!/usr/bin/env bash
# `npm run measure`: the performance probes (page frame rate, slider-to-chart
# latency, memory over a simulated hour, in the page and of the engine's
# delay histograms natively) against a production build. They print numbers and write them to
# e2e/measure-results/measurements/*.json; they pass or fail only if the page
# breaks, so `npm test` leaves them out.
source "$(dirname "$0")/lib.sh"

ensure_rust
ensure_node_modules
build_wasm
build_web
ensure_chromium

log "Performance probes (Playwright)"
rm -rf "$ROOT/e2e/measure-results/measurements"
status=0
(cd "$ROOT" && npm run measure -w e2e) || status=$?

# The engine's histograms over a simulated hour, natively (no page).
bash "$ROOT/scripts/measure-histograms.sh" || status=$?

# Show what was measured even when one probe could not finish.
for file in "$ROOT"/e2e/measure-results/measurements/*.json; do
  [ -f "$file" ] || continue
  log "$(basename "$file" .json)"
  cat "$file"
done
exit "$status"
