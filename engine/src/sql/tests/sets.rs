//! Set operations, VALUES and WITH as the planner plans them: the shapes
//! Materialize plans them in (a concat, a distinct, a negation and a
//! threshold; INTERSECT's left side bound once; a CTE bound once where it
//! is read, and not computed where it is not), the unified column types,
//! and the errors and refusals in Materialize's words.

use super::subqueries::{gets, nodes};
use super::*;
use crate::repr::unsupported;

fn count(plan: &RelationPlan, pred: impl Fn(&RelationPlan) -> bool) -> usize {
    nodes(plan).into_iter().filter(|n| pred(n)).count()
}

fn is_negate(n: &RelationPlan) -> bool {
    matches!(n, RelationPlan::Negate { .. })
}

fn is_threshold(n: &RelationPlan) -> bool {
    matches!(n, RelationPlan::Threshold { .. })
}

fn is_distinct(n: &RelationPlan) -> bool {
    matches!(n, RelationPlan::Distinct { .. })
}

#[test]
fn each_set_operation_has_materializes_shape() {
    let union_all = select("SELECT a FROM t UNION ALL SELECT a FROM u").plan;
    assert_eq!(
        union_all,
        RelationPlan::Union {
            inputs: vec![
                RelationPlan::Project {
                    input: get(T),
                    columns: vec![0]
                },
                RelationPlan::Project {
                    input: get(U),
                    columns: vec![0]
                },
            ]
        }
    );
    let union = select("SELECT a FROM t UNION SELECT a FROM u").plan;
    assert!(
        matches!(&union, RelationPlan::Distinct { input } if matches!(**input, RelationPlan::Union { .. }))
    );
    let except_all = select("SELECT a FROM t EXCEPT ALL SELECT a FROM u").plan;
    let RelationPlan::Threshold { input } = &except_all else {
        panic!("{except_all:#?}");
    };
    let RelationPlan::Union { inputs } = &**input else {
        panic!("{except_all:#?}");
    };
    assert!(is_negate(&inputs[1]) && !is_negate(&inputs[0]));
    assert_eq!(count(&except_all, is_distinct), 0);
    // EXCEPT subtracts the right side's distinct rows from the left's.
    let except = select("SELECT a FROM t EXCEPT SELECT a FROM u").plan;
    assert_eq!(count(&except, is_distinct), 2);
    assert_eq!(count(&except, is_threshold), 1);
    // INTERSECT reads its left side once, bound, and subtracts from it
    // what EXCEPT ALL leaves of it.
    for (sql, distinct) in [
        ("SELECT a FROM t INTERSECT ALL SELECT a FROM u", 0),
        ("SELECT a FROM t INTERSECT SELECT a FROM u", 1),
    ] {
        let plan = select(sql).plan;
        assert!(matches!(plan, RelationPlan::Let { .. }), "{plan:#?}");
        assert_eq!(gets(&plan, T), 1, "{sql}");
        assert_eq!(count(&plan, is_negate), 2, "{sql}");
        assert_eq!(count(&plan, is_threshold), 1, "{sql}");
        assert_eq!(count(&plan, is_distinct), distinct, "{sql}");
    }
}

#[test]
fn intersect_binds_tighter_and_the_rest_associate_left() {
    // t UNION ALL (u INTERSECT ALL v): the union is the root.
    let plan =
        select("SELECT a FROM t UNION ALL SELECT a FROM u INTERSECT ALL SELECT k FROM v").plan;
    assert!(
        matches!(&plan, RelationPlan::Union { inputs } if matches!(inputs[1], RelationPlan::Let { .. })),
        "{plan:#?}"
    );
    // (t EXCEPT u) EXCEPT v: the last EXCEPT is the root, its left an EXCEPT.
    let plan = select("SELECT a FROM t EXCEPT ALL SELECT a FROM u EXCEPT ALL SELECT k FROM v").plan;
    let RelationPlan::Threshold { input } = &plan else {
        panic!("{plan:#?}");
    };
    assert!(
        matches!(&**input, RelationPlan::Union { inputs } if is_threshold(&inputs[0])),
        "{plan:#?}"
    );
}

#[test]
fn columns_are_the_left_branchs_names_of_the_unified_types() {
    let s = select("SELECT a AS x, c FROM t UNION SELECT d, NOT c FROM u, t");
    assert_eq!(s.columns, vec![col("x", Int, true), col("c", Bool, true)]);
    let s = select("SELECT i FROM widths UNION ALL SELECT l FROM widths");
    assert_eq!(s.columns, vec![col("i", Int64, true)]);
    let s = select("SELECT 1 AS one UNION ALL SELECT 2.5::float8 ORDER BY one");
    assert_eq!(s.columns, vec![col("one", ScalarType::Float64, false)]);
    assert_eq!(s.finishing.order_by, vec![OrderColumn::new(0, false)]);
    let s = select("VALUES (1, 'a'), (NULL, 'b')");
    assert_eq!(
        s.columns,
        vec![col("column1", Int, true), col("column2", Text, false)]
    );
    assert!(matches!(s.plan, RelationPlan::Constant { ref rows, arity: 2 } if rows.len() == 2));
}

#[test]
fn set_operations_fail_in_materializes_words() {
    for (sql, error) in [
        (
            "SELECT a, b FROM t UNION SELECT a FROM u",
            "each UNION query must have the same number of columns: 2 vs 1",
        ),
        (
            "SELECT a FROM t EXCEPT SELECT a, d FROM u",
            "each EXCEPT query must have the same number of columns: 1 vs 2",
        ),
        (
            "SELECT a FROM t INTERSECT SELECT b FROM t",
            "INTERSECT types integer and text cannot be matched",
        ),
        (
            "SELECT c FROM t UNION SELECT a FROM t",
            "UNION types boolean and integer cannot be matched",
        ),
        (
            "SELECT a FROM t UNION SELECT NULL",
            "UNION types integer and text cannot be matched",
        ),
        (
            "VALUES (1), (2, 3)",
            "VALUES expression has varying number of columns: 2 vs 1",
        ),
        (
            "VALUES (1), (true)",
            "VALUES types integer and boolean cannot be matched",
        ),
        (
            "WITH w AS (SELECT 1 AS x), w AS (SELECT 2 AS x) SELECT * FROM w",
            "WITH query name \"w\" specified more than once",
        ),
        (
            "WITH w (x, y) AS (SELECT 1 AS x) SELECT * FROM w",
            "CTE w definition names 2 columns, but CTE w has 1 column",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}

#[test]
fn what_is_not_planned_exactly_is_refused_by_name() {
    for (sql, refused) in [
        // A VALUES row is planned as a constant, never correlated: it may
        // not read the enclosing row (Materialize does).
        (
            "SELECT (SELECT x FROM (VALUES (t.a)) AS v(x)) FROM t",
            "a subquery in FROM naming an outer query's columns",
        ),
        (
            "SELECT (SELECT x FROM (VALUES (1), (a)) AS v(x) LIMIT 1) FROM t",
            "a subquery in FROM naming an outer query's columns",
        ),
        (
            "SELECT v FROM strs UNION SELECT x FROM strs",
            "UNION of char or varchar columns",
        ),
        (
            "SELECT a FROM t UNION SELECT avg(a) FROM t",
            "UNION of numeric and another type",
        ),
        (
            "SELECT a FROM t WHERE a IN (SELECT a FROM u UNION SELECT 1)",
            "UNION in a subquery in an expression",
        ),
        (
            "SELECT a FROM t WHERE a IN (VALUES (1))",
            "VALUES in a subquery in an expression",
        ),
        (
            "SELECT a FROM t WHERE EXISTS (WITH w AS (SELECT 1 AS x) SELECT x FROM w)",
            "WITH in a subquery in an expression",
        ),
        (
            "WITH RECURSIVE w AS (SELECT 1 AS x) SELECT * FROM w",
            "WITH RECURSIVE",
        ),
        (
            "SELECT a FROM t UNION BY NAME SELECT a FROM u",
            "UNION BY NAME",
        ),
    ] {
        assert_eq!(err(sql), unsupported(refused), "{sql}");
    }
}

#[test]
fn a_cte_is_bound_once_where_it_is_read_and_shadows_a_table() {
    let s = select("WITH w AS (SELECT a FROM t) SELECT x.a FROM w AS x, w AS y WHERE x.a = y.a");
    assert!(matches!(s.plan, RelationPlan::Let { .. }), "{:#?}", s.plan);
    assert_eq!(gets(&s.plan, T), 1);
    assert_eq!(s.simple, None);
    // `u` names the CTE, not the table.
    let s = select("WITH u AS (SELECT b FROM t) SELECT * FROM u");
    assert_eq!((gets(&s.plan, T), gets(&s.plan, U)), (1, 0));
    assert_eq!(s.columns, vec![col("b", Text, true)]);
    // A CTE nothing reads is not computed; one only an unread CTE reads
    // neither.
    let s = select("WITH w AS (SELECT a FROM t), x AS (SELECT a FROM w) SELECT * FROM u");
    assert_eq!((gets(&s.plan, T), gets(&s.plan, U)), (0, 1));
    assert_eq!(s.plan, RelationPlan::Get(U));
    // A later CTE sees an earlier one, an earlier one never a later.
    let s = select("WITH w AS (SELECT a FROM t), x AS (SELECT a FROM w) SELECT * FROM x");
    assert_eq!(count(&s.plan, |n| matches!(n, RelationPlan::Let { .. })), 2);
    assert_eq!(
        err("WITH x AS (SELECT a FROM w), w AS (SELECT a FROM t) SELECT * FROM x"),
        "unknown catalog item 'w'"
    );
    // A CTE is not in scope after its query.
    assert_eq!(
        err("SELECT * FROM (WITH w AS (SELECT a FROM t) SELECT a FROM w) AS d, w"),
        "unknown catalog item 'w'"
    );
}

#[test]
fn a_parenthesized_query_keeps_its_finishing_once() {
    let s = select("(((SELECT a FROM t ORDER BY a DESC LIMIT 2)))");
    assert_eq!(s.finishing.limit, Some(2));
    assert_eq!(s.finishing.order_by, vec![OrderColumn::new(0, true)]);
    for (sql, error) in [
        ("((SELECT a FROM t ORDER BY a)) ORDER BY a", "multiple ORDER BY clauses not allowed"),
        ("(SELECT a FROM t LIMIT 1) LIMIT 2", "multiple LIMIT/FETCH clauses not allowed"),
        (
            "SELECT a FROM t UNION SELECT a FROM u ORDER BY sum(a)",
            "aggregate functions are not allowed in ORDER BY clause of a set expression (function pg_catalog.sum)",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
    let deep = vec!["SELECT 1"; 400].join(" UNION ");
    assert_eq!(
        err(&deep),
        unsupported("set operations nested past the recursion limit")
    );
}

#[test]
fn parentheses_merge_into_one_query_as_materializes_parser_merges_them() {
    // The inner ORDER BY orders the outer LIMIT.
    let s = select("((SELECT a FROM t ORDER BY a DESC)) LIMIT 1");
    assert_eq!(s.finishing.limit, Some(1));
    assert_eq!(s.finishing.order_by, vec![OrderColumn::new(0, true)]);
    // The outer ORDER BY sees the inner FROM: a qualified name, and a
    // column not selected, which a plain SELECT refuses too.
    let s = select("(SELECT a FROM t) ORDER BY t.a DESC");
    assert_eq!(s.finishing.order_by, vec![OrderColumn::new(0, true)]);
    let s = select("(SELECT a FROM t) ORDER BY b");
    assert_eq!(s.finishing, select("SELECT a FROM t ORDER BY b").finishing);
    // The inner LIMIT is cut after the outer ORDER BY, not before it.
    let s = select("(SELECT a FROM t OFFSET 1) ORDER BY a LIMIT 2");
    assert_eq!((s.finishing.limit, s.finishing.offset), (Some(2), 1));
    assert_eq!(s.finishing.order_by, vec![OrderColumn::new(0, false)]);
    let s = select("(SELECT a FROM t LIMIT 1) OFFSET 2");
    assert_eq!((s.finishing.limit, s.finishing.offset), (Some(1), 2));
    // So is a WITH's body, and one in FROM.
    let s = select("(WITH c AS (SELECT a FROM t) SELECT a FROM c) ORDER BY a LIMIT 1");
    assert_eq!(s.finishing.limit, Some(1));
    assert!(plan(
        "SELECT * FROM ((SELECT a FROM t ORDER BY a) LIMIT 2) AS x",
        &catalog()
    )
    .is_ok());
    for (sql, error) in [
        (
            "(SELECT a FROM t LIMIT 1) LIMIT ALL",
            unsupported("LIMIT ALL"),
        ),
        (
            "(SELECT a FROM t OFFSET 1) OFFSET 2",
            "multiple OFFSET clauses not allowed".into(),
        ),
        (
            "WITH c AS (SELECT 1) (WITH d AS (SELECT 2) SELECT a FROM t)",
            "multiple WITH clauses not allowed".into(),
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}

#[test]
fn a_qualifier_naming_an_inner_relation_never_reaches_an_outer_one() {
    // `a2` is `u` inside the subquery, which has no `b`; the outer `a2`'s
    // `b` is not found through it (Materialize's `column "a2.b" does not
    // exist`, under the prefix of each WHERE it is planned in).
    let sql = "SELECT * FROM t AS a2 WHERE EXISTS (SELECT 1 FROM u AS a2 WHERE a2.b = 'x')";
    let missing = "WHERE clause error: WHERE clause error: column \"a2.b\" does not exist";
    assert!(err(sql).starts_with(missing), "{}", err(sql));
}
