// The data lines of the time-series charts, painted on a <canvas> under the
// chart's SVG. A few thousand points redrawn every frame cost far less as
// canvas strokes than as SVG path strings that the browser must parse, lay
// out and paint; axes, thresholds, parameter changes and hover stay in SVG. The same
// lines become SVG paths when a chart is exported.

import type { ScaleLinear } from 'd3';
import { linePath } from './timeAxis';

export interface SeriesLine {
  /** Names the line for tests and keys (unique within its chart). */
  key: string;
  x: Float64Array;
  /** NaN values leave gaps. */
  y: Float64Array;
  xScale: ScaleLinear<number, number>;
  yScale: ScaleLinear<number, number>;
  color: string;
  width: number;
  opacity?: number;
  dash?: readonly number[];
  /** `data-testid` of the line's record (see ChartFrame). */
  testId?: string;
  /** Class of the line's record, e.g. for selecting every goodput line. */
  className?: string;
}

/** The number of points a line draws. */
export function pointCount(line: SeriesLine): number {
  return Math.min(line.x.length, line.y.length);
}

/** Clear `canvas` (sized `width`×`height` CSS pixels at `pixelRatio`) and stroke `lines` in order. */
export function paintSeries(canvas: HTMLCanvasElement, width: number, height: number, pixelRatio: number, lines: readonly SeriesLine[]): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  context.clearRect(0, 0, width, height);
  context.lineJoin = 'round';
  for (const line of lines) {
    const n = pointCount(line);
    if (n === 0) continue;
    context.beginPath();
    let drawing = false;
    for (let i = 0; i < n; i++) {
      const value = line.y[i];
      if (!Number.isFinite(value)) {
        drawing = false;
        continue;
      }
      const px = line.xScale(line.x[i]);
      const py = line.yScale(value);
      if (drawing) context.lineTo(px, py);
      else context.moveTo(px, py);
      drawing = true;
    }
    context.strokeStyle = line.color;
    context.lineWidth = line.width;
    context.globalAlpha = line.opacity ?? 1;
    context.setLineDash(line.dash ?? []);
    context.stroke();
  }
  context.globalAlpha = 1;
  context.setLineDash([]);
}

/** A line as the attributes of an SVG <path>, for the chart's SVG and PNG export. */
export function seriesPathAttributes(line: SeriesLine): Record<string, string | number> {
  const attributes: Record<string, string | number> = {
    d: linePath(line.x, line.y, line.xScale, line.yScale),
    fill: 'none',
    stroke: line.color,
    'stroke-width': line.width,
    'stroke-linejoin': 'round',
  };
  if (line.opacity !== undefined && line.opacity < 1) attributes['stroke-opacity'] = line.opacity;
  if (line.dash?.length) attributes['stroke-dasharray'] = line.dash.join(' ');
  return attributes;
}
