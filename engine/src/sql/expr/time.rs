//! `date` and `timestamp` in the planner's expressions: the typed string
//! literals `DATE '...'` and `TIMESTAMP '...'`, which the real system's
//! parser makes casts of a string literal, planned as those casts are;
//! any other typed string refused by its type's name or its form's. The
//! types and the operators where they meet others are `typed::time`'s.

use sqlparser::ast::{DataType, Expr, TypedString, Value};

use super::typed::{is_time, scalar_type, Typed};
use super::{forms, ExprContext};
use crate::eval::parse_as;
use crate::repr::{unsupported, ScalarType, UNSUPPORTED};

/// The forms `ExprContext::plan` leaves to the end: `DATE '...'` and
/// `TIMESTAMP '...'`, and the refusal of any other by its name.
pub(super) fn form(cx: &mut ExprContext, e: &Expr) -> Result<Typed, String> {
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

/// The refusal `form` would give a typed string `e`, found without
/// planning it (`refusal::first_refusal`).
pub fn refusal(e: &Expr) -> Option<String> {
    let Expr::TypedString(TypedString {
        data_type, value, ..
    }) = e
    else {
        return None;
    };
    let refused = |e: String| Some(e).filter(|e| e.starts_with(UNSUPPORTED));
    match (typed_string_type(e, data_type), &value.value) {
        (Err(e), _) => refused(e),
        (Ok(to), Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s)) => {
            parse_as(s, to).err().and_then(refused)
        }
        (Ok(_), other) => Some(unsupported(format!("literal {other}"))),
    }
}
