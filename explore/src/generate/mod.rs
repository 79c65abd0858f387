//! Scenarios from a seed: a list of steps, each one or more datadriven
//! directives that are valid given the steps before it, biased toward what
//! breaks sharing (indexes and their re-exports, drops, errors in views,
//! joins and reductions over indexed inputs, maintenance lagging behind,
//! live subscribes). The same seed gives the same bytes on every machine:
//! the generator draws only from its own SplitMix64 and iterates only
//! vectors.
//!
//! A facade: a [`Scenario`] and its [`Step`]s are in [`scenario`], the
//! random source in [`rng`], the generator's state in `state`, the kinds of
//! step in `schema` (tables, writes, indexes, views), `subqueries` (views
//! and reads with subqueries, views of outer joins), `functions` (views
//! and reads calling scalar functions and computing with floats), `sets`
//! (views and reads of set operations), `windows` (of window functions),
//! `drops` (of tables,
//! views and indexes, aimed at what live reads use), `reads` (queries,
//! peeks, holds, subscribes) and `lag` (paused runtimes), and drawing a
//! whole scenario in `draw`; `tally` counts the kinds of statement and
//! directive a run generated. They import each other by their own paths.

mod draw;
mod drops;
mod functions;
mod lag;
mod reads;
pub mod rng;
pub mod scenario;
mod schema;
mod sets;
mod state;
mod subqueries;
pub mod tally;
#[cfg(test)]
mod tests;
mod windows;

pub use draw::{generate, VERSION};
pub use rng::Rng;
pub use scenario::{without, GenConfig, Scenario, Step};
pub use tally::Tally;
