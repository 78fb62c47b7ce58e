// The Lessons panel: the list of lessons, then one step at a time. A step
// says what to watch and asks for a prediction; only once it is given can
// the experiment run, and when the step's own run ends the answer is
// revealed from that run's summary (progress.ts keeps which run that is).

import { useEffect, useId, useRef, useState } from 'react';
import { RichText } from '../glossary/Term';
import type { Summary } from '../scenario/types';
import type { Lesson, LessonStep } from './format';
import type { LessonFileProblem } from './lessons';
import { answerSummary, stepSummaries, type LessonProgress } from './progress';
import { fillTemplate, formatMeasured, judge, measureValue, type Answer } from './template';
import type { StepRun } from './useLesson';
import './lessons.css';

interface LessonPanelProps {
  lessons: readonly Lesson[];
  fileProblems: readonly LessonFileProblem[];
  lesson: Lesson | null;
  stepIndex: number;
  onOpen: (lessonId: string | null, stepIndex: number) => void;
  onRun: () => void;
  progress: LessonProgress;
  /** The step's run while it goes on, or null. */
  running: StepRun | null;
}

export function LessonPanel({ lessons, fileProblems, lesson, stepIndex, onOpen, onRun, progress, running }: LessonPanelProps) {
  if (!lesson) return <LessonList lessons={lessons} fileProblems={fileProblems} onOpen={(id) => onOpen(id, 0)} />;
  return <LessonSteps key={lesson.id} lesson={lesson} stepIndex={stepIndex} onOpen={onOpen} onRun={onRun} progress={progress} running={running} />;
}

function LessonList({
  lessons,
  fileProblems,
  onOpen,
}: {
  lessons: readonly Lesson[];
  fileProblems: readonly LessonFileProblem[];
  onOpen: (id: string) => void;
}) {
  return (
    <section className="lessons panel" aria-label="Lessons" data-testid="lessons">
      <h2>Lessons</h2>
      <p className="hint">Each lesson sets up a few experiments. Predict what will happen, run it, and see how the run compares.</p>
      <ul className="lesson-list">
        {lessons.map((lesson) => (
          <li key={lesson.id}>
            <button type="button" className="lesson-pick" onClick={() => onOpen(lesson.id)} data-testid={`lesson-pick-${lesson.id}`}>
              <span className="lesson-title">{lesson.title}</span>
              <span className="lesson-summary">{lesson.summary}</span>
              <span className="lesson-meta">{lesson.steps.length} steps</span>
            </button>
          </li>
        ))}
      </ul>
      {fileProblems.map(({ id, problems }) => (
        <div key={id} className="problem-banner" role="alert" data-testid={`lesson-problems-${id}`}>
          lessons/{id}.json was left out:
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

interface LessonStepsProps {
  lesson: Lesson;
  stepIndex: number;
  onOpen: (lessonId: string | null, stepIndex: number) => void;
  onRun: () => void;
  progress: LessonProgress;
  running: StepRun | null;
}

function LessonSteps({ lesson, stepIndex, onOpen, onRun, progress, running }: LessonStepsProps) {
  const index = Math.min(stepIndex, lesson.steps.length - 1);
  const step = lesson.steps[index];
  // Per step: the prediction given.
  const [answers, setAnswers] = useState<(Answer | undefined)[]>([]);
  const answer = answers[index];
  const result = progress.results[index];
  const summary = answerSummary(progress, index);
  const started = progress.running?.stepIndex === index;
  return (
    <section className="lessons panel" aria-label={`Lesson: ${lesson.title}`} data-testid="lesson">
      <div className="lesson-head">
        <button type="button" className="icon-button" onClick={() => onOpen(null, 0)} data-testid="lesson-list">
          All lessons
        </button>
        <span className="lesson-progress" data-testid="lesson-progress">
          Step {index + 1} of {lesson.steps.length}
        </span>
      </div>
      <h2 className="lesson-name">{lesson.title}</h2>
      <h3 className="step-title" data-testid="step-title">
        {step.title}
      </h3>
      <p className="step-watch">
        <RichText text={step.watch} />
      </p>
      <PredictionForm
        key={index}
        step={step}
        answer={answer}
        locked={started || summary !== undefined}
        onAnswer={(next) => setAnswers((known) => Object.assign([...known], { [index]: next }))}
      />
      <div className="step-run">
        <button type="button" className="primary" onClick={onRun} disabled={!answer} data-testid="lesson-run">
          {summary || started ? 'Run it again' : 'Run the experiment'}
        </button>
        {!answer && <span className="hint">Make your prediction first.</span>}
        {running && !running.error && (
          <span className="hint" role="status" data-testid="lesson-running">
            Running: t = {running.nowS.toFixed(0)} of {running.durationS.toFixed(0)} s. Watch the charts.
          </span>
        )}
        {running?.error && (
          <span className="field-error" role="alert">
            {running.error}
          </span>
        )}
      </div>
      {answer && summary && (
        <Reveal key={result?.loadId} step={step} answer={answer} summary={summary} earlier={stepSummaries(progress, lesson.steps.length)} />
      )}
      <nav className="step-nav" aria-label="Lesson steps">
        <button type="button" onClick={() => onOpen(lesson.id, index - 1)} disabled={index === 0} data-testid="lesson-previous">
          Previous step
        </button>
        {index < lesson.steps.length - 1 ? (
          <button type="button" className={summary ? 'primary' : undefined} onClick={() => onOpen(lesson.id, index + 1)} data-testid="lesson-next">
            Next step
          </button>
        ) : (
          <button type="button" onClick={() => onOpen(null, 0)} data-testid="lesson-done">
            Back to all lessons
          </button>
        )}
      </nav>
    </section>
  );
}

function PredictionForm({
  step,
  answer,
  locked,
  onAnswer,
}: {
  step: LessonStep;
  answer: Answer | undefined;
  locked: boolean;
  onAnswer: (answer: Answer) => void;
}) {
  const name = useId();
  const prediction = step.predict;
  const [text, setText] = useState(answer?.kind === 'number' ? String(answer.value) : '');
  return (
    <fieldset className="prediction" disabled={locked} data-testid="prediction">
      <legend>
        <span className="prediction-tag">Predict</span> <RichText text={prediction.question} />
      </legend>
      {prediction.kind === 'choice' ? (
        <div className="prediction-options">
          {prediction.options.map((option, i) => (
            <label key={option.label} className="prediction-option">
              <input
                type="radio"
                name={name}
                checked={answer?.kind === 'choice' && answer.option === i}
                onChange={() => onAnswer({ kind: 'choice', option: i })}
                data-testid={`prediction-option-${i}`}
              />
              {option.label}
            </label>
          ))}
        </div>
      ) : (
        <label className="prediction-number">
          <input
            type="number"
            inputMode="decimal"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              const value = Number(event.target.value);
              if (event.target.value.trim() !== '' && Number.isFinite(value)) onAnswer({ kind: 'number', value });
            }}
            aria-label={`your prediction in ${prediction.measure.unit}`}
            data-testid="prediction-number"
          />
          <span>{prediction.measure.unit}</span>
          <span className="hint" data-testid="prediction-tolerance">
            Counted right within ±{Math.round(prediction.tolerance * 100)} % of the measured value.
          </span>
        </label>
      )}
      {locked && <p className="hint">Your prediction is locked in.</p>}
    </fieldset>
  );
}

function Reveal({ step, answer, summary, earlier }: { step: LessonStep; answer: Answer; summary: Summary; earlier: readonly (Summary | undefined)[] }) {
  const value = measureValue(step.predict.measure, summary);
  if (value === undefined) {
    return (
      <p className="problem-banner" role="alert">
        This run has no value for {step.predict.measure.field}, so the prediction cannot be checked.
      </p>
    );
  }
  return <Verdict step={step} answer={answer} value={value} summary={summary} earlier={earlier} />;
}

function Verdict({
  step,
  answer,
  value,
  summary,
  earlier,
}: {
  step: LessonStep;
  answer: Answer;
  value: number;
  summary: Summary;
  earlier: readonly (Summary | undefined)[];
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The answer is what the student came back for: bring it into view when it
  // appears, and again whenever it is shown after being hidden (on a phone it
  // arrives while the charts are on screen, and shows when the lesson tab does).
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let shown = false;
    const observer = new ResizeObserver(([entry]) => {
      const visible = entry.contentRect.height > 0;
      if (visible && !shown) element.scrollIntoView({ block: 'nearest' });
      shown = visible;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const verdict = judge(step.predict, answer, value);
  const reveal = fillTemplate(step.reveal, { current: summary, earlier }, formatMeasured(step.predict.measure, value));
  return (
    <div
      ref={ref}
      className={verdict.right ? 'reveal reveal-right' : 'reveal reveal-wrong'}
      role="status"
      data-testid="lesson-reveal"
      data-right={verdict.right}
    >
      <p className="verdict" data-testid="lesson-verdict">
        <strong>{verdict.right ? 'Right.' : 'Not quite.'}</strong> {verdict.sentence}
      </p>
      <p>
        <RichText text={reveal.text} />
      </p>
    </div>
  );
}
