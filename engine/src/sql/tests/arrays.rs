//! Arrays in the planner: the types `ARRAY[...]`, subscripts, casts and
//! the array functions have, which of them can be NULL, Materialize's
//! errors where it has no answer, and what the engine refuses by name
//! (arrays of the types it does not model, `array_agg` of arrays, `min`, `max`, `greatest` and `least` of arrays, whose
//! order is not the derived one, arrays of `jsonb`, operators of arrays
//! but the comparisons of one type, `ANY` and `ALL` of an array but of
//! a comparison that casts no element, and the array forms it does not
//! plan); the functions that make a `text[]` of a text.

use super::*;
use crate::repr::array::ArrayElem;
use ScalarType::{Array, Bool, Int32, Text};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn arrays_have_materializes_types() {
    let sql = "SELECT ARRAY[a, 2], ARRAY[a::bigint, 2], ARRAY['x', b], ARRAY[NULL, 'y'], ARRAY[ARRAY[1]], '{1}'::int[], '{1}'::int[][], ARRAY[1]::text[], ARRAY[1]::text, (ARRAY[a])[1], array_length(ARRAY[a], 1), ARRAY[a] = ARRAY[2] FROM t";
    let int = Array(ArrayElem::Int32);
    let text = Array(ArrayElem::Text);
    assert_eq!(
        types(sql),
        [
            int,
            Array(ArrayElem::Int64),
            text,
            text,
            int,
            int,
            int,
            text,
            Text,
            Int32,
            Int32,
            Bool,
        ]
    );
    assert_eq!(
        types("SELECT array_agg(a), array_agg(b) FROM t"),
        [int, text]
    );
    // What can be NULL of non-NULL operands: an element out of range,
    // the length of a missing dimension, array_agg over no rows.
    let sql = "SELECT ARRAY[1], (ARRAY[1])[1], array_length(ARRAY[1], 1), array_lower(ARRAY[1], 1), array_upper(ARRAY[1], 1)";
    let nullable: Vec<bool> = select(sql).columns.iter().map(|c| c.nullable).collect();
    assert_eq!(nullable, [false, true, true, true, true]);
    // ANY and ALL of an array are booleans, NULL of a NULL element.
    let sql = "SELECT 1 = ANY (ARRAY[a]), a < ALL (ARRAY[1]) FROM t";
    let columns = select(sql).columns;
    assert_eq!(
        columns.iter().map(|c| c.typ).collect::<Vec<_>>(),
        [Bool, Bool]
    );
    assert!(columns.iter().all(|c| c.nullable));
}

#[test]
fn materialize_answers_these_with_errors() {
    for (sql, e) in [
        ("SELECT ARRAY[]", "cannot determine type of empty array"),
        (
            "SELECT ARRAY[1, true]",
            "ARRAY types integer and boolean cannot be matched",
        ),
        ("SELECT (1)[1]", "cannot subscript type integer"),
        (
            "SELECT (ARRAY[1])[1:1]",
            "array subscript does not support slices",
        ),
        (
            "SELECT array_length(NULL, 1)",
            "could not determine polymorphic type because input has type unknown",
        ),
        (
            "SELECT array_upper(1, 1)",
            "function array_upper(integer, integer) does not exist",
        ),
        (
            "SELECT 'x' = ANY (ARRAY[1])",
            "invalid input syntax for type integer: invalid digit found in string: \"x\"",
        ),
        (
            "SELECT 1 = ANY (ARRAY['1'])",
            "operator does not exist: integer = text",
        ),
        (
            "SELECT 1 = ALL (ARRAY[])",
            "cannot determine type of empty array",
        ),
        (
            "SELECT a = ANY (b) FROM t",
            "function unnest(text) does not exist",
        ),
        (
            "SELECT 1 = ANY ('{1}')",
            "function unnest(unknown) is not unique",
        ),
        (
            "SELECT '[1:1]={1}'::int[]",
            "invalid input syntax for type array: Specifying array lower bounds is not supported: \"[1:1]={1}\"",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn what_the_engine_does_not_model_is_refused_by_name() {
    for (sql, e) in [
        ("SELECT '{a}'::varchar[]", "unsupported: type varchar[]"),
        (
            "SELECT '{1}'::numeric(3, 1)[]",
            "unsupported: type numeric(3,1)[]",
        ),
        ("SELECT ARRAY['a'::char]", "unsupported: ARRAY of char"),
        (
            "SELECT ARRAY[ARRAY[1], ARRAY['a']]",
            "unsupported: ARRAY of arrays of different types",
        ),
        (
            "SELECT array_agg(ARRAY[a]) FROM t",
            "unsupported: array_agg of integer[]",
        ),
        (
            "SELECT min(ARRAY[a]) FROM t",
            "unsupported: min of integer[]",
        ),
        (
            "SELECT greatest(ARRAY[a], ARRAY[2]) FROM t",
            "unsupported: function greatest of integer[]",
        ),
        ("SELECT [1, 2]", "unsupported: expression array"),
        ("SELECT '{}'::jsonb[]", "unsupported: type jsonb[]"),
        (
            "SELECT '{}'::jsonb - '{a}'::text[]",
            "unsupported: operator - of arrays",
        ),
        (
            "SELECT ARRAY[1] || ARRAY[2::bigint]",
            "unsupported: operator || of integer[] and bigint[]",
        ),
        (
            "SELECT ARRAY[1] || 2",
            "unsupported: operator || of integer[] and integer",
        ),
        (
            "SELECT array_cat(ARRAY['a'], b) FROM t",
            "unsupported: function array_cat of text[] and text",
        ),
        (
            "SELECT ARRAY[1] = ARRAY[1::bigint]",
            "unsupported: operator = of arrays",
        ),
        (
            "SELECT 3000000000 = ANY (ARRAY[a]) FROM t",
            "unsupported: ANY and ALL of an array whose elements the comparison casts",
        ),
        (
            "SELECT b ~ ANY (ARRAY['x']) FROM t",
            "unsupported: operator ~ of ANY and ALL of an array",
        ),
        (
            "SELECT a FROM t WHERE c OR a / 0 = ANY (ARRAY[2])",
            "unsupported: ANY and ALL of an array whose operand or array can fail",
        ),
        (
            "SELECT a = ANY (ARRAY[ARRAY[a], ARRAY[2]]) FROM t",
            "unsupported: ANY and ALL of an array whose operand or array can fail",
        ),
        (
            "SELECT a = ANY (b::int[]) FROM t",
            "unsupported: ANY and ALL of an array whose operand or array can fail",
        ),
        (
            "SELECT count(*) = ANY (ARRAY[1]) FROM t",
            "unsupported: ANY and ALL of an array whose operand or array can fail",
        ),
        (
            "SELECT a FROM t ORDER BY a = ANY (ARRAY[1])",
            "unsupported: subqueries in ORDER BY clause",
        ),
        (
            "SELECT nope = ANY ('{a}'::varchar[]) FROM t",
            "unsupported: type varchar[]",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

/// The functions that make or read arrays: their types, which can be
/// NULL of non-NULL arguments (`regexp_match` of no match,
/// `array_position` of none found), and what is refused.
#[test]
fn array_functions_have_materializes_types() {
    let sql = "SELECT regexp_match('a', 'a'), regexp_split_to_array('a', 'a'), string_to_array('a', ','), array_to_string(ARRAY[1], ','), array_position(ARRAY[1], 1), array_position(ARRAY['a'], NULL, 2), ARRAY[1] || '{2}', array_cat(NULL, ARRAY['a']), array_remove(ARRAY[1], 1)";
    let columns = select(sql).columns;
    let text = Array(ArrayElem::Text);
    let int = Array(ArrayElem::Int32);
    assert_eq!(
        columns.iter().map(|c| c.typ).collect::<Vec<_>>(),
        [text, text, text, Text, Int32, Int32, int, text, int]
    );
    let nullable: Vec<bool> = columns.iter().map(|c| c.nullable).collect();
    assert_eq!(
        nullable,
        [true, false, false, false, true, true, true, true, false]
    );
    for (sql, e) in [
        (
            "SELECT array_position(ARRAY[a], 1::bigint) FROM t",
            "unsupported: function array_position of bigint in integer[]",
        ),
        (
            "SELECT array_position('{1}', 1)",
            "unsupported: function array_position of an array of unknown type",
        ),
        (
            "SELECT array_position(ARRAY[1], 1, 2::bigint)",
            "function array_position(integer[], integer, bigint) does not exist",
        ),
        (
            "SELECT array_remove(ARRAY[1], 'a'::text)",
            "unsupported: function array_remove of text in integer[]",
        ),
        (
            "SELECT array_to_string(ARRAY[1], 2)",
            "function array_to_string(integer[], integer) does not exist",
        ),
        (
            "SELECT string_to_array('a', ',', 'b', 'c')",
            "function string_to_array(unknown, unknown, unknown, unknown) does not exist",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

/// `MAP[...]` is Materialize's constructor, which sqlparser reads as a
/// subscript of a column `map`: refused, before a real error elsewhere,
/// never "column does not exist". `LIST[...]` is planned (`list.rs`).
#[test]
fn map_constructors_are_refused_not_columns() {
    for (sql, e) in [
        ("SELECT Map[1]", "unsupported: MAP[...] (the map type)"),
        (
            "SELECT nosuch, MAP[1]",
            "unsupported: MAP[...] (the map type)",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
    // Quoted, the word is a column's name.
    assert_eq!(
        err("SELECT \"list\"[1] FROM t"),
        "column \"list\" does not exist"
    );
}
