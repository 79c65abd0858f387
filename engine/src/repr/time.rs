//! `date` and `timestamp` (without time zone) as the real system has them
//! (its `repr/src/adt/date.rs`, `timestamp.rs`, `datetime.rs` and
//! `strconv.rs`, read for the facts): their ranges, how a string is read
//! as one, and how one is shown.
//!
//! A `Date` is a count of days since 2000-01-01 (PostgreSQL's epoch), in
//! the proleptic Gregorian calendar, where year 0 is 1 BC; it ranges from
//! 4714-11-24 BC to 262142-12-31. A `DateTime` (a `timestamp`) is a count
//! of microseconds since 2000-01-01 00:00:00, its date from 4714-12-31 BC
//! to 262142-12-31: the real system keeps nanoseconds but rounds every
//! `timestamp` it makes to microseconds (`round_to_precision`), so the two
//! hold the same values. Both order, hash and pack as their counts.
//!
//! A string is read exactly as the real system's `parse_timestamp_string`
//! reads it, for the three types alike: `epoch`, or a date (`Y-M-D`,
//! `Y M-D`, `Y M D`, any punctuation a space, or `YYYYMMDD`, `YYYMMDD`,
//! `YYMMDD`), an optional `T`, a time of day from its hour (`H:M`,
//! `H:M:S`, `H:M:S.F`, nine places of the fraction kept), an era ` BC` or
//! ` AD` and a time zone, which a `date` and a `timestamp` check and drop
//! (`fields`, with the interval reader's tokens, and `zone`), with its
//! texts for every failure. Refused by name: a named time zone other than
//! `UTC` (the engine has no zone database), a zone of another form than
//! `zone` reads (`unsupported: <type> input format`), and a leap second
//! (`23:59:60`) in a `timestamp`. `infinity` is an error, as in the real
//! system, which has no infinite dates or timestamps. A `time`, a time of
//! day alone, is `of_day`'s.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{quoted, unsupported};
pub use of_day::{parse_time, Time};

/// Days from 0000-03-01 to 2000-01-01: the shift from `days_from_civil`'s
/// epoch to PostgreSQL's.
const DAYS_TO_PG_EPOCH: i64 = 730_425;
const MICROS_PER_DAY: i64 = 86_400_000_000;

/// A `date`: days since 2000-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Date(i32);

/// A `timestamp` (without time zone): microseconds since 2000-01-01 00:00:00.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DateTime(i64);

impl Date {
    /// 4714-11-24 BC, the real system's `Date::LOW_DAYS`.
    pub const MIN: Date = Date(-2_451_545);
    /// 262142-12-31, the real system's `Date::HIGH_DAYS`.
    pub const MAX: Date = Date(95_015_279);

    /// The date `days` after 2000-01-01, if within the range.
    pub fn from_days(days: i64) -> Option<Date> {
        let days = i32::try_from(days).ok()?;
        (Date::MIN.0..=Date::MAX.0)
            .contains(&days)
            .then_some(Date(days))
    }

    /// Days since 2000-01-01.
    pub fn days(self) -> i32 {
        self.0
    }

    /// `self - other` in days (the real system's `date - date`, an
    /// `integer`: the range keeps it from overflowing).
    pub fn minus(self, other: Date) -> i32 {
        self.0 - other.0
    }

    /// Microseconds from 2000-01-01 00:00:00 to midnight of the date
    /// (before a `timestamp`'s range for the first weeks of 4714 BC).
    pub fn midnight_micros(self) -> i64 {
        i64::from(self.0) * MICROS_PER_DAY
    }

    /// Midnight of the date, or `timestamp out of range` before 4714-12-31 BC.
    pub fn to_timestamp(self) -> Result<DateTime, String> {
        DateTime::from_micros(i64::from(self.0) * MICROS_PER_DAY)
            .ok_or_else(|| "timestamp out of range".to_string())
    }
}

impl DateTime {
    /// 4714-12-31 BC 00:00:00, the real system's `LOW_DATE` (chrono's
    /// year -4713, which its comment calls 4713 BC).
    pub const MIN: DateTime = DateTime(-2_451_508 * MICROS_PER_DAY);
    /// 262142-12-31 23:59:59.999999, the last instant of its `HIGH_DATE`.
    pub const MAX: DateTime = DateTime((95_015_279 + 1) * MICROS_PER_DAY - 1);

    /// The timestamp `micros` after 2000-01-01 00:00:00, if within the range.
    pub fn from_micros(micros: i64) -> Option<DateTime> {
        (DateTime::MIN.0..=DateTime::MAX.0)
            .contains(&micros)
            .then_some(DateTime(micros))
    }

    /// Microseconds since 2000-01-01 00:00:00.
    pub fn micros(self) -> i64 {
        self.0
    }

    /// Nanoseconds since 1970-01-01 00:00:00, if they fit an `i64`, as
    /// the real system's row encoding computes them (whole seconds times
    /// 10^9, checked, plus the nanoseconds of the second).
    pub fn unix_nanos(self) -> Option<i64> {
        let micros = self.0 + 10_957 * MICROS_PER_DAY;
        let seconds = micros.div_euclid(1_000_000);
        let nanos = micros.rem_euclid(1_000_000) * 1000;
        seconds.checked_mul(1_000_000_000)?.checked_add(nanos)
    }

    /// The year (year 0 is 1 BC), the day of the year (from 1), the
    /// seconds since midnight and the nanoseconds of the second: the
    /// parts the real system's row encoding keeps of a timestamp too far
    /// from 1970 for `unix_nanos`.
    pub fn parts(self) -> (i32, u32, u32, u32) {
        let days = self.0.div_euclid(MICROS_PER_DAY);
        let micros = self.0.rem_euclid(MICROS_PER_DAY);
        let (year, _, _) = civil_from_days(days);
        let ordinal = days - days_from_civil(year, 1, 1) + 1;
        let part = |v: i64| u32::try_from(v).expect("a part of a day");
        (
            i32::try_from(year).expect("a year within the range"),
            part(ordinal),
            part(micros / 1_000_000),
            part(micros % 1_000_000 * 1000),
        )
    }

    /// The date of the timestamp (always within a date's range).
    pub fn date(self) -> Date {
        Date(i32::try_from(self.0.div_euclid(MICROS_PER_DAY)).expect("a timestamp's date"))
    }
}

/// The instant `micros` after 2000-01-01 00:00:00 moved by `months`
/// calendar months as the real system's `add_timestamp_months` moves it:
/// the year and month change, the day saturates to the last of a shorter
/// month (January 31st and a month is February's last day), the time of
/// day stays; `None` when the result (or, for no months, the instant
/// itself) is outside a `timestamp`'s range.
pub fn add_months(micros: i64, months: i32) -> Option<DateTime> {
    if months == 0 {
        return DateTime::from_micros(micros);
    }
    let days = micros.div_euclid(MICROS_PER_DAY);
    let time = micros.rem_euclid(MICROS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let mut year = year + i64::from(months / 12);
    let mut months = months % 12;
    if months < 0 {
        year -= 1;
        months += 12;
    }
    let month0 = i64::from(month) - 1 + i64::from(months);
    year += month0 / 12;
    let month = u32::try_from(month0 % 12 + 1).expect("a month");
    let day = day.min(days_in_month(year, month));
    let days = days_from_civil(year, month, day);
    DateTime::from_micros(days.checked_mul(MICROS_PER_DAY)?.checked_add(time)?)
}

/// The timestamp of a text of exactly the form `YYYY-MM-DDTHH:MM:SS.mmmZ`,
/// ASCII digits in every place, a real date and time of day; `None` for
/// any other text. The real system's `try_parse_monotonic_iso8601_timestamp`
/// (its `persist-types/src/timestamp.rs`) reads only this form, so that
/// the texts' order is their timestamps' order.
pub fn parse_monotonic_iso8601(s: &str) -> Option<DateTime> {
    let b = s.as_bytes();
    if b.len() != 24 || !s.is_ascii() {
        return None;
    }
    let int = |at: usize, digits: usize| -> Option<u32> {
        b[at..at + digits].iter().try_fold(0u32, |acc, d| {
            d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
        })
    };
    let punctuation = [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
        (23, b'Z'),
    ];
    if punctuation.iter().any(|(at, c)| b[*at] != *c) {
        return None;
    }
    let (year, month, day) = (int(0, 4)?, int(5, 2)?, int(8, 2)?);
    let (hour, minute, second, milli) = (int(11, 2)?, int(14, 2)?, int(17, 2)?, int(20, 3)?);
    let year = i64::from(year);
    let date_ok = (1..=12).contains(&month) && (1..=days_in_month(year, month)).contains(&day);
    if !date_ok || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let seconds = i64::from(hour * 3600 + minute * 60 + second);
    let micros = seconds * 1_000_000 + i64::from(milli) * 1000;
    DateTime::from_micros(days_from_civil(year, month, day) * MICROS_PER_DAY + micros)
}

/// Days since 2000-01-01 of a proleptic Gregorian date (year 0 is 1 BC),
/// by Howard Hinnant's `days_from_civil`.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - DAYS_TO_PG_EPOCH
}

/// The year, month and day of `days` since 2000-01-01 (`civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + DAYS_TO_PG_EPOCH;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).expect("a day");
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).expect("a month");
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Writes the date part as the real system's `format_date` does: the
/// year of the era to at least four digits, then ` BC` (by the caller,
/// after any time) when before year 1.
fn write_date(f: &mut fmt::Formatter<'_>, days: i64) -> Result<bool, fmt::Error> {
    let (year, month, day) = civil_from_days(days);
    let (ad, year) = if year >= 1 {
        (true, year)
    } else {
        (false, 1 - year)
    };
    write!(f, "{year:04}-{month:02}-{day:02}")?;
    Ok(ad)
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !write_date(f, i64::from(self.0))? {
            write!(f, " BC")?;
        }
        Ok(())
    }
}

impl fmt::Display for DateTime {
    /// `YYYY-MM-DD HH:MM:SS`, then the fraction of a second without its
    /// trailing zeros (none when whole), then ` BC`: the real system's
    /// `format_timestamp`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_timestamp(f, self.0, "")
    }
}

/// A `timestamp with time zone` shown in the session time zone, UTC:
/// as its `timestamp`, with `+00` before any ` BC` (the real system's
/// `format_timestamptz`).
pub struct WithTimeZone(pub DateTime);

impl fmt::Display for WithTimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_timestamp(f, self.0 .0, "+00")
    }
}

/// Writes the timestamp `micros` since 2000-01-01 (see `DateTime`'s
/// `Display`), `zone` after the time and before any ` BC`.
fn write_timestamp(f: &mut fmt::Formatter<'_>, micros: i64, zone: &str) -> fmt::Result {
    let ad = write_date(f, micros.div_euclid(MICROS_PER_DAY))?;
    let micros = micros.rem_euclid(MICROS_PER_DAY);
    let seconds = micros / 1_000_000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    write!(f, " {h:02}:{m:02}:{s:02}")?;
    let fraction = format!("{:06}", micros % 1_000_000);
    let fraction = fraction.trim_end_matches('0');
    if !fraction.is_empty() {
        write!(f, ".{fraction}")?;
    }
    f.write_str(zone)?;
    if !ad {
        write!(f, " BC")?;
    }
    Ok(())
}

/// Which of the types a string is read as.
#[derive(Clone, Copy)]
enum Kind {
    Date,
    Timestamp,
    TimestampTz,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::Timestamp => "timestamp",
            Kind::TimestampTz => "timestamp with time zone",
        }
    }
}

/// Reads `s` as the real system's `parse_timestamp_string` reads it
/// (`epoch`, or a date and time of day (`fields`) and a time zone
/// (`zone`)): the days and microseconds (rounded from nanoseconds by the
/// seventh digit) since 2000-01-01 as written, and the zone's offset east
/// of UTC in seconds, or its error texts, in its order. A zone the engine
/// does not read, and a leap second in a `timestamp`, are refused.
fn read(s: &str, kind: Kind) -> Result<(i64, i64, i64), String> {
    let name = kind.name();
    let invalid = |detail: String| {
        format!(
            "invalid input syntax for type {name}: {detail}: {}",
            quoted(s)
        )
    };
    if s.is_empty() {
        return Err(invalid("timestamp string is empty".into()));
    }
    if s == "epoch" {
        return Ok((days_from_civil(1970, 1, 1), 0, 0));
    }
    let (datetime, zone, bc) = zone::split(s);
    let f = fields::timestamp(datetime, bc).map_err(invalid)?;
    let offset =
        zone::offset(zone)?.ok_or_else(|| unsupported(format!("{name} input format: \"{s}\"")))?;
    if f.nanos >= 1_000_000_000 && !matches!(kind, Kind::Date) {
        // The real system reads it as a leap second (59 and a second's
        // worth of nanoseconds), which the engine does not model.
        return Err(unsupported(format!("leap second in {name} input: \"{s}\"")));
    }
    let days = days_from_civil(f.year, f.month, f.day);
    let seconds = i64::from(f.hour * 3600 + f.minute * 60 + f.second);
    let mut micros = seconds * 1_000_000 + i64::from(f.nanos / 1000);
    if (f.nanos % 1000) / 100 >= 5 {
        micros += 1;
    }
    Ok((days, micros, offset))
}

/// `s` read as a `date` (its time, if any, dropped), with the real
/// system's texts.
pub fn parse_date(s: &str) -> Result<Date, String> {
    let (days, _, _) = read(s, Kind::Date)?;
    Date::from_days(days).ok_or_else(|| format!("{} is out of range for type date", quoted(s)))
}

/// `s` read as a `timestamp`, rounded to microseconds, with the real
/// system's texts.
pub fn parse_timestamp(s: &str) -> Result<DateTime, String> {
    let (days, micros, _) = read(s, Kind::Timestamp)?;
    let out_of_range = || format!("{} is out of range for type timestamp", quoted(s));
    // The range is checked on the date before rounding, as the real
    // system's `from_timestamplike` does; rounding up a last instant of
    // 9999-12-31 stays within it.
    let midnight = DateTime::from_micros(days * MICROS_PER_DAY).ok_or_else(out_of_range)?;
    DateTime::from_micros(midnight.0 + micros).ok_or_else(out_of_range)
}

/// `s` read as a `timestamp with time zone` as the real system's
/// `parse_timestamptz` reads it: its time zone, if any, a numeric offset
/// or `UTC` (`zone`), the instant converted to UTC and rounded to
/// microseconds, with the real system's texts.
pub fn parse_timestamptz(s: &str) -> Result<DateTime, String> {
    let (days, micros, offset) = read(s, Kind::TimestampTz)?;
    let out_of_range = || {
        format!(
            "{} is out of range for type timestamp with time zone",
            quoted(s)
        )
    };
    let utc = days * MICROS_PER_DAY + micros - offset * 1_000_000;
    DateTime::from_micros(utc).ok_or_else(out_of_range)
}

mod fields;
mod of_day;
pub mod parts;
#[cfg(test)]
mod tests;
pub mod units;
mod zone;
