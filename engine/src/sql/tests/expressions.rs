//! Planning scalar expressions: literals and coercion, integer widths,
//! CASE, COALESCE, IN, BETWEEN, LIKE, output names and types, type errors,
//! unknown names and unsupported syntax, and the recursion limit.

use super::*;

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
    // sum of a bigint is a numeric, as in the real system.
    assert_eq!(s.columns[1], col("sum", ScalarType::Numeric, true));
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
        // What reads no column is folded, as Materialize's optimizer does.
        int(3),
    ];
    assert_eq!(exprs, expected);
    // A point, an exponent or more than a bigint holds makes a numeric.
    let s = select("SELECT 1.50, 1e3, 9223372036854775808, 1.5 + a FROM t");
    let numeric = col("?column?", ScalarType::Numeric, false);
    assert_eq!(s.columns[..3], [numeric.clone(), numeric.clone(), numeric]);
    assert_eq!(s.columns[3].typ, ScalarType::Numeric);
    assert_eq!(
        err("SELECT 1e39"),
        "\"1E39\" is out of range for type numeric: exceeds maximum precision 39"
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
            // Folded: the sum of two integers overflows at their width,
            // with Materialize's text.
            ScalarExpr::Error("numeric field overflow".to_string()),
            bigint(2_147_483_649),
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
        "unsupported: cast from boolean to bigint"
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
    let case = ScalarExpr::Case {
        whens: vec![(bin(BinaryOp::Gt, c(0), int(1)), c(0))],
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
            ScalarExpr::Or(vec![
                bin(BinaryOp::Eq, c(0), int(1)),
                bin(BinaryOp::Eq, c(0), int(2))
            ]),
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
    // A CASE condition's type error names where the CASE stands, as
    // Materialize's `type_as` names its context.
    for (sql, context) in [
        ("SELECT CASE WHEN a THEN 1 END FROM t", "SELECT clause"),
        (
            "SELECT a FROM t WHERE CASE WHEN a THEN true END",
            "WHERE clause error: WHERE clause",
        ),
        (
            "SELECT NOT CASE WHEN a THEN true END FROM t",
            "NOT argument",
        ),
        (
            "SELECT c AND CASE WHEN a THEN true END FROM t",
            "AND argument",
        ),
        (
            "SELECT c OR CASE WHEN a::int2 THEN true END FROM t",
            "OR argument",
        ),
        (
            "SELECT a FROM t ORDER BY CASE WHEN a THEN 1 END",
            "ORDER BY clause",
        ),
    ] {
        let text = format!("{context} must have type boolean, not type integer");
        let text = text.replace("integer\"", "integer");
        let expected = match sql.contains("int2") {
            true => text.replace("type integer", "type smallint"),
            false => text,
        };
        assert_eq!(err(sql), expected, "{sql}");
    }
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
        "WHERE clause error: invalid input syntax for type integer: invalid digit found in string: \"x\""
    );
    // The clause's own type error carries no prefix (Materialize's
    // `type_as` comes after the prefixed planning).
    assert_eq!(
        err("SELECT a FROM t WHERE a"),
        "WHERE clause must have type boolean, not type integer"
    );
    assert_eq!(
        err("SELECT NOT a FROM t"),
        "NOT argument must have type boolean, not type integer"
    );
    assert_eq!(
        err("SELECT a AND c FROM t"),
        "AND argument must have type boolean, not type integer"
    );
    assert_eq!(err("SELECT -b FROM t"), "operator does not exist: - text");
    assert_eq!(
        err("SELECT a FROM t WHERE b"),
        "WHERE clause must have type boolean, not type text"
    );
    assert_eq!(err("SELECT b ^ b FROM t"), "unsupported: operator ^");
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
        err("SELECT (SELECT a FROM t UNION SELECT a FROM u)"),
        "unsupported: UNION in a subquery in an expression"
    );
    assert_eq!(
        err("SELECT CASE WHEN true THEN (SELECT 1) END"),
        "unsupported: subqueries in CASE"
    );
    assert_eq!(
        err("WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x"),
        "unsupported: WITH RECURSIVE"
    );
    assert_eq!(
        err("SELECT a FROM t WHERE 3000000000 = ANY(ARRAY[a])"),
        "unsupported: ANY and ALL of an array whose elements the comparison casts"
    );
    assert_eq!(err("SELECT * FROM other.t"), "unknown schema 'other'");
    assert_eq!(
        err("SELEC 1"),
        "unsupported: syntax SELEC: Expected: an SQL statement, found: SELEC at Line: 1, Column: 1"
    );
    assert_eq!(err("EXPLAIN SELECT 1"), "unsupported: statement explain");
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

/// Materialize's HINT after an unknown column: the columns in scope whose
/// names, case folded, are similar (normalized Levenshtein 0.6 or more),
/// qualified as the name was; none when nothing is similar.
#[test]
fn an_unknown_column_hints_at_similar_names() {
    let suffix = "Make sure to surround case sensitive names in double quotes.";
    assert_eq!(
        err("SELECT \"A\" FROM t"),
        format!("column \"A\" does not exist\nHINT: The similarly named column \"a\" does exist. {suffix}")
    );
    assert_eq!(
        err("SELECT t.\"B\" FROM t"),
        format!("column \"t.B\" does not exist\nHINT: The similarly named column \"t.b\" does exist. {suffix}")
    );
    assert_eq!(
        err("SELECT \"A\" FROM t, u"),
        format!("column \"A\" does not exist\nHINT: There are similarly named columns that do exist: \"a\", \"a\". {suffix}")
    );
    // "nope" is like none of a, b, c; "ab" is half "a" (0.5, under 0.6).
    assert_eq!(err("SELECT nope FROM t"), "column \"nope\" does not exist");
    assert_eq!(err("SELECT ab FROM t"), "column \"ab\" does not exist");
    assert_eq!(err("SELECT x.a FROM t"), "column \"x.a\" does not exist");
}
