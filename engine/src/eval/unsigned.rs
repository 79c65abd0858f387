//! `uint2`, `uint4` and `uint8`, Materialize's unsigned integers, as its
//! `uint16`, `uint32` and `uint64` functions evaluate them
//! (`expr/src/scalar/func.rs`, `func/impls/uint16.rs`, `uint32.rs`,
//! `uint64.rs`, `float32.rs`, `float64.rs`, `numeric.rs`): arithmetic at
//! the operands' width, whose overflow names the operation (`"65535 + 1"
//! uint2 out of range`), a quotient or remainder by zero `division by
//! zero`, and the casts between an unsigned integer and the other
//! integers, the floats and `numeric`, each held to the target's range
//! and naming the value (`"-1" uint4 out of range`). One code for the
//! three widths: a value is read as a `u64` and narrowed back to its type.

use super::errors::{division_by_zero, value_out_of_range as out_of_range};
use crate::plan::{BinaryOp, Bitwise};
use crate::repr::{DataflowError, Datum, ScalarType};

/// An unsigned integer's type and value (`None` for any other datum).
pub fn unsigned(d: &Datum) -> Option<(ScalarType, u64)> {
    match d {
        Datum::UInt16(u) => Some((ScalarType::UInt16, u64::from(*u))),
        Datum::UInt32(u) => Some((ScalarType::UInt32, u64::from(*u))),
        Datum::UInt64(u) => Some((ScalarType::UInt64, *u)),
        _ => None,
    }
}

/// A signed integer's value (`None` for any other datum).
fn signed(d: &Datum) -> Option<i64> {
    match d {
        Datum::Int16(i) => Some(i64::from(*i)),
        Datum::Int32(i) => Some(i64::from(*i)),
        Datum::Int64(i) => Some(*i),
        _ => None,
    }
}

/// `v` as a value of the integer type `to`, if it holds it.
pub fn narrow(v: i128, to: ScalarType) -> Option<Datum> {
    Some(match to {
        ScalarType::UInt16 => Datum::UInt16(v.try_into().ok()?),
        ScalarType::UInt32 => Datum::UInt32(v.try_into().ok()?),
        ScalarType::UInt64 => Datum::UInt64(v.try_into().ok()?),
        ScalarType::Int16 => Datum::Int16(v.try_into().ok()?),
        ScalarType::Int32 => Datum::Int32(v.try_into().ok()?),
        ScalarType::Int64 => Datum::Int64(v.try_into().ok()?),
        _ => return None,
    })
}

/// An arithmetic operator of two unsigned integers of one type (`None`
/// for other operands): `+`, `-` and `*` fail past the type's range with
/// the operation as the detail, `/` and `%` by zero with `division by
/// zero` (`add_uint16`, `sub_uint32`, `div_uint64`, `mod_uint16`, ...).
pub fn binary(op: BinaryOp, l: &Datum, r: &Datum) -> Option<Result<Datum, DataflowError>> {
    let ((typ, a), (other, b)) = (unsigned(l)?, unsigned(r)?);
    if typ != other {
        return None;
    }
    let (a, b) = (i128::from(a), i128::from(b));
    let symbol = match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div | BinaryOp::Mod if b == 0 => return Some(Err(division_by_zero())),
        BinaryOp::Div => return Some(Ok(narrow(a / b, typ).expect("a quotient in range"))),
        BinaryOp::Mod => return Some(Ok(narrow(a % b, typ).expect("a remainder in range"))),
        _ => return None,
    };
    let result = match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        _ => a * b,
    };
    Some(
        narrow(result, typ)
            .ok_or_else(|| DataflowError::eval(&out_of_range(typ, format!("{a} {symbol} {b}")))),
    )
}

/// A bitwise operator of unsigned integers of one type (a shift's count
/// a `uint4`): `&`, `|`, `#` and `~` bit by bit at the width; `<<` and
/// `>>` as Materialize's `bit_shift_left_uint16`, ...: a `uint2` or
/// `uint4` shifted as a 32-bit value by the count modulo 32 (so a
/// `uint2` shifted left past its width is cut to it), a `uint8` as a
/// 64-bit one by the count modulo 64. `None` for other operands.
pub fn bitwise(op: Bitwise, args: &[Datum]) -> Option<Datum> {
    let (typ, a) = unsigned(args.first()?)?;
    let b = match args.get(1) {
        Some(d) => unsigned(d)?.1,
        None => 0,
    };
    let shifted = |shift: fn(u32, u32) -> u32, shift64: fn(u64, u32) -> u64| {
        let count = u32::try_from(b).ok()?;
        Some(match typ {
            ScalarType::UInt64 => shift64(a, count),
            _ => u64::from(shift(u32::try_from(a).ok()?, count)),
        })
    };
    let v = match op {
        Bitwise::And => a & b,
        Bitwise::Or => a | b,
        Bitwise::Xor => a ^ b,
        Bitwise::Not => !a,
        Bitwise::ShiftLeft => shifted(u32::wrapping_shl, u64::wrapping_shl)?,
        Bitwise::ShiftRight => shifted(u32::wrapping_shr, u64::wrapping_shr)?,
    };
    let mask = match typ {
        ScalarType::UInt16 => u64::from(u16::MAX),
        ScalarType::UInt32 => u64::from(u32::MAX),
        _ => u64::MAX,
    };
    narrow(i128::from(v & mask), typ)
}

/// The casts between an unsigned integer and another integer, signed or
/// unsigned (`None` when neither side is unsigned, or the other is not
/// an integer), held to the target's range (`cast_uint32_to_int32`,
/// `cast_int64_to_uint16`, ...).
pub fn cast(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    let integer = |t: ScalarType| t.is_integer() || t.is_unsigned();
    let v = match (unsigned(d), signed(d)) {
        (Some((_, u)), _) if integer(to) => i128::from(u),
        (None, Some(i)) if to.is_unsigned() => i128::from(i),
        _ => return None,
    };
    Some(narrow(v, to).ok_or_else(|| out_of_range(to, v)))
}

/// Whether [`cast`] has the cast.
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    let integer = |t: ScalarType| t.is_integer() || t.is_unsigned();
    (from.is_unsigned() && integer(to)) || (integer(from) && to.is_unsigned())
}

/// A float, rounded half to even, as an unsigned integer of type `to`:
/// from 0 to the type's greatest value as a float of the same width,
/// inclusive, so a float that rounds to 2^64 is `u64::MAX`
/// (`cast_float64_to_uint64`; a `real`'s greatest `uint4` is 2^32 too),
/// else the rounded value as Rust prints the float (`"65536" uint2 out of
/// range`). `real` says whether `f` is a `real` widened.
pub fn from_float(f: f64, real: bool, to: ScalarType) -> Result<Datum, String> {
    let f = f.round_ties_even();
    let greatest = match to {
        ScalarType::UInt16 => u64::from(u16::MAX),
        ScalarType::UInt32 => u64::from(u32::MAX),
        _ => u64::MAX,
    };
    let max = match real {
        true => f64::from(greatest as f32),
        false => greatest as f64,
    };
    match f >= 0.0 && f <= max {
        // In range, so `as` is exact but at a width's 2^n, which saturates.
        true => {
            let u = (f as u64).min(greatest);
            Ok(narrow(i128::from(u), to).expect("a value in range"))
        }
        false if real => Err(out_of_range(to, f as f32)),
        false => Err(out_of_range(to, f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType::{Int32, Int64, UInt16, UInt32, UInt64};

    fn eval(op: BinaryOp, a: Datum, b: Datum) -> Result<Datum, String> {
        binary(op, &a, &b).expect("two unsigned").map_err(|e| e.0)
    }

    #[test]
    fn arithmetic_fails_at_each_width_naming_the_operation() {
        use Datum::{UInt16 as U2, UInt32 as U4, UInt64 as U8};
        assert_eq!(eval(BinaryOp::Add, U2(65534), U2(1)), Ok(U2(65535)));
        let fail = |t: &str| Err(format!("Evaluation error: {t}"));
        assert_eq!(
            eval(BinaryOp::Add, U2(65535), U2(1)),
            fail("\"65535 + 1\" uint2 out of range")
        );
        assert_eq!(
            eval(BinaryOp::Sub, U4(45), U4(50)),
            fail("\"45 - 50\" uint4 out of range")
        );
        assert_eq!(
            eval(BinaryOp::Mul, U8(u64::MAX), U8(2)),
            fail("\"18446744073709551615 * 2\" uint8 out of range")
        );
        assert_eq!(eval(BinaryOp::Mul, U4(65535), U4(65537)), Ok(U4(u32::MAX)));
        assert_eq!(eval(BinaryOp::Div, U8(7), U8(2)), Ok(U8(3)));
        assert_eq!(eval(BinaryOp::Mod, U2(13), U2(5)), Ok(U2(3)));
        assert_eq!(eval(BinaryOp::Div, U2(1), U2(0)), fail("division by zero"));
        assert_eq!(eval(BinaryOp::Mod, U8(1), U8(0)), fail("division by zero"));
        // Two widths, or a signed operand, are not this module's.
        assert!(binary(BinaryOp::Add, &U2(1), &U4(1)).is_none());
        assert!(binary(BinaryOp::Add, &U4(1), &Datum::Int32(1)).is_none());
    }

    #[test]
    fn bitwise_operators_work_at_the_width() {
        use Datum::{UInt16 as U2, UInt32 as U4, UInt64 as U8};
        let b = |op, args: &[Datum]| bitwise(op, args).expect("unsigned operands");
        assert_eq!(b(Bitwise::And, &[U2(4), U2(5)]), U2(4));
        assert_eq!(b(Bitwise::Or, &[U4(4), U4(5)]), U4(5));
        assert_eq!(b(Bitwise::Xor, &[U8(4), U8(5)]), U8(1));
        assert_eq!(b(Bitwise::Not, &[U2(42)]), U2(65493));
        assert_eq!(b(Bitwise::Not, &[U4(42)]), U4(4294967253));
        assert_eq!(b(Bitwise::Not, &[U8(42)]), U8(18446744073709551573));
        assert_eq!(b(Bitwise::ShiftLeft, &[U2(64), U4(1)]), U2(128));
        // Past a uint2's width, cut to it; the count modulo 32 or 64.
        assert_eq!(b(Bitwise::ShiftLeft, &[U2(1), U4(17)]), U2(0));
        assert_eq!(b(Bitwise::ShiftLeft, &[U4(1), U4(33)]), U4(2));
        assert_eq!(b(Bitwise::ShiftLeft, &[U8(1), U4(65)]), U8(2));
        assert_eq!(b(Bitwise::ShiftRight, &[U8(64), U4(1)]), U8(32));
        assert_eq!(b(Bitwise::ShiftRight, &[U2(64), U4(33)]), U2(32));
    }

    #[test]
    fn casts_hold_the_target_range() {
        let cast = |d: Datum, to| cast(&d, to).expect("an integer cast");
        assert_eq!(
            cast(Datum::Int32(-21), UInt16),
            Err("\"-21\" uint2 out of range".into())
        );
        assert_eq!(
            cast(Datum::Int64(1 << 32), UInt32),
            Err("\"4294967296\" uint4 out of range".into())
        );
        assert_eq!(
            cast(Datum::Int64(1 << 32), UInt64),
            Ok(Datum::UInt64(1 << 32))
        );
        assert_eq!(
            cast(Datum::UInt32(1 << 31), Int32),
            Err("\"2147483648\" integer out of range".into())
        );
        assert_eq!(
            cast(Datum::UInt64(1 << 63), Int64),
            Err("\"9223372036854775808\" bigint out of range".into())
        );
        assert_eq!(cast(Datum::UInt16(124), UInt64), Ok(Datum::UInt64(124)));
        assert!(super::cast(&Datum::Int32(1), Int64).is_none());
        assert!(!castable(UInt16, ScalarType::Bool) && !castable(ScalarType::Bool, UInt64));
    }

    #[test]
    fn floats_round_half_to_even_and_saturate_at_two_to_the_sixty_four() {
        let f = |x: f64, to| from_float(x, false, to);
        assert_eq!(f(12.5, UInt16), Ok(Datum::UInt16(12)));
        assert_eq!(f(65535.4, UInt16), Ok(Datum::UInt16(65535)));
        assert_eq!(
            f(65535.5, UInt16),
            Err("\"65536\" uint2 out of range".into())
        );
        assert_eq!(
            f(18446744073709553665.0, UInt64),
            Err("\"18446744073709556000\" uint8 out of range".into())
        );
        // A `real`'s 2^32 is its greatest `uint4`.
        assert_eq!(
            from_float(4294967296.0, true, UInt32),
            Ok(Datum::UInt32(u32::MAX))
        );
        assert_eq!(f(-0.4, UInt32), Ok(Datum::UInt32(0)));
        assert_eq!(f(2f64.powi(64), UInt64), Ok(Datum::UInt64(u64::MAX)));
        assert!(f(f64::NAN, UInt64).is_err());
    }
}
