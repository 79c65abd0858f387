//! A value stored in a column of the model's tables: the assignment casts
//! an INSERT and an UPDATE apply, with Materialize's errors, kept apart
//! from the statements that use them.

use crate::catalog::Type;
use crate::scalar::EvalError;
use engine::repr::Datum;

/// A value assigned to a `char(n)` (`typ` "character") or `varchar(n)`
/// column: its text, cut to `n` characters if all it cuts is ASCII
/// whitespace, else `value too long for type character(n)`; a `char`'s
/// then kept without its trailing whitespace. A `char` holding a
/// character below a blank is no claim: blank padded and trimmed, it
/// would sort otherwise.
fn chars(v: Datum, n: Option<u32>, typ: &str) -> Result<String, EvalError> {
    let text = match v {
        Datum::Text(s) => s,
        Datum::Int32(_) | Datum::Int64(_) | Datum::Bool(_) => v.to_string(),
        _ => {
            return Err(EvalError::Unsupported(
                "a value of another type than its column",
            ))
        }
    };
    let text = match n.and_then(|n| text.char_indices().nth(n as usize)) {
        Some((at, _)) if text[at..].chars().all(|c| c.is_ascii_whitespace()) => text[..at].into(),
        Some(_) => {
            let n = n.expect("a length");
            return Err(EvalError::Error(format!(
                "Evaluation error: value too long for type {typ}({n})"
            )));
        }
        None => text,
    };
    if typ == "character varying" {
        return Ok(text);
    }
    let kept = text.trim_end().to_string();
    match kept.chars().any(|c| c < ' ') {
        true => Err(EvalError::Unsupported(
            "a char holding a character below a blank",
        )),
        false => Ok(kept),
    }
}

/// `v` stored in a column of type `t` (integers convert with a range check).
pub fn assign(t: Type, v: Datum) -> Result<Datum, EvalError> {
    let narrow = |i: i64| {
        i32::try_from(i).map(Datum::Int32).map_err(|_| {
            EvalError::Error(format!("Evaluation error: \"{i}\" integer out of range"))
        })
    };
    match (t, v) {
        (_, Datum::Null) => Ok(Datum::Null),
        (Type::Int, Datum::Int32(i)) => Ok(Datum::Int32(i)),
        (Type::Int, Datum::Int64(i)) => narrow(i),
        (Type::BigInt, Datum::Int32(i)) => Ok(Datum::Int64(i as i64)),
        (Type::BigInt, Datum::Int64(i)) => Ok(Datum::Int64(i)),
        (Type::Text, Datum::Text(s)) => Ok(Datum::Text(s)),
        (Type::Bool, Datum::Bool(b)) => Ok(Datum::Bool(b)),
        (Type::Char(n), v) => chars(v, n, "character").map(|kept| {
            // Held blank padded, as it is shown.
            let n = n.map_or(0, |n| n as usize);
            Datum::Text(format!("{kept:<n$}"))
        }),
        (Type::VarChar(n), v) => chars(v, n, "character varying").map(Datum::Text),
        // An integer or a float of the column's width or narrower becomes
        // the column's float (a `double precision` into a `real` column is
        // no claim).
        (Type::Float(wide), v @ (Datum::Int32(_) | Datum::Int64(_) | Datum::Float32(_)))
        | (Type::Float(wide @ true), v @ Datum::Float64(_)) => crate::floats::cast(&v, wide),
        _ => Err(EvalError::Unsupported(
            "a value of another type than its column",
        )),
    }
}
