//! Lists in the planner: the types `LIST[...]`, the list type names,
//! subscripts, slices and the list functions have, Materialize's errors
//! where it has no answer, and what the engine refuses by name (lists of
//! two types, `||` and functions whose arguments the real system would
//! cast, `min`, `max`, `greatest` and `least` of lists).

use super::*;
use crate::repr::array::ArrayElem;
use crate::repr::list::ListType;
use ScalarType::{Bool, Int32, Int64, List, Text};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

fn list(elem: ArrayElem, layers: u8) -> ScalarType {
    List(ListType { elem, layers })
}

#[test]
fn lists_have_materializes_types() {
    let sql = "SELECT LIST[a, 2], LIST[[a], [2, 3]], LIST['x', NULL], '{1}'::int list, \
               CAST('{{1}}' AS bigint list list), LIST[1]::text list, LIST[[1]][1], LIST[[1]][1][1], \
               LIST[[1]][1:], list_length(LIST[a]), list_append(LIST[a], 2), LIST[a] = LIST[2], \
               LIST[a]::text, list_n_layers(LIST[[1]]) FROM t";
    let int = list(ArrayElem::Int32, 1);
    assert_eq!(
        types(sql),
        [
            int,
            list(ArrayElem::Int32, 2),
            list(ArrayElem::Text, 1),
            int,
            list(ArrayElem::Int64, 2),
            list(ArrayElem::Text, 1),
            int,
            Int32,
            list(ArrayElem::Int32, 2),
            Int32,
            int,
            Bool,
            Text,
            Int32,
        ]
    );
    let _ = Int64;
}

#[test]
fn errors_are_materializes_and_refusals_name_what_is_refused() {
    for (sql, e) in [
        ("SELECT LIST[]", "cannot determine type of empty list"),
        (
            "SELECT LIST[1, LIST[2]]",
            "LIST types integer and integer list cannot be matched",
        ),
        (
            "SELECT LIST[1]::int list list",
            "LIST could not convert type integer to integer list",
        ),
        (
            "SELECT LIST[1][1][1]",
            "cannot index into 2 layers; list only has 1 layer",
        ),
        (
            "SELECT LIST[[1]][1][1][1]",
            "cannot index into 3 layers; list only has 2 layers",
        ),
        ("SELECT LIST[1][1][1:1]", "cannot subscript type integer"),
        (
            "SELECT LIST[1][DATE '2001-01-01']",
            "subscripting does not support casting from date to bigint",
        ),
        (
            "SELECT LIST[1] = LIST['a']",
            "operator does not exist: integer list = text list",
        ),
        (
            "SELECT LIST[1] = '{2}'::text",
            "operator does not exist: integer list = text",
        ),
        (
            "SELECT length(LIST['1'])",
            "unsupported: function length of text list",
        ),
        (
            "SELECT list_length(NULL)",
            "could not determine polymorphic type because input has type unknown",
        ),
        (
            "SELECT LIST[LIST[1], LIST[1::bigint]]",
            "unsupported: LIST of lists of different types",
        ),
        (
            "SELECT list_append(LIST[1], 1::bigint)",
            "unsupported: function list_append of integer list, bigint",
        ),
        (
            "SELECT LIST[1] || 'a'",
            "unsupported: operator || of integer list and text",
        ),
        (
            "SELECT LIST[1] @> LIST[1]",
            "unsupported: operator @> of lists",
        ),
        (
            "SELECT max(LIST[a]) FROM t",
            "unsupported: max of integer list",
        ),
        (
            "SELECT greatest(LIST[a], LIST[1]) FROM t",
            "unsupported: function greatest of integer list",
        ),
        (
            "SELECT '{1}'::varchar list",
            "unsupported: type varchar list",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

/// After a type the rewrite does not name, `LIST` is Materialize's list
/// type, never sqlparser's alias: refused, not a value named `list`.
#[test]
fn list_after_another_type_is_refused_not_an_alias() {
    for sql in [
        "SELECT '{1}'::varchar(2) list",
        "SELECT '{1}'::int[] list",
        "SELECT a list FROM t",
    ] {
        assert!(err(sql).starts_with("unsupported: "), "{sql}: {}", err(sql));
    }
}
