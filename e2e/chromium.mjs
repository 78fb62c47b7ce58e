// The Chromium the end-to-end tests drive, and the flags they launch it
// with; scripts/bench-wasm.mjs runs the engine in the same browser.
// Browsers cannot be downloaded here: Playwright drives Debian's Chromium
// (scripts/ensure-chromium.sh installs it when missing).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
