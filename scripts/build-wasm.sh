#!/usr/bin/env bash
# Compile the engine to WebAssembly and generate its JS/TS bindings into web/src/engine/pkg.
source "$(dirname "$0")/lib.sh"
ensure_rust
build_wasm
