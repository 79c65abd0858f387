//! `numeric` in expressions, as the real system evaluates it (its
//! `func.rs` and `func/impls/numeric.rs`, `int32.rs`, `int64.rs`,
//! `float64.rs` and `strconv::parse_numeric`, read for the facts):
//! `+ - * / %` and negation in its decimal context with its overflow,
//! underflow and division-by-zero errors; the casts to and from the
//! integers, the floats and text; and the rounding of a `numeric(p, s)`.
//! Every operation runs in the real system's library (`repr::decimal`).

use super::errors::{division_by_zero, numeric_field_overflow};
use super::unsigned::{narrow, unsigned};
use crate::plan::BinaryOp;
use crate::repr::decimal::{cx_datum, munge, rescale, Dec};
use crate::repr::{DataflowError, Datum, Numeric, ScalarType};

/// The real system's texts for a numeric result beyond the context.
pub(super) const OVERFLOW: &str = "value out of range: overflow";
pub(super) const UNDERFLOW: &str = "value out of range: underflow";

/// A result of the library as a row holds it; an infinity (which only an
/// unchecked overflow makes) is an overflow.
fn datum(d: &Dec) -> Result<Datum, String> {
    Numeric::from_dec(d)
        .map(Datum::Numeric)
        .ok_or_else(|| OVERFLOW.to_string())
}

/// `a op b` of two numerics (`add_numeric`, `sub_numeric`, `mul_numeric`,
/// `div_numeric`, `mod_numeric`); `None` for an operator that is not
/// arithmetic.
pub fn arithmetic(op: BinaryOp, a: Numeric, b: Numeric) -> Option<Result<Datum, DataflowError>> {
    let (mut a, b) = (a.to_dec(), b.to_dec());
    let mut cx = cx_datum();
    let result = match op {
        BinaryOp::Add | BinaryOp::Sub => {
            match op {
                BinaryOp::Add => cx.add(&mut a, &b),
                _ => cx.sub(&mut a, &b),
            }
            match cx.status().overflow() {
                true => Err(OVERFLOW.to_string()),
                false => datum(&a),
            }
        }
        BinaryOp::Mul | BinaryOp::Div => {
            if op == BinaryOp::Div && b.is_zero() {
                // The library holds 0/0 undefined, not a division by zero.
                return Some(Err(division_by_zero()));
            }
            match op {
                BinaryOp::Mul => cx.mul(&mut a, &b),
                _ => cx.div(&mut a, &b),
            }
            let status = cx.status();
            if status.overflow() {
                Err(OVERFLOW.to_string())
            } else if status.subnormal() {
                Err(UNDERFLOW.to_string())
            } else {
                munge(&mut a).and_then(|()| datum(&a))
            }
        }
        BinaryOp::Mod => {
            if b.is_zero() {
                return Some(Err(division_by_zero()));
            }
            // Not the IEEE remainder: the sign of the dividend, as PostgreSQL.
            cx.rem(&mut a, &b);
            munge(&mut a).and_then(|()| datum(&a))
        }
        _ => return None,
    };
    Some(result.map_err(|e| DataflowError::eval(&e)))
}

/// `-a` (`neg_numeric`).
pub fn negate(a: Numeric) -> Datum {
    let mut d = a.to_dec();
    cx_datum().neg(&mut d);
    munge(&mut d).expect("a negation keeps its digits");
    datum(&d).expect("a negation is finite")
}

pub use crate::repr::decimal::parse;

/// The casts to and from `numeric` (`None` when neither side is one, or
/// for text, which `cast` converts) and to a `numeric(p, s)`: from the
/// integers and the floats, to the integers; from a numeric to its
/// rounding at a scale. The casts to the floats are `float::cast`'s.
pub fn cast(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    let scaled = |d: Dec| -> Result<Datum, String> {
        let mut d = d;
        if let ScalarType::NumericScale(places) = to {
            rescale(&mut d, places).map_err(|_| numeric_field_overflow_text())?;
        }
        datum(&d)
    };
    let numeric = matches!(to, ScalarType::Numeric | ScalarType::NumericScale(_));
    Some(match (d, to) {
        (Datum::Int16(i), _) if numeric => scaled(Dec::from(i32::from(*i))),
        (Datum::Int32(i), _) if numeric => scaled(Dec::from(*i)),
        (Datum::Int64(i), _) if numeric => scaled(cx_datum().from_i64(*i)),
        (d, _) if numeric && unsigned(d).is_some() => {
            scaled(cx_datum().from_u64(unsigned(d).expect("an unsigned integer").1))
        }
        (Datum::Numeric(n), _) if to.is_unsigned() => to_integer(*n, to.base_name(), |cx, d| {
            let u = cx.try_into_u64(d).ok()?;
            narrow(i128::from(u), to)
        }),
        (Datum::Numeric(n), _) if numeric => scaled(n.to_dec()),
        (Datum::Float32(f), _) if numeric => {
            from_float(f.get(), "real", |f| cx_datum_wide().from_f32(f)).and_then(scaled)
        }
        (Datum::Float64(f), _) if numeric => {
            from_float(f.get(), "double precision", |f| cx_datum_wide().from_f64(f))
                .and_then(scaled)
        }
        (Datum::Numeric(n), ScalarType::Int16) => to_integer(*n, "smallint", |cx, d| {
            let i = cx.try_into_i32(d).ok()?;
            i16::try_from(i).ok().map(Datum::Int16)
        }),
        (Datum::Numeric(n), ScalarType::Int32) => to_integer(*n, "integer", |cx, d| {
            cx.try_into_i32(d).ok().map(Datum::Int32)
        }),
        (Datum::Numeric(n), ScalarType::Int64) => to_integer(*n, "bigint", |cx, d| {
            cx.try_into_i64(d).ok().map(Datum::Int64)
        }),
        _ => return None,
    })
}

/// The context the real system's `Numeric::from(f64)` converts in: the
/// library's default (39 digits, no exponent bounds), munged after.
fn cx_datum_wide() -> dec::Context<Dec> {
    dec::Context::<Dec>::default()
}

/// A float as a numeric (`CastFloat64ToNumeric`): no infinity, and a value
/// past 39 digits left of the point overflows.
fn from_float<T: Into<f64> + Copy>(
    f: T,
    name: &str,
    convert: impl Fn(T) -> Dec,
) -> Result<Dec, String> {
    if f.into().is_infinite() {
        return Err(format!(
            "function casting {name} to numeric is only defined for finite arguments"
        ));
    }
    let mut d = convert(f);
    munge(&mut d).map_err(|_| numeric_field_overflow_text())?;
    Ok(d)
}

/// A numeric rounded (half up) to an integer (`cast_numeric_to_int32`,
/// `cast_numeric_to_int64`), else `"<rounded>" <type> out of range`.
fn to_integer(
    n: Numeric,
    name: &str,
    convert: impl Fn(&mut dec::Context<Dec>, Dec) -> Option<Datum>,
) -> Result<Datum, String> {
    let mut cx = cx_datum();
    let mut d = n.to_dec();
    cx.round(&mut d);
    cx.clear_status();
    convert(&mut cx, d).ok_or_else(|| format!("\"{d}\" {name} out of range"))
}

fn numeric_field_overflow_text() -> String {
    numeric_field_overflow().what().to_string()
}

/// Whether [`cast`] has the cast (text aside).
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::{Numeric, NumericScale};
    let numeric = |t| matches!(t, Numeric | NumericScale(_));
    let number = |t: ScalarType| t.is_integer() || t.is_unsigned() || t.is_float();
    (numeric(to) && (number(from) || numeric(from))) || (numeric(from) && number(to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::{F32, F64};

    fn f(x: f64) -> Datum {
        Datum::Float64(F64::new(x))
    }

    fn n(s: &str) -> Numeric {
        parse(s).expect("a numeric")
    }

    fn op(o: BinaryOp, a: &str, b: &str) -> Result<String, String> {
        arithmetic(o, n(a), n(b))
            .expect("arithmetic")
            .map(|d| d.to_string())
            .map_err(|e| e.0)
    }

    #[test]
    fn arithmetic_as_the_real_system_has_it() {
        use BinaryOp::*;
        assert_eq!(op(Add, "1.5", "2.25"), Ok("3.75".into()));
        assert_eq!(op(Sub, "1.5", "1.5"), Ok("0".into()));
        assert_eq!(op(Mul, "1.5", "-2"), Ok("-3".into()));
        assert_eq!(
            op(Div, "1", "3"),
            Ok("0.333333333333333333333333333333333333333".into())
        );
        assert_eq!(
            op(Div, "2", "3"),
            Ok("0.666666666666666666666666666666666666667".into())
        );
        assert_eq!(op(Div, "10", "4"), Ok("2.5".into()));
        assert_eq!(op(Mod, "-7.5", "2"), Ok("-1.5".into()));
        assert_eq!(
            op(Div, "1", "0"),
            Err("Evaluation error: division by zero".into())
        );
        assert_eq!(
            op(Div, "0", "0"),
            Err("Evaluation error: division by zero".into())
        );
        assert_eq!(
            op(Mod, "1", "0"),
            Err("Evaluation error: division by zero".into())
        );
        let big = "9".repeat(39);
        assert_eq!(
            op(Mul, &big, "10"),
            Err(format!("Evaluation error: {OVERFLOW}"))
        );
        assert_eq!(
            op(Add, &big, "1"),
            Err(format!("Evaluation error: {OVERFLOW}"))
        );
        // 39 digits: the sum is rounded to them, half up.
        assert_eq!(op(Add, &big[1..], "0.05"), Ok(format!("{}.1", &big[1..])));
        assert_eq!(
            op(Mul, "1e-30", "1e-30"),
            Err(format!("Evaluation error: {UNDERFLOW}"))
        );
        assert_eq!(op(Add, "NaN", "1"), Ok("NaN".into()));
        assert_eq!(negate(n("1.5")).to_string(), "-1.5");
        assert_eq!(negate(n("0")).to_string(), "0");
    }

    #[test]
    fn text_reads_as_the_real_system_reads_it() {
        assert_eq!(n(" 1.50 ").to_string(), "1.5");
        assert_eq!(n("1e3").to_string(), "1000");
        assert_eq!(n("nan").to_string(), "NaN");
        assert_eq!(n("-0.0").to_string(), "0");
        let bad = |s: &str| parse(s).unwrap_err();
        assert_eq!(bad("x"), "invalid input syntax for type numeric: \"x\"");
        assert_eq!(
            bad("Infinity"),
            "invalid input syntax for type numeric: \"Infinity\""
        );
        assert_eq!(
            bad("1e39"),
            "\"1e39\" is out of range for type numeric: exceeds maximum precision 39"
        );
        // Past 39 places rounds, as munge does; below the context's
        // least exponent is out of range.
        assert_eq!(
            n("0.0000000000000000000000000000000000000015").to_string(),
            "0.000000000000000000000000000000000000002"
        );
        assert_eq!(
            bad("1e-40"),
            "\"1e-40\" is out of range for type numeric: exceeds maximum precision 39"
        );
    }

    #[test]
    fn casts_round_and_check_ranges() {
        let c = |d: Datum, to| cast(&d, to).expect("a numeric cast");
        let num = |s: &str| Datum::Numeric(n(s));
        assert_eq!(c(num("2.5"), ScalarType::Int32), Ok(Datum::Int32(3)));
        assert_eq!(c(num("-2.5"), ScalarType::Int64), Ok(Datum::Int64(-3)));
        assert_eq!(
            c(num("2147483647.5"), ScalarType::Int32),
            Err("\"2147483648\" integer out of range".into())
        );
        assert_eq!(
            c(num("1e20"), ScalarType::Int64),
            Err("\"1E+20\" bigint out of range".into())
        );
        assert_eq!(
            c(num("NaN"), ScalarType::Int32),
            Err("\"NaN\" integer out of range".into())
        );
        assert_eq!(
            c(num("12.345"), ScalarType::NumericScale(2)),
            Ok(num("12.35"))
        );
        assert_eq!(
            c(num("12345"), ScalarType::NumericScale(36)),
            Err("numeric field overflow".into())
        );
        assert_eq!(
            c(Datum::Int64(i64::MIN), ScalarType::Numeric),
            Ok(num("-9223372036854775808"))
        );
        assert_eq!(c(f(0.1), ScalarType::Numeric), Ok(num("0.1")));
        assert_eq!(c(f(1e-50), ScalarType::Numeric), Ok(num("0")));
        // Past 255 places the real system's munge fails.
        let overflow = Err("numeric field overflow".into());
        assert_eq!(c(f(1e-307), ScalarType::Numeric), overflow);
        assert_eq!(
            c(f(1e50), ScalarType::Numeric),
            Err("numeric field overflow".into())
        );
        assert_eq!(
            c(f(f64::INFINITY), ScalarType::Numeric),
            Err(
                "function casting double precision to numeric is only defined for finite arguments"
                    .into()
            )
        );
        assert_eq!(c(f(f64::NAN), ScalarType::Numeric), Ok(num("NaN")));
        let r = Datum::Float32(F32::new(0.1));
        assert_eq!(c(r, ScalarType::Numeric), Ok(num("0.1")));
    }
}
