// Types of the scenario document (generated from the Rust serde types by
// tsify) and of the engine's results (declared beside the bindings in
// core/src/wasm.rs), both emitted into the wasm package's .d.ts; this module
// only re-exports them for the page.

export type {
  CatalogueEntry,
  CcName,
  DelayDistributions,
  DropCurve,
  FlowGroup,
  FlowKind,
  FlowKinds,
  ModelPoint,
  ParamSpec,
  ProbeSpec,
  ResolvedGroup,
  ResolvedPlan,
  Scenario,
  ScenarioProblem,
  Spread,
  Summary,
} from '../engine/pkg/aqm_core';
