// What the page shows when the engine worker crashes: what happened, and a
// Restart that rebuilds the runs in a new worker. The rest of the page keeps
// its scenario, link and view meanwhile.

import { useEffect, useState } from 'react';
import type { EngineClient, EngineCrash } from '../engine/client';

function describeCrash(crash: EngineCrash): string {
  // A crash after a restart says so: restarting may not help, and the student should know it was tried.
  const again = crash.restarts === 0 ? '' : ` again (after ${crash.restarts} restart${crash.restarts === 1 ? '' : 's'})`;
  switch (crash.cause) {
    case 'start':
      return `The simulator could not start${again}: ${crash.message}`;
    case 'panic':
      return `The simulator crashed${again}: ${crash.message}`;
    case 'worker':
      return `The simulator's worker stopped${again}: ${crash.message}`;
  }
}

export function CrashBanner({ engine }: { engine: EngineClient }) {
  const [crash, setCrash] = useState<EngineCrash | null>(null);

  useEffect(() => engine.onCrash(setCrash), [engine]);

  if (!crash) return null;
  const restart = () => {
    setCrash(null);
    engine.restart();
  };
  return (
    <div className="banner banner-error" role="alert" data-testid="engine-crash">
      <span>
        {describeCrash(crash)}.{' '}
        {crash.cause === 'start'
          ? 'Restart tries to start it again; the experiment and its link are kept.'
          : 'Restart runs the experiment again from t = 0 with the same settings and link.'}
      </span>
      <button type="button" onClick={restart} data-testid="restart-engine">
        Restart
      </button>
    </div>
  );
}
