//! The scalar functions of docs/semantics.md's "Scalar functions", as the
//! model restates them (not from the engine's code): over `integer` and
//! `text` arguments, strict ones evaluating their arguments left to right
//! and stopping at the first error or NULL, `concat`, `concat_ws` (after
//! its separator), `greatest` and `least` evaluating every one, NULLs
//! skipped. Where Materialize resolves a call by types the model does not
//! track (a NULL literal, a `bigint` where an `integer` is taken, a float,
//! a `char`), the call is no claim.

use crate::floats;
use crate::ops::{error, EvalError, Unsupported};
use engine::repr::Datum;
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Abs,
    Length,
    OctetLength,
    BitLength,
    Substr,
    Upper,
    Lower,
    Reverse,
    Strpos,
    Replace,
    Left,
    Right,
    Repeat,
    Btrim,
    Ltrim,
    Rtrim,
    Concat,
    ConcatWs,
    Greatest,
    Least,
    Nullif,
}

/// The function `name` called with `arity` arguments, if the model has it.
pub fn lookup(name: &str, arity: usize) -> Option<Func> {
    use Func::*;
    let f = match (name, arity) {
        ("abs", 1) => Abs,
        ("length" | "char_length", 1) => Length,
        ("octet_length", 1) => OctetLength,
        ("bit_length", 1) => BitLength,
        ("substr" | "substring", 2 | 3) => Substr,
        ("upper", 1) => Upper,
        ("lower", 1) => Lower,
        ("reverse", 1) => Reverse,
        ("strpos", 2) => Strpos,
        ("replace", 3) => Replace,
        ("left", 2) => Left,
        ("right", 2) => Right,
        ("repeat", 2) => Repeat,
        ("btrim", 1 | 2) => Btrim,
        ("ltrim", 1 | 2) => Ltrim,
        ("rtrim", 1 | 2) => Rtrim,
        ("concat", 1..) => Concat,
        ("concat_ws", 2..) => ConcatWs,
        ("greatest", 1..) => Greatest,
        ("least", 1..) => Least,
        ("nullif", 2) => Nullif,
        _ => return None,
    };
    Some(f)
}

const NOT_TEXT: Unsupported = "a function's text argument of another type";
const NOT_INT: Unsupported = "a function's integer argument of another type";

fn text(d: Datum) -> Result<String, EvalError> {
    match d {
        Datum::Text(s) => Ok(s),
        _ => Err(EvalError::Unsupported(NOT_TEXT)),
    }
}

fn int(d: Datum) -> Result<i64, EvalError> {
    match d {
        Datum::Int32(i) => Ok(i64::from(i)),
        _ => Err(EvalError::Unsupported(NOT_INT)),
    }
}

fn count(n: usize) -> Datum {
    Datum::Int32(i32::try_from(n).expect("the model's strings are short"))
}

/// The characters of `s` in the 1-based range `[from, to)`, cut to it.
fn chars_between(s: &str, from: i64, to: i64) -> String {
    let from = from.max(1);
    s.chars()
        .enumerate()
        .filter(|(i, _)| (from..to).contains(&(*i as i64 + 1)))
        .map(|(_, c)| c)
        .collect()
}

/// A value as `concat` writes it: a boolean `t` or `f`.
fn concat_text(d: &Datum) -> Result<String, EvalError> {
    match d {
        Datum::Bool(b) => Ok(if *b { "t" } else { "f" }.into()),
        Datum::Int32(_) | Datum::Int64(_) | Datum::Text(_) => Ok(d.to_string()),
        _ => Err(EvalError::Unsupported(
            "concat of a type the model does not write",
        )),
    }
}

/// Two values of one type ordered as `greatest`, `least` and `=` order them.
fn order(a: &Datum, b: &Datum) -> Result<Ordering, EvalError> {
    let int = |d: &Datum| match d {
        Datum::Int32(i) => Some(i64::from(*i)),
        Datum::Int64(i) => Some(*i),
        _ => None,
    };
    match (a, b) {
        (Datum::Text(x), Datum::Text(y)) => Ok(x.cmp(y)),
        _ if floats::is_float(a) && floats::is_float(b) => floats::compare(a, b),
        _ => match (int(a), int(b)) {
            (Some(x), Some(y)) => Ok(x.cmp(&y)),
            _ => Err(EvalError::Unsupported(
                "values of two types the model does not order",
            )),
        },
    }
}

/// `f` over `n` arguments, `arg(i)` evaluating the `i`-th.
pub fn call(
    f: Func,
    n: usize,
    arg: &mut dyn FnMut(usize) -> Result<Datum, EvalError>,
) -> Result<Datum, EvalError> {
    use Func::*;
    match f {
        Concat | ConcatWs | Greatest | Least => {
            // Every argument, the first error winning.
            let values = (0..n).map(&mut *arg).collect::<Result<Vec<_>, _>>()?;
            return variadic(f, values);
        }
        Nullif => {
            let (a, b) = (arg(0)?, arg(1)?);
            return match a == Datum::Null || b == Datum::Null {
                true => Ok(a),
                false if order(&a, &b)? == Ordering::Equal => Ok(Datum::Null),
                false => Ok(a),
            };
        }
        _ => {}
    }
    // Strict: every argument, left to right; the first error is the
    // result, and only then a NULL.
    let values = (0..n).map(&mut *arg).collect::<Result<Vec<_>, _>>()?;
    if values.contains(&Datum::Null) {
        return Ok(Datum::Null);
    }
    let mut values = values.into_iter();
    let mut next = || values.next().expect("the arity lookup checked");
    Ok(match f {
        Abs => match next() {
            Datum::Int32(i) => Datum::Int32(
                i.checked_abs()
                    .ok_or_else(|| error(&format!("\"{i}\" integer out of range")))?,
            ),
            Datum::Int64(i) => Datum::Int64(
                i.checked_abs()
                    .ok_or_else(|| error(&format!("\"{i}\" bigint out of range")))?,
            ),
            _ => return Err(EvalError::Unsupported(NOT_INT)),
        },
        Length => count(text(next())?.chars().count()),
        OctetLength => count(text(next())?.len()),
        BitLength => count(text(next())?.len() * 8),
        Substr => {
            let (s, start) = (text(next())?, int(next())?);
            match n {
                2 => Datum::Text(chars_between(&s, start, i64::MAX)),
                _ => match int(next())? {
                    c if c < 0 => return Err(error("negative substring length not allowed")),
                    c => Datum::Text(chars_between(&s, start, start + c)),
                },
            }
        }
        Upper => Datum::Text(text(next())?.to_uppercase()),
        Lower => Datum::Text(text(next())?.to_lowercase()),
        Reverse => Datum::Text(text(next())?.chars().rev().collect()),
        Strpos => {
            let (s, sub) = (text(next())?, text(next())?);
            count(s.find(&sub).map_or(0, |at| s[..at].chars().count() + 1))
        }
        Replace => {
            let (s, from, to) = (text(next())?, text(next())?, text(next())?);
            Datum::Text(s.replace(&from, &to))
        }
        Left | Right => {
            let (s, k) = (text(next())?, int(next())?);
            let len = s.chars().count() as i64;
            // A negative count leaves out that many from the other end.
            let keep = if k >= 0 { k.min(len) } else { (len + k).max(0) };
            let (from, to) = match f {
                Left => (1, keep + 1),
                _ => (len - keep + 1, len + 1),
            };
            Datum::Text(chars_between(&s, from, to))
        }
        Repeat => {
            let (s, k) = (text(next())?, int(next())?);
            if s.len() as i64 * k.max(0) > 10_000 {
                return Err(EvalError::Unsupported(
                    "a repeat longer than the model builds",
                ));
            }
            Datum::Text(s.repeat(k.max(0) as usize))
        }
        Btrim | Ltrim | Rtrim => {
            let s = text(next())?;
            let set: Vec<char> = match n {
                1 => vec![' '],
                _ => text(next())?.chars().collect(),
            };
            let strip = |c: char| set.contains(&c);
            Datum::Text(
                match f {
                    Btrim => s.trim_matches(strip),
                    Ltrim => s.trim_start_matches(strip),
                    _ => s.trim_end_matches(strip),
                }
                .to_string(),
            )
        }
        Concat | ConcatWs | Greatest | Least | Nullif => unreachable!("handled above"),
    })
}

/// `concat`, `concat_ws`, `greatest` and `least` over every value.
fn variadic(f: Func, values: Vec<Datum>) -> Result<Datum, EvalError> {
    let present = |vs: &[Datum]| {
        vs.iter()
            .filter(|d| **d != Datum::Null)
            .cloned()
            .collect::<Vec<_>>()
    };
    match f {
        Func::Concat | Func::ConcatWs => {
            let (separator, rest) = match f {
                Func::Concat => (String::new(), &values[..]),
                _ => match &values[0] {
                    Datum::Null => return Ok(Datum::Null),
                    Datum::Text(s) => (s.clone(), &values[1..]),
                    _ => return Err(EvalError::Unsupported(NOT_TEXT)),
                },
            };
            let parts = present(rest)
                .iter()
                .map(concat_text)
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Datum::Text(parts.join(&separator)))
        }
        _ => {
            let mut best: Option<Datum> = None;
            for v in present(&values) {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let o = order(&v, &b)?;
                        let greater = f == Func::Greatest;
                        if (o == Ordering::Greater) == greater && o != Ordering::Equal {
                            v
                        } else {
                            b
                        }
                    }
                });
            }
            Ok(best.unwrap_or(Datum::Null))
        }
    }
}
