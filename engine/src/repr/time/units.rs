//! `date_trunc` of a `timestamp` (and of a `timestamp with time zone`,
//! the same instant in the session time zone UTC) as the real system has
//! it: the unit names its `DateTimeUnits` reads (`repr/src/adt/datetime.rs`,
//! plural and abbreviated forms, any case), and `date_trunc_inner` with
//! the `truncate_*` of its `TimestampLike` (`repr/src/adt/timestamp.rs`),
//! with its error texts: `unit 'x' not recognized` for a name it does not
//! read, `'epoch' timestamp units not yet supported` for a unit it reads
//! and does not truncate to, `timestamp out of range` for a result
//! before 4714-12-31 BC.

use super::{civil_from_days, days_from_civil, DateTime, MICROS_PER_DAY};

/// A unit the real system's `DateTimeUnits` names, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateTimeUnits {
    Epoch,
    Millennium,
    Century,
    Decade,
    Year,
    Quarter,
    Week,
    Month,
    Day,
    DayOfWeek,
    DayOfYear,
    IsoDayOfWeek,
    IsoDayOfYear,
    Hour,
    Minute,
    Second,
    Milliseconds,
    Microseconds,
    Timezone,
    TimezoneHour,
    TimezoneMinute,
}

impl DateTimeUnits {
    /// The unit `s` names, lowercased first, as the real system's
    /// `FromStr` reads it; `None` for a name it does not read.
    pub fn parse(s: &str) -> Option<DateTimeUnits> {
        use DateTimeUnits::*;
        Some(match s.to_lowercase().as_str() {
            "epoch" => Epoch,
            "mil" | "millennia" | "millennium" | "millenniums" => Millennium,
            "c" | "cent" | "century" | "centuries" => Century,
            "dec" | "decs" | "decade" | "decades" => Decade,
            "y" | "year" | "years" | "yr" | "yrs" => Year,
            "qtr" | "quarter" => Quarter,
            "w" | "week" | "weeks" => Week,
            "d" | "day" | "days" => Day,
            "dow" => DayOfWeek,
            "doy" => DayOfYear,
            "isodow" => IsoDayOfWeek,
            "isodoy" => IsoDayOfYear,
            "h" | "hour" | "hours" | "hr" | "hrs" => Hour,
            "us" | "usec" | "usecs" | "useconds" | "microsecond" | "microseconds" => Microseconds,
            "m" | "min" | "mins" | "minute" | "minutes" => Minute,
            "mon" | "mons" | "month" | "months" => Month,
            "ms" | "msec" | "msecs" | "mseconds" | "millisecond" | "milliseconds" => Milliseconds,
            "s" | "sec" | "second" | "seconds" | "secs" => Second,
            "timezone" => Timezone,
            "timezone_h" | "timezone_hour" => TimezoneHour,
            "timezone_m" | "timezone_minute" => TimezoneMinute,
            _ => return None,
        })
    }

    /// The name the real system shows the unit by (its `Display`).
    pub fn name(self) -> &'static str {
        use DateTimeUnits::*;
        match self {
            Epoch => "epoch",
            Millennium => "millennium",
            Century => "century",
            Decade => "decade",
            Year => "year",
            Quarter => "quarter",
            Week => "week",
            Month => "month",
            Day => "day",
            DayOfWeek => "dow",
            DayOfYear => "doy",
            IsoDayOfWeek => "isodow",
            IsoDayOfYear => "isodoy",
            Hour => "hour",
            Minute => "minute",
            Second => "seconds",
            Milliseconds => "milliseconds",
            Microseconds => "microseconds",
            Timezone => "timezone",
            TimezoneHour => "timezone_hour",
            TimezoneMinute => "timezone_minute",
        }
    }
}

/// `date_trunc(units, ts)` as the real system's `date_trunc_units_timestamp`
/// computes it, with its error texts.
pub fn date_trunc(units: &str, ts: DateTime) -> Result<DateTime, String> {
    let unit =
        DateTimeUnits::parse(units).ok_or_else(|| format!("unit '{units}' not recognized"))?;
    let days = ts.0.div_euclid(MICROS_PER_DAY);
    let time = ts.0.rem_euclid(MICROS_PER_DAY);
    let (year, month, _) = civil_from_days(days);
    let first_of = |year: i64, month: u32| days_from_civil(year, month, 1) * MICROS_PER_DAY;
    // Whole multiples of `unit` microseconds of the time of day.
    let within_day = |unit: i64| days * MICROS_PER_DAY + time - time % unit;
    use DateTimeUnits::*;
    let micros = match unit {
        Millennium => first_of(first_of_era(year, 1000), 1),
        Century => first_of(first_of_era(year, 100), 1),
        Decade => first_of(year - year.rem_euclid(10), 1),
        Year => first_of(year, 1),
        Quarter => first_of(year, (month - 1) / 3 * 3 + 1),
        Month => first_of(year, month),
        // Monday is day 0 of the week; 2000-01-01 was a Saturday.
        Week => (days - (days + 5).rem_euclid(7)) * MICROS_PER_DAY,
        Day => within_day(MICROS_PER_DAY),
        Hour => within_day(3_600_000_000),
        Minute => within_day(60_000_000),
        Second => within_day(1_000_000),
        Milliseconds => within_day(1_000),
        Microseconds => ts.0,
        Epoch | Timezone | TimezoneHour | TimezoneMinute | DayOfWeek | DayOfYear | IsoDayOfWeek
        | IsoDayOfYear => {
            return Err(format!(
                "'{}' timestamp units not yet supported",
                unit.name()
            ))
        }
    };
    DateTime::from_micros(micros).ok_or_else(|| "timestamp out of range".to_string())
}

/// The first year of the millennium or century (`span`) holding `year`,
/// as the real system's `truncate_millennium` and `truncate_century`
/// compute it: 2001 for 2000, and for a year before 1 (1 BC is year 0)
/// `year - year % span - (span - 1)`, Rust's `%` keeping the sign.
fn first_of_era(year: i64, span: i64) -> i64 {
    if year > 0 {
        year - (year - 1) % span
    } else {
        year - year % span - (span - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::date_trunc;
    use crate::repr::time::parse_timestamp;

    fn trunc(units: &str, ts: &str) -> String {
        let ts = parse_timestamp(ts).expect("a timestamp");
        match date_trunc(units, ts) {
            Ok(t) => t.to_string(),
            Err(e) => e,
        }
    }

    #[test]
    fn every_unit_truncates_as_the_real_system() {
        let ts = "2021-11-17 13:45:27.123456";
        let cases = [
            ("microseconds", "2021-11-17 13:45:27.123456"),
            ("MS", "2021-11-17 13:45:27.123"),
            ("secs", "2021-11-17 13:45:27"),
            ("m", "2021-11-17 13:45:00"),
            ("Hours", "2021-11-17 13:00:00"),
            ("d", "2021-11-17 00:00:00"),
            // 2021-11-17 is a Wednesday.
            ("week", "2021-11-15 00:00:00"),
            ("mon", "2021-11-01 00:00:00"),
            ("qtr", "2021-10-01 00:00:00"),
            ("yrs", "2021-01-01 00:00:00"),
            ("decades", "2020-01-01 00:00:00"),
            ("c", "2001-01-01 00:00:00"),
            ("millennia", "2001-01-01 00:00:00"),
            ("epoch", "'epoch' timestamp units not yet supported"),
            ("isodoy", "'isodoy' timestamp units not yet supported"),
            ("Fortnight", "unit 'Fortnight' not recognized"),
        ];
        for (units, want) in cases {
            assert_eq!(trunc(units, ts), want, "{units}");
        }
    }

    #[test]
    fn centuries_and_weeks_at_the_edges() {
        assert_eq!(trunc("century", "2000-12-31"), "1901-01-01 00:00:00");
        assert_eq!(trunc("millennium", "2000-06-01"), "1001-01-01 00:00:00");
        // Year 0 is 1 BC: its century starts at year -99, 100 BC.
        assert_eq!(trunc("century", "0001-06-01 BC"), "0100-01-01 00:00:00 BC");
        assert_eq!(trunc("decade", "0001-06-01 BC"), "0001-01-01 00:00:00 BC");
        assert_eq!(trunc("decade", "0002-06-01 BC"), "0011-01-01 00:00:00 BC");
        // 2000-01-01 was a Saturday, 1999-12-27 the Monday before.
        assert_eq!(trunc("week", "2000-01-01 10:00"), "1999-12-27 00:00:00");
        assert_eq!(trunc("week", "2000-01-03"), "2000-01-03 00:00:00");
        assert_eq!(
            trunc("millennium", "4713-12-31 BC"),
            "timestamp out of range"
        );
    }
}
