// What compare mode says about two runs of one scenario: where they part,
// and which scheme did better on each key number of the summary.

import type { LiveSummary } from '../engine/client';

/** The part of a series store this needs. */
export interface SeriesColumns {
  readonly rows: number;
  column(name: string): Float64Array;
}

/** Columns that show how the queue treated packets: any difference means the runs have parted. */
export const DIVERGENCE_COLUMNS = ['queue_packets', 'queue_bytes', 'arrivals', 'drops_early', 'drops_forced', 'drops_overflow', 'marks'] as const;

export type Divergence =
  /** Nothing to compare yet, or the stores no longer hold the start of the runs. */
  | { kind: 'unknown' }
  /** Every sample both runs hold so far is identical, up to `throughS`. */
  | { kind: 'identical'; throughS: number }
  /** The first sample that differs ends at `atS`; everything before it is identical. */
  | { kind: 'diverged'; atS: number };

/**
 * Where two runs of the same scenario and seed part. Their arrivals are the
 * same until one queue treats a packet differently (drops, marks or delays
 * it): from then on, the queues and the sources' reactions differ.
 */
export function divergence(a: SeriesColumns, b: SeriesColumns): Divergence {
  const common = Math.min(a.rows, b.rows);
  if (common === 0) return { kind: 'unknown' };
  const timeA = a.column('t_s');
  const timeB = b.column('t_s');
  // Rows are compared by position, so both stores must still start at the same sample.
  if (timeA[0] !== timeB[0]) return { kind: 'unknown' };
  const columns = DIVERGENCE_COLUMNS.map((name) => [a.column(name), b.column(name)] as const);
  for (let i = 0; i < common; i++) {
    if (timeA[i] !== timeB[i] || columns.some(([x, y]) => x[i] !== y[i])) return { kind: 'diverged', atS: timeA[i] };
  }
  return { kind: 'identical', throughS: timeA[common - 1] };
}

/** Which way is better for a metric; `null`: not ranked (e.g. marks, which replace drops). */
type Better = 'higher' | 'lower' | 'closer' | null;

export interface MetricRow {
  id: string;
  label: string;
  unit: string;
  a: number | null;
  b: number | null;
  /** Which run did better, if either did by more than RELATIVE_MARGIN. */
  winner: 'a' | 'b' | null;
  /** Why that one is better (or why the row is not ranked). */
  reason: string;
}

/** Differences smaller than this share of the larger value are not called. */
export const RELATIVE_MARGIN = 0.01;

const MBPS = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

/** The run whose value is better by more than RELATIVE_MARGIN; `target` is the goal of a 'closer' metric. */
export function winnerOf(a: number | null, b: number | null, better: Better, target = 0): 'a' | 'b' | null {
  if (a === null || b === null || better === null) return null;
  const [scoreA, scoreB] = better === 'closer' ? [-Math.abs(a - target), -Math.abs(b - target)] : better === 'higher' ? [a, b] : [-a, -b];
  const scale = better === 'closer' ? Math.max(Math.abs(target), Math.abs(a), Math.abs(b)) : Math.max(Math.abs(a), Math.abs(b));
  if (Math.abs(scoreA - scoreB) <= RELATIVE_MARGIN * scale) return null;
  return scoreA > scoreB ? 'a' : 'b';
}

function row(id: string, label: string, unit: string, a: number | null, b: number | null, better: Better, reason: string, target?: number): MetricRow {
  return { id, label, unit, a, b, winner: winnerOf(a, b, better, target), reason };
}

type Percentiles = NonNullable<LiveSummary['hops'][number]['sojourn_percentiles_ms']>;

const PERCENTILES: readonly [keyof Percentiles, string][] = [
  ['p50', 'median'],
  ['p90', '90th percentile'],
  ['p99', '99th percentile'],
  ['p999', '99.9th percentile'],
];

/** Each distribution's four percentiles as rows, lower better: the bottleneck's sojourn time and each TCP or ping group's RTT. */
function percentileRows(a: LiveSummary, b: LiveSummary): MetricRow[] {
  const distributions: { id: string; what: string; a: Percentiles | null | undefined; b: Percentiles | null | undefined }[] = [
    { id: 'sojourn', what: 'sojourn time at the bottleneck', a: a.hops[0]?.sojourn_percentiles_ms, b: b.hops[0]?.sojourn_percentiles_ms },
    ...a.groups
      .filter((g) => g.rtt_percentiles_ms !== undefined)
      .map((g) => ({
        id: `rtt-${g.group}`,
        what: `RTT of ${g.label || g.kind}`,
        a: g.rtt_percentiles_ms,
        b: b.groups.find((other) => other.group === g.group)?.rtt_percentiles_ms,
      })),
  ];
  // The bottleneck's p99 is the row above (the summary's p99 queueing delay, the same histogram).
  const wanted = (id: string, p: keyof Percentiles) => !(id === 'sojourn' && p === 'p99');
  return distributions.flatMap((d) =>
    PERCENTILES.filter(([p]) => wanted(d.id, p)).map(([p, name]) =>
      row(
        `${d.id}-${p}`,
        `${name[0].toUpperCase()}${name.slice(1)} ${d.what}`,
        'ms',
        d.a?.[p] ?? null,
        d.b?.[p] ?? null,
        'lower',
        `lower: ${p === 'p50' ? 'a shorter typical wait' : 'a shorter tail'}`,
      ),
    ),
  );
}

/** The key numbers of two summaries over the same measurement window, side by side. */
export function compareSummaries(a: LiveSummary, b: LiveSummary): MetricRow[] {
  const rows: MetricRow[] = [
    row('goodput', 'Aggregate goodput', 'Mb/s', a.aggregate_goodput_bps / 1e6, b.aggregate_goodput_bps / 1e6, 'higher', 'higher: more data delivered'),
  ];
  // Both runs have the same groups: the scenario is the same.
  for (const groupA of a.groups) {
    const groupB = b.groups.find((g) => g.group === groupA.group);
    const fairMbps = (groupA.mean_fair_share_bps * groupA.flows) / 1e6;
    rows.push(
      row(
        `group-${groupA.group}`,
        `Goodput of ${groupA.label} (${groupA.flows} ${groupA.flows === 1 ? 'flow' : 'flows'})`,
        'Mb/s',
        groupA.total_goodput_bps / 1e6,
        groupB ? groupB.total_goodput_bps / 1e6 : null,
        'closer',
        `closer to the group's max-min fair share, ${MBPS.format(fairMbps)} Mb/s`,
        fairMbps,
      ),
    );
  }
  rows.push(
    row('jain', "Jain's fairness index", '', a.fairness.jain_all, b.fairness.jain_all, 'higher', 'higher: shares closer to equal (1 = all equal)'),
    row('mean-delay', 'Mean queueing delay', 'ms', a.queue.mean_delay_ms, b.queue.mean_delay_ms, 'lower', 'lower: less time waiting in the queue'),
    row('p99-delay', '99th percentile queueing delay', 'ms', a.queue.p99_delay_ms, b.queue.p99_delay_ms, 'lower', 'lower: a shorter tail of waiting times'),
    ...percentileRows(a, b),
    row('drops', 'Packets dropped', '', a.drops.total, b.drops.total, 'lower', 'lower: fewer packets lost'),
    row('marks', 'Packets ECN-marked', '', a.marks, b.marks, null, 'not ranked: a mark signals congestion without losing the packet'),
  );
  return rows;
}
