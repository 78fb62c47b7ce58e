// The reproduction on screen: the one picked in the gallery or named by a
// link (`&repro=<id>`), shown only while its own run is loaded, so its
// paper values never sit beside another experiment.

import { useCallback, useState } from 'react';
import type { EngineClient } from '../engine/client';
import { messageOf } from '../engine/refusal';
import { withoutQueue } from '../scenario/model';
import type { Scenario } from '../scenario/types';
import { REPRODUCTIONS, resolveReproduction, type Reproduction } from './reproductions';

export type LinkedReproduction = { kind: 'none' } | { kind: 'found'; reproduction: Reproduction } | { kind: 'refused'; notice: string };

/** The reproduction a link names, if it is one of ours and the link runs its experiment (otherwise its paper values would not apply). */
export async function linkedReproduction(
  engine: Pick<EngineClient, 'reproductionScenario'>,
  id: string | null,
  scenario: Scenario,
): Promise<LinkedReproduction> {
  if (id === null) return { kind: 'none' };
  const source = REPRODUCTIONS.find((r) => r.id === id);
  if (!source) return { kind: 'refused', notice: `This link names the reproduction “${id}”, which is not one of the reproductions here.` };
  let reproduction: Reproduction;
  try {
    reproduction = await resolveReproduction(engine, source);
  } catch (error) {
    return { kind: 'refused', notice: `The reproduction “${id}” could not be read: ${messageOf(error)}` };
  }
  // Parameters may differ: links carry every parameter's value, and a run's sliders may have moved, as they may on the page.
  if (reproduction.scenario.queue.scheme !== scenario.queue.scheme || withoutQueue(reproduction.scenario) !== withoutQueue(scenario)) {
    return {
      kind: 'refused',
      notice: `The experiment in this link is not the one of the reproduction “${id}”, so the paper's values are not shown beside it.`,
    };
  }
  return { kind: 'found', reproduction };
}

export interface ReproductionOnScreen {
  /** The reproduction whose run is load `loadId`, if any: any other load leaves it. */
  shownFor: (loadId: number | undefined) => Reproduction | null;
  /** Its run started as load `loadId`. */
  opened: (reproduction: Reproduction, loadId: number) => void;
}

export function useReproductionOnScreen(): ReproductionOnScreen {
  const [open, setOpen] = useState<{ reproduction: Reproduction; loadId: number } | null>(null);
  const opened = useCallback((reproduction: Reproduction, loadId: number) => setOpen({ reproduction, loadId }), []);
  return { shownFor: (loadId) => (open !== null && open.loadId === loadId ? open.reproduction : null), opened };
}
