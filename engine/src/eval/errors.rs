//! The real system's texts for what can go wrong in an evaluation, made
//! in one place so that every caller says them alike.

use crate::repr::{DataflowError, Datum, ScalarType};

/// The real system's bound on what a string or bytes function makes
/// (`MAX_STRING_FUNC_RESULT_BYTES`, 100 MiB): `repeat`, `lpad`, `||`,
/// `decode` and their kin.
pub const MAX_RESULT_BYTES: usize = 100 * 1024 * 1024;

/// The real system's text for a result beyond [`MAX_RESULT_BYTES`]
/// (`LengthTooLarge`).
pub fn length_too_large() -> DataflowError {
    DataflowError::eval("requested length too large")
}

/// The real system's text for a value beyond an integer type's bounds.
pub fn out_of_range(typ: ScalarType) -> DataflowError {
    DataflowError::eval(&format!("{} out of range", typ.name()))
}

/// `"<detail>" <type> out of range`: the real system's text for a value
/// beyond an integer type's bounds that names the value or the operation
/// that made it (`Int16OutOfRange`, `UInt16OutOfRange`, ... of `typ`).
pub fn value_out_of_range(typ: ScalarType, detail: impl std::fmt::Display) -> String {
    format!("\"{detail}\" {} out of range", typ.name())
}

/// The real system's text for an `integer` result out of range, naming
/// the value or the operation that made it: `"-2147483648" integer out of
/// range`, `"-2147483648 / -1" integer out of range`.
pub fn int4_out_of_range(detail: impl std::fmt::Display) -> DataflowError {
    DataflowError::eval(&value_out_of_range(ScalarType::Int32, detail))
}

/// The real system's text for a sum, difference or product beyond its
/// integer type.
pub fn numeric_field_overflow() -> DataflowError {
    DataflowError::eval("numeric field overflow")
}

/// As [`int4_out_of_range`], for a `bigint`.
pub fn int8_out_of_range_of(detail: impl std::fmt::Display) -> DataflowError {
    DataflowError::eval(&value_out_of_range(ScalarType::Int64, detail))
}

pub fn int8_out_of_range() -> DataflowError {
    out_of_range(ScalarType::Int64)
}

pub fn division_by_zero() -> DataflowError {
    DataflowError::eval("division by zero")
}

/// Reached only by plans the planner did not type-check.
pub fn type_error(what: &str, d: &Datum) -> DataflowError {
    DataflowError::eval(&format!("invalid operand for {what}: {d}"))
}

/// A sum beyond a `bigint`: the real system's `sum` of `bigint`s is a
/// `numeric`, which the engine's sums are not, so it refuses the answer
/// rather than fail where the real system would not.
pub fn sum_out_of_range() -> DataflowError {
    DataflowError(crate::repr::unsupported(
        "sum beyond the range of a bigint (a numeric in the real system)",
    ))
}

pub fn numeric_out_of_range() -> DataflowError {
    DataflowError::eval("numeric out of range")
}
