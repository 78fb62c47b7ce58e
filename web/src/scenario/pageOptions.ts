// How the page presents itself, carried in the link beside the scenario:
// `&present=1` (projector), `&embed=1` (charts and transport only, for an
// iframe), `&lesson=<id>&step=<n>` (a lesson opened at a step, counted
// from 1), `&repro=<id>` (the reproduction whose paper values the summary
// shows beside the run) and `&figure=<id>` (a paper's figure card, opened in
// the reproductions panel). Like the view, none of it is needed to reproduce a
// run, and a link without these keys opens the ordinary page.

export interface LessonPlace {
  lessonId: string;
  /** Index into the lesson's steps, from 0 (the link counts from 1). */
  stepIndex: number;
}

export interface PageOptions {
  present: boolean;
  embed: boolean;
  lesson: LessonPlace | null;
  /** The open reproduction's id (its file name in reproductions/). */
  reproduction: string | null;
  /** The paper's figure a link opens (its id in a reproduction file). */
  figure: string | null;
}

export const DEFAULT_PAGE_OPTIONS: PageOptions = { present: false, embed: false, lesson: null, reproduction: null, figure: null };

const KEYS = ['present', 'embed', 'lesson', 'step', 'repro', 'figure'] as const;
/** Longest lesson, reproduction or figure id kept from a link (ids are file names or figure ids). */
const MAX_ID_CHARS = 64;

function flag(params: URLSearchParams, key: string): boolean {
  const value = params.get(key);
  return value !== null && value !== '0' && value !== 'false';
}

/** Read the page options from a location hash (with or without `#`). */
export function decodePageOptions(hash: string): PageOptions {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const lessonId = params.get('lesson')?.trim().slice(0, MAX_ID_CHARS);
  const reproductionId = params.get('repro')?.trim().slice(0, MAX_ID_CHARS);
  const figureId = params.get('figure')?.trim().slice(0, MAX_ID_CHARS);
  const step = Number(params.get('step') ?? '1');
  return {
    present: flag(params, 'present'),
    embed: flag(params, 'embed'),
    lesson: lessonId ? { lessonId, stepIndex: Number.isInteger(step) && step >= 1 ? step - 1 : 0 } : null,
    reproduction: reproductionId || null,
    figure: figureId || null,
  };
}

/** `fragment` (without `#`) with its page-option keys replaced by `options` (defaults are left out). */
export function withPageOptions(fragment: string, options: PageOptions): string {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  for (const key of KEYS) params.delete(key);
  if (options.present) params.set('present', '1');
  if (options.embed) params.set('embed', '1');
  if (options.lesson) {
    params.set('lesson', options.lesson.lessonId);
    params.set('step', String(options.lesson.stepIndex + 1));
  }
  if (options.reproduction) params.set('repro', options.reproduction);
  if (options.figure) params.set('figure', options.figure);
  return params.toString();
}
