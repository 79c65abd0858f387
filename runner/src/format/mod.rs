//! A parsed scenario file of either format: its exact text, the directive
//! blocks the engine executes, and how outcomes print and complete the file.
//!
//! Replay, the run matrix, divergence and witness only see [`Block`]s; only
//! printing an outcome and rendering the transcript depend on the [`Format`].
//! In `.dd`, everything outside the output blocks (comments, blank lines,
//! directive lines, input lines and the `----` separators' surroundings) is
//! kept as the original bytes, so that a transcript can be rendered by
//! replacing output blocks only; `.slt` files are re-rendered record by record.
//!
//! A facade: the types live in [`script`] (a leaf the parsers import), the
//! methods that depend on the format in `dispatch`; the children import each
//! other by their own paths, never through this module.

pub mod dd;
pub mod directive;
mod dispatch;
pub mod script;
pub mod slt;

pub use script::{text_of, Block, Format, Script, ScriptError, EXTENSIONS};
