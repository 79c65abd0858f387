//! Never silently wrong: every form of sqlparser's AST that the PostgreSQL
//! dialect produces has a SQL text here, and each is either planned (the
//! planner implements it exactly) or refused with `unsupported: <form>`.
//! The tables must name every form `sql::forms` names, which its exhaustive
//! matches make every form sqlparser has: a new sqlparser's new form fails
//! to compile there, then fails here until a text says what happens to it.
//! Forms no text of the dialect was found to produce are listed as `None`;
//! the planner's catch-all arm refuses them by their name like any other.

use super::super::forms::{
    self, DROP_OBJECT_FORMS, EXPR_FORMS, JOIN_OPERATOR_FORMS, SELECT_ITEM_FORMS, SET_EXPR_FORMS,
    STATEMENT_FORMS, TABLE_FACTOR_FORMS,
};
use super::super::parse::DIALECT;
use super::{catalog, plan};
use crate::repr::UNSUPPORTED;
use sqlparser::ast::{GroupByExpr, Query, Select, SelectItem, SetExpr, Statement};
use sqlparser::parser::Parser;
use statements::{DROPS, STATEMENTS};
use Fate::{Planned, Refused};

mod statements;

/// What must become of a form's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Planned,
    Refused,
}

type Table = &'static [(&'static str, Option<(&'static str, Fate)>)];

/// Expressions, each the first select item (or, for grouping forms, the
/// first GROUP BY key) of its text, over `t (a int, b text, c bool)`.
const EXPRS: Table = &[
    ("identifier", Some(("SELECT a FROM t", Planned))),
    ("compound identifier", Some(("SELECT t.a FROM t", Planned))),
    (
        "compound field access",
        Some(("SELECT (ARRAY[a])[1] FROM t", Planned)),
    ),
    ("json access", None),
    ("is false", Some(("SELECT c IS FALSE FROM t", Refused))),
    (
        "is not false",
        Some(("SELECT c IS NOT FALSE FROM t", Refused)),
    ),
    ("is true", Some(("SELECT c IS TRUE FROM t", Refused))),
    (
        "is not true",
        Some(("SELECT c IS NOT TRUE FROM t", Refused)),
    ),
    ("is null", Some(("SELECT a IS NULL FROM t", Planned))),
    (
        "is not null",
        Some(("SELECT a IS NOT NULL FROM t", Planned)),
    ),
    ("is unknown", Some(("SELECT c IS UNKNOWN FROM t", Refused))),
    (
        "is not unknown",
        Some(("SELECT c IS NOT UNKNOWN FROM t", Refused)),
    ),
    (
        "is distinct from",
        Some(("SELECT a IS DISTINCT FROM 1 FROM t", Refused)),
    ),
    (
        "is not distinct from",
        Some(("SELECT a IS NOT DISTINCT FROM 1 FROM t", Refused)),
    ),
    ("is json", Some(("SELECT b IS JSON FROM t", Refused))),
    (
        "is normalized",
        Some(("SELECT b IS NORMALIZED FROM t", Refused)),
    ),
    ("in", Some(("SELECT a IN (1, 2) FROM t", Planned))),
    (
        "between",
        Some(("SELECT a BETWEEN 1 AND 2 FROM t", Planned)),
    ),
    ("binary op", Some(("SELECT a + 1 FROM t", Planned))),
    ("like", Some(("SELECT b LIKE 'x%' FROM t", Planned))),
    ("i like", Some(("SELECT b ILIKE 'x%' FROM t", Planned))),
    (
        "similar to",
        Some(("SELECT b SIMILAR TO 'x' FROM t", Refused)),
    ),
    ("r like", Some(("SELECT b RLIKE 'x' FROM t", Refused))),
    ("any op", Some(("SELECT a = ANY(ARRAY[1]) FROM t", Planned))),
    ("all op", Some(("SELECT a = ALL(ARRAY[1]) FROM t", Planned))),
    ("unary op", Some(("SELECT -a FROM t", Planned))),
    ("convert", Some(("SELECT CONVERT(a, text) FROM t", Refused))),
    ("cast", Some(("SELECT a::text FROM t", Planned))),
    (
        "at time zone",
        Some(("SELECT b AT TIME ZONE 'UTC' FROM t", Refused)),
    ),
    (
        "extract",
        Some((
            "SELECT EXTRACT(YEAR FROM DATE '2020-01-01') FROM t",
            Planned,
        )),
    ),
    ("ceil", Some(("SELECT CEIL(a, 2) FROM t", Refused))),
    ("floor", Some(("SELECT FLOOR(a TO DAY) FROM t", Refused))),
    (
        "position",
        Some(("SELECT POSITION('a' IN b) FROM t", Planned)),
    ),
    (
        "substring",
        Some(("SELECT SUBSTRING(b FROM 1) FROM t", Planned)),
    ),
    ("trim", Some(("SELECT TRIM(b) FROM t", Planned))),
    (
        "overlay",
        Some(("SELECT OVERLAY(b PLACING 'x' FROM 1) FROM t", Refused)),
    ),
    ("collate", Some(("SELECT b COLLATE \"C\" FROM t", Refused))),
    ("nested", Some(("SELECT (a) FROM t", Planned))),
    ("value", Some(("SELECT 1 FROM t", Planned))),
    ("prefixed", None),
    (
        "typed string",
        Some(("SELECT DATE '2020-01-01' FROM t", Planned)),
    ),
    ("function", Some(("SELECT count(a) FROM t", Planned))),
    (
        "case",
        Some(("SELECT CASE WHEN c THEN 1 END FROM t", Planned)),
    ),
    ("exists", Some(("SELECT EXISTS (SELECT 1) FROM t", Planned))),
    ("subquery", Some(("SELECT (SELECT 1) FROM t", Planned))),
    (
        "grouping sets",
        Some(("SELECT a FROM t GROUP BY GROUPING SETS ((a))", Refused)),
    ),
    ("cube", Some(("SELECT a FROM t GROUP BY CUBE (a)", Refused))),
    (
        "rollup",
        Some(("SELECT a FROM t GROUP BY ROLLUP (a)", Refused)),
    ),
    ("tuple", Some(("SELECT (1, 2) FROM t", Refused))),
    ("struct", None),
    ("named", None),
    ("dictionary", None),
    ("map", None),
    ("array", Some(("SELECT ARRAY[1] FROM t", Planned))),
    (
        "interval",
        Some(("SELECT INTERVAL '1 day' FROM t", Planned)),
    ),
    ("match against", None),
    ("wildcard", None),
    ("qualified wildcard", None),
    ("outer join", None),
    ("prior", None),
    ("lambda", None),
    (
        "member of",
        Some(("SELECT a MEMBER OF('[1]') FROM t", Refused)),
    ),
];

/// Query bodies.
const SET_EXPRS: Table = &[
    ("select", Some(("SELECT 1", Planned))),
    ("query", Some(("(SELECT 1)", Planned))),
    ("set operation", Some(("SELECT 1 UNION SELECT 2", Planned))),
    ("values", Some(("VALUES (1)", Planned))),
    ("insert", None),
    ("update", None),
    ("delete", None),
    ("merge", None),
    ("table", None),
];

/// FROM items, each the last of its FROM clause.
const TABLE_FACTORS: Table = &[
    ("table", Some(("SELECT * FROM t", Planned))),
    ("derived", Some(("SELECT * FROM (SELECT 1) AS s", Planned))),
    (
        "table function",
        Some(("SELECT * FROM TABLE(f())", Refused)),
    ),
    ("function", Some(("SELECT * FROM LATERAL f(1)", Refused))),
    ("unnest", Some(("SELECT * FROM UNNEST(ARRAY[1])", Planned))),
    (
        "json table",
        Some((
            "SELECT * FROM JSON_TABLE('x', '$' COLUMNS(a int PATH '$'))",
            Refused,
        )),
    ),
    (
        "open json table",
        Some(("SELECT * FROM OPENJSON('x')", Refused)),
    ),
    (
        "nested join",
        Some(("SELECT * FROM (t JOIN u ON true)", Refused)),
    ),
    (
        "pivot",
        Some(("SELECT * FROM t PIVOT (sum(a) FOR b IN ('x'))", Refused)),
    ),
    (
        "unpivot",
        Some(("SELECT * FROM t UNPIVOT (a FOR b IN (c))", Refused)),
    ),
    ("unpivot expr", None),
    ("match recognize", None),
    (
        "xml table",
        Some((
            "SELECT * FROM XMLTABLE('x' PASSING y COLUMNS a int)",
            Refused,
        )),
    ),
    ("semantic view", None),
];

/// Joins, each the first of its FROM clause, of `t` and `u (a int, d int)`.
const JOIN_OPERATORS: Table = &[
    (
        "join",
        Some(("SELECT * FROM t JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "inner",
        Some(("SELECT * FROM t INNER JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "left",
        Some(("SELECT * FROM t LEFT JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "left outer",
        Some(("SELECT * FROM t LEFT OUTER JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "right",
        Some(("SELECT * FROM t RIGHT JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "right outer",
        Some(("SELECT * FROM t RIGHT OUTER JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "full outer",
        Some(("SELECT * FROM t FULL JOIN u ON t.a = u.a", Planned)),
    ),
    (
        "cross join",
        Some(("SELECT * FROM t CROSS JOIN u", Planned)),
    ),
    (
        "semi",
        Some(("SELECT * FROM t SEMI JOIN u ON true", Refused)),
    ),
    (
        "left semi",
        Some(("SELECT * FROM t LEFT SEMI JOIN u ON true", Refused)),
    ),
    (
        "right semi",
        Some(("SELECT * FROM t RIGHT SEMI JOIN u ON true", Refused)),
    ),
    (
        "anti",
        Some(("SELECT * FROM t ANTI JOIN u ON true", Refused)),
    ),
    (
        "left anti",
        Some(("SELECT * FROM t LEFT ANTI JOIN u ON true", Refused)),
    ),
    (
        "right anti",
        Some(("SELECT * FROM t RIGHT ANTI JOIN u ON true", Refused)),
    ),
    (
        "cross apply",
        Some(("SELECT * FROM t CROSS APPLY u", Refused)),
    ),
    (
        "outer apply",
        Some(("SELECT * FROM t OUTER APPLY u", Refused)),
    ),
    (
        "as of",
        Some((
            "SELECT * FROM t ASOF JOIN u MATCH_CONDITION (t.a >= u.a)",
            Refused,
        )),
    ),
    ("straight join", None),
    ("array join", None),
    ("left array join", None),
    ("inner array join", None),
];

/// Select items, each the first of its list.
const SELECT_ITEMS: Table = &[
    ("unnamed expr", Some(("SELECT a FROM t", Planned))),
    ("expr with alias", Some(("SELECT a AS x FROM t", Planned))),
    ("expr with aliases", None),
    ("qualified wildcard", Some(("SELECT t.* FROM t", Planned))),
    ("wildcard", Some(("SELECT * FROM t", Planned))),
];

/// The one statement of `sql`, as sqlparser reads it.
fn statement(sql: &str) -> Statement {
    let mut all = Parser::parse_sql(&DIALECT, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert_eq!(all.len(), 1, "{sql}");
    all.remove(0)
}

fn query(sql: &str) -> Box<Query> {
    match statement(sql) {
        Statement::Query(q) => q,
        other => panic!("{sql}: not a query: {other}"),
    }
}

fn select(sql: &str) -> Box<Select> {
    match *query(sql).body {
        SetExpr::Select(s) => s,
        other => panic!("{sql}: not a SELECT: {other}"),
    }
}

/// Checks a table: it names exactly the forms `all` lists, each text
/// produces its form (as `name_of` names the form it finds), and each is
/// planned or refused by its name as the table says.
fn check(table: Table, all: &[&str], name_of: impl Fn(&str) -> String, label: &str) {
    let named: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
    let missing: Vec<&&str> = all.iter().filter(|f| !named.contains(f)).collect();
    assert!(
        missing.is_empty(),
        "{label} forms without a row: {missing:?}"
    );
    assert_eq!(
        named.len(),
        all.len(),
        "{label}: a row for a form that does not exist"
    );
    for (form, row) in table {
        let Some((sql, fate)) = row else { continue };
        assert_eq!(name_of(sql), format!("{label} {form}"), "{sql}");
        match (fate, plan(sql, &catalog())) {
            (Planned, Ok(_)) => {}
            (Refused, Err(e)) if e.starts_with(UNSUPPORTED) => {}
            (fate, got) => panic!("{sql}: expected {fate:?}, got {got:?}"),
        }
    }
}

#[test]
fn every_expression_form_is_planned_or_refused() {
    check(
        EXPRS,
        EXPR_FORMS,
        |sql| {
            let s = select(sql);
            match (&s.group_by, &s.projection[0]) {
                (GroupByExpr::Expressions(keys, _), _) if !keys.is_empty() => forms::expr(&keys[0]),
                (_, SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }) => {
                    forms::expr(e)
                }
                (_, other) => panic!("{sql}: {other}"),
            }
        },
        "expression",
    );
}

#[test]
fn every_query_body_form_is_planned_or_refused() {
    check(
        SET_EXPRS,
        SET_EXPR_FORMS,
        |sql| forms::set_expr(&query(sql).body),
        "query body",
    );
}

#[test]
fn every_from_item_form_is_planned_or_refused() {
    let factor = |sql: &str| {
        let s = select(sql);
        forms::table_factor(&s.from.last().expect("a FROM clause").relation)
    };
    check(TABLE_FACTORS, TABLE_FACTOR_FORMS, factor, "FROM item");
}

#[test]
fn every_join_form_is_planned_or_refused() {
    let join = |sql: &str| forms::join_operator(&select(sql).from[0].joins[0].join_operator);
    check(JOIN_OPERATORS, JOIN_OPERATOR_FORMS, join, "join");
}

#[test]
fn every_select_item_form_is_planned_or_refused() {
    let item = |sql: &str| forms::select_item(&select(sql).projection[0]);
    check(SELECT_ITEMS, SELECT_ITEM_FORMS, item, "select item");
}

#[test]
fn every_statement_form_is_planned_or_refused() {
    let name = |sql: &str| forms::statement(&statement(sql));
    check(STATEMENTS, STATEMENT_FORMS, name, "statement");
}

#[test]
fn every_kind_of_drop_is_planned_or_refused() {
    let object = |sql: &str| match statement(sql) {
        Statement::Drop { object_type, .. } => forms::drop_object(&object_type),
        other => panic!("{sql}: not a DROP: {other}"),
    };
    check(DROPS, DROP_OBJECT_FORMS, object, "DROP");
}
