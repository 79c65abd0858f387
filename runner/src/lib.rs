//! The conformance runner: replays datadriven scenario files against the
//! reference engine under every configuration, worker count and schedule of
//! the suite, and checks that all runs agree, that each configuration proves
//! it was in effect, and that the transcript equals the reviewed golden.
//!
//! Pipeline, one module per step: [`parse`] a file into a [`script::Script`]
//! of validated [`directive`]s, read its [`header`] and the [`suite`] to get
//! the [`matrix`] of runs, [`replay`] each run on a [`target`] (catching
//! panics with [`capture`]), compare the runs ([`divergence`], [`witness`]),
//! render the [`transcript`] from each directive's [`output`], and compare it
//! with its [`golden`] ([`diff`], [`rewrite`]). [`check`] does all of that for
//! one file; [`app`] does it for the files [`discover`] finds and prints the
//! [`report`]; [`cli`] reads the command line.

pub mod app;
pub mod capture;
pub mod check;
pub mod cli;
pub mod diff;
pub mod directive;
pub mod discover;
pub mod divergence;
pub mod golden;
pub mod header;
pub mod matrix;
pub mod output;
pub mod parse;
pub mod replay;
pub mod report;
pub mod rewrite;
pub mod script;
pub mod suite;
pub mod target;
pub mod transcript;
pub mod witness;
