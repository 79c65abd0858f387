//! The records of an `.slt` file as this runner holds them: the column
//! [`Type`]s, [`SltRecord`], and the [`Layout`] that says, per executed
//! block, which record it is, where it is written ([`Origin`]) and the
//! settings in effect; with [`head`], a record's first line.
//!
//! A leaf: a [`Format`](crate::format::Format) carries a `Layout`,
//! and the parser, the printer of outcomes and the writer of completed
//! files all read it.

use sqllogictest::{ColumnType, Record, SortMode};

/// The result column types: `I` integer, `T` text, `B` boolean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Integer,
    Text,
    Bool,
}

impl ColumnType for Type {
    fn from_char(value: char) -> Option<Self> {
        match value {
            'I' => Some(Type::Integer),
            'T' => Some(Type::Text),
            'B' => Some(Type::Bool),
            _ => None,
        }
    }

    fn to_char(&self) -> char {
        match self {
            Type::Integer => 'I',
            Type::Text => 'T',
            Type::Bool => 'B',
        }
    }
}

/// A record of this runner's column types.
pub type SltRecord = Record<Type>;

/// The records of an `.slt` file and, per block, what completing it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The file's own records, rendered back with their `Display`.
    pub records: Vec<SltRecord>,
    /// One per [`Script::blocks`](crate::format::Script::blocks) entry, same order.
    pub blocks: Vec<SltBlock>,
}

// `Record` is not `Eq` only because a regex is not; its `PartialEq` compares
// regexes by their text, which is an equivalence.
impl Eq for Layout {}

/// One executed record.
#[derive(Clone, Debug, PartialEq)]
pub struct SltBlock {
    /// The record as written.
    pub record: SltRecord,
    pub origin: Origin,
    /// The sort mode in effect for a query (its own, else `control sortmode`).
    pub sort: Option<SortMode>,
    /// The `hash-threshold` in effect (0: never hash).
    pub hash_threshold: usize,
}

/// Where a block's record is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `Layout::records[i]`: its completion goes into the transcript.
    Own(usize),
    /// An included `file` (as shown), brought in by the top-level include
    /// `records[via]`; its record must already be complete.
    Included { file: String, via: usize },
}

/// The first line of a record as written back (`query IT rowsort`).
pub fn head(record: &SltRecord) -> String {
    record
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}
