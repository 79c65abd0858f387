//! `SELECT DISTINCT ON` as the planner plans it: a top-k of limit 1 over
//! the rows before the select list's projection, grouped by the DISTINCT
//! ON expressions (and a subquery's outer row) and ordered by the ORDER BY
//! after them; and the forms it refuses, with Materialize's texts.

use super::*;

#[test]
fn distinct_on_is_a_top_k_of_one_row_per_group() {
    let s = select("SELECT DISTINCT ON (a) a, c FROM t ORDER BY a, c DESC");
    assert_eq!(
        s.plan,
        RelationPlan::Project {
            input: Box::new(RelationPlan::TopK {
                input: get(T),
                group_key: vec![0],
                order_by: vec![OrderColumn::new(2, true)],
                limit: Some(1),
                offset: 0,
            }),
            columns: vec![0, 2],
        }
    );
    // The read's own ORDER BY stays its finishing, by output position.
    assert_eq!(
        s.finishing.order_by,
        vec![OrderColumn::new(0, false), OrderColumn::new(1, true)]
    );
    // An expression that is no column is mapped before the top-k, as its
    // key; the DISTINCT ON expressions match the ORDER BY's in any order.
    let s = select("SELECT DISTINCT ON (a + 1, c) c, a + 1 FROM t ORDER BY c, a + 1");
    let RelationPlan::Project { input, columns } = s.plan else {
        panic!("{:?}", s.plan)
    };
    assert_eq!(columns, vec![2, 3]);
    let RelationPlan::TopK {
        input,
        group_key,
        order_by,
        limit,
        ..
    } = *input
    else {
        panic!("{input:?}")
    };
    assert_eq!((group_key, order_by, limit), (vec![4, 2], vec![], Some(1)));
    let RelationPlan::Map { exprs, .. } = *input else {
        panic!("{input:?}")
    };
    let plus_one = bin(BinaryOp::Add, c(0), int(1));
    assert_eq!(exprs, vec![plus_one.clone(), plus_one]);
}

#[test]
fn distinct_on_errors_and_refusals() {
    assert_eq!(
        err("SELECT DISTINCT ON (c) a, c FROM t ORDER BY a, c"),
        "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"
    );
    assert_eq!(
        err("SELECT DISTINCT ON (2) a FROM t"),
        "column reference 2 in DISTINCT ON clause is out of range (1 - 1)"
    );
    assert_eq!(
        err("SELECT DISTINCT ON (x) a AS x, c AS x FROM t ORDER BY 1"),
        "column reference \"x\" is ambiguous"
    );
    // Two columns neither DISTINCT ON nor ORDER BY fixes, or an expression
    // of one: which tied row Materialize keeps is its optimizer's.
    let undecided =
        "unsupported: SELECT DISTINCT ON whose ORDER BY leaves the kept row's columns undecided";
    for sql in [
        "SELECT DISTINCT ON (a) b, c FROM t",
        "SELECT DISTINCT ON (a) a, b, c FROM t",
        "SELECT DISTINCT ON (a) upper(b) FROM t",
        "SELECT DISTINCT ON (a) a, b, b || 'x' FROM t ORDER BY a",
    ] {
        assert_eq!(err(sql), undecided, "{sql}");
    }
    // One input column alone: its least value is kept.
    select("SELECT DISTINCT ON (a) a, b FROM t");
    select("SELECT DISTINCT ON (a) b, b FROM t");
    select("SELECT DISTINCT ON (a) a, b, c FROM t ORDER BY a, c");
    select("SELECT DISTINCT ON (a) a, c IS NULL, c FROM t ORDER BY a, c IS NULL");
    // The engine plans window functions and subqueries in the select list
    // alone (and where a WHERE or HAVING holds them).
    assert_eq!(
        err("SELECT DISTINCT ON (row_number() OVER ()) a FROM t"),
        "unsupported: a window function outside the select list"
    );
    assert_eq!(
        err("SELECT DISTINCT ON ((SELECT 1)) a FROM t"),
        "unsupported: subqueries in DISTINCT ON clause"
    );
    // Fixed: a key, an ORDER BY column, or an expression of key columns.
    select("SELECT DISTINCT ON (a) a, a + 1, 'x' FROM t ORDER BY a");
    select("SELECT DISTINCT ON (a, b) a IS NULL, b FROM t ORDER BY b");
}
