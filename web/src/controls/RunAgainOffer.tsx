// A finished run cannot show a parameter change: the change applies from the
// moment it is made, and the run has ended. When a parameter moves after the
// end, this offers to run the experiment again from t = 0 with the new value.

import type { ParamChange } from '../charts/timeAxis';

interface RunAgainOfferProps {
  finished: boolean;
  durationS: number;
  paramChanges: readonly ParamChange[];
  onRunAgain: () => void;
}

/** Changes made once the run was over (a change is stamped with the simulated time it took effect). */
export function changesAfterEnd(paramChanges: readonly ParamChange[], durationS: number): ParamChange[] {
  return paramChanges.filter((change) => change.timeS >= durationS);
}

export function RunAgainOffer({ finished, durationS, paramChanges, onRunAgain }: RunAgainOfferProps) {
  const late = finished ? changesAfterEnd(paramChanges, durationS) : [];
  if (late.length === 0) return null;
  return (
    <div className="run-again" role="status" data-testid="run-again-offer">
      <span>The run is over, so {late.map((c) => c.label).join(', ')} cannot show in it.</span>
      <button type="button" className="primary" onClick={onRunAgain} data-testid="run-again">
        Run again from t = 0 with it
      </button>
    </div>
  );
}
