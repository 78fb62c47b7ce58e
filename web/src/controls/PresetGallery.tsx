// The preset experiments (the repository's scenarios/ files) with captions.

import type { Preset } from '../scenario/presets';

interface PresetGalleryProps {
  presets: readonly Preset[];
  onPick: (preset: Preset) => void;
}

export function PresetGallery({ presets, onPick }: PresetGalleryProps) {
  return (
    <section className="gallery" aria-label="Preset experiments" data-testid="gallery">
      <h2>Preset experiments</h2>
      <ul>
        {presets.map((preset) => (
          <li key={preset.id}>
            <button type="button" className="preset" onClick={() => onPick(preset)} data-testid={`preset-${preset.id}`}>
              <span className="preset-title">{preset.title}</span>
              {preset.plain && <span className="preset-plain">{preset.plain}</span>}
              {preset.caption && <span className="preset-caption">{preset.caption}</span>}
              <span className="preset-meta">
                {preset.scenario.queue.scheme} · {preset.scenario.flows.reduce((n, g) => n + (g.count ?? 1), 0)} flows · {preset.scenario.duration_s} s
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
