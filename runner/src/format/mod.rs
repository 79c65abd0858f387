//! A parsed scenario file of either format: its exact text, the directive
//! blocks the engine executes, and how outcomes print and complete the file.
//!
//! Replay, the run matrix, divergence and witness only see [`Block`]s; only
//! printing an outcome and rendering the transcript depend on the [`Format`].
//! In `.dd`, everything outside the output blocks (comments, blank lines,
//! directive lines, input lines and the `----` separators' surroundings) is
//! kept as the original bytes, so that a transcript can be rendered by
//! replacing output blocks only; `.slt` files are re-rendered record by record.

pub mod dd;
pub mod directive;
pub mod slt;

use self::dd::parse;
use self::slt::output as slt_output;
use self::slt::transcript as slt_transcript;
use dd::output;
use dd::transcript::{self, Transcript};
use directive::Directive;
use engine::Outcome;
use std::fmt;
use std::ops::Range;
use std::path::Path;

/// One scenario file after parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The file's exact text.
    pub text: String,
    /// Its directive blocks, in execution order.
    pub blocks: Vec<Block>,
    pub format: Format,
}

/// The scenario formats, by file extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `*.dd`: CockroachDB datadriven.
    Datadriven,
    /// `*.slt`: sqllogictest, with its records.
    Sqllogictest(slt::Layout),
}

/// A scenario or golden file's text, or `None` if it is not UTF-8. CRLF
/// line endings (a checkout with `core.autocrlf`) are read as LF, so a file
/// compares and rewrites the same on every platform; the runner writes LF.
pub fn text_of(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    Some(match text.contains("\r\n") {
        true => text.replace("\r\n", "\n"),
        false => text,
    })
}

/// The extensions of scenario files, one per [`Format`].
pub const EXTENSIONS: &[&str] = &["dd", "slt"];

impl Script {
    /// Parses `text`, the contents of `path` (shown as `shown` in errors), in
    /// the format its extension names.
    pub fn parse(path: &Path, shown: &str, text: &str) -> Result<Script, ScriptError> {
        if path.extension().is_some_and(|e| e == "slt") {
            slt::parse(path, shown, text)
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

/// A directive, its input, and the output block that follows its `----`.
/// (In `.slt` only `directive` and `directive_offset` mean anything: the
/// record itself is in the [`slt::Layout`].)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The validated directive (with its 1-based line number).
    pub directive: Directive,
    /// Byte offset of the start of the directive line in [`Script::text`].
    pub directive_offset: usize,
    /// Byte range in [`Script::text`] of the output block: from the start of the
    /// `----` separator line to the end of the block (including the closing
    /// `----` `----` of a doubled block, and the newline of its last line).
    pub output_span: Range<usize>,
    /// The output lines already in the file (ignored by replay; kept so that an
    /// unchanged output is rendered as its original bytes).
    pub output: Vec<String>,
}

/// A malformed scenario construct, reported as `path:line: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The file as it is shown to the user.
    pub path: String,
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.path, self.line, self.message)
    }
}

impl std::error::Error for ScriptError {}
