// Shared pieces of the performance probes: their load and where their numbers go.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { redDumbbell } from '../tests/helpers';

const MEASUREMENT_DIR = fileURLToPath(new URL('../measure-results/measurements/', import.meta.url));

/** Keep a probe's numbers as `measure-results/measurements/<name>.json`. */
export function saveMeasurement(name: string, data: unknown): string {
  mkdirSync(MEASUREMENT_DIR, { recursive: true });
  const path = `${MEASUREMENT_DIR}${name}.json`;
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  return path;
}

/** The performance target's load: 20 TCP flows through RED on a 10 Mb/s bottleneck, long enough not to finish during a probe at full speed. */
export function twentyFlowScenario(): Record<string, unknown> {
  const flows = [{ kind: 'tcp', count: 20, segment_bytes: 1000, access_delay_ms: [1, 40], start_s: [0, 2] }];
  const rest = { name: '20 TCP flows on 10 Mb/s (performance probe)', seed: 1, duration_s: 36_000, measure_from_s: 5, flows };
  return redDumbbell({ rate_bps: 10_000_000, delay_ms: 10, packets: 200 }, { min_th: 30, max_th: 90 }, rest);
}

/** The many-flow loads' sizes. */
export const MANY_FLOW_COUNTS = [1000, 5000, 10_000] as const;
export type ManyFlows = (typeof MANY_FLOW_COUNTS)[number];

/** A flow count as the docs write it, its thousands set apart by a space ("5 000"). */
export function flowCountName(flows: number): string {
  return flows.toLocaleString('en').replaceAll(',', ' ');
}

/**
 * The many-flow loads: `flows` NewReno flows (1 000, 5 000 or 10 000) in two equal
 * groups (short and long access delays) through RED on a 1 Gb/s bottleneck,
 * starting over the first 5 s, measured from 5 s. The 10 000-packet buffer
 * holds about a bandwidth-delay product; the duration keeps the run under
 * the page's work limit.
 */
export function manyFlowScenario(flows: ManyFlows): Record<string, unknown> {
  const group = (label: string, accessDelayMs: [number, number]) => ({
    kind: 'tcp',
    label,
    count: flows / 2,
    segment_bytes: 1000,
    access_delay_ms: accessDelayMs,
    start_s: [0, 5],
  });
  return {
    version: 1,
    name: `${flowCountName(flows)} TCP flows on 1 Gb/s (performance probe)`,
    seed: 1,
    duration_s: 600,
    measure_from_s: 5,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1_000_000_000, delay_ms: 10 }, buffer: { packets: 10_000 } },
    queue: { scheme: 'red', params: { min_th: 1000, max_th: 3000, w_q: 0.0002 } },
    flows: [group('short RTT', [1, 20]), group('long RTT', [20, 60])],
  };
}

/**
 * The ns-3 RED dumbbell the engine is checked against (`scenarios/ns3-red-dumbbell.json`), made
 * long enough not to finish during a probe at full speed.
 */
export function ns3DumbbellScenario(): Record<string, unknown> {
  const file = fileURLToPath(new URL('../../scenarios/ns3-red-dumbbell.json', import.meta.url));
  return { ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), duration_s: 36_000 };
}

/** Every chart, 30 s window: what the performance probes draw. */
export const ALL_CHARTS_VIEW = '&view=queue,goodput,bars,curve,rate&window=30';
