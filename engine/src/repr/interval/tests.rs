//! The interval's reading, errors, refusals, rendering, order and
//! arithmetic, against answers the real system gives (its own tests and
//! sqllogictest expectations, read for the facts) or worked by hand.

use super::*;

fn read(s: &str) -> String {
    match parse_interval(s) {
        Ok(i) => i.to_string(),
        Err(e) => e,
    }
}

#[test]
fn the_common_forms_read_as_the_real_system_reads_them() {
    for (s, shown) in [
        ("1", "00:00:01"),
        ("1 day", "1 day"),
        ("1 year 2 months", "1 year 2 months"),
        ("02:03:04", "02:03:04"),
        ("1 day 02:03:04.5", "1 day 02:03:04.5"),
        ("1 02:03:04", "1 day 02:03:04"),
        ("12:34", "12:34:00"),
        ("-1 day", "-1 days"),
        ("  3 HOURS ", "03:00:00"),
        (
            "1 year 2 month 3 day 4 hour 5 minute 6.7 second",
            "1 year 2 months 3 days 04:05:06.7",
        ),
        (
            "6.7 seconds 5 minutes 3 days 4 hours 1 year 2 month",
            "1 year 2 months 3 days 04:05:06.7",
        ),
        (
            "-6.7 seconds 5 minutes -3 days 4 hours -1 year 2 month",
            "-10 months -3 days +04:04:53.3",
        ),
        (
            "-6.7 seconds 5.6 minutes -3.4 days 4.5 hours -1.2 year 2.3 month",
            "-1 years +6 days -05:00:30.7",
        ),
        ("1 day -0.27 seconds", "1 day -00:00:00.27"),
        ("-1 day 0.27 seconds", "-1 days +00:00:00.27"),
        ("10.333 years", "10 years 3 months"),
        ("1.5555555 month", "1 month 16 days 15:59:59.856"),
        ("1.5555555 day", "1 day 13:19:59.9952"),
        ("1.5555555 minute", "00:01:33.33333"),
        ("0.001 second", "00:00:00.001"),
        ("2 mons 3 hrs 4 mins 5 secs", "2 months 03:04:05"),
        ("1 decade 1 century 1 millennium", "1110 years"),
        ("90 minutes", "01:30:00"),
        ("5 ms 7 us", "00:00:00.005007"),
        ("-02:03:04.5", "-02:03:04.5"),
        ("250:00", "250:00:00"),
        ("1.0000000009 seconds", "00:00:01"),
    ] {
        assert_eq!(read(s), shown, "{s}");
    }
}

#[test]
fn bad_values_fail_with_the_real_systems_texts() {
    let invalid = |detail: &str, s: &str| {
        format!("invalid input syntax for type interval: {detail}: \"{s}\"")
    };
    for (s, detail) in [
        ("1 year 2 years", "YEAR field set twice"),
        ("1 hour 02:00", "HOUR, MINUTE, SECOND field set twice"),
        ("02:00 5 seconds", "SECOND field set twice"),
        ("1 2:61", "MINUTE must be [-59, 59], got 61"),
        ("250:59:61", "SECOND must be [-60, 60], got 61"),
        ("1 foo", "unknown units foo"),
        // The real system knows no `ago`.
        ("1 day ago", "unknown units ago"),
        // ISO 8601's form is a word it does not know.
        ("P1D", "unknown units P"),
        (
            "1 2",
            "Cannot determine format of all parts. Add explicit time components, \
             e.g. INTERVAL '1 day' or INTERVAL '1' DAY",
        ),
        (
            "2147483648 months",
            "Overflows maximum months; cannot exceed 2147483647/-2147483648 months",
        ),
        (
            "178956971 years",
            "Overflows maximum months; cannot exceed 2147483647/-2147483648 months",
        ),
        (
            "2147483648 days",
            "Overflows maximum days; cannot exceed 2147483647/-2147483648 days",
        ),
        (
            "2562047789 hours",
            "Overflows maximum microseconds; cannot exceed \
             9223372036854775807/-9223372036854775808 microseconds",
        ),
        (
            "9223372036854775808 seconds",
            "Unable to parse value 9223372036854775808 as a number: \
             number too large to fit in target type",
        ),
        (
            "1.5 seconds 3 ms",
            "Cannot set MILLISECONDS or MICROSECONDS field if SECOND field has a fraction component",
        ),
    ] {
        assert_eq!(read(s), invalid(detail, s), "{s}");
    }
    // The smallest months and days are read; one more is an overflow.
    assert_eq!(read("-2147483648 months"), "-178956970 years -8 months");
}

#[test]
fn the_other_forms_read_as_the_real_system_reads_them() {
    for (s, shown) in [
        // SQL-standard parts: years and months, days, times.
        ("2-3", "2 years 3 months"),
        ("2-3 4 5:06", "2 years 3 months 4 days 05:06:00"),
        (
            "-2-3 4 -5:06:07.8",
            "-2 years -3 months +4 days -05:06:07.8",
        ),
        ("3 4:", "3 days 04:00:00"),
        ("3:04.5", "00:03:04.5"),
        ("4::.5", "04:00:00.5"),
        // Units without spaces, a part with no number, a leading dot.
        ("1day 2hrs", "1 day 02:00:00"),
        ("day", "00:00:00"),
        (".5 days", "12:00:00"),
        ("", "00:00:00"),
    ] {
        assert_eq!(read(s), shown, "{s}");
    }
    let invalid = |detail: &str, s: &str| {
        format!("invalid input syntax for type interval: {detail}: \"{s}\"")
    };
    let cannot = "Cannot determine format of all parts. Add explicit time components, \
                  e.g. INTERVAL '1 day' or INTERVAL '1' DAY";
    for (s, detail) in [
        ("2-3 4-5", "YEAR or MONTH field set twice"),
        ("2-3 4 year", "YEAR field set twice"),
        ("2-13", "MONTH must be [-12, 12], got 13"),
        ("1:2:3:4", "have unprocessed tokens 4"),
        ("1 T", "Cannot determine format of all parts"),
        ("1 week", cannot),
        ("1,5 days", cannot),
        ("- 1 day", cannot),
        // ISO 8601 is a word the real system does not know.
        ("P1Y2M3DT4H5M6S", "unknown units P"),
        (
            "1 \u{e9}",
            "Invalid character at offset 2 in 1 \u{e9}: '\u{e9}'",
        ),
        ("2weeks", "unsupported unit week"),
        // A unit without a space ends its part: no second one follows.
        ("3y4mon", "have unprocessed tokens 4Month"),
    ] {
        assert_eq!(read(s), invalid(detail, s), "{s}");
    }
}

#[test]
fn a_qualifier_reads_an_ambiguous_number_and_cuts_fields() {
    use IntervalField::*;
    let read = |s: &str, high, low, p| match parse_qualified(s, high, low, p) {
        Ok(i) => i.to_string(),
        Err(e) => e,
    };
    assert_eq!(read("7", Year, Year, None), "7 years");
    assert_eq!(read("7", Year, Month, None), "7 months");
    assert_eq!(read("7", Year, Minute, None), "00:07:00");
    assert_eq!(read("3:04", Minute, Second, None), "00:03:04");
    assert_eq!(read("3:04", Hour, Second, None), "03:04:00");
    assert_eq!(
        read("2-3 4 5:06:07.891", Month, Minute, None),
        "3 months 4 days 05:06:00"
    );
    assert_eq!(read("1 day 25:30", Hour, Minute, None), "01:30:00");
    assert_eq!(
        read("1 year 2 days 3 hours", Year, Day, None),
        "1 year 2 days"
    );
    assert_eq!(read("1.23456789", Year, Second, Some(2)), "00:00:01.23");
    assert_eq!(read("1.23456789", Year, Second, Some(3)), "00:00:01.235");
    assert_eq!(read("-1.2345", Year, Second, Some(3)), "-00:00:01.235");
    assert_eq!(read("1.5", Year, Second, Some(0)), "00:00:02");
    assert_eq!(
        read("1", Year, Second, Some(7)),
        "SECOND precision must be (0, 6), have SECOND(7)"
    );
    assert_eq!(
        read("2562047788:00:54.775807", Year, Second, Some(0)),
        "interval field value out of range: \"2562047788:00:54\""
    );
}

#[test]
fn rendering_is_the_real_systems() {
    let show = |m, d, us| Interval::new(m, d, us).to_string();
    let h = 3_600_000_000;
    assert_eq!(show(0, 0, 0), "00:00:00");
    assert_eq!(show(1, 0, 0), "1 month");
    assert_eq!(show(13, 0, 0), "1 year 1 month");
    assert_eq!(show(26, 0, 0), "2 years 2 months");
    assert_eq!(show(-1, 0, 0), "-1 months");
    assert_eq!(show(-12, 0, 0), "-1 years");
    assert_eq!(show(0, 1, 0), "1 day");
    assert_eq!(show(0, -1, 0), "-1 days");
    assert_eq!(show(0, 2, 3 * h), "2 days 03:00:00");
    assert_eq!(show(0, -2, -6_000_000), "-2 days -00:00:06");
    assert_eq!(show(-1, 2, 6_000_000), "-1 months +2 days 00:00:06");
    assert_eq!(show(-26, 0, 3 * h), "-2 years -2 months +03:00:00");
    assert_eq!(
        show(26, -2, -6_000_000),
        "2 years 2 months -2 days -00:00:06"
    );
    assert_eq!(show(0, -1, h), "-1 days +01:00:00");
    assert_eq!(show(0, 0, 100 * h + 1), "100:00:00.000001");
    assert_eq!(
        show(i32::MIN, i32::MIN, i64::MIN),
        "-178956970 years -8 months -2147483648 days -2562047788:00:54.775808"
    );
}

#[test]
fn intervals_compare_field_by_field() {
    let month = Interval::new(1, 0, 0);
    let thirty_days = Interval::new(0, 30, 0);
    assert_ne!(month, thirty_days);
    assert!(month > Interval::new(0, 100, 0));
    assert!(Interval::new(0, 1, 0) > Interval::new(0, 0, 100 * 3_600_000_000));
    assert!(Interval::new(0, -1, 0) < Interval::new(0, 0, -1));
}

#[test]
fn arithmetic_is_the_real_systems() {
    let i = |s: &str| parse_interval(s).unwrap();
    assert_eq!(
        i("1 day").checked_add(i("2 hours")),
        Some(i("1 day 2 hours"))
    );
    assert_eq!(i("1 month").checked_mul(1.5), Some(i("1 month 15 days")));
    assert_eq!(i("1 day").checked_div(4.0), Some(i("06:00:00")));
    assert_eq!(
        i("1 month").checked_div(7.0).unwrap().to_string(),
        "4 days 06:51:25.714285"
    );
    assert_eq!(i("10 years").checked_mul(10_000_000_000.0), None);
    assert_eq!(i("10 years").checked_div(0.000_000_000_000_000_001), None);
    assert_eq!(Interval::new(0, 0, i64::MIN).checked_neg(), None);
    assert_eq!(
        Interval::new(0, i32::MAX, 0).checked_add(Interval::new(0, 1, 0)),
        None
    );
}
