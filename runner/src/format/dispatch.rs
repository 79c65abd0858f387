//! [`Script`]'s methods that depend on its [`Format`]: parsing a file by
//! its extension, printing an outcome, the outputs as written, and the
//! completed transcript, each handed to the `.dd` or the `.slt` module.
//!
//! Kept apart from `script.rs`, which both formats' parsers import: this
//! file imports both formats, so it sits above them.

use crate::format::dd::transcript;
use crate::format::dd::{output, parse};
use crate::format::mz;
use crate::format::slt::output as slt_output;
use crate::format::slt::parse as slt_parse;
use crate::format::slt::transcript as slt_transcript;
use crate::format::Transcript;
use crate::format::{Dialect, Format, Script, ScriptError};
use engine::Outcome;
use std::path::Path;

impl Script {
    /// Parses `text`, the contents of `path` (shown as `shown` in errors), in
    /// the format its extension names (an `.slt` file in the dialect its
    /// header names).
    pub fn parse(path: &Path, shown: &str, text: &str) -> Result<Script, ScriptError> {
        Script::parse_in(path, shown, text, None)
    }

    /// As [`Script::parse`], an `.slt` file in `dialect` if it is given.
    pub fn parse_in(
        path: &Path,
        shown: &str,
        text: &str,
        dialect: Option<Dialect>,
    ) -> Result<Script, ScriptError> {
        if path.extension().is_none_or(|e| e != "slt") {
            return parse::parse(shown, text);
        }
        match dialect.or_else(|| Dialect::of_header(text)) {
            Some(Dialect::Materialize) => mz::parse_script(shown, text),
            _ => slt_parse::parse(path, shown, text),
        }
    }

    /// The output lines of block `block`'s outcome.
    pub fn output(&self, block: usize, outcome: &Outcome) -> Vec<String> {
        self.output_named(block, outcome, None)
    }

    /// As [`Script::output`], with the result's column names where the
    /// block checks them (see [`Script::described`]).
    pub fn output_named(
        &self,
        block: usize,
        outcome: &Outcome,
        columns: Option<&[String]>,
    ) -> Vec<String> {
        match &self.format {
            Format::Datadriven => output::render(&self.blocks[block].directive.command, outcome),
            Format::Sqllogictest(layout) => slt_output::render(&layout.blocks[block], outcome),
            Format::Materialize(layout) => {
                mz::output::render(layout.record(block), outcome, columns)
            }
        }
    }

    /// Whether `lines` (printed by [`Script::output`]) meet block `block`'s
    /// expectation as the file's runner compares them, for a format whose
    /// expectations are not plain lines (Materialize's: sorted, hashed);
    /// `None` for the others, whose written lines are compared as they are.
    pub fn meets(&self, block: usize, lines: &[String]) -> Option<bool> {
        match &self.format {
            Format::Materialize(layout) => Some(
                mz::compare::compare(layout.record(block), lines) == mz::compare::Match::Agrees,
            ),
            _ => None,
        }
    }

    /// The SQL whose result's column names block `block` checks, if any.
    pub fn described(&self, block: usize) -> Option<&str> {
        match &self.format {
            Format::Materialize(layout) => mz::described(layout, block),
            _ => None,
        }
    }

    /// The output lines block `block` has as written, in the shape
    /// [`Script::output`] gives (in a golden: the reviewed claim).
    pub fn written(&self, block: usize) -> Vec<String> {
        match &self.format {
            Format::Datadriven => self.blocks[block].output.clone(),
            Format::Sqllogictest(layout) => slt_output::written(&layout.blocks[block]),
            Format::Materialize(layout) => mz::output::written(layout.record(block)),
        }
    }

    /// The completed file, with `outputs[i]` as the output of block `i`
    /// (`None`: no run reached it; it stays as written).
    pub fn transcript(&self, outputs: &[Option<Vec<String>>]) -> Transcript {
        match &self.format {
            Format::Datadriven => {
                let outputs: Vec<Vec<String>> = outputs
                    .iter()
                    .zip(&self.blocks)
                    .map(|(o, b)| o.clone().unwrap_or_else(|| b.output.clone()))
                    .collect();
                transcript::render(self, &outputs)
            }
            Format::Sqllogictest(layout) => slt_transcript::render(layout, outputs),
            Format::Materialize(layout) => mz::transcript::render(&self.text, layout, outputs),
        }
    }
}
