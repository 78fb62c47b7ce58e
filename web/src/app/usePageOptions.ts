// How the page presents itself (present, embed, the open lesson), read from
// the address and written back to it, and which section a narrow screen
// shows.

import { useCallback, useEffect, useState } from 'react';
import { decodePageOptions, withPageOptions, type LessonPlace, type PageOptions } from '../scenario/pageOptions';

/** What a narrow screen shows, one at a time (a wide screen shows them side by side). */
export type Pane = 'lesson' | 'charts' | 'controls';

export const PANE_LABELS: Record<Pane, string> = { lesson: 'Lesson', charts: 'Charts', controls: 'Controls' };

/** Write the page options into the address (keeping the experiment there), without reloading or a history entry. */
function showPageOptions(options: PageOptions): void {
  const fragment = withPageOptions(window.location.hash, options);
  window.history.replaceState(null, '', window.location.pathname + window.location.search + (fragment ? `#${fragment}` : ''));
}

export interface PageState {
  options: PageOptions;
  setPresent: (present: boolean) => void;
  /** Open a lesson at a step, or the list (`lessonId` null with the panel open). */
  setLesson: (place: LessonPlace | null) => void;
  /** Name a paper's figure in the address (`&figure=<id>`). */
  setFigure: (figure: string | null) => void;
  lessonsOpen: boolean;
  toggleLessons: () => void;
  panes: Pane[];
  pane: Pane;
  setPane: (pane: Pane) => void;
}

export function usePageOptions(): PageState {
  const [options, setOptions] = useState<PageOptions>(() => decodePageOptions(window.location.hash));
  const [lessonsOpen, setLessonsOpen] = useState(() => options.lesson !== null);
  const [pane, setPane] = useState<Pane>(() => (options.lesson !== null ? 'lesson' : 'charts'));

  // A pasted link brings its own present, embed and lesson options.
  useEffect(() => {
    const read = () => {
      const next = decodePageOptions(window.location.hash);
      setOptions(next);
      if (next.lesson) {
        setLessonsOpen(true);
        setPane('lesson');
      }
    };
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  useEffect(() => {
    // A reproduction enters the address only with its own experiment (useAddressBar writes both at once).
    showPageOptions({ ...options, reproduction: decodePageOptions(window.location.hash).reproduction });
    document.documentElement.classList.toggle('present', options.present);
    document.documentElement.classList.toggle('embed', options.embed);
  }, [options]);

  const toggleLessons = () => {
    if (lessonsOpen) {
      setLessonsOpen(false);
      setOptions((current) => ({ ...current, lesson: null }));
      if (pane === 'lesson') setPane('charts');
    } else {
      setLessonsOpen(true);
      setPane('lesson');
    }
  };

  const panes: Pane[] = lessonsOpen ? ['lesson', 'charts', 'controls'] : ['charts', 'controls'];
  return {
    options,
    setPresent: useCallback((present: boolean) => setOptions((current) => ({ ...current, present })), []),
    setLesson: useCallback((lesson: LessonPlace | null) => setOptions((current) => ({ ...current, lesson })), []),
    setFigure: useCallback((figure: string | null) => setOptions((current) => ({ ...current, figure })), []),
    lessonsOpen,
    toggleLessons,
    panes,
    pane: panes.includes(pane) ? pane : 'charts',
    setPane,
  };
}
