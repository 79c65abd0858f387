//! A table function's rows for one input row's values, as Materialize's
//! `TableFunc::eval` (`src/expr/src/relation/func.rs`) gives them: no rows
//! when any value is NULL, `generate_series` stepping from its start while
//! it has not passed its stop (and stopping, not failing, where the next
//! value would leave its type), `unnest` every element of an array, the
//! jsonb functions what `eval/jsonb.rs` gives.

use super::{interval, jsonb};
use crate::plan::{BinaryOp, TableFunc};
use crate::repr::interval::Interval;
use crate::repr::{DataflowError, Datum, Row};

/// The real system's text for a step of zero (`InvalidParameterValue`).
const ZERO_STEP: &str = "step size cannot equal zero";

/// A function's rows, each made as it is read.
pub type Rows = Box<dyn Iterator<Item = Row>>;

impl TableFunc {
    /// The function's rows (its columns only) for the values `datums`,
    /// made only as they are read (a series may be long, and constant
    /// folding counts only so far).
    pub fn rows(&self, datums: &[Datum]) -> Result<Rows, DataflowError> {
        if datums.iter().any(|d| matches!(d, Datum::Null)) {
            return Ok(Box::new(std::iter::empty()));
        }
        let one = |d: Datum| vec![d];
        Ok(match (self, datums) {
            (
                TableFunc::GenerateSeriesInt32,
                [Datum::Int32(a), Datum::Int32(b), Datum::Int32(s)],
            ) => Box::new(
                series(*a, *b, *s, i32::checked_add)?
                    .map(Datum::Int32)
                    .map(one),
            ),
            (
                TableFunc::GenerateSeriesInt64,
                [Datum::Int64(a), Datum::Int64(b), Datum::Int64(s)],
            ) => Box::new(
                series(*a, *b, *s, i64::checked_add)?
                    .map(Datum::Int64)
                    .map(one),
            ),
            (
                TableFunc::GenerateSeriesTimestamp | TableFunc::GenerateSeriesTimestampTz,
                [start, stop, Datum::Interval(step)],
            ) => Box::new(timestamps(start.clone(), stop.clone(), *step)?.map(one)),
            (TableFunc::UnnestArray, [Datum::Array(a)]) => {
                Box::new(a.elements.clone().into_iter().map(one))
            }
            (
                TableFunc::JsonbEach
                | TableFunc::JsonbEachText
                | TableFunc::JsonbObjectKeys
                | TableFunc::JsonbArrayElements
                | TableFunc::JsonbArrayElementsText,
                [Datum::Jsonb(j)],
            ) => Box::new(jsonb::table_rows(self, j).into_iter()),
            (TableFunc::WithOrdinality(inner), _) => {
                Box::new(inner.rows(datums)?.zip(1..).map(|(mut row, n)| {
                    row.push(Datum::Int64(n));
                    row
                }))
            }
            (_, datums) => {
                return Err(DataflowError::eval(&format!(
                    "invalid arguments for {self:?}: {datums:?}"
                )))
            }
        })
    }
}

/// `num::range_step_inclusive(start, stop, step)`: from `start` by `step`
/// while not past `stop`, ending where the next value overflows.
fn series<N: Copy + Default + PartialOrd + 'static>(
    start: N,
    stop: N,
    step: N,
    add: fn(N, N) -> Option<N>,
) -> Result<impl Iterator<Item = N> + 'static, DataflowError> {
    let zero = N::default();
    if step == zero {
        return Err(DataflowError::eval(ZERO_STEP));
    }
    Ok(stepping(start, stop, step < zero, move |v| add(*v, step)))
}

/// `generate_series_ts`: the timestamps from `start` by `step` (its months
/// on the calendar, then its days and microseconds) while not past `stop`,
/// the direction the step's sign at 30 days a month says; ending where the
/// next one leaves a timestamp's range.
fn timestamps(
    start: Datum,
    stop: Datum,
    step: Interval,
) -> Result<impl Iterator<Item = Datum>, DataflowError> {
    let micros = step.duration_micros();
    if micros == 0 {
        return Err(DataflowError::eval(ZERO_STEP));
    }
    let step = Datum::Interval(step);
    Ok(stepping(
        start,
        stop,
        micros < 0,
        move |value| match interval::binary(BinaryOp::Add, value, &step) {
            Some(Ok(moved)) => Some(moved),
            _ => None,
        },
    ))
}

/// The values from `start`, each the one before moved by `next`, while not
/// past `stop` (below it when `down`); ending where `next` has none.
fn stepping<T: PartialOrd>(
    start: T,
    stop: T,
    down: bool,
    next: impl Fn(&T) -> Option<T>,
) -> impl Iterator<Item = T> {
    let mut value = Some(start);
    std::iter::from_fn(move || {
        let current = value.take().filter(|v| match down {
            true => *v >= stop,
            false => *v <= stop,
        })?;
        value = next(&current);
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::{Int32, Int64, Null};

    fn rows(f: TableFunc, datums: &[Datum]) -> Result<Vec<Row>, DataflowError> {
        f.rows(datums).map(Iterator::collect)
    }

    #[test]
    fn integer_series_step_stop_and_overflow() {
        let ints = |v: &[i32]| v.iter().map(|i| vec![Int32(*i)]).collect::<Vec<_>>();
        let f = || TableFunc::GenerateSeriesInt32;
        assert_eq!(
            rows(f(), &[Int32(1), Int32(3), Int32(1)]),
            Ok(ints(&[1, 2, 3]))
        );
        assert_eq!(
            rows(f(), &[Int32(1), Int32(6), Int32(2)]),
            Ok(ints(&[1, 3, 5]))
        );
        assert_eq!(
            rows(f(), &[Int32(3), Int32(1), Int32(-1)]),
            Ok(ints(&[3, 2, 1]))
        );
        assert_eq!(rows(f(), &[Int32(3), Int32(1), Int32(1)]), Ok(ints(&[])));
        assert_eq!(rows(f(), &[Null, Int32(1), Int32(0)]), Ok(ints(&[])));
        let max = i32::MAX;
        assert_eq!(
            rows(f(), &[Int32(max - 1), Int32(max), Int32(1)]),
            Ok(ints(&[max - 1, max]))
        );
        assert_eq!(
            rows(f(), &[Int32(1), Int32(3), Int32(0)]),
            Err(DataflowError::eval(ZERO_STEP))
        );
        let longs = rows(
            TableFunc::GenerateSeriesInt64,
            &[Int64(i64::MIN), Int64(i64::MIN), Int64(-1)],
        );
        assert_eq!(longs, Ok(vec![vec![Int64(i64::MIN)]]));
    }

    #[test]
    fn ordinality_numbers_the_rows_from_one() {
        let f = TableFunc::WithOrdinality(Box::new(TableFunc::GenerateSeriesInt32));
        assert_eq!(
            rows(f, &[Int32(5), Int32(6), Int32(1)]),
            Ok(vec![vec![Int32(5), Int64(1)], vec![Int32(6), Int64(2)]])
        );
    }

    #[test]
    fn timestamps_stop_at_a_zero_step_and_the_range() {
        let t = |m: i64| Datum::Timestamp(crate::repr::time::DateTime::from_micros(m).unwrap());
        let day = Interval::new(0, 1, 0);
        let count = |a, b, step| timestamps(a, b, step).map(Iterator::count);
        assert_eq!(count(t(0), t(2 * 86_400_000_000), day), Ok(3));
        let zero = Interval::new(1, -30, 0);
        assert_eq!(count(t(0), t(1), zero), Err(DataflowError::eval(ZERO_STEP)));
        let max = crate::repr::time::DateTime::MAX.micros();
        assert_eq!(count(t(max), t(max), day), Ok(1));
    }

    #[test]
    fn jsonb_functions_take_their_kind_and_text_a_null_as_null() {
        let j = |t: &str| Datum::Jsonb(Box::new(crate::repr::jsonb::parse(t).unwrap()));
        let text = |t: &str| Datum::Text(t.into());
        let object = j(r#"{"b": null, "a": [1]}"#);
        assert_eq!(
            rows(TableFunc::JsonbEach, std::slice::from_ref(&object)),
            Ok(vec![vec![text("a"), j("[1]")], vec![text("b"), j("null")]])
        );
        assert_eq!(
            rows(TableFunc::JsonbEachText, std::slice::from_ref(&object)),
            Ok(vec![vec![text("a"), text("[1]")], vec![text("b"), Null]])
        );
        let array = j(r#"["s", null]"#);
        assert_eq!(
            rows(
                TableFunc::JsonbArrayElementsText,
                std::slice::from_ref(&array)
            ),
            Ok(vec![vec![text("s")], vec![Null]])
        );
        for (f, wrong) in [
            (TableFunc::JsonbEach, &array),
            (TableFunc::JsonbObjectKeys, &j("1")),
            (TableFunc::JsonbArrayElements, &object),
            (TableFunc::JsonbArrayElementsText, &j("null")),
        ] {
            assert_eq!(rows(f, std::slice::from_ref(wrong)), Ok(vec![]));
        }
    }
}
