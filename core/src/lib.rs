//! AQM Lab's engine: a deterministic packet-level network simulator for
//! router queue management.
//!
//! Dependencies point one way: `kernel` ← `net` ← `queue`/`transport` ←
//! `metrics` ← `scenario` ← `sim` ← `reproduce`; the CLI and the wasm bindings
//! sit on `sim` and `reproduce`. `queue` and `transport` do not use each other.
//! Test code may reach up (a scheme's tests run whole simulations).
//! `tests/structure.rs` checks this order on the source, and that no function
//! outside tests exceeds 80 lines.

pub mod kernel;
pub mod metrics;
pub mod net;
pub mod queue;
pub mod reproduce;
pub mod scenario;
pub mod sim;
#[cfg(test)]
mod testing;
pub mod transport;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
#[cfg(any(test, target_arch = "wasm32"))]
mod wasm_panic;

pub use scenario::{Scenario, ScenarioError};

/// docs/adding-a-scheme.md, whose example scheme is compiled and run as a
/// doctest so that the walk-through stays true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/adding-a-scheme.md")]
pub struct AddingASchemeGuide;
pub use sim::Simulation;
