//! The datadriven (`*.dd`) format: its parser, the writer of a completed
//! file, and how each outcome prints.

pub mod output;
pub mod parse;
pub mod transcript;
