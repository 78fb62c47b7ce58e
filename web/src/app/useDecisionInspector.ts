// The drop-and-mark inspector's state: the run's kept decisions, which one
// is selected while the run is paused, and the keyboard's `[` and `]`, which
// step to the previous and next decision.

import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CodelLawDecision } from '../charts/CodelLawChart';
import type { DecisionMark, DecisionMarksProps } from '../charts/DecisionMarks';
import type { PiePoint } from '../charts/PieStateChart';
import type { DecisionRecord, FieldSpec } from '../engine/client';
import type { DecisionSelection } from '../explain/DecisionPanel';
import { curvePoint } from '../explain/decisionText';
import { codelLawPoint, pieStatePoint } from '../explain/schemeLaws';
import type { SimulationView } from './useSimulation';

export interface DecisionInspector extends DecisionSelection {
  /** What the time charts mark, while paused. */
  marks: DecisionMarksProps | undefined;
  /** The selected decision on the drop-probability curve, when it records its place there. */
  curve: { x: number; p: number; verdict: string } | undefined;
  /** CoDel's decisions: the selected drop or mark on the control law. */
  codelLaw: CodelLawDecision | undefined;
  /** PIE's decisions: each kept one at its p and queue delay, and the selected one. */
  pie: { points: PiePoint[]; selected: PiePoint | undefined } | undefined;
}

const NO_FIELDS: readonly FieldSpec[] = [];

/** The newest drop or mark, else the newest decision. */
function newestVerdict(decisions: readonly DecisionRecord[]): number {
  for (let i = decisions.length - 1; i >= 0; i--) if (decisions[i].verdict !== 'pass') return i;
  return decisions.length - 1;
}

/** Keys typed into a field are the field's; a focused button (the panel's own) does not take `[` or `]`, unlike Space. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** PIE's kept decisions at their recorded p and queue delay (undefined for another scheme). */
function pieDecisions(decisions: readonly DecisionRecord[], fields: readonly FieldSpec[], selected: number | null): DecisionInspector['pie'] {
  const points: PiePoint[] = [];
  let chosen: PiePoint | undefined;
  decisions.forEach((d, i) => {
    const state = pieStatePoint(d, fields);
    if (!state) return;
    const point = { qdelayMs: state.qdelayMs, p: state.p, verdict: d.verdict };
    points.push(point);
    if (i === selected) chosen = point;
  });
  return points.length > 0 ? { points, selected: chosen } : undefined;
}

export function useDecisionInspector(sim: SimulationView): DecisionInspector {
  const paused = sim.snapshot !== null && !sim.snapshot.playing;
  const ring = sim.decisions?.ring;
  const revision = ring?.revision ?? 0;
  const fields = sim.decisions?.fields ?? NO_FIELDS;
  // Read again when the ring changes or the run stops: while it plays nothing here is shown.
  const decisions = useMemo(() => (ring && paused ? ring.items() : []), [ring, revision, paused]);
  // A choice belongs to one ring at one revision: a new run's ring may reach the same revision with other decisions.
  const [chosen, setChosen] = useState<{ ring: unknown; revision: number; index: number } | null>(null);
  // Nothing is explained until the user picks a decision: the panel stays one line and the charts stay where they were.
  const selected = chosen && chosen.ring === ring && chosen.revision === revision && chosen.index < decisions.length ? chosen.index : null;
  const select = useCallback(
    (index: number) => setChosen({ ring, revision, index: Math.max(0, Math.min(decisions.length - 1, index)) }),
    [ring, revision, decisions.length],
  );
  const close = useCallback(() => setChosen(null), []);

  useEffect(() => {
    if (decisions.length === 0) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (event.key === '[' || event.key === ']') {
        event.preventDefault();
        // The first key picks the newest drop or mark.
        select(selected === null ? newestVerdict(decisions) : selected + (event.key === ']' ? 1 : -1));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [decisions, selected, select]);

  const markList = useMemo<DecisionMark[]>(() => decisions.map((d, index) => ({ t_s: d.t_s, verdict: d.verdict, index })), [decisions]);
  // Kept while nothing changes: the charts are memoised on them.
  const marks = useMemo(
    () => (paused && markList.length > 0 ? { marks: markList, selected, onSelect: select } : undefined),
    [paused, markList, selected, select],
  );
  // While paused the snapshot, and with it the curve, holds still.
  const dropCurve = paused ? sim.snapshot?.dropCurve : undefined;
  const curve = useMemo(() => {
    const point = selected === null ? null : curvePoint(decisions[selected], fields, dropCurve);
    return point && selected !== null ? { x: point[0], p: point[1], verdict: decisions[selected].verdict } : undefined;
  }, [selected, decisions, fields, dropCurve]);
  const codelLaw = useMemo(() => {
    const d = selected === null ? undefined : decisions[selected];
    const point = d && codelLawPoint(d, fields);
    return point && d ? { ...point, verdict: d.verdict } : undefined;
  }, [selected, decisions, fields]);
  const pie = useMemo(() => pieDecisions(decisions, fields, selected), [decisions, fields, selected]);
  return useMemo(
    () => ({ paused, decisions, fields, selected, select, close, marks, curve, codelLaw, pie }),
    [paused, decisions, fields, selected, select, close, marks, curve, codelLaw, pie],
  );
}
