// Which stored rows a time window shows, and how wide its time bins are:
// shared by the page's charts and compare mode.

import type { SeriesStore } from '../engine/seriesStore';
import { niceBinWidth } from './bins';
import type { TimeWindow } from './timeAxis';

/** Bins across the window for the binned charts. */
const BINS_PER_WINDOW = 150;

export interface VisibleRows {
  from: number;
  to: number;
}

export function visibleRows(store: SeriesStore, window: TimeWindow): VisibleRows {
  return { from: store.indexAtOrAfter(window.startS), to: store.indexAtOrAfter(window.endS + 1e-9) };
}

export function binWidth(window: TimeWindow, sampleIntervalS: number): number {
  return niceBinWidth(window.endS - window.startS, BINS_PER_WINDOW, sampleIntervalS);
}
