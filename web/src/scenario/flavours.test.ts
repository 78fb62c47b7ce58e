import { describe, expect, it } from 'vitest';
import { CC_CHOICES, ccLabel, flavourName, tcpFlavours, withFlavour } from './flavours';
import type { ResolvedGroup, ResolvedPlan, Scenario } from './types';

const SCENARIO: Scenario = {
  version: 1,
  duration_s: 10,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e7, delay_ms: 10 }, buffer: { packets: 100 } },
  queue: { scheme: 'droptail' },
  flows: [
    { kind: 'tcp', cc: 'cubic', hystart: 'ns3', cubic_rtt: 'srtt', count: 2 },
    { kind: 'tcp', label: 'plain' },
    { kind: 'cbr', rate_bps: 1e6 },
  ],
};

const group = (kind: ResolvedGroup['kind'], cc?: ResolvedGroup['cc']): ResolvedGroup => ({
  label: kind,
  kind,
  count: 1,
  first_flow: 0,
  start_s: 0,
  access_jitter_ms: 0,
  sack: false,
  pacing: false,
  one_host: false,
  ...(cc ? { cc } : {}),
});

const plan = (groups: ResolvedGroup[]): ResolvedPlan => ({
  duration_s: 10,
  seed: 1,
  measure_from_s: 0,
  sample_interval_ms: 10,
  hops: 1,
  scheme: 'droptail',
  params: {},
  groups,
});

describe('TCP flavours', () => {
  it('switch every TCP group and nothing else, CUBIC’s own settings leaving with CUBIC', () => {
    const bbr = withFlavour(SCENARIO, 'bbr');
    expect(bbr.flows[0]).toEqual({ kind: 'tcp', cc: 'bbr', count: 2 });
    expect(bbr.flows[1]).toEqual({ kind: 'tcp', label: 'plain', cc: 'bbr' });
    expect(bbr.flows[2]).toBe(SCENARIO.flows[2]);
    expect(bbr.queue).toBe(SCENARIO.queue);
    // Staying with CUBIC keeps them: only the flavour is compared.
    expect(withFlavour(SCENARIO, 'cubic').flows[0]).toEqual(SCENARIO.flows[0]);
    // The document itself is left as it was.
    expect(SCENARIO.flows[1].cc).toBeUndefined();
  });

  it('name a run by the flavours its TCP groups run, as the engine planned them, each once', () => {
    const mixed = plan([group('tcp', 'bbr'), group('cbr'), group('tcp', 'cubic'), group('tcp', 'bbr')]);
    expect(tcpFlavours(mixed)).toEqual(['bbr', 'cubic']);
    expect(flavourName(mixed)).toBe('BBR + CUBIC');
    expect(flavourName(plan([group('tcp', 'newreno')]))).toBe('NewReno');
    expect(tcpFlavours(plan([group('poisson')]))).toEqual([]);
  });

  it('have one visible name each, and an unknown one reads as given', () => {
    const labels = CC_CHOICES.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(ccLabel('prague')).toBe('Prague');
    expect(ccLabel('vegas')).toBe('vegas');
  });
});
