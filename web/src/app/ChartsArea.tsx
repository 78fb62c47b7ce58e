// The charts and their time window. This is the only part of the page that
// redraws on every animation frame while data streams in; the rest follows
// the slower snapshots.

import { Fragment, memo, useMemo, type ReactNode } from 'react';
import { CoupledCurveChart } from '../charts/CoupledCurveChart';
import { DropRateChart } from '../charts/DropRateChart';
import { GoodputBars, type FlowBar } from '../charts/GoodputBars';
import { GoodputChart } from '../charts/GoodputChart';
import { GoodputDistribution } from '../charts/GoodputDistribution';
import { WindowChart } from '../charts/WindowChart';
import { MarkovChart } from '../charts/MarkovChart';
import { flowColor, groupColor } from '../charts/palette';
import { OnScreen } from '../charts/OnScreen';
import { QueueChart } from '../charts/QueueChart';
import type { ParamChange, TimeWindow } from '../charts/timeAxis';
import { useStoreRevision } from '../charts/useStoreRevision';
import { binWidth, visibleRows, type VisibleRows } from '../charts/visibleWindow';
import { SKIP_TARGETS } from '../controls/SkipLinks';
import { ViewControls } from '../controls/ViewControls';
import type { RunSnapshot } from '../engine/client';
import type { SeriesStore } from '../engine/seriesStore';
import { Term } from '../glossary/Term';
import { isolatesHosts } from '../scenario/hosts';
import { bufferCapacity, bufferUnit, bufferUnitParams, delayTargetParams, flowCount, flowDetail, flowGroups, flowsOf, PER_FLOW_LIMIT } from '../scenario/model';
import { paramName } from '../scenario/paramNames';
import type { CatalogueEntry, ResolvedPlan, Scenario } from '../scenario/types';
import type { ChartId, ViewState } from '../scenario/view';
import {
  coupledOperatingPoint,
  distributionData,
  drawsEachFlow,
  dropRateData,
  goodputFairShareLevels,
  flowFairShareLevels,
  flowLabel,
  goodputData,
  measuredLoadsOf,
  queueData,
  windowData,
} from './chartData';
import { LatencyChart } from './LatencyChart';
import { SchemeCurveChart } from './SchemeCurveChart';
import type { DecisionInspector } from './useDecisionInspector';

const CHART_HEIGHT = 270;
const NO_TIME = new Float64Array(0);
const COUNT = new Intl.NumberFormat('en');

interface ChartsAreaProps {
  store: SeriesStore | null;
  scenario: Scenario;
  /** The engine's plan of the run: groups and sample interval come from it, never from defaults of the page's own. */
  plan: ResolvedPlan;
  schemeEntry: CatalogueEntry | undefined;
  params: Readonly<Record<string, number>>;
  paramChanges: readonly ParamChange[];
  snapshot: RunSnapshot | null;
  view: ViewState;
  onView: (view: ViewState) => void;
  /** The window's right edge follows the newest sample. */
  following: boolean;
  /** The window's right edge when not following, in simulated seconds. */
  windowEndS: number;
  onScroll: (endS: number, following: boolean) => void;
  /** The drop-and-mark inspector: its marks on the time charts and its point on the curve. */
  inspector?: DecisionInspector;
}

export const ChartsArea = memo(function ChartsArea({
  store,
  scenario,
  plan,
  schemeEntry,
  params,
  paramChanges,
  snapshot,
  view,
  onView,
  following,
  windowEndS,
  onScroll,
  inspector,
}: ChartsAreaProps) {
  useStoreRevision(store);
  const unit = bufferUnit(scenario);
  const capacity = bufferCapacity(scenario);
  const groups = useMemo(() => flowGroups(plan), [plan]);
  const sampleIntervalS = plan.sample_interval_ms / 1000;
  const timeS = store && store.rows > 0 ? store.column('t_s') : NO_TIME;
  // A sample at t covers the interval before it.
  const firstS = timeS.length ? Math.max(0, timeS[0] - sampleIntervalS) : 0;
  const latestS = timeS.length ? timeS[timeS.length - 1] : 0;
  const endS = following ? latestS : Math.min(windowEndS, latestS);
  const startS = Math.max(0, endS - view.windowS);
  const timeWindow: TimeWindow = view.windowS > 0 ? { startS, endS: startS + view.windowS } : { startS: 0, endS: plan.duration_s };
  const binS = binWidth(timeWindow, sampleIntervalS);
  const rows = store ? visibleRows(store, timeWindow) : null;
  const queueProbes = useMemo(() => schemeEntry?.probes.filter((p) => p.kind === 'buffer') ?? [], [schemeEntry]);
  const named = (id: string) => {
    const spec = schemeEntry?.params.find((p) => p.id === id);
    return { id, label: spec ? paramName(spec) : id, value: params[id] ?? 0 };
  };
  const thresholds = bufferUnitParams(schemeEntry).map(named);
  const delayTargets = delayTargetParams(schemeEntry).map(named);

  const summary = snapshot?.summary;
  const flowResults = snapshot?.flowResults;
  const detail = flowResults?.detail ?? flowDetail(groups);
  const flowBars = useFlowBars(flowResults, groups);
  const distribution = useMemo(() => distributionData(groups, flowResults?.detail === 'perGroup' ? flowResults.groupGoodputsBps : []), [flowResults, groups]);
  const flowFairShares = useMemo(() => (summary ? flowFairShareLevels(groups, summary.groups) : []), [summary, groups]);
  const fairShares = useMemo(() => (summary ? goodputFairShareLevels(groups, summary.groups, scenario) : []), [summary, groups, scenario]);
  const measuredLoads = useMemo(() => measuredLoadsOf(summary?.hops ?? []), [summary]);
  /** What every time chart is drawn against: the window, its height and the parameter changes in it. */
  const timeAxes = { paramChanges, window: timeWindow, height: CHART_HEIGHT };
  const latency = { store, rows, groups, snapshot, binS, ...timeAxes };
  const markovModel = snapshot?.markovModel;
  const schemeName = schemeEntry?.name ?? scenario.queue.scheme;
  const barLegend = useBarLegend(groups);

  /** A time chart of the run's samples, drawn while it is on screen. */
  const onScreen = (draw: (store: SeriesStore, rows: VisibleRows) => ReactNode) => store && rows && <OnScreen render={() => draw(store, rows)} />;

  /** The charts in the order the view lists them: a lesson step puts first what its text talks about. */
  const chart = (id: ChartId): ReactNode => {
    switch (id) {
      case 'queue':
        return onScreen((store, rows) => (
          <QueueChart
            {...queueData(store, rows, unit, queueProbes)}
            {...timeAxes}
            unit={unit}
            bufferCapacity={capacity}
            thresholds={thresholds}
            delayTargets={delayTargets}
            decisions={inspector?.marks}
          />
        ));
      case 'goodput':
        return onScreen((store, rows) => <GoodputChart {...goodputData(store, rows, groups, binS)} {...timeAxes} fairShares={fairShares} binS={binS} />);
      case 'cwnd':
        return onScreen((store, rows) => <WindowChart {...windowData(store, rows, groups, binS)} {...timeAxes} binS={binS} />);
      case 'curve':
        // DualPI2 has two probabilities, both functions of its p′: drawn from its parameters and the newest sample.
        return scenario.queue.scheme === 'dualpi2' ? (
          <CoupledCurveChart
            k={named('k').value}
            kName={named('k').label}
            point={store && rows ? coupledOperatingPoint(store, rows) : undefined}
            height={CHART_HEIGHT}
            decision={inspector?.curve}
          />
        ) : (
          <SchemeCurveChart snapshot={snapshot} schemeName={schemeName} params={params} inspector={inspector} height={CHART_HEIGHT} />
        );
      case 'markov':
        return (
          markovModel && (
            <MarkovChart model={markovModel} measured={measuredLoads} schemeName={schemeName} windowS={summary?.window_s ?? 0} height={CHART_HEIGHT} />
          )
        );
      case 'rate':
        return onScreen((store, rows) => <DropRateChart {...dropRateData(store, rows, binS)} {...timeAxes} decisions={inspector?.marks} />);
      case 'bars':
        return detail === 'perGroup' ? (
          <GoodputDistribution {...distribution} fairShares={flowFairShares} windowS={summary?.window_s ?? 0} height={CHART_HEIGHT} />
        ) : (
          <GoodputBars flows={flowBars} groups={barLegend} windowS={summary?.window_s ?? 0} height={CHART_HEIGHT} />
        );
      default:
        return <LatencyChart id={id} {...latency} />;
    }
  };

  return (
    <>
      <ViewControls
        view={view}
        onView={onView}
        following={following}
        windowEndS={endS}
        firstS={firstS}
        latestS={latestS}
        onScroll={(next) => onScroll(next, next >= latestS)}
        onFollow={() => onScroll(latestS, true)}
        unavailable={snapshot && !markovModel ? { markov: `The Markov model covers RED and DSRED, not ${schemeName}.` } : undefined}
      />
      <ChartNotes
        perGroup={detail === 'perGroup'}
        flowCount={flowCount(groups)}
        dualQueue={scenario.queue.scheme === 'dualpi2' && (view.charts.includes('queue') || view.charts.includes('curve'))}
        hostShares={isolatesHosts(scenario) && view.charts.includes('bars')}
      />
      {/* data-rows: the series rows the page holds (what the time-series export writes). */}
      <div className="charts" data-testid="charts" data-rows={store?.rows ?? 0} id={SKIP_TARGETS.charts} tabIndex={-1}>
        {view.charts.map((id) => (
          <Fragment key={id}>{chart(id)}</Fragment>
        ))}
      </div>
    </>
  );
});

/** The goodput bars of a run whose snapshot has per-flow results. */
function useFlowBars(flowResults: RunSnapshot['flowResults'] | undefined, groups: ReturnType<typeof flowGroups>): FlowBar[] {
  return useMemo<FlowBar[]>(
    () =>
      (flowResults?.detail === 'perFlow' ? flowResults.summary.flows : []).map((flow) => ({
        flowId: flow.id,
        label: flowLabel(flow.id, groups[flow.group]),
        color: drawsEachFlow(groups) ? flowColor(flow.id) : groupColor(flow.group),
        goodputBps: flow.goodput_bps,
        fairShareBps: flow.fair_share_bps,
        droppedPackets: flow.dropped_packets,
        lossRate: flow.loss_rate,
        meanRttMs: flow.mean_rtt_ms,
        mathisBps: flow.tcp_models?.mathis_bps ?? null,
        padhyeBps: flow.tcp_models?.padhye_bps ?? null,
      })),
    [flowResults, groups],
  );
}

/** Bars take the colours of the goodput lines: a flow's own where each is drawn, else its group's. */
function useBarLegend(groups: ReturnType<typeof flowGroups>) {
  return useMemo(
    () =>
      drawsEachFlow(groups)
        ? groups.flatMap((g) => flowsOf(g).map((f) => ({ label: flowLabel(f, g), color: flowColor(f) })))
        : groups.map((g, i) => ({ label: g.label, color: groupColor(i) })),
    [groups],
  );
}

/** Notes above the charts: what a per-group view draws, what DualPI2's two queues add, and whose share CAKE's host isolation keeps. */
function ChartNotes({ perGroup, flowCount, dualQueue, hostShares }: { perGroup: boolean; flowCount: number; dualQueue: boolean; hostShares: boolean }) {
  return (
    <>
      {perGroup && (
        <p className="flow-detail-note" data-testid="flow-detail-note">
          <strong>{COUNT.format(flowCount)} flows: the charts show each flow group as a whole</strong>, not a line or bar per flow (more than {PER_FLOW_LIMIT}{' '}
          could not be told apart): goodput over time is each group&apos;s total, and goodput per flow is a <Term id="sorted-goodput">sorted curve</Term> per
          group. <Term id="per-group-view">About the per-group view</Term>
        </p>
      )}
      {dualQueue && (
        <p className="flow-detail-note" data-testid="dualq-note">
          DualPI2 keeps two queues: the queue chart draws the delay of each (<Term id="dual-queue">L and C queue</Term>), the curve chart both probabilities
          against the <Term id="base-probability">base probability p′</Term> (<Term id="coupling">coupling</Term>).
        </p>
      )}
      {hostShares && (
        <p className="flow-detail-note" data-testid="host-isolation-note">
          CAKE shares the link between <Term id="host-isolation">hosts</Term> first: the goodput bars’ fair-share ticks are per flow, so each flow of a host
          with many sits below its tick when the hosts split evenly. The summary below compares the hosts.
        </p>
      )}
    </>
  );
}
