// Every scheme in the engine's catalogue has a complete explainer, and every
// preset an explainer points to is a scenario file.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue, initSync } from '../engine/pkg/aqm_core.js';
import { EXPLANATIONS } from './explanations';
import { renderFormula } from './formula';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
if (!existsSync(wasmFile)) throw new Error('build the engine first: `npm run build:wasm` (npm test does it)');
initSync({ module: readFileSync(wasmFile) });

// The same folder the preset gallery loads (scenario/presets.ts).
const presetIds = new Set(Object.keys(import.meta.glob('../../../scenarios/*.json')).map((path) => path.replace(/^.*\//, '').replace(/\.json$/, '')));
const schemeIds = catalogue('packets').map((entry) => entry.id);

/** Sentences end with . ! or ? followed by a space or the end of the text. */
function sentences(text: string): number {
  return text
    .trim()
    .split(/[.!?](?:\s+|$)/)
    .filter((s) => s.trim() !== '').length;
}

describe('scheme explainers', () => {
  it('finds the catalogue and the presets', () => {
    expect(schemeIds.length).toBeGreaterThanOrEqual(18);
    expect(presetIds.size).toBeGreaterThan(0);
  });

  it('typesets with KaTeX and rejects malformed LaTeX', () => {
    expect(renderFormula(String.raw`p_b = \maxp\,\frac{\avg - \minth}{\maxth - \minth}`)).toContain('<math');
    expect(() => renderFormula(String.raw`\frac{1}{`)).toThrow();
    expect(() => renderFormula(String.raw`\notacommand`)).toThrow();
  });

  it('has no explainer for a scheme the catalogue lacks', () => {
    expect(Object.keys(EXPLANATIONS).filter((id) => !schemeIds.includes(id))).toEqual([]);
  });

  for (const id of schemeIds) {
    it(id, () => {
      const explainer = EXPLANATIONS[id];
      expect(explainer, `no explainer for ${id}`).toBeDefined();
      expect(explainer.what.trim()).not.toBe('');
      expect(sentences(explainer.what)).toBeLessThanOrEqual(3);
      // KaTeX with throwOnError: an unknown command or unbalanced brace throws.
      const html = renderFormula(explainer.formula);
      expect(html).toContain('class="katex-display"');
      expect(html).not.toContain('katex-error');
      expect(explainer.rule.length).toBeGreaterThan(0);
      for (const line of explainer.rule) expect(line.trim()).not.toBe('');
      expect(explainer.tryThis.length).toBeGreaterThanOrEqual(1);
      expect(explainer.tryThis.length).toBeLessThanOrEqual(2);
      for (const item of explainer.tryThis) {
        expect(item.text.trim()).not.toBe('');
        if (item.preset !== undefined) expect([...presetIds]).toContain(item.preset);
      }
    });
  }
});
