// Property-based tests of what arrives from outside the page: any text in a
// link's fragment, and any scenario document the editor model is handed.
// FUZZ_RUNS sets the number of cases per property (`npm run fuzz` runs 10⁶).

import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowKinds, initSync } from '../engine/pkg/aqm_core.js';
import { MAX_COMPARE_CHARS, decodeFragment, encodeFragment } from './codec';
import { withKind } from './model';
import type { FlowGroup } from './types';
import { CHART_IDS, type ViewState } from './view';

const numRuns = Number(process.env.FUZZ_RUNS ?? 300);
/** Long budgets run for minutes: give each property time in proportion. */
const timeoutMs = 20_000 + numRuns * 2;

const base64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** Fragments as a mangled or hostile link might carry them. */
const fragment = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .dictionary(fc.constantFrom('s', 'view', 'window', 'compare', 'compare_cc', 'x'), fc.string({ unit: 'grapheme' }))
    .map((params) => new URLSearchParams(params).toString()),
  fc.uint8Array({ maxLength: 400 }).map((bytes) => `s=${base64Url(bytes)}`),
  fc.uint8Array({ maxLength: 400 }).map((bytes) => `s=${base64Url(deflateSync(bytes))}`),
  fc.jsonValue().map((value) => `s=${base64Url(deflateSync(new TextEncoder().encode(JSON.stringify(value))))}`),
);

const view: fc.Arbitrary<ViewState> = fc.record({
  charts: fc.uniqueArray(fc.constantFrom(...CHART_IDS), { minLength: 1 }),
  windowS: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.double({ min: 0, max: 100_000, noNaN: true })),
  compare: fc.option(
    fc.oneof(
      fc.stringMatching(/^[a-z_]{1,20}$/).map((scheme) => ({ by: 'scheme' as const, scheme })),
      fc.stringMatching(/^[a-z0-9_+-]{1,20}$/).map((cc) => ({ by: 'cc' as const, cc })),
    ),
    { nil: null },
  ),
});

describe('share-link decoder (property-based)', () => {
  it(
    'turns any fragment into no link, a scenario object or a sentence, without throwing',
    () => {
      fc.assert(
        fc.property(fragment, (hash) => {
          const decoded = decodeFragment(hash);
          if (decoded.kind === 'none') return;
          expect(decoded.view.charts.length).toBeGreaterThan(0);
          for (const id of decoded.view.charts) expect(CHART_IDS).toContain(id);
          expect(decoded.view.windowS).toBeGreaterThanOrEqual(0);
          expect(decoded.view.windowS).toBeLessThanOrEqual(100_000);
          const compared = decoded.view.compare;
          if (compared?.by === 'scheme') expect(compared.scheme.length).toBeLessThanOrEqual(MAX_COMPARE_CHARS);
          if (compared?.by === 'cc') expect(compared.cc).toMatch(/^[a-z0-9_+-]{1,64}$/);
          if (decoded.kind === 'invalid') {
            expect(decoded.reason.length).toBeGreaterThan(0);
          } else {
            const document: unknown = JSON.parse(decoded.scenarioJson);
            expect(typeof document === 'object' && document !== null && !Array.isArray(document)).toBe(true);
          }
        }),
        { numRuns },
      );
    },
    timeoutMs,
  );

  it(
    'gives back exactly the scenario text and view it encoded',
    () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), view, (document, shown) => {
          const scenarioJson = JSON.stringify(document);
          expect(decodeFragment(encodeFragment(scenarioJson, shown))).toEqual({ kind: 'scenario', scenarioJson, view: shown });
        }),
        { numRuns },
      );
    },
    timeoutMs,
  );
});

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
/** The engine's flow kinds (the model's kind changes start from them), read through the real wasm build. */
const kinds = existsSync(wasmFile) ? (initSync({ module: readFileSync(wasmFile) }), flowKinds()) : undefined;
const kindNames = kinds?.kinds.map((k) => k.kind) ?? ['tcp' as const];

/** Flow groups as a hand-edited or link-carried document might hold them. */
const group = fc.record(
  {
    kind: fc.constantFrom(...kindNames),
    count: fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.double(), fc.constant(undefined)),
    label: fc.string(),
    access_delay_ms: fc.double({ min: 0, max: 1000, noNaN: true }),
    rate_bps: fc.double({ min: 0, max: 1e12, noNaN: true }),
  },
  { requiredKeys: ['kind'] },
) as fc.Arbitrary<FlowGroup>;

describe.runIf(kinds)('scenario model (property-based)', () => {
  it(
    'changing a group’s kind keeps the shared keys and only the new kind’s own keys',
    () => {
      fc.assert(
        fc.property(group, fc.constantFrom(...kindNames), (before, kind) => {
          const after = withKind(kinds!, before, kind);
          expect(after.kind).toBe(kind);
          if (before.label !== undefined) expect(after.label).toBe(before.label);
          if (before.access_delay_ms !== undefined) expect(after.access_delay_ms).toBe(before.access_delay_ms);
          if (kind === 'tcp') expect(after.rate_bps).toBeUndefined();
        }),
        { numRuns },
      );
    },
    timeoutMs,
  );
});
