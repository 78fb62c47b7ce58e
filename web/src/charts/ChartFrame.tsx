// The shared frame of every chart: title, legend, a measured SVG plot area
// with margins, a hover tooltip, and SVG/PNG download buttons. Charts draw
// inside it with d3 scales.

import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { chartToSvg, svgToPng } from '../export/chartImage';
import { exportFileName } from '../export/documents';
import { downloadBlob } from '../export/download';
import { Marker, type MarkerShape } from './markers';

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
  hover?: (plotX: number, plot: PlotArea) => HoverInfo | null;
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

export function ChartFrame({ title, testId, height, margin, legend, description, emptyMessage, children, hover }: ChartFrameProps) {
  const [containerRef, width] = useWidth<HTMLDivElement>();
  const [pointerX, setPointerX] = useState<number | null>(null);
  const clipId = `plot-clip${useId().replace(/:/g, '')}`;
  const plot: PlotArea = {
    width: Math.max(10, width - margin.left - margin.right),
    height: Math.max(10, height - margin.top - margin.bottom),
    clip: `url(#${clipId})`,
  };
  const hovered = pointerX !== null && hover && !emptyMessage ? hover(pointerX, plot) : null;
  const svgRef = useRef<SVGSVGElement>(null);
  const [exportProblem, setExportProblem] = useState('');

  const save = async (format: 'svg' | 'png') => {
    const svg = svgRef.current;
    if (!svg) return;
    const fileName = exportFileName(title, 'chart', format);
    try {
      const image = chartToSvg(svg, title, legend);
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
      <div className="chart-body" ref={containerRef} style={{ height }}>
        {width > 0 && (
          <svg ref={svgRef} width={width} height={height} role="img" aria-label={`${title}: ${description}`}>
            <defs>
              <clipPath id={clipId}>
                <rect width={plot.width} height={plot.height} />
              </clipPath>
            </defs>
            <g transform={`translate(${margin.left},${margin.top})`}>
              {children(plot)}
              {hovered && <line className="hover-line" x1={hovered.x} x2={hovered.x} y1={0} y2={plot.height} />}
              {hover && (
                <rect
                  className="hover-target"
                  width={plot.width}
                  height={plot.height}
                  onPointerMove={(event) => setPointerX(event.clientX - event.currentTarget.getBoundingClientRect().left)}
                  onPointerLeave={() => setPointerX(null)}
                />
              )}
            </g>
          </svg>
        )}
        {emptyMessage && <p className="chart-empty">{emptyMessage}</p>}
        {hovered && (
          <div
            className="tooltip"
            role="status"
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
