// Okabe & Ito's colour-blind-safe palette. Yellow is last: it is hard to see
// as a thin line on white.

export const COLORS = {
  blue: '#0072B2',
  orange: '#E69F00',
  green: '#009E73',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  skyBlue: '#56B4E9',
  black: '#000000',
  yellow: '#F0E442',
} as const;

/** Colours of flow groups, in group order. */
export const GROUP_COLORS: readonly string[] = [
  COLORS.blue,
  COLORS.orange,
  COLORS.green,
  COLORS.vermillion,
  COLORS.purple,
  COLORS.skyBlue,
  COLORS.black,
  COLORS.yellow,
];

export function groupColor(group: number): string {
  return GROUP_COLORS[group % GROUP_COLORS.length];
}

/**
 * Colours of single flows, when a chart draws few enough to tell apart: the
 * palette above (yellow left out), then Tol's muted colours.
 */
export const FLOW_COLORS: readonly string[] = [...GROUP_COLORS.filter((c) => c !== COLORS.yellow), '#332288', '#882255', '#999933', '#44AA99', '#CC6677'];

/** A flow's own colour, by its index among the flows drawn one by one. */
export function flowColor(flow: number): string {
  return FLOW_COLORS[flow % FLOW_COLORS.length];
}
