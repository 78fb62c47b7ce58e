// The queue scheme: a picker over every scheme in the engine's catalogue and
// sliders generated from the chosen scheme's parameters.

import { useState } from 'react';
import { EXPLANATIONS } from '../explain/explanations';
import { Formula } from '../explain/Formula';
import '../explain/explainer.css';
import { switchOn, type BufferUnit } from '../scenario/model';
import { EngineRefusal } from '../engine/client';
import { describeParamProblem } from '../scenario/paramNames';
import type { CatalogueEntry } from '../scenario/types';
import { ParamControl } from './ParamControl';

type ExplainerPart = 'what' | 'rule' | 'try';

const TOGGLE_LABELS: Record<ExplainerPart, string> = { what: 'How it works', rule: 'Drop rule', try: 'Try this' };

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
  /** False while a new run is on its way: the controls shown belong to the run it replaces, so they take no change. */
  ready: boolean;
}

export function SchemePanel({ catalogue, schemeId, params, probe, bufferUnit, bufferCapacity, onScheme, onParam, ready }: SchemePanelProps) {
  const entry = catalogue.find((s) => s.id === schemeId);
  const explainer = entry ? EXPLANATIONS[entry.id] : undefined;
  const [open, setOpen] = useState<ExplainerPart | null>(null);
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
          {explainer && (
            // Folded away by default so the sliders stay in view on a small
            // screen; what is open carries over when another scheme is picked.
            <div className="explainer" data-testid="scheme-explainer">
              <div className="explainer-toggles">
                {(['what', 'rule', 'try'] as const).map((part) => (
                  <button
                    key={part}
                    type="button"
                    className={open === part ? 'explainer-toggle open' : 'explainer-toggle'}
                    aria-expanded={open === part}
                    aria-controls={`explainer-${part}`}
                    onClick={() => setOpen(open === part ? null : part)}
                    data-testid={`explainer-${part}-toggle`}
                  >
                    {TOGGLE_LABELS[part]}
                  </button>
                ))}
              </div>
              {open === 'what' && (
                <p id="explainer-what" className="explainer-what">
                  {explainer.what}
                </p>
              )}
              {open === 'rule' && (
                <div id="explainer-rule" className="explainer-rule" role="group" aria-label={`${entry.name} drop rule`}>
                  <Formula latex={explainer.formula} label={`${entry.name} drop rule as a formula`} />
                  {explainer.rule.map((line, i) => (
                    <code key={i}>{line}</code>
                  ))}
                </div>
              )}
              {open === 'try' && (
                <ul id="explainer-try" className="explainer-try" aria-label="Experiments to try">
                  {explainer.tryThis.map((item) => (
                    <li key={`${item.preset ?? ''}:${item.text}`}>
                      {item.preset && (
                        <>
                          preset <span className="explainer-preset">{item.preset}</span>:{' '}
                        </>
                      )}
                      {item.text}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <p className="paper">{entry.paper}</p>
        </div>
      )}
      {entry && entry.probes.length > 0 && (
        <dl className="probes" aria-label="Scheme state now">
          {entry.probes.map((spec) => {
            const value = probe?.[spec.id];
            const unit = spec.kind === 'buffer' ? bufferUnit : spec.unit;
            const isSwitch = spec.kind === 'switch';
            return (
              <div key={spec.id}>
                <dt>{spec.label}</dt>
                <dd data-testid={`probe-${spec.id}`} data-value={value}>
                  {value === undefined ? '–' : isSwitch ? (switchOn(value) ? 'on' : 'off') : PROBE.format(value)}
                  {unit && !isSwitch && <span className="field-unit"> {unit}</span>}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
      {entry && entry.params.length === 0 && <p className="hint">{entry.name} has no parameters besides the buffer size.</p>}
      {entry && entry.params.length > 0 && (
        <fieldset className="params" data-testid="scheme-params" disabled={!ready} aria-busy={!ready}>
          {/* A control shows the engine's value, so it waits until the run that has one is built. */}
          {entry.params.flatMap((spec) => {
            const value = params[spec.id];
            if (value === undefined) return [];
            return (
              <ParamControl
                key={`${entry.id}.${spec.id}`}
                spec={spec}
                value={value}
                sliderMax={spec.kind === 'buffer' ? Math.max(bufferCapacity, value) : undefined}
                onChange={(value) =>
                  onParam(spec.id, value).catch((reason: unknown) => {
                    // The engine names the field by its path; say which parameter that is.
                    if (reason instanceof EngineRefusal && reason.problem) throw new Error(describeParamProblem(reason.problem, entry.params));
                    throw reason;
                  })
                }
              />
            );
          })}
        </fieldset>
      )}
    </section>
  );
}
