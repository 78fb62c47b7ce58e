// "Why was this packet dropped?": the drop-and-mark inspector's panel. While
// the run is paused it explains the selected decision in words and numbers;
// a click on a mark above the queue or drop-rate chart selects another, and
// `[` / `]` step to the previous and next. Its switch turns the recording
// off (and on again) for the runs that follow.

import type { DecisionRecord, FieldSpec } from '../engine/client';
import { DECISION_RING_SIZE } from '../engine/decisionRing';
import { explainDecision } from './decisionText';
import './decisionPanel.css';

/** The run's kept decisions and the one picked, as the inspector holds them. */
export interface DecisionSelection {
  paused: boolean;
  decisions: readonly DecisionRecord[];
  fields: readonly FieldSpec[];
  /** Index of the decision the user picked in `decisions`, while paused. */
  selected: number | null;
  select: (index: number) => void;
  /** Put the explanation away. */
  close: () => void;
}

interface DecisionPanelProps {
  inspector: DecisionSelection;
  schemeName: string;
  /** The buffer's unit, for values in it. */
  unit: string;
  /** Whether the run records its decisions, and the switch. */
  recording: boolean;
  onRecording: (on: boolean) => void;
}

/** What turning the recording off loses, in a student's words. */
export const RECORDING_OFF_TEXT =
  'recording is off: the engine no longer notes its state for each drop, mark and sampled pass, so no packet can be explained. The run, its charts and its summary are the same, a little faster on runs that drop a lot. Decisions made while it is off are not recovered when you turn it back on.';

function RecordSwitch({ recording, onRecording }: Pick<DecisionPanelProps, 'recording' | 'onRecording'>) {
  return (
    <label
      className="decision-record"
      title={`Keep the newest ${DECISION_RING_SIZE.toLocaleString('en')} decisions (every drop and mark, and one pass in 100) so that a paused run can explain them`}
    >
      <input type="checkbox" checked={recording} onChange={(event) => onRecording(event.target.checked)} data-testid="record-decisions" />
      record decisions
    </label>
  );
}

export function DecisionPanel({ inspector, schemeName, unit, recording, onRecording }: DecisionPanelProps) {
  const { paused, decisions, fields, selected, select, close } = inspector;
  const decision = selected === null ? undefined : decisions[selected];
  const explained = decision && explainDecision(decision, fields, schemeName, unit);
  if (!explained || selected === null) {
    // One line, so that the charts below do not move.
    const hint = !recording
      ? RECORDING_OFF_TEXT
      : !paused
        ? 'pause the run to see its drops and marks.'
        : decisions.some((d) => d.verdict !== 'pass')
          ? 'click a mark above the queue or drop-rate chart, or press ] for the newest.'
          : 'no drop or mark yet.';
    return (
      <section className="decision-panel" aria-label="Why was this packet dropped?" data-testid="decision-panel">
        <p className="decision-hint" data-testid="decision-hint">
          <strong>Why was this packet dropped?</strong> {hint} <RecordSwitch recording={recording} onRecording={onRecording} />
        </p>
      </section>
    );
  }
  return (
    <section className="decision-panel" aria-label="Why was this packet dropped?" data-testid="decision-panel">
      <div className="decision-title">
        <h3>Why was this packet dropped?</h3>
        <button type="button" onClick={close} aria-label="Close the explanation">
          ✕
        </button>
      </div>
      <div className="decision-nav">
        <button type="button" onClick={() => select(selected - 1)} disabled={selected === 0} aria-keyshortcuts="[">
          ◂ previous
        </button>
        <span data-testid="decision-position">
          decision {selected + 1} of {decisions.length}
        </span>
        <button type="button" onClick={() => select(selected + 1)} disabled={selected === decisions.length - 1} aria-keyshortcuts="]">
          next ▸
        </button>
      </div>
      <p className="decision-headline" data-testid="decision-headline" data-t={decision?.t_s} data-verdict={decision?.verdict} data-reason={decision?.reason}>
        {explained.headline}
      </p>
      <div aria-live="polite" data-testid="decision-explanation">
        {explained.sentences.map((s) => (
          <p key={s}>{s}</p>
        ))}
      </div>
      {explained.numbers.length > 0 && (
        <table className="decision-numbers" data-testid="decision-numbers">
          <tbody>
            {explained.numbers.map((n) => (
              <tr key={n.id} data-field={n.id}>
                <th scope="row">{n.label}</th>
                <td className="decision-symbol">{n.symbol}</td>
                <td>{n.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="decision-hint">Click a mark above the queue or drop-rate chart to pick another; the keys [ and ] step through them.</p>
    </section>
  );
}
