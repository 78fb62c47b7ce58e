// "Sweep": run the current experiment with one field set to each of several
// values, under seeds 1…N, in a pool of workers beside the live run, and
// plot a summary metric against the value. The runs are exactly those of
// `aqm-sim sweep` on the same scenario file (the panel shows the command),
// and the table exports in the CLI's CSV and JSON formats.

import { useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { NumberField } from '../controls/NumberField';
import type { WorkEstimate } from '../engine/client';
import { exportFileName, scenarioToJson } from '../export/documents';
import { downloadText } from '../export/download';
import { paramProblem } from '../scenario/paramNames';
import type { CatalogueEntry, Scenario, ScenarioProblem } from '../scenario/types';
import { INITIAL_SWEEP_FORM, pickedField, rangeFor, sweepFormReducer, sweepRequest } from './form';
import {
  MAX_RUNS,
  aggregate,
  cliCommand,
  sweepMetrics,
  sweepToCsv,
  sweepToJson,
  sweepableFields,
  type SweepField,
  type SweepPoint,
  type SweepRequest,
} from './model';
import { SweepCancelled, SweepPool } from './pool';
import { SweepChart } from './SweepChart';
import './sweep.css';

interface SweepPanelProps {
  /** The running experiment with its current parameter values: what gets swept. */
  scenario: Scenario;
  scheme: CatalogueEntry | undefined;
}

type Status = { kind: 'idle' } | { kind: 'running' } | { kind: 'finished'; wallS: number } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/** A sweep started from the panel: what ran, and the points so far in the CLI's row order. */
interface SweepResult {
  request: SweepRequest;
  field: SweepField;
  scenario: Scenario;
  points: (SweepPoint | undefined)[];
  done: number;
}

const CHART_HEIGHT = 340;
const SECONDS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const EVENTS = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function unitSuffix(unit: string): string {
  return unit ? ` (${unit})` : '';
}

export function SweepPanel({ scenario, scheme }: SweepPanelProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const paramRef = useRef<HTMLSelectElement>(null);
  const poolRef = useRef<SweepPool | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const fields = useMemo(() => sweepableFields(scenario, scheme), [scenario, scheme]);
  const [form, dispatch] = useReducer(sweepFormReducer, INITIAL_SWEEP_FORM);
  const field = pickedField(form, fields);
  const { mode, count, listText, seedCount } = form;
  const { from, to } = field ? rangeFor(form, field) : { from: undefined, to: undefined };
  const [problem, setProblem] = useState<ScenarioProblem | undefined>(undefined);
  const [work, setWork] = useState<WorkEstimate | undefined>(undefined);
  const [checking, setChecking] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [result, setResult] = useState<SweepResult | null>(null);
  const running = status.kind === 'running';

  const pool = () => (poolRef.current ??= new SweepPool());
  useEffect(() => () => poolRef.current?.dispose(), []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // Start at the first setting rather than at the Close button.
      paramRef.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const scenarioJson = useMemo(() => JSON.stringify(scenario), [scenario]);
  const request = sweepRequest(form, field);
  const requestKey = request.ok ? JSON.stringify(request.value) : '';

  // The engine checks every run before any starts, so a value it refuses is named here, not halfway through.
  useEffect(() => {
    if (!open || !requestKey || running) return;
    let current = true;
    setChecking(true);
    pool()
      .check(scenarioJson, JSON.parse(requestKey) as SweepRequest)
      .then(
        (next) => {
          if (!current) return;
          setProblem(next.problem);
          setWork(next.work);
        },
        (error: unknown) => current && !(error instanceof SweepCancelled) && setProblem({ path: '', message: String(error) }),
      )
      .finally(() => current && setChecking(false));
    return () => {
      current = false;
    };
  }, [open, requestKey, scenarioJson, running]);

  const localProblem = request.ok ? undefined : request;
  const fieldError = (name: string) => (localProblem?.field === name ? localProblem.message : undefined);
  const engineProblem = request.ok ? problem : undefined;
  // A scheme parameter's problem names it as its slider does.
  const namedProblem = engineProblem && paramProblem(`${engineProblem.path}: ${engineProblem.message}`, scheme?.params ?? []);
  const canRun = request.ok && !engineProblem && !checking && !running;
  // As `aqm-sim sweep` refuses beyond the limit without --force, the page says so and asks.
  const overLimit = canRun && work !== undefined && work.events > work.limit;

  const start = () => {
    if (!request.ok || !field) return;
    const sweep = request.value;
    const total = sweep.values.length * sweep.seedCount;
    const swept: SweepResult = { request: sweep, field, scenario, points: new Array<SweepPoint | undefined>(total).fill(undefined), done: 0 };
    setResult(swept);
    const startedMs = performance.now();
    setStatus({ kind: 'running' });
    const task = pool().run(scenarioJson, sweep, (run, point) => {
      setResult((was) => {
        if (!was || was.request !== sweep) return was;
        const points = [...was.points];
        points[run.index] = point;
        return { ...was, points, done: was.done + 1 };
      });
    });
    cancelRef.current = task.cancel;
    task.finished.then(
      () => setStatus({ kind: 'finished', wallS: (performance.now() - startedMs) / 1000 }),
      (error: unknown) =>
        setStatus(
          error instanceof SweepCancelled ? { kind: 'cancelled' } : { kind: 'failed', message: error instanceof Error ? error.message : String(error) },
        ),
    );
  };

  const cancel = () => {
    cancelRef.current?.();
    cancelRef.current = null;
  };

  const metrics = useMemo(() => sweepMetrics(result?.scenario ?? scenario), [result, scenario]);
  const metric = metrics.find((m) => m.id === form.metricId) ?? metrics[0];
  const finishedPoints = useMemo(() => (result ? result.points.filter((p): p is SweepPoint => p !== undefined) : []), [result]);
  const aggregates = useMemo(() => aggregate(finishedPoints, metric), [finishedPoints, metric]);
  const total = result ? result.points.length : 0;
  const done = result?.done ?? 0;
  const sweptField = result?.field;
  const xLabel = sweptField ? `${sweptField.label}${unitSuffix(sweptField.unit)}` : '';
  const fileStem = sweptField ? `sweep-${sweptField.path.replace(/[^a-z0-9]+/gi, '-')}` : 'sweep';
  const scenarioFile = exportFileName(result?.scenario.name, `${fileStem}-scenario`, 'json');
  const runsNow = request.ok ? request.value.values.length * request.value.seedCount : undefined;

  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="open-sweep">
        {running ? `Sweep ${done} / ${total}` : 'Sweep'}
      </button>
      <dialog ref={dialogRef} className="sweep-dialog" aria-labelledby={titleId} onClose={() => setOpen(false)} data-testid="sweep-dialog">
        {open && (
          <div className="sweep-layout">
            <form
              className="sweep-form"
              aria-label="Sweep settings"
              onSubmit={(event) => {
                event.preventDefault();
                if (canRun) start();
              }}
            >
              <div className="sweep-title">
                <h2 id={titleId}>Parameter sweep</h2>
                <button type="button" onClick={() => setOpen(false)} data-testid="sweep-close">
                  Close
                </button>
              </div>
              <p className="sweep-hint">
                Runs <strong>{scenario.name || 'the current experiment'}</strong> to its end ({SECONDS.format(scenario.duration_s)} s simulated) for each value
                and seed, in the background.
              </p>
              <fieldset className="sweep-fields" disabled={running}>
                <label className="field wide">
                  <span className="field-label">parameter</span>
                  <select
                    ref={paramRef}
                    value={field?.path ?? ''}
                    onChange={(event) => dispatch({ type: 'pick', path: event.target.value })}
                    data-testid="sweep-param"
                  >
                    {[...new Set(fields.map((f) => f.group))].map((group) => (
                      <optgroup key={group} label={group}>
                        {fields
                          .filter((f) => f.group === group)
                          .map((f) => (
                            <option key={f.path} value={f.path}>
                              {f.label}
                              {unitSuffix(f.unit)}
                            </option>
                          ))}
                      </optgroup>
                    ))}
                  </select>
                  {field && (
                    <span className="sweep-hint">
                      <code>{field.path}</code>
                      {field.current !== undefined && <>, now {SECONDS.format(field.current / field.scale)}</>}
                    </span>
                  )}
                </label>

                <fieldset className="sweep-mode">
                  <legend className="field-label">values</legend>
                  <label>
                    <input
                      type="radio"
                      name="sweep-mode"
                      checked={mode === 'range'}
                      onChange={() => dispatch({ type: 'mode', mode: 'range' })}
                      data-testid="sweep-mode-range"
                    />{' '}
                    evenly spaced
                  </label>
                  <label>
                    <input
                      type="radio"
                      name="sweep-mode"
                      checked={mode === 'list'}
                      onChange={() => dispatch({ type: 'mode', mode: 'list' })}
                      data-testid="sweep-mode-list"
                    />{' '}
                    a list
                  </label>
                </fieldset>
                {mode === 'range' ? (
                  <div className="field-row">
                    <NumberField
                      label="from"
                      unit={field?.unit}
                      value={from}
                      onChange={(value) => field && dispatch({ type: 'from', field, value })}
                      error={fieldError('from')}
                      testId="sweep-from"
                    />
                    <NumberField
                      label="to"
                      unit={field?.unit}
                      value={to}
                      onChange={(value) => field && dispatch({ type: 'to', field, value })}
                      error={fieldError('to')}
                      testId="sweep-to"
                    />
                    <NumberField
                      label="values"
                      integer
                      value={count}
                      onChange={(value) => dispatch({ type: 'count', value })}
                      error={fieldError('values')}
                      testId="sweep-count"
                    />
                  </div>
                ) : (
                  <label className={`field wide${fieldError('values') ? ' field-invalid' : ''}`}>
                    <span className="field-label">values{field?.unit ? <span className="field-unit"> ({field.unit})</span> : null}, separated by commas</span>
                    <input
                      type="text"
                      value={listText}
                      placeholder="0.02, 0.05, 0.1"
                      onChange={(event) => dispatch({ type: 'list', text: event.target.value })}
                      aria-invalid={fieldError('values') ? true : undefined}
                      data-testid="sweep-values"
                    />
                    {fieldError('values') && (
                      <span className="field-error" role="alert">
                        {fieldError('values')}
                      </span>
                    )}
                  </label>
                )}
                <div className="field-row">
                  <NumberField
                    label="seeds"
                    integer
                    value={seedCount}
                    onChange={(value) => dispatch({ type: 'seeds', value })}
                    error={fieldError('seeds')}
                    testId="sweep-seeds"
                  />
                </div>
              </fieldset>
              <div className="field-row">
                <label className="field">
                  <span className="field-label">plot</span>
                  <select value={metric.id} onChange={(event) => dispatch({ type: 'metric', id: event.target.value })} data-testid="sweep-metric">
                    {metrics.map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.label}
                        {unitSuffix(m.unit)}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <p className="sweep-hint">
                Seeds 1…{seedCount && seedCount > 0 ? seedCount : 'N'} replace the scenario&apos;s seed, as in <code>aqm-sim sweep</code>. At most {MAX_RUNS}{' '}
                runs.
              </p>
              {engineProblem && (
                <p className="problem-banner" role="alert" data-testid="sweep-problem">
                  {namedProblem ? (
                    <>
                      {namedProblem.name}: {namedProblem.message} [<code>{namedProblem.path}</code>]
                    </>
                  ) : (
                    <>
                      {engineProblem.path ? <code>{engineProblem.path}</code> : null}
                      {engineProblem.path ? ': ' : ''}
                      {engineProblem.message}
                    </>
                  )}
                </p>
              )}
              {localProblem && !['from', 'to', 'values', 'seeds'].includes(localProblem.field) && (
                <p className="problem-banner" role="alert" data-testid="sweep-problem">
                  {localProblem.field}: {localProblem.message}
                </p>
              )}
              {overLimit && (
                <p className="sweep-work-warning" role="status" data-testid="sweep-work-warning">
                  These runs would take about {EVENTS.format(work.events)} engine events in all, beyond the {EVENTS.format(work.limit)} that{' '}
                  <code>aqm-sim sweep</code> runs without <code>--force</code>: many minutes here. The page stays usable and Cancel stops the sweep; fewer
                  values or seeds, or a shorter duration, give an answer sooner.
                </p>
              )}
              <div className="sweep-actions">
                <button type="submit" className="primary" disabled={!canRun} data-testid="sweep-run">
                  {`Run sweep${overLimit ? ' anyway' : ''}`}
                  {runsNow === undefined ? '' : ` (${runsNow} ${runsNow === 1 ? 'run' : 'runs'})`}
                </button>
                <button type="button" onClick={cancel} disabled={!running} data-testid="sweep-cancel">
                  Cancel
                </button>
              </div>
            </form>

            <section className="sweep-results" aria-label="Sweep results">
              <div className="sweep-progress" hidden={!result}>
                <progress
                  max={Math.max(1, total)}
                  value={done}
                  aria-label="Sweep progress"
                  aria-valuetext={`${done} of ${total} runs`}
                  data-testid="sweep-progress"
                  data-done={done}
                  data-total={total}
                />
                <span className="sweep-progress-text" role="status" data-testid="sweep-progress-text">
                  {`${done} / ${total} runs`}
                  {status.kind === 'running' && ' · running'}
                  {status.kind === 'finished' && ` · done in ${SECONDS.format(status.wallS)} s`}
                  {status.kind === 'cancelled' && ' · cancelled'}
                </span>
              </div>
              {status.kind === 'failed' && (
                <p className="problem-banner" role="alert" data-testid="sweep-failed">
                  The sweep stopped: {status.message}
                </p>
              )}
              {result && sweptField ? (
                <>
                  <SweepChart
                    title={`${metric.label} vs ${sweptField.label}`}
                    aggregates={aggregates}
                    xLabel={xLabel}
                    xScale={sweptField.scale}
                    yLabel={`${metric.label}${unitSuffix(metric.unit)}`}
                    yUnit={metric.unit}
                    fromZero={metric.fromZero}
                    height={CHART_HEIGHT}
                  />
                  <div className="sweep-exports">
                    <span className="field-label">Export the runs{done < total ? ` finished so far (${done})` : ''}:</span>
                    <button
                      type="button"
                      disabled={!finishedPoints.length}
                      onClick={() => downloadText(sweepToCsv(finishedPoints), exportFileName(result.scenario.name, fileStem, 'csv'), 'text/csv')}
                      data-testid="sweep-export-csv"
                    >
                      CSV
                    </button>
                    <button
                      type="button"
                      disabled={!finishedPoints.length}
                      onClick={() => downloadText(sweepToJson(finishedPoints), exportFileName(result.scenario.name, fileStem, 'json'), 'application/json')}
                      data-testid="sweep-export-json"
                    >
                      JSON
                    </button>
                    <button
                      type="button"
                      onClick={() => downloadText(scenarioToJson(result.scenario), scenarioFile, 'application/json')}
                      data-testid="sweep-export-scenario"
                    >
                      Scenario
                    </button>
                  </div>
                  <p className="sweep-hint">
                    The same sweep from the command line, on the scenario file:{' '}
                    <code data-testid="sweep-command">{cliCommand(scenarioFile, result.request)}</code>
                  </p>
                </>
              ) : (
                <p className="sweep-empty">Pick a parameter and its values, then run the sweep: each point of the chart is the mean over the seeds.</p>
              )}
            </section>
          </div>
        )}
      </dialog>
    </>
  );
}
