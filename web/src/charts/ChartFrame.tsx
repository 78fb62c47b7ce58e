// The shared frame of every chart: title, legend, a measured SVG plot area
// with margins, a canvas under it for the data lines, a hover tooltip that
// the mouse or the arrow keys move (useChartCursor), and the host's actions
// (chartActions). Charts draw inside it with d3 scales.

import { useContext, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ChartActions, type LegendEntry } from './chartActions';
import { ChartScaleContext } from './chartScale';
import { Marker } from './markers';
import { paintSeries, pointCount, seriesPathAttributes, type SeriesLine } from './seriesCanvas';
import type { CursorMove } from './timeAxis';
import { useChartCursor, type HoverInfo } from './useChartCursor';

export type { LegendEntry } from './chartActions';
export type { HoverInfo, TooltipRow } from './useChartCursor';

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PlotArea {
  width: number;
  height: number;
  /** A clip-path value that keeps drawing inside the plot area. */
  clip: string;
}

interface ChartFrameProps {
  title: string;
  testId: string;
  height: number;
  margin: Margin;
  legend: LegendEntry[];
  /** What the chart shows, for screen readers. */
  description: string;
  /** Shown over the plot when there is nothing to draw yet. */
  emptyMessage?: string;
  children: (plot: PlotArea) => ReactNode;
  /** The data lines, painted on the canvas under the SVG in order. */
  series?: (plot: PlotArea) => SeriesLine[];
  hover?: (plotX: number, plot: PlotArea) => HoverInfo | null;
  /** Where the keyboard moves the hover cursor (plot x), from `fromX` (null: no cursor yet); makes the plot focusable. */
  hoverStep?: (fromX: number | null, move: CursorMove, plot: PlotArea) => number | null;
}

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export function ChartFrame({ title, testId, height, margin, legend, description, emptyMessage, children, series, hover, hoverStep }: ChartFrameProps) {
  const [containerRef, width] = useWidth<HTMLDivElement>();
  const clipId = `plot-clip${useId().replace(/:/g, '')}`;
  // Laid out in plot units, drawn `scale` screen pixels each (chartScale.ts).
  const { text: scale, height: heightScale } = useContext(ChartScaleContext);
  const screenHeight = Math.round(height * heightScale);
  const plotWidth = width / scale;
  const plotHeight = screenHeight / scale;
  const plot: PlotArea = {
    width: Math.max(10, plotWidth - margin.left - margin.right),
    height: Math.max(10, plotHeight - margin.top - margin.bottom),
    clip: `url(#${clipId})`,
  };
  const active = width > 0 && !emptyMessage;
  const cursor = useChartCursor({
    active,
    hover: hover && ((plotX) => hover(plotX, plot)),
    step: hoverStep && ((fromX, move) => hoverStep(fromX, move, plot)),
    scale,
  });
  const hovered = cursor.hovered;
  const renderActions = useContext(ChartActions);
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const lines = series && active ? series(plot) : [];
  const pixelRatio = window.devicePixelRatio || 1;

  // Before the browser paints, so the lines and the SVG around them always show the same moment.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // Present mode thickens the lines for a projector (app.css sets --line-scale).
    const lineScale = Number(getComputedStyle(canvas).getPropertyValue('--line-scale')) || 1;
    paintSeries(
      canvas,
      plot.width,
      plot.height,
      pixelRatio * scale,
      lineScale === 1 ? lines : lines.map((line) => ({ ...line, width: line.width * lineScale })),
    );
  });

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption className="chart-header">
        <span className="chart-title">{title}</span>
        {width > 0 &&
          renderActions?.({
            title,
            testId,
            legend,
            svg: () => svgRef.current,
            seriesPaths: () => lines.map(seriesPathAttributes),
          })}
        <ul className="legend">
          {legend.map((entry) => (
            <li key={entry.label}>
              <svg width="22" height="12" aria-hidden="true">
                {entry.marker ? (
                  <Marker shape={entry.marker} x={11} y={6} r={4.5} color={entry.color} />
                ) : (
                  <line x1="1" x2="21" y1="6" y2="6" stroke={entry.color} strokeWidth="3" strokeDasharray={entry.dashed ? '5 3' : undefined} />
                )}
              </svg>
              {entry.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <div
        className="chart-body"
        ref={containerRef}
        style={{ height: screenHeight }}
        tabIndex={hoverStep ? 0 : undefined}
        role={hoverStep ? 'group' : undefined}
        aria-label={hoverStep ? `${title}: Left and Right arrow keys read the values (Shift for bigger steps, Home, End), Escape hides them` : undefined}
        onKeyDown={hoverStep ? cursor.onKeyDown : undefined}
        onBlur={cursor.onBlur}
      >
        {series && width > 0 && (
          // Each line's record (not rendered: canvas fallback content) tells tests what was drawn.
          <canvas
            ref={canvasRef}
            className="series-canvas"
            width={Math.round(plot.width * scale * pixelRatio)}
            height={Math.round(plot.height * scale * pixelRatio)}
            style={{ left: margin.left * scale, top: margin.top * scale, width: plot.width * scale, height: plot.height * scale }}
            aria-hidden="true"
          >
            {lines.map((line) => (
              <span key={line.key} className={line.className} data-testid={line.testId} data-series={line.key} data-points={pointCount(line)} />
            ))}
          </canvas>
        )}
        {width > 0 && (
          <svg ref={svgRef} width={width} height={screenHeight} viewBox={`0 0 ${plotWidth} ${plotHeight}`} role="img" aria-label={`${title}: ${description}`}>
            <defs>
              <clipPath id={clipId}>
                <rect width={plot.width} height={plot.height} />
              </clipPath>
            </defs>
            <g transform={`translate(${margin.left},${margin.top})`} data-plot="">
              {children(plot)}
              {hovered && <line className="hover-line" x1={hovered.x} x2={hovered.x} y1={0} y2={plot.height} />}
              {hover && (
                <rect
                  className="hover-target"
                  width={plot.width}
                  height={plot.height}
                  onPointerMove={cursor.onPointerMove}
                  onPointerDown={cursor.onPointerDown}
                  onPointerLeave={cursor.onPointerLeave}
                />
              )}
            </g>
          </svg>
        )}
        {emptyMessage && <p className="chart-empty">{emptyMessage}</p>}
        {hoverStep && (
          <p className="visually-hidden" aria-live="polite" data-testid={`${testId}-announcement`}>
            {cursor.announcement}
          </p>
        )}
        {hovered && (
          <div
            className="tooltip"
            aria-hidden="true"
            data-testid={`${testId}-tooltip`}
            style={{
              left: Math.min((margin.left + hovered.x) * scale + 12, Math.max(0, width - 190)),
              top: margin.top * scale + 4,
            }}
          >
            <strong>{hovered.title}</strong>
            {hovered.rows.map((row) => (
              <div key={row.label} className="tooltip-row">
                {row.color && <span className="swatch" style={{ background: row.color }} />}
                <span>{row.label}</span>
                <span className="tooltip-value">{row.value}</span>
              </div>
            ))}
          </div>
        )}
      </div>
    </figure>
  );
}
