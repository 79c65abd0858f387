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
//! The types every later stage reads live here: the [`Script`] with its
//! [`Block`]s and [`Format`], the [`Transcript`] a completed file is, the
//! [`ScriptError`] a malformed file gets, and which files are scenarios
//! ([`EXTENSIONS`], read with [`text_of`]), and the md5 both `.slt` dialects
//! hash a result's values with ([`md5_of_values`]). The parsers (`dd/`, `slt/`)
//! build them; `Script`'s methods that print or complete a file according
//! to its format are in `dispatch.rs`, above both formats.

pub mod dd;
pub mod directive;
mod dispatch;
pub mod mz;
pub mod skip;
pub mod slt;

use directive::Directive;
use slt::layout::Layout;
use std::fmt;
use std::ops::Range;

/// One scenario file after parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The file's exact text.
    pub text: String,
    /// Its directive blocks, in execution order.
    pub blocks: Vec<Block>,
    pub format: Format,
}

/// The scenario formats, by file extension and, for `*.slt`, dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `*.dd`: CockroachDB datadriven.
    Datadriven,
    /// `*.slt`: sqllogictest, with its records.
    Sqllogictest(Layout),
    /// `*.slt` in Materialize's own dialect, with its records.
    Materialize(mz::layout::Layout),
}

/// The dialects of a `*.slt` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// sqllogictest as the `sqllogictest` crate reads it (the default).
    Sqllogictest,
    /// Materialize's own (see [`mz`]).
    Materialize,
}

impl Dialect {
    /// The dialects by their names in a header or on the command line.
    pub const ALL: &'static [(Dialect, &'static str)] = &[
        (Dialect::Sqllogictest, "sqllogictest"),
        (Dialect::Materialize, "materialize"),
    ];

    pub fn parse(name: &str) -> Option<Dialect> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(d, _)| *d)
    }

    /// The dialect a file's header names (`# dialect: materialize`), if it
    /// names a known one: the header is the run of `# <key>: <value>` lines
    /// at the top (the suite's header module checks it in full).
    pub fn of_header(text: &str) -> Option<Dialect> {
        for line in text.lines() {
            let rest = line.strip_prefix('#')?;
            let (key, value) = rest.trim_start().split_once(':')?;
            if key == "dialect" {
                return Dialect::parse(value.trim());
            }
            let well_formed = key.starts_with(|c: char| c.is_ascii_lowercase())
                && key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_".contains(c));
            if !well_formed {
                return None;
            }
        }
        None
    }
}

/// A scenario or golden file's text, or `None` if it is not UTF-8. CRLF
/// line endings (a checkout with `core.autocrlf`) are read as LF, so a file
/// compares and rewrites the same on every platform; the runner writes LF.
/// A UTF-8 byte-order mark at the start (an editor's) is not text.
pub fn text_of(bytes: Vec<u8>) -> Option<String> {
    let bytes = match bytes.strip_prefix("\u{feff}".as_bytes()) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    let text = String::from_utf8(bytes).ok()?;
    Some(match text.contains("\r\n") {
        true => text.replace("\r\n", "\n"),
        false => text,
    })
}

/// The extensions of scenario files, one per [`Format`].
pub const EXTENSIONS: &[&str] = &["dd", "slt"];

/// A directive, its input, and the output block that follows its `----`.
/// (In `.slt` only `directive` and `directive_offset` mean anything: the
/// record itself is in the [`Layout`].)
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

/// A rendered transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub text: String,
    /// For each block, the 0-based line index of its directive line in `text`.
    pub directive_lines: Vec<usize>,
    /// What `text` cannot show: records of included `.slt` files that their
    /// outputs do not meet, as `file:line: ...`.
    pub unmet: Vec<String>,
    /// Blocks whose new output the format cannot hold (see [`writable`]):
    /// `text` would not parse back to it.
    pub unwritable: Vec<usize>,
}

/// The md5, in hex, of each value followed by a newline: how sqllogictest
/// (and Materialize's runner) hash a result's values.
pub fn md5_of_values<'a>(values: impl IntoIterator<Item = &'a str>) -> String {
    use md5::{Digest, Md5};
    let mut md5 = Md5::new();
    for value in values {
        md5.update(value.as_bytes());
        md5.update(b"\n");
    }
    format!("{:x}", md5.finalize())
}
