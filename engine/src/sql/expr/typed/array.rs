//! The array type names: `t[]`, and `t[][]` and `t[2]` the same type,
//! as Materialize's parser reads them (`RawDataType::Array`); `t ARRAY`
//! and arrays of element types the engine does not have are refused by
//! name.

use sqlparser::ast::{ArrayElemTypeDef, DataType};

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
