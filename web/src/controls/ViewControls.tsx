// Which charts to show and which stretch of simulated time: a sliding window
// that follows the run, or scrolled back through the recorded past.

import { CHART_IDS, CHART_TITLES, type ChartId, type ViewState } from '../scenario/view';
import { WindowChoice } from './WindowChoice';

interface ViewControlsProps {
  view: ViewState;
  onView: (view: ViewState) => void;
  following: boolean;
  /** Right edge of the window, in simulated seconds. */
  windowEndS: number;
  /** Earliest and latest recorded times. */
  firstS: number;
  latestS: number;
  onScroll: (endS: number) => void;
  onFollow: () => void;
  /** Charts the current scheme cannot draw, with the reason (shown on hover). */
  unavailable?: Partial<Record<ChartId, string>>;
}

export function ViewControls({ view, onView, following, windowEndS, firstS, latestS, onScroll, onFollow, unavailable = {} }: ViewControlsProps) {
  const toggle = (id: ChartId) => {
    const charts = view.charts.includes(id) ? view.charts.filter((c) => c !== id) : CHART_IDS.filter((c) => c === id || view.charts.includes(c));
    onView({ ...view, charts });
  };
  const scrollMin = Math.min(latestS, firstS + view.windowS);
  const canScroll = view.windowS > 0 && latestS - firstS > view.windowS;
  return (
    <div className="view-controls">
      <fieldset className="chart-picker">
        <legend>Charts</legend>
        {CHART_IDS.map((id) => (
          <label key={id} title={unavailable[id]}>
            <input
              type="checkbox"
              checked={view.charts.includes(id) && !unavailable[id]}
              disabled={Boolean(unavailable[id])}
              onChange={() => toggle(id)}
              data-testid={`show-${id}`}
            />
            {CHART_TITLES[id]}
          </label>
        ))}
      </fieldset>
      <WindowChoice windowS={view.windowS} onWindow={(windowS) => onView({ ...view, windowS })} testId="window-width" />
      <label className="scroll">
        <span>scroll back</span>
        <input
          type="range"
          min={scrollMin}
          max={Math.max(latestS, scrollMin + 1e-3)}
          step={0.01}
          value={following ? latestS : windowEndS}
          disabled={!canScroll}
          onChange={(event) => onScroll(Number(event.target.value))}
          aria-valuetext={`window ends at ${(following ? latestS : windowEndS).toFixed(1)} s`}
          data-testid="scroll-back"
        />
      </label>
      <button type="button" onClick={onFollow} disabled={following} data-testid="follow-live">
        Follow live
      </button>
    </div>
  );
}
