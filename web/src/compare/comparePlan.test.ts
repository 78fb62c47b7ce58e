import { describe, expect, it } from 'vitest';
import type { CatalogueEntry, ResolvedGroup, ResolvedPlan, Scenario, ScenarioProblem } from '../scenario/types';
import { comparePlan, type FlavourChecks } from './comparePlan';

const SCENARIO: Scenario = {
  version: 1,
  duration_s: 10,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e7, delay_ms: 10 }, buffer: { packets: 100 } },
  queue: { scheme: 'droptail' },
  flows: [{ kind: 'tcp', cc: 'cubic', hystart: 'off' }, { kind: 'ping' }],
};

const CATALOGUE = [
  { id: 'droptail', name: 'Drop Tail' },
  { id: 'fq_codel', name: 'FQ-CoDel' },
] as CatalogueEntry[];

const tcp = (cc: ResolvedGroup['cc']) => ({ kind: 'tcp', cc }) as ResolvedGroup;
const planOf = (groups: ResolvedGroup[]) => ({ groups }) as ResolvedPlan;

const ECN: ScenarioProblem = { path: 'flows[0].ecn', message: '`bbr` (v1) does not answer ECN marks', kind: 'scenario' };

function checks(main: ResolvedPlan | null, problems: Record<string, ScenarioProblem | null>): FlavourChecks {
  return { scenarioJson: JSON.stringify(SCENARIO), main, problems: new Map(Object.entries(problems)) };
}

describe('compare mode by TCP flavour', () => {
  it('runs the partner with every TCP group on the flavour, on the same queue, each run named by its flavour', () => {
    const plan = comparePlan({ by: 'cc', cc: 'bbr' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic')]), { bbr: null }));
    expect(plan.partner).toEqual({ by: 'cc', id: 'bbr', name: 'BBR', mainName: 'CUBIC' });
    const partner = JSON.parse(plan.partnerJson!) as Scenario;
    expect(partner.flows).toEqual([{ kind: 'tcp', cc: 'bbr' }, { kind: 'ping' }]);
    expect(partner.queue).toEqual(SCENARIO.queue);
    expect(plan.lockstepGroup).toBe('compare-4');
    expect(plan.refused).toBeNull();
  });

  it('waits for the engine’s word on the flavour, so both runs start together', () => {
    expect(comparePlan({ by: 'cc', cc: 'bbr' }, SCENARIO, 4, CATALOGUE, undefined)).toMatchObject({ waiting: true, partner: undefined });
    // Checked before a link named this one: asked again, and waited for.
    expect(comparePlan({ by: 'cc', cc: 'vegas' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic')]), { bbr: null }))).toMatchObject({ waiting: true });
  });

  it('refuses, in the engine’s words naming the field, a flavour that cannot run the scenario', () => {
    const plan = comparePlan({ by: 'cc', cc: 'bbr' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic')]), { bbr: ECN }));
    expect(plan.partner).toBeUndefined();
    expect(plan.waiting).toBe(false);
    expect(plan.refused).toContain('compare_cc = bbr');
    expect(plan.refused).toContain('BBR cannot run this scenario: flows[0].ecn: `bbr` (v1) does not answer ECN marks');
    const unknown = { path: 'flows[0].cc', message: 'unknown variant `vegas`', kind: 'scenario' } as const;
    const vegas = comparePlan({ by: 'cc', cc: 'vegas' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic')]), { vegas: unknown }));
    expect(vegas.refused).toContain('flows[0].cc: unknown variant `vegas`');
  });

  it('refuses a flavour every TCP group already runs, and a scenario without TCP', () => {
    expect(comparePlan({ by: 'cc', cc: 'cubic' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic')]), { cubic: null })).refused).toContain(
      'every TCP group already runs CUBIC',
    );
    const mixed = comparePlan({ by: 'cc', cc: 'cubic' }, SCENARIO, 4, CATALOGUE, checks(planOf([tcp('cubic'), tcp('bbr')]), { cubic: null }));
    expect(mixed.partner).toEqual({ by: 'cc', id: 'cubic', name: 'all CUBIC', mainName: 'CUBIC + BBR' });
    const noTcp = comparePlan({ by: 'cc', cc: 'bbr' }, SCENARIO, 4, CATALOGUE, checks(planOf([{ kind: 'ping' } as ResolvedGroup]), { bbr: null }));
    expect(noTcp.refused).toContain('no TCP group');
  });

  it('names a link’s refused compare key', () => {
    const plan = comparePlan({ by: 'refused', field: 'compare_cc', reason: 'it is not a TCP flavour name' }, SCENARIO, 4, CATALOGUE, undefined);
    expect(plan.refused).toBe('This link’s compare_cc is refused: it is not a TCP flavour name; showing the experiment without compare mode.');
    expect(plan.partner).toBeUndefined();
  });
});

describe('compare mode by queue scheme', () => {
  it('replaces only the scheme, and names both runs by it', () => {
    const plan = comparePlan({ by: 'scheme', scheme: 'fq_codel' }, SCENARIO, 2, CATALOGUE, undefined);
    expect(plan.partner).toEqual({ by: 'scheme', id: 'fq_codel', name: 'FQ-CoDel', mainName: 'Drop Tail' });
    expect(JSON.parse(plan.partnerJson!)).toEqual({ ...SCENARIO, queue: { scheme: 'fq_codel' } });
    expect(comparePlan({ by: 'scheme', scheme: 'fq_codel' }, SCENARIO, 2, undefined, undefined).waiting).toBe(true);
    expect(comparePlan({ by: 'scheme', scheme: 'droptail' }, SCENARIO, 2, CATALOGUE, undefined).refused).toContain('with itself');
    expect(comparePlan({ by: 'scheme', scheme: 'nope' }, SCENARIO, 2, CATALOGUE, undefined).refused).toContain('“nope”, which is not a queue scheme');
  });

  it('does not compare before the run is loaded', () => {
    expect(comparePlan({ by: 'scheme', scheme: 'fq_codel' }, SCENARIO, undefined, CATALOGUE, undefined)).toMatchObject({
      partner: undefined,
      partnerJson: null,
    });
  });
});
