import { describe, expect, it } from 'vitest';
import { withCc } from './model';
import type { FlowGroup } from './types';

describe('withCc', () => {
  const cubic: FlowGroup = { kind: 'tcp', count: 2, cc: 'cubic', hystart: 'ns3', cubic_rtt: 'srtt', sack: true };

  it("drops CUBIC's own settings when the group leaves CUBIC, which the engine would refuse", () => {
    expect(withCc(cubic, 'newreno')).toEqual({ kind: 'tcp', count: 2, cc: 'newreno', sack: true });
  });

  it('keeps them while the group stays CUBIC', () => {
    expect(withCc(cubic, 'cubic')).toEqual(cubic);
  });
});
