//! Window functions as the planner plans them: a `Window` reduce per call
//! or per fused group of value functions, computed in the reverse of the
//! order the calls appear in, each reading the row with the values of the
//! calls before it; and the values placed where the select list reads them.

use super::subqueries::nodes;
use super::*;
use crate::plan::{Window, WindowFunc};

/// The plan's `Window` nodes, outermost (computed last) first.
fn windows(plan: &RelationPlan) -> Vec<&Window> {
    let found = nodes(plan).into_iter().filter_map(|n| match n {
        RelationPlan::Window { window, .. } => Some(window),
        _ => None,
    });
    found.collect()
}

/// The functions of each window of `sql`'s plan, in the order computed.
fn computed(sql: &str) -> (Select, Vec<Vec<WindowFunc>>) {
    let s = select(sql);
    let w = windows(&s.plan);
    let funcs = |w: &&Window| w.calls.iter().map(|c| c.func).collect();
    let order = w.iter().rev().map(funcs).collect();
    (s, order)
}

#[test]
fn calls_are_computed_last_first_and_value_functions_of_one_window_fuse() {
    let (s, order) = computed(
        "SELECT lag(a) OVER (ORDER BY b), row_number() OVER (ORDER BY b), lead(a) OVER (ORDER BY b), first_value(a) OVER (ORDER BY c) FROM t",
    );
    let w = windows(&s.plan);
    // Innermost first: first_value, then lead and lag together, then
    // row_number, which is never fused.
    use WindowFunc::*;
    assert_eq!(
        order,
        vec![vec![FirstValue], vec![Lead, Lag], vec![RowNumber]]
    );
    // Each reads the three columns of t and the values before it.
    let widths: Vec<usize> = w.iter().rev().map(|w| w.width).collect();
    assert_eq!(widths, vec![3, 4, 6]);
    // The select list reads lag, row_number, lead, first_value.
    let RelationPlan::Project { columns, .. } = &s.plan else {
        panic!("{:#?}", s.plan);
    };
    assert_eq!(columns, &vec![5, 6, 4, 3]);
    assert_eq!(s.columns[1], col("row_number", Int64, false));
    assert_eq!(s.columns[0], col("lag", Int, true));
}

#[test]
fn aggregates_of_one_window_fuse_apart_from_value_functions_and_avg_is_two_calls() {
    let (s, order) = computed(
        "SELECT sum(a) OVER (ORDER BY b), lag(a) OVER (ORDER BY b), avg(a) OVER (ORDER BY b), count(*) OVER (ORDER BY b) FROM t",
    );
    use crate::plan::AggregateFunc::{Count, Sum};
    use WindowFunc::*;
    // avg's sum is the first sum's text, computed once; its count is
    // count(a), which count(*) is not.
    assert_eq!(
        order,
        vec![
            vec![Aggregate(Count), Aggregate(Count), Aggregate(Sum)],
            vec![Lag]
        ]
    );
    assert_eq!(s.columns[0], col("sum", Int64, true));
    assert_eq!(s.columns[2], col("avg", ScalarType::Numeric, true));
    assert_eq!(s.columns[3], col("count", Int64, false));
}

#[test]
fn a_window_reads_the_groups_and_a_repeated_call_is_computed_once() {
    let s = select("SELECT b, rank() OVER (ORDER BY count(*)), rank() OVER (ORDER BY count(*)) FROM t GROUP BY b");
    let w = windows(&s.plan);
    assert_eq!(w.len(), 1, "{:#?}", s.plan);
    // The group's key and its count, then the rank.
    assert_eq!(w[0].width, 2);
    assert!(w[0].partition.is_empty());
    assert_eq!(w[0].order_by, vec![OrderColumn::new(2, false)]);
}

#[test]
fn what_is_not_planned_exactly_is_refused_by_name() {
    for (sql, refusal) in [
        ("SELECT a FROM t GROUP BY a HAVING rank() OVER (ORDER BY a) = 1", "a window function outside the select list"),
        ("SELECT a FROM t ORDER BY rank() OVER (ORDER BY a)", "a window function outside the select list"),
        ("SELECT sum(row_number() OVER ()) FROM t", "a window function outside the select list"),
        ("SELECT bool_and(c) OVER () FROM t", "aggregate window function bool_and"),
        ("SELECT string_agg(b, ',' ORDER BY a) OVER () FROM t", "ORDER BY in the call of a window aggregate"),
        ("SELECT sum(DISTINCT a) OVER () FROM t", "DISTINCT in window aggregates"),
        ("SELECT count(a) FILTER (WHERE c) OVER () FROM t", "FILTER in window aggregates"),
        ("SELECT sum(a) OVER (ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM t", "mixed unbounded - offset frames"),
        ("SELECT sum(a) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t", "RANGE in non-default window frames"),
        ("SELECT sum(a::float8) OVER () FROM t", "sum of double precision over the whole partition or an offset frame"),
        ("SELECT avg(a::real) OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t", "sum of real over the whole partition or an offset frame"),
        ("SELECT ntile(2) OVER () FROM t", "window function ntile"),
        ("SELECT lag(a) IGNORE NULLS OVER (ORDER BY a) FROM t", "IGNORE NULLS and RESPECT NULLS"),
        ("SELECT row_number() OVER w FROM t WINDOW w AS (ORDER BY a)", "WINDOW"),
        ("SELECT first_value(a) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t", "RANGE in non-default window frames"),
        ("SELECT first_value(a) OVER (ORDER BY a GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t", "GROUPS in window frames"),
        ("SELECT first_value(a) OVER (ORDER BY a ROWS BETWEEN a PRECEDING AND CURRENT ROW) FROM t", "window frame offset a"),
        ("SELECT count(*) FROM t WHERE a IN (SELECT row_number() OVER () FROM u)", "window functions in a subquery in an expression"),
        ("SELECT lag(row_number() OVER ()) OVER () FROM t", "a window function within a window function"),
        ("SELECT lag(a) OVER (ORDER BY (SELECT 1)) FROM t", "a subquery in a window function"),
        ("SELECT lag(NULL) OVER () FROM t", "lag of an argument of unknown type"),
        ("SELECT lag(a, 1::bigint) OVER () FROM t", "lag with an offset of type bigint"),
        ("SELECT lag(a, 1, 2.5) OVER () FROM t", "lag of integer with a default of numeric"),
        ("SELECT * FROM (SELECT lag(a + 1) OVER () FROM t) AS s", "a window function of a computed expression in a subquery in FROM"),
        // Materialize's row over USING puts the join columns first, and its
        // window ties break by that row.
        ("SELECT row_number() OVER () FROM t JOIN u USING (a)", "window functions over a JOIN ... USING or a NATURAL JOIN"),
        ("SELECT lag(d) OVER (ORDER BY d) FROM t NATURAL JOIN u", "window functions over a JOIN ... USING or a NATURAL JOIN"),
        ("SELECT rank() OVER (ORDER BY d) FROM t FULL JOIN u USING (a)", "window functions over a JOIN ... USING or a NATURAL JOIN"),
    ] {
        assert_eq!(err(sql), format!("unsupported: {refusal}"), "{sql}");
    }
}

#[test]
fn materializes_errors_for_windows_it_rejects() {
    for (sql, error) in [
        (
            "SELECT a FROM t WHERE row_number() OVER () = 1",
            "WHERE clause error: window functions are not allowed in WHERE clause (function pg_catalog.row_number)",
        ),
        (
            "SELECT a FROM t GROUP BY rank() OVER ()",
            "window functions are not allowed in GROUP BY clause (function pg_catalog.rank)",
        ),
        (
            "SELECT rank(a) OVER () FROM t",
            "function rank has 0 parameters, but was called with 1",
        ),
        (
            "SELECT lag(DISTINCT a) OVER () FROM t",
            "DISTINCT specified, but lag is not an aggregate function",
        ),
        (
            "SELECT first_value(a) OVER (ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM t",
            "frame starting from following row cannot have preceding rows",
        ),
        (
            "SELECT first_value(a) OVER (ROWS BETWEEN 1000001 PRECEDING AND CURRENT ROW) FROM t",
            "Window frame offsets greater than 1000000 are currently not supported",
        ),
        // The frames are checked before the select list's items are
        // planned, the last call's first, as Materialize plans them.
        (
            "SELECT a, first_value(a) OVER (ROWS BETWEEN 1 FOLLOWING AND 1000001 FOLLOWING)",
            "Window frame offsets greater than 1000000 are currently not supported",
        ),
        (
            "SELECT lag(a) OVER (ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) + \
             first_value(a) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t",
            "frame start cannot be UNBOUNDED FOLLOWING",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}
