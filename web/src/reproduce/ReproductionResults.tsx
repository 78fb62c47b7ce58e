// Paper against lab for the open reproduction: the page runs every run the
// reproduction needs (each seed of its main, compare and ablation runs) at
// full speed in the engine, with a progress bar, and the engine judges every
// claim with the same function as `aqm-sim reproduce`.

import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { AblationResult, ClaimResult, Tolerance } from '../engine/pkg/aqm_core';
import { compareRuns, describeMetric, type Reproduction } from './reproductions';
import './reproduce.css';

interface ReproductionResultsProps {
  engine: EngineClient;
  reproduction: Reproduction;
}

type Judged = { kind: 'running'; done: number; total: number } | { kind: 'judged'; rows: ClaimResult[] } | { kind: 'failed'; message: string };

export function ReproductionResults({ engine, reproduction }: ReproductionResultsProps) {
  const [judged, setJudged] = useState<Judged>({ kind: 'running', done: 0, total: 0 });

  useEffect(() => {
    let current = true;
    setJudged({ kind: 'running', done: 0, total: 0 });
    const run = async () => {
      const runs = await engine.reproductionRuns(reproduction.json, JSON.stringify(reproduction.scenario));
      const summaries: string[] = [];
      for (const scenarioJson of runs) {
        if (!current) return;
        setJudged({ kind: 'running', done: summaries.length, total: runs.length });
        summaries.push(await engine.runToEnd(scenarioJson));
      }
      const rows = await engine.judge(reproduction.json, summaries);
      if (current) setJudged({ kind: 'judged', rows });
    };
    run().catch((error: unknown) => current && setJudged({ kind: 'failed', message: String(error) }));
    return () => {
      current = false;
    };
  }, [engine, reproduction]);

  const schemes = [reproduction.scenario.queue.scheme, ...compareRuns(reproduction.file).map((c) => c.scheme)];
  return (
    <section className="reproduce-results" aria-label="Paper against lab" aria-live="polite" data-testid="reproduce-results">
      <h2>{reproduction.file.paper}: paper against lab</h2>
      <p className="reproduce-experiment">{reproduction.file.experiment}</p>
      {judged.kind === 'running' && (
        <div data-testid="reproduce-waiting">
          <p>
            Running every seed of the experiment{compareRuns(reproduction.file).length > 0 && ', its compare runs'} and the ablations that test each divergence
            at full speed: {judged.done} of {judged.total || '…'} runs done.
          </p>
          <progress className="reproduce-progress" value={judged.done} max={judged.total || 1} data-testid="reproduce-progress" />
        </div>
      )}
      {judged.kind === 'failed' && <p role="alert">{judged.message}</p>}
      {judged.kind === 'judged' && <ResultsTable rows={judged.rows} schemes={schemes} />}
    </section>
  );
}

function ResultsTable({ rows, schemes }: { rows: readonly ClaimResult[]; schemes: readonly string[] }) {
  const count = (v: ClaimResult['verdict']) => rows.filter((r) => r.verdict === v).length;
  return (
    <>
      <p data-testid="reproduce-tally">
        {count('reproduced')} reproduced, {count('diverges')} diverge, {count('inconclusive')} inconclusive, of {rows.length} claims, each judged on the 95%
        interval over {rows[0]?.seeds ?? 0} seeds.
      </p>
      <table className="reproduce-table" data-testid="reproduce-table">
        <thead>
          <tr>
            <th scope="col">Claim</th>
            <th scope="col">Paper</th>
            <th scope="col">Lab: mean [95% interval]</th>
            <th scope="col">Verdict</th>
            <th scope="col">Why, and what changes the result</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid={`claim-${r.id}`} data-verdict={r.verdict}>
              <td>
                <span className="reproduce-figure">{r.figure}</span> {r.claim}
              </td>
              <td>
                <span data-testid="paper-value">{typeof r.paper_value === 'number' ? formatNumber(r.paper_value) : r.paper_value}</span>
                {r.paper_source && <span className="reproduce-note">{r.paper_source}</span>}
              </td>
              <td data-testid="measured" data-value={r.mean ?? undefined}>
                {formatInterval(r.mean, r.ci95)}
                <span className="reproduce-tolerance" data-testid="metric-words">
                  {describeMetric(r.metric, schemes)}; {describeTolerance(r.tolerance, r.than, schemes)}
                  {r.difference && <> (paired difference {formatInterval(r.difference.mean, r.difference.ci95)})</>}
                </span>
                {r.tolerance_basis && <span className="reproduce-note">{r.tolerance_basis}</span>}
              </td>
              <td className={`claim-verdict claim-verdict-${r.verdict}`} data-testid="verdict">
                {r.verdict}
              </td>
              <td className="reproduce-why">
                {r.explanation}
                {r.ablations.length > 0 && <Ablations ablations={r.ablations} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Ablations({ ablations }: { ablations: readonly AblationResult[] }) {
  return (
    <>
      <span className="reproduce-ablations-title">What changes the result:</span>
      <ul className="reproduce-ablations" aria-label="What changes the result">
        {ablations.map((a) => (
          <li key={a.id} data-testid={`ablation-${a.id}`}>
            <span className="reproduce-ablation-change">{a.change}:</span> {formatInterval(a.mean, a.ci95)}
            {a.difference && <>, paired difference {formatInterval(a.difference.mean, a.difference.ci95)}</>},{' '}
            <span className={`claim-verdict claim-verdict-${a.verdict}`}>{a.verdict}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Four significant digits (all of a whole number), no trailing zeros, as `aqm-sim reproduce` prints them. */
export function formatNumber(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(x))));
  const text = x.toFixed(digits);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** `mean [lo, hi]`, or n/a when a seed had no value. */
export function formatInterval(mean: number | null, ci95: [number, number] | null): string {
  if (mean === null || ci95 === null) return 'n/a';
  return `${formatNumber(mean)} [${formatNumber(ci95[0])}, ${formatNumber(ci95[1])}]`;
}

export function describeTolerance(tolerance: Tolerance, than: number | null, schemes: readonly string[]): string {
  const side = (op: number | string) =>
    typeof op === 'number' ? formatNumber(op) : `${describeMetric(op, schemes)}${than === null ? '' : ` (mean ${formatNumber(than)})`}`;
  if ('relative' in tolerance) return `within ±${formatNumber(tolerance.relative * 100)}% across the interval`;
  if ('absolute' in tolerance) return `within ±${formatNumber(tolerance.absolute)} across the interval`;
  if ('less_than' in tolerance) return `must be below ${side(tolerance.less_than)}`;
  return `must be above ${side(tolerance.greater_than)}`;
}
