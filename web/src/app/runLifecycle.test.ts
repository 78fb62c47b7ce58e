import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { acceptsEdits, acceptsParams, IDLE, lifecycleReducer, loadedRun, OPENING, type Lifecycle, type LifecycleEvent, type LoadRequest } from './runLifecycle';

const request = (name: string): LoadRequest => ({ scenario: { name } as Scenario, json: `{"name":"${name}"}`, autoplay: true });
const light = { events: 1e6, limit: 2e8, seconds: 1 } as never;
const heavy = { events: 9e8, limit: 2e8, seconds: 60 } as never;

function run(events: LifecycleEvent[], from: Lifecycle = IDLE): Lifecycle {
  return events.reduce(lifecycleReducer, from);
}

/** Run "a", light, as load 1, to its end. */
const FINISHED = run([
  { type: 'requested', attempt: 1, request: request('a') },
  { type: 'estimated', attempt: 1, estimate: light, loadId: 1 },
  { type: 'finished', loadId: 1 },
]);

describe('the run lifecycle', () => {
  it('estimating → running → finished, keyed to the load', () => {
    let state = run([{ type: 'requested', attempt: 1, request: request('a') }]);
    expect(state.phase).toBe('estimating');
    state = run([{ type: 'estimated', attempt: 1, estimate: light, loadId: 7 }], state);
    expect(state).toMatchObject({ phase: 'starting', loaded: { loadId: 7, json: '{"name":"a"}' } });
    state = run([{ type: 'built', loadId: 7 }], state);
    expect(state).toMatchObject({ phase: 'running', loaded: { loadId: 7 } });
    // Another load's end changes nothing.
    expect(run([{ type: 'finished', loadId: 6 }], state)).toBe(state);
    state = run([{ type: 'finished', loadId: 7 }], state);
    expect(state.phase).toBe('finished');
    expect(run([{ type: 'restarted', loadId: 7 }], state).phase).toBe('running');
  });

  it('a heavy run asks first; Run anyway starts it, Cancel returns to what ran before', () => {
    const before = FINISHED;
    const asking = run(
      [
        { type: 'requested', attempt: 2, request: request('big') },
        { type: 'estimated', attempt: 2, estimate: heavy, loadId: 2 },
      ],
      before,
    );
    expect(asking.phase).toBe('confirming');
    // The finished run stays on screen while the page asks.
    expect(loadedRun(asking)?.loadId).toBe(1);
    expect(run([{ type: 'cancelled' }], asking)).toBe(before);
    expect(run([{ type: 'confirmed', loadId: 2 }], asking)).toMatchObject({ phase: 'starting', loaded: { loadId: 2 } });
  });

  it('only the latest request counts', () => {
    const state = run([
      { type: 'requested', attempt: 1, request: request('a') },
      { type: 'requested', attempt: 2, request: request('b') },
      { type: 'estimated', attempt: 1, estimate: light, loadId: 1 },
    ]);
    expect(state.phase).toBe('estimating');
    expect(run([{ type: 'estimated', attempt: 2, estimate: null, loadId: 2 }], state)).toMatchObject({ phase: 'starting', loaded: { json: '{"name":"b"}' } });
  });

  it('a run the engine stopped is crashed until it restarts', () => {
    const state = run([
      { type: 'requested', attempt: 1, request: request('a') },
      { type: 'estimated', attempt: 1, estimate: light, loadId: 3 },
      { type: 'crashed', loadId: 3 },
    ]);
    expect(state.phase).toBe('crashed');
    expect(run([{ type: 'restarted', loadId: 3 }], state).phase).toBe('running');
  });

  it('a parameter change made while a new run is on its way is refused, not sent to the run it replaces', () => {
    // A finished run on screen takes changes.
    const before = FINISHED;
    expect(acceptsParams(before)).toBe(true);
    // A preset (or a link, or an applied edit) is requested: run 1's controls are still on screen, and take nothing.
    const estimating = run([{ type: 'requested', attempt: 2, request: request('preset') }], before);
    expect(loadedRun(estimating)?.loadId).toBe(1);
    expect(acceptsParams(estimating)).toBe(false);
    const starting = run([{ type: 'estimated', attempt: 2, estimate: light, loadId: 2 }], estimating);
    expect(acceptsParams(starting)).toBe(false);
    // Run 1 going back to t = 0 or being built late says nothing about run 2.
    expect(run([{ type: 'built', loadId: 1 }], starting)).toBe(starting);
    expect(run([{ type: 'restarted', loadId: 1 }], starting)).toBe(starting);
    // Once the engine has built run 2, changes go to it.
    expect(acceptsParams(run([{ type: 'built', loadId: 2 }], starting))).toBe(true);
    // Its first snapshot says so too (a run built and playing before the page heard it was built).
    expect(acceptsParams(run([{ type: 'restarted', loadId: 2 }], starting))).toBe(true);
    // A heavy request awaiting Run anyway takes none either; Cancel gives run 1 its controls back.
    const asking = run(
      [
        { type: 'requested', attempt: 3, request: request('big') },
        { type: 'estimated', attempt: 3, estimate: heavy, loadId: 0 },
      ],
      before,
    );
    expect(acceptsParams(asking)).toBe(false);
    expect(acceptsParams(run([{ type: 'cancelled' }], asking))).toBe(true);
    // A run that crashed while starting takes none.
    expect(acceptsParams(run([{ type: 'crashed', loadId: 2 }], starting))).toBe(false);
  });

  it('the scenario editor takes no edit from a request until its run starts, when the run document replaces the draft', () => {
    // Before the page's first run the draft is the default document, not the one on its way (a link's, a lesson's).
    expect(acceptsEdits(OPENING)).toBe(false);
    const first = run([{ type: 'requested', attempt: 1, request: request('link') }], OPENING);
    expect(acceptsEdits(first)).toBe(false);
    // The run starts (the page puts its document in the draft in the same turn): edits from now on stay.
    const starting = run([{ type: 'estimated', attempt: 1, estimate: light, loadId: 1 }], first);
    expect(acceptsEdits(starting)).toBe(true);
    // A preset or Apply while one runs; a heavy one waiting for Run anyway; Cancel gives the editor back.
    const asking = run([{ type: 'requested', attempt: 2, request: request('big') }], FINISHED);
    expect(acceptsEdits(asking)).toBe(false);
    const confirming = run([{ type: 'estimated', attempt: 2, estimate: heavy, loadId: 0 }], asking);
    expect(acceptsEdits(confirming)).toBe(false);
    expect(acceptsEdits(run([{ type: 'cancelled' }], confirming))).toBe(true);
    // A run that crashed is fixed in the editor.
    expect(acceptsEdits(run([{ type: 'crashed', loadId: 1 }], starting))).toBe(true);
  });

  it('a page whose link starts no run (a lesson past its last step) gives the default draft to the editor', () => {
    const unopened = run([{ type: 'unopened' }], OPENING);
    expect(unopened).toBe(IDLE);
    expect(acceptsEdits(unopened)).toBe(true);
    // A lesson link with a step to stage requests it at once: the editor stays closed until that run starts.
    expect(acceptsEdits(run([{ type: 'unopened' }, { type: 'requested', attempt: 1, request: request('step') }], OPENING))).toBe(false);
  });

  it('a link pasted while a run is on screen closes the editor before the engine has checked it', () => {
    const reading = run([{ type: 'opening' }], FINISHED);
    expect(acceptsEdits(reading)).toBe(false);
    // The run stays on screen, and takes no parameter change either: it is about to be replaced.
    expect(loadedRun(reading)?.loadId).toBe(1);
    expect(acceptsParams(reading)).toBe(false);
    // The link's run replaces it; a link that starts nothing here gives the run back as it was.
    const requested = run([{ type: 'requested', attempt: 2, request: request('link') }], reading);
    expect(requested).toMatchObject({ phase: 'estimating', before: { loaded: { loadId: 1 } } });
    expect(run([{ type: 'unopened' }], reading)).toBe(FINISHED);
    // A request already on its way (a preset picked just before) stays until the link's own supersedes it.
    const estimating = run([{ type: 'requested', attempt: 2, request: request('preset') }], FINISHED);
    expect(run([{ type: 'opening' }], estimating)).toBe(estimating);
    expect(run([{ type: 'unopened' }], estimating)).toBe(estimating);
  });

  it('no event puts another run on screen while the editor takes edits', () => {
    // Every state the lifecycle reaches from these events, and from each of them every event: whenever the run on
    // screen changes (and the draft with it), the editor was taking no edit just before.
    const events: LifecycleEvent[] = [
      { type: 'opening' },
      { type: 'unopened' },
      { type: 'requested', attempt: 1, request: request('a') },
      { type: 'requested', attempt: 2, request: request('b') },
      { type: 'estimated', attempt: 1, estimate: light, loadId: 1 },
      { type: 'estimated', attempt: 2, estimate: heavy, loadId: 0 },
      { type: 'estimated', attempt: 2, estimate: null, loadId: 2 },
      { type: 'confirmed', loadId: 3 },
      { type: 'cancelled' },
      ...[1, 2, 3].flatMap((loadId) => (['built', 'finished', 'crashed', 'restarted'] as const).map((type) => ({ type, loadId }))),
    ];
    const seen = new Set<Lifecycle>([OPENING]);
    let frontier: Lifecycle[] = [OPENING];
    for (let depth = 0; depth < 5; depth++) {
      const next: Lifecycle[] = [];
      for (const state of frontier) {
        for (const event of events) {
          const after = lifecycleReducer(state, event);
          if (loadedRun(after)?.loadId !== loadedRun(state)?.loadId) expect(acceptsEdits(state), `${state.phase} → ${event.type}`).toBe(false);
          if (!seen.has(after)) next.push(after);
          seen.add(after);
        }
      }
      frontier = next;
    }
    // The walk reached every phase.
    expect(new Set([...seen].map((state) => state.phase))).toEqual(
      new Set(['idle', 'opening', 'estimating', 'confirming', 'starting', 'running', 'finished', 'crashed']),
    );
  });
});
