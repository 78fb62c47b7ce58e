// The page's state, composed from the hooks that own each part: the run's
// lifecycle and the link (useExperiment), the editor's draft (useDraft), the
// page options (usePageOptions), the lesson (lessons/), compare mode's plan
// (compare/) and the reproduction on screen (reproduce/). App.tsx lays it out.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { comparePlan } from '../compare/comparePlan';
import { useFlavourChecks } from '../compare/useFlavourChecks';
import { completeSummary, type EngineClient, type RunSnapshot, type Speed } from '../engine/client';
import { messageOf } from '../engine/refusal';
import { LESSONS } from '../lessons/lessons';
import { useLessonPage, type StepLoad } from '../lessons/useLesson';
import { compareRuns, resolveReproduction, type ReproductionSource } from '../reproduce/reproductions';
import { linkedReproduction, useReproductionOnScreen } from '../reproduce/useReproductionLink';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import { bufferUnit } from '../scenario/model';
import { decodePageOptions } from '../scenario/pageOptions';
import type { Preset } from '../scenario/presets';
import type { Scenario, Summary } from '../scenario/types';
import { DEFAULT_VIEW, withLatencyCharts, type Comparison, type ViewState } from '../scenario/view';
import type { LoadedRun } from './runLifecycle';
import { useAddressBar } from './useAddressBar';
import { draftOnStart, useDraft } from './useDraft';
import { useExperiment } from './useExperiment';
import { usePageOptions } from './usePageOptions';
import { useSimulation } from './useSimulation';
import { useTransport } from './useTransport';

/** What the summary file reads when it is made, once a run has a snapshot. */
export const summaryOf = (snapshot: RunSnapshot | null) => snapshot && (() => completeSummary(snapshot));

/** A lesson link opens the step's own experiment, staged by the lesson, not the link's. */
const namesLesson = (hash: string) => LESSONS.some((l) => l.id === decodePageOptions(hash).lesson?.lessonId);

export type Panel = 'presets' | 'reproductions';

// One hook by design: the parts depend on each other in this order (the run feeds the draft, the lesson and compare mode).
export function usePage(engine: EngineClient) {
  const page = usePageOptions();
  const [view, setView] = useState<ViewState>(DEFAULT_VIEW);
  const [speed, setSpeed] = useState<Speed>(1);
  const [draft, setDraft] = useState<Scenario>(DEFAULT_SCENARIO);
  const [scroll, setScroll] = useState({ following: true, endS: 0 });
  // A link naming a paper's figure opens the panel that holds its card.
  const [panel, setPanel] = useState<Panel | null>(() => (page.options.figure ? 'reproductions' : null));
  const [glossaryId, setGlossaryId] = useState<string | null | undefined>(undefined);
  const reproductions = useReproductionOnScreen();
  const { opened: reproductionOpened } = reproductions;

  const started = useRef<Scenario | null>(null);
  const onStart = useCallback((run: LoadedRun) => {
    if (run.view) setView(run.view);
    const before = started.current;
    setDraft((draft) => draftOnStart(draft, before, run.scenario));
    started.current = run.scenario;
    setScroll({ following: true, endS: 0 });
  }, []);
  const onLinkOpened = useCallback(
    async (scenario: Scenario, loadId: number | null) => {
      const linked = await linkedReproduction(engine, decodePageOptions(window.location.hash).reproduction, scenario);
      if (linked.kind === 'found' && loadId !== null) reproductionOpened(linked.reproduction, loadId);
      return linked.kind === 'refused' ? linked.notice : null;
    },
    [engine, reproductionOpened],
  );
  const experiment = useExperiment(engine, onStart, onLinkOpened, namesLesson);
  const { loaded, load, setNotice, report } = experiment;
  const loadId = loaded?.loadId;
  const scenario = loaded?.scenario ?? DEFAULT_SCENARIO;
  const catalogue = experiment.catalogues[bufferUnit(scenario)];
  const schemeEntry = catalogue?.find((s) => s.id === scenario.queue.scheme);
  const schemeName = schemeEntry?.name ?? scenario.queue.scheme;
  const flavours = useFlavourChecks(engine, loaded?.scenario, view.compare?.by === 'cc' ? view.compare.cc : null);
  const plan = comparePlan(view.compare, scenario, loadId, catalogue, flavours);
  const built = useCallback((id: number) => report({ type: 'built', loadId: id }), [report]);
  const sim = useSimulation(engine, plan.waiting ? null : (loaded?.json ?? null), loadId ?? 0, speed, plan.lockstepGroup, loaded?.autoplay ?? true, built);
  const partner = useSimulation(engine, plan.partnerJson, loadId ?? 0, speed, plan.lockstepGroup);
  const edits = useDraft(engine, draft, loaded?.scenario, sim.params, schemeEntry);
  const transport = useTransport(sim, partner, plan.partner !== undefined);

  // The lifecycle hears what became of the run on screen.
  const phaseEvent = sim.error ? 'crashed' : sim.snapshot?.finished ? 'finished' : sim.snapshot ? 'restarted' : null;
  useEffect(() => {
    if (phaseEvent && loadId !== undefined) report({ type: phaseEvent, loadId });
  }, [phaseEvent, loadId, report]);

  // A partner the catalogue does not know (or the scheme itself) is named, never silently replaced.
  useEffect(() => {
    if (!plan.refused) return;
    setNotice(plan.refused);
    setView((current) => ({ ...current, compare: null }));
  }, [plan.refused, setNotice]);

  const loadStep = useCallback(
    ({ scenario: stepScenario, view: stepView, speed: stepSpeed, autoplay }: StepLoad) => {
      setNotice(null);
      if (stepSpeed !== undefined) setSpeed(stepSpeed);
      return load(stepScenario, { view: stepView, autoplay });
    },
    [load, setNotice],
  );
  const summarise = useCallback((json: string) => engine.runToEnd(json).then((text) => JSON.parse(text) as Summary), [engine]);
  const host = { loadId: loadId ?? null, snapshot: sim.snapshot, error: sim.error, scenario: edits.current, load: loadStep, summarise };
  const lesson = useLessonPage(page.options.lesson, host);
  useEffect(() => {
    if (lesson.unknownId) setNotice(`This link opens the lesson “${lesson.unknownId}”, which is not one of the lessons here.`);
  }, [lesson.unknownId, setNotice]);

  const shownReproduction = reproductions.shownFor(loadId);
  // The address carries the reproduction on screen, not the one a link once opened.
  const addressOptions = useMemo(() => ({ ...page.options, reproduction: shownReproduction?.id ?? null }), [page.options, shownReproduction]);
  const linkNow = useAddressBar(loaded ? edits.current : null, view, addressOptions);

  /** Run something made or picked here; picking the partner's scheme ends compare mode (a scheme compared with itself is no comparison). */
  const loadLocal = (next: Scenario) => {
    if (view.compare?.by === 'scheme' && next.queue.scheme === view.compare.scheme) setView((current) => ({ ...current, compare: null }));
    return load(next);
  };
  const pickReproduction = (source: ReproductionSource) => {
    setNotice(null);
    setPanel(null);
    // The partner is set with the run it belongs to: set earlier, it would be checked against the scheme still running.
    const scheme = compareRuns(source.file)[0]?.scheme;
    const nextView: ViewState = { ...view, compare: scheme ? { by: 'scheme', scheme } : null };
    // The live run is an illustration beside the verdicts, which come from their own runs: it goes at full speed.
    setSpeed('max');
    resolveReproduction(engine, source).then(
      (reproduction) => void load(reproduction.scenario, { view: nextView }).then((id) => id !== null && reproductions.opened(reproduction, id)),
      (error: unknown) => setNotice(messageOf(error)),
    );
  };
  const onScroll = useCallback((endS: number, following: boolean) => setScroll({ following, endS }), []);
  const restart = (play: boolean) => {
    setScroll({ following: true, endS: 0 });
    transport.reset();
    if (play) transport.play();
  };
  const togglePanel = (which: Panel) => ({ open: panel === which, onToggle: () => setPanel((p) => (p === which ? null : which)) });

  const pickPreset = (preset: Preset) => {
    setNotice(null);
    setPanel(null);
    setView((current) => withLatencyCharts(current, preset.scenario));
    void loadLocal(preset.scenario);
  };
  const compareWith = (comparison: Comparison) => {
    setNotice(null);
    setView((current) => ({ ...current, compare: comparison }));
    void loadLocal(edits.current);
  };
  const picker = {
    catalogue: catalogue ?? [],
    schemeId: scenario.queue.scheme,
    partner: plan.partner ?? null,
    flavours,
    onCompare: compareWith,
    onLeave: () => setView((current) => ({ ...current, compare: null })),
  };
  const cancelHeavyRun = () => {
    // With nothing run yet (an opened link), the default runs and the long one stays in the editor to shorten.
    const kept = experiment.cancel();
    if (kept) void load(DEFAULT_SCENARIO).then(() => setDraft(kept));
  };
  const runLessonStep = () => {
    lesson.run();
    page.setPane('charts');
  };

  return {
    page,
    view,
    setView,
    speed,
    setSpeed,
    draft,
    setDraft,
    scroll,
    onScroll,
    panel,
    setPanel,
    togglePanel,
    glossaryId,
    setGlossaryId,
    experiment,
    scenario,
    catalogue,
    schemeEntry,
    schemeName,
    plan,
    sim,
    partner,
    edits,
    transport,
    lesson,
    shownReproduction,
    linkNow,
    loadLocal,
    pickReproduction,
    pickPreset,
    picker,
    cancelHeavyRun,
    runLessonStep,
    restart,
  };
}
