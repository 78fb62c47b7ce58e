#!/usr/bin/env bash
# Rewrite the README's reproduction tally from a full run of every
# reproduction (`aqm-sim reproduce --tally`): the line that follows
# "Reproductions of the papers' claims today:" is replaced.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_rust
cd "$ROOT"
jobs="$(nproc 2>/dev/null || echo 2)"
tally="$(cargo run --quiet --release -p aqm-core --bin aqm-sim -- reproduce --tally --jobs "$jobs")"
marker="Reproductions of the papers' claims today:"
grep -qF "$marker" README.md || die "README.md has no line \"$marker\""
awk -v marker="$marker" -v tally="$tally." '
  replace { print tally; replace = 0; next }
  { print }
  index($0, marker) { replace = 1 }
' README.md > README.md.new
mv README.md.new README.md
log "README.md: $tally"
