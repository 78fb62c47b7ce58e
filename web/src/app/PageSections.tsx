// The page's sections around the charts: the tabs a narrow screen picks one
// section with, and the dock under the transport (the offer to run again,
// the lesson's strip).

import type { ReactNode } from 'react';
import { PANE_LABELS, type Pane } from './usePageOptions';

export function PaneTabs({ panes, pane, onPane }: { panes: readonly Pane[]; pane: Pane; onPane: (pane: Pane) => void }) {
  return (
    <div className="pane-tabs" role="tablist" aria-label="Page sections">
      {panes.map((id) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={pane === id}
          className={pane === id ? 'pane-tab current' : 'pane-tab'}
          onClick={() => onPane(id)}
          data-testid={`pane-${id}`}
        >
          {PANE_LABELS[id]}
        </button>
      ))}
    </div>
  );
}

interface LessonStripProps {
  stepIndex: number;
  answered: boolean;
  running: boolean;
  onBack: () => void;
}

/** On a narrow screen showing the charts: where the lesson step is, one tap from it. */
export function LessonStrip({ stepIndex, answered, running, onBack }: LessonStripProps) {
  return (
    <div className="lesson-strip" data-testid="lesson-strip">
      <span>
        Lesson step {stepIndex + 1}: {answered ? 'the run is over.' : running ? 'watch the charts.' : 'predict first.'}
      </span>
      <button type="button" className={answered ? 'primary' : undefined} onClick={onBack} data-testid="back-to-lesson">
        {answered ? 'See the answer' : 'Back to the lesson'}
      </button>
    </div>
  );
}

/** The two columns: lesson and controls beside the charts (one at a time on a narrow screen). */
export function Layout({ lesson, controls, dock, main }: { lesson: ReactNode; controls: ReactNode; dock: ReactNode; main: ReactNode }) {
  return (
    <div className="layout">
      <aside className="sidebar">
        {lesson && (
          <div className="pane-region" data-region="lesson">
            {lesson}
          </div>
        )}
        <div className="pane-region" data-region="controls">
          {controls}
        </div>
      </aside>
      <div className="dock">{dock}</div>
      <main className="main pane-region" data-region="charts">
        {main}
      </main>
    </div>
  );
}
