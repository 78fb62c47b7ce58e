// A parameter sweep as `aqm-sim sweep` runs it: one scenario field, named by
// its path, set to each of several values, each run under seeds 1…N (the
// scenario's own seed is replaced), in value-major order. Here: the values,
// the runs, the fields worth sweeping, the metrics to plot, the aggregation
// over seeds, and the files (the CLI's CSV and JSON).

import { formatCsvNumber } from '../export/csv';
import { bufferUnit } from '../scenario/model';
import { paramName } from '../scenario/paramNames';
import type { CatalogueEntry, ResolvedPlan, Scenario, Summary } from '../scenario/types';

/** The most runs (values × seeds) one sweep may have: enough for a curve, small enough to finish in a lesson. */
export const MAX_RUNS = 200;

/** The CLI's `--range FROM:TO:N`: N evenly spaced values including both ends, computed as the CLI does. */
export function rangeValues(from: number, to: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (count === 1 ? from : from + ((to - from) * i) / (count - 1)));
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/** The CLI's `--values A,B,…`: numbers separated by commas (or spaces). */
export function parseValueList(text: string): Parsed<number[]> {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length) return { ok: false, field: 'values', message: 'enter at least one number' };
  const values: number[] = [];
  for (const part of parts) {
    const value = Number(part);
    if (!Number.isFinite(value)) return { ok: false, field: 'values', message: `\`${part}\` is not a number` };
    values.push(value);
  }
  return { ok: true, value: values };
}

/** What the user asked for, in engine units. */
export interface SweepRequest {
  /** The field's path in the scenario document, e.g. `queue.params.max_p`. */
  path: string;
  values: number[];
  /** Runs use seeds 1…seedCount. */
  seedCount: number;
}

/** One run of a sweep: its place in the CLI's output order, the value and the seed. */
export interface SweepRun {
  index: number;
  value: number;
  seed: number;
}

/** Check the size of a sweep before anything runs; the message names the field to change. */
export function checkSize(values: number, seedCount: number): Parsed<number> {
  if (!Number.isInteger(seedCount) || seedCount < 1) return { ok: false, field: 'seeds', message: 'must be a whole number ≥ 1' };
  if (values < 1) return { ok: false, field: 'values', message: 'enter at least one value' };
  const runs = values * seedCount;
  if (runs > MAX_RUNS) {
    return {
      ok: false,
      field: seedCount > 1 && values <= MAX_RUNS ? 'seeds' : 'values',
      message: `${values} values × ${seedCount} seeds = ${runs} runs; a sweep may have at most ${MAX_RUNS}`,
    };
  }
  return { ok: true, value: runs };
}

/** Every run, in the order `aqm-sim sweep` runs and prints them: each value under seeds 1…N. */
export function planRuns(request: SweepRequest): SweepRun[] {
  const runs: SweepRun[] = [];
  for (const value of request.values) {
    for (let seed = 1; seed <= request.seedCount; seed++) runs.push({ index: runs.length, value, seed });
  }
  return runs;
}

/** A finished run: what `aqm-sim sweep --json` prints for it. */
export interface SweepPoint {
  value: number;
  seed: number;
  summary: Summary;
}

/** A scenario field that can be swept, with how the form shows it. */
export interface SweepField {
  path: string;
  label: string;
  /** Display unit. */
  unit: string;
  /** Engine units per display unit (1e6 for Mb/s shown for bit/s). */
  scale: number;
  /** The engine wants a whole number (counts, sizes, bit rates). */
  integer: boolean;
  /** A scheme's on/off switch (0 or 1). */
  isSwitch?: boolean;
  group: string;
  /** The value in the scenario now, in engine units. */
  current: number | undefined;
  /** Bounds the engine accepts, when the catalogue gives them (engine units). */
  min?: number;
  max?: number;
}

/**
 * The fields of `scenario` worth sweeping: the scheme's parameters, the
 * bottleneck link, each flow group's size and rate. A group's size is read
 * from `plan`, the engine's plan of `scenario` (null: not planned yet).
 */
export function sweepableFields(scenario: Scenario, scheme: CatalogueEntry | undefined, plan: ResolvedPlan | null): SweepField[] {
  const fields: SweepField[] = [];
  for (const param of scheme?.params ?? []) {
    const current = scenario.queue.params?.[param.id];
    fields.push({
      path: `queue.params.${param.id}`,
      label: paramName(param),
      unit: param.unit,
      scale: 1,
      // A switch (gentle, ecn) is 0 or 1: rounding turns any range into those two.
      integer: param.kind === 'switch',
      isSwitch: param.kind === 'switch',
      group: `${scheme?.name ?? 'Scheme'} parameters`,
      current: typeof current === 'number' ? current : param.default,
      min: param.min,
      max: param.max,
    });
  }
  const link = scenario.topology.bottleneck;
  const unit = bufferUnit(scenario);
  fields.push(
    { path: 'topology.bottleneck.rate_bps', label: 'bottleneck rate', unit: 'Mb/s', scale: 1e6, integer: true, group: 'Link', current: link.rate_bps },
    { path: 'topology.bottleneck.delay_ms', label: 'bottleneck delay', unit: 'ms', scale: 1, integer: false, group: 'Link', current: link.delay_ms },
    {
      path: `topology.buffer.${unit}`,
      label: 'buffer',
      unit,
      scale: 1,
      integer: true,
      group: 'Link',
      current: scenario.topology.buffer[unit] ?? undefined,
    },
  );
  scenario.flows.forEach((group, i) => {
    const name = `group ${i + 1} (${group.label || group.kind})`;
    fields.push({
      path: `flows[${i}].count`,
      label: `${name}: flows`,
      unit: 'flows',
      scale: 1,
      integer: true,
      group: 'Flows',
      current: plan?.groups[i]?.count,
    });
    if (group.rate_bps !== undefined && group.rate_bps !== null) {
      fields.push({ path: `flows[${i}].rate_bps`, label: `${name}: rate`, unit: 'Mb/s', scale: 1e6, integer: true, group: 'Flows', current: group.rate_bps });
    }
    if (group.peak_rate_bps !== undefined && group.peak_rate_bps !== null) {
      fields.push({
        path: `flows[${i}].peak_rate_bps`,
        label: `${name}: peak rate`,
        unit: 'Mb/s',
        scale: 1e6,
        integer: true,
        group: 'Flows',
        current: group.peak_rate_bps,
      });
    }
  });
  return fields;
}

/** A display value as the engine takes it: scaled, and whole where the engine wants a whole number. */
export function toEngineValue(field: SweepField, display: number): number {
  const value = display * field.scale;
  return field.integer ? Math.round(value) : value;
}

/** A suggested range around the current value: half to double, inside the catalogue's bounds. */
export function suggestedRange(field: SweepField): { from: number; to: number } {
  if (field.isSwitch) return { from: 0, to: 1 };
  const current = field.current ?? field.min ?? 1;
  let from = current > 0 ? current / 2 : (field.min ?? 0);
  let to = current > 0 ? current * 2 : (field.max ?? 1);
  if (field.min !== undefined) from = Math.max(from, field.min);
  if (field.max !== undefined) to = Math.min(to, field.max);
  const round = (v: number) => (field.integer ? Math.max(1, Math.round(v / field.scale)) : Number((v / field.scale).toPrecision(3)));
  return { from: round(from), to: round(to) };
}

/** A number the summary gives for one run, for the chart's vertical axis. */
export interface SweepMetric {
  id: string;
  label: string;
  unit: string;
  /** The axis should start at zero (counts, rates, lengths), not at the data. */
  fromZero: boolean;
  /** Null when the run has no such value (Jain's index when every flow got nothing). */
  read(summary: Summary): number | null;
}

function lossRatePercent(summary: Summary): number | null {
  let sent = 0;
  let dropped = 0;
  for (const flow of summary.flows) {
    sent += flow.sent_packets;
    dropped += flow.dropped_packets;
  }
  return sent > 0 ? (100 * dropped) / sent : null;
}

/** The summary's headline numbers, and each flow group's goodput. */
export function sweepMetrics(scenario: Scenario): SweepMetric[] {
  const metrics: SweepMetric[] = [
    { id: 'goodput', label: 'aggregate goodput', unit: 'Mb/s', fromZero: true, read: (s) => s.aggregate_goodput_bps / 1e6 },
    { id: 'utilization', label: 'link utilisation', unit: '%', fromZero: false, read: (s) => s.utilization * 100 },
    { id: 'queue', label: 'mean queue length', unit: 'packets', fromZero: true, read: (s) => s.queue.mean_packets },
    { id: 'delay', label: 'mean queueing delay', unit: 'ms', fromZero: true, read: (s) => s.queue.mean_delay_ms },
    { id: 'p99_delay', label: '99th percentile queueing delay', unit: 'ms', fromZero: true, read: (s) => s.queue.p99_delay_ms },
    { id: 'loss', label: 'loss rate (dropped / sent)', unit: '%', fromZero: true, read: lossRatePercent },
    { id: 'drops', label: 'drops', unit: 'packets', fromZero: true, read: (s) => s.drops.total },
    { id: 'marks', label: 'ECN marks', unit: 'packets', fromZero: true, read: (s) => s.marks },
    { id: 'jain_all', label: "Jain's index, all flows", unit: '', fromZero: false, read: (s) => s.fairness.jain_all },
    { id: 'jain_tcp', label: "Jain's index, TCP flows", unit: '', fromZero: false, read: (s) => s.fairness.jain_tcp },
  ];
  scenario.flows.forEach((group, i) => {
    metrics.push({
      id: `group_goodput.${i}`,
      label: `goodput of group ${i + 1} (${group.label || group.kind})`,
      unit: 'Mb/s',
      fromZero: true,
      read: (s) => (s.groups[i] ? s.groups[i].total_goodput_bps / 1e6 : null),
    });
  });
  return metrics;
}

/** One value's runs, summarised over seeds. */
export interface SweepAggregate {
  value: number;
  mean: number;
  min: number;
  max: number;
  /** Sample standard deviation (0 with one seed). */
  sd: number;
  /** Each seed's value, in seed order. */
  bySeed: { seed: number; y: number }[];
}

/** Mean, min, max and standard deviation of `metric` over the seeds of each value, in value order; runs without a value are left out. */
export function aggregate(points: readonly SweepPoint[], metric: SweepMetric): SweepAggregate[] {
  const byValue = new Map<number, { seed: number; y: number }[]>();
  for (const point of points) {
    const y = metric.read(point.summary);
    if (y === null || !Number.isFinite(y)) continue;
    const list = byValue.get(point.value) ?? [];
    list.push({ seed: point.seed, y });
    byValue.set(point.value, list);
  }
  return [...byValue.entries()]
    .sort(([a], [b]) => a - b)
    .map(([value, list]) => {
      const bySeed = [...list].sort((a, b) => a.seed - b.seed);
      const ys = bySeed.map((entry) => entry.y);
      const mean = ys.reduce((sum, y) => sum + y, 0) / ys.length;
      const variance = ys.length > 1 ? ys.reduce((sum, y) => sum + (y - mean) ** 2, 0) / (ys.length - 1) : 0;
      return { value, mean, min: Math.min(...ys), max: Math.max(...ys), sd: Math.sqrt(variance), bySeed };
    });
}

/** The header of `aqm-sim sweep`'s CSV. */
export const SWEEP_CSV_HEADER = 'value,seed,aggregate_goodput_bps,utilization,mean_queue_packets,mean_delay_ms,p99_delay_ms,drops,marks,jain_all,jain_tcp';

/** The runs as `aqm-sim sweep` prints them: one CSV row per run, in the order given, numbers as Rust prints them. */
export function sweepToCsv(points: readonly SweepPoint[]): string {
  const optional = (v: number | null) => (v === null ? '' : formatCsvNumber(v));
  const lines = [SWEEP_CSV_HEADER];
  for (const { value, seed, summary: s } of points) {
    lines.push(
      [
        formatCsvNumber(value),
        formatCsvNumber(seed),
        formatCsvNumber(s.aggregate_goodput_bps),
        formatCsvNumber(s.utilization),
        formatCsvNumber(s.queue.mean_packets),
        formatCsvNumber(s.queue.mean_delay_ms),
        formatCsvNumber(s.queue.p99_delay_ms),
        formatCsvNumber(s.drops.total),
        formatCsvNumber(s.marks),
        optional(s.fairness.jain_all),
        optional(s.fairness.jain_tcp),
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

/** The runs with their full summaries, as `aqm-sim sweep --json` prints them. */
export function sweepToJson(points: readonly SweepPoint[]): string {
  return `${JSON.stringify(points, null, 2)}\n`;
}

/** The command that runs the same sweep on the saved scenario file. */
export function cliCommand(scenarioFile: string, request: SweepRequest): string {
  return `aqm-sim sweep ${scenarioFile} --param ${request.path} --values ${request.values.map(formatCsvNumber).join(',')} --seeds ${request.seedCount}`;
}
