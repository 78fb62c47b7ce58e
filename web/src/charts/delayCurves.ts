// A snapshot's delay CDFs as the curves the CDF and box charts draw.

import type { CdfCurve } from './DelayCdfChart';
import { groupColor } from './palette';
import type { DelayDistributions } from '../scenario/types';

/** Each group's queueing-delay CDF in its colour, and the RTT CDF of each TCP or ping group dashed beside it. */
export function delayCurves(delays: DelayDistributions | undefined): CdfCurve[] {
  if (!delays) return [];
  return delays.groups.flatMap((g) => {
    const color = groupColor(g.group);
    const curves: CdfCurve[] = [{ label: `${g.label} · queueing delay`, color, ms: g.sojourn.ms, fraction: g.sojourn.fraction }];
    if (g.rtt && g.rtt.samples > 0) curves.push({ label: `${g.label} · RTT`, color, dashed: true, ms: g.rtt.ms, fraction: g.rtt.fraction });
    return curves;
  });
}

/** Compare mode: per run, the first hop's queueing delay and each ping group's RTT, in the run's line style. */
export function compareDelayCurves(
  runName: string,
  delays: DelayDistributions | undefined,
  colors: { queue: string; ping: string },
  dashed: boolean,
): CdfCurve[] {
  if (!delays) return [];
  const hop = delays.hops[0];
  const curves: CdfCurve[] = hop
    ? [{ label: `${runName} · queueing delay`, color: colors.queue, dashed, ms: hop.sojourn.ms, fraction: hop.sojourn.fraction }]
    : [];
  for (const g of delays.groups) {
    if (g.kind === 'ping' && g.rtt && g.rtt.samples > 0)
      curves.push({ label: `${runName} · ${g.label} RTT`, color: colors.ping, dashed, ms: g.rtt.ms, fraction: g.rtt.fraction });
  }
  return curves;
}
