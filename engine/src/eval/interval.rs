//! `interval` evaluated as the real system's functions do
//! (`expr/src/scalar/func.rs`, read for the facts): `interval ±
//! interval` (`add_interval`, `sub_interval`), `- interval`, `interval *
//! double` and `/ double` (`mul_interval`, `div_interval`), `timestamp ±
//! interval` and `date ± interval` (a `timestamp`: the months moved on
//! the calendar first, then the days and microseconds added), and
//! `timestamp - timestamp` (`sub_timestamp`: an interval of microseconds
//! only, never days); a `timestamptz`'s, under the session time zone UTC,
//! as its `timestamp`'s (`add_timestamplike_interval` and `sub_timestamp_tz`
//! are the same functions of the same instants). The planner casts a number beside an interval to a
//! `double precision` first, as the real system's overloads do.

use super::errors::value_out_of_range;
use crate::plan::BinaryOp;
use crate::repr::interval::{parse_interval, Interval};
use crate::repr::time::{add_months, DateTime};
use crate::repr::{DataflowError, Datum, ScalarType};

fn out_of_range(detail: impl std::fmt::Display) -> DataflowError {
    DataflowError::eval(&value_out_of_range(ScalarType::Interval, detail))
}

fn timestamp_out_of_range() -> DataflowError {
    DataflowError::eval("timestamp out of range")
}

/// `- interval` (`neg_interval`).
pub fn negate(i: Interval) -> Result<Datum, DataflowError> {
    i.checked_neg()
        .map(Datum::Interval)
        .ok_or_else(|| out_of_range(i))
}

/// The operators over an interval (`None` for other operands).
pub fn binary(op: BinaryOp, l: &Datum, r: &Datum) -> Option<Result<Datum, DataflowError>> {
    use BinaryOp::{Add, Div, Mul, Sub};
    use Datum::{Date, Float64, Interval as I, Timestamp, TimestampTz};
    Some(match (op, l, r) {
        (Add, I(a), I(b)) => a
            .checked_add(*b)
            .map(I)
            .ok_or_else(|| out_of_range(format!("{a} + {b}"))),
        (Sub, I(a), I(b)) => b
            .checked_neg()
            .and_then(|nb| nb.checked_add(*a))
            .map(I)
            .ok_or_else(|| out_of_range(format!("{a} - {b}"))),
        (Mul, I(a), Float64(f)) | (Mul, Float64(f), I(a)) => {
            let f = f.get();
            a.checked_mul(f)
                .map(I)
                .ok_or_else(|| out_of_range(format!("{a} * {f}")))
        }
        (Div, I(a), Float64(f)) => {
            let f = f.get();
            if f == 0.0 {
                Err(super::errors::division_by_zero())
            } else {
                a.checked_div(f)
                    .map(I)
                    .ok_or_else(|| out_of_range(format!("{a} / {f}")))
            }
        }
        (Add, Timestamp(t), I(i)) | (Add, I(i), Timestamp(t)) => {
            shifted(t.micros(), i.months, duration(i)).map(Timestamp)
        }
        (Add, TimestampTz(t), I(i)) | (Add, I(i), TimestampTz(t)) => {
            shifted(t.micros(), i.months, duration(i)).map(TimestampTz)
        }
        // The real system negates the whole interval first.
        (Sub, Timestamp(t) | TimestampTz(t), I(i)) => match i.checked_neg() {
            Some(n) => shifted(t.micros(), n.months, duration(&n)).map(|t| match l {
                TimestampTz(_) => TimestampTz(t),
                _ => Timestamp(t),
            }),
            None => Err(out_of_range(i)),
        },
        (Add, Date(d), I(i)) | (Add, I(i), Date(d)) => {
            shifted(d.midnight_micros(), i.months, duration(i)).map(Timestamp)
        }
        // The real system negates only the months, then subtracts the
        // days and microseconds.
        (Sub, Date(d), I(i)) => match i.months.checked_neg() {
            Some(months) => shifted(d.midnight_micros(), months, -duration(i)).map(Timestamp),
            None => Err(out_of_range(i.months)),
        },
        (Sub, Timestamp(a), Timestamp(b)) | (Sub, TimestampTz(a), TimestampTz(b)) => {
            Ok(I(Interval::new(0, 0, a.micros() - b.micros())))
        }
        _ => return None,
    })
}

/// An interval's days and microseconds as microseconds (its
/// `duration_as_chrono`: a day is 24 hours).
pub(super) fn duration(i: &Interval) -> i128 {
    i128::from(i.days) * 86_400_000_000 + i128::from(i.micros)
}

/// `micros` moved by `months` on the calendar, then by `delta`
/// microseconds, each step within a timestamp's range
/// (`add_timestamplike_interval`, `add_date_interval`).
fn shifted(micros: i64, months: i32, delta: i128) -> Result<DateTime, DataflowError> {
    let moved = add_months(micros, months).ok_or_else(timestamp_out_of_range)?;
    i64::try_from(i128::from(moved.micros()) + delta)
        .ok()
        .and_then(DateTime::from_micros)
        .ok_or_else(timestamp_out_of_range)
}

/// A string read as an `interval`.
pub fn parse(s: &str) -> Result<Datum, String> {
    parse_interval(s).map(Datum::Interval)
}
