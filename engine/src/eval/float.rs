//! `real` and `double precision` in expressions, as the real system
//! evaluates them (its `func.rs` and `func/impls/float*.rs`, read for the
//! facts): arithmetic with its overflow, underflow and division-by-zero
//! errors, negation, and the casts to and from floats (SQL's comparison,
//! `-0 = 0`, is `Datum::sql_cmp`).

use std::fmt::Display;

use super::errors::{division_by_zero, value_out_of_range};
use super::unsigned;
use crate::plan::BinaryOp;
use crate::repr::{DataflowError, Datum, ScalarType, F32, F64};

/// The real system's texts for a float result beyond the type.
const OVERFLOW: &str = "value out of range: overflow";
const UNDERFLOW: &str = "value out of range: underflow";

fn overflow() -> DataflowError {
    DataflowError::eval(OVERFLOW)
}

fn underflow() -> DataflowError {
    DataflowError::eval(UNDERFLOW)
}

macro_rules! arithmetic {
    ($name:ident, $f:ty) => {
        /// `a op b`, failing where the real system's `add_float*`,
        /// `sub_float*`, `mul_float*`, `div_float*` and `mod_float*` fail:
        /// an infinite result of finite operands overflows, a zero product
        /// or quotient of non-zero operands underflows, and a zero divisor
        /// of anything but NaN is a division by zero (`%`: any zero divisor).
        fn $name(op: BinaryOp, a: $f, b: $f) -> Result<$f, DataflowError> {
            let finite_inputs = !a.is_infinite() && !b.is_infinite();
            match op {
                BinaryOp::Add | BinaryOp::Sub => {
                    let r = if op == BinaryOp::Add { a + b } else { a - b };
                    if r.is_infinite() && finite_inputs {
                        return Err(overflow());
                    }
                    Ok(r)
                }
                BinaryOp::Mul => {
                    let r = a * b;
                    if r.is_infinite() && finite_inputs {
                        Err(overflow())
                    } else if r == 0.0 && a != 0.0 && b != 0.0 {
                        Err(underflow())
                    } else {
                        Ok(r)
                    }
                }
                BinaryOp::Div => {
                    if b == 0.0 && !a.is_nan() {
                        return Err(division_by_zero());
                    }
                    let r = a / b;
                    if r.is_infinite() && !a.is_infinite() {
                        Err(overflow())
                    } else if r == 0.0 && a != 0.0 && !b.is_infinite() {
                        Err(underflow())
                    } else {
                        Ok(r)
                    }
                }
                BinaryOp::Mod if b == 0.0 => Err(division_by_zero()),
                BinaryOp::Mod => Ok(a % b),
                _ => unreachable!("not arithmetic"),
            }
        }
    };
}

arithmetic!(arithmetic32, f32);
arithmetic!(arithmetic64, f64);

/// `l op r` when both are floats of one width (the planner casts the
/// narrower side), else `None`.
pub fn binary(op: BinaryOp, l: &Datum, r: &Datum) -> Option<Result<Datum, DataflowError>> {
    Some(match (l, r) {
        (Datum::Float32(a), Datum::Float32(b)) => {
            arithmetic32(op, a.get(), b.get()).map(|f| Datum::Float32(F32::new(f)))
        }
        (Datum::Float64(a), Datum::Float64(b)) => {
            arithmetic64(op, a.get(), b.get()).map(|f| Datum::Float64(F64::new(f)))
        }
        _ => return None,
    })
}

/// `-d` for a float (`-0` for `0`), else `None`.
pub fn negate(d: &Datum) -> Option<Datum> {
    match d {
        Datum::Float32(f) => Some(Datum::Float32(F32::new(-f.get()))),
        Datum::Float64(f) => Some(Datum::Float64(F64::new(-f.get()))),
        _ => None,
    }
}

/// `"<v>" integer out of range` (or `bigint`), `v` the rounded value as
/// Rust prints it, as the real system's `cast_float*_to_int*` says it.
fn int_out_of_range(to: ScalarType, v: impl Display) -> String {
    format!("\"{v}\" {} out of range", to.name())
}

macro_rules! to_integer {
    ($name:ident, $f:ty) => {
        /// Rounded half to even, then held to the integer type's range as
        /// PostgreSQL and the real system hold it (`MIN <= f < -MIN`).
        fn $name(f: $f, to: ScalarType) -> Result<Datum, String> {
            let f = f.round_ties_even();
            match to {
                ScalarType::Int16 if f >= i16::MIN as $f && f < -(i16::MIN as $f) => {
                    Ok(Datum::Int16(f as i16))
                }
                ScalarType::Int32 if f >= i32::MIN as $f && f < -(i32::MIN as $f) => {
                    Ok(Datum::Int32(f as i32))
                }
                ScalarType::Int64 if f >= i64::MIN as $f && f < -(i64::MIN as $f) => {
                    Ok(Datum::Int64(f as i64))
                }
                _ => Err(int_out_of_range(to, f)),
            }
        }
    };
}

to_integer!(f32_to_integer, f32);
to_integer!(f64_to_integer, f64);

/// The casts to and from a float (`None` when neither side is one, or
/// for text, which `cast` converts), as the real system's `typeconv.rs`
/// has them: from the integers and `numeric` (implicit) and from
/// `real` to `double precision` (implicit); from a float to the
/// integers and from `double precision` to `real` (assignment). A float
/// has no cast to or from `boolean`.
pub fn cast(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    use ScalarType::{Float32, Float64, Int16, Int32, Int64};
    let f32_datum = |f: f32| Datum::Float32(F32::new(f));
    let f64_datum = |f: f64| Datum::Float64(F64::new(f));
    Some(match (d, to) {
        (Datum::Int16(i), Float32) => Ok(f32_datum(f32::from(*i))),
        (Datum::Int16(i), Float64) => Ok(f64_datum(f64::from(*i))),
        (Datum::Int32(i), Float32) => Ok(f32_datum(*i as f32)),
        (Datum::Int64(i), Float32) => Ok(f32_datum(*i as f32)),
        (Datum::Int32(i), Float64) => Ok(f64_datum(f64::from(*i))),
        (Datum::Int64(i), Float64) => Ok(f64_datum(*i as f64)),
        (Datum::Float32(f), Float32) => Ok(Datum::Float32(*f)),
        (Datum::Float64(f), Float64) => Ok(Datum::Float64(*f)),
        (Datum::Float32(f), Float64) => Ok(f64_datum(f64::from(f.get()))),
        (Datum::Float64(f), Float32) => {
            let (a, r) = (f.get(), f.get() as f32);
            if r.is_infinite() && !a.is_infinite() {
                Err(OVERFLOW.to_string())
            } else if r == 0.0 && a != 0.0 {
                Err(UNDERFLOW.to_string())
            } else {
                Ok(f32_datum(r))
            }
        }
        (d, Float32 | Float64) if unsigned::unsigned(d).is_some() => {
            let (_, u) = unsigned::unsigned(d).expect("an unsigned integer");
            Ok(match to {
                Float32 => f32_datum(u as f32),
                _ => f64_datum(u as f64),
            })
        }
        (Datum::Float32(f), _) if to.is_unsigned() => {
            unsigned::from_float(f64::from(f.get()), true, to)
        }
        (Datum::Float64(f), _) if to.is_unsigned() => unsigned::from_float(f.get(), false, to),
        (Datum::Float32(f), Int16 | Int32 | Int64) => f32_to_integer(f.get(), to),
        (Datum::Float64(f), Int16 | Int32 | Int64) => f64_to_integer(f.get(), to),
        // `numeric_to_real` and `numeric_to_double`: the numeric's text,
        // read as a float (exact digits, so correctly rounded).
        (Datum::Numeric(n), Float32) => {
            let f: f32 = n.to_string().parse().expect("a numeric's text is a float");
            match f.is_infinite() {
                true => Err(value_out_of_range(Float32, f)),
                false => Ok(f32_datum(f)),
            }
        }
        (Datum::Numeric(n), Float64) => Ok(f64_datum(
            n.to_string().parse().expect("a numeric's text is a float"),
        )),
        _ => return None,
    })
}

/// Whether [`cast`] has the cast (text aside).
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::{Float32, Float64, Int16, Int32, Int64, Numeric};
    matches!(
        (from, to),
        (
            Int16 | Int32 | Int64 | Numeric | Float32 | Float64,
            Float32 | Float64
        ) | (Float32 | Float64, Int16 | Int32 | Int64)
    ) || (from.is_unsigned() && to.is_float())
        || (from.is_float() && to.is_unsigned())
}
