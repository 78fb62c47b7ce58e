// The ping RTT chart's data: the ping flows' RTT columns for the visible window.

import { binSums } from '../charts/bins';
import { flowColor, groupColor } from '../charts/palette';
import type { RttChartLine } from '../charts/RttChart';
import type { VisibleRows } from '../charts/visibleWindow';
import { flowColumn, groupColumn } from '../engine/flowColumns';
import type { SeriesStore } from '../engine/seriesStore';
import { flowsOf, type GroupInfo } from '../scenario/model';
import { drawsEachFlow, flowLabel } from './chartData';

export interface RttData {
  timeS: Float64Array;
  lines: RttChartLine[];
}

/** Each ping flow's RTT (its latest echo at each sample), or each ping group's mean above a dozen flows; bin means. */
export function rttData(store: SeriesStore, rows: VisibleRows, groups: readonly GroupInfo[], binS: number): RttData {
  const perFlow = drawsEachFlow(groups);
  const sources: { label: string; color: string; column: Float64Array }[] = [];
  groups.forEach((group, g) => {
    if (group.kind !== 'ping') return;
    if (perFlow) {
      for (const f of flowsOf(group)) {
        const name = flowColumn('srtt_ms', f);
        if (store.has(name)) sources.push({ label: flowLabel(f, group), color: flowColor(f), column: store.column(name).subarray(rows.from, rows.to) });
      }
      return;
    }
    const mean = groupColumn('srtt_ms', g, 'mean');
    const name = store.has(mean) ? mean : flowColumn('srtt_ms', group.firstFlow);
    if (store.has(name)) sources.push({ label: `${group.label} (mean)`, color: groupColor(g), column: store.column(name).subarray(rows.from, rows.to) });
  });
  const binned = binSums(
    store.column('t_s').subarray(rows.from, rows.to),
    sources.map((s) => [s.column]),
    binS,
  );
  return {
    timeS: binned.timeS,
    lines: sources.map((s, i) => ({ label: s.label, color: s.color, values: binned.sums[i].map((sum, b) => sum / binned.rows[b]) })),
  };
}
