//! Values, rows and errors: the data every collection carries.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A single SQL value. The derived order (Null first, then by variant) is the
/// order rows are sorted in for output and the order errors are compared in.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Datum {
    Null,
    Bool(bool),
    Int(i64),
    Text(String),
}

impl Datum {
    /// Whether the datum is a non-NULL value of type `typ`.
    pub fn is_of(&self, typ: ScalarType) -> bool {
        matches!(
            (self, typ),
            (Datum::Int(_), ScalarType::Int)
                | (Datum::Text(_), ScalarType::Text)
                | (Datum::Bool(_), ScalarType::Bool)
        )
    }
}

impl fmt::Display for Datum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Datum::Null => write!(f, "NULL"),
            Datum::Bool(b) => write!(f, "{b}"),
            Datum::Int(i) => write!(f, "{i}"),
            Datum::Text(s) => write!(f, "{s}"),
        }
    }
}

/// A row is a vector of datums; column positions are resolved by the planner.
pub type Row = Vec<Datum>;

/// The declared type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScalarType {
    Int,
    Text,
    Bool,
}

impl ScalarType {
    /// The name the real system prints for the type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Int => "integer",
            ScalarType::Text => "text",
            ScalarType::Bool => "boolean",
        }
    }
}

/// A named, typed column of a relation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Column {
    pub name: String,
    pub typ: ScalarType,
    pub nullable: bool,
}

/// An error that flows in a collection's error stream instead of failing the
/// dataflow, as the real system's `DataflowError` does. Its text is what a peek
/// that finds it prints after `error: `.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DataflowError(pub String);

impl DataflowError {
    /// The real system's text for a scalar evaluation failure.
    pub fn eval(what: &str) -> Self {
        DataflowError(format!("Evaluation error: {what}"))
    }
}

impl fmt::Display for DataflowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Logical time: the engine's clock, `now`, counts write statements and ticks.
pub type Timestamp = u64;

/// Multiplicity of an update.
pub type Diff = i64;

/// Catalog identifier, printed as `u<n>` like the real system's user ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GlobalId(pub u64);

impl fmt::Display for GlobalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "u{}", self.0)
    }
}
