// The drop-and-mark inspector's words: one recorded decision explained from
// the state the engine recorded with it. The field names, symbols and units
// come from the engine (`decisionFields`); only the sentences are written here.

import type { DecisionRecord, FieldSpec } from '../engine/client';
import type { DropCurve } from '../scenario/types';
import { PIE_QUIET_P, pieQuiet } from './schemeLaws';

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
  const due = (v.sojourn_ms ?? 0) > (v.target_ms ?? 0) && v.count != null && v.count > 0 && d.t_s >= (v.due_s ?? Infinity);
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

type Values = Record<string, number | undefined>;

/** The draw against a probability `p` named `symbol`, and what followed. */
function drawAgainst(v: Values, d: DecisionRecord, symbol: string): string {
  const draw = `The random draw u = ${formatValue(v.draw)}`;
  return d.reason === 'early' ? `${draw} fell below ${symbol}: ${VERB[d.verdict]}.` : `${draw} was not below ${symbol}: accepted.`;
}

function overflowed(d: DecisionRecord): string[] {
  return d.reason === 'overflow' ? ['But the buffer was full: dropped as overflow.'] : [];
}

/** REM: the price and the exponential marking law (Athuraliya et al. 2001). */
function remSentences(v: Values, d: DecisionRecord, unit: string): string[] {
  return [
    `The price was p = ${formatValue(v.price)} (the queue held ${formatValue(v.queued, unit)}), so the marking probability was 1 − φ^(−p) = ${formatValue(v.p_mark)}.`,
    drawAgainst(v, d, 'it'),
  ];
}

/** RQRD: CSFQ's rate test times the queue test (Karam & Tobagi 2000). */
function rqrdSentences(v: Values, d: DecisionRecord, unit: string): string[] {
  const branch = v.c_q ? 'c_q = 1: the pessimistic p_high' : 'c_q = 0: the optimistic p_low';
  const rate = `The packet's rate label was r = ${formatValue(v.label, 'b/s')} against the fair share α = ${formatValue(v.alpha, 'b/s')}: p_R = ${formatValue(v.p_r)}.`;
  const queue = `The average queue was Q = ${formatValue(v.avg, unit)} (${branch}): p_Q = ${formatValue(v.p_q)}.`;
  const product = `So p_d = p_R·p_Q = ${formatValue(v.p_d)}.`;
  const verdict = v.p_r === 0 ? 'With p_R = 0 there was nothing to draw: accepted.' : drawAgainst(v, d, 'p_d');
  return [rate, queue, product, verdict, ...overflowed(d)];
}

/** AFpFT: the tail of the tag-sorted queue is dropped (Block A). */
function afpftSentences(v: Values, d: DecisionRecord, unit: string): string[] {
  const tags = `Its start tag was S = ${formatValue(v.tag)} s of virtual time (the server's virtual time v = ${formatValue(v.v)} s); its flow's finish tag was ${formatValue(v.finish)} s, with ${formatValue(v.flow_count)} packets queued.`;
  if (d.verdict === 'pass')
    return [`The arrival was queued by its tag and the buffer held ${formatValue(v.queued, unit)}: within the limit, nothing was dropped.`, tags];
  return [
    `With the arrival the buffer held ${formatValue(v.queued, unit)}, over its limit: AFpFT drops the packet at the tail, the one with the highest start tag.`,
    tags,
    `The highest tag left behind is ${formatValue(v.highest_left)} s: this flow was furthest ahead of its fair share.`,
  ];
}

/** DRR: the longest flow queue loses its head packet. */
function drrSentences(v: Values, d: DecisionRecord, unit: string): string[] {
  const queues = `Its flow had ${formatValue(v.flow_queue, unit)} queued, the longest other flow ${formatValue(v.others_longest, unit)}; its deficit counter was DC_i = ${formatValue(v.deficit, 'bytes')} (${formatValue(v.backlogged)} flows backlogged).`;
  if (d.verdict === 'pass') return [`The buffer held ${formatValue(v.queued, unit)}: within the limit, the packet joined its flow's queue.`, queues];
  return [`The buffer held ${formatValue(v.queued, unit)}, over its limit: DRR drops the head packet of the longest flow queue.`, queues];
}

/** SFRED: RED with the flow's class from its MRU-list counters (Zhou, Yeung & Li 2009). */
function sfredSentences(v: Values, d: DecisionRecord, unit: string): string[] {
  const counters = `Its flow had H_ri = ${formatValue(v.received)} packets and H_di = ${formatValue(v.dropped)} drops counted, against the fair share T_f = ${formatValue(v.fair)} and the listed flows' loss rate L = ${formatValue(v.loss)}; the average queue was ${formatValue(v.avg, unit)}.`;
  if (d.reason === 'forced')
    return [
      counters,
      "Forced drop (p_a = 1): the average queue was at or above the flow's upper threshold, or the flow sent above its fair share while losing more than its share, and is cut off as unresponsive.",
    ];
  if ((v.p_a ?? 0) === 0) return [counters, "The average queue was below the flow's lower threshold: RED did not act (p_a = 0).", ...overflowed(d)];
  return [
    counters,
    `With count = ${formatValue(v.count)} arrivals since the last drop, the flow's class gave p_a = ${formatValue(v.p_a)}.`,
    drawAgainst(v, d, 'p_a'),
    ...overflowed(d),
  ];
}

/** PIE (and each flow queue of FQ-PIE): RFC 8033 §4.1's exemptions, then §5.4's derandomised draw. */
function pieSentences(v: Values, d: DecisionRecord): string[] {
  const state = `The drop probability was p = ${formatValue(v.p)} and the queue delay at the last update ${formatValue(v.qdelay_ms, 'ms')} (target ${formatValue(v.target_ms, 'ms')}).`;
  if (d.reason === 'overflow') return [state, 'But the buffer was full: dropped as overflow.'];
  const accu = v.accu_prob ?? 0;
  if (d.verdict !== 'pass') {
    const why = accu >= 8.5 ? `The accumulated probability reached ${formatValue(accu)} (8.5 or more): PIE drops whatever the draw.` : drawAgainst(v, d, 'p');
    return [state, why];
  }
  const rule =
    (v.burst_allowance_ms ?? 0) > 0
      ? `The burst allowance had ${formatValue(v.burst_allowance_ms, 'ms')} left: PIE lets bursts through until it is used up.`
      : pieQuiet(v.qdelay_ms ?? 0, v.p ?? 0, v.target_ms ?? 0)
        ? `The delay was below half the target and p below ${PIE_QUIET_P}: PIE drops nothing early there.`
        : accu > 0 && accu < 0.85
          ? `The probability accumulated since the last drop was ${formatValue(accu)}, below 0.85: derandomised PIE does not drop yet.`
          : `The random draw u = ${formatValue(v.draw)} was not below p (or at most two packets were queued): accepted.`;
  return [state, rule];
}

/** The sentences of a scheme known by a field only it records, checked before the generic RED and draw rules. */
const BY_FIELD: [string, (v: Values, d: DecisionRecord, unit: string) => string[]][] = [
  ['price', remSentences],
  ['p_d', rqrdSentences],
  ['highest_left', afpftSentences],
  ['others_longest', drrSentences],
  ['fair', sfredSentences],
  ['accu_prob', pieSentences],
];

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
  const own = BY_FIELD.find(([id]) => ids.has(id));
  if (recorded && own) sentences = own[1](v, d, unit);
  else if (recorded && ids.has('p_a') && ids.has('avg')) sentences = redSentences(v, d, unit);
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

/** `curve`'s probability at `x`, linear between its points (its ends beyond them). */
export function probabilityOn(curve: DropCurve, x: number): number | null {
  const points = curve.points;
  if (points.length === 0) return null;
  const after = points.findIndex((p) => p[0] >= x);
  if (after === -1) return points[points.length - 1][1];
  if (after === 0 || points[after][0] === x) return points[after][1];
  const [x0, p0] = points[after - 1];
  const [x1, p1] = points[after];
  return p0 + ((p1 - p0) * (x - x0)) / (x1 - x0);
}

/**
 * Where `d` sits on the scheme's drop-probability curve, [x, probability]:
 * from the pair of values it records, or, for FRED, which records its
 * average but not the probability, read off `curve` at that average.
 */
export function curvePoint(d: DecisionRecord, fields: readonly FieldSpec[], curve?: DropCurve): [number, number] | null {
  const v = valuesOf(d, fields);
  const pairs: [string, string][] = [
    ['avg', 'p_b'],
    ['price', 'p_mark'],
    ['avg', 'p_q'],
    ['q_flow', 'p'],
    ['label', 'p'],
    ['p_prime', 'p'],
  ];
  const usable = (value: number | undefined): value is number => value !== undefined && !Number.isNaN(value);
  for (const [x, p] of pairs) {
    const xv = v[x];
    const pv = v[p];
    if (usable(xv) && usable(pv)) return [xv, pv];
  }
  // FRED's curve is RED's p_b against its average, for flows at or above their share.
  const fredAvg = fields.some((f) => f.id === 'avgcq') ? v.avg : undefined;
  const onCurve = usable(fredAvg) && curve ? probabilityOn(curve, fredAvg) : null;
  return usable(fredAvg) && onCurve !== null ? [fredAvg, onCurve] : null;
}
