// The frame of a chart whose x axis is simulated time: the time axis, the
// tooltip at the sample nearest the cursor, the keyboard's steps from sample
// to sample, the parameter-change lines and the inspector's marks. A chart
// says only what it plots at each sample and on which y axis.

import type { ReactNode } from 'react';
import type { ScaleLinear } from 'd3';
import { AxisBottom } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea, type TooltipRow } from './ChartFrame';
import { nearestIndex } from './decimate';
import { DecisionMarks, type DecisionMarksProps } from './DecisionMarks';
import type { SeriesLine } from './seriesCanvas';
import { ParamChangeLines, TIME_MARGIN, formatSeconds, stepSample, timeScale, type ParamChange, type TimeWindow } from './timeAxis';

/** Where a time chart stands: its samples' times, the window shown, the live parameter changes, its height. */
export interface TimePlacement {
  timeS: Float64Array;
  window: TimeWindow;
  paramChanges: readonly ParamChange[];
  height: number;
}

interface TimeChartFrameProps extends TimePlacement {
  title: string;
  testId: string;
  legend: LegendEntry[];
  /** What the chart shows, for screen readers. */
  description: string;
  /** Shown instead of the plot, before "waiting for the first samples" (e.g. nothing of the kind to draw). */
  emptyMessage?: string;
  /** The tooltip's rows at sample `i`. */
  rowsAt: (i: number) => TooltipRow[];
  /** The data lines against the time scale `x`. */
  series: (plot: PlotArea, x: ScaleLinear<number, number>) => SeriesLine[];
  /** The y axes and marks, drawn over the time axis and under the parameter changes. */
  children: (plot: PlotArea, x: ScaleLinear<number, number>) => ReactNode;
  /** The inspector's drops and marks, when the run is paused. */
  decisions?: DecisionMarksProps;
}

export function TimeChartFrame({ timeS, window, paramChanges, emptyMessage, rowsAt, series, children, decisions, ...frame }: TimeChartFrameProps) {
  return (
    <ChartFrame
      {...frame}
      margin={TIME_MARGIN}
      emptyMessage={emptyMessage ?? (timeS.length === 0 ? 'Waiting for the first samples…' : undefined)}
      hover={(plotX, plot) => {
        const x = timeScale(window, plot.width);
        const i = nearestIndex(timeS, x.invert(plotX));
        return i < 0 ? null : { x: x(timeS[i]), title: `t = ${formatSeconds(timeS[i])}`, rows: rowsAt(i) };
      }}
      hoverStep={(fromX, move, plot) => stepSample(timeS, timeScale(window, plot.width), fromX, move)}
      series={(plot) => series(plot, timeScale(window, plot.width))}
    >
      {(plot) => {
        const x = timeScale(window, plot.width);
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            {children(plot, x)}
            <ParamChangeLines changes={paramChanges} xScale={x} height={plot.height} />
            {decisions && <DecisionMarks {...decisions} x={x} />}
          </>
        );
      }}
    </ChartFrame>
  );
}
