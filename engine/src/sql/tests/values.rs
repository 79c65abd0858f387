//! The bulk INSERT scanner (`sql::values`) against sqlparser: what it
//! reads, it reads as sqlparser would, and what it is unsure of it leaves
//! to sqlparser.

use sqlparser::parser::Parser;

use crate::sql::parse::{parse, parser_error, Parsed, DIALECT};
use sqlparser::ast::{self, Expr, SetExpr};

use crate::sql::values::*;

/// What sqlparser makes of the whole text.
fn whole(sql: &str) -> ast::Statement {
    let mut all = Parser::parse_sql(&DIALECT, sql).unwrap();
    assert_eq!(all.len(), 1, "{sql}");
    all.pop().unwrap()
}

/// The rows past the first of an INSERT sqlparser parsed.
fn rows_past_the_first(statement: &ast::Statement) -> Vec<Vec<Expr>> {
    let ast::Statement::Insert(insert) = statement else {
        panic!("not an INSERT: {statement}");
    };
    let Some(SetExpr::Values(values)) = insert.source.as_deref().map(|q| &*q.body) else {
        panic!("not VALUES: {statement}");
    };
    values.rows[1..].iter().map(|r| r.content.clone()).collect()
}

#[test]
fn plain_literal_rows_read_as_sqlparser_reads_them() {
    for sql in [
        "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
        "insert into t (b, a) values ('x', 1), ('it is', 2), ('', 3);",
        "INSERT INTO \"T\" VALUES (007), (99999999999999999999)\n",
        "INSERT INTO s.\"values\" (a)\n VALUES\t( 1 ),\r\n(2 ) ; ",
        "INSERT INTO t VALUES ('é;--/*', 1), ('$$', 2), ('a\nb', 3)",
        "INSERT INTO \"my values\" VALUES (1), (2)",
    ] {
        let (head, rows) = split(sql).unwrap_or_else(|| panic!("{sql}: not split"));
        let read: Vec<Vec<Expr>> = rows
            .rows()
            .map(|row| row.map(Literal::to_expr).collect())
            .collect();
        let whole = whole(sql);
        assert_eq!(read, rows_past_the_first(&whole), "{sql}");
        let ast::Statement::Insert(head_insert) = self::whole(head) else {
            panic!("{sql}: head {head} is not an INSERT");
        };
        assert!(has_one_row(&head_insert), "{sql}: head {head}");
        assert!(matches!(
            parse(sql).unwrap().pop().unwrap().stmt,
            Parsed::BulkInsert { .. }
        ));
    }
}

#[test]
fn anything_else_is_left_to_sqlparser() {
    for sql in [
        "INSERT INTO t VALUES (1, 10)",
        "INSERT INTO t VALUES (1, 10);",
        "INSERT INTO t VALUES (1, 10), (-2, 20)",
        "INSERT INTO t VALUES (1, 10), (2, NULL)",
        "INSERT INTO t VALUES (1 + 1, 10), (2, 20)",
        "INSERT INTO t VALUES (1, 10), (2, '2'::int)",
        "INSERT INTO t VALUES (1.5, 10), (2, 20)",
        "INSERT INTO t VALUES (1, 1e3), (2, 20)",
        "INSERT INTO t VALUES (1, 'it''s'), (2, 'b')",
        "INSERT INTO t VALUES (1, 'a\\'), (2, 'b')",
        "INSERT INTO t VALUES (1, E'a'), (2, 'b')",
        "INSERT INTO t VALUES (1, 10), (2, 20) ON CONFLICT DO NOTHING",
        "INSERT INTO t VALUES (1, 10), (2, 20); SELECT 1",
        "INSERT INTO t VALUES (1, 10), (2, 20) -- two",
        "INSERT /* c */ INTO t VALUES (1, 10), (2, 20)",
        "INSERT INTO t VALUES (1, 10), (2, 20) AS OF 3",
        "INSERT INTO t SELECT * FROM (VALUES (1), (2)) AS v",
        "INSERT INTO t VALUES (1, 10), (2, 20",
        "INSERT INTO t VALUES (1, 10), (2, )",
        "INSERT INTO t VALUES (1), ()",
        "SELECT * FROM (VALUES (1), (2)) AS v",
    ] {
        assert!(split(sql).is_none(), "{sql}");
    }
}

/// A head that sqlparser does not take as a one-row INSERT leaves the
/// text to the usual way: its statement, or its error, unchanged.
#[test]
fn a_head_that_is_not_a_values_insert_goes_the_usual_way() {
    let sql = "VALUES (1), (2)";
    assert!(split(sql).is_some());
    match parse(sql).unwrap().pop().unwrap().stmt {
        Parsed::Ast(statement) => assert_eq!(*statement, whole(sql)),
        other => panic!("{other:?}"),
    }
    // An INSERT of a SELECT whose head ends as a row would.
    let sql = "INSERT INTO t SELECT VALUES (1), (2)";
    assert!(split(sql).is_some());
    match parse(sql).unwrap().pop().unwrap().stmt {
        Parsed::Ast(statement) => assert_eq!(*statement, whole(sql)),
        other => panic!("{other:?}"),
    }
    let sql = "INSERT INTO VALUES (1), (2)";
    assert!(split(sql).is_some());
    let error = parser_error(Parser::parse_sql(&DIALECT, sql).unwrap_err());
    assert_eq!(
        parse(sql).unwrap_err(),
        format!("unsupported: syntax INSERT: {error}")
    );
}
