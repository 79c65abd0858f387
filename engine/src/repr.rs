//! Values, rows and errors: the data every collection carries; and the
//! frontier of one timestamp that says how far a collection is complete.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A single SQL value. The derived order (Null first, then by variant) is the
/// order rows are sorted in for output and the order errors are compared in;
/// SQL's ORDER BY places NULLs itself (`plan::compare_rows`). A value carries
/// its width, as in the real system: `integer` (int4) and `bigint` (int8)
/// overflow at their own bounds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Datum {
    Null,
    Bool(bool),
    Int32(i32),
    Int64(i64),
    /// An exact decimal: PostgreSQL's `avg` of integers.
    Numeric(Numeric),
    Text(String),
}

impl Datum {
    /// Whether the datum is a non-NULL value of type `typ`.
    pub fn is_of(&self, typ: ScalarType) -> bool {
        matches!(
            (self, typ),
            (Datum::Int32(_), ScalarType::Int32)
                | (Datum::Int64(_), ScalarType::Int64)
                | (Datum::Numeric(_), ScalarType::Numeric)
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
            Datum::Int32(i) => write!(f, "{i}"),
            Datum::Int64(i) => write!(f, "{i}"),
            Datum::Numeric(n) => write!(f, "{n}"),
            Datum::Text(s) => write!(f, "{s}"),
        }
    }
}

/// An exact decimal, `mantissa / 10^scale`, wide enough for the sums and
/// averages of 64-bit integers. The scale is PostgreSQL's display scale:
/// it prints with exactly that many digits after the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Numeric {
    pub mantissa: i128,
    pub scale: u32,
}

impl Numeric {
    /// Parses PostgreSQL's text form (`-12.50`); `None` if it is not one.
    pub fn parse(text: &str) -> Option<Numeric> {
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mantissa = format!("{int}{frac}").parse::<i128>().ok()?;
        let scale = u32::try_from(frac.len()).ok()?;
        Some(Numeric { mantissa, scale })
    }

    /// The value's integer part and its fraction scaled to `scale` digits,
    /// when that fits: the key two numerics compare by.
    fn parts(self, scale: u32) -> (i128, Option<i128>) {
        let unit = 10i128.pow(self.scale);
        let frac = 10i128
            .checked_pow(scale - self.scale)
            .and_then(|p| (self.mantissa % unit).checked_mul(p));
        (self.mantissa / unit, frac)
    }
}

/// Ordered by value (`1.50` beside `1.5` by scale), not by representation.
impl Ord for Numeric {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let scale = self.scale.max(other.scale);
        self.parts(scale)
            .cmp(&other.parts(scale))
            .then(self.scale.cmp(&other.scale))
    }
}

impl PartialOrd for Numeric {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Numeric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.mantissa.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let digits = format!("{digits:0>width$}", width = scale + 1);
        let (int, frac) = digits.split_at(digits.len() - scale);
        let sign = if self.mantissa < 0 { "-" } else { "" };
        if frac.is_empty() {
            write!(f, "{sign}{int}")
        } else {
            write!(f, "{sign}{int}.{frac}")
        }
    }
}

/// A row is a vector of datums; column positions are resolved by the planner.
pub type Row = Vec<Datum>;

/// The declared type of a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScalarType {
    /// `int`, `integer`, `int4`: 32 bits.
    Int32,
    /// `bigint`, `int8`: 64 bits.
    Int64,
    /// `numeric`: exact decimals (`Numeric`).
    Numeric,
    Text,
    Bool,
}

impl ScalarType {
    /// PostgreSQL's internal name, which names a cast's output column.
    pub fn internal_name(self) -> &'static str {
        match self {
            ScalarType::Int32 => "int4",
            ScalarType::Int64 => "int8",
            ScalarType::Numeric => "numeric",
            ScalarType::Text => "text",
            ScalarType::Bool => "bool",
        }
    }

    /// Whether the type is one of the integers.
    pub fn is_integer(self) -> bool {
        matches!(self, ScalarType::Int32 | ScalarType::Int64)
    }

    /// The name the real system prints for the type.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Int32 => "integer",
            ScalarType::Int64 => "bigint",
            ScalarType::Numeric => "numeric",
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

/// A frontier of one timestamp; `None` is the empty frontier.
pub type Frontier = Option<Timestamp>;

/// The meet of two frontiers of a total order.
pub fn meet(a: Frontier, b: Frontier) -> Frontier {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
