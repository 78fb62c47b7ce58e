// The drop-and-mark inspector's words: one recorded decision explained from
// the state the engine recorded with it. The field names, symbols and units
// come from the engine (`decisionFields`); only the sentences are written here.

import type { DecisionRecord, FieldSpec } from '../engine/client';

/** One recorded value, as the panel's table shows it. */
export interface DecisionNumber {
  id: string;
  label: string;
  symbol: string;
  value: string;
}

export interface DecisionExplanation {
  /** One line: what happened to which packet, when. */
  headline: string;
  /** Why, in words and numbers. */
  sentences: string[];
  numbers: DecisionNumber[];
}

const NUMBER = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const LARGE = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 4 });

export function formatValue(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  const text = Math.abs(value) >= 1e5 ? LARGE.format(value) : NUMBER.format(value);
  return unit && unit !== 'on/off' ? `${text} ${unit}` : text;
}

/** The recorded values by field id (undefined for a field not recorded). */
function valuesOf(d: DecisionRecord, fields: readonly FieldSpec[]): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  fields.forEach((f, i) => {
    const v = d.state[i];
    out[f.id] = v === null || v === undefined ? undefined : v;
  });
  return out;
}

const VERB = { drop: 'dropped', mark: 'ECN-marked', pass: 'let through' } as const;

function redSentences(v: Record<string, number | undefined>, d: DecisionRecord, unit: string): string[] {
  const avg = formatValue(v.avg, unit);
  const probability = `p_b = ${formatValue(v.p_b)}`;
  if (d.reason === 'forced') return [`The average queue was ${avg}: at or above the forced-drop threshold, every arrival is dropped (${probability}).`];
  const spaced = `With count = ${formatValue(v.count)} arrivals since the last drop, p_a = ${formatValue(v.p_a)}.`;
  const draw = `The random draw u = ${formatValue(v.draw)}`;
  if (d.reason === 'early') return [`The average queue was ${avg}, so ${probability}.`, spaced, `${draw} fell below p_a: ${VERB[d.verdict]}.`];
  const accepted = (v.p_a ?? 0) > 0 ? [spaced, `${draw} was not below p_a, so RED accepted it.`] : [`The average queue was ${avg}: RED did not act (p_a = 0).`];
  if (d.reason === 'overflow') return [...accepted, `But the buffer was full (${formatValue(v.queued, unit)} queued): dropped as overflow.`];
  return accepted;
}

function codelSentences(v: Record<string, number | undefined>, d: DecisionRecord): string[] {
  const waited = `The packet had waited ${formatValue(v.sojourn_ms, 'ms')} (target ${formatValue(v.target_ms, 'ms')}).`;
  if (d.reason === 'overflow') return ['The buffer was full: dropped at the tail as overflow.'];
  if (d.verdict === 'pass') return [waited, v.dropping ? 'CoDel was in its dropping state, but no drop was due yet.' : 'No drop was due: passed.'];
  const law = `The control law schedules the next drop at ${formatValue(v.next_drop_s, 's')}: interval / √count after it, with count = ${formatValue(v.count)}.`;
  if (v.dropping) return [waited, `CoDel was in its dropping state and this drop was due at ${formatValue(v.due_s, 's')}.`, law];
  return [
    waited,
    `The sojourn time had stayed above target for a whole interval (${formatValue(v.interval_ms, 'ms')}, until ${formatValue(v.due_s, 's')}): CoDel enters its dropping state.`,
    law,
  ];
}

/** DualPI2: the rule the packet met on leaving its queue (RFC 9332's coupling). */
function dualSentences(v: Record<string, number | undefined>, d: DecisionRecord): string[] {
  const p = formatValue(v.p);
  const left = `The packet left the ${v.l4s ? 'L4S (L)' : 'classic (C)'} queue after ${formatValue(v.sojourn_ms, 'ms')}; the base probability was p′ = ${formatValue(v.p_prime)}.`;
  const pPrime = v.p_prime ?? 0;
  const overloaded = v.l4s === 1 && pPrime > 0 && v.p === pPrime * pPrime;
  const rule = !v.l4s
    ? `A classic packet meets p_C = p′² = ${p}.`
    : overloaded
      ? `The queue was overloaded: an L4S packet meets p_C = p′² = ${p} and is dropped, not marked.`
      : `An L4S packet meets p_L = ${p}: the larger of the step at its own sojourn and the coupled k·p′.`;
  const draw = `The random draw u = ${formatValue(v.draw)}`;
  return [left, rule, d.verdict === 'pass' ? `${draw} was not below it: passed.` : `${draw} fell below it: ${VERB[d.verdict]}.`];
}

/** COBALT (and each flow queue of FQ-COBALT and CAKE): BLUE's draw, then CoDel's schedule; CAKE adds its queue, host load and last-packet rule. */
function cobaltSentences(v: Record<string, number | undefined>, d: DecisionRecord): string[] {
  const num = (x: number | undefined) => x !== undefined && !Number.isNaN(x);
  const drew = num(v.draw) ? `; the draw u = ${formatValue(v.draw)}` : ': no draw';
  const found = [
    `The packet had waited ${formatValue(v.sojourn_ms, 'ms')} (target ${formatValue(v.target_ms, 'ms')}); BLUE's drop probability was p_drop = ${formatValue(v.p_drop)}${drew}.`,
  ];
  const blue = num(v.draw) && (v.draw ?? 1) < (v.p_drop ?? 0);
  const due = (v.sojourn_ms ?? 0) > (v.target_ms ?? 0) && (v.count ?? 0) > 0 && d.t_s >= (v.due_s ?? Infinity);
  const queue = num(v.queue)
    ? [
        `CAKE served flow queue ${formatValue(v.queue)}, whose busier host had ${formatValue(v.host_load)} bulk flow(s): each of its turns earns quantum / ${formatValue(v.host_load)}.`,
      ]
    : [];
  let rule: string;
  if (d.verdict === 'pass') {
    rule =
      v.last === 1 && (blue || due)
        ? 'BLUE or CoDel called for a drop, but it was its queue’s last packet: CAKE never drops that one.'
        : `No rule called for a drop: CoDel drops only once the sojourn is above target and its next drop (${formatValue(v.due_s, 's')}) is due, and BLUE only when the draw falls below p_drop.`;
  } else if (blue) rule = 'The draw fell below p_drop: BLUE dropped it (BLUE never marks).';
  else
    rule = `CoDel's drop was due at ${formatValue(v.due_s, 's')} with count = ${formatValue(v.count)}: ${VERB[d.verdict]}; the next is due at ${formatValue(v.next_drop_s, 's')}, interval / √(count + 1) later.`;
  return [...found, rule, ...queue];
}

/** Any scheme that records a probability and a draw (PIE, BLUE, BARE, CSFQ). */
function drawSentences(v: Record<string, number | undefined>, d: DecisionRecord, fields: readonly FieldSpec[]): string[] {
  const pId = ['p', 'p_m'].find((id) => v[id] !== undefined);
  if (!pId || v.draw === undefined) return [];
  const p = `${fields.find((f) => f.id === pId)?.symbol ?? pId} = ${formatValue(v[pId])}`;
  if (d.reason === 'early') return [`The drop probability was ${p}; the random draw u = ${formatValue(v.draw)} fell below it: ${VERB[d.verdict]}.`];
  if (Number.isNaN(v.draw)) return [`The drop probability was ${p}: no draw was needed.`];
  return [`The drop probability was ${p}; the random draw u = ${formatValue(v.draw)} was not below it.`];
}

const REASON: Record<DecisionRecord['reason'], string> = {
  early: "an early drop by the scheme's rule, before the buffer was full",
  forced: "a forced drop by the scheme's rule",
  overflow: 'the buffer was full',
  accepted: 'the scheme accepted it (one pass in 100 is recorded)',
};

/** `d` explained for a scheme named `schemeName` whose decisions record `fields`; `unit` is the buffer's. */
export function explainDecision(d: DecisionRecord, fields: readonly FieldSpec[], schemeName: string, unit: string): DecisionExplanation {
  const v = valuesOf(d, fields);
  const ids = new Set(fields.map((f) => f.id));
  const recorded = d.state.length > 0;
  let sentences: string[] = [];
  if (recorded && ids.has('p_a') && ids.has('avg')) sentences = redSentences(v, d, unit);
  else if (recorded && ids.has('p_prime')) sentences = dualSentences(v, d);
  else if (recorded && ids.has('p_drop')) sentences = cobaltSentences(v, d);
  else if (recorded && ids.has('sojourn_ms')) sentences = codelSentences(v, d);
  else if (recorded) sentences = drawSentences(v, d, fields);
  if (sentences.length === 0) sentences = [`Reason: ${REASON[d.reason]}.`];
  const numbers = recorded
    ? fields.map((f, i) => ({ id: f.id, label: f.label, symbol: f.symbol, value: formatValue(d.state[i], f.unit === 'buffer' ? unit : f.unit) }))
    : [];
  const what = d.verdict === 'pass' ? 'let through' : VERB[d.verdict];
  return {
    headline: `${schemeName} ${what} packet ${d.seq} of flow ${d.flow} (${d.size_bytes} bytes) at ${d.t_s.toFixed(4)} s on hop ${d.hop}: ${d.reason}.`,
    sentences,
    numbers,
  };
}

/** Where `d` sits on the scheme's drop-probability curve, [x, probability], for schemes whose curve it records. */
export function curvePoint(d: DecisionRecord, fields: readonly FieldSpec[]): [number, number] | null {
  const v = valuesOf(d, fields);
  const pairs: [string, string][] = [
    ['avg', 'p_b'],
    ['q_flow', 'p'],
    ['label', 'p'],
  ];
  for (const [x, p] of pairs) {
    const xv = v[x];
    const pv = v[p];
    if (xv !== undefined && pv !== undefined && !Number.isNaN(xv) && !Number.isNaN(pv)) return [xv, pv];
  }
  return null;
}
