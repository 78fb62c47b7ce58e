// The sweep dialog's results: progress, the chart of a metric against the
// swept value (mean over seeds), and the exports in the CLI's formats with
// the matching command line.

import { exportFileName, scenarioToJson } from '../export/documents';
import { downloadText } from '../export/download';
import { cliCommand, sweepToCsv, sweepToJson, type SweepMetric, type SweepPoint } from './model';
import type { SweepAggregate } from './model';
import { SweepChart } from './SweepChart';
import { unitSuffix, type SweepResult, type SweepStatus } from './sweepState';

const CHART_HEIGHT = 340;
const SECONDS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
/** The finished runs' two files: the CLI's CSV of key metrics and its JSON of full summaries. */
const RUN_FILES = [
  { label: 'CSV', extension: 'csv', mime: 'text/csv', text: sweepToCsv },
  { label: 'JSON', extension: 'json', mime: 'application/json', text: sweepToJson },
] as const;

interface SweepResultsProps {
  result: SweepResult | null;
  status: SweepStatus;
  metric: SweepMetric;
  aggregates: SweepAggregate[];
  finishedPoints: SweepPoint[];
}

export function SweepResults({ result, status, metric, aggregates, finishedPoints }: SweepResultsProps) {
  const total = result ? result.points.length : 0;
  const done = result?.done ?? 0;
  const sweptField = result?.field;
  const xLabel = sweptField ? `${sweptField.label}${unitSuffix(sweptField.unit)}` : '';
  const fileStem = sweptField ? `sweep-${sweptField.path.replace(/[^a-z0-9]+/gi, '-')}` : 'sweep';
  const scenarioFile = exportFileName(result?.scenario.name, `${fileStem}-scenario`, 'json');
  return (
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
            {RUN_FILES.map(({ label, extension, mime, text }) => (
              <button
                key={extension}
                type="button"
                disabled={!finishedPoints.length}
                onClick={() => downloadText(text(finishedPoints), exportFileName(result.scenario.name, fileStem, extension), mime)}
                data-testid={`sweep-export-${extension}`}
              >
                {label}
              </button>
            ))}
            <button
              type="button"
              onClick={() => downloadText(scenarioToJson(result.scenario), scenarioFile, 'application/json')}
              data-testid="sweep-export-scenario"
            >
              Scenario
            </button>
          </div>
          <p className="sweep-hint">
            The same sweep from the command line, on the scenario file: <code data-testid="sweep-command">{cliCommand(scenarioFile, result.request)}</code>
          </p>
        </>
      ) : (
        <p className="sweep-empty">Pick a parameter and its values, then run the sweep: each point of the chart is the mean over the seeds.</p>
      )}
    </section>
  );
}
