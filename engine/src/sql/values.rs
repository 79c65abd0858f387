//! Bulk `INSERT ... VALUES` read straight off the text: when a statement's
//! rows after the first are plain literals (unsigned integers and simple
//! strings), they become AST rows without sqlparser's tokenizer, which
//! makes a token (an allocated string) of every literal and comma, or its
//! expression parser, which tries a typed literal for every datum.
//! sqlparser still reads the text up to the end of the first row, so
//! everything but the repeated literals is its work. The scan gives up on
//! anything it is not sure of (comments, escapes, dollar quotes, signs,
//! `NULL`, a second statement, `ON CONFLICT`, a VALUES inside a SELECT):
//! such a text goes the usual way, with the usual errors.

use sqlparser::ast::{self, Expr, Parens, SetExpr};

/// The text up to the end of the first row of `sql`'s VALUES list, and the
/// rows after it, if `sql` is one statement whose rows after the first are
/// plain literals to its end (an optional `;` aside); `None` otherwise.
pub(super) fn split(sql: &str) -> Option<(&str, Vec<Vec<Expr>>)> {
    let mut scan = Scan { text: sql, at: 0 };
    scan.values_keyword()?;
    scan.row(|_| {})?;
    let head = &sql[..scan.at];
    let mut rows = Vec::new();
    loop {
        scan.blank();
        match scan.peek() {
            None => break,
            Some(b';') => {
                scan.at += 1;
                scan.blank();
                scan.peek().is_none().then_some(())?;
                break;
            }
            Some(b',') => scan.at += 1,
            Some(_) => return None,
        }
        let mut row = Vec::new();
        scan.row(|value| row.push(Expr::Value(value.with_empty_span())))?;
        rows.push(row);
    }
    (!rows.is_empty()).then_some((head, rows))
}

/// Appends `rows` to what sqlparser made of the statement's first row;
/// `false` (and the statement untouched) unless it is an INSERT of VALUES
/// with exactly one row, the one `split` cut the text after.
pub(super) fn append(statement: &mut ast::Statement, rows: Vec<Vec<Expr>>) -> bool {
    let ast::Statement::Insert(insert) = statement else {
        return false;
    };
    let Some(SetExpr::Values(values)) = insert.source.as_deref_mut().map(|q| &mut *q.body) else {
        return false;
    };
    if values.rows.len() != 1 {
        return false;
    }
    values
        .rows
        .extend(rows.into_iter().map(Parens::with_empty_span));
    true
}

/// A position in the text being scanned.
struct Scan<'a> {
    text: &'a str,
    at: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips whitespace as SQL has it.
    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Moves past the first `VALUES` keyword; on the way only words,
    /// numbers, quoted identifiers, blanks and `(),.` may occur.
    fn values_keyword(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        while let Some(b) = self.peek() {
            match b {
                b'"' => {
                    let close = bytes[self.at + 1..].iter().position(|c| *c == b'"')?;
                    self.at += close + 2;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let start = self.at;
                    while matches!(
                        self.peek(),
                        Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_')
                    ) {
                        self.at += 1;
                    }
                    if bytes[start..self.at].eq_ignore_ascii_case(b"VALUES") {
                        return Some(());
                    }
                }
                b'0'..=b'9' | b' ' | b'\t' | b'\n' | b'\r' | b'(' | b')' | b',' | b'.' => {
                    self.at += 1
                }
                _ => return None,
            }
        }
        None
    }

    /// `( literal, ... )`, each literal handed to `push`.
    fn row(&mut self, mut push: impl FnMut(ast::Value)) -> Option<()> {
        self.blank();
        self.expect(b'(')?;
        loop {
            self.blank();
            push(self.literal()?);
            self.blank();
            match self.peek()? {
                b',' => self.at += 1,
                b')' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// An unsigned integer, or a string without quotes or backslashes in it.
    fn literal(&mut self) -> Option<ast::Value> {
        let rest = &self.text[self.at..];
        let bytes = rest.as_bytes();
        if bytes.first()? == &b'\'' {
            let close = 1 + bytes[1..].iter().position(|c| *c == b'\'')?;
            let body = &rest[1..close];
            // `''` inside, and backslashes, are escapes: not ours to read.
            if bytes.get(close + 1) == Some(&b'\'') || body.contains('\\') {
                return None;
            }
            self.at += close + 1;
            return Some(ast::Value::SingleQuotedString(body.to_string()));
        }
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        // A digit run must end the literal: `1.5`, `1e3` and `1x` are not ours.
        let ends = matches!(
            bytes.get(digits),
            Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b')')
        );
        if digits == 0 || !ends {
            return None;
        }
        self.at += digits;
        Some(ast::Value::Number(rest[..digits].to_string(), false))
    }
}

#[cfg(test)]
mod tests {
    use sqlparser::parser::Parser;

    use super::super::parse::{parse, parser_error, Parsed, DIALECT};
    use super::*;

    /// What sqlparser makes of the whole text.
    fn whole(sql: &str) -> ast::Statement {
        let mut all = Parser::parse_sql(&DIALECT, sql).unwrap();
        assert_eq!(all.len(), 1, "{sql}");
        all.pop().unwrap()
    }

    /// What the engine's parser makes of it, through `split` if it applies.
    fn parsed(sql: &str) -> ast::Statement {
        let mut all = parse(sql).unwrap();
        assert_eq!(all.len(), 1, "{sql}");
        match all.pop().unwrap().stmt {
            Parsed::Ast(stmt) => *stmt,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn plain_literal_rows_read_as_sqlparser_reads_them() {
        for sql in [
            "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)",
            "insert into t (b, a) values ('x', 1), ('it is', 2), ('', 3);",
            "INSERT INTO \"T\" VALUES (007), (99999999999999999999)\n",
            "INSERT INTO s.\"values\" (a)\n VALUES\t( 1 ),\r\n(2 ) ; ",
            "INSERT INTO t VALUES ('é;--/*', 1), ('$$', 2)",
        ] {
            let (_, rows) = split(sql).unwrap_or_else(|| panic!("{sql}: not split"));
            assert!(!rows.is_empty());
            assert_eq!(parsed(sql), whole(sql), "{sql}");
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
        assert_eq!(parsed(sql), whole(sql));
        let sql = "INSERT INTO VALUES (1), (2)";
        assert!(split(sql).is_some());
        let error = parser_error(Parser::parse_sql(&DIALECT, sql).unwrap_err());
        assert_eq!(parse(sql).unwrap_err(), error);
    }
}
