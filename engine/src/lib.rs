//! A reference engine for arrangement sharing in a streaming database's
//! compute layer, built on timely-dataflow and differential-dataflow.
//!
//! `Engine` is the whole public surface the conformance runner drives: one
//! method per scenario directive, each returning an [`Outcome`].
//!
//! The modules, in layers: each uses only those on the lines above it
//! (`modgraph` checks that no two import each other).
//! - leaves: [`repr`] (values, rows, timestamps, frontiers, errors),
//!   `mutation` (the deliberately broken mechanisms), `recursion` (how
//!   deep a walk may go, and the stack it runs on), `shared_batch` (a
//!   batch behind an `Arc`), [`runtime`] (timely workers stepped one call at
//!   a time, and the scheduler that picks the next);
//! - `packed` (rows as bytes) and `api` (the types this crate hands out);
//! - `typedefs` (the collection, batch and trace aliases) and `plan` (the
//!   plan language);
//! - `eval` (scalar expressions and aggregates) and `arrangement` (an
//!   index's traces: how they are built, imported and read);
//! - `sql` (text to plans) and `sharing` (the registry through which one
//!   runtime reads another's arrangements);
//! - `render` (a plan into dataflow, delta joins included) and `protocol`
//!   (what the coordinator and workers say to each other);
//! - `compute` (a worker's state and what each command does to it);
//! - `coordinator` (the [`Engine`]: catalog, clock, read policy, peeks and
//!   subscribes, driving the runtimes).

mod api;
mod arrangement;
mod compute;
mod coordinator;
mod eval;
mod mutation;
mod packed;
mod plan;
mod protocol;
mod recursion;
mod render;
pub mod repr;
/// Public so that a bench can step bare differential dataflow workers the
/// way the engine steps its own (the ticks bench's floor).
pub mod runtime;
mod shared_batch;
mod sharing;
mod sql;
mod typedefs;

pub use api::{Config, JoinPlan, Outcome, Progress, Role, Witness};
pub use coordinator::Engine;
