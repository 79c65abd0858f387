//! The parts of dates, timestamps, times and intervals at their edges: BC years,
//! ISO weeks across a new year, leap years, negative intervals, each
//! computed by hand (or by Python's `datetime`) from the real system's
//! formulas in `parts.rs`.

use super::{extract_date, interval_part, timestamp_part, Exact};
use crate::repr::interval::Interval;
use crate::repr::time::units::DateTimeUnits;
use crate::repr::time::{parse_date, parse_timestamp, Time};

fn unit(name: &str) -> DateTimeUnits {
    DateTimeUnits::parse(name).expect("a unit")
}

/// A numeric part's text, or the error.
fn shown(part: Result<Exact, String>) -> String {
    part.map_or_else(|e| e, |n| n.to_numeric().to_string())
}

/// `extract(unit FROM TIMESTAMP ts)`.
fn of_timestamp(name: &str, ts: &str) -> String {
    shown(timestamp_part(
        unit(name),
        parse_timestamp(ts).expect("a timestamp"),
    ))
}

/// `extract(unit FROM DATE date)`.
fn of_date(name: &str, date: &str) -> String {
    let date = parse_date(date).expect("a date");
    extract_date(unit(name), date).map_or_else(|e| e, |n| n.to_string())
}

/// `extract(unit FROM interval)` of the interval of these fields.
fn of_interval(name: &str, months: i32, days: i32, micros: i64) -> String {
    shown(interval_part(
        unit(name),
        Interval::new(months, days, micros),
    ))
}

/// Each row of `cases`: a date and the parts `units` of it, by `part`.
fn table<const N: usize>(
    units: [&str; N],
    cases: &[(&str, [&str; N])],
    part: fn(&str, &str) -> String,
) {
    for (date, want) in cases {
        assert_eq!(units.map(|u| part(u, date)), *want, "{date}");
    }
}

#[test]
fn every_unit_of_a_timestamp() {
    // A Wednesday, day 321 of 2021, in ISO week 46.
    let ts = "2021-11-17 13:45:27.123456";
    let cases = [
        ("epoch", "1637156727.123456"),
        ("millennium", "3"),
        ("century", "21"),
        ("decade", "202"),
        ("year", "2021"),
        ("quarter", "4"),
        ("week", "46"),
        ("month", "11"),
        ("day", "17"),
        ("dow", "3"),
        ("doy", "321"),
        ("isodow", "3"),
        ("hour", "13"),
        ("minute", "45"),
        ("second", "27.123456"),
        ("ms", "27123.456"),
        ("us", "27123456"),
        ("isodoy", "'isodoy' timestamp units not yet supported"),
        ("timezone", "'timezone' timestamp units not yet supported"),
        (
            "timezone_m",
            "'timezone_minute' timestamp units not yet supported",
        ),
    ];
    for (name, want) in cases {
        assert_eq!(of_timestamp(name, ts), want, "{name}");
    }
    // Whole seconds have no places; an epoch before 1970 is negative.
    assert_eq!(of_timestamp("second", "2021-11-17 13:45:00"), "0");
    assert_eq!(of_timestamp("epoch", "1969-12-31 23:59:59.5"), "-0.5");
    assert_eq!(of_timestamp("epoch", "1970-01-01"), "0");
}

#[test]
fn years_before_year_one() {
    // Year 0 is 1 BC, year -1 is 2 BC: chrono's years, the real system's.
    let cases = [
        ("0001-06-01 BC", ["-1", "-1", "0", "0"]),
        ("0002-06-01 BC", ["-1", "-1", "-1", "-1"]),
        ("0100-06-01 BC", ["-1", "-1", "-10", "-99"]),
        ("0101-06-01 BC", ["-1", "-2", "-10", "-100"]),
        ("1001-06-01 BC", ["-2", "-11", "-100", "-1000"]),
        ("0001-06-01", ["1", "1", "0", "1"]),
        ("1000-06-01", ["1", "10", "100", "1000"]),
        ("2000-06-01", ["2", "20", "200", "2000"]),
        ("2001-06-01", ["3", "21", "200", "2001"]),
    ];
    let units = ["millennium", "century", "decade", "year"];
    table(units, &cases, of_date);
    table(units, &cases, of_timestamp);
}

#[test]
fn iso_weeks_and_days_across_new_year() {
    // date: (week, dow, isodow, doy), by Python's isocalendar.
    let cases = [
        ("2005-01-01", ["53", "6", "6", "1"]),
        ("2005-01-02", ["53", "0", "7", "2"]),
        ("2005-01-03", ["1", "1", "1", "3"]),
        ("2008-12-29", ["1", "1", "1", "364"]),
        ("2009-12-31", ["53", "4", "4", "365"]),
        ("2010-01-03", ["53", "0", "7", "3"]),
        ("2012-12-31", ["1", "1", "1", "366"]),
        ("2020-12-31", ["53", "4", "4", "366"]),
        ("2021-01-03", ["53", "0", "7", "3"]),
    ];
    table(["week", "dow", "isodow", "doy"], &cases, of_date);
    // February 29th of a leap year, and the 60th day of a common one.
    assert_eq!(of_date("doy", "2000-02-29"), "60");
    assert_eq!(of_date("doy", "1900-03-01"), "60");
}

#[test]
fn a_dates_units_and_errors() {
    assert_eq!(of_date("epoch", "1970-01-02"), "86400");
    assert_eq!(of_date("epoch", "1969-12-31"), "-86400");
    assert_eq!(of_date("quarter", "2000-07-01"), "3");
    for (name, shown) in [
        ("h", "hour"),
        ("m", "minute"),
        ("s", "seconds"),
        ("ms", "milliseconds"),
        ("us", "microseconds"),
    ] {
        let want = format!("unit '{shown}' not supported for type date");
        assert_eq!(of_date(name, "2000-01-01"), want);
    }
    assert_eq!(
        of_date("isodoy", "2000-01-01"),
        "'isodoy' timestamp units not yet supported"
    );
}

#[test]
fn an_intervals_parts_keep_their_signs() {
    // 1 year 2 months 3 days 04:05:06.5, and its negation.
    let micros = 4 * 3_600_000_000 + 5 * 60_000_000 + 6_500_000;
    let cases = [
        ("epoch", "37015506.5", "-37015506.5"),
        ("year", "1", "-1"),
        ("month", "2", "-2"),
        // (-2 / 3) + 1 truncates to 1.
        ("quarter", "1", "1"),
        ("day", "3", "-3"),
        ("hour", "4", "-4"),
        ("minute", "5", "-5"),
        ("second", "6.5", "-6.5"),
        ("ms", "6500", "-6500"),
        ("us", "6500000", "-6500000"),
        ("decade", "0", "0"),
    ];
    for (name, positive, negative) in cases {
        assert_eq!(of_interval(name, 14, 3, micros), positive, "{name}");
        assert_eq!(of_interval(name, -14, -3, -micros), negative, "{name}");
    }
    // The hour of the day, and the larger units of the months, truncated.
    assert_eq!(of_interval("hour", 0, 0, 100 * 3_600_000_000), "4");
    assert_eq!(of_interval("month", -13, 0, 0), "-1");
    assert_eq!(of_interval("millennium", 3999 * 12, 0, 0), "3");
    assert_eq!(of_interval("century", 399 * 12 + 11, 0, 0), "3");
    assert_eq!(of_interval("epoch", 1, 0, 0), "2592000");
    assert_eq!(of_interval("epoch", 12, 0, 0), "31557600");
    assert_eq!(
        of_interval("week", 0, 7, 0),
        "'week' timestamp units not yet supported"
    );
}

#[test]
fn date_part_computes_in_floats_in_the_real_systems_order() {
    let ts = parse_timestamp("2021-11-17 13:45:27.123456").expect("a timestamp");
    let second: f64 = timestamp_part(unit("second"), ts).expect("a part");
    assert_eq!(second, 27.0 + 123_456_000.0 / 1e9);
    let epoch: f64 = timestamp_part(unit("epoch"), ts).expect("a part");
    assert_eq!(epoch, 1_637_156_727.0 + 123_456.0 / 1e6);
    let iv = Interval::new(14, 3, 1_500_000);
    let epoch: f64 = interval_part(unit("epoch"), iv).expect("a part");
    assert_eq!(epoch, ((365.25 + 60.0 + 3.0) * 24.0 * 60.0 * 60.0) + 1.5);
}

#[test]
fn every_unit_of_a_time() {
    let of_time = |name: &str, t: &str| {
        let t = crate::repr::time::parse_time(t).expect("a time");
        shown(super::time_part::<Exact>(unit(name), t))
    };
    assert_eq!(of_time("epoch", "11:12:42.666"), "40362.666");
    assert_eq!(of_time("epoch", "00:00"), "0");
    assert_eq!(of_time("hour", "23:59:59.999999"), "23");
    assert_eq!(of_time("minute", "23:59:59.999999"), "59");
    assert_eq!(of_time("second", "23:59:59.999999"), "59.999999");
    assert_eq!(of_time("ms", "00:00:01.5"), "1500");
    assert_eq!(of_time("us", "00:00:01.5"), "1500000");
    assert_eq!(
        of_time("dow", "10:00"),
        "unit 'dow' not supported for type time"
    );
    assert_eq!(
        of_time("timezone_hour", "10:00"),
        "'timezone_hour' timestamp units not yet supported"
    );
    let float = super::time_part::<f64>(unit("epoch"), Time::MAX);
    assert_eq!(float, Ok(86_399.999_999));
}
