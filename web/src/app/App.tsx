// The page: opens the experiment from the link (or the default), runs it in
// the engine worker, and lays out the controls and charts around it.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CompareArea } from '../compare/CompareArea';
import { ComparePicker } from '../compare/ComparePicker';
import { CompareTable } from '../compare/CompareTable';
import { ExportMenu } from '../controls/ExportMenu';
import { PresetGallery } from '../controls/PresetGallery';
import { ScenarioPanel } from '../controls/ScenarioPanel';
import { SchemePanel } from '../controls/SchemePanel';
import { ShareLink } from '../controls/ShareLink';
import { SkipLinks } from '../controls/SkipLinks';
import { SummaryPanel } from '../controls/SummaryPanel';
import { TransportBar } from '../controls/TransportBar';
import { WorkWarning } from '../controls/WorkWarning';
import { completeSummary, type EngineClient, type RunSnapshot, type Speed, type WorkEstimate } from '../engine/client';
import { GlossaryDialog } from '../glossary/GlossaryDialog';
import { GlossaryContext, Term } from '../glossary/Term';
import type { LessonStep } from '../lessons/format';
import { LessonPanel, type StepRun } from '../lessons/LessonPanel';
import { LESSON_FILE_PROBLEMS, LESSONS } from '../lessons/lessons';
import { DEFAULT_LESSON_SPEED, stepScenario } from '../lessons/setup';
import { decodeFragment } from '../scenario/codec';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import { bufferCapacity, bufferUnit, bufferUnitParams, type BufferUnit } from '../scenario/model';
import { PRESETS, type Preset } from '../scenario/presets';
import type { CatalogueEntry, Scenario, ScenarioProblem, Summary } from '../scenario/types';
import { decodePageOptions, withPageOptions, type PageOptions } from '../scenario/pageOptions';
import { DEFAULT_VIEW, type ViewState } from '../scenario/view';
import { ReproduceGallery } from '../reproduce/ReproduceGallery';
import { ReproductionResults } from '../reproduce/ReproductionResults';
import { REPRODUCTIONS, compareRuns, type Reproduction } from '../reproduce/reproductions';
import { SweepPanel } from '../sweep/SweepPanel';
import { ChartsArea } from './ChartsArea';
import { CrashBanner } from './CrashBanner';
import { useAddressBar } from './useAddressBar';
import { useSimulation } from './useSimulation';

const STEP_S = 0.1;

interface LoadedScenario {
  scenario: Scenario;
  /** Exactly the text the engine runs (a link's own text, so it reproduces bit for bit). */
  json: string;
  loadId: number;
}

function describeProblem(problem: ScenarioProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
}

type LinkedReproduction = { kind: 'none' } | { kind: 'found'; reproduction: Reproduction } | { kind: 'refused'; notice: string };

/** The reproduction a link names, if it is one of ours and the link runs its experiment (otherwise its paper values would not apply). */
function linkedReproduction(id: string | null, scenario: Scenario): LinkedReproduction {
  if (id === null) return { kind: 'none' };
  const reproduction = REPRODUCTIONS.find((r) => r.id === id);
  if (!reproduction) return { kind: 'refused', notice: `This link names the reproduction “${id}”, which is not one of the reproductions here.` };
  // Parameters may differ: links carry every parameter's value, and a run's sliders may have moved, as they may on the page.
  if (reproduction.scenario.queue.scheme !== scenario.queue.scheme || withoutQueue(reproduction.scenario) !== withoutQueue(scenario)) {
    return {
      kind: 'refused',
      notice: `The experiment in this link is not the one of the reproduction “${id}”, so the paper's values are not shown beside it.`,
    };
  }
  return { kind: 'found', reproduction };
}

/** Everything but the queue: what the scenario panel edits. */
function withoutQueue(scenario: Scenario): string {
  return JSON.stringify({ ...scenario, queue: null });
}

/** Write the page options into the address (keeping the experiment there), without reloading or a history entry. */
function showPageOptions(options: PageOptions): void {
  const fragment = withPageOptions(window.location.hash, options);
  window.history.replaceState(null, '', window.location.pathname + window.location.search + (fragment ? `#${fragment}` : ''));
}

/** What a narrow screen shows, one at a time (a wide screen shows them side by side). */
type Pane = 'lesson' | 'charts' | 'controls';

const PANE_LABELS: Record<Pane, string> = { lesson: 'Lesson', charts: 'Charts', controls: 'Controls' };

/** The lesson step whose experiment was loaded, and the load that ran it. */
interface LessonRun {
  lessonId: string;
  stepIndex: number;
  loadId: number;
}

/** What the summary file reads when it is made, once a run has a snapshot. */
function summaryOf(snapshot: RunSnapshot | null): (() => Summary) | null {
  return snapshot && (() => completeSummary(snapshot));
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'A'].includes(target.tagName));
}

export function App({ engine }: { engine: EngineClient }) {
  const [loaded, setLoaded] = useState<LoadedScenario | null>(null);
  const [draft, setDraft] = useState<Scenario>(DEFAULT_SCENARIO);
  const [problem, setProblem] = useState<ScenarioProblem | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  const [view, setView] = useState<ViewState>(DEFAULT_VIEW);
  const [speed, setSpeed] = useState<Speed>(1);
  const [catalogues, setCatalogues] = useState<Partial<Record<BufferUnit, CatalogueEntry[]>>>({});
  const [galleryOpen, setGalleryOpen] = useState(false);
  const [reproduceOpen, setReproduceOpen] = useState(false);
  /** The reproduction whose run is loaded (`loadId`); any other load leaves it. */
  const [openReproduction, setOpenReproduction] = useState<{ reproduction: Reproduction; loadId: number } | null>(null);
  const [following, setFollowing] = useState(true);
  const [windowEndS, setWindowEndS] = useState(0);
  const loadCount = useRef(0);
  const loadAttempt = useRef(0);
  /** A run the engine estimates as long, waiting for Run anyway or Cancel. */
  const [heavyRun, setHeavyRun] = useState<{ scenario: Scenario; json: string; estimate: WorkEstimate; view?: ViewState } | null>(null);
  const [pageOptions, setPageOptions] = useState<PageOptions>(() => decodePageOptions(window.location.hash));
  const [lessonsOpen, setLessonsOpen] = useState(() => pageOptions.lesson !== null);
  const [lessonRun, setLessonRun] = useState<LessonRun | null>(null);
  const [pane, setPane] = useState<Pane>(() => (pageOptions.lesson !== null ? 'lesson' : 'charts'));
  const [glossaryId, setGlossaryId] = useState<string | null | undefined>(undefined);

  const scenario = loaded?.scenario ?? DEFAULT_SCENARIO;
  const unit = bufferUnit(scenario);
  const catalogue = catalogues[unit];
  const schemeEntry = catalogue?.find((s) => s.id === scenario.queue.scheme);
  // Compare mode: the partner runs the same scenario with only the scheme
  // replaced (its catalogue defaults, the same buffer), from the same t = 0.
  const partnerEntry = view.compare !== null && view.compare !== scenario.queue.scheme ? catalogue?.find((s) => s.id === view.compare) : undefined;
  const comparing = loaded !== null && partnerEntry !== undefined;
  const partnerJson = comparing ? JSON.stringify({ ...scenario, queue: { scheme: partnerEntry.id } }) : null;
  // A link asking for a partner waits for the catalogue, so both runs start together.
  const waitForPartner = view.compare !== null && catalogue === undefined;
  const lockstepGroup = comparing ? `compare-${loaded.loadId}` : undefined;
  const sim = useSimulation(engine, waitForPartner ? null : (loaded?.json ?? null), loaded?.loadId ?? 0, speed, lockstepGroup);
  const partner = useSimulation(engine, partnerJson, loaded?.loadId ?? 0, speed, lockstepGroup);

  /** Run `scenario` now, with the view it asks for if any (set together, so nothing sees one without the other); returns the load's id. */
  const start = useCallback((scenario: Scenario, json: string, nextView?: ViewState): number => {
    loadCount.current += 1;
    if (nextView) setView(nextView);
    setLoaded({ scenario, json, loadId: loadCount.current });
    setDraft(scenario);
    setFollowing(true);
    return loadCount.current;
  }, []);

  /**
   * Start a scenario, asking first when the engine estimates it as long; only the latest request counts.
   * Resolves to the id of the load it started, or null when it started nothing (superseded, or waiting for Run anyway).
   */
  const load = useCallback(
    (scenario: Scenario, json = JSON.stringify(scenario), nextView?: ViewState): Promise<number | null> => {
      const attempt = ++loadAttempt.current;
      setHeavyRun(null);
      return engine.estimateWork(json).then(
        (estimate) => {
          if (attempt !== loadAttempt.current) return null;
          if (estimate.events <= estimate.limit) return start(scenario, json, nextView);
          setDraft(scenario);
          setHeavyRun({ scenario, json, estimate, view: nextView });
          return null;
        },
        // An invalid scenario starts as before, and the run reports the engine's message.
        () => (attempt === loadAttempt.current ? start(scenario, json, nextView) : null),
      );
    },
    [engine, start],
  );

  // Open the experiment in the link, now and whenever another link is pasted.
  useEffect(() => {
    let latest = 0;
    const open = async () => {
      const attempt = ++latest;
      const decoded = decodeFragment(window.location.hash);
      // Read now: until the run starts, the address shows no reproduction.
      const reproductionId = decodePageOptions(window.location.hash).reproduction;
      if (decoded.kind === 'none') {
        load(DEFAULT_SCENARIO);
        return;
      }
      if (decoded.kind === 'invalid') {
        setView(decoded.view);
        setNotice(`This link could not be opened: ${decoded.reason}. Showing the default experiment instead.`);
        load(DEFAULT_SCENARIO);
        return;
      }
      const linkProblem = await engine.validate(decoded.scenarioJson);
      if (attempt !== latest) return;
      if (linkProblem) {
        setView(decoded.view);
        setNotice(`The experiment in this link was not accepted (${describeProblem(linkProblem)}). Showing the default experiment instead.`);
        load(DEFAULT_SCENARIO);
        return;
      }
      setNotice(null);
      const scenario = JSON.parse(decoded.scenarioJson) as Scenario;
      const linked = linkedReproduction(reproductionId, scenario);
      if (linked.kind === 'refused') setNotice(linked.notice);
      // The view starts with the run it belongs to: its compare partner is checked against that run's scheme, not the one still running.
      const loadId = await load(scenario, decoded.scenarioJson, decoded.view);
      if (loadId !== null && linked.kind === 'found') setOpenReproduction({ reproduction: linked.reproduction, loadId });
    };
    void open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [engine, load]);

  // A pasted link brings its own present, embed and lesson options.
  useEffect(() => {
    const read = () => {
      const next = decodePageOptions(window.location.hash);
      setPageOptions(next);
      if (next.lesson) {
        setLessonsOpen(true);
        setPane('lesson');
      }
    };
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  // A partner the catalogue does not know (or the scheme itself) is named, never silently replaced.
  useEffect(() => {
    if (view.compare === null || !catalogue || partnerEntry) return;
    const known = catalogue.find((s) => s.id === view.compare);
    setNotice(
      known
        ? `This link compares ${known.name} with itself; showing it without compare mode.`
        : `This link compares with “${view.compare}”, which is not a queue scheme here; showing the experiment without compare mode.`,
    );
    setView((current) => ({ ...current, compare: null }));
  }, [view.compare, catalogue, partnerEntry]);

  useEffect(() => {
    if (catalogues[unit]) return;
    engine.catalogue(unit).then(
      (entries) => setCatalogues((known) => ({ ...known, [unit]: entries })),
      (reason: unknown) => setFatal(`The scheme catalogue could not be loaded: ${String(reason)}`),
    );
  }, [engine, unit, catalogues]);

  useEffect(() => {
    document.title = scenario.name ? `${scenario.name} · AQM Lab` : 'AQM Lab';
  }, [scenario.name]);

  /** The running experiment as a document: the loaded scenario with the live parameter values. */
  const currentScenario = useMemo<Scenario>(
    () => ({ ...scenario, queue: { scheme: scenario.queue.scheme, params: { ...scenario.queue.params, ...sim.params } } }),
    [scenario, sim.params],
  );

  /** The draft as it would run: thresholds in the old buffer unit make no sense in a new one, so they go back to defaults. */
  const draftToRun = useMemo<Scenario>(() => {
    const params = { ...currentScenario.queue.params };
    if (bufferUnit(draft) !== unit) for (const id of bufferUnitParams(schemeEntry)) delete params[id];
    return { ...draft, queue: { scheme: currentScenario.queue.scheme, params } };
  }, [draft, currentScenario, unit, schemeEntry]);

  useEffect(() => {
    let current = true;
    engine.validate(JSON.stringify(draftToRun)).then((next) => current && setProblem(next));
    return () => {
      current = false;
    };
  }, [engine, draftToRun]);

  const dirty = loaded !== null && withoutQueue(draft) !== withoutQueue(scenario);

  // In compare mode the transport drives both runs (the worker keeps them in lockstep).
  // The hooks' actions are stable callbacks, so this changes only when compare mode does.
  const { play, pause, step, reset } = sim;
  const { play: playPartner, pause: pausePartner, step: stepPartner, reset: resetPartner } = partner;
  const transport = useMemo(
    () => ({
      play: () => {
        play();
        if (comparing) playPartner();
      },
      pause: () => {
        pause();
        if (comparing) pausePartner();
      },
      step: () => {
        step(STEP_S);
        if (comparing) stepPartner(STEP_S);
      },
      reset: () => {
        reset();
        if (comparing) resetPartner();
      },
    }),
    [play, pause, step, reset, playPartner, pausePartner, stepPartner, resetPartner, comparing],
  );

  const schemeName = schemeEntry?.name ?? scenario.queue.scheme;
  const partnerName = partnerEntry?.name ?? '';
  const comparedRuns = useMemo(
    () =>
      [
        { name: schemeName, store: sim.store },
        { name: partnerName, store: partner.store },
      ] as const,
    [schemeName, sim.store, partnerName, partner.store],
  );

  const togglePlay = useCallback(() => {
    if (sim.snapshot?.playing) transport.pause();
    else transport.play();
  }, [sim.snapshot?.playing, transport]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === ' ' && !isTyping(event.target) && !event.repeat) {
        event.preventDefault();
        togglePlay();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePlay]);

  const shownReproduction = openReproduction !== null && openReproduction.loadId === loaded?.loadId ? openReproduction.reproduction : null;
  // The address carries the reproduction on screen, not the one a link once opened.
  const addressOptions = useMemo(() => ({ ...pageOptions, reproduction: shownReproduction?.id ?? null }), [pageOptions, shownReproduction]);
  const linkNow = useAddressBar(loaded ? currentScenario : null, view, addressOptions);

  useEffect(() => {
    // A reproduction enters the address only with its own experiment (useAddressBar writes both at once).
    showPageOptions({ ...pageOptions, reproduction: decodePageOptions(window.location.hash).reproduction });
    document.documentElement.classList.toggle('present', pageOptions.present);
    document.documentElement.classList.toggle('embed', pageOptions.embed);
  }, [pageOptions]);

  /** Run something the user made or picked here (not from the link). */
  const loadLocal = (next: Scenario): Promise<number | null> => {
    // A scheme compared with itself is no comparison: a scheme or preset that picks the partner ends compare mode.
    if (next.queue.scheme === view.compare) setView((current) => ({ ...current, compare: null }));
    return load(next);
  };

  /** Enter compare mode (or switch partner): both runs restart from t = 0 together. */
  const compareWith = (id: string) => {
    setView((current) => ({ ...current, compare: id }));
    loadLocal(currentScenario);
  };

  const pickPreset = (preset: Preset) => {
    setNotice(null);
    setGalleryOpen(false);
    loadLocal(preset.scenario);
  };

  /** Run a reproduction's scenario, beside its compare scheme if it has one. */
  const pickReproduction = (reproduction: Reproduction) => {
    setNotice(null);
    setReproduceOpen(false);
    // The partner is set with the run it belongs to: set earlier, it would be checked against the scheme still running.
    const nextView = { ...view, compare: compareRuns(reproduction.file)[0]?.scheme ?? null };
    // The live run is an illustration beside the verdicts, which come from their own runs: it goes at full speed.
    setSpeed('max');
    void load(reproduction.scenario, undefined, nextView).then((loadId) => loadId !== null && setOpenReproduction({ reproduction, loadId }));
  };

  const onScroll = useCallback((endS: number, follow: boolean) => {
    setWindowEndS(endS);
    setFollowing(follow);
  }, []);

  const openedLesson = pageOptions.lesson ? LESSONS.find((l) => l.id === pageOptions.lesson?.lessonId) : undefined;
  const stepIndex = openedLesson ? Math.min(pageOptions.lesson?.stepIndex ?? 0, openedLesson.steps.length - 1) : 0;

  useEffect(() => {
    if (pageOptions.lesson && !openedLesson) setNotice(`This link opens the lesson “${pageOptions.lesson.lessonId}”, which is not one of the lessons here.`);
  }, [pageOptions.lesson, openedLesson]);

  const openLesson = (lessonId: string | null, index: number) =>
    setPageOptions((current) => ({ ...current, lesson: lessonId === null ? null : { lessonId, stepIndex: Math.max(0, index) } }));

  const runLessonStep = (step: LessonStep) => {
    const preset = PRESETS.find((p) => p.id === step.setup.preset);
    if (!openedLesson || !preset) return;
    setNotice(null);
    setView({ charts: step.setup.charts ?? DEFAULT_VIEW.charts, windowS: step.setup.window_s ?? 0, compare: null });
    setSpeed(step.setup.speed ?? DEFAULT_LESSON_SPEED);
    const lessonId = openedLesson.id;
    void loadLocal(stepScenario(step.setup, preset.scenario)).then((loadId) => loadId !== null && setLessonRun({ lessonId, stepIndex, loadId }));
    setPane('charts');
  };

  // The step's run, while the page still runs what the step set up.
  const stepRun: StepRun | null =
    openedLesson && lessonRun && lessonRun.lessonId === openedLesson.id && lessonRun.stepIndex === stepIndex && lessonRun.loadId === loaded?.loadId
      ? {
          nowS: sim.snapshot?.nowS ?? 0,
          durationS: sim.snapshot?.durationS ?? scenario.duration_s,
          finished: sim.snapshot?.finished ?? false,
          summary: sim.snapshot?.finished ? completeSummary(sim.snapshot) : undefined,
          error: sim.error,
        }
      : null;

  const toggleLessons = () => {
    if (lessonsOpen) {
      setLessonsOpen(false);
      setPageOptions((current) => ({ ...current, lesson: null }));
      if (pane === 'lesson') setPane('charts');
    } else {
      setLessonsOpen(true);
      setPane('lesson');
    }
  };

  const panes: Pane[] = lessonsOpen ? ['lesson', 'charts', 'controls'] : ['charts', 'controls'];
  const shownPane = panes.includes(pane) ? pane : 'charts';

  /** Why the run could not start or stopped; the full page and the embedded view both show it. */
  const runError = sim.error && (
    <p className="banner banner-error" role="alert" data-testid="run-error">
      {sim.error}
    </p>
  );

  const transportBar = (
    <TransportBar
      snapshot={sim.snapshot}
      speed={speed}
      stepS={STEP_S}
      onPlay={transport.play}
      onPause={transport.pause}
      onStep={transport.step}
      onReset={() => {
        setFollowing(true);
        transport.reset();
      }}
      onSpeed={setSpeed}
    />
  );

  const charts = comparing ? (
    <CompareArea scenario={scenario} runs={comparedRuns} windowS={view.windowS} onWindow={(windowS) => setView((current) => ({ ...current, windowS }))} />
  ) : (
    <ChartsArea
      store={sim.store}
      scenario={scenario}
      schemeEntry={schemeEntry}
      params={sim.params}
      paramChanges={sim.paramChanges}
      snapshot={sim.snapshot}
      view={view}
      onView={setView}
      following={following}
      windowEndS={windowEndS}
      onScroll={onScroll}
    />
  );

  if (pageOptions.embed) {
    const full = new URL(window.location.href);
    full.hash = withPageOptions(full.hash, { ...pageOptions, embed: false });
    return (
      <div className="app app-embed" data-testid="embed">
        <div className="embed-head">
          <span className="experiment-name" data-testid="experiment-name">
            {scenario.name || 'Untitled experiment'}
          </span>
          <a href={full.toString()} target="_blank" rel="noopener" data-testid="open-full">
            Open in AQM Lab
          </a>
        </div>
        <CrashBanner engine={engine} />
        {runError}
        {transportBar}
        <main className="main">{charts}</main>
      </div>
    );
  }

  return (
    <GlossaryContext.Provider value={setGlossaryId}>
      <div className="app" data-pane={shownPane}>
        <SkipLinks />
        <header className="app-header">
          <h1>AQM Lab</h1>
          <p className="experiment-name" data-testid="experiment-name">
            {scenario.name || 'Untitled experiment'}
          </p>
          <div className="header-actions">
            <button type="button" onClick={toggleLessons} aria-expanded={lessonsOpen} data-testid="open-lessons">
              {lessonsOpen ? 'Hide lessons' : 'Lessons'}
            </button>
            <button type="button" onClick={() => setGalleryOpen((open) => !open)} aria-expanded={galleryOpen} data-testid="toggle-gallery">
              {galleryOpen ? 'Hide presets' : 'Presets'}
            </button>
            <button type="button" onClick={() => setReproduceOpen((open) => !open)} aria-expanded={reproduceOpen} data-testid="toggle-reproduce">
              {reproduceOpen ? 'Hide reproductions' : 'Reproduce the papers'}
            </button>
            <button type="button" onClick={() => setGlossaryId(null)} data-testid="open-glossary">
              Glossary
            </button>
            <button
              type="button"
              onClick={() => setPageOptions((current) => ({ ...current, present: !current.present }))}
              aria-pressed={pageOptions.present}
              title="Large type and thick lines for a projector"
              data-testid="toggle-present"
            >
              Present
            </button>
            <SweepPanel scenario={currentScenario} scheme={schemeEntry} />
            <ExportMenu
              series={sim.store}
              summary={summaryOf(sim.snapshot)}
              scenario={currentScenario}
              partner={comparing ? { name: partnerEntry.name, series: partner.store, summary: summaryOf(partner.snapshot) } : undefined}
            />
            <ShareLink buildLink={linkNow} experimentName={currentScenario.name ?? ''} />
          </div>
        </header>

        <CrashBanner engine={engine} />
        {fatal && (
          <p className="banner banner-error" role="alert">
            {fatal}
          </p>
        )}
        {notice && (
          <div className="banner banner-notice" role="alert" data-testid="link-notice">
            <span>{notice}</span>
            <button type="button" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        )}
        {runError}
        {heavyRun && (
          <WorkWarning
            estimate={heavyRun.estimate}
            onRunAnyway={() => {
              setHeavyRun(null);
              start(heavyRun.scenario, heavyRun.json, heavyRun.view);
            }}
            onCancel={() => {
              setHeavyRun(null);
              // With nothing running yet (an opened link), run the default and keep the long one in the editor to shorten.
              if (loaded === null) {
                start(DEFAULT_SCENARIO, JSON.stringify(DEFAULT_SCENARIO));
                setDraft(heavyRun.scenario);
              }
            }}
          />
        )}
        {galleryOpen && <PresetGallery presets={PRESETS} onPick={pickPreset} />}
        {reproduceOpen && <ReproduceGallery reproductions={REPRODUCTIONS} onPick={pickReproduction} />}

        <div className="pane-tabs" role="tablist" aria-label="Page sections">
          {panes.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              aria-selected={shownPane === id}
              className={shownPane === id ? 'pane-tab current' : 'pane-tab'}
              onClick={() => setPane(id)}
              data-testid={`pane-${id}`}
            >
              {PANE_LABELS[id]}
            </button>
          ))}
        </div>

        <div className="layout">
          <aside className="sidebar">
            {lessonsOpen && (
              <div className="pane-region" data-region="lesson">
                <LessonPanel
                  lessons={LESSONS}
                  fileProblems={LESSON_FILE_PROBLEMS}
                  lesson={openedLesson ?? null}
                  stepIndex={stepIndex}
                  onOpen={openLesson}
                  onRun={runLessonStep}
                  run={stepRun}
                />
              </div>
            )}
            <div className="pane-region" data-region="controls">
              <SchemePanel
                catalogue={catalogue ?? []}
                schemeId={scenario.queue.scheme}
                params={sim.params}
                probe={sim.snapshot?.probe}
                bufferUnit={unit}
                bufferCapacity={bufferCapacity(scenario)}
                onScheme={(id) => loadLocal({ ...scenario, queue: { scheme: id } })}
                onParam={sim.setParam}
              />
              <ScenarioPanel
                draft={draft}
                onDraft={setDraft}
                problem={problem}
                dirty={dirty}
                onApply={() => loadLocal(draftToRun)}
                onRevert={() => setDraft(scenario)}
              />
            </div>
          </aside>

          <div className="dock">
            {transportBar}
            {openedLesson && shownPane === 'charts' && (
              <div className="lesson-strip" data-testid="lesson-strip">
                <span>
                  Lesson step {stepIndex + 1}: {stepRun?.finished ? 'the run is over.' : stepRun ? 'watch the charts.' : 'predict first.'}
                </span>
                <button type="button" className={stepRun?.finished ? 'primary' : undefined} onClick={() => setPane('lesson')} data-testid="back-to-lesson">
                  {stepRun?.finished ? 'See the answer' : 'Back to the lesson'}
                </button>
              </div>
            )}
          </div>

          <main className="main pane-region" data-region="charts">
            <ComparePicker
              catalogue={catalogue ?? []}
              schemeId={scenario.queue.scheme}
              partner={comparing ? partnerEntry.id : null}
              onCompare={compareWith}
              onLeave={() => setView((current) => ({ ...current, compare: null }))}
            />
            {comparing && partner.error && (
              <p className="banner banner-error" role="alert" data-testid="partner-error">
                {partnerEntry?.name ?? 'The compared scheme'}: {partner.error}
              </p>
            )}
            {charts}
            {comparing && (
              <CompareTable
                nameA={schemeEntry?.name ?? scenario.queue.scheme}
                nameB={partnerEntry.name}
                summaryA={sim.snapshot?.summary}
                summaryB={partner.snapshot?.summary}
                measureFromS={scenario.measure_from_s ?? 0}
              />
            )}
            {!comparing && <SummaryPanel summary={sim.snapshot?.summary} measureFromS={scenario.measure_from_s ?? 0} />}
            {shownReproduction && <ReproductionResults engine={engine} reproduction={shownReproduction} />}
            <p className="glossary-hint">
              Words on the charts: <Term id="offered-load">offered load</Term>, <Term id="markov-model">Markov model</Term>,{' '}
              <Term id="mathis-padhye">Mathis/Padhye</Term>, <Term id="ecn">ECN marks</Term>, <Term id="fair-share">fair share</Term>. Tap a word for its
              meaning, or open the glossary from the top of the page.
            </p>
          </main>
        </div>
      </div>
      {glossaryId !== undefined && <GlossaryDialog focusId={glossaryId} onClose={() => setGlossaryId(undefined)} />}
    </GlossaryContext.Provider>
  );
}
