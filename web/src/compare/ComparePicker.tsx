// Compare mode's choice: what varies (the queue scheme, or the TCP flavour of
// every TCP group), the partner's value of it, and leaving compare mode.
// Selects and a button (not a select that acts on change), so moving through
// the lists with the keyboard does not restart anything. A flavour the engine
// refuses for this scenario stays in the list, marked, with the engine's
// reason naming the field.

import { useEffect, useState } from 'react';
import { CC_CHOICES, tcpFlavours } from '../scenario/flavours';
import type { CatalogueEntry } from '../scenario/types';
import type { Comparison } from '../scenario/view';
import { flavourRefusal, type ComparedPartner, type FlavourChecks } from './comparePlan';
import './compare.css';

interface ComparePickerProps {
  catalogue: readonly CatalogueEntry[];
  /** The scheme of the main run: not offered as its own partner. */
  schemeId: string;
  /** The running partner, if any. */
  partner: ComparedPartner | null;
  /** The engine's word on each flavour for this scenario; undefined while it is asked. */
  flavours: FlavourChecks | undefined;
  onCompare: (comparison: Comparison) => void;
  onLeave: () => void;
}

type Varies = 'scheme' | 'cc';

interface Option {
  id: string;
  name: string;
  /** Why it cannot run here (the engine's words), if it cannot. */
  refusal: string | null;
}

function schemeOptions(catalogue: readonly CatalogueEntry[], schemeId: string): Option[] {
  return catalogue.filter((s) => s.id !== schemeId).map((s) => ({ id: s.id, name: s.name, refusal: null }));
}

/** Every flavour but the one all TCP groups already run; none while the engine is asked or for a scenario without TCP. */
function flavourOptions(checks: FlavourChecks | undefined): Option[] {
  const running = checks?.main ? tcpFlavours(checks.main) : [];
  if (!checks || running.length === 0) return [];
  return CC_CHOICES.filter((c) => !(running.length === 1 && running[0] === c.value)).map((c) => {
    const problem = checks.problems.get(c.value);
    return { id: c.value, name: c.label, refusal: problem ? flavourRefusal(c.value, problem) : null };
  });
}

function fallbackOf(options: readonly Option[], partner: ComparedPartner | null, varies: Varies): string {
  if (partner?.by === varies) return partner.id;
  const usable = options.filter((o) => o.refusal === null);
  return usable.find((o) => o.id !== 'droptail')?.id ?? usable[0]?.id ?? '';
}

export function ComparePicker({ catalogue, schemeId, partner, flavours, onCompare, onLeave }: ComparePickerProps) {
  const [varies, setVaries] = useState<Varies>(partner?.by ?? 'scheme');
  const options = varies === 'scheme' ? schemeOptions(catalogue, schemeId) : flavourOptions(flavours);
  const fallback = fallbackOf(options, partner, varies);
  const [choice, setChoice] = useState(fallback);
  // Follow the running partner (a link, a leave) and a main run that took the chosen one.
  useEffect(() => setChoice(fallback), [fallback]);
  const partnerBy = partner?.by;
  useEffect(() => {
    if (partnerBy) setVaries(partnerBy);
  }, [partnerBy]);
  const chosen = options.find((o) => o.id === choice);
  const running = partner?.by === varies && partner.id === choice;
  const noTcp = varies === 'cc' && flavours?.main && tcpFlavours(flavours.main).length === 0;
  return (
    <div className="compare-picker" role="group" aria-label="Compare mode">
      <label>
        <span>{partner ? 'comparing' : 'compare'}</span>
        <select value={varies} onChange={(event) => setVaries(event.target.value as Varies)} data-testid="compare-varies">
          <option value="scheme">queue schemes</option>
          <option value="cc">TCP flavours</option>
        </select>
      </label>
      <label>
        <span>with</span>
        <select value={chosen ? choice : ''} onChange={(event) => setChoice(event.target.value)} data-testid="compare-picker">
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.refusal ? `${o.name} (cannot run here)` : o.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!chosen || chosen.refusal !== null || running}
        onClick={() => onCompare(varies === 'scheme' ? { by: 'scheme', scheme: choice } : { by: 'cc', cc: choice })}
        title={
          varies === 'scheme'
            ? 'Run both schemes from t = 0 on the same scenario and seed'
            : 'Run both flavours from t = 0 on the same scenario, seed and queue'
        }
        data-testid="compare-start"
      >
        {partner ? 'Switch' : 'Compare'}
      </button>
      {partner && (
        <button type="button" onClick={onLeave} data-testid="compare-leave">
          Stop comparing
        </button>
      )}
      {(chosen?.refusal || noTcp) && (
        <p className="compare-refusal" role="status" data-testid="compare-refusal">
          {noTcp ? 'This scenario has no TCP group whose flavour could change.' : chosen?.refusal}
        </p>
      )}
    </div>
  );
}
