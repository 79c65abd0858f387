//! A parsed scenario file: its exact text and the directive blocks in it.
//!
//! Everything outside the output blocks (comments, blank lines, directive
//! lines, input lines and the `----` separators' surroundings) is kept as the
//! original bytes, so that a transcript can be rendered by replacing output
//! blocks only.

use crate::directive::Directive;
use std::fmt;
use std::ops::Range;

/// One scenario file after parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The file's exact text.
    pub text: String,
    /// Its directive blocks, in file order.
    pub blocks: Vec<Block>,
}

/// A directive, its input, and the output block that follows its `----`.
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
