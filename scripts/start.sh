#!/usr/bin/env bash
# `npm start`: install what is missing, build, and serve the app on localhost,
# printing the time each step took. On a fresh machine the wasm-bindgen CLI
# (compiled from crates.io) and the npm packages are fetched while the engine
# compiles: the three wait on different things.
source "$(dirname "$0")/lib.sh"
started=$SECONDS
step "Rust target $WASM_TARGET" ensure_wasm_target
background_step "wasm-bindgen CLI" ensure_wasm_bindgen
background_step "npm packages" ensure_node_modules
step "engine (WebAssembly)" compile_wasm
wait_steps
step "engine bindings" bind_wasm
step "web app" build_web
step_report
PORT="${PORT:-4173}"
log "Ready after $((SECONDS - started)) s: AQM Lab is at http://127.0.0.1:$PORT/ (Ctrl+C to stop)"
cd "$ROOT" && exec npm run preview -w web -- --port "$PORT" --strictPort
