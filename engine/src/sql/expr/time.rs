//! `date`, `timestamp` and `interval` in the planner's expressions: the
//! typed string literals `DATE '...'` and `TIMESTAMP '...'` and the
//! literal `INTERVAL '...'`, which the real system's parser makes casts of
//! a string literal, planned as those casts are; any other typed string
//! refused by its type's name or its form's; and an interval literal with
//! a field qualifier (`INTERVAL '1' DAY`, `INTERVAL '1:2' MINUTE TO
//! SECOND(3)`) read by its fields as the real system's `plan_interval`
//! reads it, where its parser takes the qualifier (`parse_interval_value`:
//! `YEAR` to `SECOND`, singular or plural, the first more significant than
//! the last, a precision only after `SECOND`); a qualifier sqlparser takes
//! and it does not is refused by name. The types and the operators where
//! they meet others are `typed::time`'s and `typed::interval`'s.

use sqlparser::ast::{DataType, DateTimeField, Expr, Interval, TypedString, Value};

use super::typed::{is_time, scalar_type, Typed};
use super::{forms, ExprContext};
use crate::eval::parse_as;
use crate::plan::ScalarExpr;
use crate::repr::interval::{parse_qualified, Interval as IntervalValue, IntervalField};
use crate::repr::{unsupported, Datum, ScalarType, UNSUPPORTED};

/// The forms `ExprContext::plan` leaves to the end: `DATE '...'` and
/// `TIMESTAMP '...'`, and the refusal of any other by its name.
pub(super) fn form(cx: &mut ExprContext, e: &Expr) -> Result<Typed, String> {
    if let Expr::Interval(interval) = e {
        let literal = interval_literal(interval)?;
        if let Some(q) = qualifier(interval)? {
            let read = read_qualified(literal, q)?;
            let datum = ScalarExpr::Literal(Datum::Interval(read));
            return Ok(Typed::new(datum, ScalarType::Interval, false));
        }
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
/// value.
fn interval_literal(interval: &Interval) -> Result<&Expr, String> {
    match interval.value.as_ref() {
        Expr::Value(v)
            if matches!(
                v.value,
                Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_)
            ) =>
        {
            Ok(&interval.value)
        }
        other => Err(unsupported(format!("interval literal {other}"))),
    }
}

/// An interval literal's qualifier as the real system's parser takes it:
/// the first field, the last, and the seconds' precision.
type Qualifier = (IntervalField, IntervalField, Option<u64>);

/// The qualifier of `interval`, `None` where it has none, or the refusal
/// of one the real system's parser does not take as sqlparser does: a
/// field other than `YEAR` to `SECOND` (its parser leaves `WEEK` to be
/// read as what follows the literal), a leading precision (`HOUR(2)`, a
/// syntax error there; sqlparser's `SECOND(3)` is the fractional
/// precision it means), or a range from a field not more significant than
/// the last (its syntax error `Invalid field range`).
fn qualifier(interval: &Interval) -> Result<Option<Qualifier>, String> {
    let Interval {
        value: _,
        leading_field,
        leading_precision,
        last_field,
        fractional_seconds_precision,
    } = interval;
    let Some(leading) = leading_field else {
        if leading_precision.is_some() || last_field.is_some() {
            return Err(unsupported("interval literal with a field qualifier"));
        }
        return Ok(None);
    };
    let high = qualifier_field(leading)?;
    // A single field is the last, the first being `YEAR`.
    let Some(last) = last_field else {
        let year = IntervalField::Year;
        return match (high, leading_precision, fractional_seconds_precision) {
            (IntervalField::Second, p, None) => Ok(Some((year, high, *p))),
            (_, None, None) => Ok(Some((year, high, None))),
            _ => Err(unsupported(
                "interval field qualifier with a leading precision",
            )),
        };
    };
    let low = qualifier_field(last)?;
    if leading_precision.is_some() {
        return Err(unsupported(
            "interval field qualifier with a leading precision",
        ));
    }
    if high >= low {
        return Err(unsupported(format!(
            "interval field range {leading} TO {last}"
        )));
    }
    Ok(Some((high, low, *fractional_seconds_precision)))
}

/// A qualifier's field, or the refusal of one the real system's parser
/// does not take (its keywords `YEAR` to `SECOND` and their plurals).
fn qualifier_field(f: &DateTimeField) -> Result<IntervalField, String> {
    use IntervalField::*;
    Ok(match f {
        DateTimeField::Year | DateTimeField::Years => Year,
        DateTimeField::Month | DateTimeField::Months => Month,
        DateTimeField::Day | DateTimeField::Days => Day,
        DateTimeField::Hour | DateTimeField::Hours => Hour,
        DateTimeField::Minute | DateTimeField::Minutes => Minute,
        DateTimeField::Second | DateTimeField::Seconds => Second,
        other => return Err(unsupported(format!("interval field qualifier {other}"))),
    })
}

/// The string `literal` read with the qualifier `q`.
fn read_qualified(
    literal: &Expr,
    (high, low, precision): Qualifier,
) -> Result<IntervalValue, String> {
    let s = literal_text(literal).expect("interval_literal gives a string");
    parse_qualified(s, high, low, precision)
}

/// The refusal `form` would give a typed string or interval literal `e`,
/// found without planning it (`refusal::first_refusal`).
pub fn refusal(e: &Expr) -> Option<String> {
    let refused = |e: String| Some(e).filter(|e| e.starts_with(UNSUPPORTED));
    if let Expr::Interval(interval) = e {
        let read = interval_literal(interval).and_then(|literal| match qualifier(interval)? {
            Some(q) => read_qualified(literal, q).map(|_| ()),
            None => literal_text(literal)
                .map_or(Ok(()), |s| parse_as(s, ScalarType::Interval).map(|_| ())),
        });
        return read.err().and_then(refused);
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

/// The text of a string literal.
fn literal_text(e: &Expr) -> Option<&str> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}
