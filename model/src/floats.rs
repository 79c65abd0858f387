//! Floats (`real`, `double precision`) as the model restates them from
//! docs/semantics.md's "Floats" and Materialize's float functions
//! (`expr/src/scalar/func.rs`, `repr/src/strconv.rs`), not from the
//! engine's code: IEEE arithmetic in which an infinite result of finite
//! operands is an overflow, a zero product or quotient of non-zero ones an
//! underflow and a zero divisor a division by zero; SQL's comparison (NaN
//! equal to itself and above every number, `-0 = 0`); the order `min` and
//! `max` take (that one, `-0` just below `0`); integers and text read as a
//! float, and a float cast to an integer rounded half to even. Values are
//! the engine's plain `Datum::Float32`/`Float64`, printed as the runner
//! prints them; nothing here calls the engine's evaluation.

use crate::ops::{error, Arith, EvalError, Unsupported};
use engine::repr::{Datum, F32, F64};
use std::cmp::Ordering;

/// A float operand: its value (a `real`'s exactly, in 64 bits) and
/// whether it is a `double precision`.
fn float(d: &Datum) -> Option<(f64, bool)> {
    match d {
        Datum::Float32(f) => Some((f64::from(f.get()), false)),
        Datum::Float64(f) => Some((f.get(), true)),
        _ => None,
    }
}

/// Whether `d` is a float.
pub fn is_float(d: &Datum) -> bool {
    float(d).is_some()
}

/// `value` as a float of the given width (a `real` rounded to 32 bits).
pub fn datum(value: f64, wide: bool) -> Datum {
    match wide {
        true => Datum::Float64(F64::new(value)),
        false => Datum::Float32(F32::new(value as f32)),
    }
}

/// `value` rounded to the width: arithmetic on two `real`s rounded once
/// from 64 bits is their 32-bit IEEE result (64 bits hold more than twice
/// 24 bits and two).
fn round(value: f64, wide: bool) -> f64 {
    match wide {
        true => value,
        false => f64::from(value as f32),
    }
}

/// An operand beside a float of width `wide`: an integer becomes that
/// float, a `real` beside a `double precision` widens.
fn operand(d: &Datum, wide: bool) -> Result<f64, EvalError> {
    match d {
        Datum::Int32(i) => Ok(round(f64::from(*i), wide)),
        Datum::Int64(i) if wide => Ok(*i as f64),
        Datum::Int64(i) => Ok(f64::from(*i as f32)),
        d => float(d).map(|(v, _)| v).ok_or(EvalError::Unsupported(
            "a float beside a value of another type",
        )),
    }
}

/// The width of an operation over `l` and `r`, one of them a float.
fn width(l: &Datum, r: &Datum) -> bool {
    matches!(l, Datum::Float64(_)) || matches!(r, Datum::Float64(_))
}

/// `l op r`, one of them a float, the other a float or an integer.
pub fn arith(op: Arith, l: &Datum, r: &Datum) -> Result<Datum, EvalError> {
    let wide = width(l, r);
    let (a, b) = (operand(l, wide)?, operand(r, wide)?);
    let finite = |x: f64| !x.is_infinite();
    let overflow = || Err(error("value out of range: overflow"));
    let underflow = || Err(error("value out of range: underflow"));
    let result = match op {
        Arith::Add => round(a + b, wide),
        Arith::Sub => round(a - b, wide),
        Arith::Mul => round(a * b, wide),
        Arith::Div if b == 0.0 && !a.is_nan() => return Err(error("division by zero")),
        Arith::Div => round(a / b, wide),
        // Materialize's `%` of floats errs on a zero divisor even of NaN.
        Arith::Mod if b == 0.0 => return Err(error("division by zero")),
        Arith::Mod => a % b,
    };
    match op {
        Arith::Add | Arith::Sub | Arith::Mul if result.is_infinite() && finite(a) && finite(b) => {
            overflow()
        }
        Arith::Mul if result == 0.0 && a != 0.0 && b != 0.0 => underflow(),
        Arith::Div if result.is_infinite() && finite(a) => overflow(),
        Arith::Div if result == 0.0 && a != 0.0 && finite(b) => underflow(),
        _ => Ok(datum(result, wide)),
    }
}

/// A float's negation (never an error).
pub fn negate(d: &Datum) -> Option<Datum> {
    float(d).map(|(v, wide)| datum(-v, wide))
}

/// SQL's comparison of two floats: NaN equals NaN and is above every other
/// value; `-0` equals `0`.
fn sql_order(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => a.partial_cmp(&b).expect("neither is NaN"),
    }
}

/// The comparison of `l` and `r`, one of them a float.
pub fn compare(l: &Datum, r: &Datum) -> Result<Ordering, EvalError> {
    let wide = width(l, r);
    Ok(sql_order(operand(l, wide)?, operand(r, wide)?))
}

/// Whether `l` and `r` are the float zeros of two signs.
pub fn zeros_of_two_signs(l: &Datum, r: &Datum) -> bool {
    match (float(l), float(r)) {
        (Some((a, _)), Some((b, _))) => {
            a == 0.0 && b == 0.0 && a.is_sign_negative() != b.is_sign_negative()
        }
        _ => false,
    }
}

/// The order `min` and `max` take: SQL's, with `-0` just below `0`.
pub fn extreme_order(l: &Datum, r: &Datum) -> Option<Ordering> {
    let ((a, _), (b, _)) = (float(l)?, float(r)?);
    Some(sql_order(a, b).then(b.is_sign_negative().cmp(&a.is_sign_negative())))
}

/// Text (a literal's, trimmed) read as a float of the width, as
/// Materialize's `parse_float` reads it; text it refuses is no claim.
pub fn parse(text: &str, wide: bool) -> Result<Datum, Unsupported> {
    let t = text.trim();
    let value = match wide {
        true => t.parse::<f64>().ok(),
        false => t.parse::<f32>().ok().map(f64::from),
    };
    let value = value.ok_or("text the model does not read as a float")?;
    let lower = t.to_ascii_lowercase();
    let unsigned = lower.strip_prefix(['-', '+']).unwrap_or(&lower);
    let spelled_infinity = unsigned.starts_with("inf");
    let mantissa = unsigned.split('e').next().unwrap_or("");
    let spelled_zero = match mantissa.split_once('.') {
        None => !mantissa.is_empty() && mantissa.bytes().all(|b| b == b'0'),
        Some((int, frac)) => {
            int.bytes().all(|b| b == b'0')
                && frac.bytes().all(|b| b == b'0')
                && (!int.is_empty() || !frac.is_empty())
        }
    };
    if (value.is_infinite() && !spelled_infinity) || (value == 0.0 && !spelled_zero) {
        return Err("text out of a float's range");
    }
    Ok(datum(value, wide))
}

/// Text of a numeric literal read as a float of the width, if Materialize's
/// `numeric` holds it exactly (else the engine refuses the literal): the
/// model claims only up to 38 significant digits, below `1e38` and, unless
/// zero, from `1e-38` (a margin inside the engine's bounds).
pub fn numeric_literal(text: &str, wide: bool) -> Result<Datum, Unsupported> {
    let lower = text.to_ascii_lowercase();
    let mantissa = lower
        .trim_start_matches('-')
        .split('e')
        .next()
        .unwrap_or("");
    let digits = mantissa.replace('.', "");
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len();
    let magnitude = lower
        .trim_start_matches('-')
        .parse::<f64>()
        .unwrap_or(f64::INFINITY);
    if significant > 38 || magnitude >= 1e38 || (magnitude != 0.0 && magnitude < 1e-38) {
        return Err("a numeric literal beyond what the engine takes");
    }
    parse(text, wide)
}

/// A float or an integer cast to a float of the width: a `double
/// precision` that becomes an infinite or zero `real` fails.
pub fn cast(d: &Datum, wide: bool) -> Result<Datum, EvalError> {
    if let Some((v, _)) = float(d) {
        let r = round(v, wide);
        return match () {
            _ if r.is_infinite() && !v.is_infinite() => Err(error("value out of range: overflow")),
            _ if r == 0.0 && v != 0.0 => Err(error("value out of range: underflow")),
            _ => Ok(datum(r, wide)),
        };
    }
    Ok(datum(operand(d, wide)?, wide))
}

/// A float cast to `integer` (`wide` false) or `bigint`: rounded half to
/// even, and in range, else `"<rounded>" integer out of range`, the
/// rounded value as Rust prints it (`NaN`, `inf`).
pub fn to_int(d: &Datum, wide: bool) -> Option<Result<Datum, EvalError>> {
    let (v, _) = float(d)?;
    let f = v.round_ties_even();
    let (low, name) = match wide {
        true => (i64::MIN as f64, "bigint"),
        false => (f64::from(i32::MIN), "integer"),
    };
    Some(match f >= low && f < -low {
        true if wide => Ok(Datum::Int64(f as i64)),
        true => Ok(Datum::Int32(f as i32)),
        false => Err(error(&format!("\"{f}\" {name} out of range"))),
    })
}
