//! Aggregates over one group's values with their multiplicities (`count`,
//! `sum`, `avg`, `min`, `max`, `array_agg`; `sum` of floats in `float_sum`, of numerics
//! in `numeric_sum`), `avg`'s
//! exact numeric division, and a global aggregate's value over no rows.

use super::errors::{int8_out_of_range, numeric_out_of_range, sum_out_of_range, type_error};
use super::float_sum::FloatSum;
use super::numeric_sum::NumericSum;
use crate::plan::AggregateFunc;
use crate::repr::array::Array;
use crate::repr::{DataflowError, Datum, Numeric};

/// `array_agg` of one group's values: Materialize's `ArrayConcat`, which
/// sorts the one-element arrays it concatenates by their datums' order
/// (an element's: NULL last), each value as often as it occurs; NULL of
/// no value.
fn array_agg(values: &[(Datum, i64)]) -> Result<Datum, DataflowError> {
    if values.is_empty() {
        return Ok(Datum::Null);
    }
    let mut sorted: Vec<&(Datum, i64)> = values.iter().collect();
    sorted.sort_by(|(a, _), (b, _)| Array::element_cmp(a, b));
    let mut elements = Vec::new();
    for (d, m) in sorted {
        let m =
            usize::try_from(*m).map_err(|_| DataflowError::eval("array_agg of too many values"))?;
        elements.extend(std::iter::repeat_n(d, m).cloned());
    }
    Ok(Datum::Array(Box::new(Array::list(elements))))
}

/// Applies an aggregate to one group's values, each with its (consolidated,
/// positive) multiplicity. NULLs are ignored by everything but `count(*)`.
pub fn aggregate(func: AggregateFunc, values: &[(Datum, i64)]) -> Result<Datum, DataflowError> {
    debug_assert!(
        values.iter().all(|(_, m)| *m > 0),
        "non-positive multiplicity"
    );
    let non_null = || values.iter().filter(|(d, _)| *d != Datum::Null);
    fn count<'a>(
        mut values: impl Iterator<Item = &'a (Datum, i64)>,
    ) -> Result<Datum, DataflowError> {
        values
            .try_fold(0i64, |n, (_, m)| n.checked_add(*m))
            .map(Datum::Int64)
            .ok_or_else(int8_out_of_range)
    }
    match func {
        AggregateFunc::CountAll => count(values.iter()),
        AggregateFunc::Count => count(non_null()),
        AggregateFunc::Sum | AggregateFunc::SumInt64 => {
            // Accumulated wide so that only the total can overflow, whatever
            // order the values come in.
            // The sum of `smallint`s or `integer`s is a `bigint`, as in
            // PostgreSQL; of `bigint`s a `numeric`, which holds any sum of
            // them exactly.
            let mut sum: Option<i128> = None;
            for (d, m) in non_null() {
                add_integer(&mut sum, integer("sum", d)?, *m)?;
            }
            integer_sum(func, sum)
        }
        AggregateFunc::Avg => {
            let (mut sum, mut n) = (0i128, 0i128);
            for (d, m) in non_null() {
                let i = integer("avg", d)?;
                let m = i128::from(*m);
                sum = i128::from(i)
                    .checked_mul(m)
                    .and_then(|t| sum.checked_add(t))
                    .ok_or_else(numeric_out_of_range)?;
                n += m;
            }
            if n == 0 {
                return Ok(Datum::Null);
            }
            average(sum, n).map(Datum::Numeric)
        }
        AggregateFunc::SumFloat(width) => {
            let mut sum = FloatSum::default();
            for (d, m) in non_null() {
                sum.add(&FloatSum::of(d, i128::from(*m)));
            }
            Ok(sum.finish(width))
        }
        AggregateFunc::SumNumeric => {
            let mut sum = NumericSum::default();
            for (d, m) in non_null() {
                sum.add(&NumericSum::of(d, i128::from(*m)));
            }
            sum.finish()
        }
        AggregateFunc::Min => Ok(non_null()
            .map(|(d, _)| d)
            .min()
            .cloned()
            .unwrap_or(Datum::Null)),
        AggregateFunc::Max => Ok(non_null()
            .map(|(d, _)| d)
            .max()
            .cloned()
            .unwrap_or(Datum::Null)),
        AggregateFunc::ArrayAgg => array_agg(values),
        AggregateFunc::StringAgg | AggregateFunc::JsonbAgg | AggregateFunc::JsonbObjectAgg => {
            unreachable!("{func:?} is ordered_aggregate's")
        }
    }
}

/// An integer's value, for `name`'s sum; another type is a type error.
pub(super) fn integer(name: &str, d: &Datum) -> Result<i64, DataflowError> {
    match d {
        Datum::Int16(i) => Ok(i64::from(*i)),
        Datum::Int32(i) => Ok(i64::from(*i)),
        Datum::Int64(i) => Ok(*i),
        d => Err(type_error(name, d)),
    }
}

/// Adds `i`, `m` times, to an integer sum accumulated wide, so that only
/// the total can overflow, whatever order the values come in.
pub(super) fn add_integer(sum: &mut Option<i128>, i: i64, m: i64) -> Result<(), DataflowError> {
    let term = i128::from(i) * i128::from(m);
    let total = sum.unwrap_or(0).checked_add(term);
    *sum = Some(total.ok_or_else(sum_out_of_range)?);
    Ok(())
}

/// An integer sum's value: of `bigint`s (`SumInt64`) a `numeric`, of
/// `smallint`s or `integer`s a `bigint`; NULL when nothing was added.
pub(super) fn integer_sum(func: AggregateFunc, sum: Option<i128>) -> Result<Datum, DataflowError> {
    sum.map_or(Ok(Datum::Null), |s| match func {
        AggregateFunc::SumInt64 => Ok(Datum::Numeric(Numeric::from_i128(s))),
        _ => i64::try_from(s)
            .map(Datum::Int64)
            .map_err(|_| sum_out_of_range()),
    })
}

/// `sum / n` (`n > 0`) as the real system's `avg` of integers gives it:
/// the sum divided by the count as numerics, to 39 significant digits
/// (`Numeric::quotient`).
pub fn average(sum: i128, n: i128) -> Result<Numeric, DataflowError> {
    Ok(Numeric::quotient(sum, n))
}

/// A global aggregate's value over no input rows: 0 for counts, else NULL.
pub fn empty_aggregate(func: AggregateFunc) -> Datum {
    match func {
        AggregateFunc::CountAll | AggregateFunc::Count => Datum::Int64(0),
        AggregateFunc::Sum
        | AggregateFunc::SumInt64
        | AggregateFunc::Avg
        | AggregateFunc::SumFloat(_)
        | AggregateFunc::SumNumeric
        | AggregateFunc::Min
        | AggregateFunc::Max
        | AggregateFunc::ArrayAgg
        | AggregateFunc::StringAgg
        | AggregateFunc::JsonbAgg
        | AggregateFunc::JsonbObjectAgg => Datum::Null,
    }
}
