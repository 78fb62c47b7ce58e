// The shared frame of every chart: title, legend, a measured SVG plot area
// with margins, a canvas under it for the data lines, a hover tooltip that
// the mouse or the arrow keys move, and SVG/PNG download buttons. Charts draw
// inside it with d3 scales.

import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { chartToSvg, svgToPng } from '../export/chartImage';
import { exportFileName } from '../export/documents';
import { downloadBlob } from '../export/download';
import { Marker, type MarkerShape } from './markers';
import { paintSeries, pointCount, seriesPathAttributes, type SeriesLine } from './seriesCanvas';
import type { CursorMove } from './timeAxis';

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

export interface LegendEntry {
  label: string;
  color: string;
  dashed?: boolean;
  /** A point marker instead of a line swatch. */
  marker?: MarkerShape;
}

export interface TooltipRow {
  label: string;
  value: string;
  color?: string;
}

export interface HoverInfo {
  /** Where to draw the cursor, in plot coordinates. */
  x: number;
  title: string;
  rows: TooltipRow[];
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

interface Cursor {
  x: number;
  /** A pointer leaving the plot clears only its own cursor. */
  source: 'pointer' | 'keyboard';
}

const KEY_MOVES: Record<string, [CursorMove, CursorMove]> = {
  ArrowLeft: ['previous', 'previous-page'],
  ArrowRight: ['next', 'next-page'],
  Home: ['first', 'first'],
  End: ['last', 'last'],
};

function announce(info: HoverInfo): string {
  return `${info.title}: ${info.rows
    .filter((row) => row.value)
    .map((row) => `${row.label} ${row.value}`)
    .join(', ')}`;
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
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const clipId = `plot-clip${useId().replace(/:/g, '')}`;
  const plot: PlotArea = {
    width: Math.max(10, width - margin.left - margin.right),
    height: Math.max(10, height - margin.top - margin.bottom),
    clip: `url(#${clipId})`,
  };
  const active = width > 0 && !emptyMessage;
  const hovered = cursor !== null && hover && active ? hover(cursor.x, plot) : null;
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const lines = series && active ? series(plot) : [];
  const pixelRatio = window.devicePixelRatio || 1;
  const [exportProblem, setExportProblem] = useState('');

  // Before the browser paints, so the lines and the SVG around them always show the same moment.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // Present mode thickens the lines for a projector (app.css sets --line-scale).
    const lineScale = Number(getComputedStyle(canvas).getPropertyValue('--line-scale')) || 1;
    paintSeries(canvas, plot.width, plot.height, pixelRatio, lineScale === 1 ? lines : lines.map((line) => ({ ...line, width: line.width * lineScale })));
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!hoverStep || !hover || !active) return;
    if (event.key === 'Escape') {
      if (cursor?.source !== 'keyboard') return;
      setCursor(null);
      setAnnouncement('');
      event.preventDefault();
      return;
    }
    const moves = KEY_MOVES[event.key];
    if (!moves) return;
    event.preventDefault();
    const x = hoverStep(cursor?.x ?? null, moves[event.shiftKey ? 1 : 0], plot);
    if (x === null) return;
    setCursor({ x, source: 'keyboard' });
    const info = hover(x, plot);
    setAnnouncement(info ? announce(info) : '');
  };

  const save = async (format: 'svg' | 'png') => {
    const svg = svgRef.current;
    if (!svg) return;
    const fileName = exportFileName(title, 'chart', format);
    try {
      const image = chartToSvg(svg, title, legend, lines.map(seriesPathAttributes));
      downloadBlob(format === 'svg' ? new Blob([image.svg], { type: 'image/svg+xml' }) : await svgToPng(image), fileName);
      setExportProblem('');
    } catch (reason) {
      setExportProblem(`${format.toUpperCase()} failed: ${reason instanceof Error ? reason.message : String(reason)}`);
    }
  };

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption className="chart-header">
        <span className="chart-title">{title}</span>
        {width > 0 && (
          <span className="chart-export">
            {exportProblem && (
              <span className="chart-export-problem" role="status">
                {exportProblem}
              </span>
            )}
            <button type="button" onClick={() => void save('svg')} aria-label={`Download the ${title} chart as SVG`} data-testid={`${testId}-svg`}>
              SVG
            </button>
            <button type="button" onClick={() => void save('png')} aria-label={`Download the ${title} chart as PNG`} data-testid={`${testId}-png`}>
              PNG
            </button>
          </span>
        )}
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
        style={{ height }}
        tabIndex={hoverStep ? 0 : undefined}
        role={hoverStep ? 'group' : undefined}
        aria-label={hoverStep ? `${title}: Left and Right arrow keys read the values (Shift for bigger steps, Home, End), Escape hides them` : undefined}
        onKeyDown={hoverStep ? onKeyDown : undefined}
        onBlur={() => {
          if (cursor?.source === 'keyboard') setCursor(null);
          setAnnouncement('');
        }}
      >
        {series && width > 0 && (
          // Each line's record (not rendered: canvas fallback content) tells tests what was drawn.
          <canvas
            ref={canvasRef}
            className="series-canvas"
            width={Math.round(plot.width * pixelRatio)}
            height={Math.round(plot.height * pixelRatio)}
            style={{ left: margin.left, top: margin.top, width: plot.width, height: plot.height }}
            aria-hidden="true"
          >
            {lines.map((line) => (
              <span key={line.key} className={line.className} data-testid={line.testId} data-series={line.key} data-points={pointCount(line)} />
            ))}
          </canvas>
        )}
        {width > 0 && (
          <svg ref={svgRef} width={width} height={height} role="img" aria-label={`${title}: ${description}`}>
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
                  onPointerMove={(event) => setCursor({ x: event.clientX - event.currentTarget.getBoundingClientRect().left, source: 'pointer' })}
                  // A tap shows the values under the finger, and they stay when it lifts (a touch pointer leaves as it lifts).
                  onPointerDown={(event) => setCursor({ x: event.clientX - event.currentTarget.getBoundingClientRect().left, source: 'pointer' })}
                  onPointerLeave={(event) => event.pointerType !== 'touch' && setCursor((current) => (current?.source === 'pointer' ? null : current))}
                />
              )}
            </g>
          </svg>
        )}
        {emptyMessage && <p className="chart-empty">{emptyMessage}</p>}
        {hoverStep && (
          <p className="visually-hidden" aria-live="polite" data-testid={`${testId}-announcement`}>
            {announcement}
          </p>
        )}
        {hovered && (
          <div
            className="tooltip"
            aria-hidden="true"
            data-testid={`${testId}-tooltip`}
            style={{
              left: Math.min(margin.left + hovered.x + 12, Math.max(0, width - 190)),
              top: margin.top + 4,
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
