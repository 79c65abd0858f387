//! `extract` and `date_part` as the real system computes them: the part a
//! unit names of a `date` (`extract_date_inner`, `repr/src/adt/timestamp.rs`'s
//! `DateLike`), of a `timestamp` or `timestamp with time zone` (in UTC,
//! `date_part_timestamp_inner`, `TimeLike` and `TimestampLike`), of a
//! `time` (`date_part_time_inner`) and of an
//! `interval` (`date_part_interval_inner`, `repr/src/adt/interval.rs`), read
//! for the facts. Each is computed once, over a number type that is either
//! `f64` (for `date_part`, a `double precision`, in the real system's order
//! of float operations) or an exact decimal (for `extract`, a `numeric`:
//! every part is a whole number or one with at most nine places, so exact).
//! The units are `units.rs`'s; the error texts are the real system's:
//! `unit 'hour' not supported for type date`, and `'timezone' timestamp
//! units not yet supported` for the units it reads and computes nowhere.
//! There is no `julian` or `isoyear`: `unit 'julian' not recognized`.

use super::units::DateTimeUnits;
use super::{civil_from_days, days_from_civil, Date, DateTime, Time, MICROS_PER_DAY};
use crate::repr::interval::Interval;
use crate::repr::numeric::Numeric;

/// Days from 1970-01-01, the Unix epoch, to 2000-01-01.
const UNIX_TO_PG_EPOCH_DAYS: i64 = 10_957;

/// The numbers a part is computed in, as the real system's `DecimalLike`
/// is for its `f64` and `Numeric`: the operations its parts use.
pub trait Decimal: Copy {
    /// An integer.
    fn int(i: i64) -> Self;
    /// `self + other`.
    fn plus(self, other: Self) -> Self;
    /// `self * other`.
    fn times(self, other: Self) -> Self;
    /// `self / 10^places`.
    fn shifted(self, places: u32) -> Self;
}

impl Decimal for f64 {
    // The real system's `lossy_from(i64)` and `From<u32>`: `as`.
    #[allow(clippy::cast_precision_loss)]
    fn int(i: i64) -> f64 {
        i as f64
    }

    fn plus(self, other: f64) -> f64 {
        self + other
    }

    fn times(self, other: f64) -> f64 {
        self * other
    }

    // The divisors are 1e3, 1e6, 1e9 and 1e2: exact as floats.
    #[allow(clippy::cast_precision_loss)]
    fn shifted(self, places: u32) -> f64 {
        self / 10u64.pow(places) as f64
    }
}

/// An exact decimal: `n / 10^places`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exact {
    n: i128,
    places: u32,
}

impl Exact {
    /// `self` with `places` places, the same value.
    fn widened(self, places: u32) -> i128 {
        self.n * 10i128.pow(places - self.places)
    }

    /// The value as a `numeric`, reduced.
    pub fn to_numeric(self) -> Numeric {
        let digits: Vec<u8> = self
            .n
            .unsigned_abs()
            .to_string()
            .bytes()
            .map(|b| b - b'0')
            .collect();
        let exponent = -i32::try_from(self.places).expect("a few places");
        Numeric::from_parts(self.n < 0, &digits, exponent).expect("a part fits a numeric")
    }
}

impl Decimal for Exact {
    fn int(i: i64) -> Exact {
        Exact {
            n: i128::from(i),
            places: 0,
        }
    }

    fn plus(self, other: Exact) -> Exact {
        let places = self.places.max(other.places);
        Exact {
            n: self.widened(places) + other.widened(places),
            places,
        }
    }

    fn times(self, other: Exact) -> Exact {
        Exact {
            n: self.n * other.n,
            places: self.places + other.places,
        }
    }

    fn shifted(self, places: u32) -> Exact {
        Exact {
            places: self.places + places,
            ..self
        }
    }
}

/// The real system's text for a unit it reads and computes for no type.
fn not_yet_supported(unit: DateTimeUnits) -> String {
    format!("'{}' timestamp units not yet supported", unit.name())
}

/// The real system's text for a unit it computes for other types.
fn not_supported_for(unit: DateTimeUnits, typ: &str) -> String {
    format!("unit '{}' not supported for type {typ}", unit.name())
}

/// The parts of a day the real system's `DateLike` computes, of `days`
/// since 2000-01-01: `None` for a unit that is not one of them.
fn date_part<D: Decimal>(unit: DateTimeUnits, days: i64) -> Option<D> {
    use DateTimeUnits::*;
    let (year, month, day) = civil_from_days(days);
    // Monday is 0; 2000-01-01 was a Saturday.
    let weekday = (days + 5).rem_euclid(7);
    let part = match unit {
        Epoch => (days + UNIX_TO_PG_EPOCH_DAYS) * 86_400,
        // Rust's `/` truncates, as the real system's does.
        Millennium => (year + if year > 0 { 999 } else { -1_000 }) / 1_000,
        Century => (year + if year > 0 { 99 } else { -100 }) / 100,
        Decade => year.div_euclid(10),
        // Year 0 is 1 BC, as chrono's `year()` counts.
        Year => year,
        Quarter => i64::from((month - 1) / 3 + 1),
        Week => iso_week(days, weekday),
        Month => i64::from(month),
        Day => i64::from(day),
        DayOfWeek => (weekday + 1) % 7,
        DayOfYear => days - days_from_civil(year, 1, 1) + 1,
        IsoDayOfWeek => weekday + 1,
        _ => return None,
    };
    Some(D::int(part))
}

/// The ISO week of the day `days` since 2000-01-01, whose weekday is
/// `weekday` (Monday 0): the week of its ISO year, the one that holds its
/// Thursday, counted from the week holding that year's January 4th.
fn iso_week(days: i64, weekday: i64) -> i64 {
    let thursday = days - weekday + 3;
    let (iso_year, _, _) = civil_from_days(thursday);
    (thursday - days_from_civil(iso_year, 1, 1)) / 7 + 1
}

/// `extract(unit FROM date)`, a `numeric` (`extract_date_inner`).
pub fn extract_date(unit: DateTimeUnits, date: Date) -> Result<Numeric, String> {
    use DateTimeUnits::*;
    match unit {
        Hour | Minute | Second | Milliseconds | Microseconds => {
            Err(not_supported_for(unit, "date"))
        }
        _ => date_part::<Exact>(unit, i64::from(date.days()))
            .map(Exact::to_numeric)
            .ok_or_else(|| not_yet_supported(unit)),
    }
}

/// The part `unit` of a `timestamp`, or of a `timestamptz`'s UTC time
/// (`date_part_timestamp_inner`).
pub fn timestamp_part<D: Decimal>(unit: DateTimeUnits, ts: DateTime) -> Result<D, String> {
    use DateTimeUnits::*;
    let micros = ts.micros();
    let days = micros.div_euclid(MICROS_PER_DAY);
    let time = micros.rem_euclid(MICROS_PER_DAY);
    let (second, nanos) = (time / 1_000_000 % 60, time % 1_000_000 * 1_000);
    // The whole seconds in `scale`ths, then the nanoseconds as those
    // (`extract_second`, `extract_millisecond`, `extract_microsecond`).
    let seconds =
        |scale: i64, places: u32| D::int(second * scale).plus(D::int(nanos).shifted(places));
    Ok(match unit {
        Epoch => {
            let unix = micros + UNIX_TO_PG_EPOCH_DAYS * MICROS_PER_DAY;
            let (whole, fraction) = (unix.div_euclid(1_000_000), unix.rem_euclid(1_000_000));
            D::int(whole).plus(D::int(fraction).shifted(6))
        }
        Hour => D::int(time / 3_600_000_000),
        Minute => D::int(time / 60_000_000 % 60),
        Second => seconds(1, 9),
        Milliseconds => seconds(1_000, 6),
        Microseconds => seconds(1_000_000, 3),
        _ => date_part(unit, days).ok_or_else(|| not_yet_supported(unit))?,
    })
}

/// The part `unit` of a `time` (`date_part_time_inner`): its epoch (the
/// seconds since midnight), hour, minute and seconds as a timestamp's;
/// a unit of a date `not supported for type time`.
pub fn time_part<D: Decimal>(unit: DateTimeUnits, t: Time) -> Result<D, String> {
    use DateTimeUnits::*;
    let at = DateTime::from_micros(t.micros()).expect("a time of 2000-01-01");
    match unit {
        Epoch => {
            let seconds = t.micros() / 1_000_000;
            let minutes = D::int(seconds - seconds % 60);
            let second = timestamp_part::<D>(Second, at)?;
            Ok(minutes.plus(second))
        }
        Hour | Minute | Second | Milliseconds | Microseconds => timestamp_part(unit, at),
        Timezone | TimezoneHour | TimezoneMinute => Err(not_yet_supported(unit)),
        _ => Err(not_supported_for(unit, "time")),
    }
}

/// The part `unit` of an interval (`date_part_interval_inner`): its months
/// give years and the larger units (whole ones, truncated toward zero),
/// the quarter and the month (of the year, `months % 12`); its days the
/// day; its microseconds the hour (of the day, `% 24`), minute (`% 60`)
/// and the seconds of the minute; its epoch counts a year as 365.25 days
/// and a month as 30, as PostgreSQL's does.
pub fn interval_part<D: Decimal>(unit: DateTimeUnits, iv: Interval) -> Result<D, String> {
    use DateTimeUnits::*;
    let months = i64::from(iv.months);
    let of_minute = iv.micros % 60_000_000;
    Ok(match unit {
        Epoch => {
            let days = D::int(months / 12)
                .times(D::int(36_525).shifted(2))
                .plus(D::int(months % 12).times(D::int(30)))
                .plus(D::int(i64::from(iv.days)));
            let seconds = days.times(D::int(24)).times(D::int(60)).times(D::int(60));
            seconds.plus(D::int(iv.micros).shifted(6))
        }
        Millennium => D::int(months / 12_000),
        Century => D::int(months / 1_200),
        Decade => D::int(months / 120),
        Year => D::int(months / 12),
        Quarter => D::int(months % 12 / 3 + 1),
        Month => D::int(months % 12),
        Day => D::int(i64::from(iv.days)),
        Hour => D::int(iv.micros / 3_600_000_000 % 24),
        Minute => D::int(iv.micros / 60_000_000 % 60),
        Second => D::int(of_minute).shifted(6),
        Milliseconds => D::int(of_minute).shifted(3),
        Microseconds => D::int(of_minute),
        Week | Timezone | TimezoneHour | TimezoneMinute | DayOfWeek | DayOfYear | IsoDayOfWeek
        | IsoDayOfYear => return Err(not_yet_supported(unit)),
    })
}

#[cfg(test)]
mod tests;
