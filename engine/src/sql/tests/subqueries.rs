//! Subqueries and the joins of issue 35 as the planner plans them: a
//! subquery decorrelated over the distinct outer values it names (never
//! once per outer row), the column lists of USING and NATURAL joins, and
//! the refusals of what is not planned exactly.

use super::*;
use crate::plan::JoinKind;

/// Every plan node of `plan`, depth first.
pub(super) fn nodes(plan: &RelationPlan) -> Vec<&RelationPlan> {
    let mut out = vec![plan];
    let mut children: Vec<&RelationPlan> = vec![];
    match plan {
        RelationPlan::Map { input, .. }
        | RelationPlan::FlatMap { input, .. }
        | RelationPlan::Filter { input, .. }
        | RelationPlan::Project { input, .. }
        | RelationPlan::Reduce { input, .. }
        | RelationPlan::Distinct { input }
        | RelationPlan::Negate { input }
        | RelationPlan::Threshold { input }
        | RelationPlan::TopK { input, .. }
        | RelationPlan::Window { input, .. }
        | RelationPlan::Derived { input, .. } => children.push(input),
        RelationPlan::Join { inputs, .. } | RelationPlan::Union { inputs } => {
            children.extend(inputs)
        }
        RelationPlan::EquiJoin { left, right, .. } => children.extend([&**left, &**right]),
        RelationPlan::Let { value, body, .. } => children.extend([&**value, &**body]),
        RelationPlan::LetRec { values, body, .. } => {
            children.extend(values);
            children.push(body);
        }
        RelationPlan::Get(_) | RelationPlan::Constant { .. } | RelationPlan::Local { .. } => {}
    }
    for c in children {
        out.extend(nodes(c));
    }
    out
}

pub(super) fn gets(plan: &RelationPlan, id: GlobalId) -> usize {
    let read = |n: &&RelationPlan| matches!(n, RelationPlan::Get(g) if *g == id);
    nodes(plan).into_iter().filter(read).count()
}

#[test]
fn a_correlated_subquery_is_computed_over_the_distinct_outer_values() {
    let s = select("SELECT a, (SELECT max(d) FROM u WHERE u.a = t.a) FROM t");
    let all = nodes(&s.plan);
    // The outer relation is read once and bound; the subquery's keys are
    // the distinct values of the one outer column it names.
    assert_eq!(gets(&s.plan, T), 1);
    assert_eq!(gets(&s.plan, U), 1);
    let keys = all.iter().any(|n| {
        matches!(n, RelationPlan::Distinct { input }
            if matches!(&**input, RelationPlan::Project { columns, .. } if columns == &vec![0]))
    });
    assert!(keys, "{:#?}", s.plan);
    // Its value is joined back on that column, NULL matching NULL, and a
    // second row for a key becomes the real system's error.
    let back = all.iter().any(|n| {
        matches!(n, RelationPlan::EquiJoin { left_key, kind: JoinKind::Left, nulls_match: true, .. }
            if left_key == &vec![0])
    });
    assert!(back, "{:#?}", s.plan);
    let error = all.iter().any(|n| {
        matches!(n, RelationPlan::Map { exprs, .. }
            if exprs.contains(&ScalarExpr::Error("more than one record produced in subquery".into())))
    });
    assert!(error, "{:#?}", s.plan);
    assert_eq!(s.columns, vec![col("a", Int, true), col("max", Int, true)]);
}

#[test]
fn an_uncorrelated_subquery_is_computed_once() {
    let s = select("SELECT a FROM t WHERE EXISTS (SELECT * FROM u)");
    let once = nodes(&s.plan)
        .into_iter()
        .any(|n| matches!(n, RelationPlan::Constant { rows, arity: 3 } if rows.len() == 1));
    assert!(once, "{:#?}", s.plan);
    assert_eq!(gets(&s.plan, U), 1);
}

#[test]
fn subquery_columns_and_errors() {
    assert_eq!(
        select("SELECT (SELECT d FROM u), EXISTS (SELECT 1), a IN (SELECT 1) FROM t").columns,
        vec![
            col("d", Int, true),
            col("exists", Bool, false),
            col("?column?", Bool, true),
        ]
    );
    assert_eq!(
        err("SELECT (SELECT a, d FROM u)"),
        "Expected subselect to return 1 column, got 2 columns"
    );
    assert_eq!(
        err("SELECT 1 IN (SELECT a, d FROM u) AND 2 IN (SELECT a, d FROM u)"),
        "subquery1 has 2 columns available but 1 columns specified"
    );
    // The outer query's names are found past the subquery's own.
    assert_eq!(
        err("SELECT (SELECT nope FROM u) FROM t"),
        "column \"nope\" does not exist"
    );
    assert!(plan("SELECT (SELECT b FROM u) FROM t", &catalog()).is_ok());
    // A subquery written twice is planned once, and is of its type both
    // times (the second was once taken for a text: `integer + text`).
    let types = |sql| {
        select(sql)
            .columns
            .into_iter()
            .map(|c| c.typ)
            .collect::<Vec<_>>()
    };
    assert_eq!(types("SELECT (SELECT d FROM u) + (SELECT d FROM u)"), [Int]);
    assert_eq!(
        types("SELECT (SELECT d FROM u), (SELECT d FROM u), 1 IN (SELECT d FROM u)"),
        [Int, Int, Bool]
    );
}

#[test]
fn what_subqueries_are_refused() {
    for (sql, refusal) in [
        (
            "SELECT CASE WHEN c THEN (SELECT 1) END FROM t",
            "unsupported: subqueries in CASE",
        ),
        (
            "SELECT a FROM t GROUP BY a HAVING count(*) > ALL (SELECT d FROM u)",
            "unsupported: subqueries or aggregates left of IN, ANY or ALL",
        ),
        (
            "SELECT EXISTS (SELECT (SELECT 1) FROM u)",
            "unsupported: subqueries in the select list of EXISTS",
        ),
        (
            "SELECT (SELECT count(t.a) FROM u) FROM t",
            "unsupported: an aggregate of an outer query's columns",
        ),
        (
            "INSERT INTO u VALUES ((SELECT 1), 2)",
            "unsupported: subqueries in VALUES",
        ),
        (
            "SELECT a FROM t ORDER BY (SELECT 1)",
            "unsupported: subqueries in ORDER BY clause",
        ),
        (
            "SELECT * FROM t LEFT JOIN LATERAL (SELECT a FROM u) AS s USING (a)",
            "unsupported: LEFT JOIN LATERAL other than with ON",
        ),
        (
            "SELECT * FROM t, u, v RIGHT JOIN LATERAL (SELECT t.a) AS s ON v.k = s.a",
            "unsupported: a RIGHT or FULL JOIN LATERAL naming earlier FROM items",
        ),
        (
            "SELECT * FROM t, LATERAL (SELECT u.a FROM u WHERE u.a = t.a) AS s LEFT JOIN v ON v.k = s.a",
            "unsupported: LEFT JOIN after a LATERAL subquery that follows other FROM items",
        ),
        (
            "SELECT 1 IN (SELECT '1')",
            "unsupported: a subquery's column of unknown type",
        ),
        (
            "SELECT (SELECT NULL)",
            "unsupported: a subquery's column of unknown type",
        ),
        (
            "SELECT (SELECT t) FROM t",
            "unsupported: whole-row reference t: column \"t\" does not exist",
        ),
        (
            "SELECT (SELECT x FROM (SELECT t.a AS x) AS s) FROM t",
            "unsupported: a subquery in FROM naming an outer query's columns",
        ),
    ] {
        assert_eq!(err(sql), refusal, "{sql}");
    }
}

#[test]
fn using_lists_each_column_once_first() {
    let names =
        |sql: &str| -> Vec<String> { select(sql).columns.into_iter().map(|c| c.name).collect() };
    assert_eq!(
        names("SELECT * FROM t JOIN u USING (a)"),
        ["a", "b", "c", "d"]
    );
    assert_eq!(
        names("SELECT * FROM u NATURAL JOIN t"),
        ["a", "d", "b", "c"]
    );
    assert_eq!(
        names("SELECT * FROM t NATURAL JOIN v"),
        ["a", "b", "c", "k", "x"]
    );
    // The right's column for RIGHT; for FULL a COALESCE of both, which no
    // qualified name finds, beside the inputs' own.
    let right = select("SELECT * FROM t RIGHT JOIN nn USING (a)");
    assert_eq!(right.columns[0], col("a", Int, false));
    let full = select("SELECT a, t.a, u.a FROM t FULL JOIN u USING (a)");
    assert_eq!(full.columns, vec![col("a", Int, true); 3]);
    let coalesce = nodes(&full.plan).into_iter().any(|n| {
        matches!(n, RelationPlan::Map { exprs, .. } if exprs == &vec![ScalarExpr::Coalesce(vec![
            ScalarExpr::Column(0),
            ScalarExpr::Column(3),
        ])])
    });
    assert!(coalesce, "{:#?}", full.plan);
    // A later USING finds the merged column alone; an item with two.
    assert!(plan(
        "SELECT * FROM t JOIN u USING (a) JOIN u AS u2 USING (a)",
        &catalog()
    )
    .is_ok());
    assert_eq!(
        err("SELECT * FROM t JOIN u ON true JOIN nn USING (a)"),
        "common column name \"a\" appears more than once in left table"
    );
    assert_eq!(
        err("SELECT * FROM t, u JOIN v USING (a)"),
        "column \"a\" specified in USING clause does not exist in right table"
    );
}

#[test]
fn derived_tables_outer_join_types_and_tuples() {
    let s = select("SELECT * FROM (SELECT a, d FROM u) AS s (x)");
    assert_eq!(s.columns, vec![col("x", Int, true), col("d", Int, false)]);
    assert_eq!(
        err("SELECT * FROM (SELECT a FROM u) AS s (x, y)"),
        "s has 1 columns available but 2 columns specified"
    );
    assert!(plan("SELECT * FROM t JOIN widths AS w (a) USING (a)", &catalog()).is_ok());
    // An integer and a bigint join inner, not outer.
    assert!(plan(
        "SELECT * FROM t JOIN widths AS w (x, a) USING (a)",
        &catalog()
    )
    .is_ok());
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN widths AS w (x, a) USING (a)"),
        "unsupported: LEFT JOIN USING columns of types integer and bigint"
    );
    assert_eq!(err("SELECT (1, 2)"), "unsupported: expression tuple");
}
