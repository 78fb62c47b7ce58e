# Shared setup steps for start.sh, build.sh and test.sh: each installs only
# what is missing, so a fresh machine and a warm one run the same commands.
# shellcheck shell=bash

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WASM_TARGET=wasm32-unknown-unknown
WASM_PKG_DIR="$ROOT/web/src/engine/pkg"
# Playwright drives the system Chromium; it must never download a browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export PATH="$HOME/.cargo/bin:$PATH"

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
  command -v cargo >/dev/null || die "cargo not found: install Rust (https://rustup.rs) and retry"
  if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx "$WASM_TARGET"; then
      log "Adding the Rust target $WASM_TARGET"
      rustup target add "$WASM_TARGET"
    fi
  fi
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

build_wasm() {
  log "Building the engine for WebAssembly"
  (cd "$ROOT" && cargo build --release --target "$WASM_TARGET" -p aqm-core --lib)
  wasm-bindgen --target web --out-dir "$WASM_PKG_DIR" "$ROOT/target/$WASM_TARGET/release/aqm_core.wasm"
}

build_web() {
  log "Building the web app into web/dist"
  (cd "$ROOT" && npm run build -w web)
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
