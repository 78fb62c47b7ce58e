//! The scenario contract of docs/scenario-format.md: serde types (what the JSON says),
//! validation with field paths, and the typed [`Plan`] the builder runs.
//! Unknown fields are errors, so a typo never runs the wrong experiment.

pub mod bounds;
pub mod defaults;
mod plan;
pub mod schema;
mod trace;
mod types;

pub use plan::{FlowPlan, GroupPlan, Plan, TrafficPlan};
pub use trace::import_mahimahi;
pub use types::*;

use std::fmt;

/// A scenario problem, located by its field path (`flows[1].rate_bps`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

impl From<crate::queue::ParamError> for ScenarioError {
    fn from(e: crate::queue::ParamError) -> ScenarioError {
        ScenarioError::new(format!("queue.params.{}", e.param), e.message)
    }
}

impl Scenario {
    /// Parse a scenario document; errors name the field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let message = e.inner().to_string();
            // serde_json appends " at line L column C"; keep it, it helps in editors.
            ScenarioError::new(if path == "." { String::new() } else { path }, message)
        })
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Validate and resolve defaults into the plan the builder runs.
    pub fn plan(&self) -> Result<Plan, ScenarioError> {
        plan::build(self)
    }
}
