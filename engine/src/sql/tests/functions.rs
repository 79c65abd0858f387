//! Planning scalar function calls: overloads chosen for the arguments'
//! types (unknown literals, integer widths), the real system's error texts
//! for a call no overload takes, SQL's own call syntax (SUBSTRING, POSITION,
//! TRIM), output names, aggregates inside calls, and what is refused.

use super::*;
use crate::plan::{Func, TrimSide};

use ScalarType::Int64 as Big;

/// The expressions a SELECT's Map computes, and its output columns.
fn mapped(sql: &str) -> (Vec<ScalarExpr>, Vec<Column>) {
    let s = select(sql);
    let RelationPlan::Project { input, .. } = s.plan else {
        panic!("{sql}: {:?}", s.plan)
    };
    let RelationPlan::Map { exprs, .. } = *input else {
        panic!("{sql}: no map")
    };
    (exprs, s.columns)
}

fn call(func: Func, args: Vec<ScalarExpr>) -> ScalarExpr {
    ScalarExpr::Call(func, args)
}

const NULL: ScalarExpr = ScalarExpr::Literal(Datum::Null);

#[test]
fn overloads_take_unknown_arguments_and_widen_integers() {
    let (exprs, columns) = mapped(
        "SELECT abs(i), abs(l), substr(s, '2'), length(NULL), octet_length(NULL), upper(NULL), \
         repeat('ab', i) FROM widths",
    );
    let expected = vec![
        call(Func::AbsInt32, vec![c(0)]),
        call(Func::AbsInt64, vec![c(1)]),
        call(Func::Substr, vec![c(2), int(2)]),
        // A call of literals is folded: these are NULL.
        NULL,
        NULL,
        NULL,
        call(Func::Repeat, vec![text("ab"), c(0)]),
    ];
    assert_eq!(exprs, expected);
    let types: Vec<ScalarType> = columns.iter().map(|c| c.typ).collect();
    assert_eq!(types, vec![Int, Big, Text, Int, Int, Text, Text]);
    assert!(columns.iter().all(|c| c.nullable));
}

#[test]
fn sql_call_syntax_is_the_call() {
    let (exprs, columns) = mapped(
        "SELECT SUBSTRING(b FROM 2 FOR 3), SUBSTRING(b FROM 2), SUBSTRING(b, 2), SUBSTR(b, 2), \
         POSITION('x' IN b), TRIM(b), TRIM(LEADING 'x' FROM b), TRIM(TRAILING FROM b) FROM t",
    );
    let expected = vec![
        call(Func::Substr, vec![c(1), int(2), int(3)]),
        call(Func::Substr, vec![c(1), int(2)]),
        call(Func::Substr, vec![c(1), int(2)]),
        call(Func::Substr, vec![c(1), int(2)]),
        call(Func::Position, vec![text("x"), c(1)]),
        call(Func::Trim(TrimSide::Both), vec![c(1)]),
        call(Func::Trim(TrimSide::Leading), vec![c(1), text("x")]),
        call(Func::Trim(TrimSide::Trailing), vec![c(1)]),
    ];
    assert_eq!(exprs, expected);
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let expected = [
        "substring",
        "substring",
        "substring",
        "substr",
        "position",
        "btrim",
        "ltrim",
        "rtrim",
    ];
    assert_eq!(names, expected);
}

#[test]
fn rewritten_functions() {
    let (exprs, columns) = mapped(
        "SELECT mod(a, 2), nullif(a, 1), greatest(a, 2::bigint), least(b, 'x'), concat(a, c), \
         concat_ws(',', b), pg_typeof(a), pg_typeof(NULL) FROM t",
    );
    let nullif = ScalarExpr::Case {
        whens: vec![(bin(BinaryOp::Eq, c(0), int(1)), NULL)],
        els: Box::new(c(0)),
    };
    let expected = vec![
        bin(BinaryOp::Mod, c(0), int(2)),
        nullif,
        call(
            Func::Greatest,
            vec![ScalarExpr::Cast(Big, Box::new(c(0))), bigint(2)],
        ),
        call(Func::Least, vec![c(1), text("x")]),
        call(Func::Concat, vec![c(0), c(2)]),
        call(Func::ConcatWs, vec![text(","), c(1)]),
        text("integer"),
        text("unknown"),
    ];
    assert_eq!(exprs, expected);
    let described: Vec<(&str, ScalarType, bool)> = columns
        .iter()
        .map(|c| (c.name.as_str(), c.typ, c.nullable))
        .collect();
    let expected = vec![
        ("mod", Int, true),
        ("nullif", Int, true),
        ("greatest", Big, true),
        ("least", Text, true),
        ("concat", Text, false),
        ("concat_ws", Text, false),
        ("pg_typeof", Text, false),
        ("pg_typeof", Text, false),
    ];
    assert_eq!(described, expected);
}

#[test]
fn calls_no_overload_takes_are_the_real_systems_errors() {
    for (sql, e) in [
        (
            "SELECT abs(c) FROM t",
            "function abs(boolean) does not exist",
        ),
        (
            "SELECT upper(a) FROM t",
            "function upper(integer) does not exist",
        ),
        (
            "SELECT substr(s, l) FROM widths",
            "function substr(text, bigint) does not exist",
        ),
        (
            "SELECT right('x', l) FROM widths",
            "function right(unknown, bigint) does not exist",
        ),
        (
            "SELECT position('a' IN 1)",
            "function position(unknown, integer) does not exist",
        ),
        (
            "SELECT length(b, b) FROM t",
            "function length(text, text) does not exist",
        ),
        (
            "SELECT mod(1, 2, 3)",
            "function mod(integer, integer, integer) does not exist",
        ),
        ("SELECT pg_typeof()", "function pg_typeof() does not exist"),
        (
            "SELECT concat_ws(a, b) FROM t",
            "function concat_ws(integer, text) does not exist",
        ),
        ("SELECT concat()", "function concat() does not exist"),
        (
            "SELECT concat_ws('a')",
            "function concat_ws(unknown) does not exist",
        ),
        (
            "SELECT greatest(a, b) FROM t",
            "greatest types integer and text cannot be matched",
        ),
        (
            "SELECT nullif(a, b) FROM t",
            "operator does not exist: integer = text",
        ),
        (
            "SELECT mod(b, b) FROM t",
            "operator does not exist: text % text",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn what_the_engine_does_not_implement_is_refused_by_name() {
    for (sql, e) in [
        // The real system resolves these to overloads the engine lacks.
        (
            "SELECT length(NULL, 'x')",
            "unsupported: function length: length(bytea, text)",
        ),
        // Materialize has no `max(bytea)` and no cast of a bytea to a
        // `char`; the engine has no `bytea[]`: each refused by name.
        ("SELECT max('\\x01'::bytea)", "unsupported: max of bytea"),
        ("SELECT ARRAY['\\x01'::bytea]", "unsupported: type bytea[]"),
        (
            "SELECT '\\x01'::bytea::char(2)",
            "unsupported: cast from bytea to char(2)",
        ),
        (
            "SELECT power(avg(a), 2.5) FROM t",
            "unsupported: function power: power(numeric, numeric)",
        ),
        ("SELECT sin(a) FROM t", "unsupported: function sin"),
        (
            "SELECT character_length(b) FROM t",
            "unsupported: function character_length",
        ),
        (
            "SELECT nullif(1)",
            "unsupported: syntax: nullif of 1 arguments",
        ),
        (
            "SELECT substring(b FOR 2) FROM t",
            "unsupported: function call form: SUBSTRING(b FOR 2)",
        ),
        // An unknown column is not reported before a refused construct.
        (
            "SELECT upper(nosuch), sin(a) FROM t",
            "unsupported: function sin",
        ),
        (
            "SELECT SUBSTRING(nosuch FROM sin(a)) FROM t",
            "unsupported: function sin",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}

#[test]
fn aggregates_inside_calls_make_the_query_aggregate() {
    let s = select("SELECT upper(max(b)), SUBSTRING(min(b) FROM 2), concat(count(*)) FROM t");
    assert!(
        matches!(s.plan, RelationPlan::Project { .. }),
        "{:?}",
        s.plan
    );
    let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["upper", "substring", "concat"]);
    assert_eq!(
        err("SELECT a, upper(b) FROM t GROUP BY a"),
        "column \"t.b\" must appear in the GROUP BY clause or be used in an aggregate function"
    );
}

#[test]
fn calls_of_chars_and_floats_are_refused() {
    for (sql, refusal) in [
        ("SELECT length('ab'::char(3))", "function length of char(3)"),
        (
            "SELECT upper('ab'::varchar(3))",
            "function upper of varchar(3)",
        ),
        (
            "SELECT length(1.5::float8)",
            "function length of double precision",
        ),
        ("SELECT concat('a', 2::real)", "function concat of real"),
        (
            "SELECT pg_typeof('a'::char(2))",
            "function pg_typeof: of char(2)",
        ),
    ] {
        assert_eq!(err(sql), format!("unsupported: {refusal}"), "{sql}");
    }
    // The name of a float's type is PostgreSQL's and Materialize's.
    let (exprs, _) = mapped("SELECT pg_typeof(1.5::float8), pg_typeof(2::real) FROM t");
    let text = |s: &str| ScalarExpr::Literal(Datum::Text(s.into()));
    assert_eq!(exprs, [text("double precision"), text("real")]);
}

#[test]
fn text_operators_and_normalize_plan_as_the_real_systems() {
    use crate::plan::TextFunc;
    let (exprs, columns) = mapped("SELECT b || a, b ~* 'x', b !~ 'x' FROM t");
    let concat = call(
        Func::Text(TextFunc::Concat),
        vec![
            ScalarExpr::Column(1),
            ScalarExpr::Cast(ScalarType::Text, Box::new(ScalarExpr::Column(0))),
        ],
    );
    assert_eq!(exprs[0], concat);
    let matched = |case_insensitive| {
        let x = ScalarExpr::Literal(Datum::Text("x".into()));
        call(
            Func::Text(TextFunc::RegexMatch { case_insensitive }),
            vec![ScalarExpr::Column(1), x],
        )
    };
    assert_eq!(exprs[1], matched(true));
    assert_eq!(
        exprs[2],
        ScalarExpr::Unary(UnaryOp::Not, Box::new(matched(false)))
    );
    let types: Vec<ScalarType> = columns.iter().map(|c| c.typ).collect();
    assert_eq!(
        types,
        [ScalarType::Text, ScalarType::Bool, ScalarType::Bool]
    );
    // The form is a word the parser reads, never a column.
    select("SELECT normalize(b, nfkd) FROM t GROUP BY b");
    for (sql, e) in [
        (
            "SELECT a || a FROM t",
            "operator does not exist: integer || integer",
        ),
        (
            "SELECT a ~ 'x' FROM t",
            "unsupported: operator ~ of integer",
        ),
        (
            "SELECT 'a'::char(2) || 'b'",
            "unsupported: operator || of char(2)",
        ),
        (
            "SELECT normalize(b, 'NFC') FROM t",
            "Expected one of NFC or NFD or NFKC or NFKD, found string literal \"NFC\"",
        ),
        (
            "SELECT normalize(b, \"NFC\") FROM t",
            "Expected one of NFC or NFD or NFKC or NFKD, found identifier \"NFC\"",
        ),
        (
            "SELECT normalize(b, nfx) FROM t",
            "unsupported: normalization form nfx",
        ),
    ] {
        assert_eq!(err(sql), e, "{sql}");
    }
}
