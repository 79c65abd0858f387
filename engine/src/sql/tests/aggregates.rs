//! Planning aggregates: GROUP BY (by expression and by position), global
//! aggregates, HAVING, and the errors a user sees.

use super::*;

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
        "WHERE clause error: aggregate functions are not allowed in WHERE clause (function pg_catalog.count)"
    );
    assert_eq!(
        err("SELECT * FROM t JOIN u ON max(t.a) < 2"),
        "aggregate functions are not allowed in ON clause (function pg_catalog.max)"
    );
    assert_eq!(
        err("SELECT count(*) FROM t GROUP BY count(*)"),
        "aggregate functions are not allowed in GROUP BY clause (function pg_catalog.count)"
    );
    assert_eq!(err("SELECT sum(b) FROM t"), "unsupported: sum of text");
    assert_eq!(
        err("SELECT sum(c) FROM t"),
        "function sum(boolean) does not exist"
    );
    // The real system's `avg` is its `sum` over its `count`.
    for untyped in ["NULL", "'1'"] {
        assert_eq!(
            err(&format!("SELECT avg({untyped}) FROM t")),
            "function sum(unknown) is not unique"
        );
    }
    assert_eq!(
        err("SELECT sum(count(*)) FROM t"),
        "nested aggregate functions are not allowed"
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
        err("SELECT bool_or(c) OVER () FROM t"),
        "unsupported: aggregate window function bool_or"
    );
    assert_eq!(
        err("SELECT soundex(b) FROM t"),
        "unsupported: function soundex"
    );
    assert_eq!(
        // An aggregate in ORDER BY makes the query aggregate.
        err("SELECT a FROM t ORDER BY count(*)"),
        "column \"t.a\" must appear in the GROUP BY clause or be used in an aggregate function"
    );
}

#[test]
fn string_forms_under_group_by_are_not_guessed() {
    // Materialize's lexer reads 'x' and E'x' into one string value, so the
    // select item is the key there; the engine cannot tell sqlparser's two
    // forms hold one text, and refuses rather than fail the item.
    let refused = err("SELECT b = 'x' FROM t GROUP BY b = E'x'");
    assert!(
        refused.starts_with("unsupported: an expression that may be a GROUP BY expression"),
        "{refused}"
    );
    // Written alike, it is the key.
    select("SELECT b = 'x' FROM t GROUP BY b = 'x'");
    // A string is not a number: `b` is not grouped.
    let ungrouped = err("SELECT a + 1 FROM t GROUP BY a + '1'");
    assert!(
        ungrouped.contains("must appear in the GROUP BY clause"),
        "{ungrouped}"
    );
}

#[test]
fn filter_order_by_and_the_rewritten_aggregates() {
    let reduce_of = |sql: &str| {
        let s = select(sql);
        match s.plan {
            RelationPlan::Reduce { aggregates, .. } => aggregates,
            RelationPlan::Map { input, .. } => match *input {
                RelationPlan::Reduce { aggregates, .. } => aggregates,
                other => panic!("{sql}: {other:?}"),
            },
            other => panic!("{sql}: {other:?}"),
        }
    };
    let when = |cond: ScalarExpr, then: ScalarExpr| ScalarExpr::Case {
        whens: vec![(cond, then)],
        els: Box::new(ScalarExpr::Literal(Datum::Null)),
    };
    // `count(*)` under a FILTER counts `CASE WHEN c THEN true END`.
    let counted = when(c(2), ScalarExpr::Literal(Datum::Bool(true)));
    assert_eq!(
        reduce_of("SELECT count(*) FILTER (WHERE c) FROM t"),
        vec![agg(AggregateFunc::Count, counted)]
    );
    // string_agg's separator is filtered as its value is; its ORDER BY
    // keys are not.
    let [string_agg] =
        &reduce_of("SELECT string_agg(b, b ORDER BY a DESC) FILTER (WHERE c) FROM t")[..]
    else {
        panic!("one aggregate")
    };
    assert_eq!(string_agg.func, AggregateFunc::StringAgg);
    assert_eq!(string_agg.expr, when(c(2), c(1)));
    assert_eq!(string_agg.ordered.args, vec![when(c(2), c(1))]);
    let key = &string_agg.ordered.order_by[..];
    assert!(matches!(key, [k] if k.expr == c(0) && k.descending && !k.nulls_last));
    // An ORDER BY in a call of an aggregate that ignores order is dropped.
    assert_eq!(
        reduce_of("SELECT sum(a ORDER BY b) FROM t"),
        vec![agg(AggregateFunc::Sum, c(0))]
    );
    // bool_and is `sum((NOT c)::int4) = 0`.
    let plan = format!("{:?}", select("SELECT bool_and(c) FROM t").plan);
    let not = ScalarExpr::Unary(UnaryOp::Not, Box::new(c(2)));
    let sum = agg(AggregateFunc::Sum, ScalarExpr::Cast(Int, Box::new(not)));
    assert!(plan.contains(&format!("{sum:?}")), "{plan}");
    assert!(
        plan.contains("Binary(Eq, Column(0), Literal(Int64(0)))"),
        "{plan}"
    );
    for (sql, error) in [
        (
            "SELECT count(*) FILTER (WHERE a) FROM t",
            "aggregate function must have type boolean, not type integer",
        ),
        (
            "SELECT count(*) FILTER (WHERE count(a) > 1) FROM t",
            "aggregate functions are not allowed in FILTER (function pg_catalog.count)",
        ),
        (
            "SELECT bool_or(a) FROM t",
            "OR argument must have type boolean, not type integer",
        ),
        (
            "SELECT string_agg(a, ',') FROM t",
            "unsupported: string_agg of integer",
        ),
        (
            "SELECT array_agg(a ORDER BY nope) FROM t",
            "column \"nope\" does not exist",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}

#[test]
fn the_variances_are_sums_and_a_count() {
    // `variance(a)` of an integer is two sums and a count of `a::numeric`,
    // each under the call's FILTER and DISTINCT.
    let plan = format!(
        "{:?}",
        select("SELECT variance(DISTINCT a) FILTER (WHERE c) FROM t").plan
    );
    let a = ScalarExpr::Cast(ScalarType::Numeric, Box::new(c(0)));
    let squared = ScalarExpr::Binary(BinaryOp::Mul, Box::new(a.clone()), Box::new(a.clone()));
    for func in [AggregateFunc::SumNumeric, AggregateFunc::Count] {
        assert!(plan.contains(&format!("func: {func:?}")), "{plan}");
    }
    for argument in [&squared, &a] {
        let filtered = ScalarExpr::Case {
            whens: vec![(c(2), argument.clone())],
            els: Box::new(ScalarExpr::Literal(Datum::Null)),
        };
        assert!(plan.contains(&format!("expr: {filtered:?}")), "{plan}");
    }
    assert_eq!(plan.matches("distinct: true").count(), 3, "{plan}");
    for (sql, error) in [
        (
            "SELECT a FROM t WHERE stddev(a) > 1",
            "WHERE clause error: aggregate functions are not allowed in WHERE clause (function pg_catalog.sum)",
        ),
        ("SELECT variance(b) FROM t", "unsupported: variance of text"),
        (
            "SELECT var_pop(NULL) FROM t",
            "unsupported: var_pop of an unknown-typed argument",
        ),
        (
            "SELECT stddev_samp(a, a) FROM t",
            "unsupported: stddev_samp of other than one argument",
        ),
        (
            "SELECT stddev(a) OVER () FROM t",
            "unsupported: window function stddev",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}
