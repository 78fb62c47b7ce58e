// The actions slot of every chart frame (download buttons, for the page):
// charts draw, and whoever hosts them decides what can be done with a chart.
// A context rather than a prop, so that each chart component need not pass
// it through.

import { createContext, type ReactNode } from 'react';
import type { MarkerShape } from './markers';

export interface LegendEntry {
  label: string;
  color: string;
  dashed?: boolean;
  /** A point marker instead of a line swatch. */
  marker?: MarkerShape;
}

/** What a chart offers to its actions: read at the moment an action runs. */
export interface ChartHandle {
  title: string;
  testId: string;
  legend: readonly LegendEntry[];
  /** The plot's SVG as drawn now. */
  svg: () => SVGSVGElement | null;
  /** The attributes of the data lines painted on the canvas, as SVG paths. */
  seriesPaths: () => Record<string, string | number>[];
}

export type ChartActionsRenderer = (chart: ChartHandle) => ReactNode;

/** No actions unless a host provides them. */
export const ChartActions = createContext<ChartActionsRenderer | null>(null);
