// How large the charts draw their text and lines. On a projector (present
// mode) a chart is laid out as on a desktop screen of 1/`text` its width and
// drawn `text` times as large, so axis labels, notes and threshold labels
// grow with the page's text and every layout rule (tick spacing, margins,
// label placement) still holds; the chart is also `height` times as tall.

import { createContext } from 'react';

export interface ChartScale {
  /** Drawing scale: text, margins and lines (1 on a desktop screen). */
  text: number;
  /** How much taller than its nominal height a chart is. */
  height: number;
}

export const DESKTOP_CHARTS: ChartScale = { text: 1, height: 1 };
/** Present mode: chart text 1.44 × the desktop's (12.5 px ticks become 18 px), as the page's text grows 1.47 ×. */
export const PRESENT_CHARTS: ChartScale = { text: 1.44, height: 1.2 };

export const ChartScaleContext = createContext<ChartScale>(DESKTOP_CHARTS);
