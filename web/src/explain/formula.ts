// Typesetting of the explainers' formulas with KaTeX, bundled from npm (its
// stylesheet and fonts are built into the app: no CDN).

import katex from 'katex';
import 'katex/dist/katex.min.css';

/** Names the formulas share, set upright or italic as the papers print them. */
export const FORMULA_MACROS: Record<string, string> = {
  '\\avg': '\\mathit{avg}',
  '\\minth': '\\mathit{min}_{th}',
  '\\maxth': '\\mathit{max}_{th}',
  '\\maxp': '\\mathit{max}_p',
};

/** HTML (with MathML for screen readers) of `latex` in display mode; throws on a LaTeX error. */
export function renderFormula(latex: string): string {
  // KaTeX adds to the macros object it is given: each call gets a copy.
  return katex.renderToString(latex, { displayMode: true, throwOnError: true, output: 'htmlAndMathml', macros: { ...FORMULA_MACROS } });
}
