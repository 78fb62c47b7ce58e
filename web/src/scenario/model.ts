// Facts the page derives from a scenario document: buffer unit and size,
// how flows are numbered into groups, and edits that keep it consistent.

import type { BufferUnit } from '../engine/protocol';
import type { CatalogueEntry, CcName, FlowGroup, FlowKind, FlowKinds, Scenario } from './types';

export type { BufferUnit };
export { PER_FLOW_LIMIT, flowCount, flowDetail, flowGroups, flowsOf, type FlowDetail, type GroupInfo } from '../engine/flowGroups';

/** How a switch parameter's number reads (the engine's `switch_on`: 0.5 and above is on). */
export function switchOn(value: number): boolean {
  return value >= 0.5;
}

export function bufferUnit(scenario: Scenario): BufferUnit {
  return scenario.topology.buffer.bytes !== undefined ? 'bytes' : 'packets';
}

export function bufferCapacity(scenario: Scenario): number {
  return scenario.topology.buffer.bytes ?? scenario.topology.buffer.packets ?? 0;
}

/** Everything but the queue, as text: what the scenario panel edits, and what two experiments must share to be the same one. */
export function withoutQueue(scenario: Scenario): string {
  return JSON.stringify({ ...scenario, queue: null });
}

/** The scheme's queueing-delay targets (kind `delay`, in ms): what the queue chart draws on its delay axis. */
export function delayTargetParams(entry: CatalogueEntry | undefined): string[] {
  return entry?.params.filter((p) => p.kind === 'delay').map((p) => p.id) ?? [];
}

/** Scheme parameters expressed in the buffer's unit: the thresholds drawn on the queue chart. */
export function bufferUnitParams(entry: CatalogueEntry | undefined): string[] {
  return entry?.params.filter((p) => p.kind === 'buffer').map((p) => p.id) ?? [];
}

/** The group the editor adds for `kind`: the engine's new group, its defaults written out. */
export function newGroup(kinds: FlowKinds, kind: FlowKind): FlowGroup {
  const entry = kinds.kinds.find((k) => k.kind === kind);
  return entry ? structuredClone(entry.new_group) : { kind };
}

/** Change a group's kind: keep the keys every kind takes, start the new kind's own keys from the engine's new group. */
export function withKind(kinds: FlowKinds, group: FlowGroup, kind: FlowKind): FlowGroup {
  const kept: Record<string, unknown> = {};
  for (const key of kinds.common_keys) if (group[key] !== undefined) kept[key] = group[key];
  return { ...newGroup(kinds, kind), ...(kept as Partial<FlowGroup>), kind };
}

/** A TCP group with another congestion control: CUBIC's own settings
 * (`hystart`, `cubic_rtt`) leave with CUBIC, as the engine refuses them for any other. */
export function withCc(group: FlowGroup, cc: CcName): FlowGroup {
  const next: FlowGroup = { ...group, cc };
  if (cc !== 'cubic') {
    delete next.hystart;
    delete next.cubic_rtt;
  }
  return next;
}

/** Set or clear (undefined) one key of an object, returning a copy. */
export function withKey<T extends object, K extends keyof T>(value: T, key: K, next: T[K] | undefined): T {
  const copy = { ...value };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}
