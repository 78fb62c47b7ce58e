import { describe, expect, it } from 'vitest';
import { PRESETS } from './presets';
import { DEFAULT_VIEW, withLatencyCharts } from './view';

const preset = (id: string) => {
  const found = PRESETS.find((p) => p.id === id);
  if (!found) throw new Error(`no preset ${id}`);
  return found.scenario;
};

describe('latency charts follow a ping group', () => {
  it('adds the RTT and CDF charts, in the page order, for a scenario with a ping', () => {
    const view = withLatencyCharts(DEFAULT_VIEW, preset('latency-under-load'));
    expect(view.charts).toEqual(['queue', 'goodput', 'bars', 'curve', 'markov', 'rate', 'cdf', 'rtt']);
    expect(withLatencyCharts(view, preset('latency-under-load'))).toEqual(view);
  });

  it('leaves the view alone without one', () => {
    expect(withLatencyCharts(DEFAULT_VIEW, preset('bufferbloat'))).toBe(DEFAULT_VIEW);
  });
});
