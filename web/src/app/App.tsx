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
import { SummaryPanel } from '../controls/SummaryPanel';
import { TransportBar } from '../controls/TransportBar';
import type { EngineClient, Speed } from '../engine/client';
import { decodeFragment, encodeFragment } from '../scenario/codec';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import { bufferCapacity, bufferUnit, bufferUnitParams, type BufferUnit } from '../scenario/model';
import { PRESETS, type Preset } from '../scenario/presets';
import type { CatalogueEntry, Scenario, ScenarioProblem } from '../scenario/types';
import { DEFAULT_VIEW, type ViewState } from '../scenario/view';
import { SweepPanel } from '../sweep/SweepPanel';
import { ChartsArea } from './ChartsArea';
import { CrashBanner } from './CrashBanner';
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

/** Everything but the queue: what the scenario panel edits. */
function withoutQueue(scenario: Scenario): string {
  return JSON.stringify({ ...scenario, queue: null });
}

/** Drop an opened link from the address once the page runs something else, so reloading does not bring it back. */
function forgetLink(): void {
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search);
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
  const [following, setFollowing] = useState(true);
  const [windowEndS, setWindowEndS] = useState(0);
  const loadCount = useRef(0);

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

  const load = useCallback((scenario: Scenario, json = JSON.stringify(scenario)) => {
    loadCount.current += 1;
    setLoaded({ scenario, json, loadId: loadCount.current });
    setDraft(scenario);
    setFollowing(true);
  }, []);

  // Open the experiment in the link, now and whenever another link is pasted.
  useEffect(() => {
    let latest = 0;
    const open = async () => {
      const attempt = ++latest;
      const decoded = decodeFragment(window.location.hash);
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
      // The view changes with the scenario it belongs to: its compare partner is checked against that scenario's scheme.
      setView(decoded.view);
      if (linkProblem) {
        setNotice(`The experiment in this link was not accepted (${describeProblem(linkProblem)}). Showing the default experiment instead.`);
        load(DEFAULT_SCENARIO);
        return;
      }
      setNotice(null);
      load(JSON.parse(decoded.scenarioJson) as Scenario, decoded.scenarioJson);
    };
    void open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [engine, load]);

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

  const buildLink = () => {
    const url = new URL(window.location.href);
    url.hash = encodeFragment(JSON.stringify(currentScenario), view);
    return url.toString();
  };

  /** Run something the user made or picked here (not from the link). */
  const loadLocal = (next: Scenario) => {
    forgetLink();
    // A scheme compared with itself is no comparison: a scheme or preset that picks the partner ends compare mode.
    if (next.queue.scheme === view.compare) setView((current) => ({ ...current, compare: null }));
    load(next);
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

  const onScroll = useCallback((endS: number, follow: boolean) => {
    setWindowEndS(endS);
    setFollowing(follow);
  }, []);

  return (
    <div className="app">
      <header className="app-header">
        <h1>AQM Lab</h1>
        <p className="experiment-name" data-testid="experiment-name">
          {scenario.name || 'Untitled experiment'}
        </p>
        <button type="button" onClick={() => setGalleryOpen((open) => !open)} aria-expanded={galleryOpen} data-testid="toggle-gallery">
          {galleryOpen ? 'Hide presets' : 'Presets'}
        </button>
        <SweepPanel scenario={currentScenario} scheme={schemeEntry} />
        <ExportMenu
          series={sim.store}
          summary={sim.snapshot?.summary}
          scenario={currentScenario}
          partner={comparing ? { name: partnerEntry.name, series: partner.store, summary: partner.snapshot?.summary } : undefined}
        />
        <ShareLink buildLink={buildLink} />
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
      {sim.error && (
        <p className="banner banner-error" role="alert" data-testid="run-error">
          {sim.error}
        </p>
      )}
      {galleryOpen && <PresetGallery presets={PRESETS} onPick={pickPreset} />}

      <div className="layout">
        <aside className="sidebar">
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
        </aside>

        <main className="main">
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
          {comparing ? (
            <>
              <CompareArea
                scenario={scenario}
                runs={comparedRuns}
                windowS={view.windowS}
                onWindow={(windowS) => setView((current) => ({ ...current, windowS }))}
              />
              <CompareTable
                nameA={schemeEntry?.name ?? scenario.queue.scheme}
                nameB={partnerEntry.name}
                summaryA={sim.snapshot?.summary}
                summaryB={partner.snapshot?.summary}
                measureFromS={scenario.measure_from_s ?? 0}
              />
            </>
          ) : (
            <ChartsArea
              store={sim.store}
              scenario={scenario}
              schemeEntry={schemeEntry}
              params={sim.params}
              marks={sim.marks}
              snapshot={sim.snapshot}
              view={view}
              onView={setView}
              following={following}
              windowEndS={windowEndS}
              onScroll={onScroll}
            />
          )}
          {!comparing && <SummaryPanel summary={sim.snapshot?.summary} measureFromS={scenario.measure_from_s ?? 0} />}
        </main>
      </div>
    </div>
  );
}
