//! The array type names: `t[]`, and `t[][]` and `t[2]` the same type,
//! as Materialize's parser reads them (`RawDataType::Array`); `t ARRAY`
//! and arrays of element types the engine does not have are refused by
//! name. And `||` of two arrays (`array_cat`), of one array type as
//! `params!(ArrayAnyCompatible, ArrayAnyCompatible)` makes them.

use sqlparser::ast::{ArrayElemTypeDef, DataType};

use super::Typed;
use crate::plan::{ArrayFunc, Func, ScalarExpr};
use crate::repr::array::ArrayElem;
use crate::repr::{unsupported, ScalarType};

/// The type `t[]` means (`None`: not an array type's name).
pub fn array_type(
    t: &DataType,
    scalar: impl Fn(&DataType) -> Result<ScalarType, String>,
) -> Option<Result<ScalarType, String>> {
    let DataType::Array(def) = t else {
        return None;
    };
    let refused = || unsupported(format!("type {}", t.to_string().to_lowercase()));
    // As the real system's parser reads it, `int[]`, `int[][]` and
    // `int[2]` are one type, an array of `int` of any dimensions.
    let mut def = def;
    let inner = loop {
        match def {
            ArrayElemTypeDef::SquareBracket(inner, _) => match &**inner {
                DataType::Array(d) => def = d,
                _ => break inner,
            },
            _ => return Some(Err(refused())),
        }
    };
    Some(scalar(inner).and_then(|e| array_of(e).ok_or_else(refused)))
}

/// The array type of elements of type `e`, if the engine has it.
pub(in crate::sql::expr) fn array_of(e: ScalarType) -> Option<ScalarType> {
    ArrayElem::of(e).map(ScalarType::Array)
}

/// `l || r` (`array_cat(l, r)`, named `name`) of two arrays of one type,
/// an operand of unknown type read as the other's type; arrays of two
/// types (which the real system may cast to a third) and an array beside
/// another type are refused by name. `None`: neither is an array.
pub fn concat(name: &str, l: Typed, r: Typed) -> Option<Result<Typed, String>> {
    let array = |t: &Typed| match t.typ {
        Some(a @ ScalarType::Array(_)) if !t.is_unknown() => Some(a),
        _ => None,
    };
    let typ = array(&l).or(array(&r))?;
    let operand = |t: Typed| match t.typ {
        _ if t.is_unknown() => t.coerce(typ),
        Some(other) if other == typ => Ok(t),
        _ => Err(unsupported(format!(
            "{name} of {} and {}",
            typ.name(),
            t.type_name()
        ))),
    };
    Some((|| {
        let (l, r) = (operand(l)?, operand(r)?);
        let call = ScalarExpr::Call(Func::Array(ArrayFunc::Cat), vec![l.expr, r.expr]);
        Ok(Typed::new(call, typ, true))
    })())
}
