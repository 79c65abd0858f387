//! The `date` and `timestamp` ranges, readings, errors and renderings,
//! each checked against the real system's (its `strconv.rs` tests and
//! `adt/date.rs` constants, read for the facts).

use super::*;

fn date(s: &str) -> String {
    match parse_date(s) {
        Ok(d) => d.to_string(),
        Err(e) => e,
    }
}

fn timestamp(s: &str) -> String {
    match parse_timestamp(s) {
        Ok(t) => t.to_string(),
        Err(e) => e,
    }
}

#[test]
fn the_calendar_is_the_proleptic_gregorian() {
    assert_eq!(days_from_civil(2000, 1, 1), 0);
    assert_eq!(days_from_civil(1970, 1, 1), -10_957);
    assert_eq!(
        days_from_civil(262_142, 12, 31),
        i64::from(Date::MAX.days())
    );
    assert_eq!(days_from_civil(-4713, 11, 24), i64::from(Date::MIN.days()));
    assert_eq!(
        days_from_civil(-4713, 12, 31) * MICROS_PER_DAY,
        DateTime::MIN.micros()
    );
    for days in (-2_451_545..95_015_279).step_by(9_973) {
        let (y, m, d) = civil_from_days(days);
        assert!(d <= days_in_month(y, m));
        assert_eq!(days_from_civil(y, m, d), days);
    }
    assert_eq!(days_in_month(1900, 2), 28);
    assert_eq!(days_in_month(2000, 2), 29);
    assert_eq!(days_in_month(0, 2), 29);
}

#[test]
fn dates_read_and_render_as_the_real_systems() {
    assert_eq!(date("2020-01-01"), "2020-01-01");
    assert_eq!(date("0001-01-01"), "0001-01-01");
    assert_eq!(date("0001-01-01 BC"), "0001-01-01 BC");
    assert_eq!(date("0044-03-15 bc"), "0044-03-15 BC");
    assert_eq!(date("2020-02-29 AD"), "2020-02-29");
    assert_eq!(date("2020-01-01 23:59:59.999999"), "2020-01-01");
    assert_eq!(date("2007-02-01T15:04:05"), "2007-02-01");
    assert_eq!(date("epoch"), "1970-01-01");
    assert_eq!(date("4714-11-24 BC"), "4714-11-24 BC");
    assert_eq!(
        date("4714-11-23 BC"),
        "\"4714-11-23 BC\" is out of range for type date"
    );
}

#[test]
fn date_errors_are_the_real_systems() {
    let invalid =
        |detail: &str, s: &str| format!("invalid input syntax for type date: {detail}: \"{s}\"");
    assert_eq!(
        date("2020-13-01"),
        invalid("MONTH must be [1, 12], got 13", "2020-13-01")
    );
    assert_eq!(
        date("2020-00-01"),
        invalid("MONTH must be [1, 12], got 0", "2020-00-01")
    );
    assert_eq!(
        date("2020-01-32"),
        invalid("DAY must be [1, 31], got 32", "2020-01-32")
    );
    assert_eq!(
        date("2021-02-29"),
        invalid("invalid or out-of-range date", "2021-02-29")
    );
    assert_eq!(
        date("2020-04-31"),
        invalid("invalid or out-of-range date", "2020-04-31")
    );
    assert_eq!(
        date("0000-01-01"),
        invalid("YEAR cannot be zero", "0000-01-01")
    );
    assert_eq!(
        date("2020-01-01 24:00:00"),
        invalid("HOUR must be [0, 23], got 24", "2020-01-01 24:00:00")
    );
}

#[test]
fn every_form_of_the_grammar_reads_as_the_real_systems() {
    for (s, d, t) in [
        ("20200101", "2020-01-01", "2020-01-01 00:00:00"),
        ("200101", "2020-01-01", "2020-01-01 00:00:00"),
        ("2020-1-1", "2020-01-01", "2020-01-01 00:00:00"),
        ("2002 03-04", "2002-03-04", "2002-03-04 00:00:00"),
        ("  1970-01-01  ", "1970-01-01", "1970-01-01 00:00:00"),
        ("2020-01-01 10:30", "2020-01-01", "2020-01-01 10:30:00"),
        ("2020-01-01 10:00:00.", "2020-01-01", "2020-01-01 10:00:00"),
        ("2020-01-01BC", "2020-01-01 BC", "2020-01-01 00:00:00 BC"),
        ("12020-01-01", "12020-01-01", "12020-01-01 00:00:00"),
        (
            "2015-08-25 05:45:45-01:00",
            "2015-08-25",
            "2015-08-25 05:45:45",
        ),
        (
            "\"2020!03-17 #?~T~02:36:56#\"",
            "2020-03-17",
            "2020-03-17 02:36:56",
        ),
        ("2020-01-01 23:59:60", "2020-01-01", ""),
    ] {
        assert_eq!(date(s), d, "{s}");
        if !t.is_empty() {
            assert_eq!(timestamp(s), t, "{s}");
        }
    }
    let invalid = |detail: &str, s: &str| {
        format!("invalid input syntax for type timestamp: {detail}: \"{s}\"")
    };
    let required = "YEAR, MONTH, DAY are all required";
    assert_eq!(timestamp(""), invalid("timestamp string is empty", ""));
    assert_eq!(timestamp("infinity"), invalid(required, "infinity"));
    assert_eq!(timestamp("-infinity"), invalid(required, "-infinity"));
    assert_eq!(timestamp("now"), invalid(required, "now"));
    assert_eq!(timestamp(" epoch"), invalid(required, " epoch"));
    assert_eq!(
        timestamp("\"2020-03-17 ~02:36:~56~\""),
        "invalid input syntax for type timestamp: have unprocessed tokens 56: \"\\\"2020-03-17 ~02:36:~56~\\\"\""
    );
    assert_eq!(
        date("1000000000-01-01"),
        "invalid input syntax for type date: invalid or out-of-range date: \"1000000000-01-01\""
    );
}

#[test]
fn what_the_engine_does_not_read_is_refused_by_name() {
    assert!(timestamp("2020-01-01 23:59:60").starts_with("unsupported: leap second"));
    assert_eq!(
        date("2020-01-01 America/New_York"),
        "unsupported: time zone \"America/New_York\""
    );
    assert_eq!(
        timestamp("2020-01-01 10:00:00+16"),
        "unsupported: timestamp input format: \"2020-01-01 10:00:00+16\""
    );
}

#[test]
fn timestamps_round_to_microseconds_and_render_as_the_real_systems() {
    assert_eq!(timestamp("2020-01-01"), "2020-01-01 00:00:00");
    assert_eq!(timestamp("2020-01-01 10:11:12"), "2020-01-01 10:11:12");
    assert_eq!(timestamp("2020-01-01T10:11:12.5"), "2020-01-01 10:11:12.5");
    assert_eq!(
        timestamp("2020-01-01 10:11:12.120"),
        "2020-01-01 10:11:12.12"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.000001"),
        "2020-01-01 10:11:12.000001"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.0000004"),
        "2020-01-01 10:11:12"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.0000005"),
        "2020-01-01 10:11:12.000001"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.1234564999"),
        "2020-01-01 10:11:12.123456"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.1234565"),
        "2020-01-01 10:11:12.123457"
    );
    assert_eq!(
        timestamp("2020-12-31 23:59:59.9999995"),
        "2021-01-01 00:00:00"
    );
    assert_eq!(
        timestamp("2020-01-01 10:11:12.000000"),
        "2020-01-01 10:11:12"
    );
    assert_eq!(
        timestamp("0001-01-01 00:00:00.5 BC"),
        "0001-01-01 00:00:00.5 BC"
    );
    assert_eq!(timestamp("epoch"), "1970-01-01 00:00:00");
    // The real system's `LOW_DATE` is chrono's year -4713, 4714 BC.
    assert_eq!(timestamp("4714-12-31 BC"), "4714-12-31 00:00:00 BC");
    assert_eq!(
        timestamp("4714-12-30 BC"),
        "\"4714-12-30 BC\" is out of range for type timestamp"
    );
    assert_eq!(
        timestamp("2020-01-01 10:60:00"),
        "invalid input syntax for type timestamp: MINUTE must be [0, 59], got 60: \"2020-01-01 10:60:00\""
    );
    assert_eq!(
        timestamp("2020-01-01 10:00:61"),
        "invalid input syntax for type timestamp: SECOND must be [0, 60], got 61: \"2020-01-01 10:00:61\""
    );
}

#[test]
fn dates_and_timestamps_convert() {
    let d = parse_date("1999-12-31").unwrap();
    assert_eq!(d.days(), -1);
    assert_eq!(d.to_timestamp().unwrap().to_string(), "1999-12-31 00:00:00");
    let t = parse_timestamp("1999-12-31 23:59:59.999999").unwrap();
    assert_eq!(t.date(), d);
    let bc = parse_timestamp("0001-01-01 12:00:00 BC").unwrap();
    assert_eq!(bc.date().to_string(), "0001-01-01 BC");
    assert_eq!(
        parse_date("2020-03-01")
            .unwrap()
            .minus(parse_date("2020-02-01").unwrap()),
        29
    );
    assert_eq!(
        Date::MIN.to_timestamp(),
        Err("timestamp out of range".to_string())
    );
    assert_eq!(Date::MAX.to_timestamp().unwrap().date(), Date::MAX);
    assert_eq!(DateTime::MAX.to_string(), "262142-12-31 23:59:59.999999");
    assert_eq!(Date::MIN.to_string(), "4714-11-24 BC");
}

fn timestamptz(s: &str) -> String {
    match parse_timestamptz(s) {
        Ok(t) => WithTimeZone(t).to_string(),
        Err(e) => e,
    }
}

#[test]
fn timestamps_with_time_zone_read_in_utc_and_render_with_its_offset() {
    assert_eq!(timestamptz("2020-01-01 12:00:00"), "2020-01-01 12:00:00+00");
    assert_eq!(
        timestamptz("2020-01-01 12:00:00+05"),
        "2020-01-01 07:00:00+00"
    );
    assert_eq!(
        timestamptz("2020-01-01 01:00:00-07:30"),
        "2020-01-01 08:30:00+00"
    );
    assert_eq!(
        timestamptz("2020-01-01 23:30:00.25-01"),
        "2020-01-02 00:30:00.25+00"
    );
    assert_eq!(
        timestamptz("2020-01-01T12:00:00Z"),
        "2020-01-01 12:00:00+00"
    );
    assert_eq!(timestamptz("2020-01-01"), "2020-01-01 00:00:00+00");
    assert_eq!(timestamptz("epoch"), "1970-01-01 00:00:00+00");
    assert_eq!(
        timestamptz("0001-01-01 00:00:00 BC"),
        "0001-01-01 00:00:00+00 BC"
    );
    assert_eq!(
        timestamptz("0001-01-01 00:30:00+01 BC"),
        "0002-12-31 23:30:00+00 BC"
    );
    assert_eq!(
        timestamptz("2020-13-01 00:00:00+05"),
        "invalid input syntax for type timestamp with time zone: \
         MONTH must be [1, 12], got 13: \"2020-13-01 00:00:00+05\""
    );
    assert_eq!(
        timestamptz("4714-12-31 00:00:00+01 BC"),
        "\"4714-12-31 00:00:00+01 BC\" is out of range for type timestamp with time zone"
    );
    assert_eq!(
        timestamptz("2020-01-01 00:00:00 PST"),
        "unsupported: time zone \"PST\""
    );
    assert_eq!(
        timestamptz("2020-01-01 00:00:00+1:2"),
        "unsupported: timestamp with time zone input format: \"2020-01-01 00:00:00+1:2\""
    );
}

#[test]
fn the_monotonic_form_is_read_in_its_one_form_alone() {
    let read = |s: &str| parse_monotonic_iso8601(s).map(|t| t.to_string());
    assert_eq!(
        read("2015-09-18T23:56:04.123Z").as_deref(),
        Some("2015-09-18 23:56:04.123")
    );
    assert_eq!(
        read("0000-01-01T00:00:00.000Z").as_deref(),
        Some("0001-01-01 00:00:00 BC")
    );
    assert_eq!(
        read("2024-02-29T00:00:00.000Z").as_deref(),
        Some("2024-02-29 00:00:00")
    );
    for other in [
        "2023-02-29T00:00:00.000Z",
        "2015-00-01T00:00:00.000Z",
        "2015-09-00T00:00:00.000Z",
        "2015-09-18T24:00:00.000Z",
        "2015-09-18T23:60:00.000Z",
        "2015-09-18T23:59:60.000Z",
        "2015-09-18T23:56:04.1234Z",
        "2015-09-18T23:56:04.12Z",
        "2015-09-18T23:56:04.123",
        "2015-09-18 23:56:04.123Z",
        "2015-09-18T23:56:04.123z",
        "2015-09-18T23:56:04.123Zextra",
        "+015-09-18T23:56:04.123Z",
        "-015-09-18T23:56:04.123Z",
        "2015-9-18T23:56:04.123Z",
        "２015-09-18T23:56:04.123Z",
        "",
    ] {
        assert_eq!(read(other), None, "{other}");
    }
}

#[test]
fn the_monotonic_form_orders_as_its_timestamps() {
    let mut texts: Vec<String> = (0..400)
        .map(|i: u32| {
            let (y, m, d) = (1990 + i % 37, 1 + i * 7 % 12, 1 + i * 13 % 28);
            format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
                i % 24,
                i * 7 % 60,
                i * 11 % 60,
                i * 37 % 1000
            )
        })
        .collect();
    texts.sort();
    let read: Vec<DateTime> = texts
        .iter()
        .map(|t| parse_monotonic_iso8601(t).expect(t))
        .collect();
    assert!(
        read.windows(2).all(|w| w[0] < w[1]),
        "texts' order is their timestamps'"
    );
}
