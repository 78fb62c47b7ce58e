// "Reproduce the papers": every reproduction file with its paper, figures and
// claims; picking one runs its scenario (in compare mode when it compares).

import type { Reproduction } from './reproductions';
import './reproduce.css';

interface ReproduceGalleryProps {
  reproductions: readonly Reproduction[];
  onPick: (reproduction: Reproduction) => void;
}

export function ReproduceGallery({ reproductions, onPick }: ReproduceGalleryProps) {
  return (
    <section className="gallery reproduce-gallery" aria-label="Reproduce the papers" data-testid="reproduce-gallery">
      <h2>Reproduce the papers</h2>
      <p className="reproduce-intro">
        Each experiment reruns a paper's setting and, when its run ends, sets the paper's values beside the lab's with a verdict.
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
                {r.scenario.queue.scheme}
                {r.file.compare && ` vs ${r.file.compare.scheme}`} · {r.file.claims.length} claims · {r.scenario.duration_s} s
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
