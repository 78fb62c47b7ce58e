#!/usr/bin/env bash
# `npm run build`: a static site in web/dist that works from any host and sub-path.
source "$(dirname "$0")/lib.sh"
ensure_rust
ensure_node_modules
build_wasm
build_web
log "Done: open web/dist/index.html through any static web server"
