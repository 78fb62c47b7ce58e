#!/usr/bin/env bash
# `npm start`: install what is missing, build, and serve the app on localhost.
source "$(dirname "$0")/lib.sh"
ensure_rust
ensure_node_modules
build_wasm
build_web
PORT="${PORT:-4173}"
log "AQM Lab is at http://127.0.0.1:$PORT/ (Ctrl+C to stop)"
cd "$ROOT" && exec npm run preview -w web -- --port "$PORT" --strictPort
