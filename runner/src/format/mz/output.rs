//! How an [`Outcome`] prints for a record of Materialize's dialect: the
//! lines runs are compared on, and the judge reads, holding everything its
//! runner compares. A statement prints `ok` or `error: <message>`. A query
//! prints `error: <message>`, or its values formatted by the record's type
//! letters and mode, sorted by its sort mode, one per line, after a
//! `columns: a b` line when the record checks column names (a `wrong
//! column count: N` or `cannot format: ...` line stands for what its
//! runner would refuse). A `simple` record prints what the simple query
//! protocol shows: each row's values joined by `,`, then `COMPLETE n`, or
//! `db error: ERROR: <message>`. Values are escaped (see [`escape`]) so
//! that each is one line.

use crate::format::dd::output::prefixed;
use crate::format::mz::layout::{Mode, Output, Record, Sort, StatementExpect, Type, Written};
use crate::format::mz::value::{format, simple_text};
use crate::format::mz::words;
use engine::repr::Row;
use engine::Outcome;

/// The prefix of an error line.
pub const ERROR: &str = "error: ";
/// The prefix of the column names line.
pub const COLUMNS: &str = "columns: ";
/// A row whose width is not the number of type letters.
pub const WIDTH: &str = "wrong column count: ";
/// A value the runner cannot format by its column's type letter.
pub const UNFORMATTABLE: &str = "cannot format: ";
/// How the client library shows a server's error.
pub const DB_ERROR: &str = "db error: ERROR: ";
/// A `simple` write's completion, whose row count the engine does not report.
pub const UNKNOWN_COUNT: &str = "COMPLETE ?";

/// The lines of `record`'s outcome; `columns` are the result's column
/// names, when the record checks them and the target could say.
pub fn render(record: &Written, outcome: &Outcome, columns: Option<&[String]>) -> Vec<String> {
    match (&record.record, outcome) {
        (_, Outcome::Error(message)) | (_, Outcome::Pending(message)) => {
            let message = match outcome {
                Outcome::Pending(_) => format!("pending: {message}"),
                _ => message.clone(),
            };
            match &record.record {
                Record::Simple { .. } => prefixed(DB_ERROR, &message),
                _ => prefixed(ERROR, &message),
            }
        }
        (Record::Query { expect, .. }, Outcome::Rows(rows)) => {
            let (types, mode, sort) = match expect {
                Ok(r) => (r.types.clone(), r.mode, r.sort),
                // Unexpected rows: shown as text, to say what they were.
                Err(_) => {
                    let width = rows.first().map_or(0, Vec::len);
                    (vec![Type::Text; width], Mode::Standard, Sort::Row)
                }
            };
            let named = expect.as_ref().is_ok_and(|r| r.columns.is_some());
            let mut lines = Vec::new();
            if let Some(names) = columns.filter(|_| named) {
                let names: Vec<String> = names.iter().map(|n| n.replace(' ', "␠")).collect();
                lines.push(format!("{COLUMNS}{}", names.join(" ")));
            }
            lines.extend(values(rows, &types, mode, sort));
            lines
        }
        (Record::Simple { sql, sort, .. }, outcome) => simple(sql, *sort, outcome),
        _ => vec!["ok".to_string()],
    }
}

/// The lines `record` expects, in the shape [`render`] gives, for another
/// database's answer to be compared with: an expected error is one
/// `error: <pattern>` line, a hash one `N values hashing to MD5` line.
pub fn written(record: &Written) -> Vec<String> {
    let error =
        |e: &crate::format::mz::layout::ExpectedError| vec![format!("{ERROR}{}", e.pattern)];
    match &record.record {
        Record::Statement {
            expect: StatementExpect::Error(e),
            ..
        }
        | Record::Query { expect: Err(e), .. } => error(e),
        Record::Query { expect: Ok(r), .. } => {
            let names = r.columns.as_ref().map(|names| {
                let names: Vec<String> = names.iter().map(|n| n.replace(' ', "␠")).collect();
                format!("{COLUMNS}{}", names.join(" "))
            });
            let values = match &r.output {
                Output::Values(values) => values.iter().map(|v| escape(v)).collect(),
                Output::Hashed { values, md5 } => vec![format!("{values} values hashing to {md5}")],
            };
            names.into_iter().chain(values).collect()
        }
        Record::Simple { output, .. } => output.iter().map(|l| escape(l)).collect(),
        _ => vec!["ok".to_string()],
    }
}

/// A query's values as its runner compares them.
fn values(rows: &[Row], types: &[Type], mode: Mode, sort: Sort) -> Vec<String> {
    let mut formatted: Vec<Vec<String>> = Vec::with_capacity(rows.len());
    for row in rows {
        if row.len() != types.len() {
            return vec![format!("{WIDTH}{}", row.len())];
        }
        let mut values = Vec::with_capacity(row.len());
        for (datum, typ) in row.iter().zip(types) {
            match format(datum, *typ, mode) {
                Ok(v) => values.push(v),
                Err(why) => return vec![format!("{UNFORMATTABLE}{why}")],
            }
        }
        formatted.push(values);
    }
    if sort == Sort::Row {
        formatted.sort();
    }
    let mut values: Vec<String> = formatted.into_iter().flatten().collect();
    if sort == Sort::Value {
        values.sort();
    }
    values.iter().map(|v| escape(v)).collect()
}

/// What the simple query protocol shows for `outcome`: for a request of
/// several statements, each one's lines in turn.
fn simple(sql: &str, sort: Sort, outcome: &Outcome) -> Vec<String> {
    let statements = words::statements(sql);
    let mut lines: Vec<String> = match outcome {
        Outcome::Results(outcomes) => outcomes
            .iter()
            .enumerate()
            .flat_map(|(i, o)| completed(statements.get(i).map(Vec::as_slice), o))
            .collect(),
        outcome => completed(statements.first().map(Vec::as_slice), outcome),
    };
    if sort == Sort::Row {
        lines.sort();
    }
    lines
}

/// One statement's rows and `COMPLETE` line, its row count for a read, or
/// [`UNKNOWN_COUNT`] for a write.
fn completed(statement: Option<&[words::Token]>, outcome: &Outcome) -> Vec<String> {
    match outcome {
        Outcome::Rows(rows) => {
            let mut lines: Vec<String> = rows
                .iter()
                .map(|row| {
                    let values: Vec<String> = row.iter().map(simple_text).collect();
                    escape(&values.join(","))
                })
                .collect();
            lines.push(format!("COMPLETE {}", rows.len()));
            lines
        }
        _ => {
            let writes = statement
                .and_then(|s| s.first())
                .is_some_and(|t| ["insert", "update", "delete"].iter().any(|w| t.is(w)));
            match writes {
                true => vec![UNKNOWN_COUNT.to_string()],
                false => vec!["COMPLETE 0".to_string()],
            }
        }
    }
}

/// Lines a value could be mistaken for.
const RESERVED: &[&str] = &[ERROR, COLUMNS, WIDTH, UNFORMATTABLE];

/// A value as one line: `\` doubled, line breaks as `\n` and `\r`, and a
/// `\` before a value that starts like a line of another kind.
pub fn escape(value: &str) -> String {
    let escaped = value
        .replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r");
    match RESERVED.iter().any(|p| escaped.starts_with(p)) {
        true => format!("\\{escaped}"),
        false => escaped,
    }
}

/// The value [`escape`] made `line` from.
pub fn unescape(line: &str) -> String {
    let line = match RESERVED
        .iter()
        .any(|p| line.get(1..).is_some_and(|l| l.starts_with(p)))
    {
        true => &line[1..],
        false => line,
    };
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::mz::parse::parse;
    use engine::repr::Datum;

    fn record(text: &str) -> Written {
        parse(text).unwrap().records.remove(0)
    }

    fn rows() -> Outcome {
        Outcome::Rows(vec![
            vec![Datum::Int32(2), Datum::Text("b c".into())],
            vec![Datum::Int32(1), Datum::Text(String::new())],
        ])
    }

    #[test]
    fn queries_format_sort_and_name() {
        let q = record("query IT rowsort\nSELECT 1\n----\n");
        assert_eq!(render(&q, &rows(), None), ["1", "(empty)", "2", "b c"]);
        let q = record("query IT valuesort\nSELECT 1\n----\n");
        assert_eq!(render(&q, &rows(), None), ["(empty)", "1", "2", "b c"]);
        let q = record("query II\nSELECT 1\n----\n");
        assert_eq!(render(&q, &rows(), None), ["2", "0", "1", "0"]);
        let q = record("query I colnames\nSELECT 1\n----\n");
        let names = ["a b".to_string(), "c".to_string()];
        assert_eq!(
            render(&q, &rows(), Some(&names)),
            ["columns: a␠b c", "wrong column count: 2"]
        );
        let q = record("query BT\nSELECT 1\n----\n");
        assert!(render(&q, &rows(), None)[0].starts_with(UNFORMATTABLE));
    }

    #[test]
    fn statements_simple_and_errors() {
        let s = record("statement ok\nCREATE TABLE t (a int)\n");
        assert_eq!(render(&s, &Outcome::Ok, None), ["ok"]);
        assert_eq!(
            render(&s, &Outcome::Error("a\nb".into()), None),
            ["error: a", "b"]
        );
        let simple = record("simple\nSELECT 1\n----\n1\nCOMPLETE 1\n");
        let one = Outcome::Rows(vec![vec![Datum::Int32(1), Datum::Bool(true), Datum::Null]]);
        assert_eq!(render(&simple, &one, None), ["1,t,NULL", "COMPLETE 1"]);
        assert_eq!(
            render(&simple, &Outcome::Error("no".into()), None),
            ["db error: ERROR: no"]
        );
        let write = record("simple\nINSERT INTO t VALUES (1)\n----\nCOMPLETE 1\n");
        assert_eq!(render(&write, &Outcome::Ok, None), [UNKNOWN_COUNT]);
    }

    #[test]
    fn values_escape_to_one_line_and_back() {
        for v in ["a\nb", "x\\n", "error: no", "\\", "plain", "\r"] {
            let line = escape(v);
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(unescape(&line), v);
        }
        assert_eq!(escape("error: x"), "\\error: x");
    }
}
