// TCP flavours as the page names and explains them: the congestion controls
// a TCP group can run, CUBIC's own two choices, and the scenario with every
// TCP group switched to another flavour (compare mode's partner). Which
// flavour a group runs when its document leaves `cc` out is the engine's
// plan's to say (`ResolvedGroup.cc`), never this file's.

import { withCc } from './model';
import type { CcName, FlowGroup, ResolvedPlan, Scenario } from './types';

export interface Choice<T extends string> {
  value: T;
  /** The one name the page shows for it. */
  label: string;
  /** One or two sentences for students. */
  about: string;
}

/** The congestion controls a TCP group can run, each with one line for students. */
export const CC_CHOICES: readonly Choice<CcName>[] = [
  {
    value: 'newreno',
    label: 'NewReno',
    about: 'NewReno halves its window at a loss, then adds one segment per round trip; it repairs one loss per round trip.',
  },
  { value: 'reno', label: 'Reno', about: "Reno is NewReno's predecessor: a second loss in the same window waits for a timeout." },
  {
    value: 'cubic',
    label: 'CUBIC',
    about: "CUBIC (Linux's default) backs off to 70% and regrows along a cubic curve: fast far from the window where it lost, flat near it.",
  },
  {
    value: 'dctcp',
    label: 'DCTCP',
    about:
      'DCTCP (datacenters, RFC 8257) cuts its window by half the share of its packets that were marked, so a few marks cost it little. It needs ECN, and RED as a step marker (min_th = max_th).',
  },
  {
    value: 'prague',
    label: 'Prague',
    about:
      "Prague (L4S) answers marks as DCTCP does, paces its packets and, once settled, grows as if its round trip were 25 ms, so short and long paths share more evenly. It needs ECN set to ECT(1), and DualPI2's L queue to keep its delay near 1 ms.",
  },
  {
    value: 'bbr',
    label: 'BBR',
    about:
      'BBR v1 (Cardwell et al. 2016) does not take a loss as a sign of congestion: it measures the largest delivery rate and the smallest round trip it sees, paces at that rate and keeps about two bandwidth-delay products in flight, probing for more bandwidth one round trip in eight. It always paces and does not use ECN.',
  },
];

export type HystartChoice = NonNullable<FlowGroup['hystart']>;
export type CubicRttChoice = NonNullable<FlowGroup['cubic_rtt']>;

/** CUBIC's slow-start exits, shown as "HyStart" (glossary "hybrid slow start"; core/src/transport/tcp/cc/hystart.rs). */
export const HYSTART_CHOICES: readonly Choice<HystartChoice>[] = [
  {
    value: 'linux',
    label: 'Linux',
    about:
      'Slow start ends once the ACKs of a round arrive as one long train, or the round’s smallest RTT rises by an eighth of the minimum (4–16 ms), as Linux’s tcp_cubic does (Ha & Rhee 2011).',
  },
  {
    value: 'ns3',
    label: 'ns-3',
    about: 'HyStart with ns-3’s thresholds: a train as long as the whole minimum RTT, or a round whose RTT has about doubled.',
  },
  {
    value: 'hystart++',
    label: 'HyStart++',
    about: 'RFC 9406: once the round’s RTT rises, grow a quarter as fast for five rounds, then end slow start; if the RTT falls back, go back to doubling.',
  },
  { value: 'off', label: 'off', about: 'Plain slow start: the window doubles every round trip until a packet is lost.' },
];

/** The RTT CUBIC's target looks ahead by, shown as "look-ahead RTT" (glossary "CUBIC's look-ahead RTT"; core/src/transport/tcp/cc/cubic.rs). */
export const CUBIC_RTT_CHOICES: readonly Choice<CubicRttChoice>[] = [
  {
    value: 'min',
    label: 'minimum RTT',
    about: 'W_cubic(t + RTT) with the smallest RTT measured, as Linux and ns-3 do: the target does not move with the flow’s own queue.',
  },
  {
    value: 'srtt',
    label: 'smoothed RTT',
    about: 'W_cubic(t + RTT) with the smoothed RTT, as RFC 9438 §4.2 words it: with a long queue the target looks further ahead and grows faster.',
  },
];

/** The page's name of a flavour; an unknown one (from a link) as given. */
export function ccLabel(cc: string): string {
  return CC_CHOICES.find((choice) => choice.value === cc)?.label ?? cc;
}

/** The flavours the plan's TCP groups run, each once, in group order. */
export function tcpFlavours(plan: ResolvedPlan): CcName[] {
  const flavours = plan.groups.flatMap((group) => (group.kind === 'tcp' && group.cc ? [group.cc] : []));
  return [...new Set(flavours)];
}

/** A run's name by its TCP flavours: "CUBIC", or "BBR + CUBIC" for a mix. */
export function flavourName(plan: ResolvedPlan): string {
  return tcpFlavours(plan).map(ccLabel).join(' + ');
}

/** The scenario with every TCP group running `cc` (CUBIC's own settings leave with CUBIC); the rest, queue included, unchanged. */
export function withFlavour(scenario: Scenario, cc: string): Scenario {
  return { ...scenario, flows: scenario.flows.map((group) => (group.kind === 'tcp' ? withCc(group, cc as CcName) : group)) };
}
