//! Materialize's `array` as its `repr/src/adt/array.rs` holds one (read
//! for the facts): its element datums in row-major order and its
//! dimensions, each a lower bound and a length, at most six of them; the
//! empty array has no dimension at all. The engine makes only arrays of
//! lower bound 1 (`ARRAY[...]`, the text form, which refuses a lower
//! bound as Materialize's does), but keeps the bound as the real system
//! does, for the text of one that has another (`[0:1]={1,2}`).
//!
//! Two orders: the derived one (elements, then dimensions, each datum by
//! `Datum`'s own derived order) is what arrangements, `DISTINCT` and
//! `GROUP BY` use, consistent with equality; SQL's comparisons are the
//! real system's `Datum`'s for an array (`sql_eq`, `sql_cmp`): equal
//! when the elements and the dimensions are, the elements compared as its
//! datums compare (NULL equal to NULL and after every value, `-0 = 0`),
//! and ordered by the elements, then by the number of dimensions alone.
//!
//! Its text (`Display`) is `format_array` of Materialize's `strconv.rs`,
//! `parse` its `parse_array`, with their error texts.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Datum, ScalarType};

mod parse;

pub use parse::parse;
pub(in crate::repr) use parse::{quoted, skip_whitespace, unquoted, Chars};

/// The real system's bound on an array's dimensions (`MAX_ARRAY_DIMENSIONS`).
pub const MAX_DIMENSIONS: usize = 6;

/// The types an array's elements may have in the engine: every type of
/// its own but `char(n)`, `varchar(n)`, `numeric(p, s)`, the ranges and
/// `jsonb`, whose arrays it refuses by name (`ArrayElem::of` gives none;
/// `Jsonb` stays a variant for the other branches' sake only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArrayElem {
    Bool,
    Int16,
    Int32,
    Int64,
    UInt16,
    UInt32,
    UInt64,
    Numeric,
    Float32,
    Float64,
    Text,
    Date,
    Timestamp,
    TimestampTz,
    Interval,
    Jsonb,
}

impl ArrayElem {
    /// The element type.
    pub fn scalar(self) -> ScalarType {
        match self {
            ArrayElem::Bool => ScalarType::Bool,
            ArrayElem::Int16 => ScalarType::Int16,
            ArrayElem::Int32 => ScalarType::Int32,
            ArrayElem::Int64 => ScalarType::Int64,
            ArrayElem::UInt16 => ScalarType::UInt16,
            ArrayElem::UInt32 => ScalarType::UInt32,
            ArrayElem::UInt64 => ScalarType::UInt64,
            ArrayElem::Numeric => ScalarType::Numeric,
            ArrayElem::Float32 => ScalarType::Float32,
            ArrayElem::Float64 => ScalarType::Float64,
            ArrayElem::Text => ScalarType::Text,
            ArrayElem::Date => ScalarType::Date,
            ArrayElem::Timestamp => ScalarType::Timestamp,
            ArrayElem::TimestampTz => ScalarType::TimestampTz,
            ArrayElem::Interval => ScalarType::Interval,
            ArrayElem::Jsonb => ScalarType::Jsonb,
        }
    }

    /// The array type's name, as the real system prints it.
    pub fn type_name(self) -> &'static str {
        match self {
            ArrayElem::Bool => "boolean[]",
            ArrayElem::Int16 => "smallint[]",
            ArrayElem::Int32 => "integer[]",
            ArrayElem::Int64 => "bigint[]",
            ArrayElem::UInt16 => "uint2[]",
            ArrayElem::UInt32 => "uint4[]",
            ArrayElem::UInt64 => "uint8[]",
            ArrayElem::Numeric => "numeric[]",
            ArrayElem::Float32 => "real[]",
            ArrayElem::Float64 => "double precision[]",
            ArrayElem::Text => "text[]",
            ArrayElem::Date => "date[]",
            ArrayElem::Timestamp => "timestamp without time zone[]",
            ArrayElem::TimestampTz => "timestamp with time zone[]",
            ArrayElem::Interval => "interval[]",
            ArrayElem::Jsonb => "jsonb[]",
        }
    }

    /// The array type's internal name (`_int4`), which names a cast's
    /// output column.
    pub fn internal_name(self) -> &'static str {
        match self {
            ArrayElem::Bool => "_bool",
            ArrayElem::Int16 => "_int2",
            ArrayElem::Int32 => "_int4",
            ArrayElem::Int64 => "_int8",
            ArrayElem::UInt16 => "_uint2",
            ArrayElem::UInt32 => "_uint4",
            ArrayElem::UInt64 => "_uint8",
            ArrayElem::Numeric => "_numeric",
            ArrayElem::Float32 => "_float4",
            ArrayElem::Float64 => "_float8",
            ArrayElem::Text => "_text",
            ArrayElem::Date => "_date",
            ArrayElem::Timestamp => "_timestamp",
            ArrayElem::TimestampTz => "_timestamptz",
            ArrayElem::Interval => "_interval",
            ArrayElem::Jsonb => "_jsonb",
        }
    }

    /// The element type of an array of `t` (`None`: an array the engine
    /// does not have).
    pub fn of(t: ScalarType) -> Option<ArrayElem> {
        use ArrayElem as E;
        [
            E::Bool,
            E::Int16,
            E::Int32,
            E::Int64,
            E::UInt16,
            E::UInt32,
            E::UInt64,
            E::Numeric,
            E::Float32,
            E::Float64,
            E::Text,
            E::Date,
            E::Timestamp,
            E::TimestampTz,
            E::Interval,
        ]
        .into_iter()
        .find(|e| e.scalar() == t)
    }
}

/// One dimension: the index of its first element and how many it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Dim {
    pub lower: i64,
    pub length: usize,
}

/// An array value (see the module).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Array {
    pub elements: Vec<Datum>,
    pub dims: Vec<Dim>,
}

impl Array {
    /// The array of `dims` (lengths, lower bounds 1) over `elements`, or
    /// the real system's `InvalidArrayError` text.
    pub fn new(elements: Vec<Datum>, lengths: &[usize]) -> Result<Array, String> {
        if lengths.len() > MAX_DIMENSIONS {
            return Err(format!(
                "number of array dimensions ({}) exceeds the maximum allowed ({MAX_DIMENSIONS})",
                lengths.len()
            ));
        }
        let expected: usize = lengths.iter().product();
        let expected = if lengths.is_empty() { 0 } else { expected };
        if expected != elements.len() {
            return Err(format!(
                "number of array elements ({}) does not match declared cardinality ({expected})",
                elements.len()
            ));
        }
        // Per PostgreSQL, an array of no elements has no dimension.
        let dims = match elements.is_empty() {
            true => Vec::new(),
            false => lengths
                .iter()
                .map(|&length| Dim { lower: 1, length })
                .collect(),
        };
        Ok(Array { elements, dims })
    }

    /// The one-dimensional array of `elements`.
    pub fn list(elements: Vec<Datum>) -> Array {
        let n = elements.len();
        Array::new(elements, &[n]).expect("one dimension of its length")
    }

    /// The element at the 1-based (as the lower bounds say) `indexes`, one
    /// per dimension; NULL when they are not as many as the dimensions or
    /// one is out of its range, as the real system's `ArrayIndex`.
    pub fn index(&self, indexes: &[i64]) -> Datum {
        if indexes.len() != self.dims.len() || indexes.is_empty() {
            return Datum::Null;
        }
        let mut offset = 0usize;
        for (dim, &i) in self.dims.iter().zip(indexes) {
            let Some(at) = i.checked_sub(dim.lower) else {
                return Datum::Null;
            };
            match usize::try_from(at) {
                Ok(at) if at < dim.length => offset = offset * dim.length + at,
                _ => return Datum::Null,
            }
        }
        self.elements[offset].clone()
    }

    /// SQL's `=` of two arrays, the real system's datum equality: the
    /// same dimensions and elements, NULL equal to NULL.
    pub fn sql_eq(&self, other: &Array) -> bool {
        self.dims == other.dims
            && self.elements.len() == other.elements.len()
            && self
                .elements
                .iter()
                .zip(&other.elements)
                .all(|(a, b)| element_cmp(a, b) == Ordering::Equal)
    }

    /// SQL's order of two arrays, the real system's datum order: element
    /// by element (a prefix first), then by the number of dimensions.
    pub fn sql_cmp(&self, other: &Array) -> Ordering {
        let mut pairs = self.elements.iter().zip(&other.elements);
        pairs
            .find_map(|(a, b)| Some(element_cmp(a, b)).filter(|o| o.is_ne()))
            .unwrap_or_else(|| self.elements.len().cmp(&other.elements.len()))
            .then_with(|| self.dims.len().cmp(&other.dims.len()))
    }
}

impl Array {
    /// Two elements as the real system's datums compare: NULL last.
    pub fn element_cmp(a: &Datum, b: &Datum) -> Ordering {
        element_cmp(a, b)
    }
}

/// Two elements as the real system's datums compare: NULL last.
fn element_cmp(a: &Datum, b: &Datum) -> Ordering {
    match (a, b) {
        (Datum::Null, Datum::Null) => Ordering::Equal,
        (Datum::Null, _) => Ordering::Greater,
        (_, Datum::Null) => Ordering::Less,
        (a, b) => a.sql_cmp(b),
    }
}

/// The text of an element as `format_array` writes it: a boolean `t` or
/// `f`, anything else its text; quoted when it is empty, `NULL`, or holds
/// a brace, a comma, a quote, a backslash or whitespace, with a backslash
/// before each quote and backslash.
fn write_element(f: &mut fmt::Formatter<'_>, d: &Datum) -> fmt::Result {
    match d {
        Datum::Null => f.write_str("NULL"),
        d => write_escaped(f, &element_text(d)),
    }
}

/// The text of an element that is not NULL, unquoted, as the real
/// system's `stringify_datum` writes it: a boolean `t` or `f` (not the
/// `true` of its cast to text), anything else its text.
pub fn element_text(d: &Datum) -> String {
    match d {
        Datum::Bool(true) => "t".to_string(),
        Datum::Bool(false) => "f".to_string(),
        d => d.to_string(),
    }
}

/// `text` as an element of a list (an array, a range's bound) is written:
/// quoted when it is empty, `NULL`, or holds a brace, a comma, a quote, a
/// backslash or whitespace, with a backslash before each quote and
/// backslash (Materialize's `ListElementEscaper`).
pub fn write_escaped(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    let special = |c: char| matches!(c, '{' | '}' | ',' | '"' | '\\') || c.is_ascii_whitespace();
    if !(text.is_empty() || text == "NULL" || text.contains(special)) {
        return f.write_str(text);
    }
    f.write_str("\"")?;
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("\"")
}

impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dims.iter().any(|d| d.lower != 1) {
            for d in &self.dims {
                write!(f, "[{}:{}]", d.lower, d.lower + d.length as i64 - 1)?;
            }
            f.write_str("=")?;
        }
        if self.dims.is_empty() {
            return f.write_str("{}");
        }
        let mut elements = self.elements.iter();
        write_nested(f, &self.dims, &mut elements)
    }
}

/// One dimension's braces and what they hold, the rest nested inside.
fn write_nested<'a>(
    f: &mut fmt::Formatter<'_>,
    dims: &[Dim],
    elements: &mut impl Iterator<Item = &'a Datum>,
) -> fmt::Result {
    f.write_str("{")?;
    for j in 0..dims[0].length {
        if j > 0 {
            f.write_str(",")?;
        }
        match dims.len() {
            1 => write_element(f, elements.next().expect("an element a dimension counts"))?,
            _ => write_nested(f, &dims[1..], elements)?,
        }
    }
    f.write_str("}")
}

#[cfg(test)]
mod tests;
