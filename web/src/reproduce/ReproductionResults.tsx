// Paper against lab for the open reproduction: once its run (and its compare
// run) reach the end of the measurement window, the engine judges every claim
// with the same function as `aqm-sim reproduce`.

import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { ClaimResult, Summary, Tolerance } from '../engine/pkg/aqm_core';
import type { Reproduction } from './reproductions';
import './reproduce.css';

interface ReproductionResultsProps {
  engine: EngineClient;
  reproduction: Reproduction;
  /** The main run's summary once its measurement window has ended. */
  summary: Summary | undefined;
  /** The compare run's, when the reproduction has one. */
  compareSummary: Summary | undefined;
  durationS: number;
}

type Judged = { kind: 'waiting' } | { kind: 'judged'; rows: ClaimResult[] } | { kind: 'failed'; message: string };

export function ReproductionResults({ engine, reproduction, summary, compareSummary, durationS }: ReproductionResultsProps) {
  const [judged, setJudged] = useState<Judged>({ kind: 'waiting' });
  const ready = summary !== undefined && (reproduction.file.compare === undefined || compareSummary !== undefined);

  useEffect(() => {
    setJudged({ kind: 'waiting' });
    if (!ready) return;
    let current = true;
    engine
      .judge(reproduction.json, JSON.stringify(summary), compareSummary && JSON.stringify(compareSummary))
      .then((rows) => current && setJudged({ kind: 'judged', rows }))
      .catch((error: unknown) => current && setJudged({ kind: 'failed', message: String(error) }));
    return () => {
      current = false;
    };
  }, [engine, reproduction, summary, compareSummary, ready]);

  return (
    <section className="reproduce-results" aria-label="Paper against lab" aria-live="polite" data-testid="reproduce-results">
      <h2>{reproduction.file.paper}: paper against lab</h2>
      <p className="reproduce-experiment">{reproduction.file.experiment}</p>
      {judged.kind === 'waiting' && (
        <p data-testid="reproduce-waiting">
          The paper's values appear here when the run reaches the end of its measurement window at {durationS} s. Run it at full speed to see them sooner.
        </p>
      )}
      {judged.kind === 'failed' && <p role="alert">{judged.message}</p>}
      {judged.kind === 'judged' && <ResultsTable rows={judged.rows} />}
    </section>
  );
}

function ResultsTable({ rows }: { rows: readonly ClaimResult[] }) {
  const reproduced = rows.filter((r) => r.verdict === 'reproduced').length;
  return (
    <>
      <p data-testid="reproduce-tally">
        {reproduced} of {rows.length} claims reproduced.
      </p>
      <table className="reproduce-table" data-testid="reproduce-table">
        <thead>
          <tr>
            <th scope="col">Claim</th>
            <th scope="col">Paper</th>
            <th scope="col">Measured</th>
            <th scope="col">Verdict</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid={`claim-${r.id}`} data-verdict={r.verdict}>
              <td>
                <span className="reproduce-figure">{r.figure}</span> {r.claim}
              </td>
              <td data-testid="paper-value">{typeof r.paper_value === 'number' ? formatNumber(r.paper_value) : r.paper_value}</td>
              <td data-testid="measured" data-value={r.measured ?? undefined}>
                {r.measured === null ? 'n/a' : formatNumber(r.measured)}
                <span className="reproduce-tolerance">
                  {describeTolerance(r.tolerance, r.than)} · <code>{r.metric}</code>
                </span>
              </td>
              <td className={`claim-verdict claim-verdict-${r.verdict}`} data-testid="verdict">
                {r.verdict}
              </td>
              <td className="reproduce-why">{r.explanation}</td>
            </tr>
          ))}
        </tbody>
      </table>
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

export function describeTolerance(tolerance: Tolerance, than: number | null): string {
  const side = (op: number | string) => (typeof op === 'number' ? formatNumber(op) : than === null ? op : `${formatNumber(than)} (${op})`);
  if ('relative' in tolerance) return `within ±${formatNumber(tolerance.relative * 100)}%`;
  if ('absolute' in tolerance) return `within ±${formatNumber(tolerance.absolute)}`;
  if ('less_than' in tolerance) return `must be < ${side(tolerance.less_than)}`;
  return `must be > ${side(tolerance.greater_than)}`;
}
