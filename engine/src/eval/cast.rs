//! Casts between the engine's scalar types and strings read as a type,
//! with the real system's texts; an array's and a list's to and from a
//! string and between element types, element by element.

use super::errors::value_out_of_range;
use super::{float, int16, jsonb, numeric, time, unsigned};
use crate::repr::array::{self, Array, ArrayElem};
use crate::repr::list::{self, ListType};
use crate::repr::{range, Datum, ScalarType, F32, F64};

/// A string read as a value of type `to`, with the real system's texts.
pub fn parse_as(s: &str, to: ScalarType) -> Result<Datum, String> {
    // A `char(n)` or `varchar(n)` cut to its length (`repr::chars`).
    if let Some((kind, length)) = to.chars() {
        return kind.convert(s, length, false).map(Datum::Text);
    }
    if let Some(read) = time::parse(s, to) {
        return read;
    }
    let invalid = |e: std::num::ParseIntError| {
        format!("invalid input syntax for type {}: {e}: \"{s}\"", to.name())
    };
    match to {
        ScalarType::Range(kind) => {
            range::parse(s, |e| parse_as(e, kind.element())).map(|r| Datum::Range(Box::new(r)))
        }
        ScalarType::Text => Ok(Datum::Text(s.to_string())),
        ScalarType::Int16 => s.trim().parse().map(Datum::Int16).map_err(invalid),
        ScalarType::Int32 => s.trim().parse().map(Datum::Int32).map_err(invalid),
        ScalarType::Int64 => s.trim().parse().map(Datum::Int64).map_err(invalid),
        ScalarType::UInt16 => s.trim().parse().map(Datum::UInt16).map_err(invalid),
        ScalarType::UInt32 => s.trim().parse().map(Datum::UInt32).map_err(invalid),
        ScalarType::UInt64 => s.trim().parse().map(Datum::UInt64).map_err(invalid),
        ScalarType::Numeric => numeric::parse(s).map(Datum::Numeric),
        ScalarType::NumericScale(_) => {
            let n = numeric::parse(s).map(Datum::Numeric)?;
            cast(n, to)
        }
        ScalarType::Bool => parse_bool(s)
            .map(Datum::Bool)
            .ok_or_else(|| format!("invalid input syntax for type boolean: \"{s}\"")),
        ScalarType::Char(_) | ScalarType::VarChar(_) => unreachable!("parsed above"),
        ScalarType::Date
        | ScalarType::Timestamp
        | ScalarType::TimestampTz
        | ScalarType::Interval
        | ScalarType::Time => {
            unreachable!("read above")
        }
        ScalarType::Float32 => F32::parse(s).map(Datum::Float32),
        ScalarType::Float64 => F64::parse(s).map(Datum::Float64),
        ScalarType::Jsonb => crate::repr::jsonb::parse(s).map(|j| Datum::Jsonb(Box::new(j))),
        ScalarType::Array(e) => parse_array(s, e),
        ScalarType::List(t) => parse_list(s, t),
        ScalarType::Bytes => crate::repr::bytes::parse(s).map(Datum::Bytes),
    }
}

/// A boolean as the real system (and PostgreSQL) reads one: around
/// whitespace, any case, a prefix of `true`, `yes` or `false`, `no`; `on`,
/// `off` (or `of`); `1` or `0`.
fn parse_bool(s: &str) -> Option<bool> {
    let s = s.trim().to_lowercase();
    let prefix = |word: &str, min: usize| s.len() >= min && word.starts_with(s.as_str());
    match () {
        _ if prefix("true", 1) || prefix("yes", 1) || prefix("on", 2) || s == "1" => Some(true),
        _ if prefix("false", 1) || prefix("no", 1) || prefix("off", 2) || s == "0" => Some(false),
        _ => None,
    }
}

/// Whether the real system has a cast from `from` to `to` (explicit or
/// implicit) between the types the engine knows: PostgreSQL's, and
/// `bigint` to `boolean`, which PostgreSQL lacks (docs/semantics.md,
/// "Where the real system and PostgreSQL differ"), and the casts of
/// floats (`float::castable`) and numerics (`numeric::castable`).
/// `boolean` to `bigint` is not known here, so not implemented.
/// The string types cast as `text` does, to and from each other too.
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::*;
    // A `bytea` casts to and from a `text` alone (the real system's
    // `typeconv.rs`: no cast of it to or from `char` or `varchar`).
    if from == Bytes || to == Bytes {
        return from == to || matches!((from, to), (Bytes, Text) | (Text, Bytes));
    }
    let text = |t: ScalarType| if t.is_string() { Text } else { t };
    let (from, to) = (text(from), text(to));
    // A jsonb casts to and from a string, and to its numbers' and
    // booleans' types.
    if from == Jsonb || to == Jsonb {
        return from == to || from == Text || to == Text || from == Jsonb && jsonb::castable_to(to);
    }
    // An array casts to and from a string, and to an array whose
    // elements its elements cast to.
    match (from, to) {
        (List(a), List(b)) => return castable(a.element(), b.element()),
        // Materialize's `CastArrayToListOneDim`, of an array of the list's
        // element type (it casts no element).
        (Array(e), List(t)) => return t.layers == 1 && t.elem == e,
        (List(_), _) | (_, List(_)) => return from == Text || to == Text,
        (Array(a), Array(b)) => return castable_elements(a, b),
        (Array(_), _) | (_, Array(_)) => return from == Text || to == Text,
        _ => {}
    }
    // A range casts to and from a string, and to itself only.
    if let (ScalarType::Range(_), _) | (_, ScalarType::Range(_)) = (from, to) {
        return from == to || from == Text || to == Text;
    }
    if time::is_time(from) || time::is_time(to) {
        return from == to || time::castable(from, to);
    }
    from == to
        || float::castable(from, to)
        || numeric::castable(from, to)
        || int16::castable(from, to)
        || unsigned::castable(from, to)
        || matches!(
            (from, to),
            (Int32 | Int64, Int32 | Int64)
                | (_, Text)
                | (Text, _)
                | (Int32 | Int64, Bool)
                | (Bool, Int32)
        )
}

/// `d` converted to `to` (a cast the planner checked with [`castable`]).
pub fn cast(d: Datum, to: ScalarType) -> Result<Datum, String> {
    if let Some(converted) = cast_array(&d, to) {
        return converted;
    }
    if let Some(converted) = cast_list(&d, to) {
        return converted;
    }
    if let Some(converted) = float::cast(&d, to) {
        return converted;
    }
    if let Some(converted) = numeric::cast(&d, to) {
        return converted;
    }
    if let Some(converted) = int16::cast(&d, to) {
        return converted;
    }
    if let Some(converted) = unsigned::cast(&d, to) {
        return converted;
    }
    if let Some(converted) = time::cast(&d, to) {
        return converted;
    }
    if let Some(source) = jsonb::cast_source(&d, to) {
        return cast(source?, to);
    }
    let range = |t: ScalarType, v: i64| value_out_of_range(t, v);
    Ok(match (d, to) {
        (Datum::Null, _) => Datum::Null,
        (Datum::Text(s), to) => parse_as(&s, to)?,
        (d, to) if to.is_string() => parse_as(&d.to_string(), to)?,
        (Datum::Int32(i), ScalarType::Int32) => Datum::Int32(i),
        (Datum::Int32(i), ScalarType::Int64) => Datum::Int64(i.into()),
        (Datum::Int64(i), ScalarType::Int64) => Datum::Int64(i),
        (Datum::Int64(i), ScalarType::Int32) => {
            Datum::Int32(i32::try_from(i).map_err(|_| range(ScalarType::Int32, i))?)
        }
        (Datum::Int32(i), ScalarType::Bool) => Datum::Bool(i != 0),
        (Datum::Int64(i), ScalarType::Bool) => Datum::Bool(i != 0),
        (Datum::Bool(b), ScalarType::Int32) => Datum::Int32(b.into()),
        (Datum::Bool(b), ScalarType::Bool) => Datum::Bool(b),
        (Datum::Range(r), ScalarType::Range(_)) => Datum::Range(r),
        (Datum::Jsonb(j), ScalarType::Jsonb) => Datum::Jsonb(j),
        (Datum::Bytes(b), ScalarType::Bytes) => Datum::Bytes(b),
        (d, to) => return Err(format!("cannot cast {d} to {}", to.name())),
    })
}

/// Whether an array of `from` casts to an array of `to`: when the
/// elements do.
pub fn castable_elements(from: ArrayElem, to: ArrayElem) -> bool {
    castable(from.scalar(), to.scalar())
}

/// `d` cast to `to` where either is an array (`None`: neither is).
pub fn cast_array(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    match (d, to) {
        (Datum::Text(s), ScalarType::Array(e)) => Some(parse_array(s, e)),
        (Datum::Array(a), ScalarType::Array(e)) => {
            let elements: Result<Vec<Datum>, String> = a
                .elements
                .iter()
                .map(|x| cast(x.clone(), e.scalar()))
                .collect();
            Some(elements.map(|elements| {
                Datum::Array(Box::new(Array {
                    elements,
                    dims: a.dims.clone(),
                }))
            }))
        }
        (Datum::Array(a), to) if to.is_string() => Some(parse_as(&a.to_string(), to)),
        _ => None,
    }
}

/// `s` read as an array of `e`.
pub fn parse_array(s: &str, e: ArrayElem) -> Result<Datum, String> {
    array::parse(s, |x| parse_as(x, e.scalar())).map(|a| Datum::Array(Box::new(a)))
}

/// `s` read as a list of type `t`.
pub fn parse_list(s: &str, t: ListType) -> Result<Datum, String> {
    let element = t.element();
    let nested = matches!(element, ScalarType::List(_));
    list::parse(s, nested, |e| parse_as(e, element)).map(Datum::List)
}

/// `d` cast to `to` where either is a list (`None`: neither is).
pub fn cast_list(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    match (d, to) {
        (Datum::Text(s), ScalarType::List(t)) => Some(parse_list(s, t)),
        (Datum::List(l), ScalarType::List(t)) => {
            let element = t.element();
            let cast: Result<Vec<Datum>, String> =
                l.iter().map(|x| cast(x.clone(), element)).collect();
            Some(cast.map(Datum::List))
        }
        (Datum::List(_), to) if to.is_string() => Some(parse_as(&d.to_string(), to)),
        (Datum::Array(a), ScalarType::List(_)) => Some(match a.dims.len() {
            0 | 1 => Ok(Datum::List(a.elements.clone())),
            n => Err(format!(
                "casting multi-dimensional array to list; got array with {n} dimensions not yet supported"
            )),
        }),
        _ => None,
    }
}
