//! Calls of `extract(unit, x)` (`EXTRACT(unit FROM x)`, which the real
//! system's parser reads as that call, the unit a string) and of
//! `date_part(unit, x)`, as its overloads have them (`sql/src/func.rs`,
//! read for the facts): `extract` of a `date`, `timestamp`, `timestamp
//! with time zone`, `interval` or `time`, a `numeric`; `date_part` of a
//! `timestamp`, `timestamp with time zone` or `interval`, a `double
//! precision`, and of a `date` by its implicit cast to a `timestamp with
//! time zone`, the overload its resolution prefers. The unit is a `text`
//! evaluated per row (`repr::time::parts`), an unknown one the error
//! `unit 'x' not recognized` as data, a literal one on every row
//! (`eval::time::literal_unit_error`).
//! Of a `time` either takes its own overload.
//! Refused by name: a string literal or NULL (which overload the real
//! system resolves it to is not settled here), and any other type; and `extract(a, b)` written as a
//! call, the real system's syntax error (its parser reads `extract(` only
//! as `EXTRACT(unit FROM x)`), which sqlparser reads as a call.

use super::date_trunc::{call, refused_type, unit_call};
use super::typed::Typed;
use crate::plan::Func;
use crate::repr::ScalarType;

/// `extract(args)` or `date_part(args)` (`name`).
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let (unit, value) = unit_call(name, args)?;
    let (func, typ) = match name {
        "extract" => (Func::Extract, ScalarType::Numeric),
        _ => (Func::DatePart, ScalarType::Float64),
    };
    let value = match value.typ {
        Some(ScalarType::Date) if func == Func::DatePart => value.cast(ScalarType::TimestampTz),
        Some(
            ScalarType::Date
            | ScalarType::Timestamp
            | ScalarType::TimestampTz
            | ScalarType::Interval
            | ScalarType::Time,
        ) => value,
        other => return Err(refused_type(name, other)),
    };
    Ok(call(func, unit, value, typ))
}
