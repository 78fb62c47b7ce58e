// Facts the page derives from a scenario document: buffer unit and size,
// how flows are numbered into groups, and edits that keep it consistent.

import type { BufferUnit } from '../engine/protocol';
import type { CatalogueEntry, CcName, FlowGroup, FlowKind, Scenario } from './types';

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

/** Keys a group may carry whatever its kind. */
const COMMON_KEYS = [
  'kind',
  'count',
  'label',
  'access_delay_ms',
  'access_rate_bps',
  'access_jitter_ms',
  'host_queue_packets',
  'start_s',
  'stop_s',
  'weight',
  'drop_precedence',
  'path',
  'one_host',
] as const;

/** The kind-specific keys of each flow kind (docs/scenario-format.md), with what a new group starts with. */
export const KIND_DEFAULTS: Record<FlowKind, Partial<FlowGroup>> = {
  tcp: { cc: 'newreno', segment_bytes: 1000 },
  cbr: { rate_bps: 1_000_000, packet_bytes: 1000 },
  poisson: { rate_bps: 1_000_000, packet_bytes: 1000 },
  vbr: { rate_bps: 1_000_000, packet_bytes: 1000, burst_gsd: 2 },
  onoff: { peak_rate_bps: 2_000_000, on_mean_s: 1, off_mean_s: 1, packet_bytes: 1000 },
  web: { sessions_per_s: 5, mean_bytes: 50_000, pareto_shape: 1.2, segment_bytes: 1000 },
  tfrc: { segment_bytes: 1000 },
  ping: { interval_ms: 100, packet_bytes: 64 },
};

export const FLOW_KINDS = Object.keys(KIND_DEFAULTS) as FlowKind[];

/** Change a group's kind: keep the keys every kind shares, start the new kind's own keys from defaults. */
export function withKind(group: FlowGroup, kind: FlowKind): FlowGroup {
  const kept: Record<string, unknown> = {};
  for (const key of COMMON_KEYS) if (group[key] !== undefined) kept[key] = group[key];
  return { ...(kept as Partial<FlowGroup>), ...KIND_DEFAULTS[kind], kind } as FlowGroup;
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
