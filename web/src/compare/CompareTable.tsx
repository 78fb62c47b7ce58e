// The key numbers of the two runs side by side, the better value of each
// row highlighted and the reason it counts as better spelled out.

import type { LiveSummary } from '../engine/client';
import { RELATIVE_MARGIN, compareSummaries, type MetricRow } from './comparison';

interface CompareTableProps {
  nameA: string;
  nameB: string;
  summaryA: LiveSummary | undefined;
  summaryB: LiveSummary | undefined;
  measureFromS: number;
}

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

function Cell({ row, side }: { row: MetricRow; side: 'a' | 'b' }) {
  const value = row[side];
  const better = row.winner === side;
  return (
    <td className={better ? 'compare-better' : undefined} data-testid={`compare-${row.id}-${side}`} data-better={better}>
      {value === null ? '–' : NUMBER.format(value)}
      {value !== null && row.unit && <span className="stat-unit"> {row.unit}</span>}
      {better && <span className="visually-hidden"> (better)</span>}
    </td>
  );
}

export function CompareTable({ nameA, nameB, summaryA, summaryB, measureFromS }: CompareTableProps) {
  const ready = summaryA && summaryB && summaryA.window_s > 0 && summaryB.window_s > 0;
  const rows = ready ? compareSummaries(summaryA, summaryB) : [];
  return (
    <section className="summary compare-summary" aria-label="Comparison summary" data-testid="compare-table">
      <h2>
        {nameA} vs {nameB}{' '}
        <span className="hint">
          {ready
            ? `over ${NUMBER.format(Math.min(summaryA.window_s, summaryB.window_s))} s from t = ${measureFromS} s`
            : `the numbers cover the measurement window, which starts at t = ${measureFromS} s`}
        </span>
      </h2>
      {ready && (
        <table className="compare-table">
          <caption className="visually-hidden">
            Key numbers of {nameA} and {nameB} on the same scenario and seed; the better value of each row is marked.
          </caption>
          <thead>
            <tr>
              <th scope="col">metric</th>
              <th scope="col" data-testid="compare-name-a">
                {nameA}
              </th>
              <th scope="col" data-testid="compare-name-b">
                {nameB}
              </th>
              <th scope="col">better is…</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid={`compare-row-${row.id}`}>
                <th scope="row">{row.label}</th>
                <Cell row={row} side="a" />
                <Cell row={row} side="b" />
                <td className="compare-reason">{row.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {ready && (
        <p className="hint">Highlighted: the better value, when the two differ by more than {RELATIVE_MARGIN * 100}%; smaller differences are not called.</p>
      )}
    </section>
  );
}
