//! Bulk `INSERT ... VALUES` read off the tokens: past its first row, a
//! VALUES list of plain literals (numbers and strings) becomes AST rows
//! without going through sqlparser's expression parser, which tries a typed
//! literal (and formats the error it gets back) for every datum. sqlparser
//! still parses the statement up to the end of its first row, so everything
//! but the repeated literals is its work; anything else (an expression, a
//! sign, `ON CONFLICT`, a subquery's VALUES) leaves the statement to it.

use sqlparser::ast::{self, Expr, Parens, SetExpr};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::parse::is_keyword;

/// The rows after the first of an `INSERT ... VALUES` of plain literals,
/// and their tokens, cut off `tokens`; `None` (tokens untouched) for any
/// other statement.
pub(super) fn take_rest(
    tokens: &mut Vec<TokenWithSpan>,
) -> Option<(Vec<Vec<Expr>>, Vec<TokenWithSpan>)> {
    if !tokens
        .first()
        .is_some_and(|t| is_keyword(t, Keyword::INSERT))
    {
        return None;
    }
    let values = tokens.iter().position(|t| is_keyword(t, Keyword::VALUES))?;
    let first_row_end = closing(tokens, values + 1)?;
    let rows = literal_rows(&tokens[first_row_end + 1..])?;
    Some((rows, tokens.split_off(first_row_end + 1)))
}

/// Appends `rows` to what sqlparser made of the statement's first row;
/// `false` (and the statement untouched) when it is not an INSERT of VALUES.
pub(super) fn append(statement: &mut ast::Statement, rows: Vec<Vec<Expr>>) -> bool {
    let ast::Statement::Insert(insert) = statement else {
        return false;
    };
    let Some(SetExpr::Values(values)) = insert.source.as_deref_mut().map(|q| &mut *q.body) else {
        return false;
    };
    values
        .rows
        .extend(rows.into_iter().map(Parens::with_empty_span));
    true
}

/// The index of the `)` closing the `(` at `open`.
fn closing(tokens: &[TokenWithSpan], open: usize) -> Option<usize> {
    if tokens.get(open)?.token != Token::LParen {
        return None;
    }
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `, (lit, ...)` repeated to the end, each `lit` a number or a string;
/// `None` for anything else, an empty rest included (nothing to save).
fn literal_rows(mut rest: &[TokenWithSpan]) -> Option<Vec<Vec<Expr>>> {
    let mut rows = Vec::new();
    while !rest.is_empty() {
        let [comma, open, tail @ ..] = rest else {
            return None;
        };
        if comma.token != Token::Comma || open.token != Token::LParen {
            return None;
        }
        let mut row = Vec::new();
        let mut tail = tail;
        loop {
            let [literal, next, after @ ..] = tail else {
                return None;
            };
            let value = match &literal.token {
                Token::Number(n, long) => ast::Value::Number(n.clone(), *long),
                Token::SingleQuotedString(s) => ast::Value::SingleQuotedString(s.clone()),
                _ => return None,
            };
            row.push(Expr::Value(value.with_span(literal.span)));
            tail = after;
            match next.token {
                Token::Comma => {}
                Token::RParen => break,
                _ => return None,
            }
        }
        rows.push(row);
        rest = tail;
    }
    (!rows.is_empty()).then_some(rows)
}

#[cfg(test)]
mod tests {
    use sqlparser::parser::Parser;
    use sqlparser::tokenizer::Tokenizer;

    use super::super::parse::DIALECT;
    use super::*;

    fn tokens(sql: &str) -> Vec<TokenWithSpan> {
        let all = Tokenizer::new(&DIALECT, sql)
            .tokenize_with_location()
            .unwrap();
        let significant = |t: &TokenWithSpan| !matches!(t.token, Token::Whitespace(_) | Token::EOF);
        all.into_iter().filter(significant).collect()
    }

    /// What sqlparser makes of the whole statement.
    fn whole(sql: &str) -> ast::Statement {
        Parser::new(&DIALECT)
            .with_tokens_with_locations(tokens(sql))
            .parse_statement()
            .unwrap()
    }

    /// The same statement through `take_rest` and `append`, if they take it.
    fn taken(sql: &str) -> Option<ast::Statement> {
        let mut tokens = tokens(sql);
        let (rows, _) = take_rest(&mut tokens)?;
        let mut statement = Parser::new(&DIALECT)
            .with_tokens_with_locations(tokens)
            .parse_statement()
            .unwrap();
        assert!(append(&mut statement, rows));
        Some(statement)
    }

    #[test]
    fn plain_literal_rows_read_as_sqlparser_reads_them() {
        for sql in [
            "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
            "insert into t (b, a) values ('x', 1), ('it''s', 2), ('', 3)",
            "INSERT INTO t VALUES (1 + 1, 10), (2, 20)",
            "INSERT INTO t VALUES (1.5, 1e3), (99999999999999999999, 0.0)",
            "INSERT INTO \"T\" VALUES (1), (2)",
        ] {
            assert_eq!(taken(sql), Some(whole(sql)), "{sql}");
        }
    }

    #[test]
    fn anything_else_is_left_to_sqlparser() {
        for sql in [
            "INSERT INTO t VALUES (1, 10)",
            "INSERT INTO t VALUES (1, 10), (-2, 20)",
            "INSERT INTO t VALUES (1, 10), (2, NULL)",
            "INSERT INTO t VALUES (1, 10), (2, 1 + 1)",
            "INSERT INTO t VALUES (1, 10), (2, '2'::int)",
            "INSERT INTO t VALUES (1, 10), (2, 20) ON CONFLICT DO NOTHING",
            "INSERT INTO t SELECT * FROM (VALUES (1), (2)) AS v",
            "INSERT INTO t SELECT 1",
            "SELECT * FROM (VALUES (1), (2)) AS v",
        ] {
            let mut tokens = tokens(sql);
            let before = tokens.clone();
            assert!(take_rest(&mut tokens).is_none(), "{sql}");
            assert_eq!(tokens, before, "{sql}: tokens untouched");
        }
    }

    #[test]
    fn a_statement_that_is_not_values_is_left_as_it_is() {
        let rows = vec![vec![Expr::Value(
            ast::Value::Number("1".into(), false).into(),
        )]];
        for sql in ["SELECT 1", "INSERT INTO t SELECT 1"] {
            let mut statement = whole(sql);
            assert!(!append(&mut statement, rows.clone()), "{sql}");
            assert_eq!(statement, whole(sql), "{sql}: untouched");
        }
    }
}
