//! `WITH MUTUALLY RECURSIVE` as the planner plans it: one `LetRec` whose
//! bindings see each other and shadow tables, types held to their
//! declarations with Materialize's error, and what is refused by name.

use super::subqueries::{gets, nodes};
use super::*;
use crate::repr::unsupported;

#[test]
fn bindings_see_each_other_and_shadow_a_table() {
    let s = select(
        "WITH MUTUALLY RECURSIVE a (x int) AS (SELECT x FROM b UNION SELECT 1), \
         b (x int) AS (SELECT x FROM a), t (x int) AS (SELECT x FROM a) SELECT x FROM t",
    );
    let RelationPlan::LetRec { ids, values, .. } = &s.plan else {
        panic!("{:#?}", s.plan);
    };
    assert_eq!((ids.len(), values.len()), (3, 3));
    // `a` reads `b`, a binding after it; `t` is the binding, not the table.
    assert!(values[0].reads_local(ids[1]));
    assert_eq!(gets(&s.plan, T), 0);
    assert_eq!(s.columns, vec![col("x", Int, true)]);
    assert_eq!(s.simple, None);
    let letrecs = nodes(&s.plan)
        .into_iter()
        .filter(|n| matches!(n, RelationPlan::LetRec { .. }))
        .count();
    assert_eq!(letrecs, 1);
}

#[test]
fn types_are_held_to_the_declaration() {
    assert_eq!(
        err("WITH MUTUALLY RECURSIVE r (x boolean) AS (SELECT a FROM t) SELECT * FROM r"),
        "WITH MUTUALLY RECURSIVE query \"r\" declared types (boolean), but query returns types (integer)"
    );
    assert_eq!(
        err("WITH MUTUALLY RECURSIVE r (x int, y int) AS (SELECT a FROM t) SELECT * FROM r"),
        "WITH MUTUALLY RECURSIVE query \"r\" declared types (integer, integer), but query returns types (integer)"
    );
    assert_eq!(
        err("WITH MUTUALLY RECURSIVE r (x int) AS (SELECT 1), r (y int) AS (SELECT 2) SELECT 1"),
        "WITH query name \"r\" specified more than once"
    );
}

#[test]
fn what_is_not_done_exactly_is_refused_by_name() {
    for (sql, refused) in [
        (
            "WITH MUTUALLY RECURSIVE r (x bigint) AS (SELECT a FROM t) SELECT * FROM r",
            "a WITH MUTUALLY RECURSIVE binding whose types need an assignment cast",
        ),
        (
            "WITH MUTUALLY RECURSIVE r (x int) AS (SELECT max(x) FROM r) SELECT * FROM r",
            "an aggregate or GROUP BY over a WITH MUTUALLY RECURSIVE binding",
        ),
        (
            "WITH MUTUALLY RECURSIVE r (x int) AS (SELECT x FROM r ORDER BY x LIMIT 1) SELECT * FROM r",
            "ORDER BY with LIMIT or OFFSET over a WITH MUTUALLY RECURSIVE binding",
        ),
        (
            "WITH MUTUALLY RECURSIVE (RETURN AT RECURSION LIMIT 5) r (x int) AS (SELECT 1) SELECT * FROM r",
            "WITH MUTUALLY RECURSIVE (RETURN AT RECURSION LIMIT)",
        ),
        (
            "WITH MUTUALLY RECURSIVE (ERROR AT RECURSION LIMIT 5) r (x int) AS (SELECT 1) SELECT * FROM r",
            "WITH MUTUALLY RECURSIVE (ERROR AT RECURSION LIMIT)",
        ),
        (
            "WITH RECURSIVE r (x) AS (SELECT 1) SELECT * FROM r",
            "WITH RECURSIVE",
        ),
    ] {
        assert_eq!(err(sql), unsupported(refused), "{sql}");
    }
    // An aggregate over no binding is rendered outside the loop.
    let s = select(
        "WITH MUTUALLY RECURSIVE r (x bigint) AS (SELECT count(*) FROM t UNION SELECT x FROM r) SELECT * FROM r",
    );
    assert!(matches!(s.plan, RelationPlan::LetRec { .. }));
}

#[test]
fn a_binding_nothing_reads_is_not_computed() {
    // `b` is read by nothing the body reads: dropped, as Materialize's
    // optimizer drops it; the body reading no binding is the body alone.
    let s = select(
        "WITH MUTUALLY RECURSIVE a (x int) AS (SELECT x FROM a UNION SELECT 1), \
         b (x int) AS (SELECT a FROM t) SELECT x FROM a",
    );
    let RelationPlan::LetRec { ids, .. } = &s.plan else {
        panic!("{:#?}", s.plan);
    };
    assert_eq!(ids.len(), 1);
    assert_eq!(gets(&s.plan, T), 0);
    let s = select("WITH MUTUALLY RECURSIVE a (x int) AS (SELECT a FROM t) SELECT * FROM u");
    assert_eq!(s.plan, RelationPlan::Get(U));
    // Its planning errors stand.
    assert_eq!(
        err("WITH MUTUALLY RECURSIVE a (x boolean) AS (SELECT a FROM t) SELECT a FROM u"),
        "WITH MUTUALLY RECURSIVE query \"a\" declared types (boolean), but query returns types (integer)"
    );
}
