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
    /// `jsonb_each(j)`: an object's keys and values, in key order.
    JsonbEach,
    /// `jsonb_each_text(j)`: as `JsonbEach`, each value as `->>` gives it.
    JsonbEachText,
    /// `jsonb_object_keys(j)`: an object's keys, in order.
    JsonbObjectKeys,
    /// `jsonb_array_elements(j)`: an array's elements, in order.
    JsonbArrayElements,
    /// `jsonb_array_elements_text(j)`: as `JsonbArrayElements`, each
    /// element as `->>` gives it.
    JsonbArrayElementsText,
    /// `WITH ORDINALITY`: the inner function's rows, each followed by its
    /// place among them (a `bigint` from 1).
    WithOrdinality(Box<TableFunc>),
}

impl TableFunc {
    /// The number of columns each output row has.
    pub fn output_arity(&self) -> usize {
        match self {
            TableFunc::WithOrdinality(inner) => inner.output_arity() + 1,
            TableFunc::JsonbEach | TableFunc::JsonbEachText => 2,
            _ => 1,
        }
    }
}
