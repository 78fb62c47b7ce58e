// Dashed horizontal lines at each flow group's max-min fair share (theory)
// on the goodput-over-time chart: per flow when the chart draws one line per
// flow, the group's total when it draws group totals.

import type { ScaleLinear } from 'd3';

export interface FairShareLevel {
  label: string;
  color: string;
  bps: number;
}

export function FairShareLines({ levels, width, y }: { levels: readonly FairShareLevel[]; width: number; y: ScaleLinear<number, number> }) {
  return (
    <g className="fair-share-lines" data-testid="fair-share-lines">
      {levels.map((level) => (
        <g key={level.label} transform={`translate(0,${y(level.bps / 1e6)})`}>
          {/* A white halo keeps the level readable where it crosses the measured lines. */}
          <line x2={width} stroke="white" strokeWidth={5} strokeOpacity={0.85} />
          <line x2={width} stroke={level.color} strokeWidth={2.5} strokeDasharray="9 5" data-bps={level.bps}>
            <title>{`${level.label}: ${(level.bps / 1e6).toFixed(3)} Mb/s`}</title>
          </line>
        </g>
      ))}
    </g>
  );
}
