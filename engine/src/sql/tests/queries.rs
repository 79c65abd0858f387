//! Planning SELECTs: fast-path shapes, joins, aggregates, finishing,
//! types and the errors a user sees.

use super::*;

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
        err("SELECT * FROM t RIGHT JOIN u ON t.a = u.a"),
        "RIGHT and FULL joins are not supported"
    );
    assert_eq!(
        err("SELECT avg(a = a) FROM t"),
        "function avg(boolean) does not exist"
    );
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN u ON t.a > u.a"),
        "LEFT JOIN supports only equalities between a column of each side in ON"
    );
    assert_eq!(
        err("SELECT * FROM t LEFT JOIN u USING (a)"),
        "LEFT JOIN needs an ON condition"
    );
    assert_eq!(
        err("SELECT * FROM t JOIN u USING (a)"),
        "USING and NATURAL joins are not supported"
    );
    assert_eq!(
        err("SELECT * FROM t, t"),
        "table name \"t\" specified more than once"
    );
    assert!(plan("SELECT * FROM t, t AS t2", &catalog()).is_ok());
    assert_eq!(
        err("SELECT z.a FROM t"),
        "missing FROM-clause entry for table \"z\""
    );
    assert_eq!(err("SELECT t.z FROM t"), "column \"t.z\" does not exist");
    assert_eq!(
        err("SELECT z.* FROM t"),
        "missing FROM-clause entry for table \"z\""
    );
    // ON sees only the relations joined so far.
    assert_eq!(
        err("SELECT * FROM t JOIN u ON t.a = v.k JOIN v ON true"),
        "missing FROM-clause entry for table \"v\""
    );
    assert_eq!(
        err("SELECT * FROM (SELECT 1) AS s"),
        "subqueries are not supported"
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
fn group_by_with_aggregates() {
    let s = select("SELECT b, count(*), count(a), sum(a), min(a), max(b) FROM t GROUP BY b");
    let reduce = RelationPlan::Reduce {
        input: get(T),
        group_key: vec![1],
        aggregates: vec![
            count_all(),
            agg(AggregateFunc::Count, c(0)),
            agg(AggregateFunc::Sum, c(0)),
            agg(AggregateFunc::Min, c(0)),
            agg(AggregateFunc::Max, c(1)),
        ],
        global: false,
    };
    assert_eq!(s.plan, reduce);
    let columns = vec![
        col("b", Text, true),
        col("count", Int64, false),
        col("count", Int64, false),
        col("sum", Int64, true),
        col("min", Int, true),
        col("max", Text, true),
    ];
    assert_eq!(s.columns, columns);
    // GROUP BY a position means that select item.
    assert_eq!(
        select("SELECT b, count(*) FROM t GROUP BY 1").plan,
        select("SELECT b, count(*) FROM t GROUP BY b").plan
    );
}

#[test]
fn global_aggregates() {
    let s = select("SELECT sum(a) + count(*) AS total, count(*) FROM t");
    let reduce = RelationPlan::Reduce {
        input: get(T),
        group_key: vec![],
        aggregates: vec![agg(AggregateFunc::Sum, c(0)), count_all()],
        global: true,
    };
    let plan = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(reduce),
            exprs: vec![bin(BinaryOp::Add, c(0), c(1))],
        }),
        columns: vec![2, 1],
    };
    assert_eq!(s.plan, plan);
    assert_eq!(
        s.columns,
        vec![col("total", Int64, true), col("count", Int64, false)]
    );
}

#[test]
fn group_by_expressions_and_having() {
    let s = select(
        "SELECT a + 1 AS k, count(*) FROM t GROUP BY a + 1 HAVING count(*) > 1 AND a + 1 > 0",
    );
    let reduce = RelationPlan::Reduce {
        input: Box::new(RelationPlan::Map {
            input: get(T),
            exprs: vec![bin(BinaryOp::Add, c(0), int(1))],
        }),
        group_key: vec![3],
        aggregates: vec![count_all()],
        global: false,
    };
    let plan = RelationPlan::Filter {
        input: Box::new(reduce),
        predicates: vec![
            // count(*) is a bigint: the literal is widened.
            bin(BinaryOp::Gt, c(1), bigint(1)),
            bin(BinaryOp::Gt, c(0), int(0)),
        ],
    };
    assert_eq!(s.plan, plan);
    let s = select("SELECT b FROM t GROUP BY b HAVING min(a) IS NULL");
    let RelationPlan::Project { columns, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    assert_eq!(columns, vec![0]);
}

#[test]
fn aggregate_errors() {
    assert_eq!(
        err("SELECT a, count(*) FROM t"),
        "column \"t.a\" must appear in the GROUP BY clause or be used in an aggregate function"
    );
    assert_eq!(
        err("SELECT * FROM t GROUP BY a"),
        "column \"t.b\" must appear in the GROUP BY clause or be used in an aggregate function"
    );
    assert_eq!(
        err("SELECT a FROM t WHERE count(*) > 1"),
        "aggregate functions are not allowed in WHERE clause"
    );
    assert_eq!(
        err("SELECT count(*) FROM t GROUP BY count(*)"),
        "aggregate functions are not allowed in GROUP BY clause"
    );
    assert_eq!(
        err("SELECT sum(b) FROM t"),
        "function sum(text) does not exist"
    );
    assert_eq!(
        err("SELECT sum(count(*)) FROM t"),
        "aggregate function calls cannot be nested"
    );
    let s = select("SELECT count(DISTINCT a), count(a) FROM t");
    let RelationPlan::Reduce { aggregates, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    let distinct = Aggregate {
        distinct: true,
        ..agg(AggregateFunc::Count, c(0))
    };
    assert_eq!(aggregates, vec![distinct, agg(AggregateFunc::Count, c(0))]);
    assert_eq!(
        err("SELECT sum(a) OVER () FROM t"),
        "window functions are not supported"
    );
    assert_eq!(
        err("SELECT upper(b) FROM t"),
        "function upper does not exist"
    );
    assert_eq!(
        err("SELECT a FROM t ORDER BY count(*)"),
        "aggregate functions are not allowed in ORDER BY clause"
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
        exprs: vec![bin(BinaryOp::Div, int(1), int(0))],
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
            offset
        }
    );
    let s = select("SELECT a + 1, b FROM t ORDER BY a + 1, t.b ASC");
    assert_eq!(s.finishing.order_by, vec![asc(0), asc(1)]);
    let s = select("SELECT a, count(*) FROM t GROUP BY a ORDER BY count(*) DESC");
    assert_eq!(s.finishing.order_by, vec![desc(1)]);
    assert_eq!(
        err("SELECT a FROM t ORDER BY b"),
        "ORDER BY expression must appear in the select list: b"
    );
    assert_eq!(
        err("SELECT a FROM t ORDER BY 2"),
        "ORDER BY position 2 is not in select list"
    );
    assert_eq!(
        err("SELECT a, b AS a FROM t ORDER BY a"),
        "ORDER BY \"a\" is ambiguous"
    );
    assert_eq!(
        err("SELECT a FROM t ORDER BY a USING <"),
        "ORDER BY option not supported: a USING <"
    );
    assert_eq!(
        err("SELECT a FROM t OFFSET -1"),
        "OFFSET must be a non-negative integer, found: -1"
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
fn output_types_and_names() {
    let s = select("SELECT a + 1, a = 1, NOT c, a IS NULL, 'x', NULL, (a), -a, t.b FROM t");
    let columns = vec![
        col("?column?", Int, true),
        col("?column?", Bool, true),
        col("?column?", Bool, true),
        col("?column?", Bool, false),
        col("?column?", Text, false),
        col("?column?", Text, true),
        col("a", Int, true),
        col("?column?", Int, true),
        col("b", Text, true),
    ];
    assert_eq!(s.columns, columns);
    let s = select("SELECT a, min(b), max(c) FROM t GROUP BY a");
    let types: Vec<ScalarType> = s.columns.iter().map(|c| c.typ).collect();
    assert_eq!(types, vec![Int, Text, Bool]);
}

#[test]
fn keyword_named_columns() {
    let s = select("SELECT name FROM mz_objects WHERE type = 'index'");
    assert_eq!(s.columns, vec![col("name", Text, false)]);
    let s = select("SELECT export_id, count FROM mz_compute_error_counts");
    assert_eq!(s.columns[1], col("count", Int64, false));
    let s = select("SELECT DISTINCT export_id, since, upper FROM mz_arrangement_frontiers");
    assert_eq!(s.columns.len(), 3);
    let s = select("SELECT export_id, sum(count) FROM mz_compute_error_counts GROUP BY export_id");
    assert_eq!(s.columns[1], col("sum", Int64, true));
}

#[test]
fn literals_and_coercion() {
    let s = select("SELECT -9223372036854775808, -a, a = '1', '2' + 1 FROM t");
    let RelationPlan::Project { input, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    let RelationPlan::Map { exprs, .. } = *input else {
        panic!()
    };
    let expected = vec![
        bigint(i64::MIN),
        ScalarExpr::Unary(UnaryOp::Neg, Box::new(c(0))),
        bin(BinaryOp::Eq, c(0), int(1)),
        bin(BinaryOp::Add, int(2), int(1)),
    ];
    assert_eq!(exprs, expected);
    assert_eq!(err("SELECT 1.5"), "numeric literals are not supported: 1.5");
    assert_eq!(
        err("SELECT 9223372036854775808"),
        "integer literal out of range: 9223372036854775808"
    );
}

#[test]
fn integer_widths_follow_postgresql() {
    let types =
        |sql: &str| -> Vec<ScalarType> { select(sql).columns.into_iter().map(|c| c.typ).collect() };
    // A literal is an integer if it fits, else a bigint; the narrower
    // operand is widened.
    assert_eq!(
        types("SELECT 2147483647, 2147483648, -2147483648, 1 + 2147483648"),
        vec![Int, Int64, Int, Int64]
    );
    let s = select("SELECT 2147483647 + 1, 1 + 2147483648");
    let RelationPlan::Map { exprs, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    assert_eq!(
        exprs,
        vec![
            bin(BinaryOp::Add, int(i32::MAX), int(1)),
            bin(BinaryOp::Add, bigint(1), bigint(2_147_483_648)),
        ]
    );
    assert_eq!(
        types("SELECT count(*), sum(a), min(a), a + count(*) FROM t GROUP BY a"),
        vec![Int64, Int64, Int, Int64]
    );
    // Casts: explicit ones in either direction, literals folded.
    let s = select("SELECT a::bigint, CAST(a AS text), '7'::int, 5::bool FROM t");
    assert_eq!(
        s.columns.iter().map(|c| c.typ).collect::<Vec<_>>(),
        vec![Int64, Text, Int, Bool]
    );
    let names: Vec<_> = s.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["a", "a", "int4", "bool"]);
    let RelationPlan::Project { input, .. } = s.plan else {
        panic!()
    };
    let RelationPlan::Map { exprs, .. } = *input else {
        panic!()
    };
    assert_eq!(
        exprs,
        vec![
            ScalarExpr::Cast(Int64, Box::new(c(0))),
            ScalarExpr::Cast(Text, Box::new(c(0))),
            int(7),
            ScalarExpr::Literal(Datum::Bool(true)),
        ]
    );
    assert_eq!(
        err("SELECT true::bigint"),
        "CAST does not support casting from boolean to bigint"
    );
    assert_eq!(
        err("SELECT 'x'::int"),
        "invalid input syntax for type integer: invalid digit found in string: \"x\""
    );
}

#[test]
fn case_coalesce_in_between_like() {
    let exprs = |sql: &str| {
        let s = select(sql);
        let RelationPlan::Project { input, .. } = s.plan else {
            panic!("{:?}", s.plan)
        };
        let RelationPlan::Map { exprs, .. } = *input else {
            panic!()
        };
        (exprs, s.columns)
    };
    let (e, columns) = exprs("SELECT CASE WHEN a > 1 THEN a END, coalesce(a, 2147483648) FROM t");
    let case = ScalarExpr::If {
        cond: Box::new(bin(BinaryOp::Gt, c(0), int(1))),
        then: Box::new(c(0)),
        els: Box::new(ScalarExpr::Literal(Datum::Null)),
    };
    let coalesce = ScalarExpr::Coalesce(vec![
        ScalarExpr::Cast(Int64, Box::new(c(0))),
        bigint(2_147_483_648),
    ]);
    assert_eq!(e, vec![case, coalesce]);
    assert_eq!(
        columns,
        vec![col("case", Int, true), col("coalesce", Int64, false)]
    );
    let (e, _) = exprs("SELECT a IN (1, 2), a NOT BETWEEN 1 AND 3, b LIKE 'x%' FROM t");
    let not = |e| ScalarExpr::Unary(UnaryOp::Not, Box::new(e));
    assert_eq!(
        e,
        vec![
            bin(
                BinaryOp::Or,
                bin(BinaryOp::Eq, c(0), int(1)),
                bin(BinaryOp::Eq, c(0), int(2))
            ),
            not(bin(
                BinaryOp::And,
                bin(BinaryOp::GtEq, c(0), int(1)),
                bin(BinaryOp::LtEq, c(0), int(3))
            )),
            bin(BinaryOp::Like, c(1), text("x%")),
        ]
    );
    assert_eq!(
        err("SELECT a LIKE 'x' FROM t"),
        "operator does not exist: integer ~~ text"
    );
    assert_eq!(
        err("SELECT CASE WHEN a THEN 1 END FROM t"),
        "argument of CASE/WHEN must be type boolean, not type integer"
    );
}

#[test]
fn left_join() {
    let s =
        select("SELECT t.a, u.d FROM t JOIN v ON t.a = v.k LEFT JOIN u ON u.a = v.x AND t.a = u.d");
    let left = RelationPlan::Join {
        inputs: vec![*get(T), *get(V)],
        equivalences: vec![vec![0, 3]],
    };
    let join = RelationPlan::LeftJoin {
        left: Box::new(left),
        right: get(U),
        left_key: vec![4, 0],
        right_key: vec![0, 1],
        right_arity: 2,
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
fn type_errors() {
    assert_eq!(
        err("SELECT a + b FROM t"),
        "operator does not exist: integer + text"
    );
    assert_eq!(
        err("SELECT a = b FROM t"),
        "operator does not exist: integer = text"
    );
    assert_eq!(
        err("SELECT c < 1 FROM t"),
        "operator does not exist: boolean < integer"
    );
    assert_eq!(
        err("SELECT a FROM t WHERE a = 'x'"),
        "invalid input syntax for type integer: invalid digit found in string: \"x\""
    );
    assert_eq!(
        err("SELECT NOT a FROM t"),
        "argument of NOT must be type boolean, not type integer"
    );
    assert_eq!(
        err("SELECT a AND c FROM t"),
        "argument of AND must be type boolean, not type integer"
    );
    assert_eq!(err("SELECT -b FROM t"), "operator does not exist: - text");
    assert_eq!(
        err("SELECT a FROM t WHERE b"),
        "WHERE clause must have type boolean, not type text"
    );
    assert_eq!(err("SELECT b || b FROM t"), "operator not supported: ||");
}

#[test]
fn unknown_names_and_unsupported_syntax() {
    assert_eq!(
        err("SELECT * FROM missing"),
        "unknown catalog item 'missing'"
    );
    assert_eq!(err("SELECT nope FROM t"), "column \"nope\" does not exist");
    assert_eq!(
        err("SELECT * FROM t_a_idx"),
        "\"t_a_idx\" is an index not a relation"
    );
    assert_eq!(
        err("SELECT a FROM t UNION SELECT a FROM u"),
        "UNION is not supported"
    );
    assert_eq!(err("SELECT (SELECT 1)"), "subqueries are not supported");
    assert_eq!(
        err("WITH x AS (SELECT 1) SELECT * FROM x"),
        "WITH is not supported"
    );
    assert_eq!(
        err("SELECT a FROM t WHERE a IN (SELECT 1)"),
        "expression not supported: a IN (SELECT 1)"
    );
    assert_eq!(
        err("SELECT * FROM public.t"),
        "qualified names are not supported: public.t"
    );
    assert_eq!(
        err("SELEC 1"),
        "Expected: an SQL statement, found: SELEC at Line: 1, Column: 1"
    );
    assert!(err("EXPLAIN SELECT 1").starts_with("statement not supported: EXPLAIN"));
}

/// `SELECT` of a left-deep chain of `terms` terms joined by `op`.
fn chain(select: &str, op: &str, term: &str, terms: usize, rest: &str) -> String {
    let chain = vec![term; terms].join(op);
    format!("{select}{chain}{rest}")
}

#[test]
fn expressions_nest_at_most_to_the_recursion_limit() {
    use crate::sql::expr::RECURSION_LIMIT;
    let limit = format!("exceeded recursion limit of {RECURSION_LIMIT}");
    // A chain of n terms nests n + 1 deep under `=` (n - 1 operators,
    // the comparison, the leaves): RECURSION_LIMIT - 1 terms plan.
    let fits = RECURSION_LIMIT - 1;
    one(&chain("SELECT ", " + ", "a", fits, " FROM t"));
    one(&chain(
        "SELECT a FROM t WHERE ",
        " OR ",
        "a = 1",
        fits - 1,
        "",
    ));
    for terms in [fits + 2, 5000] {
        assert_eq!(err(&chain("SELECT ", " + ", "a", terms, " FROM t")), limit);
        let or = chain("SELECT a FROM t WHERE ", " OR ", "a = 1", terms, "");
        assert_eq!(err(&or), limit);
        let aggregate = chain("SELECT sum(", " + ", "a", terms, ") FROM t");
        assert_eq!(err(&aggregate), limit);
    }
}
