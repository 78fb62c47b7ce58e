// The preset experiments (the repository's scenarios/ files) with captions,
// each with its flow count as the engine plans it.

import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { Preset } from '../scenario/presets';

interface PresetGalleryProps {
  presets: readonly Preset[];
  onPick: (preset: Preset) => void;
  /** Plans each preset, as it would run. */
  engine: Pick<EngineClient, 'planScenario'>;
}

/** Each preset's number of flows, by id, once the engine has planned it. */
function usePlannedFlows(presets: readonly Preset[], engine: PresetGalleryProps['engine']): Readonly<Record<string, number>> {
  const [flows, setFlows] = useState<Record<string, number>>({});
  useEffect(() => {
    let live = true;
    for (const preset of presets) {
      engine.planScenario(JSON.stringify(preset.scenario)).then(
        (plan) => live && setFlows((known) => ({ ...known, [preset.id]: plan.groups.reduce((n, g) => n + g.count, 0) })),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [presets, engine]);
  return flows;
}

export function PresetGallery({ presets, onPick, engine }: PresetGalleryProps) {
  const flows = usePlannedFlows(presets, engine);
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
                {preset.scenario.queue.scheme}
                {flows[preset.id] !== undefined && ` · ${flows[preset.id]} flows`} · {preset.scenario.duration_s} s
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
