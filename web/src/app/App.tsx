// The page's layout: header, banners, the lesson and controls beside the
// charts, the transport dock. The state it lays out is composed in usePage.

import { ChartScaleContext, DESKTOP_CHARTS, PRESENT_CHARTS } from '../charts/chartScale';
import { ComparePicker } from '../compare/ComparePicker';
import { ExportMenu } from '../controls/ExportMenu';
import { PresetGallery } from '../controls/PresetGallery';
import { RunAgainOffer } from '../controls/RunAgainOffer';
import { ScenarioPanel } from '../controls/ScenarioPanel';
import { SchemePanel } from '../controls/SchemePanel';
import { ShareLink } from '../controls/ShareLink';
import { SkipLinks } from '../controls/SkipLinks';
import { TransportBar } from '../controls/TransportBar';
import { WorkWarning } from '../controls/WorkWarning';
import type { EngineClient } from '../engine/client';
import { GlossaryDialog } from '../glossary/GlossaryDialog';
import { GlossaryContext } from '../glossary/Term';
import { LessonPanel } from '../lessons/LessonPanel';
import { LESSON_FILE_PROBLEMS, LESSONS } from '../lessons/lessons';
import { ReproduceGallery } from '../reproduce/ReproduceGallery';
import { PAPER_FIGURES } from './paperFigures';
import { PaperFigures } from '../sweep/PaperFigures';
import { REPRODUCTIONS } from '../reproduce/reproductions';
import { bufferCapacity, bufferUnit } from '../scenario/model';
import { PRESETS } from '../scenario/presets';
import { SweepPanel } from '../sweep/SweepPanel';
import { AppHeader, ErrorBanner, Notice } from './AppHeader';
import { CrashBanner } from './CrashBanner';
import { EmbedView } from './EmbedView';
import { Layout, LessonStrip, PaneTabs } from './PageSections';
import { RunCharts } from './RunCharts';
import { RunResults } from './RunResults';
import { acceptsEdits, acceptsParams } from './runLifecycle';
import { summaryOf, usePage } from './usePage';
import { STEP_S } from './useTransport';

export function App({ engine }: { engine: EngineClient }) {
  const state = usePage(engine);
  const { page, view, setView, speed, setSpeed, draft, setDraft, scroll, onScroll, panel, togglePanel, glossaryId, setGlossaryId } = state;
  const { experiment, scenario, catalogue, schemeEntry, schemeName, plan, sim, partner, edits, transport, lesson, shownReproduction, linkNow } = state;
  const { lifecycle, setNotice } = experiment;
  const runError = sim.error && <ErrorBanner text={sim.error} testId="run-error" />;
  const transportBar = (
    <TransportBar
      snapshot={sim.snapshot}
      speed={speed}
      stepS={STEP_S}
      onPlay={transport.play}
      onPause={transport.pause}
      onStep={transport.step}
      onReset={() => state.restart(false)}
      onSpeed={setSpeed}
    />
  );
  const charts = (
    <RunCharts
      scenario={scenario}
      schemeEntry={schemeEntry}
      sim={sim}
      partner={plan.partner ? { ...plan.partner, sim: partner } : null}
      view={view}
      onView={setView}
      scroll={scroll}
      onScroll={onScroll}
    />
  );

  return (
    <ChartScaleContext.Provider value={page.options.present ? PRESENT_CHARTS : DESKTOP_CHARTS}>
      {page.options.embed ? (
        <EmbedView
          engine={engine}
          experimentName={scenario.name ?? ''}
          options={page.options}
          runError={runError}
          transportBar={transportBar}
          charts={charts}
        />
      ) : (
        <GlossaryContext.Provider value={setGlossaryId}>
          <div className="app" data-pane={page.pane} data-phase={lifecycle.phase}>
            <SkipLinks />
            <AppHeader
              experimentName={scenario.name ?? ''}
              lessons={{ open: page.lessonsOpen, onToggle: page.toggleLessons }}
              presets={togglePanel('presets')}
              reproductions={togglePanel('reproductions')}
              onGlossary={() => setGlossaryId(null)}
              present={{ open: page.options.present, onToggle: () => page.setPresent(!page.options.present) }}
            >
              <SweepPanel scenario={edits.current} plan={sim.plan} scheme={schemeEntry} />
              <ExportMenu
                series={sim.store}
                summary={summaryOf(sim.snapshot)}
                scenario={edits.current}
                plan={sim.plan}
                partner={plan.partner ? { name: plan.partner.name, series: partner.store, summary: summaryOf(partner.snapshot) } : undefined}
                capture={(json, hop, fromS, toS) => engine.capture(json, hop, fromS, toS)}
              />
              <ShareLink buildLink={linkNow} experimentName={edits.current.name ?? ''} />
            </AppHeader>
            <CrashBanner engine={engine} />
            {experiment.fatal && <ErrorBanner text={experiment.fatal} />}
            {experiment.notice && <Notice text={experiment.notice} onDismiss={() => setNotice(null)} />}
            {runError}
            {lifecycle.phase === 'confirming' && <WorkWarning estimate={lifecycle.estimate} onRunAnyway={experiment.confirm} onCancel={state.cancelHeavyRun} />}
            {panel === 'presets' && <PresetGallery presets={PRESETS} onPick={state.pickPreset} engine={engine} />}
            {panel === 'reproductions' && <ReproduceGallery reproductions={REPRODUCTIONS} onPick={state.pickReproduction} engine={engine} />}
            {panel === 'reproductions' && <PaperFigures figures={PAPER_FIGURES} linked={page.options.figure} onLink={page.setFigure} />}
            <PaneTabs panes={page.panes} pane={page.pane} onPane={page.setPane} />
            <Layout
              lesson={
                page.lessonsOpen && (
                  <LessonPanel
                    lessons={LESSONS}
                    fileProblems={LESSON_FILE_PROBLEMS}
                    lesson={lesson.lesson}
                    stepIndex={lesson.stepIndex}
                    onOpen={(lessonId, index) => page.setLesson(lessonId === null ? null : { lessonId, stepIndex: Math.max(0, index) })}
                    onRun={state.runLessonStep}
                    progress={lesson.progress}
                    running={lesson.running}
                  />
                )
              }
              controls={
                <>
                  <SchemePanel
                    catalogue={catalogue ?? []}
                    schemeId={scenario.queue.scheme}
                    params={sim.params}
                    probe={sim.snapshot?.probe}
                    bufferUnit={bufferUnit(scenario)}
                    bufferCapacity={bufferCapacity(scenario)}
                    onScheme={(id) => state.loadLocal({ ...scenario, queue: { scheme: id } })}
                    onParam={sim.setParam}
                    ready={acceptsParams(lifecycle)}
                  />
                  <ScenarioPanel
                    draft={draft}
                    onDraft={setDraft}
                    problem={edits.problem}
                    plan={edits.plan}
                    flowKinds={edits.flowKinds}
                    dirty={edits.dirty}
                    ready={acceptsEdits(lifecycle)}
                    onApply={() => state.loadLocal(edits.toRun)}
                    onRevert={() => setDraft(scenario)}
                  />
                </>
              }
              dock={
                <>
                  {transportBar}
                  <RunAgainOffer
                    finished={sim.snapshot?.finished ?? false}
                    durationS={sim.snapshot?.durationS ?? scenario.duration_s}
                    paramChanges={sim.paramChanges}
                    onRunAgain={() => state.restart(true)}
                  />
                  {lesson.lesson && page.pane === 'charts' && (
                    <LessonStrip
                      stepIndex={lesson.stepIndex}
                      answered={lesson.answered}
                      running={lesson.running !== null}
                      onBack={() => page.setPane('lesson')}
                    />
                  )}
                </>
              }
              main={
                <>
                  <ComparePicker {...state.picker} />
                  {plan.partner && partner.error && <ErrorBanner text={`${plan.partner.name}: ${partner.error}`} testId="partner-error" />}
                  {charts}
                  <RunResults
                    engine={engine}
                    names={plan.partner ? [plan.partner.mainName, plan.partner.name] : [schemeName, null]}
                    snapshots={[sim.snapshot, plan.partner ? partner.snapshot : null]}
                    measureFromS={sim.plan ? sim.plan.measure_from_s : 0}
                    reproduction={shownReproduction}
                    scenario={scenario}
                  />
                </>
              }
            />
          </div>
          {glossaryId !== undefined && <GlossaryDialog focusId={glossaryId} onClose={() => setGlossaryId(undefined)} />}
        </GlossaryContext.Provider>
      )}
    </ChartScaleContext.Provider>
  );
}
