// Compare mode's choice: one list of partners in two groups, the other queue
// schemes and the TCP flavours (every TCP group switched), then a button and
// leaving compare mode. One select, so the choice stays on one row on a phone.
// Selects and a button (not a select that acts on change), so moving through
// the list with the keyboard does not restart anything. A flavour the engine
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

type Varies = ComparedPartner['by'];

interface Option {
  /** The select's value: a scheme's id, or `cc:` and a flavour (scheme ids have no colon). */
  value: string;
  by: Varies;
  id: string;
  name: string;
  /** Why it cannot run here (the engine's words), if it cannot. */
  refusal: string | null;
}

const valueOf = (by: Varies, id: string) => (by === 'scheme' ? id : `cc:${id}`);

function schemeOptions(catalogue: readonly CatalogueEntry[], schemeId: string): Option[] {
  return catalogue.filter((s) => s.id !== schemeId).map((s) => ({ value: s.id, by: 'scheme', id: s.id, name: s.name, refusal: null }));
}

/** Every flavour but the one all TCP groups already run; none while the engine is asked or for a scenario without TCP. */
function flavourOptions(checks: FlavourChecks | undefined): Option[] {
  const running = checks?.main ? tcpFlavours(checks.main) : [];
  if (!checks || running.length === 0) return [];
  return CC_CHOICES.filter((c) => !(running.length === 1 && running[0] === c.value)).map((c) => {
    const problem = checks.problems.get(c.value);
    return { value: valueOf('cc', c.value), by: 'cc', id: c.value, name: c.label, refusal: problem ? flavourRefusal(c.value, problem) : null };
  });
}

function fallbackOf(schemes: readonly Option[], partner: ComparedPartner | null): string {
  if (partner) return valueOf(partner.by, partner.id);
  return (schemes.find((o) => o.id !== 'droptail') ?? schemes[0])?.value ?? '';
}

function OptionList({ options }: { options: readonly Option[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.refusal ? `${o.name} (cannot run here)` : o.name}
    </option>
  ));
}

export function ComparePicker({ catalogue, schemeId, partner, flavours, onCompare, onLeave }: ComparePickerProps) {
  const schemes = schemeOptions(catalogue, schemeId);
  const ccs = flavourOptions(flavours);
  const fallback = fallbackOf(schemes, partner);
  const [choice, setChoice] = useState(fallback);
  // Follow the running partner (a link, a leave) and a main run that took the chosen one.
  useEffect(() => setChoice(fallback), [fallback]);
  const chosen = [...schemes, ...ccs].find((o) => o.value === choice);
  const running = partner !== null && chosen !== undefined && partner.by === chosen.by && partner.id === chosen.id;
  return (
    <div className="compare-picker" role="group" aria-label="Compare mode">
      <label>
        <span>{partner ? 'comparing with' : 'compare with'}</span>
        <select value={chosen ? choice : ''} onChange={(event) => setChoice(event.target.value)} data-testid="compare-picker">
          <optgroup label="queue schemes">
            <OptionList options={schemes} />
          </optgroup>
          {ccs.length > 0 && (
            <optgroup label="TCP flavours (every TCP group)">
              <OptionList options={ccs} />
            </optgroup>
          )}
        </select>
      </label>
      <button
        type="button"
        disabled={!chosen || chosen.refusal !== null || running}
        onClick={() => chosen && onCompare(chosen.by === 'scheme' ? { by: 'scheme', scheme: chosen.id } : { by: 'cc', cc: chosen.id })}
        title={
          chosen?.by === 'cc'
            ? 'Run both flavours from t = 0 on the same scenario, seed and queue'
            : 'Run both schemes from t = 0 on the same scenario and seed'
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
      {chosen?.refusal && (
        <p className="compare-refusal" role="status" data-testid="compare-refusal">
          {chosen.refusal}
        </p>
      )}
    </div>
  );
}
