// Embed mode: the charts and the transport only, for an iframe on a slide or
// a course page, with a link to the full page.

import type { ReactNode } from 'react';
import type { EngineClient } from '../engine/client';
import { withPageOptions, type PageOptions } from '../scenario/pageOptions';
import { CrashBanner } from './CrashBanner';

interface EmbedViewProps {
  engine: EngineClient;
  experimentName: string;
  options: PageOptions;
  runError: ReactNode;
  transportBar: ReactNode;
  charts: ReactNode;
}

export function EmbedView({ engine, experimentName, options, runError, transportBar, charts }: EmbedViewProps) {
  const full = new URL(window.location.href);
  full.hash = withPageOptions(full.hash, { ...options, embed: false });
  return (
    <div className="app app-embed" data-testid="embed">
      <div className="embed-head">
        <span className="experiment-name" data-testid="experiment-name">
          {experimentName || 'Untitled experiment'}
        </span>
        <a href={full.toString()} target="_blank" rel="noopener" data-testid="open-full">
          Open in AQM Lab
        </a>
      </div>
      <CrashBanner engine={engine} />
      {runError}
      {transportBar}
      <main className="main">{charts}</main>
    </div>
  );
}
