// The latency charts of one run: the ping RTT over time, and the delay CDF
// and box plot of its snapshot's distributions.

import { memo, useMemo } from 'react';
import { DelayBoxChart } from '../charts/DelayBoxChart';
import { DelayCdfChart } from '../charts/DelayCdfChart';
import { delayCurves } from '../charts/delayCurves';
import { OnScreen } from '../charts/OnScreen';
import { RttChart } from '../charts/RttChart';
import type { ParamChange, TimeWindow } from '../charts/timeAxis';
import type { VisibleRows } from '../charts/visibleWindow';
import type { RunSnapshot } from '../engine/client';
import type { SeriesStore } from '../engine/seriesStore';
import type { GroupInfo } from '../scenario/model';
import { rttData } from './delayData';

interface LatencyChartProps {
  id: 'cdf' | 'box' | 'rtt';
  store: SeriesStore | null;
  rows: VisibleRows | null;
  groups: readonly GroupInfo[];
  snapshot: RunSnapshot | null;
  binS: number;
  paramChanges: readonly ParamChange[];
  window: TimeWindow;
  height: number;
}

export const LatencyChart = memo(function LatencyChart({ id, store, rows, groups, snapshot, binS, paramChanges, window, height }: LatencyChartProps) {
  const curves = useMemo(() => delayCurves(snapshot?.delays), [snapshot]);
  const windowS = snapshot?.summary.window_s ?? 0;
  if (id === 'cdf') return <DelayCdfChart curves={curves} windowS={windowS} height={height} />;
  if (id === 'box') return <DelayBoxChart rows={curves} windowS={windowS} height={height} />;
  if (!store || !rows) return null;
  return (
    <OnScreen render={() => <RttChart {...rttData(store, rows, groups, binS)} binS={binS} paramChanges={paramChanges} window={window} height={height} />} />
  );
});
