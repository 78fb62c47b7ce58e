// The address bar follows the running experiment: shortly after each applied
// change (scenario, live parameter, view), its link replaces the address
// with history.replaceState, so copying the address shares what is on
// screen and reloading reopens it. No history entries are added (Back still
// leaves the page), and replaceState fires no hashchange, so the page does
// not reopen its own link.

import { useCallback, useEffect } from 'react';
import { encodeFragment } from '../scenario/codec';
import { withPageOptions, type PageOptions } from '../scenario/pageOptions';
import type { Scenario } from '../scenario/types';
import type { ViewState } from '../scenario/view';

/** A slider drag applies many values: the address takes the one it settles on. */
export const ADDRESS_DEBOUNCE_MS = 300;

/** The page's address with `scenario`, `view` and the page options (present, embed, lesson) as its fragment. */
export function experimentLink(scenario: Scenario, view: ViewState, options: PageOptions): string {
  const url = new URL(window.location.href);
  url.hash = withPageOptions(encodeFragment(JSON.stringify(scenario), view), options);
  return url.toString();
}

function showInAddressBar(link: string): void {
  if (link !== window.location.href) window.history.replaceState(window.history.state, '', link);
}

/**
 * Keeps the address on `scenario` (null while a link is still being opened:
 * the address is that link until the page runs it) and `view`. Returns the
 * link to copy now, which it also puts in the address at once.
 */
export function useAddressBar(scenario: Scenario | null, view: ViewState, options: PageOptions): () => string {
  useEffect(() => {
    if (!scenario) return;
    const timer = window.setTimeout(() => showInAddressBar(experimentLink(scenario, view, options)), ADDRESS_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [scenario, view, options]);

  return useCallback(() => {
    if (!scenario) return window.location.href;
    const link = experimentLink(scenario, view, options);
    showInAddressBar(link);
    return link;
  }, [scenario, view, options]);
}
