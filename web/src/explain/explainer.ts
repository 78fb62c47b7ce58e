// Classroom explainers per scheme, keyed by catalogue id: what the scheme
// does, its drop/mark rule as a typeset formula (LaTeX for KaTeX, with the
// macros of formula.ts) and as plain-text lines, and experiments to
// try with a preset from scenarios/. Parameter meanings (the sliders' `doc`
// strings) and the paper with its year (`paper`) come from the engine's
// catalogue and are not repeated here. The numbers quoted in "try this" are
// from runs of the presets with the engine's default seed and parameters.

/** One experiment: the preset to load (a file id in scenarios/) and what to watch for. */
export interface TryThis {
  /** Scenario file name without `.json`; omitted when no preset fits. */
  preset?: string;
  text: string;
}

export interface Explainer {
  /** What the scheme does, in at most three sentences. */
  what: string;
  /** The drop/mark rule as LaTeX (display mode; macros in formula.ts). */
  formula: string;
  /** The drop/mark rule step by step, one line each; leading spaces indent. */
  rule: string[];
  /** One or two experiments. */
  tryThis: TryThis[];
}
