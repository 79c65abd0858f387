//! `smallint` in the planner: the types Materialize's implicit casts give
//! it beside other numbers (kept between two smallints, widened beside a
//! wider type), the types of its aggregates, and what is refused by name.

use super::*;
use ScalarType::{Float32, Int16, Int32, Int64, Numeric};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn two_smallints_stay_smallints_and_a_wider_operand_widens_them() {
    let sql =
        "SELECT a::int2 + a::int2, -(a::int2), abs(a::int2), a::int2 % NULL, a::int2 * '2' FROM t";
    assert_eq!(types(sql), [Int16, Int16, Int16, Int16, Int16]);
    let sql = "SELECT a::int2 + 1, a::int2 - a::bigint, a::int2 * 1.5, a::int2 / a::real FROM t";
    assert_eq!(types(sql), [Int32, Int64, Numeric, Float32]);
    let sql = "SELECT COALESCE(a::int2, a::int2), COALESCE(a::int2, 1), greatest(a::int2, a::bigint) FROM t";
    assert_eq!(types(sql), [Int16, Int32, Int64]);
}

#[test]
fn sums_are_bigints_averages_numerics_and_extremes_smallints() {
    let sql =
        "SELECT sum(a::int2), avg(a::int2), min(a::int2), max(a::smallint), count(a::int2) FROM t";
    assert_eq!(types(sql), [Int64, Numeric, Int16, Int16, Int64]);
}

#[test]
fn what_materialize_lacks_or_the_engine_does_not_reproduce_is_refused() {
    assert_eq!(
        err("SELECT a::int2::boolean FROM t"),
        "unsupported: cast from smallint to boolean"
    );
    assert_eq!(
        err("SELECT c::smallint FROM t"),
        "unsupported: cast from boolean to smallint"
    );
    assert_eq!(err("SELECT a::int2(3) FROM t"), "unsupported: type int2(3)");
    assert_eq!(
        err("SELECT a::int2 + c FROM t"),
        "operator does not exist: smallint + boolean"
    );
    // An outer join ON a smallint widened to an integer (docs/semantics.md,
    // "Joins").
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN u ON t.a::int2 = u.a"),
        "unsupported: LEFT JOIN ON other than equalities of a column of each side"
    );
}

/// A minus before a number is part of it, before a cast (Materialize's
/// parser): the lowest smallint is a value; a column keeps the operator.
#[test]
fn a_minus_before_a_number_belongs_to_the_literal() {
    assert_eq!(
        types("SELECT -32768::int2, -1::bool, -1::text"),
        [Int16, ScalarType::Bool, ScalarType::Text]
    );
    assert_eq!(err("SELECT -0::bool"), "operator does not exist: - boolean");
    assert_eq!(
        err("SELECT -(1)::bool"),
        "operator does not exist: - boolean"
    );
    assert_eq!(
        err("SELECT count(*) FROM t GROUP BY -1"),
        "unable to parse column reference in GROUP BY clause: -1: invalid digit found in string"
    );
    assert_eq!(
        err("SELECT a FROM t ORDER BY 1.5"),
        "unable to parse column reference in ORDER BY clause: 1.5: invalid digit found in string"
    );
}

/// Materialize's texts: `coalesce` in lower case, and an ambiguous
/// qualified column named without its table.
#[test]
fn type_and_name_errors_carry_materializes_texts() {
    assert_eq!(
        err("SELECT COALESCE(a::int2, c) FROM t"),
        "coalesce types smallint and boolean cannot be matched"
    );
    assert_eq!(
        err("SELECT s.a FROM (SELECT a, b AS a FROM t) s"),
        "column reference \"a\" is ambiguous"
    );
}
