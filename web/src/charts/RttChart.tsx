// Round-trip time over time of the latency probes (ping flows): one line per
// ping flow, or each ping group's mean when there are many flows. Each
// sample is the latest echo's RTT, as ping prints it, so the line shows the
// base RTT plus whatever queue the probe met.

import { TimeLinesChart, type TimeLine, type TimeLinesData, type TimeLinesSpec } from './TimeLinesChart';

/** A flow's (or a group's mean) RTT in ms at each sample; NaN before the first echo. */
export type RttChartLine = TimeLine;

const MS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

const RTT: TimeLinesSpec = {
  title: 'Ping round-trip time',
  testId: 'chart-rtt',
  description: "round-trip time in milliseconds of each ping flow, or each ping group's mean, over simulated time",
  yLabel: 'round-trip time (ms)',
  minTop: 10,
  noLines: 'No ping flows: add a flow group of kind ping to measure latency under load.',
  format: (ms) => (Number.isFinite(ms) ? `${MS.format(ms)} ms` : 'no echo yet'),
  className: 'rtt-line',
};

export function RttChart(props: TimeLinesData) {
  return <TimeLinesChart spec={RTT} {...props} />;
}
