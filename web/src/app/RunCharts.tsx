// The charts of the run on screen, or in compare mode both runs' on shared
// axes.

import { CompareArea } from '../compare/CompareArea';
import type { ComparedPartner } from '../compare/comparePlan';
import { DecisionPanel } from '../explain/DecisionPanel';
import { bufferUnit } from '../scenario/model';
import type { CatalogueEntry, Scenario } from '../scenario/types';
import type { ViewState } from '../scenario/view';
import { ChartsArea } from './ChartsArea';
import { useDecisionInspector } from './useDecisionInspector';
import type { SimulationView } from './useSimulation';

interface RunChartsProps {
  scenario: Scenario;
  schemeEntry: CatalogueEntry | undefined;
  sim: SimulationView;
  /** The compare partner (what varies, both runs' names) and its run, when comparing. */
  partner: (ComparedPartner & { sim: SimulationView }) | null;
  view: ViewState;
  onView: (update: (current: ViewState) => ViewState) => void;
  scroll: { following: boolean; endS: number };
  onScroll: (endS: number, following: boolean) => void;
}

export function RunCharts({ scenario, schemeEntry, sim, partner, view, onView, scroll, onScroll }: RunChartsProps) {
  const inspector = useDecisionInspector(sim);
  const schemeName = schemeEntry?.name ?? scenario.queue.scheme;
  // Until the engine has built the run, there is no plan to lay the charts out by.
  if (!sim.plan) return <section className="charts" aria-busy="true" data-testid="charts-pending" />;
  if (partner) {
    return (
      <CompareArea
        scenario={scenario}
        plan={sim.plan}
        varies={partner.by}
        queueName={schemeName}
        runs={[
          { name: partner.mainName, store: sim.store, delays: sim.snapshot?.delays },
          { name: partner.name, store: partner.sim.store, delays: partner.sim.snapshot?.delays },
        ]}
        windowS={view.windowS}
        onWindow={(windowS) => onView((current) => ({ ...current, windowS }))}
      />
    );
  }
  return (
    <>
      <DecisionPanel
        inspector={inspector}
        schemeName={schemeName}
        unit={bufferUnit(scenario)}
        recording={sim.recordingDecisions}
        onRecording={sim.setRecordingDecisions}
      />
      <ChartsArea
        store={sim.store}
        scenario={scenario}
        plan={sim.plan}
        schemeEntry={schemeEntry}
        params={sim.params}
        paramChanges={sim.paramChanges}
        snapshot={sim.snapshot}
        view={view}
        onView={(next) => onView(() => next)}
        following={scroll.following}
        windowEndS={scroll.endS}
        onScroll={onScroll}
        inspector={inspector}
      />
    </>
  );
}
