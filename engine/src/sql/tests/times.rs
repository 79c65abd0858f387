//! `time` in the planner: the types of its literals, casts and
//! unifications, and what of it is refused by name (a time beside an
//! interval, which the real system casts to one implicitly; its
//! arithmetic; `time(p)` and `time with time zone`; a leap second and
//! nanoseconds, which the engine's microseconds cannot hold).

use super::*;
use ScalarType::{Interval, Text, Time};

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
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
