// The bundled lessons: every lessons/*.json file at the repository's top
// level, checked when the app loads. A file with problems is not offered;
// its problems are listed in the lessons panel, so its author sees them.

import { PRESETS } from '../scenario/presets';
import { parseLesson, type Lesson } from './format';

const files = import.meta.glob<unknown>('../../../lessons/*.json', { eager: true, import: 'default' });

/** The order of the lessons list; lessons not named here follow, by id. */
export const LESSON_ORDER: readonly string[] = [
  'bufferbloat',
  'codel-tuning',
  'fq-codel-sparse-flows',
  'red-drop-curve',
  'global-sync',
  'unresponsive-flow',
  'rtt-unfairness',
  'ecn',
  'l4s-dualq',
  'bbr-deep-buffer',
];

export interface LessonFileProblem {
  id: string;
  problems: string[];
}

function lessonId(path: string): string {
  return path.replace(/^.*\//, '').replace(/\.json$/, '');
}

function rank(id: string): number {
  const i = LESSON_ORDER.indexOf(id);
  return i < 0 ? LESSON_ORDER.length : i;
}

const presetIds = new Set(PRESETS.map((p) => p.id));
const parsed = Object.entries(files).map(([path, value]) => ({ id: lessonId(path), result: parseLesson(value, lessonId(path), presetIds) }));

export const LESSONS: Lesson[] = parsed
  .flatMap(({ result }) => (result.ok ? [result.lesson] : []))
  .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));

export const LESSON_FILE_PROBLEMS: LessonFileProblem[] = parsed.flatMap(({ id, result }) => (result.ok ? [] : [{ id, problems: result.problems }]));
