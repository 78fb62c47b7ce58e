import { test } from '@playwright/test';
import { linkFor, setSpeed, simTime, waitForSimTime } from './helpers';

// A measurement, not a pass/fail threshold: how smoothly the page draws while
// the engine runs a 20-flow, 10 Mb/s scenario at full speed.
test('frame rate while a 20-flow 10 Mb/s scenario runs at full speed', async ({ page }, testInfo) => {
  const scenario = {
    version: 1,
    name: '20 TCP flows on 10 Mb/s (frame-rate probe)',
    seed: 1,
    duration_s: 3600,
    measure_from_s: 5,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 10 }, buffer: { packets: 200 } },
    queue: { scheme: 'red', params: { min_th: 30, max_th: 90 } },
    flows: [{ kind: 'tcp', count: 20, segment_bytes: 1000, access_delay_ms: [1, 40], start_s: [0, 2] }],
  };
  await page.goto(linkFor(scenario, '&view=queue,goodput,bars,curve,rate&window=30'));
  await waitForSimTime(page, 0.5);
  await setSpeed(page, 'max');
  const startS = await simTime(page);
  const frames = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let count = 0;
        const end = performance.now() + 5000;
        const tick = (now: number) => {
          count += 1;
          if (now < end) requestAnimationFrame(tick);
          else resolve(count);
        };
        requestAnimationFrame(tick);
      }),
  );
  const simulatedS = (await simTime(page)) - startS;
  const eventRate = await page.getByTestId('event-rate').innerText();
  const fps = frames / 5;
  const report = `fps: ${fps.toFixed(1)} over 5 s; simulated ${simulatedS.toFixed(1)} s meanwhile (${(simulatedS / 5).toFixed(1)}× real time); engine ${eventRate}`;
  console.log(report);
  testInfo.annotations.push({ type: 'measurement', description: report });
});
