//! The conformance runner: replays scenario files (datadriven `.dd` and
//! sqllogictest `.slt`) against the reference engine under every
//! configuration, worker count and schedule of the suite, and checks that all
//! runs agree, that each configuration proves it was in effect, and that the
//! transcript equals the reviewed golden.
//!
//! Pipeline, one module per step: [`script::Script::parse`] reads a file in
//! its format ([`parse`] of validated [`directive`]s for `.dd`, [`slt`] for
//! `.slt`), its [`header`] and the [`suite`] give the [`matrix`] of runs,
//! [`replay`] runs each on a [`target`] (catching panics with [`capture`]),
//! the runs are compared ([`divergence`], [`witness`]), each outcome is
//! printed ([`output`], [`slt_output`]) and the completed file rendered
//! ([`transcript`], [`slt_transcript`]) and compared with its [`golden`]
//! ([`diff`], [`rewrite`]). [`check`] does all of that for one file, with a
//! [`verdict`] per configuration; [`app`] does it for the files [`discover`]
//! finds (gathered by [`assembly`]) (in a [`partition`], on [`parallel`] threads, with a [`progress`]
//! line) and prints the [`report`] (or [`json`], plus [`junit`]); [`cli`]
//! reads the command line. `tests/scenarios.rs` turns every file x
//! configuration into a `cargo test` trial.

pub mod app;
pub mod assembly;
pub mod capture;
pub mod check;
pub mod cli;
pub mod diff;
pub mod directive;
pub mod discover;
pub mod divergence;
pub mod golden;
pub mod header;
pub mod json;
pub mod junit;
pub mod matrix;
pub mod output;
pub mod parallel;
pub mod parse;
pub mod partition;
pub mod progress;
pub mod replay;
pub mod report;
pub mod rewrite;
pub mod script;
pub mod slt;
pub mod slt_output;
pub mod slt_transcript;
pub mod suite;
pub mod target;
pub mod transcript;
pub mod verdict;
pub mod witness;
