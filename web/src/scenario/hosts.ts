// Shares between hosts, for schemes that share the link between hosts before
// flows (CAKE's host isolation): the per-flow fair share and Jain index read
// "unfair" for the split such a scheme aims at, so the page adds this view.

import type { Scenario, Summary } from './types';

/** Whether `scenario`'s scheme shares the link between hosts first: CAKE with host isolation on (its default). */
export function isolatesHosts(scenario: Scenario): boolean {
  const on = scenario.queue.params?.host_isolation;
  return scenario.queue.scheme === 'cake' && on !== false && on !== 0;
}

/** One flow group's hosts: one for a `one_host` group, else one per flow. */
export interface HostRow {
  group: number;
  label: string;
  hosts: number;
  /** The goodput of one of the group's hosts on average. */
  goodputPerHostBps: number;
}

export interface HostShares {
  rows: HostRow[];
  /** Hosts that send bulk or constant traffic (web and ping groups left out, as from the fair shares). */
  hosts: number;
  /** What the link delivered, split equally between those hosts. */
  equalShareBps: number;
  /** Jain's index over the hosts' goodputs (null while none has any). */
  jain: number | null;
}

/**
 * The hosts' goodputs from each group's total and Jain index: a group of n
 * flows on n hosts with total T and index J has Σx² = T² / (n·J), so the
 * index over all hosts needs no per-flow entries.
 */
export function hostShares(scenario: Scenario, summary: Pick<Summary, 'groups'>): HostShares {
  const groups = summary.groups.filter((g) => g.kind !== 'web' && g.kind !== 'ping' && g.flows > 0);
  let sum = 0;
  let squares = 0;
  const rows = groups.map((g) => {
    const oneHost = scenario.flows[g.group]?.one_host === true;
    const hosts = oneHost ? 1 : g.flows;
    sum += g.total_goodput_bps;
    if (oneHost) squares += g.total_goodput_bps ** 2;
    else if (g.jain !== null && g.jain > 0) squares += g.total_goodput_bps ** 2 / (g.flows * g.jain);
    return { group: g.group, label: g.label, hosts, goodputPerHostBps: g.total_goodput_bps / hosts };
  });
  const hosts = rows.reduce((n, r) => n + r.hosts, 0);
  return {
    rows,
    hosts,
    equalShareBps: hosts > 0 ? sum / hosts : 0,
    jain: squares > 0 ? (sum * sum) / (hosts * squares) : null,
  };
}
