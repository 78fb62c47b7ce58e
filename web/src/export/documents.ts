// The summary and the scenario as files: pretty-printed JSON (two-space
// indent, as `aqm-sim run` prints the summary), ending in a newline.

import type { Scenario, Summary } from '../scenario/types';

export function summaryToJson(summary: Summary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}

/** The scenario document as `aqm-sim run FILE` takes it. */
export function scenarioToJson(scenario: Scenario): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}

/** A file name from the experiment's name: `aqm-lab-red-with-8-tcp-flows-timeseries.csv`. */
export function exportFileName(experimentName: string | undefined, what: string, extension: string): string {
  const slug = (experimentName ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `aqm-lab${slug ? `-${slug}` : ''}-${what}.${extension}`;
}
