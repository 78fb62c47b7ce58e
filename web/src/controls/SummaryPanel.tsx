// The run's summary over the measurement window (the numbers `aqm-sim run`
// prints), updated a few times per second.

import type { Summary } from '../scenario/types';

interface SummaryPanelProps {
  summary: Summary | undefined;
  measureFromS: number;
}

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

function Stat({ label, value, unit, testId, wide }: { label: string; value: string; unit?: string; testId: string; wide?: boolean }) {
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

export function SummaryPanel({ summary, measureFromS }: SummaryPanelProps) {
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
          over {NUMBER.format(summary.window_s)} s from t = {measureFromS} s
        </span>
      </h2>
      <dl>
        <Stat label="goodput" value={NUMBER.format(summary.aggregate_goodput_bps / 1e6)} unit="Mb/s" testId="summary-goodput" />
        <Stat label="utilisation" value={NUMBER.format(summary.utilization * 100)} unit="%" testId="summary-utilization" />
        <Stat label="mean queue" value={NUMBER.format(summary.queue.mean_packets)} unit="packets" testId="summary-queue" />
        <Stat label="mean delay" value={NUMBER.format(summary.queue.mean_delay_ms)} unit="ms" testId="summary-delay" />
        <Stat label="p99 delay" value={NUMBER.format(summary.queue.p99_delay_ms)} unit="ms" testId="summary-p99" />
        <Stat
          label="drops"
          value={`${drops.total}`}
          unit={`(early ${drops.by_reason.early}, forced ${drops.by_reason.forced}, overflow ${drops.by_reason.overflow})`}
          testId="summary-drops"
          wide
        />
        <Stat label="marks" value={`${summary.marks}`} testId="summary-marks" />
        <Stat
          label="Jain fairness"
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
    </section>
  );
}
