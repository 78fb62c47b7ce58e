// The engine owns the experiment: the page reads defaults from the engine's
// resolved plan (`Simulation.plan()` for a run, `planScenario` for a draft or
// a preset), never applies one of its own. This test reads web/src as text
// and fails where a `??` or `||` fallback follows a scenario field the engine
// defaults (the fields whose JSON Schema, which is generated from the engine,
// gives a default or allows them absent), or a catalogue parameter's
// `.default`, and where a field's placeholder (what an empty field runs with)
// is a number written in the page.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));
const SCHEMA = join(ROOT, '..', '..', 'public', 'scenario.schema.json');

/** A buffer is given in bytes or in packets: reading whichever is present applies no default. */
const EITHER_OR = ['bytes', 'packets'];

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  required?: string[];
  default?: unknown;
  type?: string | string[];
  $defs?: Record<string, SchemaNode>;
}

/** Scenario fields the engine fills in when a document leaves them out. */
function defaultedFields(): Set<string> {
  const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as SchemaNode;
  const fields = new Set<string>();
  const visit = (node: SchemaNode) => {
    for (const [name, property] of Object.entries(node.properties ?? {})) {
      // Numbers and switches only: an absent name or label is shown as absent, not defaulted.
      const types = Array.isArray(property.type) ? property.type : [property.type];
      const valued = types.some((t) => t === 'number' || t === 'integer' || t === 'boolean');
      const optional = types.includes('null') && !(node.required ?? []).includes(name);
      if (valued && (property.default !== undefined || optional)) fields.add(name);
    }
  };
  visit(schema);
  Object.values(schema.$defs ?? {}).forEach(visit);
  EITHER_OR.forEach((name) => fields.delete(name));
  return fields;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'pkg' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * Each `file field` where a fallback re-applies a default (`x.sample_interval_ms ?? 10`, `params[id] ?? spec.default`),
 * and each `file placeholder N` where a field shows a number of the page's own (`placeholder="10"`) as what it runs with.
 */
function placesIn(file: string, text: string, fields: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<!\?)\.(\w+)\s*(?:\?\?|\|\|)/g)) {
    if (fields.has(match[1])) found.push(`${file} ${match[1]}`);
  }
  for (const match of text.matchAll(/(?:\?\?|\|\|)\s*[\w.]*\.default\b/g)) found.push(`${file} ${match[0]}`);
  for (const match of text.matchAll(/placeholder=(?:"(-?[\d.]+)"|\{\s*['"`]?(-?[\d.]+)['"`]?\s*\})/g)) {
    found.push(`${file} placeholder ${match[1] ?? match[2]}`);
  }
  return found;
}

describe('engine defaults', () => {
  const fields = defaultedFields();

  it('are read from the engine, not re-applied in the page', () => {
    const places = sources(ROOT).flatMap((path) => placesIn(relative(ROOT, path).split(sep).join('/'), readFileSync(path, 'utf8'), fields));
    expect(places).toEqual([]);
  });

  it('are the fields the engine defaults, and a re-applied one is found', () => {
    expect([...fields]).toEqual(expect.arrayContaining(['sample_interval_ms', 'measure_from_s', 'count']));
    const text =
      'const s = (scenario.sample_interval_ms ?? 10) / 1000;\nconst n = group.count ?? 1;\nconst v = params[id] ?? spec.default;\nconst l = group.label || group.kind;\nconst o = group.sack ?? true;\n' +
      '<NumberField placeholder="10" />\n<NumberField placeholder={1} />\n<NumberField placeholder="0.02, 0.05, 0.1" />\n<NumberField placeholder={planned(plan?.seed)} />';
    expect(placesIn('x.ts', text, fields)).toEqual([
      'x.ts sample_interval_ms',
      'x.ts count',
      'x.ts sack',
      'x.ts ?? spec.default',
      'x.ts placeholder 10',
      'x.ts placeholder 1',
    ]);
  });
});
