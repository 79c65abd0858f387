//! Ranges in the planner: the types of the constructors, functions and
//! operators, Materialize's `operator does not exist` and `function ...
//! does not exist` where it has no overload, and what the engine refuses
//! by name (`tstzrange`, operands of unknown type, elements that might
//! cast by a rule not modelled, arrays and lists of ranges).

use super::*;
use crate::repr::range::RangeKind;
use ScalarType::{Bool, Date, Int32, Int64, Numeric, Range};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn constructors_functions_and_operators_have_materializes_types() {
    let sql = "SELECT int4range(a, 2), int8range(a, NULL, '[]'), numrange(a, 2.5), daterange('2020-01-01', NULL), '[1,2)'::int4range FROM t";
    assert_eq!(
        types(sql),
        [
            Range(RangeKind::Int32),
            Range(RangeKind::Int64),
            Range(RangeKind::Numeric),
            Range(RangeKind::Date),
            Range(RangeKind::Int32),
        ]
    );
    let r = "int4range(a, 5)";
    let sql = format!("SELECT lower({r}), upper(int8range(1, 2)), lower(numrange(1, 2)), upper(daterange(NULL, NULL)), isempty({r}), {r} @> a, a <@ {r}, {r} && {r}, {r} -|- {r}, {r} + {r}, {r} * {r}, {r} - {r}, {r} < {r}, lower(b) FROM t");
    assert_eq!(
        types(&sql),
        [
            Int32,
            Int64,
            Numeric,
            Date,
            Bool,
            Bool,
            Bool,
            Bool,
            Bool,
            Range(RangeKind::Int32),
            Range(RangeKind::Int32),
            Range(RangeKind::Int32),
            Bool,
            ScalarType::Text,
        ]
    );
    // Never NULL: a NULL bound is infinite; a bound of one is NULL.
    let columns = select("SELECT int4range(a, a), lower(int4range(1, 2)) FROM t").columns;
    assert!(!columns[0].nullable && columns[1].nullable);
    assert_eq!(columns[0].name, "int4range");
}

#[test]
fn materialize_has_no_other_range_overloads() {
    for (sql, e) in [
        (
            "SELECT int4range(-1, 1) @> 0.1",
            "operator does not exist: int4range @> numeric",
        ),
        (
            "SELECT int4range(1, 2) && int8range(1, 2)",
            "operator does not exist: int4range && int8range",
        ),
        (
            "SELECT int4range(1, 2) = int8range(1, 2)",
            "operator does not exist: int4range = int8range",
        ),
        (
            "SELECT int4range(1, 2) + 1",
            "operator does not exist: int4range + integer",
        ),
        (
            "SELECT int4range(1)",
            "function int4range(integer) does not exist",
        ),
        (
            "SELECT int4range(1, 2, 3)",
            "function int4range(integer, integer, integer) does not exist",
        ),
        (
            "SELECT isempty(1)",
            "function isempty(integer) does not exist",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn what_the_engine_does_not_model_is_refused_by_name() {
    for (sql, e) in [
        (
            "SELECT '[2020-01-01 00:00:00 EST,)'::tstzrange",
            "unsupported: time zone \"EST\"",
        ),
        (
            "SELECT tstzrange(NULL, NULL) @> TIMESTAMP '2020-01-01'",
            "unsupported: operator @> of tstzrange and timestamp without time zone",
        ),
        ("SELECT '{}'::int4range[]", "unsupported: type int4range[]"),
        (
            "SELECT int4range(1, 5) @> '[1,6)'",
            "unsupported: operator @> of an unknown operand",
        ),
        (
            "SELECT int8range(1, 5) @> 3",
            "unsupported: operator @> of int8range and integer",
        ),
        (
            "SELECT '[1,2)' && '[1,2)'",
            "unsupported: operator && of unknown types",
        ),
        (
            "SELECT isempty('empty')",
            "unsupported: function isempty of an unknown argument",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
