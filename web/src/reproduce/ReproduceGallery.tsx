// "Reproduce the papers": every reproduction file with its paper, figures and
// claims; picking one runs its scenario (in compare mode when it compares).

import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { Scenario } from '../scenario/types';
import { compareRuns, resolveReproduction, type ReproductionSource } from './reproductions';
import './reproduce.css';

interface ReproduceGalleryProps {
  reproductions: readonly ReproductionSource[];
  onPick: (reproduction: ReproductionSource) => void;
  /** Resolves each reproduction's scenario and lists its runs, so a file that gives no seed count shows the engine's. */
  engine: Pick<EngineClient, 'reproductionRuns' | 'reproductionScenario'>;
}

/** What the engine makes of a reproduction: the scenario its main run runs and its number of seeds (those of its runs). */
interface Resolved {
  scenario: Scenario;
  seeds: number;
}

/** Each reproduction's main scenario and seed count, by id, as the engine resolves them. */
function useResolved(reproductions: readonly ReproductionSource[], engine: ReproduceGalleryProps['engine']): Readonly<Record<string, Resolved>> {
  const [resolved, setResolved] = useState<Readonly<Record<string, Resolved>>>({});
  useEffect(() => {
    let live = true;
    const seedsOf = (runs: string[]) => new Set(runs.map((run) => (JSON.parse(run) as Scenario).seed)).size;
    const each = reproductions.map((r) =>
      Promise.all([resolveReproduction(engine, r), engine.reproductionRuns(r.json, JSON.stringify(r.named))]).then(
        ([{ scenario }, runs]) => [[r.id, { scenario, seeds: seedsOf(runs) }] as const],
        () => [],
      ),
    );
    void Promise.all(each).then((entries) => live && setResolved(Object.fromEntries(entries.flat())));
    // What a list that has since changed resolved to is dropped.
    return () => void (live = false);
  }, [reproductions, engine]);
  return resolved;
}

export function ReproduceGallery({ reproductions, onPick, engine }: ReproduceGalleryProps) {
  const resolved = useResolved(reproductions, engine);
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
              {resolved[r.id] && (
                <span className="preset-meta">
                  {[resolved[r.id].scenario.queue.scheme, ...compareRuns(r.file).map((c) => c.scheme)].join(' vs ')} · {r.file.claims.length} claims ·{' '}
                  {resolved[r.id].seeds} seeds of {resolved[r.id].scenario.duration_s} s, run at full speed
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
