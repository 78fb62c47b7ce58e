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

/**
 * Segments per stroked path. The software rasteriser (Chromium without a GPU)
 * visits, on every scanline a path covers, every edge of the path there: a
 * jagged line of a thousand points stroked as one path costs several times
 * what the same line costs in short runs, each its own path.
 */
const RUN_SEGMENTS = 32;

/** Clear `canvas` (sized `width`×`height` CSS pixels at `pixelRatio`) and stroke `lines` in order. */
export function paintSeries(canvas: HTMLCanvasElement, width: number, height: number, pixelRatio: number, lines: readonly SeriesLine[]): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  context.clearRect(0, 0, width, height);
  for (const line of lines) {
    if (pointCount(line) === 0) continue;
    const opacity = line.opacity ?? 1;
    // A dashed line in runs would restart its dashes at every run; a translucent one would darken where runs meet, unless drawn on a layer first.
    const layer = opacity < 1 && !line.dash?.length ? layerFor(canvas) : null;
    if (line.dash?.length || (opacity < 1 && !layer)) {
      styleLine(context, line, opacity);
      context.beginPath();
      tracePath(context, line, Number.POSITIVE_INFINITY);
      context.stroke();
    } else if (layer) {
      layer.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
      layer.clearRect(0, 0, width, height);
      styleLine(layer, line, 1);
      strokeRuns(layer, line);
      // The layer's pixels as they are, at the line's opacity: as one translucent stroke would leave them.
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.globalAlpha = opacity;
      context.drawImage(layer.canvas, 0, 0);
      context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
    } else {
      styleLine(context, line, 1);
      strokeRuns(context, line);
    }
  }
  context.globalAlpha = 1;
  context.setLineDash([]);
}

type Context = CanvasRenderingContext2D;

function styleLine(context: Context, line: SeriesLine, opacity: number): void {
  context.lineJoin = 'round';
  context.strokeStyle = line.color;
  context.lineWidth = line.width;
  context.globalAlpha = opacity;
  context.setLineDash(line.dash ?? []);
}

/**
 * Add the line to the current path, `maxSegments` segments at most; moves
 * (the start, and after each NaN gap) start subpaths. Returns the index of
 * the point it stopped at (the last point drawn), or the point count.
 */
function tracePath(context: Context, line: SeriesLine, maxSegments: number, from = 0): number {
  const n = pointCount(line);
  let drawing = false;
  let segments = 0;
  for (let i = from; i < n; i++) {
    const value = line.y[i];
    if (!Number.isFinite(value)) {
      drawing = false;
      continue;
    }
    const px = line.xScale(line.x[i]);
    const py = line.yScale(value);
    if (drawing) {
      context.lineTo(px, py);
      if (++segments === maxSegments) return i;
    } else context.moveTo(px, py);
    drawing = true;
  }
  return n;
}

/**
 * Stroke the line in runs of `RUN_SEGMENTS` segments. Each run after the
 * first starts one segment back, so the join at its start is drawn as one
 * path would draw it and the runs' butt ends are covered.
 */
function strokeRuns(context: Context, line: SeriesLine): void {
  const n = pointCount(line);
  let from = 0;
  while (from < n) {
    context.beginPath();
    const stop = tracePath(context, line, RUN_SEGMENTS, from);
    context.stroke();
    if (stop >= n - 1) return;
    from = stop - 1;
  }
}

/** One offscreen layer, the size of the canvas being painted, for translucent lines; none outside a browser. */
let layerCanvas: HTMLCanvasElement | null = null;

function layerFor(canvas: HTMLCanvasElement): Context | null {
  if (typeof document === 'undefined') return null;
  layerCanvas ??= document.createElement('canvas');
  if (layerCanvas.width !== canvas.width) layerCanvas.width = canvas.width;
  if (layerCanvas.height !== canvas.height) layerCanvas.height = canvas.height;
  return layerCanvas.getContext('2d');
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
