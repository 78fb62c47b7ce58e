// A typeset formula. KaTeX (with its stylesheet and fonts) is loaded on first
// use, so the app's first load does not carry it; a LaTeX error shows the
// source instead of breaking the panel.

import { useEffect, useMemo, useState } from 'react';

type Render = (latex: string) => string;

let loading: Promise<Render> | undefined;
let loaded: Render | undefined;

function loadRenderer(): Promise<Render> {
  loading ??= import('./formula').then((module) => (loaded = module.renderFormula));
  return loading;
}

export function Formula({ latex, label }: { latex: string; label: string }) {
  const [render, setRender] = useState<Render | undefined>(() => loaded);
  useEffect(() => {
    if (render) return;
    let live = true;
    void loadRenderer().then((r) => live && setRender(() => r));
    return () => {
      live = false;
    };
  }, [render]);
  const html = useMemo(() => {
    if (!render) return undefined;
    try {
      return render(latex);
    } catch {
      return null;
    }
  }, [render, latex]);
  if (html === undefined) return <div className="explainer-formula" aria-busy="true" />;
  if (html === null) return <code className="explainer-formula">{latex}</code>;
  // KaTeX's output is generated from our own constant formulas, not user input.
  return <div className="explainer-formula" role="math" aria-label={label} dangerouslySetInnerHTML={{ __html: html }} />;
}
