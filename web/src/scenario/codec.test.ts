import { deflateSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_COMPARE_CHARS, MAX_ENCODED_CHARS, MAX_SCENARIO_BYTES, decodeFragment, encodeFragment } from './codec';
import { DEFAULT_SCENARIO } from './defaults';
import { DEFAULT_VIEW, type ViewState } from './view';

const scenarioJson = JSON.stringify(DEFAULT_SCENARIO);
const view: ViewState = { charts: ['queue', 'curve'], windowS: 60, compare: null };

function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

function reasonOf(hash: string): string {
  const decoded = decodeFragment(hash);
  if (decoded.kind !== 'invalid') throw new Error(`expected an invalid link, got ${decoded.kind}`);
  return decoded.reason;
}

/** The engine's longest inline trace, as its committed JSON Schema states it (core/src/scenario/bounds.rs). */
function maxTraceOpportunities(): number {
  const schema = JSON.parse(readFileSync(new URL('../../../public/scenario.schema.json', import.meta.url), 'utf8'));
  return schema.$defs.TraceSpec.properties.opportunities_ms.maxItems;
}

describe('share-link codec', () => {
  it('carries the longest trace the engine takes, with entries as hard to compress as any', () => {
    const n = maxTraceOpportunities();
    expect(n).toBeGreaterThan(1000);
    // Sorted random entries up to 10⁸ ms, the largest allowed: deflate finds little to share.
    let state = 12345;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const times = Array.from({ length: n }, () => Math.floor(random() * 1e8)).sort((a, b) => a - b);
    times[n - 1] = 1e8;
    const traced = {
      ...DEFAULT_SCENARIO,
      topology: { ...DEFAULT_SCENARIO.topology, bottleneck: { rate_bps: 1e7, delay_ms: 10, trace: { opportunities_ms: times } } },
    };
    const fragment = encodeFragment(JSON.stringify(traced), view);
    expect(new URLSearchParams(fragment).get('s')!.length).toBeLessThanOrEqual(MAX_ENCODED_CHARS);
    const decoded = decodeFragment(fragment);
    expect(decoded.kind === 'scenario' && JSON.parse(decoded.scenarioJson)).toEqual(traced);
  });

  it('round-trips a scenario and its view exactly', () => {
    const fragment = encodeFragment(scenarioJson, view);
    const decoded = decodeFragment(`#${fragment}`);
    expect(decoded).toEqual({ kind: 'scenario', scenarioJson, view });
  });

  it('carries the sender side of access links: jitter and host queue, for the link and per group', () => {
    const sender: typeof DEFAULT_SCENARIO = {
      ...DEFAULT_SCENARIO,
      topology: { ...DEFAULT_SCENARIO.topology, access: { rate_bps: 1e8, delay_ms: 1, jitter_ms: 1, host_queue_packets: 100 } },
      flows: [{ ...DEFAULT_SCENARIO.flows[0], access_jitter_ms: 0.5, host_queue_packets: 20 }],
    };
    const decoded = decodeFragment(encodeFragment(JSON.stringify(sender), view));
    expect(decoded.kind === 'scenario' && JSON.parse(decoded.scenarioJson)).toEqual(sender);
  });

  it('carries the TCP options SACK and CUBIC, and leaves links without them as they were', () => {
    const tcp = { ...DEFAULT_SCENARIO.flows[0], kind: 'tcp' as const, cc: 'cubic' as const, sack: true };
    const withOptions = JSON.stringify({ ...DEFAULT_SCENARIO, flows: [tcp] });
    const decoded = decodeFragment(encodeFragment(withOptions, view));
    expect(decoded.kind === 'scenario' && JSON.parse(decoded.scenarioJson).flows[0]).toMatchObject({ cc: 'cubic', sack: true });
    expect(encodeFragment(scenarioJson, view)).not.toContain('sack');
    expect(decodeFragment(encodeFragment(scenarioJson, view))).toEqual({ kind: 'scenario', scenarioJson, view });
  });

  it('produces URL-safe text shorter than the JSON', () => {
    const fragment = encodeFragment(scenarioJson, view);
    const encoded = new URLSearchParams(fragment).get('s')!;
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encoded.length).toBeLessThan(scenarioJson.length);
  });

  it('round-trips non-ASCII and markup in names as plain text', () => {
    const tricky = JSON.stringify({ ...DEFAULT_SCENARIO, name: '<img src=x onerror=alert(1)> Débit “RED” 🚦' });
    const decoded = decodeFragment(encodeFragment(tricky, DEFAULT_VIEW));
    expect(decoded.kind === 'scenario' && decoded.scenarioJson).toBe(tricky);
  });

  it('treats a fragment without a scenario as no link', () => {
    expect(decodeFragment('')).toEqual({ kind: 'none' });
    expect(decodeFragment('#')).toEqual({ kind: 'none' });
    expect(decodeFragment('#view=queue')).toEqual({ kind: 'none' });
  });

  it('explains garbage instead of throwing', () => {
    expect(reasonOf('#s=')).toMatch(/empty/);
    expect(reasonOf('#s=not*base64!')).toMatch(/not base64url/);
    expect(reasonOf('#s=A')).toMatch(/not base64url/);
    expect(reasonOf('#s=AAAAAAAAAAAA')).toMatch(/does not decompress|not valid JSON/);
    expect(reasonOf(`#s=${'A'.repeat(MAX_ENCODED_CHARS + 1)}`)).toMatch(/too long/);
  });

  it('explains tampered links', () => {
    const encoded = new URLSearchParams(encodeFragment(scenarioJson, view)).get('s')!;
    // Flip characters in the middle of the compressed stream.
    const middle = Math.floor(encoded.length / 2);
    const flipped = encoded.slice(0, middle) + (encoded[middle] === 'A' ? 'B' : 'A') + encoded.slice(middle + 1);
    const truncated = encoded.slice(0, middle);
    for (const damaged of [flipped, truncated]) {
      const decoded = decodeFragment(`#s=${damaged}`);
      // A flip may still inflate to other JSON; then the engine's validation catches it.
      if (decoded.kind === 'scenario') expect(decoded.scenarioJson).not.toBe(scenarioJson);
      else expect(decoded.kind).toBe('invalid');
    }
  });

  it('rejects well-formed payloads that are not scenario documents', () => {
    const pack = (text: string) => `#s=${base64Url(deflateSync(new TextEncoder().encode(text)))}`;
    expect(reasonOf(pack('this is not json'))).toMatch(/not valid JSON/);
    expect(reasonOf(pack('[1, 2, 3]'))).toMatch(/JSON object/);
    expect(reasonOf(pack('null'))).toMatch(/JSON object/);
    expect(reasonOf(`#s=${base64Url(deflateSync(new Uint8Array([0xff, 0xfe, 0x7b])))}`)).toMatch(/UTF-8/);
  });

  it('bounds the inflated size', () => {
    const bomb = deflateSync(new TextEncoder().encode(`{"name":"${' '.repeat(MAX_SCENARIO_BYTES)}"}`), { level: 9 });
    expect(reasonOf(`#s=${base64Url(bomb)}`)).toMatch(/larger than/);
  });

  it('falls back to the default view for unknown or bad view state', () => {
    const encoded = new URLSearchParams(encodeFragment(scenarioJson, view)).get('s')!;
    const decoded = decodeFragment(`#s=${encoded}&view=pie-chart,<b>&window=-3`);
    expect(decoded.kind === 'scenario' && decoded.view).toEqual(DEFAULT_VIEW);
    const partial = decodeFragment(`#s=${encoded}&view=curve,curve,nope&window=0`);
    expect(partial.kind === 'scenario' && partial.view).toEqual({ charts: ['curve'], windowS: 0, compare: null });
  });

  it('carries the compare partner', () => {
    const comparing: ViewState = { ...view, compare: { by: 'scheme', scheme: 'codel' } };
    const fragment = encodeFragment(scenarioJson, comparing);
    expect(new URLSearchParams(fragment).get('compare')).toBe('codel');
    expect(decodeFragment(`#${fragment}`)).toEqual({ kind: 'scenario', scenarioJson, view: comparing });
    // No partner, no parameter: single-run links stay as they were.
    expect(encodeFragment(scenarioJson, view)).not.toContain('compare');
  });

  it('carries a flavour comparison as compare_cc, and only that', () => {
    const comparing: ViewState = { ...view, compare: { by: 'cc', cc: 'bbr' } };
    const params = new URLSearchParams(encodeFragment(scenarioJson, comparing));
    expect(params.get('compare_cc')).toBe('bbr');
    expect(params.has('compare')).toBe(false);
    expect(decodeFragment(`#${params.toString()}`)).toEqual({ kind: 'scenario', scenarioJson, view: comparing });
    // A refusal stays on the page that met it: the link written from it compares nothing.
    const refused: ViewState = { ...view, compare: { by: 'refused', field: 'compare_cc', reason: 'no' } };
    expect(encodeFragment(scenarioJson, refused)).not.toContain('compare');
  });

  it('refuses a compare_cc that is no flavour name, or one beside compare, naming the field', () => {
    const encoded = new URLSearchParams(encodeFragment(scenarioJson, view)).get('s')!;
    for (const bad of [encodeURIComponent('<b>bbr</b>'), 'BBR', 'x'.repeat(MAX_COMPARE_CHARS + 1)]) {
      const decoded = decodeFragment(`#s=${encoded}&compare_cc=${bad}`);
      expect(decoded.kind === 'scenario' && decoded.view.compare).toEqual({ by: 'refused', field: 'compare_cc', reason: 'it is not a TCP flavour name' });
    }
    const both = decodeFragment(`#s=${encoded}&compare=codel&compare_cc=bbr`);
    expect(both.kind === 'scenario' && both.view.compare).toMatchObject({ by: 'refused', field: 'compare_cc' });
    // A well-formed name the engine may not know goes through, for the engine to judge against the scenario.
    const unknown = decodeFragment(`#s=${encoded}&compare_cc=vegas`);
    expect(unknown.kind === 'scenario' && unknown.view.compare).toEqual({ by: 'cc', cc: 'vegas' });
    const empty = decodeFragment(`#s=${encoded}&compare_cc=`);
    expect(empty.kind === 'scenario' && empty.view.compare).toBeNull();
  });

  it('passes an unknown partner through as text for the page to name, bounded in length', () => {
    const encoded = new URLSearchParams(encodeFragment(scenarioJson, view)).get('s')!;
    const odd = decodeFragment(`#s=${encoded}&compare=${encodeURIComponent('<b>nope</b>')}`);
    expect(odd.kind === 'scenario' && odd.view.compare).toEqual({ by: 'scheme', scheme: '<b>nope</b>' });
    const long = decodeFragment(`#s=${encoded}&compare=${'x'.repeat(MAX_COMPARE_CHARS * 4)}`);
    expect(long.kind === 'scenario' && long.view.compare).toEqual({ by: 'scheme', scheme: 'x'.repeat(MAX_COMPARE_CHARS) });
    for (const empty of ['&compare=', '&compare=%20%20']) {
      const decoded = decodeFragment(`#s=${encoded}${empty}`);
      expect(decoded.kind === 'scenario' && decoded.view.compare).toBeNull();
    }
  });

  it('keeps the compare partner of a link whose scenario is damaged', () => {
    const decoded = decodeFragment('#s=not*base64!&compare=pie');
    expect(decoded.kind === 'invalid' && decoded.view.compare).toEqual({ by: 'scheme', scheme: 'pie' });
  });
});
