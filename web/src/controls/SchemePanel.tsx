// The queue scheme: a picker over every scheme in the engine's catalogue and
// sliders generated from the chosen scheme's parameters.

import { EXPLANATIONS } from '../explain/explanations';
import type { BufferUnit } from '../scenario/model';
import type { CatalogueEntry } from '../scenario/types';
import { ParamControl } from './ParamControl';

const PROBE = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

interface SchemePanelProps {
  catalogue: readonly CatalogueEntry[];
  schemeId: string;
  params: Readonly<Record<string, number>>;
  /** The scheme's probe values now (e.g. RED's average queue). */
  probe: Readonly<Record<string, number>> | undefined;
  bufferUnit: BufferUnit;
  bufferCapacity: number;
  onScheme: (id: string) => void;
  onParam: (id: string, value: number) => Promise<unknown>;
}

export function SchemePanel({ catalogue, schemeId, params, probe, bufferUnit, bufferCapacity, onScheme, onParam }: SchemePanelProps) {
  const entry = catalogue.find((s) => s.id === schemeId);
  return (
    <section className="panel scheme-panel" aria-label="Queue scheme">
      <h2>Queue scheme</h2>
      <label className="field wide">
        <span className="field-label">scheme (changing it restarts the run)</span>
        <select value={schemeId} onChange={(event) => onScheme(event.target.value)} data-testid="scheme-picker">
          {!entry && <option value={schemeId}>{schemeId}</option>}
          {catalogue.map((scheme) => (
            <option key={scheme.id} value={scheme.id}>
              {scheme.name}
            </option>
          ))}
        </select>
      </label>
      {entry && (
        <div className="scheme-about">
          <p className="scheme-summary">{entry.summary}</p>
          {(EXPLANATIONS[entry.id] ?? []).map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          <p className="paper">{entry.paper}</p>
        </div>
      )}
      {entry && entry.probes.length > 0 && (
        <dl className="probes" aria-label="Scheme state now">
          {entry.probes.map((spec) => {
            const value = probe?.[spec.id];
            const unit = spec.unit === 'buffer' ? bufferUnit : spec.unit;
            return (
              <div key={spec.id}>
                <dt>{spec.label}</dt>
                <dd data-testid={`probe-${spec.id}`} data-value={value}>
                  {value === undefined ? '–' : unit === 'on/off' ? (value >= 0.5 ? 'on' : 'off') : PROBE.format(value)}
                  {unit && unit !== 'on/off' && <span className="field-unit"> {unit}</span>}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {entry && entry.params.length === 0 && <p className="hint">{entry.name} has no parameters besides the buffer size.</p>}
      {entry && entry.params.length > 0 && (
        <div className="params" data-testid="scheme-params">
          {entry.params.map((spec) => (
            <ParamControl
              key={`${entry.id}.${spec.id}`}
              spec={spec}
              value={params[spec.id] ?? spec.default}
              sliderMax={entry.buffer_params.includes(spec.id) ? Math.max(bufferCapacity, params[spec.id] ?? 0) : undefined}
              onChange={(value) => onParam(spec.id, value)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
