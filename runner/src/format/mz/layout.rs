//! The records of a file in Materialize's sqllogictest dialect, as its own
//! parser reads them (`src/sqllogictest/src/parser.rs` in Materialize's
//! repository): what each record runs and what it expects, with where its
//! expectation is written so that a completed file can replace it.
//!
//! A leaf: the parser builds a [`Layout`], and the printer of outcomes,
//! the writer of completed files and the judge of foreign files read it.

use regex::Regex;
use std::ops::Range;

/// How expected query output is laid out (`mode standard|cockroach`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One value per line (also `mode sqlite`); the default.
    Standard,
    /// One row per line, columns separated by whitespace, `␠` for a space
    /// inside a value.
    Cockroach,
}

/// Sorting before comparison: `nosort`, `rowsort`, `valuesort`
/// (`partialsort(...)` is read as `rowsort`, as Materialize reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    No,
    Row,
    Value,
}

/// A column's type letter: not an assertion about the result's type, but
/// how the runner formats each value (`format_datum`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `T`
    Text,
    /// `I`
    Integer,
    /// `R`
    Real,
    /// `B`
    Bool,
    /// `O`
    Oid,
}

impl Type {
    pub fn letter(self) -> char {
        match self {
            Type::Text => 'T',
            Type::Integer => 'I',
            Type::Real => 'R',
            Type::Bool => 'B',
            Type::Oid => 'O',
        }
    }
}

/// A query's expected output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// The values, in the order they are compared (already sorted where
    /// the parser sorts them).
    Values(Vec<String>),
    /// `N values hashing to MD5`: the values' count and the md5 of each
    /// value followed by a newline.
    Hashed { values: usize, md5: String },
}

/// A `query` record's expected results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    pub types: Vec<Type>,
    pub sort: Sort,
    pub multiline: bool,
    /// `colnames`: the expected column names (`␠` read as a space).
    pub columns: Option<Vec<String>>,
    pub mode: Mode,
    pub output: Output,
    /// Byte range of the expected output (column names included) in the
    /// file: what a completed file replaces.
    pub span: Range<usize>,
}

/// An expected error: a regular expression matched anywhere in the error
/// as the client library shows it (`db error: ERROR: <message>`).
#[derive(Clone, Debug)]
pub struct ExpectedError {
    /// The pattern as written.
    pub pattern: String,
    /// The pattern compiled, or `None` when Rust's `regex` cannot compile
    /// it. Materialize's runner compiles it only when an error comes, and
    /// then stops the whole file; here that record alone is refused.
    pub regex: Option<Regex>,
    /// Byte range of the pattern in the file.
    pub span: Range<usize>,
}

impl ExpectedError {
    /// Whether the pattern matches `error` anywhere; `None` when it does
    /// not compile.
    pub fn matches(&self, error: &str) -> Option<bool> {
        self.regex.as_ref().map(|r| r.is_match(error))
    }
}

impl PartialEq for ExpectedError {
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern && self.span == other.span
    }
}

impl Eq for ExpectedError {}

/// What a `statement` record expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementExpect {
    Ok,
    /// `statement count N`: success, with N rows affected.
    Count(u64),
    Error(ExpectedError),
}

/// One record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    Statement {
        sql: String,
        expect: StatementExpect,
    },
    Query {
        sql: String,
        expect: Result<Results, ExpectedError>,
    },
    /// `simple [conn=..,user=..,password=..,rowsort,multiline]`: the simple
    /// query protocol, its rows and `COMPLETE n` lines compared as text.
    Simple {
        sql: String,
        conn: Option<String>,
        user: Option<String>,
        password: Option<String>,
        sort: Sort,
        /// The expected lines (sorted in cockroach mode with `rowsort`).
        output: Vec<String>,
        /// Its output runs to an `EOF` line, blank lines and all, and
        /// what follows `EOF` to the next blank line are further lines.
        multiline: bool,
        span: Range<usize>,
    },
    /// `hash-threshold N`: read and ignored, as Materialize's runner does.
    HashThreshold,
    /// `copy <table> <tsv path>`.
    Copy { table: String, path: String },
    /// `reset-server`: the records after it run on a fresh server.
    ResetServer,
}

/// A record with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// 1-based line of its first line (`query IT rowsort`).
    pub line: usize,
    /// That first line as written, comment removed.
    pub head: String,
    pub record: Record,
    /// `# skip-postgres=<reason>` on the line before it: PostgreSQL
    /// legitimately answers otherwise (for the oracle; a comment to
    /// Materialize's runner).
    pub skip_postgres: Option<String>,
}

/// The records of a file and the blocks the engine executes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Every record, in order (records `skipif`/`onlyif` discarded and
    /// those after `halt` are not here).
    pub records: Vec<Written>,
    /// Per [`Script::blocks`](crate::format::Script::blocks) entry, the
    /// index of its record; records the runner cannot run have no block.
    pub blocks: Vec<usize>,
}

impl Layout {
    /// The record of block `block`.
    pub fn record(&self, block: usize) -> &Written {
        &self.records[self.blocks[block]]
    }
}
