//! Rendering a `RelationPlan` into differential collections of rows and errors.
//!
//! Every plan node yields a pair `(oks, errs)`. Errors are data: a scalar that
//! fails to evaluate sends its row's error to `errs` and the row nowhere. A
//! node propagates each input's `errs` exactly once (a join concatenates its
//! inputs' errors once, not once per path), so error multiplicities mean what
//! `mz_compute_error_counts` says they mean.
//!
//! `relation` walks the plan; `join`, `reduce` (with `accumulable`),
//! `window` and `delta_join` render their nodes, `recursive` the loop of
//! a `WITH MUTUALLY RECURSIVE`; `inputs` is what a plan reads and
//! `collections` the operators they share.

mod accumulable;
mod collections;
mod delta_join;
pub(crate) mod inputs;
mod join;
mod recursive;
mod reduce;
mod relation;
mod window;

pub use collections::constant;
pub use inputs::{Inputs, Lookup, LookupSource};
pub use relation::render;
