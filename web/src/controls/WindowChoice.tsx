// The width of the charts' time window, in simulated seconds (0 = the whole run).

import { WINDOW_CHOICES_S } from '../scenario/view';

interface WindowChoiceProps {
  windowS: number;
  onWindow: (windowS: number) => void;
  testId: string;
}

export function WindowChoice({ windowS, onWindow, testId }: WindowChoiceProps) {
  return (
    <label className="window-choice">
      <span>time window</span>
      <select value={windowS} onChange={(event) => onWindow(Number(event.target.value))} data-testid={testId}>
        {WINDOW_CHOICES_S.map((w) => (
          <option key={w} value={w}>
            {w === 0 ? 'whole run' : `${w} s`}
          </option>
        ))}
      </select>
    </label>
  );
}
