//! Planning SELECTs: fast-path shapes, FROM and joins, DISTINCT and the
//! ORDER BY / LIMIT finishing.

use super::*;
use crate::plan::{with_top_k, JoinKind};

#[test]
fn simple_selects() {
    let s = select("SELECT * FROM t WHERE a > 1 AND c");
    let predicates = vec![bin(BinaryOp::Gt, c(0), int(1)), c(2)];
    let filter = RelationPlan::Filter {
        input: get(T),
        predicates: predicates.clone(),
    };
    assert_eq!(s.plan, filter);
    let relation = T;
    assert_eq!(
        s.simple,
        Some(SimpleSelect {
            relation,
            predicates
        })
    );
    assert_eq!(s.columns, catalog().columns(T).unwrap());
    assert_eq!((s.as_of, s.finishing), (None, Finishing::default()));

    let s = select("SELECT * FROM t AS x WHERE x.a = 1");
    assert!(s.simple.is_some());
    let s = select("SELECT * FROM mz_objects");
    assert_eq!(s.plan, RelationPlan::Get(MZ_OBJECTS));
    let predicates = vec![];
    let relation = MZ_OBJECTS;
    assert_eq!(
        s.simple,
        Some(SimpleSelect {
            relation,
            predicates
        })
    );
    for sql in [
        "SELECT a, b, c FROM t",
        "SELECT t.* FROM t",
        "SELECT * FROM t ORDER BY a",
        "SELECT * FROM t LIMIT 1",
        "SELECT DISTINCT * FROM t",
        "SELECT * FROM t, u WHERE t.a = u.a",
        "SELECT * FROM t JOIN u ON t.a = u.a",
    ] {
        assert_eq!(select(sql).simple, None, "{sql}");
    }
    // The same rows, not the fast-path shape: the identity projection is elided.
    assert_eq!(select("SELECT a, b, c FROM t").plan, RelationPlan::Get(T));
}

#[test]
fn as_of() {
    let s = select("SELECT * FROM t WHERE b > 'a' AS OF 3");
    assert_eq!(s.as_of, Some(3));
    assert!(s.simple.is_some());
    assert_eq!(select("SELECT a FROM t AS OF 0").as_of, Some(0));
    assert_eq!(select("SELECT a FROM t WHERE b = 'AS OF 3'").as_of, None);
}

#[test]
fn join_equivalences() {
    let s = select("SELECT t.a, d FROM t JOIN u ON t.a = u.a WHERE u.d > 0 AND t.b = 'x'");
    let join = RelationPlan::Join {
        inputs: vec![RelationPlan::Get(T), RelationPlan::Get(U)],
        equivalences: vec![vec![0, 3]],
    };
    let filter = RelationPlan::Filter {
        input: Box::new(join),
        predicates: vec![
            bin(BinaryOp::Gt, c(4), int(0)),
            bin(BinaryOp::Eq, c(1), text("x")),
        ],
    };
    let project = RelationPlan::Project {
        input: Box::new(filter),
        columns: vec![0, 4],
    };
    assert_eq!(s.plan, project);
    assert_eq!(s.columns, vec![col("a", Int, true), col("d", Int, false)]);

    // Transitive equalities merge into one class; t = (a, b, c), u = (a, d), v = (k, x).
    let s = select("SELECT * FROM t JOIN u ON t.a = u.a JOIN v ON u.d = v.k AND v.k = t.a");
    let join = RelationPlan::Join {
        inputs: vec![
            RelationPlan::Get(T),
            RelationPlan::Get(U),
            RelationPlan::Get(V),
        ],
        equivalences: vec![vec![0, 3, 4, 5]],
    };
    assert_eq!(s.plan, join);
    assert_eq!(s.columns.len(), 7);

    // Comma joins take equalities from WHERE; a disjunction, or an equality
    // within one input, stays a filter.
    let s =
        select("SELECT x.a FROM t x, u y WHERE x.a = y.d AND (x.a = 1 OR y.a = 2) AND y.a = y.d");
    let RelationPlan::Project { input, columns } = s.plan else {
        panic!("{:?}", s.plan)
    };
    assert_eq!(columns, vec![0]);
    let RelationPlan::Filter { input, predicates } = *input else {
        panic!()
    };
    assert_eq!(predicates.len(), 2);
    assert_eq!(predicates[1], bin(BinaryOp::Eq, c(3), c(4)));
    let RelationPlan::Join { equivalences, .. } = *input else {
        panic!()
    };
    assert_eq!(equivalences, vec![vec![0, 4]]);

    // A cross join.
    let s = select("SELECT * FROM t CROSS JOIN u");
    let join = RelationPlan::Join {
        inputs: vec![RelationPlan::Get(T), RelationPlan::Get(U)],
        equivalences: vec![],
    };
    assert_eq!(s.plan, join);
}

#[test]
fn join_errors() {
    assert_eq!(
        err("SELECT a FROM t, u"),
        "column reference \"a\" is ambiguous"
    );
    assert_eq!(
        err("SELECT * FROM t RIGHT JOIN u ON t.a > u.a"),
        "unsupported: RIGHT JOIN ON other than equalities of a column of each side"
    );
    assert_eq!(
        err("SELECT avg(a = a) FROM t"),
        "unsupported: avg of boolean"
    );
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN u ON t.a > u.a"),
        "unsupported: LEFT JOIN ON other than equalities of a column of each side"
    );
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN u USING (a, a)"),
        "column name \"a\" appears more than once in USING clause not yet supported"
    );
    assert_eq!(
        err("SELECT * FROM t JOIN u USING (d)"),
        "column \"d\" specified in USING clause does not exist in left table"
    );
    assert_eq!(
        err("SELECT * FROM t, t"),
        "table name \"t\" specified more than once"
    );
    assert!(plan("SELECT * FROM t, t AS t2", &catalog()).is_ok());
    assert_eq!(err("SELECT z.a FROM t"), "column \"z.a\" does not exist");
    assert_eq!(err("SELECT t.z FROM t"), "column \"t.z\" does not exist");
    assert_eq!(err("SELECT z.* FROM t"), "no table named 'z' in scope");
    // ON sees only the relations joined so far.
    assert_eq!(
        err("SELECT * FROM t JOIN u ON t.a = v.k JOIN v ON true"),
        "column \"v.k\" does not exist"
    );
    // Only a LATERAL subquery sees the FROM items before it; a RIGHT or
    // FULL JOIN's sees its left side only to fail (Materialize's texts).
    assert!(plan("SELECT * FROM t, LATERAL (SELECT t.a) AS s", &catalog()).is_ok());
    assert_eq!(
        err("SELECT * FROM t, (SELECT t.a) AS s"),
        "column \"t.a\" does not exist"
    );
    assert_eq!(
        err("SELECT * FROM t RIGHT JOIN LATERAL (SELECT d FROM u WHERE u.a = t.a) s ON t.a = s.d"),
        "WHERE clause error: column \"t.a\" cannot be referenced from this part of the query: \
         the combining JOIN type must be INNER or LEFT for a LATERAL reference"
    );
    assert_eq!(
        err("SELECT * FROM t JOIN u ON t.a"),
        "ON clause must have type boolean, not type integer"
    );
}

#[test]
fn wildcards() {
    let s = select("SELECT u.*, t.b FROM t, u");
    let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["a", "d", "b"]);
    assert_eq!(
        err("SELECT *"),
        "SELECT * with no tables specified is not valid"
    );
}

#[test]
fn select_without_from() {
    let s = select("SELECT 1 / 0");
    let plan = RelationPlan::Map {
        input: Box::new(RelationPlan::Constant {
            rows: vec![vec![]],
            arity: 0,
        }),
        // Folded to a literal error, as Materialize's optimizer folds it.
        exprs: vec![ScalarExpr::Error("division by zero".to_string())],
    };
    assert_eq!(s.plan, plan);
    assert_eq!(s.columns, vec![col("?column?", Int, false)]);
    assert_eq!(s.simple, None);
    let s = select("SELECT count(*)");
    assert!(matches!(s.plan, RelationPlan::Reduce { global: true, .. }));
}

#[test]
fn finishing() {
    let asc = |c| OrderColumn::new(c, false);
    let desc = |c| OrderColumn::new(c, true);
    let s = select("SELECT a, b AS name FROM t ORDER BY name DESC, 1 LIMIT 5");
    let order_by = vec![desc(1), asc(0)];
    let (limit, offset) = (Some(5), 0);
    assert_eq!(
        s.finishing,
        Finishing {
            order_by,
            limit,
            offset,
            shown: Vec::new(),
            project: None,
        }
    );
    let s = select("SELECT a + 1, b FROM t ORDER BY a + 1, t.b ASC");
    assert_eq!(s.finishing.order_by, vec![asc(0), asc(1)]);
    let s = select("SELECT a, count(*) FROM t GROUP BY a ORDER BY count(*) DESC");
    assert_eq!(s.finishing.order_by, vec![desc(1)]);
    assert_eq!(
        err("SELECT a FROM t ORDER BY 2"),
        "column reference 2 in ORDER BY clause is out of range (1 - 1)"
    );
}

#[test]
fn order_by_sorts_by_columns_it_then_drops() {
    let asc = |c| OrderColumn::new(c, false);
    // `b` and `a + 1` follow the output, one column for `b` written twice;
    // a position counts the select list only.
    let s = select("SELECT a FROM t ORDER BY b, a + 1, t.b, 1");
    assert_eq!(s.finishing.order_by, vec![asc(1), asc(2), asc(1), asc(0)]);
    assert_eq!(s.finishing.project, Some(1));
    assert_eq!(s.columns.len(), 1);
    assert_eq!(
        err("SELECT a FROM t ORDER BY b, 2"),
        "column reference 2 in ORDER BY clause is out of range (1 - 1)"
    );
    // Dropped from the plan wherever it is read as a relation.
    let v = with_top_k(s.plan, s.finishing);
    let RelationPlan::Project { columns, .. } = v else {
        panic!("{v:?}")
    };
    assert_eq!(columns, vec![0]);
    let s = select("SELECT a FROM t GROUP BY a ORDER BY count(*)");
    assert_eq!(s.finishing.project, Some(1));
    assert_eq!(
        err("SELECT DISTINCT a FROM t ORDER BY b"),
        "for SELECT DISTINCT, ORDER BY expressions must appear in select list"
    );
    assert_eq!(
        err("SELECT a FROM t UNION SELECT a FROM t ORDER BY a + 1"),
        "unsupported: ORDER BY an expression not in the select list: a + 1"
    );
    assert_eq!(
        err("SELECT a, b AS a FROM t ORDER BY a"),
        "unsupported: ORDER BY an ambiguous name: a"
    );
    assert_eq!(
        err("SELECT a FROM t ORDER BY a USING <"),
        "unsupported: ORDER BY option: a USING <"
    );
    assert_eq!(
        err("SELECT a FROM t OFFSET -1"),
        "unsupported: OFFSET other than an integer literal: -1"
    );
}

#[test]
fn nulls_first_and_last_and_offset() {
    let s = select("SELECT a FROM t ORDER BY a NULLS FIRST, a DESC NULLS LAST OFFSET 2");
    let first = OrderColumn {
        column: 0,
        descending: false,
        nulls_last: false,
    };
    let last_desc = OrderColumn {
        column: 0,
        descending: true,
        nulls_last: true,
    };
    assert_eq!(s.finishing.order_by, vec![first, last_desc]);
    assert_eq!((s.finishing.limit, s.finishing.offset), (None, 2));
    let s = select("SELECT a FROM t LIMIT 1 OFFSET 3");
    assert_eq!((s.finishing.limit, s.finishing.offset), (Some(1), 3));
}

#[test]
fn distinct() {
    let s = select("SELECT DISTINCT b FROM t");
    let plan = RelationPlan::Distinct {
        input: Box::new(RelationPlan::Project {
            input: get(T),
            columns: vec![1],
        }),
    };
    assert_eq!(s.plan, plan);
}

#[test]
fn left_join() {
    let s =
        select("SELECT t.a, u.d FROM t JOIN v ON t.a = v.k LEFT JOIN u ON u.a = v.x AND t.a = u.d");
    let left = RelationPlan::Join {
        inputs: vec![*get(T), *get(V)],
        equivalences: vec![vec![0, 3]],
    };
    let join = RelationPlan::EquiJoin {
        left: Box::new(left),
        right: get(U),
        left_key: vec![4, 0],
        right_key: vec![0, 1],
        arities: (5, 2),
        kind: JoinKind::Left,
        nulls_match: false,
    };
    let plan = RelationPlan::Project {
        input: Box::new(join),
        columns: vec![0, 6],
    };
    assert_eq!(s.plan, plan);
    // The right side's columns become nullable.
    assert_eq!(s.columns, vec![col("a", Int, true), col("d", Int, true)]);
}

#[test]
fn invented_column_names_follow_materializes_quality_rules() {
    // A cast or a CASE takes a high quality name found inside it (a column,
    // a function, a scalar subquery's column, `bool`, `exists`), else its
    // own low one: the type's internal name, or `case`.
    let names =
        |sql: &str| -> Vec<String> { select(sql).columns.into_iter().map(|c| c.name).collect() };
    for (item, name) in [
        ("CASE WHEN c THEN 0 ELSE a END", "a"),
        ("CASE WHEN c THEN a ELSE 0 END", "case"),
        ("CASE WHEN c THEN a END", "case"),
        ("CASE WHEN c THEN 'x' ELSE upper(b) END", "upper"),
        ("CASE WHEN c THEN 0 ELSE a::bigint END", "a"),
        ("CASE WHEN c THEN 0 ELSE 1::bigint END", "case"),
        ("CAST(upper(b) AS text)", "upper"),
        ("CAST(TRUE AS text)", "bool"),
        ("CAST(CASE WHEN c THEN 1 END AS bigint)", "int8"),
        ("CAST(CASE WHEN c THEN 1 ELSE a END AS bigint)", "a"),
        ("(SELECT d FROM u LIMIT 1)", "d"),
        ("CAST((SELECT d FROM u LIMIT 1) AS bigint)", "d"),
        ("-a", "?column?"),
    ] {
        assert_eq!(
            names(&format!("SELECT {item} FROM t")),
            vec![name],
            "{item}"
        );
    }
}
