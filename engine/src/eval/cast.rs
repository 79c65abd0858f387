//! Casts between the engine's scalar types and strings read as a type,
//! with the real system's texts.

use crate::repr::{Datum, Numeric, ScalarType};

/// A string read as a value of type `to`, with the real system's texts.
pub fn parse_as(s: &str, to: ScalarType) -> Result<Datum, String> {
    let invalid = |e: std::num::ParseIntError| {
        format!("invalid input syntax for type {}: {e}: \"{s}\"", to.name())
    };
    match to {
        ScalarType::Text => Ok(Datum::Text(s.to_string())),
        ScalarType::Int32 => s.trim().parse().map(Datum::Int32).map_err(invalid),
        ScalarType::Int64 => s.trim().parse().map(Datum::Int64).map_err(invalid),
        ScalarType::Numeric => Numeric::parse(s.trim())
            .map(Datum::Numeric)
            .ok_or_else(|| format!("invalid input syntax for type numeric: \"{s}\"")),
        ScalarType::Bool => match s.trim().to_lowercase().as_str() {
            "t" | "true" | "y" | "yes" | "on" | "1" => Ok(Datum::Bool(true)),
            "f" | "false" | "n" | "no" | "off" | "0" => Ok(Datum::Bool(false)),
            _ => Err(format!("invalid input syntax for type boolean: \"{s}\"")),
        },
    }
}

/// Whether PostgreSQL has a cast from `from` to `to` (explicit or implicit).
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::*;
    from == to
        || matches!(
            (from, to),
            (Int32 | Int64, Int32 | Int64) | (_, Text) | (Text, _) | (Int32, Bool) | (Bool, Int32)
        )
}

/// `d` converted to `to` (a cast the planner checked with [`castable`]).
pub fn cast(d: Datum, to: ScalarType) -> Result<Datum, String> {
    let range = |t: ScalarType| format!("{} out of range", t.name());
    Ok(match (d, to) {
        (Datum::Null, _) => Datum::Null,
        (Datum::Text(s), to) => parse_as(&s, to)?,
        (d, ScalarType::Text) => Datum::Text(d.to_string()),
        (Datum::Int32(i), ScalarType::Int32) => Datum::Int32(i),
        (Datum::Int32(i), ScalarType::Int64) => Datum::Int64(i.into()),
        (Datum::Int64(i), ScalarType::Int64) => Datum::Int64(i),
        (Datum::Int64(i), ScalarType::Int32) => {
            Datum::Int32(i32::try_from(i).map_err(|_| range(ScalarType::Int32))?)
        }
        (Datum::Int32(i), ScalarType::Bool) => Datum::Bool(i != 0),
        (Datum::Bool(b), ScalarType::Int32) => Datum::Int32(b.into()),
        (Datum::Bool(b), ScalarType::Bool) => Datum::Bool(b),
        (Datum::Numeric(n), ScalarType::Numeric) => Datum::Numeric(n),
        (d, to) => return Err(format!("cannot cast {d} to {}", to.name())),
    })
}
