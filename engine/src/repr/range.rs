//! Ranges as the real system has them (its `repr/src/adt/range.rs`, read
//! for the facts): a range is empty, or a lower and an upper bound, each
//! inclusive or not and finite or infinite. A range is kept canonical: an
//! infinite bound is exclusive; a discrete range (`int4range`,
//! `int8range`, `daterange`) is `[lower, upper)`, its bounds stepped by
//! one; bounds that meet with one exclusive make it empty; a lower bound
//! above the upper is an error. Ranges order as there: the empty range
//! first, then by lower bound (an infinite one first, an inclusive one
//! before an exclusive one at the same value), then by upper bound (an
//! infinite one last, an exclusive one before an inclusive one).
//! The text reader is `range/parse.rs`.

mod parse;

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::time::Date;
use super::{Datum, ScalarType};

pub use parse::parse;

/// The range types the engine has, by their element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RangeKind {
    Int32,
    Int64,
    Numeric,
    Date,
    Timestamp,
    TimestampTz,
}

impl RangeKind {
    /// The type of the range's bounds.
    pub fn element(self) -> ScalarType {
        match self {
            RangeKind::Int32 => ScalarType::Int32,
            RangeKind::Int64 => ScalarType::Int64,
            RangeKind::Numeric => ScalarType::Numeric,
            RangeKind::Date => ScalarType::Date,
            RangeKind::Timestamp => ScalarType::Timestamp,
            RangeKind::TimestampTz => ScalarType::TimestampTz,
        }
    }

    /// The type's name, which is also its constructor's.
    pub fn name(self) -> &'static str {
        match self {
            RangeKind::Int32 => "int4range",
            RangeKind::Int64 => "int8range",
            RangeKind::Numeric => "numrange",
            RangeKind::Date => "daterange",
            RangeKind::Timestamp => "tsrange",
            RangeKind::TimestampTz => "tstzrange",
        }
    }

    /// The range type of this name.
    pub fn named(name: &str) -> Option<RangeKind> {
        [
            RangeKind::Int32,
            RangeKind::Int64,
            RangeKind::Numeric,
            RangeKind::Date,
            RangeKind::Timestamp,
            RangeKind::TimestampTz,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// One end of a non-empty range; `value` `None` is an infinite bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bound {
    pub inclusive: bool,
    pub value: Option<Datum>,
}

/// A range: `None` the empty range, else its lower and upper bounds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Range(pub Option<(Bound, Bound)>);

/// The bits of a range's flags byte (the real system's `InternalFlags`).
pub mod flag {
    pub const EMPTY: u8 = 1;
    pub const LOWER_INCLUSIVE: u8 = 1 << 1;
    pub const LOWER_INFINITE: u8 = 1 << 2;
    pub const UPPER_INCLUSIVE: u8 = 1 << 3;
    pub const UPPER_INFINITE: u8 = 1 << 4;
}

/// The real system's texts of a range's errors (`InvalidRangeError`).
pub const MISORDERED: &str = "range lower bound must be less than or equal to range upper bound";
pub const BAD_FLAGS: &str = "invalid range bound flags";
pub const NULL_FLAGS: &str = "range constructor flags argument must not be null";
pub const DISCONTIGUOUS_UNION: &str = "result of range union would not be contiguous";
pub const DISCONTIGUOUS_DIFFERENCE: &str = "result of range difference would not be contiguous";

/// `(lower inclusive, upper inclusive)` of a constructor's flags (`'[)'`).
pub fn flags(s: &str) -> Result<(bool, bool), String> {
    let mut chars = s.chars();
    let lower = match chars.next() {
        Some('[') => true,
        Some('(') => false,
        _ => return Err(BAD_FLAGS.into()),
    };
    let upper = match chars.next() {
        Some(']') => true,
        Some(')') => false,
        _ => return Err(BAD_FLAGS.into()),
    };
    match chars.next() {
        Some(_) => Err(BAD_FLAGS.into()),
        None => Ok((lower, upper)),
    }
}

impl Range {
    pub const EMPTY: Range = Range(None);

    /// The canonical range of these bounds (a NULL value is infinite), or
    /// the real system's error.
    pub fn new(lower: Bound, upper: Bound) -> Result<Range, String> {
        let (mut lower, mut upper) = (lower, upper);
        if let (Some(l), Some(u)) = (&lower.value, &upper.value) {
            if l > u {
                return Err(MISORDERED.into());
            }
        }
        canonical(&mut lower, false)?;
        canonical(&mut upper, true)?;
        let empty = !(lower.inclusive && upper.inclusive)
            && upper.value.is_some()
            && lower.value >= upper.value;
        Ok(Range((!empty).then_some((lower, upper))))
    }

    /// The range's flags byte, as the real system's row encoding has it
    /// (`flag`).
    pub fn flag_bits(&self) -> u8 {
        let Some((lower, upper)) = &self.0 else {
            return flag::EMPTY;
        };
        let set = |on: bool, bit: u8| if on { bit } else { 0 };
        set(lower.inclusive, flag::LOWER_INCLUSIVE)
            | set(lower.value.is_none(), flag::LOWER_INFINITE)
            | set(upper.inclusive, flag::UPPER_INCLUSIVE)
            | set(upper.value.is_none(), flag::UPPER_INFINITE)
    }

    /// The values of the range's finite bounds, lower first.
    pub fn finite_bounds(&self) -> impl Iterator<Item = &Datum> + Clone {
        self.0
            .iter()
            .flat_map(|(lower, upper)| [&lower.value, &upper.value])
            .flatten()
    }

    /// Whether the range's finite bounds are of `kind`'s element type
    /// (the empty range is of every range type).
    pub fn is_of(&self, kind: RangeKind) -> bool {
        let Some((lower, upper)) = &self.0 else {
            return true;
        };
        [&lower.value, &upper.value]
            .into_iter()
            .flatten()
            .all(|v| v.is_of(kind.element()))
    }

    /// Whether a value lies in the range.
    pub fn contains(&self, elem: &Datum) -> bool {
        let Some((lower, upper)) = &self.0 else {
            return false;
        };
        let above = match &lower.value {
            None => true,
            Some(l) => l < elem || (lower.inclusive && l == elem),
        };
        let below = match &upper.value {
            None => true,
            Some(u) => elem < u || (upper.inclusive && u == elem),
        };
        above && below
    }
}

/// A bound with its value `Null` made infinite.
pub fn bound(value: Datum, inclusive: bool) -> Bound {
    let value = (value != Datum::Null).then_some(value);
    Bound { inclusive, value }
}

/// `bound` canonical: infinite bounds exclusive; a discrete type's lower
/// bound inclusive and upper exclusive, stepped by one where it was not
/// (the real system's `canonicalize_inner`, whose overflow is the
/// element type's "out of range").
fn canonical(bound: &mut Bound, upper: bool) -> Result<(), String> {
    let Some(value) = &bound.value else {
        bound.inclusive = false;
        return Ok(());
    };
    if upper != bound.inclusive {
        return Ok(());
    }
    let stepped = match value {
        Datum::Int32(i) => i.checked_add(1).map(Datum::Int32).ok_or("integer"),
        Datum::Int64(i) => i.checked_add(1).map(Datum::Int64).ok_or("bigint"),
        Datum::Date(d) => Date::from_days(i64::from(d.days()) + 1)
            .map(Datum::Date)
            .ok_or("date"),
        _ => return Ok(()),
    };
    bound.value = Some(stepped.map_err(|t| format!("{t} out of range"))?);
    bound.inclusive = !upper;
    Ok(())
}

/// The order of two lower bounds (`upper` false) or two upper bounds.
pub fn cmp_bounds(a: &Bound, b: &Bound, upper: bool) -> Ordering {
    let by_value = match (&a.value, &b.value) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) if upper => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) if upper => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => x.cmp(y),
    };
    let inclusive_first = match (a.inclusive, b.inclusive) {
        (x, y) if x == y => Ordering::Equal,
        (true, _) => Ordering::Less,
        _ => Ordering::Greater,
    };
    let by_inclusive = if upper {
        inclusive_first.reverse()
    } else {
        inclusive_first
    };
    by_value.then(by_inclusive)
}

/// The order of a bound `a` (an upper one when `a_upper`) and a bound `b`
/// of the other end (the real system's `range_bound_cmp` across ends).
pub fn cmp_across(a: &Bound, b: &Bound, a_upper: bool) -> Ordering {
    let (Some(x), Some(y)) = (&a.value, &b.value) else {
        return if a_upper {
            Ordering::Greater
        } else {
            Ordering::Less
        };
    };
    x.cmp(y).then(if a.inclusive && b.inclusive {
        Ordering::Equal
    } else if a_upper {
        Ordering::Less
    } else {
        Ordering::Greater
    })
}

impl Ord for Range {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some((al, au)), Some((bl, bu))) => {
                cmp_bounds(al, bl, false).then_with(|| cmp_bounds(au, bu, true))
            }
        }
    }
}

impl PartialOrd for Range {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((lower, upper)) = &self.0 else {
            return f.write_str("empty");
        };
        f.write_str(if lower.inclusive { "[" } else { "(" })?;
        write_element(f, &lower.value)?;
        f.write_str(",")?;
        write_element(f, &upper.value)?;
        f.write_str(if upper.inclusive { "]" } else { ")" })
    }
}

/// A bound's text, quoted as the real system's list elements are when it
/// is empty, `NULL`, or holds a brace, comma, quote, backslash or space
/// (a timestamp's space); an infinite bound writes nothing.
fn write_element(f: &mut fmt::Formatter<'_>, value: &Option<Datum>) -> fmt::Result {
    let Some(value) = value else {
        return Ok(());
    };
    super::array::write_escaped(f, &value.to_string())
}

#[cfg(test)]
mod tests;
