//! The conformance runner: replays scenario files (datadriven `.dd` and
//! sqllogictest `.slt`) against the reference engine under every
//! configuration, worker count and schedule of the suite, and checks that all
//! runs agree, that each configuration proves it was in effect, and that the
//! transcript equals the reviewed golden.
//!
//! Pipeline, one folder per layer, each depending only on those before it:
//! [`format`](mod@format) parses a file (`.dd` in [`format::dd`], `.slt` in
//! [`format::slt`], both into validated [`format::directive`]s) and prints
//! outcomes and completed files; [`suite`] gives the runs of a file
//! (`suite.yaml`, a file's header, the matrix, discovery and partitions);
//! [`run`] replays one run on a fresh engine, panics caught; [`check`] holds
//! the runs to each other, to their witnesses and to the golden, rewriting it
//! when asked, with a verdict per configuration; [`report`] prints verdicts
//! (text, JSON, JUnit, progress). At the top, [`assembly`] gathers the suite
//! once for the binary and for `tests/scenarios.rs` (every file x
//! configuration as a `cargo test` trial), [`app`] checks it (on
//! [`parallel`] threads, each file in a child process: [`isolate`]), and
//! [`cli`] reads the command line. Beneath them all, [`process`] knows
//! processes: who one is, a child that dies with its parent, a cancel.

pub mod app;
pub mod assembly;
pub mod check;
pub mod cli;
pub mod format;
pub mod isolate;
pub mod parallel;
pub mod process;
pub mod report;
pub mod run;
pub mod suite;
