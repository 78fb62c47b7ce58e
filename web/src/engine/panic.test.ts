// An engine panic in WebAssembly: the message reaches the worker's callback
// before the trap, which is all the worker learns otherwise. Needs the wasm
// package built (`npm test` builds it first).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initSync, onEnginePanic, panicForTest } from './pkg/aqm_core.js';

describe('engine panic report', () => {
  it('hands the panic message with its place to the registered callback, then traps', () => {
    initSync({ module: readFileSync(new URL('./pkg/aqm_core_bg.wasm', import.meta.url)) });
    const reports: string[] = [];
    onEnginePanic((message: string) => reports.push(message));
    let trap: unknown;
    try {
      panicForTest();
    } catch (error) {
      trap = error;
    }
    expect(trap).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^injected by a test hook \(at core\/src\/wasm_panic\.rs:\d+:\d+\)$/);
  });
});
