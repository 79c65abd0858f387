//! `interval` in the planner: the types of its literals, casts and
//! arithmetic (a `date` or `timestamp` moved by an interval is a
//! `timestamp`, `timestamp - timestamp` an interval, a number beside an
//! interval a `double precision`), Materialize's `operator does not
//! exist` where it has no operator, and what the engine refuses by name.

use super::*;
use ScalarType::{Bool, Interval, Text, Timestamp};

/// An interval no constant folding reaches.
const I: &str = "(CASE WHEN c THEN INTERVAL '1 day' END)";

#[test]
fn literals_casts_and_arithmetic_have_materializes_types() {
    let sql = "SELECT INTERVAL '1 day', '1 day'::interval, CAST('02:00' AS interval) FROM t";
    assert_eq!(types(sql), [Interval, Interval, Interval]);
    let sql = format!(
        "SELECT {I} + {I}, {I} - {I}, -{I}, {I} * 2, 2.5 * {I}, {I} / a, {I}::text, {I} < '1 day' FROM t"
    );
    assert_eq!(
        types(&sql),
        [Interval, Interval, Interval, Interval, Interval, Interval, Text, Bool]
    );
    let sql = format!(
        "SELECT DATE '2020-01-01' + {I}, {I} + DATE '2020-01-01', DATE '2020-01-01' - {I}, TIMESTAMP '2020-01-01' + {I}, TIMESTAMP '2020-01-01' - {I}, TIMESTAMP '2020-01-01' - TIMESTAMP '2020-01-02' FROM t"
    );
    assert_eq!(
        types(&sql),
        [Timestamp, Timestamp, Timestamp, Timestamp, Timestamp, Interval]
    );
    let sql = format!("SELECT min({I}), max({I}) FROM t");
    assert_eq!(types(&sql), [Interval, Interval]);
    assert_eq!(
        select("SELECT INTERVAL '1 day'").columns[0].name,
        "interval"
    );
    // A quoted alias, or one that names no field, is an alias.
    let names =
        |sql: &str| -> Vec<String> { select(sql).columns.iter().map(|c| c.name.clone()).collect() };
    assert_eq!(
        names("SELECT INTERVAL '1' \"years\", INTERVAL '1' span"),
        ["years", "span"]
    );
}

#[test]
fn a_number_beside_an_interval_is_cast_to_a_double() {
    let sql = format!("SELECT {I} * a FROM t");
    let rendered = format!("{:?}", select(&sql).plan);
    assert!(rendered.contains("Cast(Float64"), "{rendered}");
}

#[test]
fn materialize_has_no_other_interval_operators() {
    for (sql, e) in [
        (
            "SELECT INTERVAL '1 day' * INTERVAL '1 day'",
            "operator does not exist: interval * interval",
        ),
        (
            "SELECT 2 / INTERVAL '1 day'",
            "operator does not exist: integer / interval",
        ),
        (
            "SELECT INTERVAL '1 day' - DATE '2020-01-01'",
            "operator does not exist: interval - date",
        ),
        (
            "SELECT INTERVAL '1 day' + 1",
            "operator does not exist: interval + integer",
        ),
        (
            "SELECT DATE '2020-01-01' + DATE '2020-01-01'",
            "operator does not exist: date + date",
        ),
        (
            "SELECT INTERVAL '1 day' = 1",
            "operator does not exist: interval = integer",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn a_qualified_literal_is_read_by_its_fields_at_planning() {
    let planned = |sql: &str| format!("{:?}", select(sql).plan);
    for (sql, (months, days, micros)) in [
        // A number alone takes the last field; a single field leaves
        // every larger one.
        ("SELECT INTERVAL '7' DAY", (0, 7, 0)),
        ("SELECT INTERVAL '1 year 7' MONTH", (12 + 7, 0, 0)),
        // `a:b` is minutes and seconds after a leading MINUTE.
        (
            "SELECT INTERVAL '3:04' MINUTE TO SECOND",
            (0, 0, 184_000_000),
        ),
        (
            "SELECT INTERVAL '2-3 4 5:06:07' MONTH TO HOUR",
            (3, 4, 18_000_000_000_i64),
        ),
        ("SELECT INTERVAL '1.2345' SECOND(3)", (0, 0, 1_235_000)),
        (
            "SELECT INTERVAL '1.2345' DAY TO SECOND(2)",
            (0, 0, 1_230_000),
        ),
    ] {
        let shown = format!("Interval {{ months: {months}, days: {days}, micros: {micros} }}");
        assert!(planned(sql).contains(&shown), "{sql}: {}", planned(sql));
    }
    for (sql, e) in [
        (
            "SELECT INTERVAL '1' SECOND(7)",
            "SECOND precision must be (0, 6), have SECOND(7)",
        ),
        (
            "SELECT INTERVAL '2562047788:00:54.775807' SECOND(0)",
            "interval field value out of range: \"2562047788:00:54\"",
        ),
        (
            "SELECT INTERVAL '1 2' DAY",
            "invalid input syntax for type interval: Cannot determine format of all parts. \
             Add explicit time components, e.g. INTERVAL '1 day' or INTERVAL '1' DAY: \"1 2\"",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn what_the_engine_does_not_read_is_refused_by_name() {
    for (sql, e) in [
        // Qualifiers sqlparser takes and Materialize's parser does not.
        (
            "SELECT INTERVAL '1' HOUR(2)",
            "unsupported: interval field qualifier with a leading precision",
        ),
        (
            "SELECT INTERVAL '1' SECOND(3, 2)",
            "unsupported: interval field qualifier with a leading precision",
        ),
        (
            "SELECT INTERVAL '1' DAY(2) TO HOUR",
            "unsupported: interval field qualifier with a leading precision",
        ),
        (
            "SELECT INTERVAL '1' MINUTE TO HOUR",
            "unsupported: interval field range MINUTE TO HOUR",
        ),
        (
            "SELECT INTERVAL '1' DAY TO DAY",
            "unsupported: interval field range DAY TO DAY",
        ),
        // Materialize's parser reads the last word as the qualifier,
        // sqlparser as an alias.
        (
            "SELECT INTERVAL '10.333' years",
            "unsupported: interval literal with a field qualifier",
        ),
        (
            "SELECT 1, - INTERVAL '1' Hours FROM t",
            "unsupported: interval literal with a field qualifier",
        ),
        (
            "SELECT b::interval FROM t",
            "unsupported: cast from text to interval",
        ),
        (
            "SELECT '1 day'::interval(3)",
            "unsupported: type interval(3)",
        ),
        (
            "SELECT sum(INTERVAL '1 day')",
            "unsupported: sum of interval",
        ),
        (
            "SELECT avg(INTERVAL '1 day')",
            "unsupported: avg of interval",
        ),
        (
            "SELECT INTERVAL '1 day' + NULL",
            "unsupported: operator + of a interval and a value of unknown type",
        ),
        (
            "SELECT TIMESTAMP '2020-01-01' + '1 day'",
            "unsupported: operator + of a timestamp without time zone and a value of unknown type",
        ),
        (
            "SELECT justify_days(INTERVAL '1 day')",
            "unsupported: function justify_days",
        ),
        (
            "SELECT '10:00'::time * 2",
            "unsupported: operator * of time and integer",
        ),
        (
            "SELECT '2020-01-01'::timestamptz(0) + INTERVAL '1 hour'",
            "unsupported: type timestamptz(0)",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
