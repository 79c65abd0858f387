//! The rounding functions of `numeric`s (`plan::NumericFunc`) as the real
//! system evaluates them (its `expr/src/scalar/func/impls/numeric.rs` and
//! `func.rs`'s `round_numeric_binary`, read for the facts), each in its
//! decimal library and context (`repr::decimal`): `round` rounds half away
//! from zero (the context's half up), where the float overloads round
//! ties to even; `trunc`, `ceil` and `floor` round down, up and toward
//! minus infinity; `NaN` gives `NaN`.
//!
//! Two answers of the real system depend on more than the value, and the
//! engine, whose `numeric` is only its value, refuses them rather than
//! guess. `round(n)` of a number between -0.5 and 0 is a negative zero
//! there (its `round_numeric` does not `munge`, which drops the sign), and
//! it prints `-0`. `round(n, places)` reads the exponent of the datum it
//! is given: of a value with trailing zeros that a row holds reduced
//! (`1E+3`) it pads, and of one an integer cast or an operation made
//! (`1000E+0`) it shifts by `places` first, which overflows past 39
//! digits; so where the two differ (trailing zeros, and more digits than
//! 39 with `places`), the answer is refused, unless the value is a
//! literal: the real system's optimizer folds a constant argument into a
//! row, reduced, as the engine folds it into a literal (`eval/fold.rs`).

use dec::{Context, Rounding};

use crate::plan::NumericFunc;
use crate::repr::decimal::{cx_datum, munge, Dec};
use crate::repr::{unsupported, DataflowError, Datum, Numeric, MAX_PRECISION};

/// `f` of non-NULL arguments of its overload's types, else `None` (a plan
/// the planner did not type-check); `literal`: whether the first argument
/// is a literal of the plan, a reduced datum in the real system.
pub fn apply(
    f: NumericFunc,
    args: &[Datum],
    literal: bool,
) -> Option<Result<Datum, DataflowError>> {
    Some(match (f, args) {
        (NumericFunc::RoundTo, [Datum::Numeric(n), Datum::Int32(places)]) => {
            round_to(*n, *places, literal)
        }
        (NumericFunc::Sqrt, [Datum::Numeric(n)]) => sqrt(n.to_dec()),
        (NumericFunc::Exp, [Datum::Numeric(n)]) => exp(n.to_dec()),
        (NumericFunc::Ln, [Datum::Numeric(n)]) => log(n.to_dec(), "ln", Context::ln),
        (NumericFunc::Log10, [Datum::Numeric(n)]) => log(n.to_dec(), "log10", Context::log10),
        (NumericFunc::LogBase, [Datum::Numeric(base), Datum::Numeric(n)]) => {
            log_base(base.to_dec(), n.to_dec())
        }
        (f, [Datum::Numeric(n)]) => {
            let mut a = n.to_dec();
            let rounding = match f {
                NumericFunc::Abs => {
                    cx_datum().abs(&mut a);
                    return Some(value(&a));
                }
                // Of an integer, each is the value itself.
                _ if a.exponent() >= 0 => return Some(Ok(Datum::Numeric(*n))),
                NumericFunc::Round => {
                    cx_datum().round(&mut a);
                    if a.is_zero() && a.is_negative() {
                        return Some(Err(DataflowError(unsupported(
                            "function round of a numeric between -0.5 and 0 \
                             (the real system's answer is -0)",
                        ))));
                    }
                    return Some(value(&a));
                }
                NumericFunc::Trunc => Rounding::Down,
                NumericFunc::Ceil => Rounding::Ceiling,
                NumericFunc::Floor => Rounding::Floor,
                NumericFunc::RoundTo
                | NumericFunc::Sqrt
                | NumericFunc::Exp
                | NumericFunc::Ln
                | NumericFunc::Log10
                | NumericFunc::LogBase => return None,
            };
            let mut cx = cx_datum();
            cx.set_rounding(rounding);
            cx.round(&mut a);
            munged(a)
        }
        _ => return None,
    })
}

/// `round(n, places)` (`round_numeric_binary`); `reduced`: whether the
/// real system's datum is known to be reduced.
fn round_to(n: Numeric, places: i32, reduced: bool) -> Result<Datum, DataflowError> {
    let mut a = n.to_dec();
    let exponent = a.exponent();
    if exponent > 0 && places > 0 {
        // The real system pads a reduced value with zeros: the value
        // itself. One not reduced, of exponent 0, it shifts by `places`,
        // which overflows where the digits and `places` pass 39.
        let digits = a.digits() as i64 + i64::from(exponent);
        if !reduced && digits + i64::from(places) > MAX_PRECISION as i64 {
            return Err(DataflowError(unsupported(format!(
                "function round of {n} to {places} places (the real system's answer \
                 depends on how the value was computed)"
            ))));
        }
        return Ok(Datum::Numeric(n));
    }
    if exponent < 0 && -exponent < places {
        // Fewer places than `places`: padded, the value itself.
        return Ok(Datum::Numeric(n));
    }
    // Within a place of the context's digits, so that neither shift fails.
    let limit = 1 + MAX_PRECISION as i32;
    let places = places.clamp(-limit, limit);
    let mut cx = cx_datum();
    let mut shift = Dec::from(places);
    // The digit to round to in the ones place, rounded, and shifted back.
    cx.scaleb(&mut a, &shift);
    cx.round(&mut a);
    cx.neg(&mut shift);
    cx.scaleb(&mut a, &shift);
    if cx.status().overflow() {
        return Err(DataflowError::eval(super::numeric::OVERFLOW));
    }
    if a.is_zero() {
        return Ok(Datum::Numeric(Numeric::from_i128(0)));
    }
    munged(a)
}

/// `sqrt` (`sqrt_numeric`): of a negative number an error.
fn sqrt(mut a: Dec) -> Result<Datum, DataflowError> {
    if a.is_negative() {
        return Err(DataflowError::eval(
            "cannot take square root of a negative number",
        ));
    }
    cx_datum().sqrt(&mut a);
    munged(a)
}

/// `exp` (`exp_numeric`): past the context's exponents, its float errors.
fn exp(mut a: Dec) -> Result<Datum, DataflowError> {
    let mut cx = cx_datum();
    cx.exp(&mut a);
    let status = cx.status();
    if status.overflow() {
        Err(DataflowError::eval(super::numeric::OVERFLOW))
    } else if status.subnormal() {
        Err(DataflowError::eval(super::numeric::UNDERFLOW))
    } else {
        munged(a)
    }
}

/// `log_guard_numeric`: a logarithm of zero or a negative number fails,
/// naming the function as the real system names it.
fn log_guard(a: &Dec, name: &str) -> Result<(), DataflowError> {
    if a.is_negative() {
        return Err(DataflowError::eval(&format!(
            "function {name} is not defined for negative numbers"
        )));
    }
    if a.is_zero() {
        return Err(DataflowError::eval(&format!(
            "function {name} is not defined for zero"
        )));
    }
    Ok(())
}

/// `ln` and `log10` (`log_numeric`), in the library's own functions (within
/// an ulp, as decNumber says, and the same ulp as the real system's: the
/// same library and context).
fn log(
    mut a: Dec,
    name: &str,
    logic: fn(&mut Context<Dec>, &mut Dec),
) -> Result<Datum, DataflowError> {
    log_guard(&a, name)?;
    logic(&mut cx_datum(), &mut a);
    munged(a)
}

/// `log(base, n)` (`log_base_numeric`): `ln(n) / ln(base)`, taken for an
/// integer when rounding off its last digit makes it one, as the real
/// system corrects the quotient of two irrational numbers.
fn log_base(mut base: Dec, mut n: Dec) -> Result<Datum, DataflowError> {
    log_guard(&base, "log")?;
    log_guard(&n, "log")?;
    let mut cx = cx_datum();
    cx.ln(&mut base);
    cx.ln(&mut n);
    cx.div(&mut n, &base);
    if base.is_zero() {
        return Err(DataflowError::eval("division by zero"));
    }
    cx.set_precision(MAX_PRECISION - 1)
        .expect("a precision below the maximum");
    let mut integral = n;
    cx.reduce(&mut integral);
    munged(if integral.exponent() >= 0 {
        integral
    } else {
        n
    })
}

/// A result munged as the real system's (no `-0`, at most 39 digits).
fn munged(mut a: Dec) -> Result<Datum, DataflowError> {
    munge(&mut a).expect("a rounding keeps its digits");
    value(&a)
}

/// A result as a row holds it.
fn value(a: &Dec) -> Result<Datum, DataflowError> {
    Numeric::from_dec(a)
        .map(Datum::Numeric)
        .ok_or_else(|| DataflowError::eval(super::numeric::OVERFLOW))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(f: NumericFunc, args: &[Datum]) -> Result<String, String> {
        apply(f, args, false)
            .expect("a numeric function")
            .map(|d| d.to_string())
            .map_err(|e| e.0)
    }

    fn n(s: &str) -> Datum {
        Datum::Numeric(super::super::numeric::parse(s).expect("a numeric"))
    }

    fn one(f: NumericFunc, s: &str) -> String {
        call(f, &[n(s)]).expect("a value")
    }

    fn to(s: &str, places: i32) -> Result<String, String> {
        call(NumericFunc::RoundTo, &[n(s), Datum::Int32(places)])
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        use NumericFunc::*;
        assert_eq!(one(Round, "2.5"), "3");
        assert_eq!(one(Round, "-2.5"), "-3");
        assert_eq!(one(Round, "-1.4"), "-1");
        assert_eq!(one(Round, "0.5"), "1");
        assert_eq!(one(Round, "NaN"), "NaN");
        assert_eq!(one(Round, "12000"), "12000");
        assert!(call(Round, &[n("-0.4")])
            .unwrap_err()
            .starts_with("unsupported: function round of a numeric between -0.5 and 0"));
        assert_eq!(one(Trunc, "-1.9"), "-1");
        assert_eq!(one(Trunc, "-0.6"), "0");
        assert_eq!(one(Ceil, "-0.6"), "0");
        assert_eq!(one(Ceil, "1.1"), "2");
        assert_eq!(one(Floor, "-1.1"), "-2");
        assert_eq!(one(Floor, "NaN"), "NaN");
        assert_eq!(one(Abs, "-1.5"), "1.5");
        assert_eq!(one(Abs, "NaN"), "NaN");
    }

    #[test]
    fn roots_exponentials_and_logarithms_in_the_decimal_context() {
        use NumericFunc::*;
        assert_eq!(one(Sqrt, "2.25"), "1.5");
        assert_eq!(one(Sqrt, "4"), "2");
        assert_eq!(one(Sqrt, "2"), "1.41421356237309504880168872420969807857");
        assert_eq!(one(Sqrt, "NaN"), "NaN");
        assert_eq!(
            call(Sqrt, &[n("-1")]),
            Err("Evaluation error: cannot take square root of a negative number".into())
        );
        assert_eq!(one(Exp, "0"), "1");
        assert_eq!(one(Exp, "1"), "2.71828182845904523536028747135266249776");
        assert_eq!(
            call(Exp, &[n("1000")]),
            Err("Evaluation error: value out of range: overflow".into())
        );
        assert_eq!(
            call(Exp, &[n("-1000")]),
            Err("Evaluation error: value out of range: underflow".into())
        );
        assert_eq!(one(Ln, "1"), "0");
        assert_eq!(one(Log10, "1000"), "3");
        assert_eq!(one(Log10, "0.01"), "-2");
        assert_eq!(one(Ln, "NaN"), "NaN");
        assert_eq!(
            call(Ln, &[n("0")]),
            Err("Evaluation error: function ln is not defined for zero".into())
        );
        assert_eq!(
            call(Log10, &[n("-2")]),
            Err("Evaluation error: function log10 is not defined for negative numbers".into())
        );
        // The quotient of two logarithms, an integer where rounding its last
        // digit makes it one.
        let log = |b: &str, x: &str| call(LogBase, &[n(b), n(x)]);
        assert_eq!(log("2", "64"), Ok("6".into()));
        assert_eq!(log("10", "1000"), Ok("3".into()));
        assert_eq!(log("3", "81"), Ok("4".into()));
        assert_eq!(
            log("1", "5"),
            Err("Evaluation error: division by zero".into())
        );
        assert_eq!(
            log("0", "5"),
            Err("Evaluation error: function log is not defined for zero".into())
        );
        assert_eq!(
            log("2", "-5"),
            Err("Evaluation error: function log is not defined for negative numbers".into())
        );
    }

    #[test]
    fn round_to_places_as_the_real_system_shifts() {
        assert_eq!(to("1.2345", 2), Ok("1.23".into()));
        assert_eq!(to("1.235", 2), Ok("1.24".into()));
        assert_eq!(to("-1.235", 2), Ok("-1.24".into()));
        assert_eq!(to("1.5", 3), Ok("1.5".into()));
        assert_eq!(to("1234.5", -2), Ok("1200".into()));
        assert_eq!(to("1250", -2), Ok("1300".into()));
        assert_eq!(to("-0.001", 2), Ok("0".into()));
        assert_eq!(to("99.5", 0), Ok("100".into()));
        assert_eq!(to("123", -50), Ok("0".into()));
        assert_eq!(to("1.5", 1000), Ok("1.5".into()));
        assert_eq!(to("NaN", 2), Ok("NaN".into()));
        // An integer of 39 digits shifted by a place overflows.
        let big = format!("1{}1", "0".repeat(37));
        assert_eq!(
            to(&big, 1),
            Err("Evaluation error: value out of range: overflow".into())
        );
        assert_eq!(to(&big, 0), Ok(big.clone()));
        // Trailing zeros: padded if reduced, shifted if not; refused where
        // the two differ, answered where they do not.
        assert!(to("1e30", 9).unwrap_err().starts_with("unsupported: "));
        assert_eq!(to("1e30", 8), Ok(format!("1{}", "0".repeat(30))));
        // A literal is reduced there: padded.
        let literal = apply(NumericFunc::RoundTo, &[n("6e38"), Datum::Int32(39)], true);
        let six = format!("6{}", "0".repeat(38));
        assert_eq!(literal.map(|r| r.map(|d| d.to_string())), Some(Ok(six)));
    }
}
