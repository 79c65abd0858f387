//! `date` and `timestamp` in the planner: the types of their literals,
//! casts, comparisons and unifications (a `date` beside a `timestamp` is
//! cast to one), `date - date`, Materialize's `operator does not exist`
//! where it has no operator (`date + integer`), and every other part of
//! time refused by its name (`interval` is `intervals.rs`'s, `time`
//! `times.rs`'s).

use super::*;
use ScalarType::{Date, Int32, Int64, Text, Timestamp};

/// A date no constant folding reaches.
const D: &str = "(CASE WHEN c THEN DATE '2020-01-01' END)";

#[test]
fn literals_casts_and_unifications_have_materializes_types() {
    let sql = "SELECT DATE '2020-01-01', '2020-01-01'::date, TIMESTAMP '2020-01-01', CAST('2020-01-01' AS timestamp without time zone) FROM t";
    assert_eq!(types(sql), [Date, Date, Timestamp, Timestamp]);
    let sql =
        format!("SELECT {D}::timestamp, {D}::text, {D} - {D}, {D} - DATE '2020-01-01' FROM t");
    assert_eq!(types(&sql), [Timestamp, Text, Int32, Int32]);
    let sql = format!("SELECT min({D}), max({D}::timestamp), count({D}) FROM t");
    assert_eq!(types(&sql), [Date, Timestamp, Int64]);
    let sql = format!("SELECT COALESCE({D}, TIMESTAMP '2020-01-01'), CASE WHEN c THEN {D} ELSE '2020-01-01' END, greatest({D}, {D}), least({D}, TIMESTAMP '2020-01-01') FROM t");
    assert_eq!(types(&sql), [Timestamp, Date, Date, Timestamp]);
}

#[test]
fn a_date_beside_a_timestamp_is_cast_to_one() {
    let sql = format!("SELECT {D} < TIMESTAMP '2020-01-01 00:00:01' FROM t");
    let rendered = format!("{:?}", select(&sql).plan);
    assert!(rendered.contains("Cast(Timestamp"), "{rendered}");
}

#[test]
fn materialize_has_no_date_plus_integer() {
    for (sql, e) in [
        (
            "SELECT DATE '2020-01-01' + 1",
            "operator does not exist: date + integer",
        ),
        (
            "SELECT DATE '2020-01-01' - 1",
            "operator does not exist: date - integer",
        ),
        (
            "SELECT 1 + DATE '2020-01-01'",
            "operator does not exist: integer + date",
        ),
        (
            "SELECT DATE '2020-01-01' + DATE '2020-01-01'",
            "operator does not exist: date + date",
        ),
        (
            "SELECT TIMESTAMP '2020-01-01' * 2",
            "operator does not exist: timestamp without time zone * integer",
        ),
        (
            "SELECT - DATE '2020-01-01'",
            "operator does not exist: - date",
        ),
        (
            "SELECT DATE '2020-01-01' = 1",
            "operator does not exist: date = integer",
        ),
        (
            "SELECT a::date FROM t",
            "unsupported: cast from integer to date",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn every_other_part_of_time_is_refused_by_name() {
    for (sql, e) in [
        (
            "SELECT DATE '2020-01-02' - TIMESTAMP '2020-01-01'",
            "unsupported: operator - between a date and a timestamp",
        ),
        (
            "SELECT DATE '2020-01-01' + '1 day'",
            "unsupported: operator + of a date and a value of unknown type",
        ),
        (
            "SELECT TIMESTAMP '2020-01-01' - NULL",
            "unsupported: operator - of a timestamp without time zone and a value of unknown type",
        ),
        (
            "SELECT '2020-01-01'::timestamptz(3)",
            "unsupported: type timestamptz(3)",
        ),
        (
            "SELECT '2020-01-01 00:00:00 Europe/Berlin'::timestamp with time zone",
            "unsupported: time zone \"Europe/Berlin\"",
        ),
        (
            "SELECT TIMESTAMPTZ '2020-01-01 00:00:00+16'",
            "unsupported: timestamp with time zone input format: \"2020-01-01 00:00:00+16\"",
        ),
        ("SELECT INT '1'", "unsupported: expression typed string"),
        (
            "SELECT '2020-01-01'::timestamp(3)",
            "unsupported: type timestamp(3)",
        ),
        ("SELECT now()", "unsupported: function now"),
        ("SELECT current_date", "unsupported: function current_date"),
        (
            "SELECT current_timestamp",
            "unsupported: function current_timestamp",
        ),
        (
            "SELECT extract(year FROM '2020-01-01')",
            "unsupported: function extract of unknown",
        ),
        (
            "SELECT date_part('year', NULL)",
            "unsupported: function date_part of unknown",
        ),
        (
            "SELECT extract(year FROM 2020)",
            "unsupported: function extract of integer",
        ),
        (
            "SELECT date_part(1, DATE '2020-01-01')",
            "unsupported: function date_part of integer unit",
        ),
        (
            "SELECT extract('year', DATE '2020-01-01')",
            "unsupported: function extract",
        ),
        (
            "SELECT date_part('year')",
            "unsupported: function date_part of 1 arguments",
        ),
        (
            "SELECT date_trunc('day', DATE '2020-01-01')",
            "unsupported: function date_trunc of date",
        ),
        (
            "SELECT date_trunc('day', '2020-01-01')",
            "unsupported: function date_trunc of unknown",
        ),
        (
            "SELECT date_trunc('day', INTERVAL '1 day')",
            "unsupported: function date_trunc: date_trunc(text, interval)",
        ),
        (
            "SELECT date_trunc(1, TIMESTAMP '2020-01-01')",
            "unsupported: function date_trunc of integer unit",
        ),
        (
            "SELECT TIMESTAMP '2020-01-01' AT TIME ZONE 'UTC'",
            "unsupported: expression at time zone",
        ),
        (
            "SELECT '2020-01-01 23:59:60'::timestamp",
            "unsupported: leap second in timestamp input: \"2020-01-01 23:59:60\"",
        ),
        (
            "SELECT '2020-01-01 America/New_York'::date",
            "unsupported: time zone \"America/New_York\"",
        ),
        (
            "SELECT '2020-01-01 10:00:00+2:3'::timestamp",
            "unsupported: timestamp input format: \"2020-01-01 10:00:00+2:3\"",
        ),
        (
            "SELECT b::date FROM t",
            "unsupported: cast from text to date",
        ),
        (
            "SELECT b::timestamp FROM t",
            "unsupported: cast from text to timestamp without time zone",
        ),
        ("SELECT sum(DATE '2020-01-01')", "unsupported: sum of date"),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
