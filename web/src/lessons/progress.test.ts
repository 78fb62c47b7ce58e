// A step's answer comes only from that step's own finished run. A fake engine
// plays loads on a fake clock, delivering snapshots as the worker does (a
// few times per second, the last one finished), and the page's view of them
// lags as it does in React: in the render where a new load arrives, the
// previous load's finished snapshot is still the latest one seen.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Summary } from '../scenario/types';
import { NO_PROGRESS, answerSummary, observe, progressReducer, stepSummaries, type LessonProgress, type ProgressEvent } from './progress';

/** A summary told apart by one number. */
function summaryOf(meanDelayMs: number): Summary {
  return { queue: { mean_delay_ms: meanDelayMs } } as unknown as Summary;
}

interface Snapshot {
  loadId: number;
  nowS: number;
  finished: boolean;
  summary: Summary;
}

/** Runs one load at a time, like the engine worker: each plays 60 simulated s at 10×, a snapshot every 200 ms of wall time. */
class FakePage {
  progress: LessonProgress = progressReducer(NO_PROGRESS, { type: 'opened', lessonId: 'bufferbloat' });
  loadId = 0;
  /** The latest snapshot the page holds, of whichever load sent it. */
  latest: Snapshot | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];

  /** Load an experiment whose run will end with `meanDelayMs`; resolves its load id after the engine's estimate (50 ms). */
  load(meanDelayMs: number, autoplay: boolean): Promise<number> {
    return new Promise((resolve) =>
      setTimeout(() => {
        this.loadId += 1;
        const loadId = this.loadId;
        this.timers.forEach(clearInterval);
        if (autoplay) {
          let nowS = 0;
          const timer = setInterval(() => {
            nowS = Math.min(60, nowS + 2);
            this.latest = { loadId, nowS, finished: nowS >= 60, summary: summaryOf(nowS >= 60 ? meanDelayMs : -1) };
            this.render();
            if (nowS >= 60) clearInterval(timer);
          }, 200);
          this.timers.push(timer);
        }
        this.render();
        resolve(loadId);
      }, 50),
    );
  }

  dispatch(event: ProgressEvent | null): void {
    if (event) this.progress = progressReducer(this.progress, event);
  }

  /** What the page does on each render: the lesson looks at the latest snapshot, whichever load sent it. */
  render(): void {
    const latest = this.latest;
    this.dispatch(observe(this.progress, this.loadId, latest, () => latest!.summary));
  }

  async runStep(stepIndex: number, meanDelayMs: number): Promise<number> {
    const loadId = await this.load(meanDelayMs, true);
    this.dispatch({ type: 'started', stepIndex, loadId });
    this.render();
    return loadId;
  }
}

describe('a step is answered only by its own finished run', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('no answer appears while the next step runs, and the answer is that run’s', async () => {
    const page = new FakePage();
    // Step 1 (Drop Tail): staged, run, finished.
    await vi.advanceTimersByTimeAsync(0);
    void page.load(694, false);
    await vi.advanceTimersByTimeAsync(60);
    const first = page.runStep(0, 694);
    await vi.advanceTimersByTimeAsync(60);
    await first;
    await vi.advanceTimersByTimeAsync(7_000);
    expect(answerSummary(page.progress, 0)).toEqual(summaryOf(694));

    // Next step (CoDel): staged at t = 0, paused. Step 1's finished snapshot is still the page's latest.
    void page.load(5, false);
    await vi.advanceTimersByTimeAsync(60);
    page.render();
    expect(answerSummary(page.progress, 1)).toBeUndefined();

    // Run: for the whole run, no answer; at 0.3 s the old finished snapshot is still the latest seen.
    const second = page.runStep(1, 5);
    await vi.advanceTimersByTimeAsync(60);
    await second;
    for (let ms = 0; ms < 5_800; ms += 100) {
      page.render();
      expect(answerSummary(page.progress, 1)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answerSummary(page.progress, 1)).toEqual(summaryOf(5));
    // Step 1's answer is untouched, and step 2's reveal quotes it.
    expect(stepSummaries(page.progress, 3)).toEqual([summaryOf(694), summaryOf(5), undefined]);
  });

  it('“Run it again” withdraws the answer until the new run ends', async () => {
    const page = new FakePage();
    const first = page.runStep(0, 694);
    await vi.advanceTimersByTimeAsync(7_000);
    await first;
    expect(answerSummary(page.progress, 0)).toEqual(summaryOf(694));
    const again = page.runStep(0, 700);
    await vi.advanceTimersByTimeAsync(60);
    await again;
    expect(answerSummary(page.progress, 0)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(answerSummary(page.progress, 0)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(answerSummary(page.progress, 0)).toEqual(summaryOf(700));
  });

  it('a run replaced before it ends never answers, even if it finishes later', async () => {
    const page = new FakePage();
    const first = page.runStep(0, 694);
    await vi.advanceTimersByTimeAsync(1_000);
    await first;
    // The student opens step 2 mid-run: its stage replaces the run.
    void page.load(5, false);
    await vi.advanceTimersByTimeAsync(60);
    expect(page.progress.running).toBeNull();
    // A late finished snapshot of the replaced load changes nothing.
    page.latest = { loadId: 1, nowS: 60, finished: true, summary: summaryOf(694) };
    page.render();
    expect(answerSummary(page.progress, 0)).toBeUndefined();
  });
});

describe('progressReducer', () => {
  const opened = progressReducer(NO_PROGRESS, { type: 'opened', lessonId: 'red' });

  it('a run made out of sight is quoted, never revealed as the answer, and never replaces a watched run', () => {
    let progress = progressReducer(opened, { type: 'recomputed', stepIndex: 0, summary: summaryOf(1) });
    expect(stepSummaries(progress, 2)[0]).toEqual(summaryOf(1));
    expect(answerSummary(progress, 0)).toBeUndefined();
    progress = progressReducer(progress, { type: 'started', stepIndex: 0, loadId: 4 });
    progress = progressReducer(progress, { type: 'finished', loadId: 4, summary: summaryOf(2) });
    progress = progressReducer(progress, { type: 'recomputed', stepIndex: 0, summary: summaryOf(3) });
    expect(answerSummary(progress, 0)).toEqual(summaryOf(2));
  });

  it('a finished load that is not the running step’s is ignored', () => {
    const running = progressReducer(opened, { type: 'started', stepIndex: 1, loadId: 7 });
    expect(progressReducer(running, { type: 'finished', loadId: 6, summary: summaryOf(9) })).toBe(running);
  });

  it('another lesson starts with nothing found', () => {
    let progress = progressReducer(opened, { type: 'started', stepIndex: 0, loadId: 1 });
    progress = progressReducer(progress, { type: 'finished', loadId: 1, summary: summaryOf(1) });
    expect(progressReducer(progress, { type: 'opened', lessonId: 'red' })).toBe(progress);
    expect(progressReducer(progress, { type: 'opened', lessonId: 'ecn' })).toEqual({ lessonId: 'ecn', running: null, results: {} });
  });
});
