//! The date and time of day a `date`, `timestamp` or `timestamptz` string
//! writes, read exactly as the real system's
//! `build_parsed_datetime_timestamp`, `check_datelike_bounds`,
//! `compute_date` and `compute_time` read them (`adt/datetime.rs`, read
//! for the facts), with the interval reader's tokens, formats and
//! `fill_pdt_from_tokens`, which the real system shares between the two:
//! a date `Y-M-D`, `Y M-D` or `Y M D` (any punctuation a space), or six to
//! eight digits (`YYYYMMDD`, `YYYMMDD`, `YYMMDD` with a year from 1970 to
//! 2069), then after an optional `T` a time of day from its hour (`H:M`,
//! `H:M:S`, `H:M:S.F`), the fields' bounds checked, with its texts; and
//! a `time` string, that time of day alone (`build_parsed_datetime_time`).

use super::super::interval::fields::{Fields, Value};
use super::super::interval::parse::{determine_format, fill, Format, Part};
use super::super::interval::tokens::{tokenize, trim_delims_and_colons, Field, Token};
use Field::*;

/// What a string wrote: the year (year 0 is 1 BC), month and day, and
/// the time of day, whose nanoseconds reach a second or more only in a
/// leap second (`23:59:60` is second 59 and a second's nanoseconds, as
/// the real system keeps it).
#[derive(Debug, PartialEq)]
pub(super) struct Parsed {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub nanos: u32,
}

/// The chrono years the real system's `NaiveDate::from_ymd_opt` takes.
const YEARS: std::ops::RangeInclusive<i64> = -262_143..=262_142;

/// `value` (a timestamp string without its zone and era) read as the
/// real system's `build_parsed_datetime_timestamp`, then `compute_date`
/// and `compute_time`: the fields, or the detail of its error text.
pub(super) fn timestamp(value: &str, bc: bool) -> Result<Parsed, String> {
    let mut tokens = tokenize(value)?;
    let mut fields = date(&mut tokens)?;
    // An era of BC makes the year negative (its zero is checked first).
    let era = if bc { -1 } else { 1 };
    if let Some(Token::DateTimeDelimiter) = tokens.front() {
        tokens.pop_front();
        trim_delims_and_colons(&mut tokens);
    }
    time(&mut fields, &mut tokens)?;
    let (second, nanos) = bounds(&fields)?;
    processed(&tokens)?;
    let (Some(year), Some(month), Some(day)) =
        (fields.get(Year), fields.get(Month), fields.get(Day))
    else {
        return Err("YEAR, MONTH, DAY are all required".into());
    };
    // `compute_date`: year 1 BC is year 0.
    let year = year.unit * era;
    let year = if year < 0 { year + 1 } else { year };
    if i32::try_from(year).is_err() {
        return Err(
            "Year in date is invalid: out of range integral type conversion attempted".into(),
        );
    }
    let unsigned = |v: i64| u32::try_from(v).expect("a field within its bounds");
    let (month, day) = (unsigned(month.unit), unsigned(day.unit));
    if !YEARS.contains(&year) || day > super::days_in_month(year, month) {
        return Err("invalid or out-of-range date".into());
    }
    let unit = |f: Field| fields.get(f).map_or(0, |v| unsigned(v.unit));
    Ok(Parsed {
        year,
        month,
        day,
        hour: unit(Hour),
        minute: unit(Minute),
        second,
        nanos,
    })
}

/// `value` (a `time` string) read as the real system's
/// `build_parsed_datetime_time`, then `compute_time`: the hour, minute,
/// second and nanoseconds (a second's worth more in a leap second), or the
/// detail of its error text.
pub(super) fn time_of_day(value: &str) -> Result<(u32, u32, u32, u32), String> {
    let mut tokens = tokenize(value)?;
    let mut fields = Fields::default();
    time(&mut fields, &mut tokens)?;
    let (second, nanos) = bounds(&fields)?;
    processed(&tokens)?;
    let unit = |f: Field| {
        fields.get(f).map_or(0, |v| {
            u32::try_from(v.unit).expect("a field within its bounds")
        })
    };
    Ok((unit(Hour), unit(Minute), second, nanos))
}

/// The error of tokens left after a value, as the real system words it.
fn processed(tokens: &Part) -> Result<(), String> {
    if tokens.is_empty() {
        return Ok(());
    }
    let rest: String = tokens.iter().map(ToString::to_string).collect();
    Err(format!("have unprocessed tokens {}", rest.trim_end()))
}

/// The real system's `fill_pdt_date`: six to eight digits, or the first
/// of its three formats the tokens fill.
fn date(tokens: &mut Part) -> Result<Fields, String> {
    use Token::*;
    let mut fields = Fields::default();
    if let Some(&Num(n, digits)) = tokens.front() {
        if (6..=8).contains(&digits) {
            let part = |v: u64| {
                Some(Value {
                    unit: i64::try_from(v).expect("a number of at most eight digits"),
                    fraction: 0,
                })
            };
            fields.write(Day, part(n % 100))?;
            fields.write(Month, part(n / 100 % 100))?;
            let mut year = n / 10_000;
            if digits == 6 {
                year += if year < 70 { 2000 } else { 1900 };
            }
            fields.write(Year, part(year))?;
            tokens.pop_front();
            // A space after it goes, with the spaces and colons after
            // that; a colon right after it stays.
            if let Some(Delim) = tokens.front() {
                tokens.pop_front();
                trim_delims_and_colons(tokens);
            }
            return Ok(fields);
        }
    }
    let formats = [
        [Num(0, 1), Dash, Num(0, 1), Dash, Num(0, 1)],
        [Num(0, 1), Delim, Num(0, 1), Dash, Num(0, 1)],
        [Num(0, 1), Delim, Num(0, 1), Delim, Num(0, 1)],
    ];
    for expected in formats {
        let mut attempt = tokens.clone();
        let mut fields = Fields::default();
        if fill(&mut fields, &mut attempt, &expected, Year, 1).is_ok() {
            *tokens = attempt;
            return Ok(fields);
        }
    }
    Err("does not match any format for date component".into())
}

/// The real system's `fill_pdt_time`: a time of day when the tokens
/// begin one in SQL-standard form, from its leading field.
fn time(fields: &mut Fields, tokens: &mut Part) -> Result<(), String> {
    use Token::*;
    const ALL: [Token; 7] = [Num(0, 1), Colon, Num(0, 1), Colon, Num(0, 1), Dot, Nanos(0)];
    if let Some(Format::SqlStandard(leading)) = determine_format(tokens, None)? {
        let expected = match leading {
            Hour => &ALL[..],
            Minute => &ALL[2..],
            Second => &ALL[4..],
            f => {
                return Err(format!(
                    "expected_dur_like_tokens can only be called with HOUR, MINUTE, SECOND; got {f}"
                ))
            }
        };
        fill(fields, tokens, expected, leading, 1)?;
    }
    Ok(())
}

/// The real system's `check_datelike_bounds`, in its order: the second
/// and its nanoseconds, a leap second (60) moved into the nanoseconds.
fn bounds(fields: &Fields) -> Result<(u32, u32), String> {
    if fields.get(Year).is_some_and(|y| y.unit == 0) {
        return Err("YEAR cannot be zero".into());
    }
    let bounded = [
        (Month, "MONTH", 1, 12),
        (Day, "DAY", 1, 31),
        (Hour, "HOUR", 0, 23),
        (Minute, "MINUTE", 0, 59),
    ];
    for (f, name, low, high) in bounded {
        if let Some(v) = fields.get(f) {
            if v.unit < low || v.unit > high {
                return Err(format!("{name} must be [{low}, {high}], got {}", v.unit));
            }
        }
    }
    let Some(mut second) = fields.get(Second) else {
        return Ok((0, 0));
    };
    if second.unit == 60 {
        second.unit = 59;
        second.fraction = second.fraction.saturating_add(1_000_000_000);
    }
    if second.unit < 0 || second.unit > 60 {
        return Err(format!("SECOND must be [0, 60], got {}", second.unit));
    }
    if second.fraction < 0 || second.fraction > 1_000_000_000 {
        return Err(format!(
            "NANOSECOND must be [0, 1_000_000_000], got {}",
            second.fraction
        ));
    }
    let part = |v: i64| u32::try_from(v).expect("within the bounds checked");
    Ok((part(second.unit), part(second.fraction)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The year, month, day, hour, minute, second and nanoseconds read.
    fn read(s: &str) -> Result<[i64; 7], String> {
        timestamp(s, false).map(|p| {
            let rest = [p.month, p.day, p.hour, p.minute, p.second, p.nanos];
            let [a, b, c, d, e, f] = rest.map(i64::from);
            [p.year, a, b, c, d, e, f]
        })
    }

    #[test]
    fn every_date_form_reads_as_the_real_systems() {
        let day = |y, m, d| Ok([y, m, d, 0, 0, 0, 0]);
        assert_eq!(read("2002-03-04"), day(2002, 3, 4));
        assert_eq!(read("2002 03-04"), day(2002, 3, 4));
        assert_eq!(read("2002 3 4"), day(2002, 3, 4));
        assert_eq!(read("2002/3/4"), day(2002, 3, 4));
        assert_eq!(read("20020304"), day(2002, 3, 4));
        assert_eq!(read("020304"), day(2002, 3, 4));
        assert_eq!(read("700304"), day(1970, 3, 4));
        assert_eq!(read("1230304"), day(123, 3, 4));
        assert_eq!(read("12020-01-01"), day(12020, 1, 1));
        assert_eq!(read("2-1-1"), day(2, 1, 1));
        assert_eq!(
            read("1970-01-01T00:00:00.666666666"),
            Ok([1970, 1, 1, 0, 0, 0, 666_666_666])
        );
        assert_eq!(read("2020-01-01 10:30"), Ok([2020, 1, 1, 10, 30, 0, 0]));
        assert_eq!(
            read("20200101 10:30:01.5"),
            Ok([2020, 1, 1, 10, 30, 1, 500_000_000])
        );
        assert_eq!(
            read("2020-01-01 23:59:60"),
            Ok([2020, 1, 1, 23, 59, 59, 1_000_000_000])
        );
        assert_eq!(timestamp("0044-03-15", true).map(|p| p.year), Ok(-43));
    }

    #[test]
    fn every_failure_is_the_real_systems_text() {
        let err = |s: &str| read(s).unwrap_err();
        assert_eq!(err(""), "YEAR, MONTH, DAY are all required");
        assert_eq!(err("\\"), "YEAR, MONTH, DAY are all required");
        assert_eq!(err("a"), "unknown units a");
        assert_eq!(err("x-1-1"), "unknown units x");
        assert_eq!(err("2020:01:01"), "YEAR, MONTH, DAY are all required");
        assert_eq!(
            err("10000000000000000000-01-01"),
            "does not match any format for date component"
        );
        assert_eq!(err("2020"), "YEAR, MONTH, DAY are all required");
        assert_eq!(err("2020-01-01 10"), "have unprocessed tokens 10");
        assert_eq!(err("2020-01-01 10:30:01 5"), "have unprocessed tokens 5");
        assert_eq!(err("2020-13-01"), "MONTH must be [1, 12], got 13");
        assert_eq!(err("2020-01-01 10:61"), "MINUTE must be [0, 59], got 61");
        assert_eq!(err("2020-01-01 10:00:61"), "SECOND must be [0, 60], got 61");
        assert_eq!(
            err("2020-01-01 23:59:60.5"),
            "NANOSECOND must be [0, 1_000_000_000], got 1500000000"
        );
        assert_eq!(err("0000-01-01"), "YEAR cannot be zero");
        assert_eq!(err("2021-02-29"), "invalid or out-of-range date");
        assert_eq!(err("1000000000-01-01"), "invalid or out-of-range date");
        // Six to eight digits are a whole date, so `262143-01-01` is
        // 2026-21-43 and a time of `-01-01`.
        assert_eq!(
            err("262143-01-01"),
            "expected_dur_like_tokens can only be called with HOUR, MINUTE, SECOND; got YEAR"
        );
        assert_eq!(
            err("2147483648-01-01"),
            "Year in date is invalid: out of range integral type conversion attempted"
        );
        assert_eq!(err("2020-01-01 now"), "unknown units now");
    }
}
