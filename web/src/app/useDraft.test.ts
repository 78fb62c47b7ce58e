import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import type { Scenario } from '../scenario/types';
import { draftOnStart } from './useDraft';

const running: Scenario = { ...DEFAULT_SCENARIO, queue: { scheme: 'red', params: { max_p: 0.1 } } };
/** The user's edit of the running experiment, not yet applied. */
const edited: Scenario = { ...running, duration_s: running.duration_s + 5 };

describe('the draft when a run starts', () => {
  it('is the first run’s document', () => {
    expect(draftOnStart(DEFAULT_SCENARIO, null, running)).toBe(running);
  });

  it('keeps an edit not yet applied when the new run changes only the queue (another scheme, compare mode)', () => {
    expect(draftOnStart(edited, running, { ...running, queue: { scheme: 'codel' } })).toBe(edited);
    expect(draftOnStart(edited, running, { ...running, queue: { scheme: 'red', params: { max_p: 0.3 } } })).toBe(edited);
  });

  it('is the new run’s document when the run is another experiment (a preset, a link, Apply)', () => {
    const preset: Scenario = { ...running, name: 'another experiment' };
    expect(draftOnStart(edited, running, preset)).toBe(preset);
    expect(draftOnStart(edited, running, edited)).toBe(edited);
  });
});
