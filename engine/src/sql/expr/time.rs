//! `date`, `timestamp` and `interval` in the planner's expressions: the
//! typed string literals `DATE '...'` and `TIMESTAMP '...'` and the
//! literal `INTERVAL '...'`, which the real system's parser makes casts of
//! a string literal, planned as those casts are; any other typed string
//! refused by its type's name or its form's, and an interval literal with
//! a field qualifier (`INTERVAL '1' DAY`, which reads the string its own
//! way) refused by name. The types and the operators where they meet
//! others are `typed::time`'s and `typed::interval`'s.

use sqlparser::ast::{DataType, Expr, Interval, TypedString, Value};

use super::typed::{is_time, scalar_type, Typed};
use super::{forms, ExprContext};
use crate::eval::parse_as;
use crate::repr::{unsupported, ScalarType, UNSUPPORTED};

/// The forms `ExprContext::plan` leaves to the end: `DATE '...'` and
/// `TIMESTAMP '...'`, and the refusal of any other by its name.
pub(super) fn form(cx: &mut ExprContext, e: &Expr) -> Result<Typed, String> {
    if let Expr::Interval(interval) = e {
        let literal = interval_literal(interval)?;
        return Ok(cx.plan(literal)?.coerce(ScalarType::Interval)?.typed());
    }
    let Expr::TypedString(TypedString {
        data_type, value, ..
    }) = e
    else {
        return Err(unsupported(forms::expr(e)));
    };
    let to = typed_string_type(e, data_type)?;
    match &value.value {
        Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_) => {
            let literal = Expr::Value(value.clone());
            Ok(cx.plan(&literal)?.coerce(to)?.typed())
        }
        other => Err(unsupported(format!("literal {other}"))),
    }
}

/// The type of a typed string `e`: a `date` or a `timestamp`; any other
/// refused by the type's name or, if the engine has the type, the form's.
fn typed_string_type(e: &Expr, data_type: &DataType) -> Result<ScalarType, String> {
    match scalar_type(data_type)? {
        to if is_time(to) => Ok(to),
        _ => Err(unsupported(forms::expr(e))),
    }
}

/// The string literal of `INTERVAL '...'`, or the refusal of any other
/// value or of a qualifier.
fn interval_literal(interval: &Interval) -> Result<&Expr, String> {
    let Interval {
        value,
        leading_field,
        leading_precision,
        last_field,
        fractional_seconds_precision,
    } = interval;
    if leading_field.is_some()
        || leading_precision.is_some()
        || last_field.is_some()
        || fractional_seconds_precision.is_some()
    {
        return Err(unsupported("interval literal with a field qualifier"));
    }
    match value.as_ref() {
        Expr::Value(v)
            if matches!(
                v.value,
                Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_)
            ) =>
        {
            Ok(value)
        }
        other => Err(unsupported(format!("interval literal {other}"))),
    }
}

/// The refusal `form` would give a typed string or interval literal `e`,
/// found without planning it (`refusal::first_refusal`).
pub fn refusal(e: &Expr) -> Option<String> {
    let refused = |e: String| Some(e).filter(|e| e.starts_with(UNSUPPORTED));
    if let Expr::Interval(interval) = e {
        return match interval_literal(interval) {
            Err(e) => Some(e),
            Ok(Expr::Value(v)) => match &v.value {
                Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => {
                    parse_as(s, ScalarType::Interval).err().and_then(refused)
                }
                _ => None,
            },
            Ok(_) => None,
        };
    }
    let Expr::TypedString(TypedString {
        data_type, value, ..
    }) = e
    else {
        return None;
    };
    match (typed_string_type(e, data_type), &value.value) {
        (Err(e), _) => refused(e),
        (Ok(to), Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s)) => {
            parse_as(s, to).err().and_then(refused)
        }
        (Ok(_), other) => Some(unsupported(format!("literal {other}"))),
    }
}
