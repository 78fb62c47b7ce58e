import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { paintSeries, seriesPathAttributes, type SeriesLine } from './seriesCanvas';

/** A 2D context that records the calls the painter makes. */
function recordingCanvas() {
  const calls: string[] = [];
  const context = {
    setTransform: (...args: number[]) => calls.push(`setTransform ${args.join(' ')}`),
    clearRect: (...args: number[]) => calls.push(`clearRect ${args.join(' ')}`),
    beginPath: () => calls.push('beginPath'),
    moveTo: (x: number, y: number) => calls.push(`M ${x} ${y}`),
    lineTo: (x: number, y: number) => calls.push(`L ${x} ${y}`),
    stroke: () => calls.push('stroke'),
    setLineDash: (dash: number[]) => calls.push(`dash ${dash.join(' ')}`),
  } as Record<string, unknown>;
  const canvas = { getContext: () => context } as unknown as HTMLCanvasElement;
  return { canvas, context, calls };
}

const line = (overrides: Partial<SeriesLine> = {}): SeriesLine => ({
  key: 'queue',
  x: Float64Array.from([0, 1, 2, 3, 4]),
  y: Float64Array.from([0, 10, Number.NaN, 30, 40]),
  // 0..4 s over 0..400 px; 0..100 packets over 100..0 px.
  xScale: scaleLinear().domain([0, 4]).range([0, 400]),
  yScale: scaleLinear().domain([0, 100]).range([100, 0]),
  color: '#0072B2',
  width: 1.5,
  ...overrides,
});

describe('paintSeries', () => {
  it('clears at the pixel ratio and strokes each line in plot coordinates, leaving gaps at NaN', () => {
    const { canvas, context, calls } = recordingCanvas();
    paintSeries(canvas, 400, 100, 2, [line()]);
    expect(calls).toEqual([
      'setTransform 2 0 0 2 0 0',
      'clearRect 0 0 400 100',
      'dash ',
      'beginPath',
      'M 0 100',
      'L 100 90',
      'M 300 70',
      'L 400 60',
      'stroke',
      'dash ',
    ]);
    expect(context.strokeStyle).toBe('#0072B2');
    expect(context.lineWidth).toBe(1.5);
  });

  it('strokes a long line in runs of at most 32 segments that together draw every segment, each run starting one segment back', () => {
    const { canvas, calls } = recordingCanvas();
    const n = 70;
    const x = Float64Array.from({ length: n }, (_, i) => i);
    paintSeries(canvas, 400, 100, 1, [line({ x, y: x.map((i) => i % 2), xScale: scaleLinear(), yScale: scaleLinear() })]);
    const paths = calls
      .join('|')
      .split('beginPath|')
      .slice(1)
      .map((path) => path.split('|').filter((call) => call.startsWith('M') || call.startsWith('L')));
    expect(paths.map((path) => path.length - 1)).toEqual([32, 32, 7]);
    // Each run moves to where the previous run's last segment started, so the joins come out as in one path.
    expect(paths[1][0]).toBe(paths[0][31].replace('L', 'M'));
    expect(paths[2][0]).toBe(paths[1][31].replace('L', 'M'));
    const segments = new Set(paths.flatMap((path) => path.slice(1).map((to, k) => `${path[k].slice(2)}>${to.slice(2)}`)));
    expect(segments.size).toBe(n - 1);
  });

  it('strokes a translucent line as one path where no layer can be made (outside a browser)', () => {
    const { canvas, calls, context } = recordingCanvas();
    const x = Float64Array.from({ length: 70 }, (_, i) => i);
    paintSeries(canvas, 400, 100, 1, [line({ x, y: x, opacity: 0.5 })]);
    expect(calls.filter((call) => call === 'stroke')).toHaveLength(1);
    expect(context.globalAlpha).toBe(1);
  });

  it('draws nothing for an empty line but still clears the last frame', () => {
    const { canvas, calls } = recordingCanvas();
    paintSeries(canvas, 400, 100, 1, [line({ x: new Float64Array(0), y: new Float64Array(0) })]);
    expect(calls).toEqual(['setTransform 1 0 0 1 0 0', 'clearRect 0 0 400 100', 'dash ']);
  });
});

describe('seriesPathAttributes', () => {
  it('gives the same line as an SVG path, with its gaps and style', () => {
    const attributes = seriesPathAttributes(line({ opacity: 0.75, dash: [5, 3] }));
    expect(attributes.d).toBe('M0,100L100,90M300,70L400,60');
    expect(attributes).toMatchObject({ fill: 'none', stroke: '#0072B2', 'stroke-width': 1.5, 'stroke-opacity': 0.75, 'stroke-dasharray': '5 3' });
  });
});
