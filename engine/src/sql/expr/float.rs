//! Floats in the planner, as the real system plans them: the type names
//! (`real`, `float4`, `double precision`, `double`, `float8`, `float`,
//! `float(p)`), the type an operation mixing floats with integers takes
//! (its implicit casts: `typeconv.rs`), and a literal with a point or an
//! exponent, a `numeric` there, read as a float where a cast or the
//! other operand makes it one (`1.5::float8`, `f * 2.5`).

use sqlparser::ast::{DataType, ExactNumberInfo, Expr, UnaryOperator, Value};

use crate::repr::{unsupported, Datum, ScalarType, F32, F64};

/// The float type a type name means, `None` if it names no float.
/// `float(p)` is a `real` for `p` in 1..=24 and a `double precision` for
/// 25..=53, and any other `p` the real system's error.
pub fn float_type(t: &DataType) -> Option<Result<ScalarType, String>> {
    use ScalarType::{Float32, Float64};
    Some(Ok(match t {
        DataType::Real | DataType::Float4 => Float32,
        DataType::DoublePrecision
        | DataType::Float8
        | DataType::Double(ExactNumberInfo::None)
        | DataType::Float(ExactNumberInfo::None) => Float64,
        DataType::Float(ExactNumberInfo::Precision(p)) => match p {
            1..=24 => Float32,
            25..=53 => Float64,
            _ => {
                return Some(Err(
                    "precision for type float must be within ([1-53])".to_string()
                ))
            }
        },
        _ => return None,
    }))
}

/// The position of a type among those an implicit cast widens: the
/// integers, then `real`, then `double precision`.
fn rank(t: ScalarType) -> Option<u8> {
    match t {
        ScalarType::Int16 | ScalarType::Int32 => Some(0),
        ScalarType::Int64 => Some(1),
        ScalarType::Float32 => Some(2),
        ScalarType::Float64 => Some(3),
        _ => None,
    }
}

/// Whether the real system casts `from` to the float `to` implicitly: an
/// integer or a `numeric` to either float, `real` to `double precision`.
pub fn implicit_to_float(from: ScalarType, to: ScalarType) -> bool {
    to.is_float()
        && (from == ScalarType::Numeric || rank(from).zip(rank(to)).is_some_and(|(f, t)| f < t))
}

/// The float type that an operator over a float and an integer, a
/// `numeric` or another float takes, as the real system resolves its
/// overloads (each of one type on both sides: the one needing the fewest
/// casts): the wider float; `real` beside an integer stays a `real`
/// (PostgreSQL makes it a `double precision`). `None` when neither is a
/// float.
pub fn common_float(a: Option<ScalarType>, b: Option<ScalarType>) -> Option<ScalarType> {
    let floats = [a, b].into_iter().flatten().filter(|t| t.is_float());
    floats.max_by_key(|t| rank(*t))
}

/// The widest of values' types for CASE and COALESCE when they are all
/// integers, `numeric`s or floats and one is a float (each casts to it
/// implicitly); `None` otherwise.
pub fn widest_float(types: impl Iterator<Item = ScalarType> + Clone) -> Option<ScalarType> {
    let all_numbers = types
        .clone()
        .all(|t| rank(t).is_some() || t == ScalarType::Numeric);
    let widest = types.max_by_key(|t| rank(*t))?;
    (all_numbers && widest.is_float()).then_some(widest)
}

/// The text of a literal with a point or an exponent, or beyond a
/// `bigint` (a `numeric` in the real system), optionally negated or in
/// parentheses: `1.5`, `-1e3`, `(-0.0)`; and `-0`, which the real system
/// reads as one literal that keeps its sign, a `numeric` (its
/// `cockroach/zero.slt` inserts `-0` into a float column as `-0`).
pub fn numeric_literal(e: &Expr) -> Option<String> {
    // A loop, not a recursion: the operand may nest hundreds of levels.
    let (mut e, mut negative) = (e, false);
    loop {
        match e {
            Expr::Nested(inner) => e = inner,
            Expr::UnaryOp {
                op: UnaryOperator::Minus,
                expr,
            } => (e, negative) = (expr, !negative),
            Expr::Value(v) => {
                let Value::Number(n, _) = &v.value else {
                    return None;
                };
                let numeric = n.contains(['.', 'e', 'E']) || n.parse::<i64>().is_err();
                let zero = n.bytes().all(|b| b == b'0');
                return match (numeric, negative) {
                    (true, false) => Some(n.clone()),
                    (true, true) => Some(format!("-{n}")),
                    (false, true) if zero => Some("-0".to_string()),
                    (false, _) => None,
                };
            }
            _ => return None,
        }
    }
}

/// A numeric literal's text as a float of type `to`: the real system
/// makes the literal a `numeric` (at most 39 significant digits, at most
/// 39 places) and casts that, which reads its exact digits as a float, so
/// the float is the literal's text correctly rounded. A literal a
/// `numeric` would round or refuse is refused here.
pub fn float_literal(text: &str, to: ScalarType) -> Result<Datum, String> {
    let refused = || unsupported(format!("numeric literal: {text}"));
    if !exact_numeric(text) {
        return Err(refused());
    }
    match to {
        ScalarType::Float32 => match text.parse::<f32>() {
            Ok(f) if f.is_finite() => Ok(Datum::Float32(F32::new(f))),
            _ => Err(refused()),
        },
        ScalarType::Float64 => match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Datum::Float64(F64::new(f))),
            _ => Err(refused()),
        },
        _ => Err(refused()),
    }
}

/// A VALUES entry or assigned value `e` for a float column `to`, when it
/// is a numeric literal (`1.5`, `-2e3`): the float the real system's
/// assignment cast of the `numeric` makes, or the literal's refusal.
pub fn value_as_float(e: &Expr, to: ScalarType) -> Option<Result<Datum, String>> {
    let text = numeric_literal(e).filter(|_| to.is_float())?;
    Some(float_literal(&text, to))
}

/// Whether `text` (`-12.5e3`) is a decimal a `numeric` holds exactly: at
/// most 39 significant digits, the first at most 10^38 and the last at
/// least 10^-39.
fn exact_numeric(text: &str) -> bool {
    let text = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => match e.parse::<i64>() {
            Ok(e) if e.abs() < 1000 => (m, e),
            _ => return false,
        },
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = [int, frac].concat();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let significant = digits.trim_start_matches('0');
    let trailing = significant.len() - significant.trim_end_matches('0').len();
    let significant = significant.trim_end_matches('0');
    if significant.is_empty() {
        return true;
    }
    let frac_len = i64::try_from(frac.len()).expect("a short literal");
    let sig_len = i64::try_from(significant.len()).expect("a short literal");
    let trailing = i64::try_from(trailing).expect("a short literal");
    let last = exponent - frac_len + trailing;
    let first = last + sig_len - 1;
    sig_len <= 39 && last >= -39 && first <= 38
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numeric_literal_is_read_exactly_or_refused() {
        let f = |t: &str| float_literal(t, ScalarType::Float64).map(|d| d.to_string());
        assert_eq!(f("1.5"), Ok("1.5".into()));
        assert_eq!(f("-0.000"), Ok("-0".into()));
        assert_eq!(f("1e31"), Ok("1e+31".into()));
        assert_eq!(
            f("0.000000000000000123456789123456789012345"),
            Ok("1.2345678912345679e-16".into())
        );
        assert!(f("1e39").is_err());
        assert!(f("1e-40").is_err());
        assert!(f("1.0000000000000000000000000000000000000001").is_err());
        let f32 = |t: &str| float_literal(t, ScalarType::Float32).map(|d| d.to_string());
        assert_eq!(f32("1.1"), Ok("1.1".into()));
        assert!(f32("9e38").is_err());
    }

    #[test]
    fn float_precision_maps_to_a_type() {
        let t = |p| float_type(&DataType::Float(ExactNumberInfo::Precision(p))).unwrap();
        assert_eq!(t(1), Ok(ScalarType::Float32));
        assert_eq!(t(24), Ok(ScalarType::Float32));
        assert_eq!(t(25), Ok(ScalarType::Float64));
        assert_eq!(t(53), Ok(ScalarType::Float64));
        assert!(t(0).is_err() && t(54).is_err());
    }

    #[test]
    fn a_real_beside_an_integer_stays_a_real() {
        use ScalarType::*;
        assert_eq!(common_float(Some(Float32), Some(Int64)), Some(Float32));
        assert_eq!(common_float(Some(Int32), Some(Float64)), Some(Float64));
        assert_eq!(common_float(Some(Float32), Some(Float64)), Some(Float64));
        assert_eq!(common_float(Some(Int32), None), None);
        assert!(implicit_to_float(Numeric, Float32) && !implicit_to_float(Float64, Float32));
    }
}
