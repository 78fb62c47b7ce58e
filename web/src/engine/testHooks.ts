// Hooks for the end-to-end tests, reachable as `window.__aqmTestHooks` only
// when a test created that object before the page loaded (Playwright's
// `addInitScript`), so no one can trigger them by accident.

import type { EngineClient } from './client';

export interface TestHooks {
  /** Make the engine panic, as a bug in it would. */
  panicEngine?: () => void;
}

declare global {
  interface Window {
    __aqmTestHooks?: TestHooks;
  }
}

export function installTestHooks(engine: EngineClient): void {
  const hooks = window.__aqmTestHooks;
  if (hooks) hooks.panicEngine = () => engine.panicForTest();
}
