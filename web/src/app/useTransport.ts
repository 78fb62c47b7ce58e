// The transport drives the run on screen and, in compare mode, its partner
// too (the worker keeps them in lockstep); Space plays and pauses.

import { useEffect, useMemo } from 'react';
import type { SimulationView } from './useSimulation';

/** Simulated seconds one press of Step advances. */
export const STEP_S = 0.1;

export interface Transport {
  play: () => void;
  pause: () => void;
  step: () => void;
  reset: () => void;
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(target.tagName));
}

export function useTransport(sim: SimulationView, partner: SimulationView, comparing: boolean): Transport {
  // The hooks' actions are stable callbacks, so this changes only when compare mode does.
  const { play, pause, step, reset } = sim;
  const { play: playPartner, pause: pausePartner, step: stepPartner, reset: resetPartner } = partner;
  const transport = useMemo(
    () => ({
      play: () => {
        play();
        if (comparing) playPartner();
      },
      pause: () => {
        pause();
        if (comparing) pausePartner();
      },
      step: () => {
        step(STEP_S);
        if (comparing) stepPartner(STEP_S);
      },
      reset: () => {
        reset();
        if (comparing) resetPartner();
      },
    }),
    [play, pause, step, reset, playPartner, pausePartner, stepPartner, resetPartner, comparing],
  );

  const playing = sim.snapshot?.playing ?? false;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === ' ' && !isTyping(event.target) && !event.repeat) {
        event.preventDefault();
        if (playing) transport.pause();
        else transport.play();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [playing, transport]);

  return transport;
}
