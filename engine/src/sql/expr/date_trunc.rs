//! Calls of `date_trunc(unit, x)`, as the real system's overloads have
//! them (`sql/src/func.rs`, read for the facts): of a `timestamp` a
//! `timestamp`, of a `timestamp with time zone` one of those, the unit a
//! `text` evaluated per row, so an unknown unit is the error `unit 'x'
//! not recognized` as data (a literal one on every row, a NULL timestamp's
//! too, as its optimizer folds it: `eval::time::literal_unit_error`).
//! Refused by name: `date_trunc` of an `interval` (the engine does not
//! truncate intervals), of a `date` or a string literal (which overload
//! of the three the real system resolves them to is not settled here),
//! and a unit or value of any other type.

use super::typed::Typed;
use crate::plan::{Func, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// `date_trunc(args)`.
pub fn plan_call(args: Vec<Typed>) -> Result<Typed, String> {
    let [unit, value] = <[Typed; 2]>::try_from(args)
        .map_err(|args| unsupported(format!("function date_trunc of {} arguments", args.len())))?;
    let unit = match unit.typ {
        _ if unit.is_unknown() => unit.coerce(ScalarType::Text)?,
        Some(ScalarType::Text) => unit,
        Some(other) => {
            return Err(unsupported(format!(
                "function date_trunc of {} unit",
                other.name()
            )))
        }
        None => unreachable!("an untyped argument is unknown"),
    };
    let typ = match value.typ {
        Some(t @ (ScalarType::Timestamp | ScalarType::TimestampTz)) if !value.is_unknown() => t,
        Some(ScalarType::Interval) => {
            return Err(unsupported(
                "function date_trunc: date_trunc(text, interval)",
            ))
        }
        Some(other) if !value.is_unknown() => {
            return Err(unsupported(format!(
                "function date_trunc of {}",
                other.name()
            )))
        }
        _ => return Err(unsupported("function date_trunc of unknown")),
    };
    let nullable = unit.nullable || value.nullable;
    let call = ScalarExpr::Call(Func::DateTrunc, vec![unit.expr, value.expr]);
    Ok(Typed::new(call, typ, nullable))
}
