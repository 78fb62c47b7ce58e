// The life of the experiment on screen, as one explicit state machine:
//
//   opening ──(a link's run, or the default)──▶ estimating
//      ╰──(nothing to run here: a lesson stages its own)──▶ back to what ran before, or idle
//
//   estimating ──(within the work limit, or invalid)──▶ starting ──▶ running ──▶ finished
//        │                                                   ▲           ╰──────▶ crashed
//        ╰──(above the limit)──▶ confirming ──(Run anyway)───╯
//                                     ╰──(Cancel)──▶ back to what ran before
//
// A new request supersedes one still being estimated or confirmed. Each run
// that starts gets the next load id; everything keyed to a run (its
// snapshots, a lesson step's answer, a reproduction's table) is keyed to it.
// The run is `starting` until the engine has built it: until then the
// parameter controls on screen belong to the run being replaced (or to none),
// so they take no change ([`acceptsParams`]); one made there would go to a
// run about to be dropped and be lost. The scenario editor's draft is
// replaced by the new run's document when the run starts, so the editor
// takes no change from the request until then, nor while a link is read
// before it requests its run ([`acceptsEdits`]). The page starts `opening`
// its address.

import type { WorkEstimate } from '../engine/client';
import type { Scenario } from '../scenario/types';
import type { ViewState } from '../scenario/view';

/** What to run, and how the page shows it when it starts. */
export interface LoadRequest {
  scenario: Scenario;
  /** Exactly the text the engine runs (a link's own text, so it reproduces bit for bit). */
  json: string;
  /** Set together with the run, so nothing sees the run with another view. */
  view?: ViewState;
  /** False: built at t = 0 and left paused (a lesson step waiting for its prediction). */
  autoplay: boolean;
}

export interface LoadedRun extends LoadRequest {
  loadId: number;
}

/** A run on screen. */
export interface Shown {
  phase: 'starting' | 'running' | 'finished' | 'crashed';
  loaded: LoadedRun;
}

export type Lifecycle =
  /** No run on screen, and none on its way. */
  | { phase: 'idle' }
  /** A link is being read (checked by the engine) before it requests its run, or starts none. */
  | { phase: 'opening'; before: Shown | null }
  /** `before`: what stays on screen meanwhile, and comes back if the request is cancelled. */
  | { phase: 'estimating'; attempt: number; request: LoadRequest; before: Shown | null }
  | { phase: 'confirming'; attempt: number; request: LoadRequest; estimate: WorkEstimate; before: Shown | null }
  | Shown;

export type LifecycleEvent =
  /** The page reads a link (its address, or one pasted): a request, or `unopened`, follows. */
  | { type: 'opening' }
  /** The link read starts no run here (a lesson's link, whose lesson loads its own step if it has one). */
  | { type: 'unopened' }
  | { type: 'requested'; attempt: number; request: LoadRequest }
  /** The engine's estimate of `attempt`, or null when it refused the scenario (the run then reports why). */
  | { type: 'estimated'; attempt: number; estimate: WorkEstimate | null; loadId: number }
  | { type: 'confirmed'; loadId: number }
  /** The engine has built the run: its parameters can be changed. */
  | { type: 'built'; loadId: number }
  | { type: 'cancelled' }
  | { type: 'finished'; loadId: number }
  | { type: 'crashed'; loadId: number }
  /** The run went back to t = 0 (Reset, Run again). */
  | { type: 'restarted'; loadId: number };

export const IDLE: Lifecycle = { phase: 'idle' };
/** Where the page starts: reading its own address. */
export const OPENING: Lifecycle = { phase: 'opening', before: null };

/** The run on screen (during a pending request, the one before it), if any. */
export function loadedRun(state: Lifecycle): LoadedRun | null {
  return shown(state)?.loaded ?? null;
}

function shown(state: Lifecycle): Shown | null {
  if (state.phase === 'idle') return null;
  if (state.phase === 'opening' || state.phase === 'estimating' || state.phase === 'confirming') return state.before;
  return state;
}

/** A request, or a link that will make one, is on its way. */
function pending(state: Lifecycle): state is Extract<Lifecycle, { phase: 'opening' | 'estimating' | 'confirming' }> {
  return state.phase === 'opening' || state.phase === 'estimating' || state.phase === 'confirming';
}

/** Whether a parameter change now reaches the run on screen and stays with it. */
export function acceptsParams(state: Lifecycle): boolean {
  return state.phase === 'running' || state.phase === 'finished';
}

/**
 * Whether the scenario editor takes a change now. From reading a link or a
 * request until its run starts, the draft on screen is the document of the
 * run being replaced, or the default one, and the new run's document
 * replaces it when it starts: an edit made meanwhile would vanish. With no
 * run and none on its way (a lesson link past its last step) the default
 * draft is the user's to edit.
 * Refusing it, as the parameter controls do, rather than keeping it over the
 * new document: the user asked for that document (a link, a preset, Apply),
 * and an edit made to another one would not mean the same on it.
 */
export function acceptsEdits(state: Lifecycle): boolean {
  return !pending(state);
}

/** Whether an estimate means asking first. */
export function isHeavy(estimate: WorkEstimate): boolean {
  return estimate.events > estimate.limit;
}

export function lifecycleReducer(state: Lifecycle, event: LifecycleEvent): Lifecycle {
  switch (event.type) {
    case 'opening':
      // A request already on its way stays until the link's own supersedes it.
      return pending(state) ? state : { phase: 'opening', before: shown(state) };
    case 'unopened':
      return state.phase === 'opening' ? (state.before ?? IDLE) : state;
    case 'requested':
      return { phase: 'estimating', attempt: event.attempt, request: event.request, before: shown(state) };
    case 'estimated':
      if (state.phase !== 'estimating' || state.attempt !== event.attempt) return state;
      if (event.estimate !== null && isHeavy(event.estimate)) {
        return { phase: 'confirming', attempt: event.attempt, request: state.request, estimate: event.estimate, before: state.before };
      }
      return { phase: 'starting', loaded: { ...state.request, loadId: event.loadId } };
    case 'confirmed':
      return state.phase === 'confirming' ? { phase: 'starting', loaded: { ...state.request, loadId: event.loadId } } : state;
    case 'built':
      return state.phase === 'starting' && state.loaded.loadId === event.loadId ? { phase: 'running', loaded: state.loaded } : state;
    case 'cancelled':
      if (state.phase !== 'confirming') return state;
      return state.before ?? IDLE;
    case 'finished':
    case 'crashed':
    case 'restarted': {
      // A snapshot of the run (or its crash) also says the engine has built it.
      if (state.phase === 'idle' || pending(state)) return state;
      if (state.loaded.loadId !== event.loadId) return state;
      const phase = event.type === 'restarted' ? 'running' : event.type;
      return phase === state.phase ? state : { phase, loaded: state.loaded };
    }
  }
}
