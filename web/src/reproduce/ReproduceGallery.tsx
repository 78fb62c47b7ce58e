// "Reproduce the papers": every reproduction file with its paper, figures and
// claims; picking one runs its scenario (in compare mode when it compares).

import { compareRuns, type Reproduction } from './reproductions';
import './reproduce.css';

/** Seeds of a file that does not say (the engine's `DEFAULT_SEEDS`). */
const DEFAULT_SEEDS = 10;

interface ReproduceGalleryProps {
  reproductions: readonly Reproduction[];
  onPick: (reproduction: Reproduction) => void;
}

export function ReproduceGallery({ reproductions, onPick }: ReproduceGalleryProps) {
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
                {r.file.seeds ?? DEFAULT_SEEDS} seeds of {r.scenario.duration_s} s, run at full speed
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
