import { describe, expect, it } from 'vitest';
import { StepSizer, lockstepTarget, playTarget, reached } from './pacing';

describe('playTarget', () => {
  it('advances the clock by speed × wall time', () => {
    expect(playTarget(2, 10, 10, 0.05, 60)).toBeCloseTo(10.1, 12);
  });

  it('goes straight to the end at full speed', () => {
    expect(playTarget('max', 3, 3, 0.01, 60)).toBe(60);
  });

  it('does not race to catch up after a stall', () => {
    // Five wall seconds passed (a hidden tab): resume, do not try to cover 5 s at once.
    expect(playTarget(1, 10, 10, 5, 60)).toBeCloseTo(10.25, 12);
  });

  it('never passes the end or goes backwards', () => {
    expect(playTarget(10, 59.9, 59.9, 1, 60)).toBe(60);
    expect(playTarget(1, 12, 11, 0, 60)).toBe(12);
  });
});

describe('reached', () => {
  it('accepts a time that rounded to just below the target', () => {
    // 54.08 + 0.1 is 54.18000000000001 in floats; the engine stops at 54.18 exactly.
    expect(reached(54.18, 54.08 + 0.1)).toBe(true);
    expect(reached(54.17, 54.18)).toBe(false);
  });
});

describe('StepSizer', () => {
  it('sizes steps to the observed engine speed', () => {
    const sizer = new StepSizer();
    for (let i = 0; i < 20; i++) sizer.observe(0.5, 1);
    // 0.5 simulated s per wall ms, aiming at 2 ms per step.
    expect(sizer.next()).toBeCloseTo(1, 2);
  });

  it('grows quickly from a cautious start when steps are too short to time', () => {
    const sizer = new StepSizer();
    const first = sizer.next();
    sizer.observe(first, 0.01);
    expect(sizer.next()).toBeGreaterThan(first);
  });
});

describe('lockstepTarget', () => {
  it('gives the group the nearest own target within reach', () => {
    // Real-time play: the clocks say 2.10 and 2.12 s; both runs go to 2.10.
    expect(lockstepTarget([2.1, 2.12], [2, 2.05], 0.4)).toBe(2.1);
  });

  it('holds the group within one stride of its slowest member', () => {
    // Full speed: every own target is the end of the run; the slowest (at 2 s) sets the pace.
    expect(lockstepTarget([60, 60], [2, 3.5], 0.4)).toBeCloseTo(2.4, 12);
  });

  it('keeps a run from passing a paused partner', () => {
    // A paused member's own target is where it stands: the other waits there.
    expect(lockstepTarget([60, 5], [5, 5], 0.4)).toBe(5);
  });

  it('never asks the slowest to go back', () => {
    expect(lockstepTarget([60, 60], [2, 5], -1)).toBe(2);
  });
});

describe('StepSizer.reach', () => {
  it('predicts simulated time from the measured rate', () => {
    const sizer = new StepSizer();
    for (let i = 0; i < 40; i++) sizer.observe(0.5, 1);
    expect(sizer.reach(8)).toBeCloseTo(4, 6);
  });
});
