// The papers' reproductions: the repository's reproductions/ files, the same
// ones `aqm-sim reproduce` runs, each resolved to the scenario the page loads.

import type { Scenario } from '../scenario/types';

/** One claim as the file states it; the engine judges it (see ReproductionResults). */
export interface ReproductionClaim {
  id: string;
  figure: string;
  claim: string;
}

/** A reproduction file (docs/scenario-format.md, "Reproduction files"). */
export interface ReproductionFile {
  paper: string;
  experiment: string;
  /** A path from the repository root, e.g. `scenarios/bare-200-tcp.json`, or the scenario itself. */
  scenario: string | Scenario;
  /** Replaces the scenario's queue in the main run. */
  queue?: Scenario['queue'];
  /** The compare run: the same scenario under this scheme with its defaults (the page's compare mode). */
  compare?: { scheme: string };
  claims: ReproductionClaim[];
}

export interface Reproduction {
  id: string;
  file: ReproductionFile;
  /** The file's own text, handed to the engine's verdict function. */
  json: string;
  /** What the main run runs. */
  scenario: Scenario;
}

const files = import.meta.glob<ReproductionFile>('../../../reproductions/*.json', { eager: true, import: 'default' });
const scenarioFiles = import.meta.glob<Scenario>('../../../scenarios/*.json', { eager: true, import: 'default' });

export function resolveScenario(file: ReproductionFile, scenarios: Record<string, Scenario>): Scenario {
  const base = typeof file.scenario === 'string' ? scenarios[file.scenario] : file.scenario;
  if (!base) throw new Error(`reproduction names ${String(file.scenario)}, which is not in scenarios/`);
  return file.queue ? { ...base, queue: file.queue } : base;
}

/** Scenario files keyed by their path from the repository root, as reproduction files name them. */
const SCENARIOS_BY_PATH: Record<string, Scenario> = Object.fromEntries(
  Object.entries(scenarioFiles).map(([path, scenario]) => [path.replace(/^(\.\.\/)+/, ''), scenario]),
);

export const REPRODUCTIONS: Reproduction[] = Object.entries(files)
  .map(([path, file]) => ({
    id: path.replace(/^.*\//, '').replace(/\.json$/, ''),
    file,
    json: JSON.stringify(file),
    scenario: resolveScenario(file, SCENARIOS_BY_PATH),
  }))
  .sort((a, b) => a.file.paper.localeCompare(b.file.paper) || a.id.localeCompare(b.id));
