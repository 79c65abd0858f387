//! `smallint` (int2) evaluated as the real system's `int16` functions
//! evaluate it (`expr/src/scalar/func.rs`, `func/impls/int16.rs`):
//! arithmetic at 16 bits, negation and `abs`, and the casts between a
//! `smallint` and the other integers, with its texts (`numeric field
//! overflow` for a sum, difference or product; `"-32768 / -1" smallint out
//! of range` for a quotient; `"40000" smallint out of range` for a cast).
//! The casts between a `smallint` and a float or a numeric are the float's
//! and the numeric's (`float.rs`, `numeric.rs`).

use super::errors::{division_by_zero, numeric_field_overflow, value_out_of_range};
use crate::plan::BinaryOp;
use crate::repr::{DataflowError, Datum, ScalarType};

/// `"<detail>" smallint out of range`, the real system's `Int16OutOfRange`.
fn out_of_range(detail: impl std::fmt::Display) -> String {
    value_out_of_range(ScalarType::Int16, detail)
}

/// An arithmetic operator of two `smallint`s (`None` for other operands).
pub fn binary(op: BinaryOp, l: &Datum, r: &Datum) -> Option<Result<Datum, DataflowError>> {
    let (&Datum::Int16(a), &Datum::Int16(b)) = (l, r) else {
        return None;
    };
    if matches!(op, BinaryOp::Div | BinaryOp::Mod) && b == 0 {
        return Some(Err(division_by_zero()));
    }
    let result = match op {
        BinaryOp::Add => a.checked_add(b).ok_or_else(numeric_field_overflow),
        BinaryOp::Sub => a.checked_sub(b).ok_or_else(numeric_field_overflow),
        BinaryOp::Mul => a.checked_mul(b).ok_or_else(numeric_field_overflow),
        BinaryOp::Div => a
            .checked_div(b)
            .ok_or_else(|| DataflowError::eval(&out_of_range(format!("{a} / {b}")))),
        // Only i16::MIN % -1 overflows, and its remainder is 0.
        BinaryOp::Mod => Ok(a.checked_rem(b).unwrap_or(0)),
        _ => return None,
    };
    Some(result.map(Datum::Int16))
}

/// `-a` (`neg_int16`), or `abs(a)` (`abs_int16`): the least `smallint`
/// has neither.
pub fn negate(a: i16, abs: bool) -> Result<Datum, DataflowError> {
    let result = match abs {
        true => a.checked_abs(),
        false => a.checked_neg(),
    };
    result
        .map(Datum::Int16)
        .ok_or_else(|| DataflowError::eval(&out_of_range(a)))
}

/// The casts between a `smallint` and the other integers (`None` when
/// neither side is a `smallint`, or the other is not an integer): to an
/// `integer` or `bigint` (implicit), and from one (assignment), held to
/// the `smallint`'s range. A `smallint` has no cast to or from `boolean`.
pub fn cast(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    let narrow = |i: i64| {
        i16::try_from(i)
            .map(Datum::Int16)
            .map_err(|_| out_of_range(i))
    };
    Some(match (d, to) {
        (Datum::Int16(i), ScalarType::Int16) => Ok(Datum::Int16(*i)),
        (Datum::Int16(i), ScalarType::Int32) => Ok(Datum::Int32(i32::from(*i))),
        (Datum::Int16(i), ScalarType::Int64) => Ok(Datum::Int64(i64::from(*i))),
        (Datum::Int32(i), ScalarType::Int16) => narrow(i64::from(*i)),
        (Datum::Int64(i), ScalarType::Int16) => narrow(*i),
        _ => return None,
    })
}

/// Whether [`cast`] has the cast.
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::{Int16, Int32, Int64};
    matches!(
        (from, to),
        (Int16, Int16 | Int32 | Int64) | (Int32 | Int64, Int16)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::Int16 as I;

    fn eval(op: BinaryOp, a: i16, b: i16) -> Result<Datum, String> {
        binary(op, &I(a), &I(b))
            .expect("two smallints")
            .map_err(|e| e.0)
    }

    #[test]
    fn arithmetic_overflows_at_sixteen_bits() {
        assert_eq!(eval(BinaryOp::Add, 32766, 1), Ok(I(32767)));
        let overflow = Err("Evaluation error: numeric field overflow".to_string());
        assert_eq!(eval(BinaryOp::Add, 32767, 1), overflow);
        assert_eq!(eval(BinaryOp::Sub, -32768, 1), overflow);
        assert_eq!(eval(BinaryOp::Mul, 200, 200), overflow);
        assert_eq!(eval(BinaryOp::Div, 7, -2), Ok(I(-3)));
        assert_eq!(
            eval(BinaryOp::Div, -32768, -1),
            Err("Evaluation error: \"-32768 / -1\" smallint out of range".into())
        );
        assert_eq!(eval(BinaryOp::Mod, -32768, -1), Ok(I(0)));
        assert_eq!(eval(BinaryOp::Mod, -7, 3), Ok(I(-1)));
        let zero = Err("Evaluation error: division by zero".to_string());
        assert_eq!(eval(BinaryOp::Div, 1, 0), zero);
        assert_eq!(eval(BinaryOp::Mod, 1, 0), zero);
        assert!(binary(BinaryOp::Add, &I(1), &Datum::Int32(1)).is_none());
    }

    #[test]
    fn negation_and_abs_of_the_least_smallint_fail() {
        assert_eq!(negate(5, false), Ok(I(-5)));
        assert_eq!(negate(-5, true), Ok(I(5)));
        let fail = Err(DataflowError::eval("\"-32768\" smallint out of range"));
        assert_eq!(negate(i16::MIN, false), fail);
        assert_eq!(negate(i16::MIN, true), fail);
    }

    #[test]
    fn casts_hold_the_range() {
        assert_eq!(cast(&I(-3), ScalarType::Int64), Some(Ok(Datum::Int64(-3))));
        assert_eq!(
            cast(&Datum::Int32(-32768), ScalarType::Int16),
            Some(Ok(I(i16::MIN)))
        );
        assert_eq!(
            cast(&Datum::Int64(32768), ScalarType::Int16),
            Some(Err("\"32768\" smallint out of range".into()))
        );
        assert!(cast(&I(1), ScalarType::Bool).is_none());
        assert!(!castable(ScalarType::Int16, ScalarType::Bool));
        assert!(!castable(ScalarType::Bool, ScalarType::Int16));
    }
}
