// The run's summary over the measurement window (the numbers `aqm-sim run`
// prints), updated a few times per second.

import type { ReactNode } from 'react';
import { Term } from '../glossary/Term';
import type { LiveSummary } from '../engine/client';
import { hostShares, isolatesHosts } from '../scenario/hosts';
import type { Scenario } from '../scenario/types';
import { HostTable } from './HostTable';

interface SummaryPanelProps {
  summary: LiveSummary | undefined;
  measureFromS: number;
  /** The scenario run, when the page knows it: a scheme that isolates hosts adds their shares. */
  scenario?: Scenario;
}

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

function Stat({ label, value, unit, testId, wide }: { label: ReactNode; value: string; unit?: string; testId: string; wide?: boolean }) {
  return (
    <div className={wide ? 'stat stat-wide' : 'stat'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {value}
        {unit && <span className="stat-unit"> {unit}</span>}
      </dd>
    </div>
  );
}

export function SummaryPanel({ summary, measureFromS, scenario }: SummaryPanelProps) {
  if (!summary || summary.window_s <= 0) {
    return (
      <section className="summary" aria-label="Summary" data-testid="summary">
        <h2>Summary</h2>
        <p className="hint">Statistics cover the measurement window, which starts at t = {measureFromS} s.</p>
      </section>
    );
  }
  const drops = summary.drops;
  return (
    <section className="summary" aria-label="Summary" data-testid="summary">
      <h2>
        Summary{' '}
        <span className="hint">
          over {NUMBER.format(summary.window_s)} s from t = {measureFromS} s (<Term id="measurement-window">measurement window</Term>)
        </span>
      </h2>
      <dl>
        <Stat label={<Term id="goodput">goodput</Term>} value={NUMBER.format(summary.aggregate_goodput_bps / 1e6)} unit="Mb/s" testId="summary-goodput" />
        <Stat label={<Term id="utilisation">utilisation</Term>} value={NUMBER.format(summary.utilization * 100)} unit="%" testId="summary-utilization" />
        <Stat label="mean queue" value={NUMBER.format(summary.queue.mean_packets)} unit="packets" testId="summary-queue" />
        <Stat label={<Term id="queueing-delay">mean delay</Term>} value={NUMBER.format(summary.queue.mean_delay_ms)} unit="ms" testId="summary-delay" />
        <Stat label={<Term id="p99">p99 delay</Term>} value={NUMBER.format(summary.queue.p99_delay_ms)} unit="ms" testId="summary-p99" />
        <Stat
          label={<Term id="drop-reasons">drops</Term>}
          value={`${drops.total}`}
          unit={`(early ${drops.by_reason.early}, forced ${drops.by_reason.forced}, overflow ${drops.by_reason.overflow})`}
          testId="summary-drops"
          wide
        />
        {summary.host_drops > 0 && (
          // Only sources faster than their access link have any: shown apart, they are not the queue's drops.
          <Stat label="host drops" value={`${summary.host_drops}`} unit="(at the senders)" testId="summary-host-drops" />
        )}
        <Stat label={<Term id="ecn">marks</Term>} value={`${summary.marks}`} testId="summary-marks" />
        <Stat
          label={<Term id="jain">Jain fairness</Term>}
          // Undefined while every flow's goodput is zero: no share to compare.
          value={summary.fairness.jain_all === null ? '–' : NUMBER.format(summary.fairness.jain_all)}
          testId="summary-jain"
        />
        {summary.web && (
          <>
            <Stat label="web transfers done" value={`${summary.web.completed}`} testId="summary-web-completed" />
            <Stat label="mean transfer time" value={NUMBER.format(summary.web.mean_fct_ms)} unit="ms" testId="summary-web-mean" />
            <Stat label="p99 transfer time" value={NUMBER.format(summary.web.p99_fct_ms)} unit="ms" testId="summary-web-p99" />
          </>
        )}
      </dl>
      {summary.groups.length > 0 && <GroupTable summary={summary} />}
      {scenario && isolatesHosts(scenario) && summary.groups.length > 0 && <HostTable shares={hostShares(scenario, summary)} />}
      <PercentileTable summary={summary} />
    </section>
  );
}

/** Per flow group: what it got against its max-min fair share, how evenly, and how smoothly. */
function GroupTable({ summary }: { summary: LiveSummary }) {
  const rate = (bps: number) => NUMBER.format(bps / 1e6);
  const optional = (value: number | null) => (value === null ? '–' : NUMBER.format(value));
  return (
    <table className="group-table" data-testid="summary-groups">
      <caption className="visually-hidden">Goodput per flow group over the measurement window</caption>
      <thead>
        <tr>
          <th scope="col">group</th>
          <th scope="col">flows</th>
          <th scope="col" title="Total goodput of the group's flows">
            goodput (Mb/s)
          </th>
          <th scope="col" title="Mean goodput per flow, against the mean max-min fair share of its flows">
            per flow / fair share (Mb/s)
          </th>
          <th scope="col" title="Jain's index over the group's flows (1 = equal)">
            <Term id="jain">Jain</Term>
          </th>
          <th scope="col" title="Mean coefficient of variation of each flow's goodput over time (Cho & Cho 2002 eq. 12): lower is smoother">
            <Term id="cov">CoV</Term>
          </th>
        </tr>
      </thead>
      <tbody>
        {summary.groups.map((group) => (
          <tr key={group.group} data-testid={`summary-group-${group.group}`}>
            <th scope="row">{group.label || group.kind}</th>
            <td>{group.flows}</td>
            <td>{rate(group.total_goodput_bps)}</td>
            <td>
              {rate(group.mean_goodput_bps)} / {rate(group.mean_fair_share_bps)}
            </td>
            <td>{optional(group.jain)}</td>
            <td>{optional(group.mean_cov)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Percentiles = NonNullable<LiveSummary['hops'][number]['sojourn_percentiles_ms']>;

/** The delay distributions' percentiles: each hop's queue sojourn, and each group's sojourn and (TCP and ping) RTT. */
function PercentileTable({ summary }: { summary: LiveSummary }) {
  const rows: { id: string; what: ReactNode; p: Percentiles | null }[] = [
    ...summary.hops.map((hop) => ({ id: `hop-${hop.hop}`, what: `sojourn at hop ${hop.hop}`, p: hop.sojourn_percentiles_ms })),
    ...summary.groups.flatMap((group) => [
      { id: `group-${group.group}`, what: `sojourn of ${group.label || group.kind}`, p: group.sojourn_percentiles_ms },
      ...(group.rtt_percentiles_ms === undefined
        ? []
        : [{ id: `rtt-${group.group}`, what: `RTT of ${group.label || group.kind}`, p: group.rtt_percentiles_ms }]),
    ]),
  ];
  const ms = (value: number | undefined) => (value === undefined ? '–' : NUMBER.format(value));
  return (
    <table className="group-table" data-testid="summary-percentiles">
      <caption>
        <Term id="percentile">Percentiles</Term> of delay (ms): <Term id="sojourn-time">sojourn time</Term> per hop and group, <Term id="rtt">RTT</Term> per TCP
        and ping group
      </caption>
      <thead>
        <tr>
          <th scope="col">distribution</th>
          <th scope="col">p50</th>
          <th scope="col">p90</th>
          <th scope="col">p99</th>
          <th scope="col" title="99.9th percentile: one packet or sample in a thousand waited longer">
            p99.9
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={`summary-percentiles-${row.id}`}>
            <th scope="row">{row.what}</th>
            <td>{ms(row.p?.p50)}</td>
            <td>{ms(row.p?.p90)}</td>
            <td>{ms(row.p?.p99)}</td>
            <td>{ms(row.p?.p999)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
