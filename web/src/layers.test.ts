// The rooms of web/src and which rooms each may import: dependencies point
// one way (down this table), so charts can be reused by compare mode and
// sweeps without dragging in the page, and export code sits above the
// charts it draws.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

type Room = 'engine' | 'scenario' | 'glossary' | 'explain' | 'charts' | 'export' | 'controls' | 'lessons' | 'compare' | 'sweep' | 'reproduce' | 'app';

/** Each room and the rooms it may import (its own files always). */
const ALLOWED: Record<Room, readonly Room[]> = {
  engine: [],
  scenario: ['engine'],
  glossary: [],
  explain: ['engine', 'scenario'],
  charts: ['engine', 'scenario'],
  export: ['engine', 'scenario', 'charts'],
  controls: ['engine', 'scenario', 'glossary', 'explain', 'charts', 'export'],
  lessons: ['engine', 'scenario', 'glossary', 'explain', 'charts', 'export', 'controls'],
  compare: ['engine', 'scenario', 'charts', 'export', 'controls'],
  sweep: ['engine', 'scenario', 'charts', 'export', 'controls'],
  reproduce: ['engine', 'scenario'],
  app: ['engine', 'scenario', 'glossary', 'explain', 'charts', 'export', 'controls', 'lessons', 'compare', 'sweep', 'reproduce'],
};

const SOURCE = /\.(ts|tsx)$/;
/** Static imports and re-exports, side-effect imports and dynamic imports. */
const SPECIFIERS = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];

interface ImportEdge {
  /** The importing file, relative to web/src with `/` separators. */
  file: string;
  specifier: string;
}

/** The room of a path relative to web/src (`charts/Axis.tsx` → `charts`); null for top-level files such as main.tsx. */
function roomOf(path: string): string | null {
  const parts = path.split('/');
  return parts.length > 1 ? parts[0] : null;
}

/** The imports that break the table, each as `file imports specifier (from → to)`. */
function violations(edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const { file, specifier } of edges) {
    if (!specifier.startsWith('.')) continue;
    const from = roomOf(file);
    if (from === null) continue;
    const to = roomOf(posix.normalize(posix.join(posix.dirname(file), specifier)));
    if (!(from in ALLOWED)) {
      found.push(`${file}: room "${from}" is not in the table of web/src/layers.test.ts`);
      continue;
    }
    if (to === null || to === from) continue;
    if (!(ALLOWED[from as Room] as readonly string[]).includes(to)) found.push(`${file} imports ${specifier} (${from} → ${to})`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'pkg' ? [] : sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

function importsOf(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const file = relative(root, path).split(sep).join('/');
    return SPECIFIERS.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => ({ file, specifier: match[1] })));
  });
}

describe('import directions in web/src', () => {
  const root = dirname(fileURLToPath(import.meta.url));
  const edges = importsOf(root);

  it('finds the imports it checks', () => {
    // A scanner that saw nothing would pass any table.
    expect(edges.some((e) => e.file === 'app/ChartsArea.tsx' && e.specifier === '../charts/QueueChart')).toBe(true);
    expect(edges.some((e) => e.file === 'export/chartImage.ts' && e.specifier === '../charts/markers')).toBe(true);
  });

  it('every import follows the table', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('charts, compare and controls never import app; charts never import export', () => {
    expect(
      violations([
        { file: 'charts/ChartFrame.tsx', specifier: '../export/chartImage' },
        { file: 'compare/CompareArea.tsx', specifier: '../app/chartData' },
        { file: 'controls/ShareLink.tsx', specifier: '../app/App' },
        { file: 'sweep/SweepPanel.tsx', specifier: '../compare/comparison' },
      ]),
    ).toEqual([
      'charts/ChartFrame.tsx imports ../export/chartImage (charts → export)',
      'compare/CompareArea.tsx imports ../app/chartData (compare → app)',
      'controls/ShareLink.tsx imports ../app/App (controls → app)',
      'sweep/SweepPanel.tsx imports ../compare/comparison (sweep → compare)',
    ]);
  });

  it('a new room must be placed in the table', () => {
    expect(violations([{ file: 'widgets/Dial.tsx', specifier: '../charts/Axis' }])).toEqual([
      'widgets/Dial.tsx: room "widgets" is not in the table of web/src/layers.test.ts',
    ]);
  });

  it('the table has no cycles', () => {
    const order: string[] = [];
    const visit = (room: Room, path: Room[]) => {
      expect(path, `cycle through ${[...path, room].join(' → ')}`).not.toContain(room);
      if (order.includes(room)) return;
      for (const lower of ALLOWED[room]) visit(lower, [...path, room]);
      order.push(room);
    };
    for (const room of Object.keys(ALLOWED) as Room[]) visit(room, []);
    expect(order).toHaveLength(Object.keys(ALLOWED).length);
  });
});
