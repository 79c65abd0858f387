//! The real system's texts for what can go wrong in an evaluation, made
//! in one place so that every caller says them alike.

use crate::repr::{DataflowError, Datum, ScalarType};

/// The real system's text for a value beyond an integer type's bounds.
pub fn out_of_range(typ: ScalarType) -> DataflowError {
    DataflowError::eval(&format!("{} out of range", typ.name()))
}

pub fn int4_out_of_range() -> DataflowError {
    out_of_range(ScalarType::Int32)
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

pub fn numeric_out_of_range() -> DataflowError {
    DataflowError::eval("numeric out of range")
}
