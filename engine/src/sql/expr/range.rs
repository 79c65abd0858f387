//! Calls of the range functions, as the real system's overloads have them
//! (`sql/src/func.rs`, read for the facts): the constructors
//! `int4range(lower, upper[, flags])`, `int8range`, `numrange`,
//! `daterange`, `tsrange` and `tstzrange` (bounds of their element type,
//! flags a text, `'[)'` when left out); and of a range `lower`, `upper`
//! (its element type), `isempty`, `lower_inc`, `upper_inc`, `lower_inf`,
//! `upper_inf` (booleans). `lower` and `upper` of anything but a range
//! are the string functions'. The range aggregates are refused as every
//! aggregate the engine lacks; an argument of unknown type where a range is wanted,
//! or a bound of a type that might cast to the element type by a rule not
//! modelled here, is refused too.

use super::typed::range::{call, kind_of};
use super::typed::Typed;
use crate::plan::{RangeFunc, ScalarExpr};
use crate::repr::range::RangeKind;
use crate::repr::{unsupported, Datum, ScalarType};

/// The functions of a range argument.
const OF_A_RANGE: &[(&str, RangeFunc)] = &[
    ("lower", RangeFunc::Lower),
    ("upper", RangeFunc::Upper),
    ("isempty", RangeFunc::IsEmpty),
    ("lower_inc", RangeFunc::LowerInc),
    ("upper_inc", RangeFunc::UpperInc),
    ("lower_inf", RangeFunc::LowerInf),
    ("upper_inf", RangeFunc::UpperInf),
];

/// The range functions planned here, and the refused ones, by name.
pub fn is_range_function(name: &str) -> bool {
    RangeKind::named(name).is_some() || OF_A_RANGE.iter().any(|(n, _)| *n == name)
}

/// Whether `name(args)` is planned here: a constructor, a refused range
/// function, or a function of a range (`lower` and `upper` only of one).
pub fn takes(name: &str, args: &[Typed]) -> bool {
    match name {
        "lower" | "upper" => matches!(args, [a] if kind_of(a).is_some()),
        _ => is_range_function(name),
    }
}

/// `name(args)`, for a `name` and arguments [`takes`] says are planned here.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    if let Some(kind) = RangeKind::named(name) {
        return construct(kind, args);
    }
    let Some(&(_, func)) = OF_A_RANGE.iter().find(|(n, _)| *n == name) else {
        return Err(unsupported(format!("function {name}")));
    };
    let kind = match args.as_slice() {
        [a] if a.is_unknown() => {
            return Err(unsupported(format!(
                "function {name} of an unknown argument"
            )))
        }
        [a] => kind_of(a),
        _ => None,
    };
    let Some(kind) = kind else {
        return Err(no_function(name, &args));
    };
    let typ = match func {
        RangeFunc::Lower | RangeFunc::Upper => kind.element(),
        _ => ScalarType::Bool,
    };
    let mut planned = call(func, args, typ);
    // A bound is NULL where it is infinite or the range empty.
    planned.nullable |= typ != ScalarType::Bool;
    Ok(planned)
}

/// `int4range(lower, upper[, flags])` and the others.
fn construct(kind: RangeKind, args: Vec<Typed>) -> Result<Typed, String> {
    let name = kind.name();
    if !(2..=3).contains(&args.len()) {
        return Err(no_function(name, &args));
    }
    let element = kind.element();
    let mut exprs = Vec::with_capacity(3);
    for (i, arg) in args.iter().enumerate() {
        let to = if i < 2 { element } else { ScalarType::Text };
        exprs.push(argument(name, arg.clone(), to, &args)?);
    }
    if exprs.len() == 2 {
        exprs.push(ScalarExpr::Literal(Datum::Text("[)".into())));
    }
    let expr = ScalarExpr::Call(crate::plan::Func::Range(RangeFunc::Create(kind)), exprs);
    // Never NULL: a NULL bound is infinite, NULL flags an error.
    Ok(Typed::new(expr, ScalarType::Range(kind), false))
}

/// A constructor's argument as a `to`: of that type, of unknown type, or
/// an integer widened (an `integer` for an `int8range`, any integer for a
/// `numrange`), or a `date` for a `tsrange`, or a `date` or `timestamp`
/// for a `tstzrange`, as the real system's
/// implicit casts take them.
fn argument(name: &str, arg: Typed, to: ScalarType, all: &[Typed]) -> Result<ScalarExpr, String> {
    if arg.is_unknown() || arg.typ == Some(to) {
        return Ok(arg.coerce(to)?.expr);
    }
    let from = arg.typ.expect("a typed argument");
    let widened = match to {
        ScalarType::Int32 => from == ScalarType::Int16,
        ScalarType::Int64 => matches!(from, ScalarType::Int16 | ScalarType::Int32),
        ScalarType::Numeric => from.is_integer() || from == ScalarType::NumericScale(0),
        ScalarType::Timestamp => from == ScalarType::Date,
        ScalarType::TimestampTz => matches!(from, ScalarType::Date | ScalarType::Timestamp),
        _ => false,
    } || (to == ScalarType::Numeric && from.without_length() == ScalarType::Numeric);
    match () {
        _ if widened => Ok(arg.cast(to).expr),
        _ if from.chars().is_some() => {
            Err(unsupported(format!("function {name} of {}", from.name())))
        }
        _ => Err(no_function(name, all)),
    }
}

/// The real system's text for a call no overload takes.
pub(super) fn no_function(name: &str, args: &[Typed]) -> String {
    let names: Vec<String> = args
        .iter()
        .map(|a| match a.is_unknown() {
            true => "unknown".to_string(),
            false => a.type_name().into_owned(),
        })
        .collect();
    format!("function {name}({}) does not exist", names.join(", "))
}
