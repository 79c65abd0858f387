//! `numeric` in the planner, as the real system plans it (its
//! `plan/query.rs` and `plan/typeconv.rs`, read for the facts): the type
//! names `numeric`, `decimal` and `dec` with their precision and scale, a
//! literal with a point or an exponent or beyond a `bigint`, and the type
//! an operator, CASE or COALESCE over integers and numerics takes (the
//! integers cast to `numeric` implicitly).

use sqlparser::ast::{DataType, ExactNumberInfo};

use crate::eval::parse_numeric;
use crate::repr::{Numeric, ScalarType, MAX_PRECISION};

/// The type a numeric type name means (`None` for another name):
/// `numeric` unconstrained, `numeric(p)` with no places, `numeric(p, s)`
/// with at most `s`, and the real system's texts for a bad precision or
/// scale.
pub fn numeric_type(t: &DataType) -> Option<Result<ScalarType, String>> {
    let info = match t {
        DataType::Numeric(info) | DataType::Decimal(info) | DataType::Dec(info) => info,
        _ => return None,
    };
    let max = MAX_PRECISION as i64;
    let precision = |p: u64| match i64::try_from(p) {
        Ok(p) if (1..=max).contains(&p) => Ok(p),
        _ => Err(format!(
            "precision for type numeric must be between 1 and {max}"
        )),
    };
    Some(match *info {
        ExactNumberInfo::None => Ok(ScalarType::Numeric),
        ExactNumberInfo::Precision(p) => precision(p).map(|_| ScalarType::NumericScale(0)),
        ExactNumberInfo::PrecisionAndScale(p, s) => precision(p).and_then(|p| {
            if s > p {
                return Err(format!(
                    "scale for type numeric must be between 0 and precision {p}"
                ));
            }
            match u8::try_from(s) {
                Ok(s) if i64::from(s) <= max => Ok(ScalarType::NumericScale(s)),
                _ => Err(format!(
                    "scale for type numeric must be between 0 and {max}"
                )),
            }
        }),
    })
}

/// A numeric literal's text (`1.5`, `1e3`, `99999999999999999999`) read
/// as the real system reads it, or that parse's error (which quotes the
/// text as its lexer gives it, the exponent's `E` upper case: `"1E39" is
/// out of range for type numeric: ...`).
pub fn literal_value(text: &str) -> Result<Numeric, String> {
    parse_numeric(&text.to_uppercase())
}

/// Whether the type is `numeric`, with a scale or without.
pub fn is_numeric(t: ScalarType) -> bool {
    matches!(t, ScalarType::Numeric | ScalarType::NumericScale(_))
}

/// The type an operator, CASE or COALESCE over `types` (NULLs and string
/// literals left out) takes when one is a `numeric` and the others
/// integers or numerics: `numeric`, the integers cast to it.
pub fn common_numeric(types: impl IntoIterator<Item = Option<ScalarType>>) -> Option<ScalarType> {
    let types: Vec<ScalarType> = types.into_iter().flatten().collect();
    let numeric = types.iter().any(|t| is_numeric(*t));
    let all = types.iter().all(|t| is_numeric(*t) || t.is_integer());
    (numeric && all).then_some(ScalarType::Numeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typ(info: ExactNumberInfo) -> Result<ScalarType, String> {
        numeric_type(&DataType::Numeric(info)).expect("a numeric type")
    }

    #[test]
    fn type_names_with_their_precision_and_scale() {
        use ExactNumberInfo::*;
        assert_eq!(typ(None), Ok(ScalarType::Numeric));
        assert_eq!(typ(Precision(10)), Ok(ScalarType::NumericScale(0)));
        assert_eq!(
            typ(PrecisionAndScale(15, 2)),
            Ok(ScalarType::NumericScale(2))
        );
        assert_eq!(
            typ(PrecisionAndScale(39, 39)),
            Ok(ScalarType::NumericScale(39))
        );
        let bad_precision = "precision for type numeric must be between 1 and 39";
        assert_eq!(typ(Precision(0)), Err(bad_precision.into()));
        assert_eq!(typ(Precision(40)), Err(bad_precision.into()));
        assert_eq!(
            typ(PrecisionAndScale(5, 6)),
            Err("scale for type numeric must be between 0 and precision 5".into())
        );
        assert!(numeric_type(&DataType::Decimal(None)).is_some());
        assert!(numeric_type(&DataType::Int(Option::None)).is_none());
    }

    #[test]
    fn integers_beside_a_numeric_become_numerics() {
        use ScalarType::*;
        assert_eq!(common_numeric([Some(Int32), Some(Numeric)]), Some(Numeric));
        assert_eq!(common_numeric([Some(NumericScale(2)), None]), Some(Numeric));
        assert_eq!(common_numeric([Some(Int32), Some(Int64)]), Option::None);
        assert_eq!(common_numeric([Some(Numeric), Some(Text)]), Option::None);
    }
}
