// A chart as a standalone image: the on-screen <svg> with its computed
// styles written inline (the file has no stylesheet), the data lines the
// page paints on a canvas put back in as paths, the chart's title and legend
// drawn above the plot, on a white background. PNG draws that SVG onto a
// canvas.

import type { LegendEntry } from '../charts/chartActions';
import { markerPath } from '../charts/markers';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Presentation properties the charts' stylesheet sets; copied onto each element where they differ from its parent. */
const INHERITED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linejoin',
  'stroke-linecap',
  'paint-order',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'dominant-baseline',
  'visibility',
] as const;
/** Not inherited: copied wherever they are not the initial value. */
const OWN: Record<string, string> = { opacity: '1', 'alignment-baseline': 'auto', 'baseline-shift': '0px' };

/** Interaction-only parts of a chart: not drawn in the file. */
const INTERACTIVE = '.hover-target, .hover-line';

const PAD_PX = 8;
const SWATCH_PX = 22;

export interface ChartImage {
  svg: string;
  width: number;
  height: number;
}

function inlineStyles(source: Element, copy: Element, parentStyle: CSSStyleDeclaration | null): void {
  const style = getComputedStyle(source);
  const declarations: string[] = [];
  for (const property of INHERITED) {
    const value = style.getPropertyValue(property);
    if (value && (!parentStyle || parentStyle.getPropertyValue(property) !== value)) declarations.push(`${property}:${value}`);
  }
  for (const [property, initial] of Object.entries(OWN)) {
    const value = style.getPropertyValue(property);
    if (value && value !== initial) declarations.push(`${property}:${value}`);
  }
  copy.removeAttribute('class');
  if (declarations.length) copy.setAttribute('style', declarations.join(';'));
  else copy.removeAttribute('style');
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i], copy.children[i], style);
}

/** Give the copy's ids plain names (React's generated ids are not valid XML names) and follow every `url(#…)`. */
function renameIds(root: Element): void {
  const names = new Map<string, string>();
  root.querySelectorAll('[id]').forEach((element, i) => {
    names.set(element.id, `chart-${i}`);
    element.id = `chart-${i}`;
  });
  if (!names.size) return;
  for (const element of [root, ...root.querySelectorAll('*')]) {
    for (const attribute of [...element.attributes]) {
      if (!attribute.value.includes('url(#')) continue;
      element.setAttribute(
        attribute.name,
        attribute.value.replace(/url\(#([^)]+)\)/g, (whole, id: string) => (names.has(id) ? `url(#${names.get(id)})` : whole)),
      );
    }
  }
}

let measureContext: CanvasRenderingContext2D | null = null;

function textWidth(text: string, font: string): number {
  measureContext ??= document.createElement('canvas').getContext('2d');
  if (!measureContext) return text.length * 7.5;
  measureContext.font = font;
  return measureContext.measureText(text).width;
}

/** `text` in lines no wider than `maxWidth` (a single word longer than that gets a line of its own). */
function wrapWords(text: string, font: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, font) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line || !lines.length) lines.push(line);
  return lines;
}

function svgElement<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * The chart `svg` (as drawn now) with `title` and `legend` above it, as SVG
 * text. `series`: the attributes of the data lines' paths, which go under
 * everything else in the plot (where the page's canvas is), clipped to it.
 */
export function chartToSvg(
  svg: SVGSVGElement,
  title: string,
  legend: readonly LegendEntry[],
  series: readonly Record<string, string | number>[] = [],
): ChartImage {
  const plotWidth = svg.width.baseVal.value || svg.clientWidth;
  const plotHeight = svg.height.baseVal.value || svg.clientHeight;
  const rootStyle = getComputedStyle(svg);
  const fontFamily = rootStyle.fontFamily;
  // The header is HTML on the page: take its colours and sizes from there.
  const figure = svg.closest('figure');
  const titleStyle = getComputedStyle(figure?.querySelector('.chart-title') ?? figure ?? svg);
  const legendStyle = getComputedStyle(figure?.querySelector('.legend') ?? figure ?? svg);
  const textColor = titleStyle.color;
  const mutedColor = legendStyle.color;
  const titlePx = parseFloat(titleStyle.fontSize) || 15;
  const legendPx = parseFloat(legendStyle.fontSize) || 12;
  const titleLinePx = Math.round(titlePx * 1.4);
  const legendLinePx = Math.round(legendPx * 1.6);

  // The plot: a styled copy without the hover machinery.
  const plot = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, plot, null);
  plot.querySelectorAll(INTERACTIVE).forEach((element) => element.remove());
  const plotArea = plot.querySelector('[data-plot]');
  if (plotArea && series.length) {
    const clip = plot.querySelector('clipPath');
    const lines = svgElement('g', clip ? { 'clip-path': `url(#${clip.id})` } : {});
    for (const attributes of series) lines.appendChild(svgElement('path', attributes));
    plotArea.insertBefore(lines, plotArea.firstChild);
  }
  renameIds(plot);

  // Labels may reach past the plot's box (the page lets them overflow): widen the picture to hold them.
  let box = { x: 0, y: 0, width: plotWidth, height: plotHeight };
  try {
    const drawn = svg.getBBox();
    if (drawn.width > 0 && drawn.height > 0) {
      const x = Math.floor(Math.min(0, drawn.x));
      const y = Math.floor(Math.min(0, drawn.y));
      box = { x, y, width: Math.ceil(Math.max(plotWidth, drawn.x + drawn.width)) - x, height: Math.ceil(Math.max(plotHeight, drawn.y + drawn.height)) - y };
    }
  } catch {
    // Not rendered: keep the plot's own size.
  }

  // The header: the title (wrapped), then the legend entries, wrapping like the page does.
  const width = box.width + 2 * PAD_PX;
  const header = svgElement('g', { 'font-family': fontFamily });
  const titleFont = `700 ${titlePx}px ${fontFamily}`;
  const legendFont = `${legendPx}px ${fontFamily}`;
  const titleLines = wrapWords(title, titleFont, width - 2 * PAD_PX);
  let baseline = PAD_PX + titlePx;
  titleLines.forEach((line, i) => {
    if (i > 0) baseline += titleLinePx;
    header.appendChild(svgElement('text', { x: PAD_PX, y: baseline, 'font-size': titlePx, 'font-weight': 700, fill: textColor }, line));
  });
  let x = PAD_PX + textWidth(titleLines[titleLines.length - 1] ?? '', titleFont) + 12;
  for (const entry of legend) {
    const entryWidth = SWATCH_PX + 4 + textWidth(entry.label, legendFont);
    if (x + entryWidth > width - PAD_PX && x > PAD_PX) {
      baseline += legendLinePx;
      x = PAD_PX;
    }
    header.appendChild(
      entry.marker
        ? svgElement('path', {
            d: markerPath(entry.marker, 4.5),
            transform: `translate(${x + SWATCH_PX / 2},${baseline - 4})`,
            fill: entry.marker === 'dot' ? entry.color : 'white',
            stroke: entry.marker === 'dot' ? 'white' : entry.color,
            'stroke-width': 2,
          })
        : svgElement('line', {
            x1: x + 1,
            x2: x + SWATCH_PX - 1,
            y1: baseline - 4,
            y2: baseline - 4,
            stroke: entry.color,
            'stroke-width': 3,
            ...(entry.dashed ? { 'stroke-dasharray': '5 3' } : {}),
          }),
    );
    header.appendChild(svgElement('text', { x: x + SWATCH_PX + 4, y: baseline, 'font-size': legendPx, fill: mutedColor }, entry.label));
    x += entryWidth + 12;
  }
  const headerHeight = baseline + 10;
  const height = headerHeight + box.height + PAD_PX;

  const image = svgElement('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
  const body = svgElement('g', { transform: `translate(${PAD_PX - box.x},${headerHeight - box.y})` });
  const label = plot.getAttribute('aria-label');
  if (label) image.appendChild(svgElement('title', {}, label));
  image.appendChild(svgElement('rect', { width, height, fill: '#ffffff' }));
  image.appendChild(header);
  while (plot.firstChild) body.appendChild(plot.firstChild);
  if (plot.getAttribute('style')) body.setAttribute('style', plot.getAttribute('style') ?? '');
  image.appendChild(body);

  const text = new XMLSerializer().serializeToString(image);
  return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`, width, height };
}

/** Draw the SVG on a canvas `scale` times its size and encode it as PNG. */
export async function svgToPng(image: ChartImage, scale = 2): Promise<Blob> {
  const picture = new Image();
  picture.decoding = 'async';
  const loaded = new Promise<void>((resolve, reject) => {
    picture.onload = () => resolve();
    picture.onerror = () => reject(new Error('the chart could not be drawn as an image'));
  });
  picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(image.svg)}`;
  await loaded;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw on a canvas');
  context.drawImage(picture, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be encoded'))), 'image/png'));
}
