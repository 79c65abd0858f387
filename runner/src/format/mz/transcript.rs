//! The completed file of Materialize's dialect, as its runner's
//! `--rewrite-results` writes one: the text as written, except where a
//! record's outcome does not meet its expectation. There a query's expected
//! output is replaced by its values (one per line in standard mode; a row
//! per line in cockroach mode, columns two spaces apart, `␠` for a space
//! in a value; `⏎` for a line break unless `multiline`), after its column
//! names with `colnames`, or by `N values hashing to MD5` when it was a
//! hash; an expected error's pattern by the message's first line, escaped
//! as a regex; a `simple` record's output by its lines. An outcome the
//! record's form cannot hold (a `statement ok` that failed, a query
//! expecting rows that failed, an expected error that did not come) is not
//! written: the block is reported as unwritable, as its runner refuses it.
//! A refusal (`unsupported: ...`) meets no record, so in a suite file it is
//! written or unwritable like any miss: only a foreign file's judge counts
//! it apart.

use crate::format::mz::compare::{compare, hash, Match};
use crate::format::mz::layout::{Layout, Mode, Output, Record, Results, StatementExpect};
use crate::format::mz::output::{unescape, COLUMNS, ERROR};
use crate::format::Transcript;
use std::ops::Range;

/// `text` (whose records are `layout`) completed with `outputs[i]` as the
/// output of block `i` (`None`: left as written).
pub fn render(text: &str, layout: &Layout, outputs: &[Option<Vec<String>>]) -> Transcript {
    assert_eq!(layout.blocks.len(), outputs.len(), "one output per block");
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut unwritable = Vec::new();
    for (block, output) in outputs.iter().enumerate() {
        let Some(lines) = output else { continue };
        let written = layout.record(block);
        // A refusal meets nothing: it is written like any other outcome
        // that does not meet its record, or the block is unwritable.
        if compare(written, lines) == Match::Agrees {
            continue;
        }
        match edit(text, &written.record, lines) {
            Some(e) => edits.push(e),
            None => unwritable.push(block),
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    // Where each original offset moved: (original, shift after it).
    let mut shifts: Vec<(usize, isize)> = vec![(0, 0)];
    for (range, replacement) in edits {
        out.push_str(&text[at..range.start]);
        out.push_str(&replacement);
        at = range.end;
        let shift = shifts.last().map_or(0, |s| s.1);
        shifts.push((
            at,
            shift + replacement.len() as isize - range.len() as isize,
        ));
    }
    out.push_str(&text[at..]);
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let directive_lines = layout
        .blocks
        .iter()
        .map(|&r| {
            let offset = line_starts[layout.records[r].line - 1];
            let shift = shifts
                .iter()
                .rev()
                .find(|s| s.0 <= offset)
                .map_or(0, |s| s.1);
            let moved = (offset as isize + shift) as usize;
            out[..moved].matches('\n').count()
        })
        .collect();
    Transcript {
        text: out,
        directive_lines,
        unmet: Vec::new(),
        unwritable,
    }
}

/// The edit that writes `lines` into `record`, if its form can hold them.
fn edit(text: &str, record: &Record, lines: &[String]) -> Option<(Range<usize>, String)> {
    let error = lines
        .first()
        .and_then(|l| l.strip_prefix(ERROR))
        .map(|first| regex::escape(first).replace(r"\#", "#"));
    match (record, error) {
        (
            Record::Statement {
                expect: StatementExpect::Error(e),
                ..
            },
            Some(pattern),
        ) => Some((e.span.clone(), pattern)),
        (Record::Query { expect: Err(e), .. }, Some(pattern)) => Some((e.span.clone(), pattern)),
        (Record::Query { expect: Ok(r), .. }, None) => {
            let body = results(r, lines)?;
            Some((r.span.clone(), header(text, r.span.start) + &body))
        }
        // A blank line would end the output where it stands, a line break
        // in a line make two, and blanks before the first line are
        // trimmed as the output is read: none reads back, so such an
        // outcome is not written (its runner's rewrite writes it and
        // cannot read its own file). Nor is a `multiline` record's, whose
        // lines after `EOF` lie past the span.
        (
            Record::Simple {
                span,
                multiline: false,
                ..
            },
            _,
        ) => {
            let values: Vec<String> = lines.iter().map(|l| unescape(l)).collect();
            let breaks = |v: &String| v.is_empty() || v.contains(['\n', '\r']);
            let leading = values
                .first()
                .is_some_and(|v| v.starts_with(char::is_whitespace));
            if leading || values.iter().any(breaks) {
                return None;
            }
            Some((span.clone(), header(text, span.start) + &values.join("\n")))
        }
        _ => None,
    }
}

/// What must go before an output written at `at`: a `----` line ends in a
/// line break before its output.
fn header(text: &str, at: usize) -> String {
    let before = &text[..at];
    match () {
        _ if before.ends_with("\n----") => "\n".to_string(),
        _ if before.ends_with("\n----\n") => String::new(),
        _ => "\n----\n".to_string(),
    }
}

/// A query's output as its runner writes it, or `None` for a result it
/// would refuse (a wrong column count, a value it cannot format).
fn results(r: &Results, lines: &[String]) -> Option<String> {
    let (names, values) = match lines.first().and_then(|l| l.strip_prefix(COLUMNS)) {
        Some(names) => (Some(names), &lines[1..]),
        None => (None, lines),
    };
    let values: Vec<String> = values.iter().map(|v| unescape(v)).collect();
    let mut out = String::new();
    if r.columns.is_some() {
        out.push_str(names?);
        out.push('\n');
    }
    if let Output::Hashed { .. } = r.output {
        out.push_str(&format!(
            "{} values hashing to {}\n",
            values.len(),
            hash(&values)
        ));
        return Some(out);
    }
    let width = r.types.len().max(1);
    let newline = |v: &str| match r.multiline {
        true => v.to_string(),
        false => v.replace('\n', "⏎"),
    };
    let rows: Vec<String> = match r.mode {
        Mode::Standard => values.iter().map(|v| newline(v)).collect(),
        Mode::Cockroach => values
            .chunks(width)
            .map(|row| match row {
                [one] => newline(one),
                _ => row
                    .iter()
                    .map(|v| newline(&v.replace(' ', "␠")))
                    .collect::<Vec<_>>()
                    .join("  "),
            })
            .collect(),
    };
    out.push_str(&rows.join("\n"));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::mz::parse::parse;

    fn complete(text: &str, outputs: &[&[&str]]) -> Transcript {
        let mut layout = parse(text).unwrap();
        layout.blocks = (0..layout.records.len()).collect();
        let outputs: Vec<Option<Vec<String>>> = outputs
            .iter()
            .map(|o| Some(o.iter().map(|s| s.to_string()).collect()))
            .collect();
        render(text, &layout, &outputs)
    }

    #[test]
    fn empty_results_are_filled_in_by_mode() {
        let text = "statement ok\nCREATE TABLE t (a int)\n\nquery IT\nSELECT 1\n----\n\n\
                    mode cockroach\n\nquery IT rowsort\nSELECT 1\n----\n";
        let t = complete(
            text,
            &[&["ok"], &["1", "a b", "2", "c"], &["1", "a b", "2", "c"]],
        );
        assert_eq!(
            t.text,
            "statement ok\nCREATE TABLE t (a int)\n\nquery IT\nSELECT 1\n----\n1\na b\n2\nc\n\n\
             mode cockroach\n\nquery IT rowsort\nSELECT 1\n----\n1  a␠b\n2  c\n"
        );
        assert_eq!(t.directive_lines, [0, 3, 13]);
        // Completed, it is its own transcript.
        let again = complete(
            &t.text,
            &[&["ok"], &["1", "a b", "2", "c"], &["1", "a b", "2", "c"]],
        );
        assert_eq!(again.text, t.text);
    }

    #[test]
    fn errors_are_rewritten_and_impossible_forms_refused() {
        let text = "statement error nope\nDROP TABLE t\n\nstatement ok\nDROP TABLE t\n";
        let t = complete(
            text,
            &[
                &["error: unknown catalog item 't' (a.b)"],
                &["error: unknown catalog item 't'"],
            ],
        );
        assert_eq!(
            t.text,
            "statement error unknown catalog item 't' \\(a\\.b\\)\nDROP TABLE t\n\nstatement ok\nDROP TABLE t\n"
        );
        assert_eq!(t.unwritable, [1]);
    }

    #[test]
    fn simple_outputs_that_would_not_read_back_are_not_written() {
        let text = "simple\nSELECT 1\n----\n1\nCOMPLETE 1\n";
        for lines in [
            &["a", "", "COMPLETE 2"][..],
            &["a\\nb", "COMPLETE 1"],
            &["  a", "COMPLETE 1"],
        ] {
            let t = complete(text, &[lines]);
            assert_eq!(t.unwritable, [0], "{lines:?}");
            assert_eq!(t.text, text, "{lines:?}");
        }
        let t = complete(text, &[&["a  b", " c", "COMPLETE 2"]]);
        assert_eq!(t.text, "simple\nSELECT 1\n----\na  b\n c\nCOMPLETE 2\n");
        let multiline = "simple multiline\nSELECT 1\n----\na\n\nb\nEOF\nCOMPLETE 1\n";
        let t = complete(multiline, &[&["a", "COMPLETE 1"]]);
        assert_eq!((t.unwritable, t.text.as_str()), (vec![0], multiline));
    }

    #[test]
    fn a_refusal_is_written_as_any_outcome_that_misses() {
        // A suite file's golden must show every refusal: one kept as
        // written would pass a file the engine never answered.
        let text = "statement ok\nCREATE TABLE t (a numeric)\n\n\
                    statement error (a{x)\nSELECT a FROM t\n";
        let t = complete(
            text,
            &[
                &["error: unsupported: type numeric"],
                &["error: unsupported: type numeric"],
            ],
        );
        assert_eq!(t.unwritable, [0]);
        assert_eq!(
            t.text,
            "statement ok\nCREATE TABLE t (a numeric)\n\n\
             statement error unsupported: type numeric\nSELECT a FROM t\n"
        );
        // An expected error that is not a regex is rewritten when an
        // error comes, so a suite file cannot keep one.
        let t = complete(
            "statement error (a{x)\nSELECT 1/0\n",
            &[&["error: division by zero"]],
        );
        assert_eq!(t.text, "statement error division by zero\nSELECT 1/0\n");
    }
}
