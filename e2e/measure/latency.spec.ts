import { expect, test, type Page } from '@playwright/test';
import { linkFor, setSpeed, waitForSimTime } from '../tests/helpers';
import { ALL_CHARTS_VIEW, saveMeasurement, twentyFlowScenario } from './probe';

const TRIALS = 8;

interface Trial {
  /** Input event → the engine worker's answer to the parameter change reaches the page. */
  replyMs: number | null;
  /** Input event → the queue chart's parameter-change line shows the new value. */
  markMs: number | null;
  /** Input event → the drop-probability curve is redrawn for the new max_p. */
  curveMs: number | null;
}

/**
 * Instrument the page: each `input` event of the max_p slider starts a trial
 * at the event's timestamp (when the browser received the key press). A
 * trial ends, for each of the two views of the change, in the first
 * animation frame that shows it: a MutationObserver notices the DOM change
 * (React's commit) and the trial ends when the next requestAnimationFrame
 * callback runs, i.e. when the browser starts producing the frame that
 * contains the change. That frame's style, layout, paint and compositing
 * (a few milliseconds) come after and are not counted.
 */
async function instrument(page: Page): Promise<void> {
  await page.evaluate(() => {
    const replies = (window as unknown as { setParamReplies: number[] }).setParamReplies;
    // What a change of max_p must reach on screen: the chart's mark of the change and the drop curve.
    const reads = {
      mark: () => document.querySelector('[data-testid=chart-queue] .param-changes')?.textContent ?? '',
      curve: () => document.querySelector('[data-testid=curve-line]')?.getAttribute('d') ?? '',
    };
    const watched = ['mark', 'curve'] as const;
    interface Pending {
      startMs: number;
      before: Record<(typeof watched)[number], string>;
      ms: Record<(typeof watched)[number], number | null>;
    }
    const state = { pending: null as Pending | null, done: [] as Trial[] };
    (window as unknown as { latencyProbe: typeof state }).latencyProbe = state;
    const atNextFrame = (record: (ms: number) => void) => requestAnimationFrame(() => record(performance.now()));
    const finish = (trial: Pending) => {
      if (trial.ms.mark !== null && trial.ms.curve !== null && state.pending === trial) {
        const reply = replies.find((at) => at >= trial.startMs);
        state.done.push({ replyMs: reply === undefined ? null : reply - trial.startMs, markMs: trial.ms.mark, curveMs: trial.ms.curve });
        state.pending = null;
      }
    };
    document.querySelector('[data-testid=param-max_p]')!.addEventListener(
      'input',
      (event) => {
        state.pending = { startMs: event.timeStamp, before: { mark: reads.mark(), curve: reads.curve() }, ms: { mark: null, curve: null } };
      },
      { capture: true },
    );
    // Whether a change is seen and its frame awaited, per thing watched.
    const seen = { mark: false, curve: false };
    new MutationObserver(() => {
      const trial = state.pending;
      for (const key of watched) {
        if (!trial) seen[key] = false;
        else if (!seen[key] && reads[key]() !== trial.before[key]) {
          seen[key] = true;
          atNextFrame((now) => {
            trial.ms[key] = now - trial.startMs;
            seen[key] = false;
            finish(trial);
          });
        }
      }
    }).observe(document.querySelector('[data-testid=charts]')!, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** Before the page loads: note when each answer to a parameter change arrives from the engine worker. */
async function watchWorkerReplies(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const replies: number[] = [];
    (window as unknown as { setParamReplies: number[] }).setParamReplies = replies;
    const waiting = new Set<number>();
    const watched = new WeakSet<Worker>();
    const post = Worker.prototype.postMessage as (this: Worker, message: unknown, transfer?: Transferable[]) => void;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: Transferable[]) {
      const request = message as { type?: string; requestId?: number };
      if (request?.type === 'setParam' && request.requestId !== undefined) waiting.add(request.requestId);
      if (!watched.has(this)) {
        watched.add(this);
        this.addEventListener('message', (event: MessageEvent<{ type?: string; requestId?: number }>) => {
          if (event.data?.type === 'reply' && event.data.requestId !== undefined && waiting.delete(event.data.requestId)) replies.push(performance.now());
        });
      }
      post.call(this, message, transfer);
    } as typeof Worker.prototype.postMessage;
  });
}

async function runTrials(page: Page): Promise<Trial[]> {
  const slider = page.getByTestId('param-max_p');
  const trials: Trial[] = [];
  for (let i = 0; i < TRIALS; i++) {
    const before = await page.evaluate(() => (window as unknown as { latencyProbe: { done: unknown[] } }).latencyProbe.done.length);
    // Alternate directions so max_p stays near where it started.
    await slider.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { latencyProbe: { done: unknown[] } }).latencyProbe.done.length), {
        message: 'the change shows in both charts',
        timeout: 5000,
      })
      .toBe(before + 1);
    trials.push(await page.evaluate(() => (window as unknown as { latencyProbe: { done: Trial[] } }).latencyProbe.done.at(-1)!));
    // Changes of one parameter closer together than 1.5 s are one gesture: one mark, relabelled in place.
    await page.waitForTimeout(1600);
  }
  return trials;
}

function summarise(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return { medianMs: round(sorted[Math.floor(sorted.length / 2)]), maxMs: round(sorted[sorted.length - 1]), allMs: values.map(round) };
}

// A measurement, not a pass/fail threshold: how long a slider change takes
// to show in the charts while the 20-flow scenario runs, at real time and
// at full speed (where the engine worker is busiest).
test('latency from a slider change to the charts showing it', async ({ page }, testInfo) => {
  await watchWorkerReplies(page);
  await page.goto(linkFor(twentyFlowScenario(), ALL_CHARTS_VIEW));
  await waitForSimTime(page, 1);
  await instrument(page);
  const results: Record<string, { reply: ReturnType<typeof summarise>; mark: ReturnType<typeof summarise>; curve: ReturnType<typeof summarise> }> = {};
  for (const speed of ['1', 'max']) {
    await setSpeed(page, speed);
    await page.waitForTimeout(1000);
    const trials = await runTrials(page);
    results[speed === '1' ? 'realTime' : 'fullSpeed'] = {
      reply: summarise(trials.map((t) => t.replyMs!)),
      mark: summarise(trials.map((t) => t.markMs!)),
      curve: summarise(trials.map((t) => t.curveMs!)),
    };
  }
  const path = saveMeasurement('slider-latency', {
    scenario: '20 TCP flows, 10 Mb/s, RED, every chart, 30 s window; max_p slider moved with the arrow keys',
    definition:
      "input event's timestamp → start of the first animation frame whose DOM shows the change (queue chart's parameter mark label; drop-probability curve path); that frame's paint is not included",
    trials: TRIALS,
    ...results,
  });
  const report = Object.entries(results)
    .map(
      ([speed, r]) =>
        `${speed}: worker reply median ${r.reply.medianMs} ms, mark median ${r.mark.medianMs} ms (max ${r.mark.maxMs}), curve median ${r.curve.medianMs} ms (max ${r.curve.maxMs})`,
    )
    .join('; ');
  console.log(`slider → chart latency: ${report} → ${path}`);
  testInfo.annotations.push({ type: 'measurement', description: report });
});
