// The papers' reproductions: the repository's reproductions/ files, the same
// ones `aqm-sim reproduce` runs; the engine resolves each to the scenario the page loads.

import type { EngineClient } from '../engine/client';
import type { Mark } from '../engine/pkg/aqm_core';
import type { Scenario } from '../scenario/types';

/** One claim as the file states it; the engine judges it (see ReproductionResults). */
export interface ReproductionClaim {
  id: string;
  figure: string;
  claim: string;
}

/** A compare run: another scheme on the same scenario, with the parameters the paper gives it. */
export interface CompareRun {
  scheme: string;
  params?: Record<string, number>;
  source?: string;
}

/** A paper's figure as a sweep (docs/scenario-format.md, "Figures"); the engine expands and aggregates it. */
export interface ReproductionFigure {
  id: string;
  title: string;
  source: string;
  marks?: Mark[];
  marks_note: string;
}

/** A reproduction file (docs/scenario-format.md, "Reproduction files"). */
export interface ReproductionFile {
  paper: string;
  experiment: string;
  /** A path from the repository root, e.g. `scenarios/bare-200-tcp.json`, or the scenario itself. */
  scenario: string | Scenario;
  /** Replaces the scenario's queue in the main run. */
  queue?: Scenario['queue'];
  /** Fields of the scenario set for every run, by path (`duration_s`, `flows[1]`). */
  set?: Record<string, unknown>;
  compare?: CompareRun | CompareRun[];
  seeds?: number;
  claims: ReproductionClaim[];
  figures?: ReproductionFigure[];
}

/** A reproduction file as the page finds it, before the engine applies the file's `queue` and `set` (`resolveReproduction`). */
export interface ReproductionSource {
  id: string;
  file: ReproductionFile;
  /** The file's own text, handed to the engine's verdict function. */
  json: string;
  /** The scenario the file names (or its inline one), as written. */
  named: Scenario;
}

export interface Reproduction extends ReproductionSource {
  /** What the main run runs: `named` with the file's `queue` and `set` applied by the engine. */
  scenario: Scenario;
}

const files = import.meta.glob<ReproductionFile>('../../../reproductions/*.json', { eager: true, import: 'default' });
const scenarioFiles = import.meta.glob<Scenario>('../../../scenarios/*.json', { eager: true, import: 'default' });

/** The file's compare runs: none, one or several. */
export function compareRuns(file: ReproductionFile): CompareRun[] {
  if (file.compare === undefined) return [];
  return Array.isArray(file.compare) ? file.compare : [file.compare];
}

/** Scenario files keyed by their path from the repository root, as reproduction files name them. */
const SCENARIOS_BY_PATH: Record<string, Scenario> = Object.fromEntries(
  Object.entries(scenarioFiles).map(([path, scenario]) => [path.replace(/^(\.\.\/)+/, ''), scenario]),
);

function namedScenario(file: ReproductionFile): Scenario {
  const named = typeof file.scenario === 'string' ? SCENARIOS_BY_PATH[file.scenario] : file.scenario;
  if (!named) throw new Error(`reproduction names ${String(file.scenario)}, which is not in scenarios/`);
  return named;
}

export const REPRODUCTIONS: ReproductionSource[] = Object.entries(files)
  .map(([path, file]) => ({
    id: path.replace(/^.*\//, '').replace(/\.json$/, ''),
    file,
    json: JSON.stringify(file),
    named: namedScenario(file),
  }))
  .sort((a, b) => a.file.paper.localeCompare(b.file.paper) || a.id.localeCompare(b.id));

/** The reproduction with the scenario its main run runs, as the engine makes it (the same `queue` and `set` as `aqm-sim reproduce`). */
export async function resolveReproduction(engine: Pick<EngineClient, 'reproductionScenario'>, source: ReproductionSource): Promise<Reproduction> {
  return { ...source, scenario: await engine.reproductionScenario(source.json, JSON.stringify(source.named)) };
}

/** Summary fields in words. */
const FIELD_WORDS: Record<string, string> = {
  goodput_bps: 'goodput (b/s)',
  fair_share_bps: 'fair share (b/s)',
  mean_goodput_bps: 'mean goodput (b/s)',
  mean_fair_share_bps: 'mean fair share (b/s)',
  total_goodput_bps: 'total goodput (b/s)',
  loss_rate: 'loss rate',
  jain: "Jain's index",
  jain_tcp: "Jain's index over the TCP flows",
  jain_all: "Jain's index over all flows",
  share_deviation: 'spread of goodput over fair share (Cho & Cho eq. 9)',
  fairness_f: "Karam & Tobagi's fairness f",
  mean_packets: 'mean queue (packets)',
  mean_bytes: 'mean queue (bytes)',
  mean_delay_ms: 'mean queueing delay (ms)',
  total: 'drops',
  window_s: 'measured seconds',
  utilization: 'link utilisation',
  mean_fct_ms: 'mean transfer time (ms)',
  p99_fct_ms: '99th-percentile transfer time (ms)',
  mean_queue_delay_ms: 'mean queueing delay (ms)',
  max_queue_delay_ms: 'largest queueing delay (ms)',
};

/** One summary path in words, with the run it reads. */
function pathWords(path: string, schemes: readonly string[]): { words: string; scheme: string } {
  const match = /^compare(?:\[(\d+)\])?:(.*)$/.exec(path.trim());
  const scheme = match ? (schemes[1 + Number(match[1] ?? 0)] ?? 'the compare run') : schemes[0];
  const rest = (match ? match[2] : path).trim();
  const owners: string[] = [];
  let leaf = rest;
  for (const part of rest.split('.')) {
    const indexed = /^(\w+)\[(\d+)\]$/.exec(part);
    if (indexed && indexed[1] === 'flows') owners.push(`flow ${Number(indexed[2]) + 1}`);
    else if (indexed && indexed[1] === 'groups') owners.push(`group ${Number(indexed[2]) + 1}`);
    else if (indexed && indexed[1] === 'fct_buckets') owners.push(`transfer-time bucket ${Number(indexed[2]) + 1}`);
    else leaf = part;
  }
  const field = leaf === 'percent' ? '% of transfers' : (FIELD_WORDS[leaf] ?? leaf.replace(/_/g, ' '));
  return { words: owners.length ? `${owners.join(', ')}: ${field}` : field, scheme };
}

/**
 * A claim's metric in words, e.g. `compare:drops.total / compare:window_s`
 * → "drops per second under red". `schemes` are the main run's scheme, then
 * the compare runs' in order.
 */
export function describeMetric(metric: string, schemes: readonly string[]): string {
  const [top, bottom] = metric.split('/');
  const a = pathWords(top, schemes);
  if (bottom === undefined) return `${a.words} under ${a.scheme}`;
  const b = pathWords(bottom, schemes);
  if (b.words === FIELD_WORDS.window_s && a.scheme === b.scheme) return `${a.words} per second under ${a.scheme}`;
  if (a.scheme === b.scheme) return `${a.words} over ${b.words}, under ${a.scheme}`;
  return `${a.words} under ${a.scheme} over ${b.words} under ${b.scheme}`;
}
