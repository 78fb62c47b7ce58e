// The SVG and PNG download buttons the page puts in every chart's actions
// slot.

import { useState } from 'react';
import type { ChartHandle } from '../charts/chartActions';
import { chartToSvg, svgToPng } from './chartImage';
import { exportFileName } from './documents';
import { downloadBlob } from './download';

type ImageFormat = 'svg' | 'png';

export function ChartExportButtons({ chart }: { chart: ChartHandle }) {
  const [problem, setProblem] = useState('');
  const { title, testId } = chart;

  const save = async (format: ImageFormat) => {
    const svg = chart.svg();
    if (!svg) return;
    try {
      const image = chartToSvg(svg, title, chart.legend, chart.seriesPaths());
      downloadBlob(format === 'svg' ? new Blob([image.svg], { type: 'image/svg+xml' }) : await svgToPng(image), exportFileName(title, 'chart', format));
      setProblem('');
    } catch (reason) {
      setProblem(`${format.toUpperCase()} failed: ${reason instanceof Error ? reason.message : String(reason)}`);
    }
  };

  return (
    <span className="chart-export">
      {problem && (
        <span className="chart-export-problem" role="status">
          {problem}
        </span>
      )}
      {(['svg', 'png'] as const).map((format) => (
        <button
          key={format}
          type="button"
          onClick={() => void save(format)}
          aria-label={`Download the ${title} chart as ${format.toUpperCase()}`}
          data-testid={`${testId}-${format}`}
        >
          {format.toUpperCase()}
        </button>
      ))}
    </span>
  );
}

/** For the actions slot: `<ChartActions value={chartExportActions}>`. */
export const chartExportActions = (chart: ChartHandle) => <ChartExportButtons chart={chart} />;
