// A typeset formula; a LaTeX error shows the source instead of breaking the panel.

import { useMemo } from 'react';
import { renderFormula } from './formula';

export function Formula({ latex, label }: { latex: string; label: string }) {
  const html = useMemo(() => {
    try {
      return renderFormula(latex);
    } catch {
      return null;
    }
  }, [latex]);
  if (html === null) return <code className="explainer-formula">{latex}</code>;
  // KaTeX's output is generated from our own constant formulas, not user input.
  return <div className="explainer-formula" role="math" aria-label={label} dangerouslySetInnerHTML={{ __html: html }} />;
}
