// The curve chart's slot: the scheme's drop-probability curve, or, for a
// scheme without one, the rule its decisions follow: CoDel's control law and
// PIE's probability against its queue delay, each with the inspector's
// selected decision placed from its recorded state.

import { CodelLawChart } from '../charts/CodelLawChart';
import { DropCurveChart } from '../charts/DropCurveChart';
import { PieStateChart } from '../charts/PieStateChart';
import type { RunSnapshot } from '../engine/client';
import { PIE_QUIET_P, recordsCodelLaw, recordsPieState } from '../explain/schemeLaws';
import type { DecisionInspector } from './useDecisionInspector';

interface SchemeCurveChartProps {
  snapshot: RunSnapshot | null;
  schemeName: string;
  params: Readonly<Record<string, number>>;
  inspector: DecisionInspector | undefined;
  height: number;
}

export function SchemeCurveChart({ snapshot, schemeName, params, inspector, height }: SchemeCurveChartProps) {
  const curve = snapshot?.dropCurve;
  const fields = inspector?.fields ?? [];
  const probe = snapshot?.probe ?? {};
  if (!curve && recordsCodelLaw(fields) && params.interval !== undefined) {
    const count = probe.dropping === 1 && probe.count !== undefined ? probe.count : null;
    return <CodelLawChart schemeName={schemeName} intervalMs={params.interval} count={count} decision={inspector?.codelLaw} height={height} />;
  }
  if (!curve && recordsPieState(fields) && params.target !== undefined) {
    const now = probe.p !== undefined && probe.qdelay !== undefined ? { qdelayMs: probe.qdelay, p: probe.p } : undefined;
    return (
      <PieStateChart
        schemeName={schemeName}
        targetMs={params.target}
        quietP={PIE_QUIET_P}
        now={now}
        points={inspector?.pie?.points ?? []}
        decision={inspector?.pie?.selected}
        height={height}
      />
    );
  }
  return <DropCurveChart curve={curve} schemeName={schemeName} height={height} decision={inspector?.curve} />;
}
