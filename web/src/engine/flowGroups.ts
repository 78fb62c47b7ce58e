// How the engine numbers flows into groups, and whether the page shows them
// one by one: the engine worker needs both to send per-group series, the
// page to draw them (scenario/model.ts passes them on to it).

import type { FlowKind, ResolvedPlan } from './pkg/aqm_core';

export interface GroupInfo {
  label: string;
  kind: FlowKind;
  count: number;
  firstFlow: number;
}

/** Flow groups in order, as the engine's plan numbers them: flows are numbered group by group. */
export function flowGroups(plan: ResolvedPlan): GroupInfo[] {
  return plan.groups.map((group) => ({ label: group.label, kind: group.kind, count: group.count, firstFlow: group.first_flow }));
}

/**
 * How the page shows flows: one by one (a goodput line per flow up to a
 * dozen, a bar per flow), or, above `PER_FLOW_LIMIT` flows, group by group
 * (series of per-group statistics, per-flow goodput as a sorted curve per
 * group), since thousands of lines or bars cannot be read anyway.
 */
export type FlowDetail = 'perFlow' | 'perGroup';

/** The most flows the page shows one by one. */
export const PER_FLOW_LIMIT = 200;

export function flowCount(groups: readonly GroupInfo[]): number {
  return groups.reduce((n, g) => n + g.count, 0);
}

export function flowDetail(groups: readonly GroupInfo[]): FlowDetail {
  return flowCount(groups) > PER_FLOW_LIMIT ? 'perGroup' : 'perFlow';
}

/** The flow numbers of a group. */
export function flowsOf(group: GroupInfo): number[] {
  return Array.from({ length: group.count }, (_, k) => group.firstFlow + k);
}
