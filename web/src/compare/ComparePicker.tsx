// "Compare with…": pick a second scheme to run beside the first on the same
// scenario and seed, and leave compare mode again. A select and a button
// (not a select that acts on change), so moving through the list with the
// keyboard does not restart anything.

import { useEffect, useState } from 'react';
import type { CatalogueEntry } from '../scenario/types';
import './compare.css';

interface ComparePickerProps {
  catalogue: readonly CatalogueEntry[];
  /** The scheme of the main run: not offered as its own partner. */
  schemeId: string;
  partner: string | null;
  onCompare: (id: string) => void;
  onLeave: () => void;
}

export function ComparePicker({ catalogue, schemeId, partner, onCompare, onLeave }: ComparePickerProps) {
  const choices = catalogue.filter((s) => s.id !== schemeId);
  const fallback = partner ?? choices.find((s) => s.id !== 'droptail')?.id ?? choices[0]?.id ?? '';
  const [choice, setChoice] = useState(fallback);
  // Follow the running partner (a link, a leave) and a main scheme that took the chosen one.
  useEffect(() => setChoice(fallback), [fallback]);
  const usable = choices.some((s) => s.id === choice);
  return (
    <div className="compare-picker" role="group" aria-label="Compare mode">
      <label>
        <span>{partner ? 'comparing with' : 'compare with'}</span>
        <select value={usable ? choice : ''} onChange={(event) => setChoice(event.target.value)} data-testid="compare-picker">
          {choices.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        disabled={!usable || choice === partner}
        onClick={() => onCompare(choice)}
        title="Run both schemes from t = 0 on the same scenario and seed"
        data-testid="compare-start"
      >
        {partner ? 'Switch' : 'Compare'}
      </button>
      {partner && (
        <button type="button" onClick={onLeave} data-testid="compare-leave">
          Stop comparing
        </button>
      )}
    </div>
  );
}
