# Shared setup steps for start.sh, build.sh and test.sh: each installs only
# what is missing, so a fresh machine and a warm one run the same commands.
# shellcheck shell=bash

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_TARGET=wasm32-unknown-unknown
WASM_PKG_DIR="$ROOT/web/src/engine/pkg"
# Playwright drives the system Chromium; it must never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

log() {
  printf '\n==> %s\n' "$*" >&2
}

die() {
  printf 'error: %s\n' "$*" >&2
  exit 1
}

# The wasm-bindgen CLI must match the crate's version exactly; read it from Cargo.lock.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

ensure_rust() {
  ensure_wasm_target
  ensure_wasm_bindgen
}

ensure_wasm_target() {
  command -v cargo >/dev/null || die "cargo not found: install Rust (https://rustup.rs) and retry"
  if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx "$WASM_TARGET"; then
      log "Adding the Rust target $WASM_TARGET"
      rustup target add "$WASM_TARGET"
    fi
  fi
}

ensure_wasm_bindgen() {
  local want have
  want="$(wasm_bindgen_version)"
  [ -n "$want" ] || die "could not read the wasm-bindgen version from Cargo.lock"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
  if [ "$have" != "$want" ]; then
    log "Installing wasm-bindgen-cli $want (found: ${have:-none}); this takes a couple of minutes"
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

ensure_node_modules() {
  command -v npm >/dev/null || die "npm not found: install Node.js 20.19 or newer and retry"
  local stamp="$ROOT/node_modules/.package-lock.json"
  if [ ! -f "$stamp" ] || [ "$ROOT/package-lock.json" -nt "$stamp" ]; then
    log "Installing npm packages"
    (cd "$ROOT" && npm ci --no-audit --no-fund)
  fi
}

# Cargo decides itself whether the engine needs compiling; the bindings are
# regenerated whenever cargo wrote a newer .wasm than the one they came from.
build_wasm() {
  compile_wasm
  bind_wasm
}

compile_wasm() {
  log "Building the engine for WebAssembly"
  (cd "$ROOT" && cargo build --release --target "$WASM_TARGET" -p aqm-core --lib)
}

bind_wasm() {
  local wasm="$ROOT/target/$WASM_TARGET/release/aqm_core.wasm"
  if [ "$wasm" -nt "$WASM_PKG_DIR/aqm_core_bg.wasm" ]; then
    log "Generating the engine's JS/TS bindings"
    wasm-bindgen --target web --out-dir "$WASM_PKG_DIR" "$wasm"
  fi
}

# Everything the page's build reads: its sources, the engine bindings, the
# bundled presets, lessons and reproductions, the static assets, the packages.
WEB_INPUTS=(web/src web/index.html web/vite.config.ts web/tsconfig.json web/package.json
  scenarios lessons reproductions public package-lock.json)

# web/dist is rebuilt when any input is newer than the last build (or there
# was none); an unchanged checkout serves the build it has.
web_build_is_current() {
  local root="$1" stamp="$1/web/dist/.built-from-sources" input inputs=()
  [ -f "$stamp" ] || return 1
  for input in "${WEB_INPUTS[@]}"; do
    [ -e "$root/$input" ] && inputs+=("$input")
  done
  [ -z "$(cd "$root" && find "${inputs[@]}" -newer "$stamp" -print -quit)" ]
}

build_web() {
  if web_build_is_current "$ROOT"; then
    log "The web app in web/dist is up to date"
    return 0
  fi
  log "Building the web app into web/dist"
  (cd "$ROOT" && npm run build -w web)
  touch "$ROOT/web/dist/.built-from-sources"
}

# Runs one named step and records its wall time for step_report.
STEP_TIMES=()
step() {
  local name="$1" started=$SECONDS
  shift
  "$@"
  STEP_TIMES+=("$(printf '%4d s  %s' $((SECONDS - started)) "$name")")
}

# Runs one named step in the background, its output in target/steps/NAME.log;
# wait_steps waits for them all and shows the log of any that failed.
BACKGROUND_STEPS=()
background_step() {
  local name="$1" started=$SECONDS
  shift
  local log_file="$ROOT/target/steps/${name// /-}.log"
  mkdir -p "$ROOT/target/steps"
  log "$name (in the background, output in ${log_file#"$ROOT"/})"
  (
    if "$@" >"$log_file" 2>&1; then rc=0; else rc=$?; fi
    printf '%4d s  %s (alongside)' $((SECONDS - started)) "$name" >"$log_file.time"
    exit "$rc"
  ) &
  BACKGROUND_STEPS+=("$!|$name|$log_file")
}

wait_steps() {
  local job pid name log_file
  for job in "${BACKGROUND_STEPS[@]}"; do
    IFS='|' read -r pid name log_file <<<"$job"
    if ! wait "$pid"; then
      cat "$log_file" >&2
      die "$name failed (its output is above and in $log_file)"
    fi
    STEP_TIMES+=("$(cat "$log_file.time")")
  done
  BACKGROUND_STEPS=()
}

step_report() {
  log "Time per step"
  printf '%s\n' "${STEP_TIMES[@]}" >&2
}

# Debian's Chromium for the end-to-end tests: test tools cannot download browsers here.
ensure_chromium() {
  local chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
  [ -x "$chromium" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "Installing Chromium from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
    [ -x "$chromium" ] || die "Chromium was installed but $chromium is missing; set CHROMIUM_PATH"
  else
    die "the end-to-end tests need Chromium at $chromium: run 'sudo apt-get install chromium' (or set CHROMIUM_PATH) and retry"
  fi
}

# Debian's tshark for the capture check (scripts/check-pcap.sh), installed as Chromium is.
ensure_tshark() {
  command -v tshark >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "Installing tshark from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tshark
    command -v tshark >/dev/null || die "tshark was installed but is not on PATH"
  else
    die "the capture check needs tshark: run 'sudo apt-get install tshark' and retry"
  fi
}
