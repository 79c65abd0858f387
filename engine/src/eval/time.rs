//! `date` and `timestamp` evaluated as the real system's functions do
//! (`expr/src/scalar/func/impls/date.rs`, `timestamp.rs`, `string.rs`):
//! `date - date` (`sub_date`, an `integer`), and the casts between a
//! `date`, a `timestamp` and a string (`date_to_timestamp`, failing with
//! `timestamp out of range` before 4714-12-31 BC; `timestamp_to_date`;
//! `text_to_date` and `text_to_timestamp` by `repr::time`'s reading),
//! and those of a `timestamp with time zone` under the session time zone
//! UTC, where it is the `timestamp` of the same instant
//! (`cast_timestamp_to_timestamp_tz`, `cast_timestamp_tz_to_timestamp`,
//! `cast_date_to_timestamp_tz`, `cast_timestamp_tz_to_date`), and those
//! of a `time` (`timestamp.rs`, `interval.rs`, `time.rs`): a timestamp's
//! time of day, an interval's microseconds wrapped around midnight (its
//! months and days dropped), and a `time` as an interval of microseconds;
//! and the arithmetic of a `time` (`add_time_interval`,
//! `sub_time_interval`, `sub_time`, `add_date_time`).
//! A cast to a string is its rendering (`cast.rs`). `date_trunc` is
//! `repr::time::units`'s, and `extract` and `date_part` are
//! `repr::time::parts`'s (`apply`), but for the error of a literal unknown
//! unit, decided before any row (`literal_unit_error`). The operators and
//! the reading of an `interval` are `interval.rs`'s, reached from here.

use super::interval;
use crate::plan::{BinaryOp, Func, ScalarExpr};
use crate::repr::interval::Interval;
use crate::repr::time::parts::{extract_date, interval_part, time_part, timestamp_part, Exact};
use crate::repr::time::units::{date_trunc, DateTimeUnits};
use crate::repr::time::{
    parse_date, parse_time, parse_timestamp, parse_timestamptz, DateTime, Time,
};
use crate::repr::{DataflowError, Datum, ScalarType, F64};

/// `date - date`, the arithmetic of a `time`, and the operators over an
/// interval (`None` for any other operator or operands).
pub fn binary(op: BinaryOp, l: &Datum, r: &Datum) -> Option<Result<Datum, DataflowError>> {
    use BinaryOp::{Add, Sub};
    use Datum::{Date, Interval as I, Time as T};
    let micros = |t: &Time| i128::from(t.micros());
    Some(Ok(match (op, l, r) {
        (Sub, Date(a), Date(b)) => Datum::Int32(a.minus(*b)),
        // `add_time_interval` and `sub_time_interval`: the days and
        // microseconds, wrapped around midnight; the months ignored.
        (Add, T(t), I(i)) | (Add, I(i), T(t)) => {
            T(Time::wrapping(micros(t) + interval::duration(i)))
        }
        (Sub, T(t), I(i)) => T(Time::wrapping(micros(t) - interval::duration(i))),
        // `sub_time`: an interval of microseconds only.
        (Sub, T(a), T(b)) => I(Interval::new(0, 0, a.micros() - b.micros())),
        // `add_date_time`: the date's midnight and the time, within a
        // timestamp's range.
        (Add, Date(d), T(t)) | (Add, T(t), Date(d)) => {
            return Some(
                DateTime::from_micros(d.midnight_micros() + t.micros())
                    .map(Datum::Timestamp)
                    .ok_or_else(|| DataflowError::eval("timestamp out of range")),
            )
        }
        _ => return interval::binary(op, l, r),
    }))
}

/// A string read as a `date`, `timestamp`, `timestamptz`, `interval` or
/// `time` (`None` for other types).
pub fn parse(s: &str, to: ScalarType) -> Option<Result<Datum, String>> {
    match to {
        ScalarType::Date => Some(parse_date(s).map(Datum::Date)),
        ScalarType::Timestamp => Some(parse_timestamp(s).map(Datum::Timestamp)),
        ScalarType::TimestampTz => Some(parse_timestamptz(s).map(Datum::TimestampTz)),
        ScalarType::Interval => Some(interval::parse(s)),
        ScalarType::Time => Some(parse_time(s).map(Datum::Time)),
        _ => None,
    }
}

/// Whether the real system casts `from` to `to` where one is a `date`, a
/// `timestamp` or a `timestamptz` (`typeconv.rs`): each to the others (a
/// `date` to a later one and a `timestamp` to a `timestamptz`
/// implicitly) and to a string. From a string only a literal
/// is read (at planning, `Typed::coerce`): a cast of a string computed by
/// a row is refused, so that no input outside `repr::time`'s forms can
/// reach a dataflow.
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::{Date, Interval, Text, Time, Timestamp, TimestampTz};
    let instant = |t| matches!(t, Date | Timestamp | TimestampTz);
    (instant(from) && instant(to))
        || matches!(
            (from, to),
            (Date | Timestamp | TimestampTz | Interval | Time, Text)
                | (Timestamp | TimestampTz | Interval, Time)
                | (Time, Interval)
        )
}

/// Whether `t` is a `date`, a `timestamp`, a `timestamptz`, an
/// `interval` or a `time`.
pub fn is_time(t: ScalarType) -> bool {
    matches!(
        t,
        ScalarType::Date
            | ScalarType::Timestamp
            | ScalarType::TimestampTz
            | ScalarType::Interval
            | ScalarType::Time
    )
}

/// The casts between a `date`, a `timestamp` and a `timestamptz`, of each
/// to its own type, and those of a `time` (`None` for others).
pub fn cast(d: &Datum, to: ScalarType) -> Option<Result<Datum, String>> {
    use ScalarType::{Date, Timestamp, TimestampTz};
    match (d, to) {
        (Datum::Date(d), Timestamp) => Some(d.to_timestamp().map(Datum::Timestamp)),
        (Datum::Date(d), TimestampTz) => Some(d.to_timestamp().map(Datum::TimestampTz)),
        (Datum::Timestamp(t) | Datum::TimestampTz(t), Date) => Some(Ok(Datum::Date(t.date()))),
        (Datum::Timestamp(t) | Datum::TimestampTz(t), Timestamp) => Some(Ok(Datum::Timestamp(*t))),
        (Datum::Timestamp(t) | Datum::TimestampTz(t), TimestampTz) => {
            Some(Ok(Datum::TimestampTz(*t)))
        }
        (Datum::Date(_), Date)
        | (Datum::Interval(_), ScalarType::Interval)
        | (Datum::Time(_), ScalarType::Time) => Some(Ok(d.clone())),
        // The time of day of the instant (in UTC for a `timestamptz`).
        (Datum::Timestamp(t) | Datum::TimestampTz(t), ScalarType::Time) => {
            Some(Ok(Datum::Time(Time::wrapping(t.micros().into()))))
        }
        // Its microseconds around midnight, the months and days dropped.
        (Datum::Interval(i), ScalarType::Time) => {
            Some(Ok(Datum::Time(Time::wrapping(i.micros.into()))))
        }
        (Datum::Time(t), ScalarType::Interval) => {
            Some(Ok(Datum::Interval(Interval::new(0, 0, t.micros()))))
        }
        _ => None,
    }
}

/// The error of `date_trunc`, `extract` or `date_part` with a literal unit
/// the real system does not know, before any argument is evaluated: its
/// optimizer replaces such a call by the literal error `unit 'x' not
/// recognized` (`reduce`), which every row then gives, one whose value is
/// NULL too.
pub fn literal_unit_error(func: Func, args: &[ScalarExpr]) -> Option<DataflowError> {
    match (func, args.first()) {
        (
            Func::DateTrunc | Func::Extract | Func::DatePart,
            Some(ScalarExpr::Literal(Datum::Text(units))),
        ) => unit(units).err(),
        _ => None,
    }
}

/// The unit `units` names, or the real system's error.
fn unit(units: &str) -> Result<DateTimeUnits, DataflowError> {
    DateTimeUnits::parse(units)
        .ok_or_else(|| DataflowError::eval(&format!("unit '{units}' not recognized")))
}

/// `date_trunc`, `extract` or `date_part` of non-NULL arguments (`None`
/// for another function).
pub fn apply(func: Func, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    let [Datum::Text(units), value] = args else {
        return None;
    };
    let result = match (func, value) {
        (Func::DateTrunc, Datum::Timestamp(ts)) => date_trunc(units, *ts).map(Datum::Timestamp),
        (Func::DateTrunc, Datum::TimestampTz(ts)) => date_trunc(units, *ts).map(Datum::TimestampTz),
        (Func::Extract | Func::DatePart, _) => {
            let unit = match unit(units) {
                Ok(unit) => unit,
                Err(e) => return Some(Err(e)),
            };
            part(func, unit, value)?
        }
        _ => return None,
    };
    Some(result.map_err(|e| DataflowError::eval(&e)))
}

/// `extract` (a `numeric`) or `date_part` (a `double precision`) of
/// `value` (`None` for a type neither takes).
fn part(func: Func, unit: DateTimeUnits, value: &Datum) -> Option<Result<Datum, String>> {
    let numeric = |n: Exact| Datum::Numeric(n.to_numeric());
    let float = |f: f64| Datum::Float64(F64::new(f));
    Some(match (func, value) {
        (Func::Extract, Datum::Date(d)) => extract_date(unit, *d).map(Datum::Numeric),
        (Func::Extract, Datum::Timestamp(ts) | Datum::TimestampTz(ts)) => {
            timestamp_part(unit, *ts).map(numeric)
        }
        (Func::Extract, Datum::Interval(iv)) => interval_part(unit, *iv).map(numeric),
        (Func::Extract, Datum::Time(t)) => time_part(unit, *t).map(numeric),
        (Func::DatePart, Datum::Time(t)) => time_part(unit, *t).map(float),
        (Func::DatePart, Datum::Timestamp(ts) | Datum::TimestampTz(ts)) => {
            timestamp_part(unit, *ts).map(float)
        }
        (Func::DatePart, Datum::Interval(iv)) => interval_part(unit, *iv).map(float),
        _ => return None,
    })
}
