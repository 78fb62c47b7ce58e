// Asks before a run that would keep the engine busy for minutes: the engine's
// estimate of its events, and a choice to run it anyway or go back and edit.

import type { WorkEstimate } from '../engine/client';

/** Engine events per wall second a page typically handles (the transport bar shows the live figure). */
const PAGE_EVENTS_PER_S = 3e6;

const COUNT = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

interface WorkWarningProps {
  estimate: WorkEstimate;
  onRunAnyway: () => void;
  onCancel: () => void;
}

export function WorkWarning({ estimate, onRunAnyway, onCancel }: WorkWarningProps) {
  const minutes = Math.max(1, Math.round(estimate.events / PAGE_EVENTS_PER_S / 60));
  return (
    <div className="banner banner-notice" role="alertdialog" aria-label="Long run" data-testid="work-warning">
      <span>
        This experiment would take about {COUNT.format(estimate.events)} engine events: roughly {minutes} minute{minutes === 1 ? '' : 's'} at full speed, beyond
        the {COUNT.format(estimate.limit)} that the command line runs without --force. The page stays usable while it runs; a shorter duration or lower rates
        give an answer sooner.
      </span>
      <button type="button" onClick={onRunAnyway} data-testid="work-run-anyway">
        Run anyway
      </button>
      <button type="button" onClick={onCancel} data-testid="work-cancel">
        Cancel
      </button>
    </div>
  );
}
