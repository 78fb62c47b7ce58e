// What the page shows beside the experiment itself; carried in share links
// next to the scenario, and never required to reproduce the run.

import type { Scenario } from './types';

export const CHART_IDS = ['queue', 'goodput', 'cwnd', 'bars', 'curve', 'markov', 'rate', 'cdf', 'box', 'rtt'] as const;
export type ChartId = (typeof CHART_IDS)[number];

export const CHART_TITLES: Record<ChartId, string> = {
  queue: 'Queue length',
  goodput: 'Goodput over time',
  cwnd: 'Congestion window',
  bars: 'Goodput per flow',
  curve: 'Drop-probability curve',
  markov: 'Drop vs offered load (theory)',
  rate: 'Drop and mark rate',
  cdf: 'Delay distribution (CDF)',
  box: 'Delay per group (box plot)',
  rtt: 'Ping round-trip time',
};

/** Time-window widths offered for the charts, in simulated seconds (0 = the whole run). */
export const WINDOW_CHOICES_S = [10, 30, 60, 0] as const;

/**
 * What compare mode varies: the queue scheme (`&compare=` in a link) or the
 * TCP flavour of every TCP group (`&compare_cc=`), the rest of the scenario
 * and the seed kept. `refused`: a link's compare key the page cannot use,
 * named with why (never written back to a link).
 */
export type Comparison = { by: 'scheme'; scheme: string } | { by: 'cc'; cc: string } | { by: 'refused'; field: string; reason: string };

export interface ViewState {
  charts: ChartId[];
  windowS: number;
  /** The compare partner: a second run of the same scenario and seed, or null for a single run. */
  compare: Comparison | null;
}

/** Charts shown only when asked for (a lesson step, a link, the chart toggles). */
const OPT_IN_CHARTS: readonly ChartId[] = ['cwnd', 'cdf', 'box', 'rtt'];

/** The congestion-window chart is asked for (a lesson step, a link, the chart toggles): most experiments are told by the others. */
export const DEFAULT_VIEW: ViewState = { charts: CHART_IDS.filter((id) => !OPT_IN_CHARTS.includes(id)), windowS: 30, compare: null };

/** A scenario with a latency probe (a `ping` group) shows its RTT over time and the delay CDF as well. */
export function withLatencyCharts(view: ViewState, scenario: Scenario): ViewState {
  if (!scenario.flows.some((group) => group.kind === 'ping')) return view;
  const wanted: readonly ChartId[] = ['rtt', 'cdf'];
  return { ...view, charts: CHART_IDS.filter((id) => view.charts.includes(id) || wanted.includes(id)) };
}
