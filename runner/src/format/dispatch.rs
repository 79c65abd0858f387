//! [`Script`]'s methods that depend on its [`Format`]: parsing a file by
//! its extension, printing an outcome, the outputs as written, and the
//! completed transcript, each handed to the `.dd` or the `.slt` module.
//!
//! Kept apart from `script.rs`, which both formats' parsers import: this
//! file imports both formats, so it sits above them.

use crate::format::dd::transcript;
use crate::format::dd::{output, parse};
use crate::format::slt::output as slt_output;
use crate::format::slt::parse as slt_parse;
use crate::format::slt::transcript as slt_transcript;
use crate::format::Transcript;
use crate::format::{Format, Script, ScriptError};
use engine::Outcome;
use std::path::Path;

impl Script {
    /// Parses `text`, the contents of `path` (shown as `shown` in errors), in
    /// the format its extension names.
    pub fn parse(path: &Path, shown: &str, text: &str) -> Result<Script, ScriptError> {
        if path.extension().is_some_and(|e| e == "slt") {
            slt_parse::parse(path, shown, text)
        } else {
            parse::parse(shown, text)
        }
    }

    /// The output lines of block `block`'s outcome.
    pub fn output(&self, block: usize, outcome: &Outcome) -> Vec<String> {
        match &self.format {
            Format::Datadriven => output::render(&self.blocks[block].directive.command, outcome),
            Format::Sqllogictest(layout) => slt_output::render(&layout.blocks[block], outcome),
        }
    }

    /// The output lines block `block` has as written, in the shape
    /// [`Script::output`] gives (in a golden: the reviewed claim).
    pub fn written(&self, block: usize) -> Vec<String> {
        match &self.format {
            Format::Datadriven => self.blocks[block].output.clone(),
            Format::Sqllogictest(layout) => slt_output::written(&layout.blocks[block]),
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
        }
    }
}
