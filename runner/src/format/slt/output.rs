//! How an [`Outcome`] prints for an `.slt` record, and how those lines turn
//! back into the `sqllogictest` crate's `RecordOutput` that completes it.
//!
//! The lines are what runs are compared on, so they hold everything a
//! completed record can show: for a statement `ok` or `error: <message>`; for
//! a query either `error: <message>`, or the result's type string (`IT`) on
//! the first line and then one line per row (values separated by one space,
//! `NULL` for null, `(empty)` for empty text), after the record's sort mode
//! and its hash threshold are applied, exactly as the crate's runner does.

use crate::format::slt::layout::{SltBlock, SltRecord, Type};
use engine::repr::Datum;
use engine::Outcome;
use sqllogictest::{ColumnType, QueryExpect, Record, RecordOutput, SortMode, StatementExpect};
use std::sync::Arc;

/// The prefix of an error line.
const ERROR: &str = "error: ";

/// The output lines of `block`'s outcome.
pub fn render(block: &SltBlock, outcome: &Outcome) -> Vec<String> {
    let error = |message: &str| -> Vec<String> {
        let mut lines = message.lines();
        let first = lines.next().unwrap_or_default();
        std::iter::once(format!("{ERROR}{first}"))
            .chain(lines.map(str::to_string))
            .collect()
    };
    let is_query = matches!(block.record, Record::Query { .. });
    match outcome {
        Outcome::Error(message) => error(message),
        Outcome::Pending(diagnosis) => error(&format!("pending: {diagnosis}")),
        Outcome::Rows(rows) if is_query => query_lines(block, rows),
        Outcome::Rows(_) | Outcome::Ok | Outcome::Issued if !is_query => vec!["ok".to_string()],
        other => error(&format!("the engine answered a query with {other:?}")),
    }
}

/// The type string and the rows of a query result.
fn query_lines(block: &SltBlock, rows: &[Vec<Datum>]) -> Vec<String> {
    let written = match &block.record {
        Record::Query {
            expected: QueryExpect::Results { types, .. },
            ..
        } => types.clone(),
        _ => Vec::new(),
    };
    let types = result_types(&written, rows);
    let mut values: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(value).collect())
        .collect();
    let per_row = match block.sort {
        None | Some(SortMode::NoSort) => types.len(),
        Some(SortMode::RowSort) => {
            values.sort_unstable();
            types.len()
        }
        Some(SortMode::ValueSort) => {
            values = values.into_iter().flatten().map(|v| vec![v]).collect();
            values.sort_unstable();
            1
        }
    };
    if block.hash_threshold > 0 && values.len() * per_row > block.hash_threshold {
        values = vec![vec![hashed(&values)]];
    }
    let type_string: String = types.iter().map(|t| t.to_char()).collect();
    std::iter::once(type_string)
        .chain(values.iter().map(|row| row.join(" ")))
        .collect()
}

/// `N values hashing to <md5>`, as sqllogictest prints a hashed result.
fn hashed(values: &[Vec<String>]) -> String {
    let md5 = crate::format::md5_of_values(values.iter().flatten().map(String::as_str));
    let count = values.len() * values.first().map_or(0, Vec::len);
    format!("{count} values hashing to {md5}")
}

/// One value as sqllogictest prints it.
pub fn value(datum: &Datum) -> String {
    match datum {
        Datum::Text(s) if s.is_empty() => "(empty)".to_string(),
        other => other.to_string(),
    }
}

/// The result's column types: each column's first non-NULL value decides;
/// an all-NULL column keeps the type written in the file (`T` if none).
fn result_types(written: &[Type], rows: &[Vec<Datum>]) -> Vec<Type> {
    let Some(width) = rows.first().map(Vec::len) else {
        return written.to_vec();
    };
    (0..width)
        .map(|c| {
            rows.iter()
                .find_map(|row| match row.get(c) {
                    Some(
                        Datum::Int16(_)
                        | Datum::Int32(_)
                        | Datum::Int64(_)
                        | Datum::UInt16(_)
                        | Datum::UInt32(_)
                        | Datum::UInt64(_),
                    ) => Some(Type::Integer),
                    Some(
                        Datum::Text(_)
                        | Datum::Date(_)
                        | Datum::Timestamp(_)
                        | Datum::TimestampTz(_)
                        | Datum::Time(_)
                        | Datum::Interval(_)
                        | Datum::Range(_)
                        | Datum::Jsonb(_)
                        | Datum::Array(_)
                        | Datum::List(_)
                        | Datum::Bytes(_),
                    ) => Some(Type::Text),
                    Some(Datum::Bool(_)) => Some(Type::Bool),
                    _ => None,
                })
                .or_else(|| written.get(c).copied())
                .unwrap_or(Type::Text)
        })
        .collect()
}

/// An engine error as the crate's runner reports one.
#[derive(Debug)]
struct EngineError(String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

/// The lines `block`'s record shows as written, in the shape [`render`]
/// gives: what another database's answer is compared with. An expected error
/// is one `error: ` line naming the expectation, not a message.
pub fn written(block: &SltBlock) -> Vec<String> {
    let error = |expected: &sqllogictest::ExpectedError| vec![format!("{ERROR}{expected}")];
    match &block.record {
        Record::Statement {
            expected: StatementExpect::Error(e),
            ..
        }
        | Record::Query {
            expected: QueryExpect::Error(e),
            ..
        } => error(e),
        Record::Query {
            expected: QueryExpect::Results { types, results, .. },
            ..
        } => std::iter::once(types.iter().map(|t| t.to_char()).collect())
            .chain(results.iter().cloned())
            .collect(),
        _ => vec!["ok".to_string()],
    }
}

/// The crate's view of `lines`, the output of `record` as [`render`] printed it.
pub fn record_output(record: &SltRecord, lines: &[String]) -> RecordOutput<Type> {
    let error = lines
        .first()
        .and_then(|l| l.strip_prefix(ERROR))
        .map(|first| {
            let message = std::iter::once(first)
                .chain(lines[1..].iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("\n");
            Arc::new(EngineError(message)) as Arc<dyn std::error::Error + Send + Sync>
        });
    match record {
        Record::Query { .. } => {
            let (types, rows) = match (&error, lines.split_first()) {
                (None, Some((types, rows))) => (
                    types.chars().filter_map(Type::from_char).collect(),
                    rows.iter().map(|r| vec![r.clone()]).collect(),
                ),
                _ => (Vec::new(), Vec::new()),
            };
            RecordOutput::Query { types, rows, error }
        }
        _ => RecordOutput::Statement { count: 0, error },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::slt::layout::Origin;

    fn block(record: &str, sort: Option<SortMode>, hash_threshold: usize) -> SltBlock {
        let mut records = sqllogictest::parse::<Type>(record).unwrap();
        SltBlock {
            record: records.remove(0),
            origin: Origin::Own(0),
            sort,
            hash_threshold,
        }
    }

    fn rows() -> Outcome {
        Outcome::Rows(vec![
            vec![
                Datum::Int64(2),
                Datum::Text("b c".into()),
                Datum::Bool(true),
            ],
            vec![Datum::Int64(1), Datum::Text(String::new()), Datum::Null],
        ])
    }

    #[test]
    fn query_values_and_sort_modes() {
        let q = block("query ITB\nSELECT 1\n----\n", None, 0);
        assert_eq!(render(&q, &rows()), ["ITB", "2 b c true", "1 (empty) NULL"]);
        let q = block("query ITB\nSELECT 1\n----\n", Some(SortMode::RowSort), 0);
        assert_eq!(render(&q, &rows()), ["ITB", "1 (empty) NULL", "2 b c true"]);
        let q = block("query ITB\nSELECT 1\n----\n", Some(SortMode::ValueSort), 0);
        assert_eq!(
            render(&q, &rows()),
            ["ITB", "(empty)", "1", "2", "NULL", "b c", "true"]
        );
    }

    #[test]
    fn types_come_from_the_values() {
        let q = block("query II\nSELECT 1\n----\n", None, 0);
        assert_eq!(render(&q, &rows())[0], "ITB");
        let nulls = Outcome::Rows(vec![vec![Datum::Null, Datum::Null]]);
        let q = block("query IB\nSELECT 1\n----\n", None, 0);
        assert_eq!(render(&q, &nulls), ["IB", "NULL NULL"]);
        assert_eq!(render(&q, &Outcome::Rows(vec![])), ["IB"]);
        // Every value printed as its text is a `T`, a timestamptz too.
        let ts = engine::repr::time::parse_timestamp("2020-01-02 03:04:05").unwrap();
        let times = Outcome::Rows(vec![vec![Datum::Timestamp(ts), Datum::TimestampTz(ts)]]);
        let q = block("query II\nSELECT 1\n----\n", None, 0);
        assert_eq!(render(&q, &times)[0], "TT");
    }

    #[test]
    fn hashing_above_the_threshold() {
        let q = block("query ITB\nSELECT 1\n----\n", Some(SortMode::RowSort), 5);
        // md5 of "1\n(empty)\nNULL\n2\nb c\ntrue\n"
        let expected = format!(
            "{:x}",
            <md5::Md5 as md5::Digest>::digest(b"1\n(empty)\nNULL\n2\nb c\ntrue\n")
        );
        assert_eq!(
            render(&q, &rows()),
            ["ITB".to_string(), format!("6 values hashing to {expected}")]
        );
        let q = block("query ITB\nSELECT 1\n----\n", None, 6);
        assert_eq!(render(&q, &rows()).len(), 3);
    }

    #[test]
    fn statements_and_errors() {
        let s = block("statement ok\nCREATE TABLE t (a int)\n", None, 0);
        assert_eq!(render(&s, &Outcome::Ok), ["ok"]);
        assert_eq!(
            render(&s, &Outcome::Error("a\nb".into())),
            ["error: a", "b"]
        );
        let q = block("query I\nSELECT 1\n----\n", None, 0);
        assert_eq!(
            render(&q, &Outcome::Pending("worker 0 is paused".into())),
            ["error: pending: worker 0 is paused"]
        );
        assert!(render(&q, &Outcome::Ok)[0].starts_with("error: the engine answered"));
    }

    #[test]
    fn written_lines_have_the_shape_of_rendered_ones() {
        let q = block("query IT rowsort\nSELECT 1\n----\n1 a\n2 b\n", None, 0);
        assert_eq!(written(&q), ["IT", "1 a", "2 b"]);
        let rendered = render(
            &q,
            &Outcome::Rows(vec![
                vec![Datum::Int64(2), Datum::Text("b".into())],
                vec![Datum::Int64(1), Datum::Text("a".into())],
            ]),
        );
        assert_eq!(
            rendered,
            ["IT", "2 b", "1 a"],
            "no sort mode given to render"
        );
        let e = block("query error division by zero\nSELECT 1/0\n", None, 0);
        assert!(written(&e)[0].starts_with("error: "), "{:?}", written(&e));
        let s = block("statement error exists\nCREATE TABLE t (a int)\n", None, 0);
        assert!(written(&s)[0].starts_with("error: "));
        let s = block("statement ok\nCREATE TABLE t (a int)\n", None, 0);
        assert_eq!(written(&s), ["ok"]);
    }

    #[test]
    fn lines_turn_back_into_record_outputs() {
        let query = block("query IT\nSELECT 1\n----\n", None, 0).record;
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match record_output(&query, &lines(&["IT", "1 a"])) {
            RecordOutput::Query { types, rows, error } => {
                assert_eq!(types, [Type::Integer, Type::Text]);
                assert_eq!(rows, [vec!["1 a".to_string()]]);
                assert!(error.is_none());
            }
            other => panic!("{other:?}"),
        }
        match record_output(&query, &lines(&["error: x", "y"])) {
            RecordOutput::Query { error: Some(e), .. } => assert_eq!(e.to_string(), "x\ny"),
            other => panic!("{other:?}"),
        }
        let statement = block("statement ok\nx\n", None, 0).record;
        match record_output(&statement, &lines(&["ok"])) {
            RecordOutput::Statement { error: None, .. } => {}
            other => panic!("{other:?}"),
        }
    }
}
