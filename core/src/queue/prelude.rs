//! What a scheme file writes with, in one import: `use super::prelude::*;`.
//! The catalogue's types, the `Qdisc` trait and what it is called with, the
//! FIFO, and time and packets.

pub use super::decision::{self, FieldSpec};
pub use super::scheme::{apply, configured, no_cross_check, scheme_params, with_defaults, ParamValues, SchemeInfo};
pub use super::{
    DropCurve, DropReason, Fifo, Limit, ParamError, ParamKind, ParamSpec, ProbeSink, ProbeSpec, Qdisc, QueueCtx,
    QueueSetup, ECN_PARAM,
};
pub use crate::kernel::{ms, Nanos};
pub use crate::net::Packet;
