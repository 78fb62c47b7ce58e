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
