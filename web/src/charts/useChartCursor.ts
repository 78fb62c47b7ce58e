// The hover cursor of a chart: where the pointer or the arrow keys put it,
// and what a screen reader is told about the values under it.

import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { CursorMove } from './timeAxis';

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

interface CursorOptions {
  /** False while the chart has nothing to point at (no width yet, or empty). */
  active: boolean;
  /** What lies under plot x, or null for nothing. */
  hover?: (plotX: number) => HoverInfo | null;
  /** Where the keyboard moves the cursor from `fromX` (null: no cursor yet). */
  step?: (fromX: number | null, move: CursorMove) => number | null;
  /** Screen pixels per plot unit (the chart's drawing scale). */
  scale: number;
}

export interface ChartCursor {
  /** What lies under the cursor now, if anything. */
  hovered: HoverInfo | null;
  /** The last keyboard reading, for a polite live region. */
  announcement: string;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onBlur: () => void;
  onPointerMove: (event: PointerEvent<SVGElement>) => void;
  onPointerDown: (event: PointerEvent<SVGElement>) => void;
  onPointerLeave: (event: PointerEvent<SVGElement>) => void;
}

export function useChartCursor({ active, hover, step, scale }: CursorOptions): ChartCursor {
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const hovered = cursor !== null && hover && active ? hover(cursor.x) : null;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!step || !hover || !active) return;
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
    const x = step(cursor?.x ?? null, moves[event.shiftKey ? 1 : 0]);
    if (x === null) return;
    setCursor({ x, source: 'keyboard' });
    const info = hover(x);
    setAnnouncement(info ? announce(info) : '');
  };

  return {
    hovered,
    announcement,
    onKeyDown,
    onBlur: () => {
      if (cursor?.source === 'keyboard') setCursor(null);
      setAnnouncement('');
    },
    onPointerMove: (event) => setCursor({ x: (event.clientX - event.currentTarget.getBoundingClientRect().left) / scale, source: 'pointer' }),
    // A tap shows the values under the finger, and they stay when it lifts (a touch pointer leaves as it lifts).
    onPointerDown: (event) => setCursor({ x: (event.clientX - event.currentTarget.getBoundingClientRect().left) / scale, source: 'pointer' }),
    onPointerLeave: (event) => {
      if (event.pointerType !== 'touch') setCursor((current) => (current?.source === 'pointer' ? null : current));
    },
  };
}
