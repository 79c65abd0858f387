//! sqllogictest (`*.slt`) scenario files, parsed with the `sqllogictest`
//! crate and mapped onto the same
//! [`Block`](crate::format::Block)s as `.dd` directives.
//!
//! `statement ok|error` runs `Engine::statement`, `query <types> [sort]` runs
//! `Engine::query`; `skipif`/`onlyif` take configuration names as labels;
//! `hash-threshold` and `control sortmode` apply to the queries after them;
//! `include <glob>` (relative to the including file) runs the included
//! records in place; `halt` ends the file. Anything the engine cannot honour
//! (`statement count`, `system`, `sleep`, `let`, named connections, retries,
//! other `control`s) is a file error rather than a silently different test.
//!
//! A facade: the records' types are in [`layout`], the parser in `parse`,
//! printing an outcome in [`output`] and completing a file in
//! [`transcript`]; they import each other by their own paths.

pub mod layout;
pub mod output;
pub mod parse;
pub mod transcript;

pub use layout::{head, Layout, Origin, SltBlock, SltRecord, Type};
pub use parse::parse;
