//! The float functions (`plan::FloatFunc`) as the real system evaluates
//! them (its `expr/src/scalar/func/impls/float32.rs`, `float64.rs` and
//! `func.rs`, read for the facts), with its texts for what can go wrong:
//! `round` rounds half to even (`round_ties_even`, as PostgreSQL does);
//! `sqrt` of a negative number, `ln` and `log10` of zero or of a negative
//! number (its sign bit: `-0` too), `exp` and `power` beyond the type or
//! to zero, and `power`'s complex and undefined results are errors.
//!
//! The real system keeps a NaN's sign bit, and `ln`, `log10` and `power`
//! read it: a NaN made by arithmetic (`'inf' - 'inf'`) is negative on
//! x86, one read from text is not. The engine keeps one NaN (every NaN
//! is one value, `repr::float`), so where that sign would decide the
//! answer it refuses the value rather than guess.

use crate::plan::{FloatFunc, FloatWidth};
use crate::repr::{unsupported, DataflowError, Datum, F32, F64};

fn overflow() -> DataflowError {
    DataflowError::eval("value out of range: overflow")
}

fn underflow() -> DataflowError {
    DataflowError::eval("value out of range: underflow")
}

/// The refusal of a NaN whose sign the real system's answer reads.
fn nan_sign(f: FloatFunc) -> DataflowError {
    DataflowError(unsupported(format!(
        "function {} of NaN (the real system's answer depends on the NaN's sign bit)",
        f.name()
    )))
}

/// `f` of non-NULL arguments of its overload's float type, else `None`
/// (a plan the planner did not type-check).
pub fn apply(f: FloatFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    use FloatWidth::{F32 as W32, F64 as W64};
    let f64_datum = |r: Result<f64, DataflowError>| r.map(|r| Datum::Float64(F64::new(r)));
    let f32_datum = |r: f32| Ok(Datum::Float32(F32::new(r)));
    Some(match (f, args) {
        (FloatFunc::Abs(W32), [Datum::Float32(a)]) => f32_datum(a.get().abs()),
        (FloatFunc::Round(W32), [Datum::Float32(a)]) => f32_datum(a.get().round_ties_even()),
        (FloatFunc::Trunc(W32), [Datum::Float32(a)]) => f32_datum(a.get().trunc()),
        (FloatFunc::Ceil(W32), [Datum::Float32(a)]) => f32_datum(a.get().ceil()),
        (FloatFunc::Floor(W32), [Datum::Float32(a)]) => f32_datum(a.get().floor()),
        (FloatFunc::Power, [Datum::Float64(a), Datum::Float64(b)]) => {
            f64_datum(power(a.get(), b.get()))
        }
        (f, [Datum::Float64(a)]) => {
            let a = a.get();
            f64_datum(match f {
                FloatFunc::Abs(W64) => Ok(a.abs()),
                FloatFunc::Round(W64) => Ok(a.round_ties_even()),
                FloatFunc::Trunc(W64) => Ok(a.trunc()),
                FloatFunc::Ceil(W64) => Ok(a.ceil()),
                FloatFunc::Floor(W64) => Ok(a.floor()),
                FloatFunc::Sqrt if a < 0.0 => Err(DataflowError::eval(
                    "cannot take square root of a negative number",
                )),
                FloatFunc::Sqrt => Ok(a.sqrt()),
                FloatFunc::Cbrt => Ok(a.cbrt()),
                FloatFunc::Exp => exp(a),
                FloatFunc::Ln => logarithm(f, "ln", a, f64::ln),
                FloatFunc::Log10 => logarithm(f, "log10", a, f64::log10),
                _ => return None,
            })
        }
        _ => return None,
    })
}

/// `exp(a)`: an infinite result overflows and a zero one underflows,
/// whatever `a` was (`exp('-inf')` is the underflow).
fn exp(a: f64) -> Result<f64, DataflowError> {
    let r = a.exp();
    if r.is_infinite() {
        return Err(overflow());
    }
    if r == 0.0 {
        return Err(underflow());
    }
    Ok(r)
}

/// `ln` or `log10` (`name`, as the real system's errors say it, for
/// `log` too): of a number whose sign bit is set (`-0` too) or of zero,
/// the real system's errors.
fn logarithm(f: FloatFunc, name: &str, a: f64, log: fn(f64) -> f64) -> Result<f64, DataflowError> {
    if a.is_nan() {
        return Err(nan_sign(f));
    }
    if a.is_sign_negative() {
        return Err(DataflowError::eval(&format!(
            "function {name} is not defined for negative numbers"
        )));
    }
    if a == 0.0 {
        return Err(DataflowError::eval(&format!(
            "function {name} is not defined for zero"
        )));
    }
    Ok(log(a))
}

/// `power(a, b)`, the real system's checks in its order: zero to a power
/// whose sign bit is set is undefined, a number whose sign bit is set to
/// a power with a fraction (a NaN's fraction is NaN) is complex, and an
/// infinite or zero result (of a non-zero `a`) is beyond the type, even
/// of infinite arguments (`power('inf', 2)` overflows).
fn power(a: f64, b: f64) -> Result<f64, DataflowError> {
    // A NaN's sign decides the first two checks when the other argument
    // makes them turn on it.
    if (a == 0.0 && b.is_nan()) || (a.is_nan() && b.fract() != 0.0) {
        return Err(nan_sign(FloatFunc::Power));
    }
    if a == 0.0 && b.is_sign_negative() {
        return Err(DataflowError::eval(
            "zero raised to a negative power is undefined",
        ));
    }
    if a.is_sign_negative() && b.fract() != 0.0 {
        return Err(DataflowError::eval(
            "function pow cannot return complex numbers",
        ));
    }
    let r = a.powf(b);
    if r.is_infinite() {
        return Err(overflow());
    }
    if r == 0.0 && a != 0.0 {
        return Err(underflow());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use FloatFunc::*;
    use FloatWidth::{F32 as W32, F64 as W64};

    fn d(f: f64) -> Datum {
        Datum::Float64(F64::new(f))
    }

    fn call(f: FloatFunc, args: &[f64]) -> Result<String, String> {
        let args: Vec<Datum> = args.iter().map(|a| d(*a)).collect();
        match apply(f, &args).expect("typed") {
            Ok(d) => Ok(d.to_string()),
            Err(DataflowError(e)) => Err(e),
        }
    }

    #[test]
    fn rounding_is_half_to_even_and_keeps_the_sign() {
        assert_eq!(call(Round(W64), &[2.5]), Ok("2".into()));
        assert_eq!(call(Round(W64), &[3.5]), Ok("4".into()));
        assert_eq!(call(Round(W64), &[-2.5]), Ok("-2".into()));
        assert_eq!(call(Round(W64), &[-0.4]), Ok("-0".into()));
        assert_eq!(call(Trunc(W64), &[-1.7]), Ok("-1".into()));
        assert_eq!(call(Ceil(W64), &[-0.5]), Ok("-0".into()));
        assert_eq!(call(Floor(W64), &[-0.5]), Ok("-1".into()));
        assert_eq!(call(Abs(W64), &[-0.0]), Ok("0".into()));
        let half = [Datum::Float32(F32::new(0.5))];
        let r = apply(Round(W32), &half).expect("typed");
        assert_eq!(r, Ok(Datum::Float32(F32::new(0.0))));
        // A real given to a double's overload is a plan the planner never makes.
        assert!(apply(Sqrt, &half).is_none());
    }

    #[test]
    fn errors_are_the_real_systems() {
        let e = |f, args: &[f64]| call(f, args).expect_err("an error");
        assert_eq!(
            e(Sqrt, &[-1.0]),
            "Evaluation error: cannot take square root of a negative number"
        );
        assert_eq!(call(Sqrt, &[-0.0]), Ok("-0".into()));
        assert_eq!(
            e(Ln, &[0.0]),
            "Evaluation error: function ln is not defined for zero"
        );
        assert_eq!(
            e(Log10, &[-0.0]),
            "Evaluation error: function log10 is not defined for negative numbers"
        );
        assert_eq!(
            e(Exp, &[f64::NEG_INFINITY]),
            "Evaluation error: value out of range: underflow"
        );
        assert_eq!(
            e(Exp, &[1000.0]),
            "Evaluation error: value out of range: overflow"
        );
        assert_eq!(
            e(Power, &[-8.0, 1.0 / 3.0]),
            "Evaluation error: function pow cannot return complex numbers"
        );
        assert_eq!(
            e(Power, &[-0.0, 0.5]),
            "Evaluation error: function pow cannot return complex numbers"
        );
        assert_eq!(
            e(Power, &[0.0, -1.0]),
            "Evaluation error: zero raised to a negative power is undefined"
        );
        assert_eq!(
            e(Power, &[f64::INFINITY, 2.0]),
            "Evaluation error: value out of range: overflow"
        );
        assert_eq!(
            e(Power, &[2.0, -2000.0]),
            "Evaluation error: value out of range: underflow"
        );
        assert_eq!(call(Power, &[-2.0, 3.0]), Ok("-8".into()));
        assert_eq!(call(Power, &[f64::NAN, 0.0]), Ok("1".into()));
        assert_eq!(call(Power, &[1.0, f64::NAN]), Ok("1".into()));
    }

    #[test]
    fn a_nan_whose_sign_would_decide_is_refused() {
        for (f, args) in [
            (Ln, vec![f64::NAN]),
            (Log10, vec![f64::NAN]),
            (Power, vec![f64::NAN, 0.5]),
            (Power, vec![0.0, f64::NAN]),
        ] {
            let e = call(f, &args).expect_err("refused");
            assert!(e.starts_with("unsupported: function"), "{e}");
        }
        assert_eq!(call(Sqrt, &[f64::NAN]), Ok("NaN".into()));
        assert_eq!(call(Exp, &[f64::NAN]), Ok("NaN".into()));
    }
}
