//! `jsonb` in the planner: the types of its operators and functions, which
//! of them can be NULL, Materialize's `operator does not exist` and
//! `function ... does not exist` where it has no overload, and what the
//! engine refuses by name (the operators of text arrays, `||` beside
//! another type, an operator of jsonb whose left side is not one, casts
//! to the types a jsonb has no cast to here).

use super::*;
use ScalarType::{Bool, Int32, Jsonb, Text};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn operators_and_functions_have_materializes_types() {
    let j = "b::jsonb";
    let sql = format!("SELECT {j} -> 'k', {j} -> a, {j} ->> b, {j} ->> 1::smallint, {j} @> '{{}}', '[]' <@ {j}, {j} ? 'k', {j} || {j}, {j} - 'k', {j} - a, {j} = '1', {j} < {j}, jsonb_typeof({j}), jsonb_array_length('[]'), jsonb_strip_nulls({j}), jsonb_pretty({j}), {j}::text, ({j})::int FROM t");
    assert_eq!(
        types(&sql),
        [
            Jsonb, Jsonb, Text, Text, Bool, Bool, Bool, Jsonb, Jsonb, Jsonb, Bool, Bool, Text,
            Int32, Jsonb, Text, Text, Int32,
        ]
    );
    // What can be NULL of non-NULL operands: a missing key or element,
    // `||` and `-` without an answer, the length of a non-array.
    let sql = "SELECT '{}'::jsonb -> 'k', '{}'::jsonb ->> 'k', '{}'::jsonb ? 'k', '1'::jsonb || '2', '1'::jsonb - 'k', jsonb_array_length('{}'), jsonb_typeof('{}'), '{}'::jsonb @> '{}'";
    let nullable: Vec<bool> = select(sql).columns.iter().map(|c| c.nullable).collect();
    assert_eq!(
        nullable,
        [true, true, false, true, true, true, false, false]
    );
}

#[test]
fn materialize_has_no_other_jsonb_overloads() {
    for (sql, e) in [
        (
            "SELECT '{}'::jsonb -> true",
            "operator does not exist: jsonb -> boolean",
        ),
        (
            "SELECT '{}'::jsonb ? 1",
            "operator does not exist: jsonb ? integer",
        ),
        (
            "SELECT '{}'::jsonb @> 1",
            "operator does not exist: jsonb @> integer",
        ),
        (
            "SELECT '{}'::jsonb - '{}'::jsonb",
            "operator does not exist: jsonb - jsonb",
        ),
        (
            "SELECT jsonb_typeof(1)",
            "function jsonb_typeof(integer) does not exist",
        ),
        (
            "SELECT jsonb_pretty('{}'::jsonb, 1)",
            "function jsonb_pretty(jsonb, integer) does not exist",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn what_the_engine_does_not_model_is_refused_by_name() {
    for (sql, e) in [
        ("SELECT '{}'::jsonb #> '{a}'", "unsupported: operator #>"),
        ("SELECT '{}'::jsonb #>> '{a}'", "unsupported: operator #>>"),
        ("SELECT '{}'::jsonb ?| '{a}'", "unsupported: operator ?|"),
        (
            "SELECT '{}'::jsonb || b FROM t",
            "unsupported: operator || of jsonb and text",
        ),
        ("SELECT b -> 'k' FROM t", "unsupported: operator ->"),
        ("SELECT '{}' -> 'k'", "unsupported: operator ->"),
        (
            "SELECT '1'::jsonb::date",
            "unsupported: cast from jsonb to date",
        ),
        ("SELECT '1'::json", "unsupported: type json"),
        (
            "SELECT to_jsonb('a'::char(3))",
            "unsupported: to_jsonb of char",
        ),
        (
            "SELECT jsonb_build_array(1, 'a'::char)",
            "unsupported: jsonb_build_array of char",
        ),
        (
            "SELECT jsonb_build_object('a'::char(2), 1)",
            "unsupported: jsonb_build_object of char",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
