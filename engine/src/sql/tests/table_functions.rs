//! Table functions in FROM: a call naming earlier FROM items is a
//! `FlatMap` over them, a WHERE over them alone below it; one naming none
//! a `FlatMap` of one empty row; their columns' names and types, `WITH
//! ORDINALITY`, and what is refused by name.

use super::subqueries::nodes;
use super::*;
use crate::repr::UNSUPPORTED;

fn flat_maps(plan: &RelationPlan) -> Vec<&RelationPlan> {
    let all = nodes(plan).into_iter();
    all.filter(|p| matches!(p, RelationPlan::FlatMap { .. }))
        .collect()
}

fn names(columns: &[Column]) -> Vec<&str> {
    columns.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn a_call_naming_a_column_maps_the_from_so_far() {
    let sql = "SELECT a, g FROM t, generate_series(1, t.a) AS g WHERE t.c AND g > 1";
    let s = select(sql);
    let [RelationPlan::FlatMap { input, func, exprs }] = flat_maps(&s.plan)[..] else {
        panic!("{sql}: one FlatMap: {:?}", s.plan);
    };
    assert_eq!(*func, TableFunc::GenerateSeriesInt32);
    assert_eq!(*exprs, vec![int(1), c(0), int(1)]);
    // `t.c` is applied below the function, `g > 1` above it.
    let RelationPlan::Filter { input, predicates } = &**input else {
        panic!("{sql}: the WHERE over t below: {input:?}");
    };
    assert_eq!(**input, RelationPlan::Get(T));
    assert_eq!(predicates.len(), 1);
    assert_eq!(names(&s.columns), ["a", "g"]);
}

#[test]
fn a_call_naming_no_column_is_its_rows_alone() {
    let s = select("SELECT * FROM generate_series(1, 3::bigint) WITH ORDINALITY");
    let [RelationPlan::FlatMap { input, func, exprs }] = flat_maps(&s.plan)[..] else {
        panic!("one FlatMap: {:?}", s.plan);
    };
    let empty = RelationPlan::Constant {
        rows: vec![vec![]],
        arity: 0,
    };
    assert_eq!(**input, empty);
    let inner = Box::new(TableFunc::GenerateSeriesInt64);
    assert_eq!(*func, TableFunc::WithOrdinality(inner));
    assert_eq!(*exprs, vec![bigint(1), bigint(3), bigint(1)]);
    assert_eq!(names(&s.columns), ["generate_series", "ordinality"]);
    assert_eq!(s.columns[1].typ, Int64);
}

#[test]
fn unnest_gives_the_element_type_and_the_alias_names_it() {
    let s = select("SELECT * FROM t, unnest(ARRAY[t.a, 2]) AS x");
    assert_eq!(names(&s.columns), ["a", "b", "c", "x"]);
    assert_eq!(s.columns[3].typ, Int);
    assert!(s.columns[3].nullable);
    let s = select("SELECT * FROM unnest(ARRAY['p']) WITH ORDINALITY AS u (e, n)");
    assert_eq!(names(&s.columns), ["e", "n"]);
}

#[test]
fn jsonb_functions_name_and_type_their_columns_as_materialize() {
    let s = select("SELECT * FROM jsonb_each_text('{}') WITH ORDINALITY");
    assert_eq!(names(&s.columns), ["key", "value", "ordinality"]);
    assert_eq!(s.columns[1].typ, ScalarType::Text);
    assert!(!s.columns[0].nullable && s.columns[1].nullable);
    let s = select("SELECT * FROM jsonb_array_elements('[]') AS e");
    assert_eq!(names(&s.columns), ["value"]);
    assert_eq!(s.columns[0].typ, ScalarType::Jsonb);
    let s = select("SELECT * FROM jsonb_object_keys('{}') AS k");
    assert_eq!(names(&s.columns), ["k"]);
    assert_eq!(
        err("SELECT * FROM jsonb_each('{}'::text)"),
        "function jsonb_each(text) does not exist"
    );
}

#[test]
fn what_is_not_planned_as_materialize_is_refused() {
    for sql in [
        "SELECT * FROM t LEFT JOIN generate_series(1, t.a) ON true",
        "SELECT (SELECT count(*) FROM generate_series(1, t.a)) FROM t",
        "SELECT * FROM generate_series(NULL, NULL, NULL)",
        "SELECT * FROM generate_series('2020-01-01', '2020-01-02', INTERVAL '1 day')",
        "SELECT * FROM generate_series(DATE '2020-01-01', DATE '2020-01-02', INTERVAL '1 day')",
        "SELECT * FROM generate_series(1.5, 2)",
        "SELECT * FROM generate_series(1)",
        "SELECT * FROM unnest('{1}')",
        "SELECT * FROM unnest(ARRAY[1], ARRAY[2])",
        "SELECT * FROM json_each('{}')",
        "SELECT generate_series(1, 2)",
    ] {
        let e = err(sql);
        assert!(e.starts_with(UNSUPPORTED), "{sql}: {e}");
    }
    assert_eq!(
        err("SELECT * FROM generate_series(NULL, NULL)"),
        "function generate_series(unknown, unknown) is not unique"
    );
    assert_eq!(
        err("SELECT * FROM generate_series(1, 2) AS g (a, b)"),
        "g has 1 columns available but 2 columns specified"
    );
}
