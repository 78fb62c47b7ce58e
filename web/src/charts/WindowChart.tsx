// TCP congestion windows over time: one line per flow, each in its own
// colour, or each group's mean when there are many flows. Global
// synchronisation and RTT unfairness are about windows: whether they fall
// together, and how fast each grows back.

import { TimeLinesChart, type TimeLine, type TimeLinesData, type TimeLinesSpec } from './TimeLinesChart';

/** A flow's (or a group's mean) congestion window in packets at each sample. */
export type WindowChartLine = TimeLine;

const PACKETS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

const WINDOW: TimeLinesSpec = {
  title: 'Congestion window',
  testId: 'chart-cwnd',
  description: "congestion window in packets of each TCP flow, or each flow group's mean, over simulated time",
  yLabel: 'congestion window (packets)',
  minTop: 4,
  noLines: 'No TCP flows: only TCP has a congestion window.',
  format: (packets) => `${PACKETS.format(packets)} packets`,
  className: 'cwnd-line',
};

export function WindowChart(props: TimeLinesData) {
  return <TimeLinesChart spec={WINDOW} {...props} />;
}
