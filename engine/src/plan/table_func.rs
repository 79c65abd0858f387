//! The table functions a `FlatMap` calls, as Materialize's `TableFunc`
//! (`src/expr/src/relation/func.rs`) names them: each takes the values of
//! the `FlatMap`'s expressions and gives rows of its own columns, which
//! follow the input row's. `eval/table_func.rs` evaluates them.

/// A table function of a `FlatMap`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableFunc {
    /// `generate_series(start, stop, step)` of `integer`s.
    GenerateSeriesInt32,
    /// `generate_series(start, stop, step)` of `bigint`s.
    GenerateSeriesInt64,
    /// `generate_series(start, stop, step)` of `timestamp`s by an
    /// `interval`.
    GenerateSeriesTimestamp,
    /// As `GenerateSeriesTimestamp`, of `timestamp with time zone`s.
    GenerateSeriesTimestampTz,
    /// `unnest(array)`: each element, in order, every dimension's.
    UnnestArray,
    /// `WITH ORDINALITY`: the inner function's rows, each followed by its
    /// place among them (a `bigint` from 1).
    WithOrdinality(Box<TableFunc>),
}

impl TableFunc {
    /// The number of columns each output row has.
    pub fn output_arity(&self) -> usize {
        match self {
            TableFunc::WithOrdinality(inner) => inner.output_arity() + 1,
            _ => 1,
        }
    }
}
