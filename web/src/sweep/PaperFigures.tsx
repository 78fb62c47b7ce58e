// The papers' figures as sweeps: a card per figure of the reproduction files.
// Run expands the figure into runs in the engine (the same function as
// `aqm-sim reproduce --figure`), runs them on the sweep pool with a progress
// bar and draws each scheme's mean with its shaded 95 % band, and the values
// the paper's text states as diamond marks, their sentence on hover or focus
// and in the caption, then the verdict against the marks and, beside a
// divergence, the ablation series (dashed) that test its suspected cause.
// Exports as SVG, PNG or CSV. A link may name a figure (`&figure=<id>`):
// its card is scrolled to and marked, and an id that is no figure says so.

import { useEffect, useMemo, useRef, useState } from 'react';
import type { LegendEntry } from '../charts/chartActions';
import type { FigureResult, Mark } from '../engine/pkg/aqm_core';
import { chartToSvg, svgToPng } from '../export/chartImage';
import { exportFileName } from '../export/documents';
import { downloadBlob, downloadText } from '../export/download';
import { SweepPool } from './pool';
import './paperFigures.css';

/** One figure of a reproduction file, with what the engine needs to run it. */
export interface PaperFigureSpec {
  id: string;
  title: string;
  source: string;
  paper: string;
  marks: Mark[];
  marksNote: string;
  reproductionJson: string;
  /** The reproduction's scenario as its file names it. */
  scenarioJson: string;
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b'];
const W = 640;
const H = 340;
const M = { left: 70, right: 16, top: 12, bottom: 46 };

interface PaperFiguresProps {
  figures: readonly PaperFigureSpec[];
  /** The figure a link names (`&figure=<id>`), if any. */
  linked: string | null;
  /** Put a figure's id in the address, so the link opens its card. */
  onLink: (id: string) => void;
}

export function PaperFigures({ figures, linked, onLink }: PaperFiguresProps) {
  const pool = useMemo(() => new SweepPool(), []);
  useEffect(() => () => pool.dispose(), [pool]);
  const unknown = linked !== null && !figures.some((f) => f.id === linked);
  return (
    <section className="gallery paper-figures" aria-label="The papers' figures" data-testid="paper-figures">
      <h2>The papers' figures</h2>
      <p className="reproduce-intro">
        Each figure reruns a paper's sweep with the parameters the paper gives every scheme, on several seeds: the lab's mean with its shaded 95% band, and as
        diamonds the values the paper's text states (our copies have no figure images).
      </p>
      {unknown && (
        <p role="alert" data-testid="figure-link-notice">
          This link's <code>figure</code> field names “{linked}”, which is not one of the papers' figures here.
        </p>
      )}
      <div className="paper-figure-list">
        {figures.map((f) => (
          <FigureCard key={f.id} spec={f} pool={pool} linked={f.id === linked} onLink={onLink} />
        ))}
      </div>
    </section>
  );
}

type State = { kind: 'idle' } | { kind: 'running'; done: number; total: number } | { kind: 'done'; result: FigureResult } | { kind: 'failed'; message: string };

interface FigureCardProps {
  spec: PaperFigureSpec;
  pool: SweepPool;
  linked: boolean;
  onLink: (id: string) => void;
}

function FigureCard({ spec, pool, linked, onLink }: FigureCardProps) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const cancel = useRef<() => void>(() => {});
  const card = useRef<HTMLElement>(null);
  useEffect(() => () => cancel.current(), []);
  useEffect(() => {
    if (linked) card.current?.scrollIntoView({ block: 'start' });
  }, [linked]);
  const run = () => {
    const task = pool.runFigure({ reproductionJson: spec.reproductionJson, scenarioJson: spec.scenarioJson, figureId: spec.id }, (done, total) =>
      setState({ kind: 'running', done, total }),
    );
    cancel.current = task.cancel;
    setState({ kind: 'running', done: 0, total: 0 });
    task.finished.then(
      (result) => setState({ kind: 'done', result }),
      (error: unknown) => setState({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  };
  return (
    <article
      ref={card}
      className={linked ? 'paper-figure paper-figure-linked' : 'paper-figure'}
      data-testid={`figure-${spec.id}`}
      data-linked={linked || undefined}
      aria-label={spec.title}
      aria-current={linked || undefined}
    >
      <h3>{spec.title}</h3>
      <p className="preset-meta">
        {spec.paper}, {spec.source} · <code>{spec.id}</code>{' '}
        <button type="button" className="link-button" onClick={() => onLink(spec.id)} data-testid={`figure-link-${spec.id}`}>
          Link to this figure
        </button>
      </p>
      {state.kind !== 'running' && (
        <button type="button" onClick={run} data-testid={`figure-run-${spec.id}`}>
          {state.kind === 'done' ? 'Run again' : 'Run'}
        </button>
      )}
      {state.kind === 'running' && (
        <p>
          {state.done} of {state.total || '…'} runs done <progress value={state.done} max={state.total || 1} data-testid="figure-progress" />
        </p>
      )}
      {state.kind === 'failed' && <p role="alert">{state.message}</p>}
      {state.kind === 'done' && <FigureChart result={state.result} />}
      {state.kind === 'done' && <FigureVerdict result={state.result} />}
      <MarksCaption marks={spec.marks} note={spec.marksNote} />
    </article>
  );
}

/** The verdict against the paper's marks and, where it is not reproduced, the suspected cause and the ablation series that test it. */
function FigureVerdict({ result }: { result: FigureResult }) {
  if (result.verdict === null)
    return (
      <p className="reproduce-note" data-testid="figure-verdict">
        No verdict: the paper's text states no values for this figure.
      </p>
    );
  return (
    <div className="paper-figure-verdict" data-testid="figure-verdict" data-verdict={result.verdict}>
      <p>
        Against the paper's marks: <strong>{result.verdict}</strong>
        {result.verdict !== result.expected && ` (the file pins ${result.expected ?? 'none'})`}
      </p>
      {result.explanation && <p className="reproduce-note">{result.explanation}</p>}
      {result.ablations.length > 0 && (
        <ul data-testid="figure-ablations" aria-label="What changes the result">
          {result.ablations.map((a) => (
            <li key={a.series}>
              <strong>{a.series}</strong> (dashed): {a.change}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MarksCaption({ marks, note }: { marks: readonly Mark[]; note: string }) {
  return (
    <div className="paper-figure-caption" data-testid="figure-caption">
      {marks.length > 0 && (
        <ul>
          {marks.map((m, k) => (
            <li key={k}>
              ◆ {m.series}
              {m.x === undefined || m.x === null ? '' : ` at ${formatTick(m.x)}`}: {formatTick(m.y)}: “{m.quote}”{m.derived && <> ({m.derived})</>}
            </li>
          ))}
        </ul>
      )}
      <p className="reproduce-note">{note}</p>
    </div>
  );
}

/** Axis ticks and values: compact (1.2M, 350k) beyond ten thousand, four significant digits otherwise. */
function formatTick(v: number): string {
  if (Math.abs(v) >= 1e4) return new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 }).format(v);
  return String(Number(v.toPrecision(4)));
}

interface Scales {
  x(v: number): number;
  y(v: number): number;
  yTicks: number[];
}

function scales(result: FigureResult): Scales {
  const xs = result.x.values;
  const log = result.x.log ?? false;
  const tx = (v: number) => (log ? Math.log10(v) : v);
  const [x0, x1] = [Math.min(...xs.map(tx)), Math.max(...xs.map(tx))];
  const ys = [
    ...result.points.flatMap((p) => [p.ci_lo, p.ci_hi, p.mean].filter((v): v is number => v !== null && v !== undefined)),
    ...result.marks.map((m) => m.y),
  ];
  const y0 = Math.min(0, ...ys);
  const y1 = Math.max(...ys) * 1.05 || 1;
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const step = (y1 - y0) / 5;
  return {
    x: (v) => M.left + (x1 === x0 ? plotW / 2 : ((tx(v) - x0) / (x1 - x0)) * plotW),
    y: (v) => M.top + plotH - ((v - y0) / (y1 - y0)) * plotH,
    yTicks: Array.from({ length: 6 }, (_, k) => y0 + k * step),
  };
}

function FigureChart({ result }: { result: FigureResult }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [focused, setFocused] = useState<Mark | null>(null);
  const s = scales(result);
  const color = (series: string) => COLORS[result.series.indexOf(series) % COLORS.length];
  const legend: LegendEntry[] = result.series.map((label) => ({ label, color: color(label) }));
  const title = `${result.title} (${result.source})`;
  const saveImage = async (format: 'svg' | 'png') => {
    if (!svgRef.current) return;
    const image = chartToSvg(svgRef.current, title, [...legend, { label: "paper's stated value", color: '#000', marker: 'diamond' }]);
    downloadBlob(format === 'svg' ? new Blob([image.svg], { type: 'image/svg+xml' }) : await svgToPng(image), exportFileName(result.id, 'figure', format));
  };
  return (
    <figure className="paper-figure-chart">
      <figcaption className="chart-title">{title}</figcaption>
      <ul className="legend">
        {legend.map((e) => (
          <li key={e.label} style={{ color: e.color }}>
            {result.ablations.some((a) => a.series === e.label) ? '╍' : '━'} <span style={{ color: 'var(--text, inherit)' }}>{e.label}</span>
          </li>
        ))}
        <li>◆ paper's stated value</li>
      </ul>
      <svg ref={svgRef} viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={title} data-testid="figure-svg">
        <Axes result={result} s={s} />
        {result.series.map((series) => (
          <Curve key={series} result={result} series={series} s={s} color={color(series)} dashed={result.ablations.some((a) => a.series === series)} />
        ))}
        {result.marks.map((m, k) => (
          <MarkSymbol key={k} mark={m} s={s} color={color(m.series)} onFocus={setFocused} />
        ))}
      </svg>
      {/* Always there and kept after blur, so a sentence appearing or going does not move the buttons below. */}
      <p className="paper-figure-quote" role="status" data-testid="figure-mark-quote">
        {focused ? `${focused.series}: “${focused.quote}”` : 'Hover over or focus a diamond for the sentence of the paper it stands for.'}
      </p>
      <span className="chart-export">
        <button type="button" onClick={() => void saveImage('svg')} data-testid="figure-svg-export">
          SVG
        </button>
        <button type="button" onClick={() => void saveImage('png')} data-testid="figure-png-export">
          PNG
        </button>
        <button
          type="button"
          onClick={() => downloadText(figureCsv(result), exportFileName(result.id, 'figure', 'csv'), 'text/csv')}
          data-testid="figure-csv-export"
        >
          CSV
        </button>
      </span>
    </figure>
  );
}

function Axes({ result, s }: { result: FigureResult; s: Scales }) {
  const bottom = H - M.bottom;
  return (
    <g className="axis" fontSize={11} fill="currentColor">
      <line x1={M.left} x2={W - M.right} y1={bottom} y2={bottom} stroke="currentColor" />
      <line x1={M.left} x2={M.left} y1={M.top} y2={bottom} stroke="currentColor" />
      {result.x.values.map((v) => (
        <text key={v} x={s.x(v)} y={bottom + 16} textAnchor="middle">
          {formatTick(v)}
        </text>
      ))}
      {s.yTicks.map((v) => (
        <text key={v} x={M.left - 6} y={s.y(v) + 4} textAnchor="end">
          {formatTick(v)}
        </text>
      ))}
      <text x={(M.left + W - M.right) / 2} y={H - 8} textAnchor="middle">
        {result.x.label}
      </text>
      <text transform={`translate(14 ${(M.top + bottom) / 2}) rotate(-90)`} textAnchor="middle">
        {result.y.label}
      </text>
    </g>
  );
}

function Curve({ result, series, s, color, dashed }: { result: FigureResult; series: string; s: Scales; color: string; dashed: boolean }) {
  const points = result.points.filter((p) => p.series === series && p.mean !== null && p.mean !== undefined);
  const line = points.map((p, k) => `${k ? 'L' : 'M'}${s.x(p.x)},${s.y(p.mean as number)}`).join('');
  const upper = points.map((p) => `${s.x(p.x)},${s.y(p.ci_hi ?? (p.mean as number))}`);
  const lower = points.map((p) => `${s.x(p.x)},${s.y(p.ci_lo ?? (p.mean as number))}`).reverse();
  return (
    <g data-testid={`figure-series-${series}`}>
      <polygon points={[...upper, ...lower].join(' ')} fill={color} fillOpacity={0.18} stroke="none" data-testid="figure-band" />
      <path d={line} fill="none" stroke={color} strokeWidth={2} strokeDasharray={dashed ? '6 4' : undefined} />
      {points.map((p) => (
        <circle key={p.x} cx={s.x(p.x)} cy={s.y(p.mean as number)} r={2.5} fill={color} />
      ))}
    </g>
  );
}

function MarkSymbol({ mark, s, color, onFocus }: { mark: Mark; s: Scales; color: string; onFocus: (m: Mark) => void }) {
  const y = s.y(mark.y);
  const hasX = mark.x !== undefined && mark.x !== null;
  const x = hasX ? s.x(mark.x as number) : M.left + 8;
  const label = `${mark.series}, paper: ${formatTick(mark.y)}. “${mark.quote}”`;
  return (
    <g tabIndex={0} role="img" aria-label={label} onFocus={() => onFocus(mark)} onMouseEnter={() => onFocus(mark)} data-testid="figure-mark">
      <title>{label}</title>
      {!hasX && <line x1={M.left} x2={W - M.right} y1={y} y2={y} stroke={color} strokeDasharray="6 4" strokeWidth={1.5} />}
      <path d={`M${x},${y - 7}L${x + 7},${y}L${x},${y + 7}L${x - 7},${y}Z`} fill="#fff" stroke={color} strokeWidth={2.5} />
    </g>
  );
}

/** The CLI's columns: `x,scheme,mean,ci_lo,ci_hi,paper`, an empty field where there is no value. */
export function figureCsv(result: FigureResult): string {
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const quote = (t: string) => (/[",]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  const rows = result.points.map((p) => [p.x, quote(p.series), cell(p.mean), cell(p.ci_lo), cell(p.ci_hi), cell(p.paper)].join(','));
  return ['x,scheme,mean,ci_lo,ci_hi,paper', ...rows].join('\n') + '\n';
}
