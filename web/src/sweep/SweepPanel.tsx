// "Sweep": run the current experiment with one field set to each of several
// values, under seeds 1…N, in a pool of workers beside the live run, and
// plot a summary metric against the value. The runs are exactly those of
// `aqm-sim sweep` on the same scenario file (the panel shows the command),
// and the table exports in the CLI's CSV and JSON formats.

import { useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import type { WorkEstimate } from '../engine/client';
import { paramProblem } from '../scenario/paramNames';
import type { CatalogueEntry, ResolvedPlan, Scenario, ScenarioProblem } from '../scenario/types';
import { SelectField } from '../controls/EditorFields';
import { INITIAL_SWEEP_FORM, pickedField, sweepFormReducer, sweepRequest } from './form';
import { MAX_RUNS, aggregate, sweepMetrics, sweepableFields, type SweepPoint, type SweepRequest } from './model';
import { SweepCancelled, SweepPool } from './pool';
import { SweepFields, SweepProblems } from './SweepFields';
import { SweepResults } from './SweepResults';
import { unitSuffix, type SweepResult, type SweepStatus } from './sweepState';
import './sweep.css';

interface SweepPanelProps {
  /** The running experiment with its current parameter values: what gets swept. */
  scenario: Scenario;
  /** The engine's plan of `scenario` (null before one is loaded): each group's size. */
  plan: ResolvedPlan | null;
  scheme: CatalogueEntry | undefined;
}

const SECONDS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function SweepPanel({ scenario, plan, scheme }: SweepPanelProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const paramRef = useRef<HTMLSelectElement>(null);
  const poolRef = useRef<SweepPool | null>(null);
  const cancelRef = useRef<(() => void) | null>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const fields = useMemo(() => sweepableFields(scenario, scheme, plan), [scenario, scheme, plan]);
  const [form, dispatch] = useReducer(sweepFormReducer, INITIAL_SWEEP_FORM);
  const field = pickedField(form, fields);
  const { seedCount } = form;
  const [problem, setProblem] = useState<ScenarioProblem | undefined>(undefined);
  const [work, setWork] = useState<WorkEstimate | undefined>(undefined);
  const [checking, setChecking] = useState(false);
  const [status, setStatus] = useState<SweepStatus>({ kind: 'idle' });
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
        (error: unknown) => current && !(error instanceof SweepCancelled) && setProblem({ path: '', message: String(error), kind: 'engine' }),
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
  const namedProblem = engineProblem && paramProblem(engineProblem, scheme?.params ?? []);
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
              <SweepFields fields={fields} field={field} form={form} dispatch={dispatch} disabled={running} paramRef={paramRef} fieldError={fieldError} />
              <div className="field-row">
                <SelectField
                  label="plot"
                  value={metric.id}
                  choices={metrics.map((m) => ({ value: m.id, label: m.label + unitSuffix(m.unit) }))}
                  onChange={(id) => dispatch({ type: 'metric', id })}
                  testId="sweep-metric"
                />
              </div>
              <p className="sweep-hint">
                Seeds 1…{seedCount && seedCount > 0 ? seedCount : 'N'} replace the scenario&apos;s seed, as in <code>aqm-sim sweep</code>. At most {MAX_RUNS}{' '}
                runs.
              </p>
              <SweepProblems engineProblem={engineProblem} namedProblem={namedProblem} localProblem={localProblem} work={overLimit ? work : undefined} />
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

            <SweepResults result={result} status={status} metric={metric} aggregates={aggregates} finishedPoints={finishedPoints} />
          </div>
        )}
      </dialog>
    </>
  );
}
