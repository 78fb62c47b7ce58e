// Size limits on the page's code, as core/tests/structure.rs has for the
// engine: App.tsx stays layout, no file grows past what a reader can hold,
// and no top-level function (a component, a hook) runs on for pages.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));
/** App.tsx is the page's layout only; its state is composed in app/usePage.ts. */
const APP_MAX_LINES = 200;
const FILE_MAX_LINES = 550;
const FUNCTION_MAX_LINES = 180;

/** A top-level function: `function f(`, `export function f(`, or `export const C = memo(function C(` and arrow forms, each ending at a closing line in column 0. */
const FUNCTION_START = /^(export )?(async )?function \w+|^(export )?const \w+ = (memo\()?(async )?(function\b|\([^)]*\)\s*(:[^=]+)?=>\s*\{$)/;
const FUNCTION_END = /^(\}|\}\);|\);)\s*$/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'pkg' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** Each top-level function of a source text, with its first line and its length in lines. */
export function topLevelFunctions(text: string): { name: string; lines: number }[] {
  const lines = text.split('\n');
  const found: { name: string; lines: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FUNCTION_START.test(lines[i]) || lines[i].trimEnd().endsWith(';')) continue;
    let end = i + 1;
    while (end < lines.length && !FUNCTION_END.test(lines[end])) end++;
    found.push({ name: lines[i].slice(0, 70), lines: end - i + 1 });
    i = end;
  }
  return found;
}

const files = sources(ROOT).map((path) => ({ name: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));

describe('size limits in web/src', () => {
  it(`App.tsx is layout: at most ${APP_MAX_LINES} lines`, () => {
    const app = files.find((f) => f.name === 'app/App.tsx');
    expect(app?.text.split('\n').length).toBeLessThanOrEqual(APP_MAX_LINES);
  });

  it(`no file exceeds ${FILE_MAX_LINES} lines`, () => {
    expect(files.filter((f) => f.text.split('\n').length > FILE_MAX_LINES).map((f) => f.name)).toEqual([]);
  });

  it(`no top-level function exceeds ${FUNCTION_MAX_LINES} lines`, () => {
    const long = files.flatMap((f) =>
      topLevelFunctions(f.text)
        .filter((fn) => fn.lines > FUNCTION_MAX_LINES)
        .map((fn) => `${f.name}: ${fn.name} (${fn.lines} lines)`),
    );
    expect(long).toEqual([]);
  });

  it('measures functions as written (the check itself)', () => {
    const text = [
      'export function Long() {',
      ...Array.from({ length: 5 }, () => '  x();'),
      '}',
      'const Memo = memo(function Memo() {',
      '  return 1;',
      '});',
    ].join('\n');
    expect(topLevelFunctions(text)).toEqual([
      { name: 'export function Long() {', lines: 7 },
      { name: 'const Memo = memo(function Memo() {', lines: 3 },
    ]);
  });
});
