//! `time` in the planner: the types of its literals, casts, arithmetic
//! and unifications, and what of it is refused by name (a time beside an
//! interval, which the real system casts to one implicitly; arithmetic
//! but the real system's exact overloads; `time(p)`, `time with time
//! zone` and `time[]`; a leap second and nanoseconds, which the engine's
//! microseconds cannot hold).

use super::*;
use ScalarType::{Float64, Interval, Numeric, Text, Time, Timestamp};

/// A time no constant folding reaches.
const T: &str = "(CASE WHEN c THEN TIME '10:00' END)";

#[test]
fn literals_casts_and_unifications_have_materializes_types() {
    let sql = "SELECT TIME '10:00', '10:00'::time, CAST('10:00' AS time without time zone) FROM t";
    assert_eq!(types(sql), [Time, Time, Time]);
    let sql = format!("SELECT {T}::text, {T}::interval, INTERVAL '1 hour'::time, TIMESTAMP '2020-01-01'::time FROM t");
    assert_eq!(types(&sql), [Text, Interval, Time, Time]);
    let sql = format!("SELECT COALESCE({T}, '10:00'), greatest({T}, {T}), {T} < '11:00' FROM t");
    assert_eq!(types(&sql), [Time, Time, ScalarType::Bool]);
    let sql = format!("SELECT min({T}::interval::time) FROM t GROUP BY c");
    assert_eq!(types(&sql), [Time]);
    let sql = format!("SELECT {T} + INTERVAL '1 hour', INTERVAL '1 hour' + {T}, {T} - INTERVAL '1 hour', {T} - {T}, DATE '2020-01-01' + {T}, {T} + DATE '2020-01-01', extract(hour FROM {T}), date_part('hour', {T}) FROM t");
    assert_eq!(
        types(&sql),
        [Time, Time, Time, Interval, Timestamp, Timestamp, Numeric, Float64]
    );
    let sql = format!("SELECT {T}::timestamp FROM t");
    assert_eq!(
        err(&sql),
        "unsupported: cast from time to timestamp without time zone"
    );
}

#[test]
fn every_other_part_of_time_is_refused_by_name() {
    for (sql, e) in [
        (
            "SELECT TIME '10:00' = INTERVAL '10 hours'",
            "unsupported: operator = of a time and an interval",
        ),
        (
            "SELECT COALESCE(TIME '10:00', INTERVAL '1 hour')",
            "unsupported: coalesce of a time and an interval",
        ),
        (
            "SELECT TIME '10:00' < TIMESTAMP '2020-01-01'",
            "operator does not exist: time < timestamp without time zone",
        ),
        ("SELECT '10:00'::time(3)", "unsupported: type time(3)"),
        (
            "SELECT '10:00'::time with time zone",
            "unsupported: type time with time zone",
        ),
        (
            "SELECT '23:59:60'::time",
            "unsupported: leap second in time input: \"23:59:60\"",
        ),
        (
            "SELECT '10:00:00.0000001'::time",
            "unsupported: time input with nanoseconds: \"10:00:00.0000001\"",
        ),
        (
            "SELECT b::time FROM t",
            "unsupported: cast from text to time",
        ),
        (
            "SELECT DATE '2020-01-01'::time",
            "unsupported: cast from date to time",
        ),
        ("SELECT sum(TIME '10:00')", "unsupported: sum of time"),
        (
            "SELECT TIME '10:00' + TIME '01:00'",
            "unsupported: operator + of time and time",
        ),
        (
            "SELECT TIMESTAMP '2020-01-01' + TIME '01:00'",
            "unsupported: operator + of timestamp without time zone and time",
        ),
        (
            "SELECT INTERVAL '1 hour' - TIME '01:00'",
            "unsupported: operator - of interval and time",
        ),
        (
            "SELECT date_trunc('hour', TIME '01:00')",
            "unsupported: function date_trunc of time",
        ),
        ("SELECT ARRAY[TIME '01:00']", "unsupported: type time[]"),
        ("SELECT '{01:00}'::time[]", "unsupported: type time[]"),
        (
            "SELECT TIME '01:00' + '1 hour'",
            "unsupported: operator + of time and unknown",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
