// The first stops of the Tab order: jump past the header and the scheme's
// sliders to the transport bar or to the charts. Each link moves focus
// itself, because the page's fragment is its share link: following an
// ordinary #id link would replace the experiment.

import type { MouseEvent } from 'react';
import './skipLinks.css';

/** Ids of the places the skip links lead to; each is focusable (tabIndex -1). */
export const SKIP_TARGETS = { transport: 'transport', charts: 'charts' } as const;

const LINKS = [
  { target: SKIP_TARGETS.transport, label: 'Skip to the simulation controls' },
  { target: SKIP_TARGETS.charts, label: 'Skip to the charts' },
];

function jump(event: MouseEvent<HTMLAnchorElement>, target: string): void {
  event.preventDefault();
  const element = document.getElementById(target);
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: 'start' });
}

export function SkipLinks() {
  return (
    <nav className="skip-links" aria-label="Skip links">
      {LINKS.map(({ target, label }) => (
        <a key={target} href={`#${target}`} className="skip-link" onClick={(event) => jump(event, target)} data-testid={`skip-to-${target}`}>
          {label}
        </a>
      ))}
    </nav>
  );
}
