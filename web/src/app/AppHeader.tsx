// The page's header: its name, the experiment's, and the actions that open
// panels (lessons, presets, reproductions, glossary), switch present mode,
// and take the experiment away (sweep, export, share).

import type { ReactNode } from 'react';

interface Toggle {
  open: boolean;
  onToggle: () => void;
}

interface AppHeaderProps {
  experimentName: string;
  lessons: Toggle;
  presets: Toggle;
  reproductions: Toggle;
  onGlossary: () => void;
  present: Toggle;
  /** Sweep, export and share: they need the running experiment. */
  children: ReactNode;
}

export function AppHeader({ experimentName, lessons, presets, reproductions, onGlossary, present, children }: AppHeaderProps) {
  return (
    <header className="app-header">
      <h1>AQM Lab</h1>
      <p className="experiment-name" data-testid="experiment-name">
        {experimentName || 'Untitled experiment'}
      </p>
      <div className="header-actions">
        <button type="button" onClick={lessons.onToggle} aria-expanded={lessons.open} data-testid="open-lessons">
          {lessons.open ? 'Hide lessons' : 'Lessons'}
        </button>
        <button type="button" onClick={presets.onToggle} aria-expanded={presets.open} data-testid="toggle-gallery">
          {presets.open ? 'Hide presets' : 'Presets'}
        </button>
        <button type="button" onClick={reproductions.onToggle} aria-expanded={reproductions.open} data-testid="toggle-reproduce">
          {reproductions.open ? 'Hide reproductions' : 'Reproduce the papers'}
        </button>
        <button type="button" onClick={onGlossary} data-testid="open-glossary">
          Glossary
        </button>
        <button
          type="button"
          onClick={present.onToggle}
          aria-pressed={present.open}
          title="Large type and thick lines for a projector"
          data-testid="toggle-present"
        >
          Present
        </button>
        {children}
      </div>
    </header>
  );
}

/** A notice the page owes the student (a link it could not follow), dismissable. */
export function Notice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="banner banner-notice" role="alert" data-testid="link-notice">
      <span>{text}</span>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** Why a run could not start or stopped, or why the page cannot work. */
export function ErrorBanner({ text, testId }: { text: string; testId?: string }) {
  return (
    <p className="banner banner-error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}
