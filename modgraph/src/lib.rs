//! The module import graph of a Rust crate, and the cycles in it.
//!
//! ARCHITECTURE.md promises that dependencies between modules point one way.
//! This crate checks it: [`Crate::load`] reads a crate from its root file,
//! following `mod` declarations (`#[path]` included) to every file, and
//! [`Crate::cycles`] names every set of modules that import each other in a
//! circle. `tests/workspace.rs` runs it over every target of the workspace and
//! fails on any cycle; the `modgraph` binary prints the same as a report.
//!
//! A node is a file. An edge runs from file A to file B when A names an item
//! of B through a path that starts at `crate`, `super` or `self`, or at a
//! child module of where the path is written: in a `use` (groups and globs
//! included), in a type or an expression, or in a macro's tokens
//! (`crate :: x`). A `mod` declaration is not an edge: a parent may declare
//! its children without depending on them. A name that resolves to a module
//! defined inline in a file (`mod tests { ... }`) belongs to that file.
//! Paths into other crates are not edges; that graph is Cargo's.
//!
//! The rule is checked at every module of the tree: its children, each
//! taken with everything under it, import each other one way. So the
//! crate's top-level modules form layers, and so do the files of each
//! folder. A parent and what is under it may use each other (a child its
//! parent's items through `super`, a `mod.rs` its children's): a folder is
//! one concept, its `mod.rs` the face the rest of the crate sees.

mod graph;
mod load;
mod resolve;

pub use graph::{Cycle, Edge, Site};
pub use load::{workspace_targets, Crate, Error, Target};
