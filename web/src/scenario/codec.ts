// Share links: `#s=` + the scenario JSON, raw-deflated and base64url-encoded,
// with the view state beside it (`&view=queue,goodput&window=30`, and
// `&compare=codel` for a partner with another queue scheme, or
// `&compare_cc=bbr` for one whose TCP groups run another flavour).
//
// Decoding never trusts the fragment: sizes are bounded before and after
// inflating, every failure becomes a sentence for the reader, and what comes
// out is only JSON text for the engine to validate (the engine rejects
// unknown fields and bad values with the field's path).

import { deflateSync, inflateSync } from 'fflate';
import { CHART_IDS, DEFAULT_VIEW, type ChartId, type Comparison, type ViewState } from './view';

/** Longest encoded scenario accepted from a link, in characters. */
export const MAX_ENCODED_CHARS = 32_768;
/** Largest scenario JSON accepted after inflating, in bytes (bounds a "zip bomb"). */
export const MAX_SCENARIO_BYTES = 262_144;
/** Longest compare-partner id kept from a link; longer text is cut (the page names it in a notice). */
export const MAX_COMPARE_CHARS = 64;

export type DecodedLink =
  /** The fragment carries no scenario: open the default. */
  | { kind: 'none' }
  | { kind: 'scenario'; scenarioJson: string; view: ViewState }
  /** The fragment carries something that is not a scenario; `reason` says why. */
  | { kind: 'invalid'; reason: string; view: ViewState };

/** The fragment (without `#`) for a scenario and view. */
export function encodeFragment(scenarioJson: string, view: ViewState): string {
  const packed = deflateSync(new TextEncoder().encode(scenarioJson), { level: 9 });
  const params = new URLSearchParams();
  params.set('s', toBase64Url(packed));
  params.set('view', view.charts.join(','));
  params.set('window', String(view.windowS));
  if (view.compare?.by === 'scheme') params.set('compare', view.compare.scheme);
  if (view.compare?.by === 'cc') params.set('compare_cc', view.compare.cc);
  return params.toString();
}

/** Read a location hash (with or without `#`). */
export function decodeFragment(hash: string): DecodedLink {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const view = decodeView(params);
  const encoded = params.get('s');
  if (encoded === null) return { kind: 'none' };
  const scenario = decodeScenario(encoded);
  return 'reason' in scenario ? { kind: 'invalid', reason: scenario.reason, view } : { kind: 'scenario', scenarioJson: scenario.json, view };
}

function decodeScenario(encoded: string): { json: string } | { reason: string } {
  if (encoded.length === 0) return { reason: 'its scenario is empty' };
  if (encoded.length > MAX_ENCODED_CHARS) return { reason: `its scenario is too long (${encoded.length} characters, at most ${MAX_ENCODED_CHARS})` };
  const packed = fromBase64Url(encoded);
  if (!packed) return { reason: 'its scenario is damaged (not base64url text)' };
  let bytes: Uint8Array;
  try {
    // One byte of headroom tells "exactly the limit" from "truncated at the limit".
    bytes = inflateSync(packed, { out: new Uint8Array(MAX_SCENARIO_BYTES + 1) });
  } catch {
    return { reason: 'its scenario is damaged (it does not decompress)' };
  }
  if (bytes.length > MAX_SCENARIO_BYTES) return { reason: `its scenario is larger than ${MAX_SCENARIO_BYTES} bytes once decompressed` };
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { reason: 'its scenario is damaged (not UTF-8 text)' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { reason: 'its scenario is damaged (not valid JSON)' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { reason: 'it does not hold a scenario document (a JSON object)' };
  }
  return { json };
}

function decodeView(params: URLSearchParams): ViewState {
  const charts = params
    .get('view')
    ?.split(',')
    .filter((id): id is ChartId => (CHART_IDS as readonly string[]).includes(id));
  const windowS = Number(params.get('window'));
  return {
    charts: charts && charts.length > 0 ? [...new Set(charts)] : DEFAULT_VIEW.charts,
    windowS: params.has('window') && Number.isFinite(windowS) && windowS >= 0 && windowS <= 100_000 ? windowS : DEFAULT_VIEW.windowS,
    compare: decodeComparison(params),
  };
}

/** A flavour name's shape (the engine's are lower-case words such as `newreno`); anything else is refused here. */
const FLAVOUR_TEXT = /^[a-z0-9_+-]+$/;

/**
 * The link's compare key. Only the engine knows which ids are schemes and
 * flavours (and which flavour can run the scenario): the page checks a
 * well-formed one against it and says so when it is refused, rather than
 * comparing with something else.
 */
function decodeComparison(params: URLSearchParams): Comparison | null {
  const scheme = params.get('compare')?.trim().slice(0, MAX_COMPARE_CHARS);
  const cc = params.get('compare_cc')?.trim();
  if (scheme && cc)
    return { by: 'refused', field: 'compare_cc', reason: 'a link compares either queue schemes (`compare`) or TCP flavours (`compare_cc`), not both' };
  if (cc !== undefined && cc !== '') {
    if (cc.length > MAX_COMPARE_CHARS || !FLAVOUR_TEXT.test(cc)) return { by: 'refused', field: 'compare_cc', reason: 'it is not a TCP flavour name' };
    return { by: 'cc', cc };
  }
  return scheme ? { by: 'scheme', scheme } : null;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}
