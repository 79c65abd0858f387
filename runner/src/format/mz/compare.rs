//! Whether a record's printed outcome meets the record's expectation, as
//! Materialize's runner compares them: an expected error's regex matched
//! anywhere in `db error: ERROR: <message>`; query values equal to the
//! expected ones after both are sorted by the record's sort mode, or their
//! count and md5 equal to a hash's; column names checked only when there
//! is a row; a `simple` record's lines equal. An outcome the engine refused
//! as outside its subset (`unsupported: <construct>`) meets nothing and is
//! told apart, and so is an expectation the engine cannot show (a
//! `statement count`, a `simple` write's row count) or the runner cannot
//! hold an error to (a pattern Rust's `regex` cannot compile).

use crate::format::mz::layout::{ExpectedError, Output, Record, StatementExpect, Written};
use crate::format::mz::output::{unescape, COLUMNS, DB_ERROR, ERROR, UNKNOWN_COUNT};
use engine::repr::UNSUPPORTED;

/// How a record's outcome stands against its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Match {
    Agrees,
    /// It does not; why, in a line.
    Differs(String),
    /// The engine refused a construct outside its subset, or the record
    /// asks what the engine cannot show: the construct.
    Unsupported(String),
}

/// The construct of a record whose expected error is a pattern Rust's
/// `regex` cannot compile, judged when an error came: Materialize's runner
/// stops the whole file there (it compiles the pattern only then, and
/// fails); here the record alone is refused and the file goes on. Success
/// where an error was expected is still a wrong answer, as there.
pub const UNCOMPILED: &str = "an expected error that is not a regex";

/// The construct an outcome refused, if it is a refusal.
pub fn refusal(lines: &[String]) -> Option<String> {
    let first = lines.first()?;
    let message = first
        .strip_prefix(ERROR)
        .or_else(|| first.strip_prefix(DB_ERROR))?;
    let what = message.strip_prefix(UNSUPPORTED)?;
    Some(what.split(": ").next().unwrap_or(what).to_string())
}

/// The message of an error outcome.
fn error_of(lines: &[String]) -> Option<String> {
    let first = lines.first()?.strip_prefix(ERROR)?;
    let rest = lines[1..].iter().map(|l| format!("\n{l}"));
    Some(std::iter::once(first.to_string()).chain(rest).collect())
}

/// Compares `lines` (printed by [`render`](super::output::render)) with
/// `record`'s expectation.
pub fn compare(record: &Written, lines: &[String]) -> Match {
    if let Some(construct) = refusal(lines) {
        return Match::Unsupported(construct);
    }
    let error = error_of(lines);
    let shown = |e: &str| format!("{DB_ERROR}{e}");
    // An error against an expected one, as Materialize's runner holds it.
    let held = |e: &ExpectedError, m: &str| match e.matches(&shown(m)) {
        Some(true) => Match::Agrees,
        Some(false) => Match::Differs(format!("error `{m}` does not match `{}`", e.pattern)),
        None => Match::Unsupported(UNCOMPILED.into()),
    };
    match (&record.record, &error) {
        (Record::Statement { expect, .. }, _) => match (expect, &error) {
            (StatementExpect::Ok, None) => Match::Agrees,
            (StatementExpect::Count(_), None) => Match::Unsupported("statement count".into()),
            (StatementExpect::Error(e), Some(m)) => held(e, m),
            (StatementExpect::Error(e), None) => {
                Match::Differs(format!("succeeded; expected an error `{}`", e.pattern))
            }
            (_, Some(m)) => Match::Differs(format!("failed: {m}")),
        },
        (Record::Query { expect: Err(e), .. }, Some(m)) => held(e, m),
        (Record::Query { expect: Err(e), .. }, None) => {
            Match::Differs(format!("returned rows; expected an error `{}`", e.pattern))
        }
        (Record::Query { expect: Ok(_), .. }, Some(m)) => Match::Differs(format!("failed: {m}")),
        (Record::Query { expect: Ok(r), .. }, None) => {
            let (names, values) = match lines.first().and_then(|l| l.strip_prefix(COLUMNS)) {
                Some(names) => (Some(names), &lines[1..]),
                None => (None, lines),
            };
            if let Some(line) = values.first().filter(|l| is_refused_shape(l)) {
                return Match::Differs(line.clone());
            }
            let values: Vec<String> = values.iter().map(|v| unescape(v)).collect();
            if let (Some(expected), Some(actual), false) = (&r.columns, names, values.is_empty()) {
                let expected: Vec<String> = expected.iter().map(|n| n.replace(' ', "␠")).collect();
                if expected.join(" ") != actual {
                    return Match::Differs(format!(
                        "column names `{actual}`; expected `{}`",
                        expected.join(" ")
                    ));
                }
            }
            match &r.output {
                Output::Values(expected) if *expected == values => Match::Agrees,
                Output::Values(expected) => Match::Differs(format!(
                    "{} value(s) {:?}; expected {} {:?}",
                    values.len(),
                    preview(&values),
                    expected.len(),
                    preview(expected)
                )),
                Output::Hashed { values: n, md5 } => {
                    let actual = hash(&values);
                    match values.len() == *n && actual == *md5 {
                        true => Match::Agrees,
                        false => Match::Differs(format!(
                            "{} values hashing to {actual}; expected {n} values hashing to {md5}",
                            values.len()
                        )),
                    }
                }
            }
        }
        (Record::Simple { output, .. }, _) => {
            if lines.iter().any(|l| l == UNKNOWN_COUNT) {
                return Match::Unsupported("simple write (rows affected)".into());
            }
            let actual: Vec<String> = lines.iter().map(|v| unescape(v)).collect();
            match actual == *output {
                true => Match::Agrees,
                false if shows_without_detail(&actual, output) => Match::Unsupported(DETAIL.into()),
                false => Match::Differs(format!(
                    "printed {:?}; expected {:?}",
                    preview(&actual),
                    preview(output)
                )),
            }
        }
        (Record::HashThreshold | Record::Copy { .. } | Record::ResetServer, _) => Match::Agrees,
    }
}

/// The construct of a `simple` record whose expected error goes on with a
/// `DETAIL: ` or `HINT: ` line that the engine's error lacks: it shows one
/// only where it was built to (the hint of an unknown column).
pub const DETAIL: &str = "an error's DETAIL or HINT line";

/// Whether `actual` is one error line that is `expected`'s first, and the
/// rest of `expected` are its `DETAIL: ` and `HINT: ` lines: all the engine
/// could show of it. Another message, or rows, is still a wrong answer.
fn shows_without_detail(actual: &[String], expected: &[String]) -> bool {
    let [error] = actual else { return false };
    let extra = |l: &String| l.starts_with("DETAIL: ") || l.starts_with("HINT: ");
    error.starts_with(DB_ERROR)
        && expected.len() > 1
        && expected[0] == *error
        && expected[1..].iter().all(extra)
}

/// A line that stands for a result Materialize's runner would refuse.
fn is_refused_shape(line: &str) -> bool {
    use crate::format::mz::output::{UNFORMATTABLE, WIDTH};
    line.starts_with(WIDTH) || line.starts_with(UNFORMATTABLE)
}

/// The md5 of each value followed by a newline, as the runner hashes.
pub fn hash(values: &[String]) -> String {
    crate::format::md5_of_values(values.iter().map(String::as_str))
}

/// The first values, for a one-line report.
fn preview(values: &[String]) -> Vec<&str> {
    values.iter().take(6).map(String::as_str).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::mz::parse::parse;

    fn check(text: &str, lines: &[&str]) -> Match {
        let record = parse(text).unwrap().records.remove(0);
        let lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        compare(&record, &lines)
    }

    #[test]
    fn errors_match_by_regex_on_the_client_text() {
        let q = "query error pgcode 42703 column \"x\" does not exist\nSELECT x\n";
        assert_eq!(
            check(q, &["error: column \"x\" does not exist"]),
            Match::Agrees
        );
        assert!(matches!(check(q, &["error: other"]), Match::Differs(_)));
        assert!(matches!(check(q, &["1"]), Match::Differs(_)));
        let anchored = "statement error ^db error: ERROR: no$\nDROP TABLE t\n";
        assert_eq!(check(anchored, &["error: no"]), Match::Agrees);
        // A pattern Rust's `regex` cannot compile: an error came, and the
        // record alone is refused; success is wrong, as Materialize says.
        let bad = "statement error (a{x)|b\nSELECT 1\n";
        assert_eq!(
            check(bad, &["error: b"]),
            Match::Unsupported(UNCOMPILED.into())
        );
        assert!(matches!(check(bad, &["ok"]), Match::Differs(_)));
        let bad = "query error (a{x)\nSELECT 1\n";
        assert_eq!(
            check(bad, &["error: b"]),
            Match::Unsupported(UNCOMPILED.into())
        );
        assert!(matches!(check(bad, &["1"]), Match::Differs(_)));
        let s = "statement ok\nCREATE TABLE t (a numeric)\n";
        assert_eq!(
            check(s, &["error: unsupported: type numeric: in t"]),
            Match::Unsupported("type numeric".into())
        );
    }

    #[test]
    fn a_simple_error_with_a_detail_is_refused_only_when_its_message_is_equal() {
        let s = "simple\nSELECT f()\n----\ndb error: ERROR: bad\nDETAIL: why\nHINT: how\n";
        assert_eq!(
            check(s, &["db error: ERROR: bad"]),
            Match::Unsupported(DETAIL.into())
        );
        assert!(matches!(
            check(s, &["db error: ERROR: other"]),
            Match::Differs(_)
        ));
        assert!(matches!(check(s, &["1", "COMPLETE 1"]), Match::Differs(_)));
        let bare = "simple\nSELECT f()\n----\ndb error: ERROR: bad\n";
        assert_eq!(check(bare, &["db error: ERROR: bad"]), Match::Agrees);
        let more = "simple\nSELECT f()\n----\ndb error: ERROR: bad\nsecond line\n";
        assert!(matches!(
            check(more, &["db error: ERROR: bad"]),
            Match::Differs(_)
        ));
    }

    #[test]
    fn values_sorts_and_hashes() {
        let q = "mode cockroach\n\nquery IT rowsort\nSELECT 1\n----\n2 b\n1 a\n";
        assert_eq!(check(q, &["1", "a", "2", "b"]), Match::Agrees);
        let h = "query I\nSELECT 1\n----\n2 values hashing to 6ddb4095eb719e2a9f0a3f95677d24e0\n";
        // md5("1\n2\n")
        assert_eq!(check(h, &["1", "2"]), Match::Agrees);
        assert!(matches!(check(h, &["2", "1"]), Match::Differs(_)));
        let named = "query I colnames\nSELECT 1 AS a\n----\na\n1\n";
        assert_eq!(check(named, &["columns: a", "1"]), Match::Agrees);
        assert!(matches!(
            check(named, &["columns: b", "1"]),
            Match::Differs(_)
        ));
        let counted = "statement count 2\nINSERT INTO t VALUES (1), (2)\n";
        assert_eq!(
            check(counted, &["ok"]),
            Match::Unsupported("statement count".into())
        );
    }
}
