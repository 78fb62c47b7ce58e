// "Reproduce the papers": every reproduction file with its paper, figures and
// claims; picking one runs its scenario (in compare mode when it compares).

import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { Scenario } from '../scenario/types';
import { compareRuns, type Reproduction } from './reproductions';
import './reproduce.css';

interface ReproduceGalleryProps {
  reproductions: readonly Reproduction[];
  onPick: (reproduction: Reproduction) => void;
  /** Lists each reproduction's runs, so a file that gives no seed count shows the engine's. */
  engine: Pick<EngineClient, 'reproductionRuns'>;
}

/** Each reproduction's number of seeds, by id: the seeds of the runs the engine makes of it. */
function useSeedCounts(reproductions: readonly Reproduction[], engine: ReproduceGalleryProps['engine']): Readonly<Record<string, number>> {
  const [counts, setCounts] = useState<Readonly<Record<string, number>>>({});
  useEffect(() => {
    let live = true;
    const seedsOf = (runs: string[]) => new Set(runs.map((run) => (JSON.parse(run) as Scenario).seed)).size;
    const counted = reproductions.map((r) =>
      engine.reproductionRuns(r.json, JSON.stringify(r.scenario)).then(
        (runs) => [[r.id, seedsOf(runs)] as const],
        () => [],
      ),
    );
    void Promise.all(counted).then((entries) => live && setCounts(Object.fromEntries(entries.flat())));
    // Counts for a list that has since changed are dropped.
    return () => void (live = false);
  }, [reproductions, engine]);
  return counts;
}

export function ReproduceGallery({ reproductions, onPick, engine }: ReproduceGalleryProps) {
  const seeds = useSeedCounts(reproductions, engine);
  return (
    <section className="gallery reproduce-gallery" aria-label="Reproduce the papers" data-testid="reproduce-gallery">
      <h2>Reproduce the papers</h2>
      <p className="reproduce-intro">
        Each experiment reruns a paper's setting with the parameters the paper gives every scheme, on several seeds at full speed, and sets the paper's values
        beside the lab's mean and 95% interval with a verdict: reproduced, diverges or inconclusive.
      </p>
      <ul>
        {reproductions.map((r) => (
          <li key={r.id}>
            <button type="button" className="preset" onClick={() => onPick(r)} data-testid={`reproduction-${r.id}`}>
              <span className="preset-title">
                {r.file.paper}: {r.file.experiment}
              </span>
              <span className="preset-caption">
                {r.file.claims.map((c) => (
                  <span key={c.id} className="reproduce-claim-line">
                    {c.figure}: {c.claim}
                  </span>
                ))}
              </span>
              <span className="preset-meta">
                {[r.scenario.queue.scheme, ...compareRuns(r.file).map((c) => c.scheme)].join(' vs ')} · {r.file.claims.length} claims ·{' '}
                {seeds[r.id] !== undefined && `${seeds[r.id]} seeds of `}
                {r.scenario.duration_s} s, run at full speed
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
