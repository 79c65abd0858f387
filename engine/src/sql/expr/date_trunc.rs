//! Calls of `date_trunc(unit, x)`, as the real system's overloads have
//! them (`sql/src/func.rs`, read for the facts): of a `timestamp` a
//! `timestamp`, of a `timestamp with time zone` one of those, the unit a
//! `text` evaluated per row, so an unknown unit is the error `unit 'x'
//! not recognized` as data (a literal one on every row, a NULL timestamp's
//! too, as its optimizer folds it: `eval::time::literal_unit_error`).
//! Refused by name: `date_trunc` of an `interval` (the engine does not
//! truncate intervals), of a `date` or a string literal (which overload
//! of the three the real system resolves them to is not settled here),
//! and a unit or value of any other type. `unit_call` reads the unit and
//! the value of the calls of this kind (`date_part.rs` too).

use super::typed::Typed;
use crate::plan::{Func, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// `date_trunc(args)`.
pub fn plan_call(args: Vec<Typed>) -> Result<Typed, String> {
    let name = "date_trunc";
    let (unit, value) = unit_call(name, args)?;
    let typ = match value.typ {
        Some(t @ (ScalarType::Timestamp | ScalarType::TimestampTz)) => t,
        Some(ScalarType::Interval) => {
            return Err(unsupported(
                "function date_trunc: date_trunc(text, interval)",
            ))
        }
        other => return Err(refused_type(name, other)),
    };
    Ok(call(Func::DateTrunc, unit, value, typ))
}

/// The unit (a `text`, or a string literal or NULL read as one) and the
/// value of a call `name(unit, value)`, a value of unknown type refused
/// by name (`unsupported: function extract of unknown`), and so is a
/// unit of another type (`... of integer unit`).
pub fn unit_call(name: &str, args: Vec<Typed>) -> Result<(Typed, Typed), String> {
    let [unit, value] = <[Typed; 2]>::try_from(args)
        .map_err(|args| unsupported(format!("function {name} of {} arguments", args.len())))?;
    let unit = match unit.typ {
        _ if unit.is_unknown() => unit.coerce(ScalarType::Text)?,
        Some(ScalarType::Text) => unit,
        other => {
            return Err(unsupported(format!(
                "function {name} of {} unit",
                type_name(other)
            )))
        }
    };
    if value.is_unknown() {
        return Err(refused_type(name, None));
    }
    Ok((unit, value))
}

/// The refusal of `name` of a value of type `typ`.
pub fn refused_type(name: &str, typ: Option<ScalarType>) -> String {
    unsupported(format!("function {name} of {}", type_name(typ)))
}

fn type_name(typ: Option<ScalarType>) -> std::borrow::Cow<'static, str> {
    typ.map_or("unknown".into(), ScalarType::name)
}

/// `func(unit, value)`, of type `typ`: NULL when either is.
pub fn call(func: Func, unit: Typed, value: Typed, typ: ScalarType) -> Typed {
    let nullable = unit.nullable || value.nullable;
    let call = ScalarExpr::Call(func, vec![unit.expr, value.expr]);
    Typed::new(call, typ, nullable)
}
