#!/usr/bin/env bash
# Rewrite the README's reproduction tally from a full run of every
# reproduction and figure (`aqm-sim reproduce --tally`): the two lines that
# follow "Reproductions of the papers' claims today:" (claims, then figures)
# are replaced.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_rust
cd "$ROOT"
jobs="$(nproc 2>/dev/null || echo 2)"
tally="$(cargo run --quiet --release -p aqm-core --bin aqm-sim -- reproduce --tally --jobs "$jobs")"
marker="Reproductions of the papers' claims today:"
grep -qF "$marker" README.md || die "README.md has no line \"$marker\""
claims="$(printf '%s\n' "$tally" | sed -n 1p)"
figures="$(printf '%s\n' "$tally" | sed -n 2p)"
awk -v marker="$marker" -v claims="$claims." -v figures="Figures: $figures." '
  replace == 2 { print claims; replace = 1; next }
  replace == 1 { print figures; replace = 0; next }
  { print }
  index($0, marker) { replace = 2 }
' README.md > README.md.new
mv README.md.new README.md
log "README.md: $tally"
