//! Evaluation of scalar expressions and aggregates with SQL semantics.
//!
//! Failures are values of the error stream, not panics: they come back as
//! `DataflowError`s carrying the real system's texts.

mod aggregate;
mod array;
mod as_written;
mod bytes;
mod cast;
mod chars;
mod error_order;
mod errors;
mod float;
mod float_functions;
mod float_sum;
mod fold;
#[cfg(test)]
mod function_tests;
mod functions;
mod int16;
mod interval;
mod jsonb;
mod list;
mod literals;
mod numeric;
mod numeric_functions;
mod numeric_sum;
mod ordered;
mod range;
mod scalar;
mod table_func;
#[cfg(test)]
mod tests;
mod text;
mod time;
mod to_jsonb;
mod unsigned;
mod window;
mod window_aggregate;

pub use aggregate::{aggregate, average, empty_aggregate};
pub use cast::{cast, castable, parse_as};
pub use chars::assign;
pub use errors::{int8_out_of_range, sum_out_of_range};
pub use float_sum::FloatSum;
pub use functions::{introduces_nulls, propagates_nulls};
pub use numeric::parse as parse_numeric;
pub use numeric_sum::{NumericSum, LIMBS as NUMERIC_SUM_LIMBS};
pub use ordered::ordered_aggregate;
pub use scalar::passes;
pub use time::is_time;
pub use window::window_partition;
