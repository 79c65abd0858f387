//! Bulk `INSERT ... VALUES` read straight off the text: when a statement's
//! rows after the first are plain literals (unsigned integers and simple
//! strings), they are kept as where each literal lies in the text, without
//! sqlparser's tokenizer, which makes a token (an allocated string) of
//! every literal and comma, or its AST, an allocated expression per datum.
//! sqlparser still reads the text up to the end of the first row, so
//! everything but the repeated literals is its work. The scan gives up on
//! anything it is not sure of (comments, escapes, dollar quotes, signs,
//! `NULL`, a second statement, `ON CONFLICT`, a VALUES inside a SELECT):
//! such a text goes the usual way, with the usual errors.

use std::ops::Range;

use sqlparser::ast::{self, Expr, SetExpr};

/// The text up to the end of the first row of `sql`'s VALUES list, and the
/// rows after it, if `sql` is one statement whose rows after the first are
/// plain literals to its end (an optional `;` aside); `None` otherwise.
pub(super) fn split(sql: &str) -> Option<(&str, LiteralRows)> {
    let mut scan = Scan { text: sql, at: 0 };
    scan.values_keyword()?;
    scan.row(|_| {})?;
    let head = &sql[..scan.at];
    let mut literals = Vec::new();
    let mut row_ends = Vec::new();
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
        scan.row(|literal| literals.push(literal))?;
        row_ends.push(literals.len());
    }
    let rows = LiteralRows {
        text: sql.to_string(),
        literals,
        row_ends,
    };
    (!rows.row_ends.is_empty()).then_some((head, rows))
}

/// Whether `insert` is what `split`'s head must parse to: an INSERT of
/// VALUES with exactly one row, the one the text was cut after.
pub(super) fn has_one_row(insert: &ast::Insert) -> bool {
    matches!(
        insert.source.as_deref().map(|q| &*q.body),
        Some(SetExpr::Values(values)) if values.rows.len() == 1
    )
}

/// Rows of plain literals, as where each lies in a copy of the text.
#[derive(Debug)]
pub(super) struct LiteralRows {
    text: String,
    literals: Vec<(Kind, Range<usize>)>,
    /// Where each row's literals end in `literals`.
    row_ends: Vec<usize>,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Number,
    /// A string's body, its quotes left out.
    Text,
}

/// A literal of a row: its text.
#[derive(Clone, Copy, Debug)]
pub(super) enum Literal<'a> {
    Number(&'a str),
    Text(&'a str),
}

impl Literal<'_> {
    /// The expression sqlparser makes of it.
    pub(super) fn to_expr(self) -> Expr {
        let value = match self {
            Literal::Number(n) => ast::Value::Number(n.to_string(), false),
            Literal::Text(s) => ast::Value::SingleQuotedString(s.to_string()),
        };
        Expr::Value(value.with_empty_span())
    }
}

impl LiteralRows {
    /// Each row's literals, in order.
    pub(super) fn rows(
        &self,
    ) -> impl Iterator<Item = impl ExactSizeIterator<Item = Literal<'_>> + '_> + '_ {
        let starts = std::iter::once(0).chain(self.row_ends.iter().copied());
        starts.zip(&self.row_ends).map(move |(start, end)| {
            self.literals[start..*end]
                .iter()
                .map(|(kind, range)| self.literal(*kind, range.clone()))
        })
    }

    fn literal(&self, kind: Kind, range: Range<usize>) -> Literal<'_> {
        let text = &self.text[range];
        match kind {
            Kind::Number => Literal::Number(text),
            Kind::Text => Literal::Text(text),
        }
    }
}

/// Whitespace as SQL has it.
fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
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

    /// Skips whitespace.
    fn blank(&mut self) {
        while self.peek().is_some_and(is_blank) {
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
                b'0'..=b'9' | b'(' | b')' | b',' | b'.' => self.at += 1,
                b if is_blank(b) => self.at += 1,
                _ => return None,
            }
        }
        None
    }

    /// `( literal, ... )`, each literal handed to `push`.
    fn row(&mut self, mut push: impl FnMut((Kind, Range<usize>))) -> Option<()> {
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
    fn literal(&mut self) -> Option<(Kind, Range<usize>)> {
        let start = self.at;
        let bytes = &self.text.as_bytes()[start..];
        if bytes.first()? == &b'\'' {
            let close = 1 + bytes[1..].iter().position(|c| *c == b'\'')?;
            let body = &bytes[1..close];
            // `''` inside, and backslashes, are escapes: not ours to read.
            if bytes.get(close + 1) == Some(&b'\'') || body.contains(&b'\\') {
                return None;
            }
            self.at += close + 1;
            return Some((Kind::Text, start + 1..start + close));
        }
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        // A digit run must end the literal: `1.5`, `1e3` and `1x` are not ours.
        let ends = bytes
            .get(digits)
            .is_some_and(|b| is_blank(*b) || matches!(b, b',' | b')'));
        if digits == 0 || !ends {
            return None;
        }
        self.at += digits;
        Some((Kind::Number, start..start + digits))
    }
}
