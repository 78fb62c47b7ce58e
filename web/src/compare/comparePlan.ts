// Compare mode's plan for the experiment on screen: the partner runs the same
// scenario with only the scheme replaced (its catalogue defaults, the same
// buffer), from the same t = 0, in lockstep with the first run.

import type { CatalogueEntry, Scenario } from '../scenario/types';

export interface ComparePlan {
  /** The partner's catalogue entry, when compare mode can run. */
  partner: CatalogueEntry | undefined;
  /** The partner's scenario text, or null when not comparing. */
  partnerJson: string | null;
  /** Runs of one group advance together; undefined when not comparing. */
  lockstepGroup: string | undefined;
  /** A partner was asked for but the catalogue is not here yet: the first run waits, so both start together. */
  waiting: boolean;
  /** Why the asked-for partner cannot run (unknown, or the scheme itself), for a notice. */
  refused: string | null;
}

export function comparePlan(
  compare: string | null,
  scenario: Scenario,
  loadId: number | undefined,
  catalogue: readonly CatalogueEntry[] | undefined,
): ComparePlan {
  const partner = compare !== null && compare !== scenario.queue.scheme ? catalogue?.find((s) => s.id === compare) : undefined;
  const comparing = loadId !== undefined && partner !== undefined;
  let refused: string | null = null;
  if (compare !== null && catalogue && !partner) {
    const known = catalogue.find((s) => s.id === compare);
    refused = known
      ? `This link compares ${known.name} with itself; showing it without compare mode.`
      : `This link compares with “${compare}”, which is not a queue scheme here; showing the experiment without compare mode.`;
  }
  return {
    partner: comparing ? partner : undefined,
    partnerJson: comparing ? JSON.stringify({ ...scenario, queue: { scheme: partner.id } }) : null,
    lockstepGroup: comparing ? `compare-${loadId}` : undefined,
    waiting: compare !== null && catalogue === undefined,
    refused,
  };
}
