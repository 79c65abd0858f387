//! Row constructors in the planner: where Materialize expands them field
//! by field they plan, with its errors (widths, zero width, a quantified
//! subquery's column count and its name); anywhere they would be compared
//! or kept whole, as a record, they are refused by name, the first refusal
//! found when another error stands too.

use super::*;

#[test]
fn row_comparisons_expand_field_by_field() {
    for sql in [
        "SELECT (a, b) = (1, 'x') FROM t",
        "SELECT ROW(a, b) <> ROW(1, 'x') FROM t",
        "SELECT (a, b, c) <= (1, 'x', true) FROM t",
        "SELECT (a, b) IN ((1, 'x'), (2, 'y')) FROM t",
        "SELECT (a, b) NOT BETWEEN (1, 'x') AND (2, 'y') FROM t",
        "SELECT (t.a, d) IN (SELECT a, d FROM u) FROM t, u",
        "SELECT a FROM t WHERE (a, b) > ALL (SELECT a, 'x'::text FROM u)",
        "SELECT ROW(a) = ANY (SELECT a FROM u) FROM t",
    ] {
        let planned = select(sql);
        assert!(
            planned
                .columns
                .iter()
                .all(|c| c.typ == Bool || c.name == "a"),
            "{sql}"
        );
    }
}

#[test]
fn row_comparison_errors_are_materializes() {
    assert_eq!(
        err("SELECT (1, 2) = (1, 2, 3)"),
        "unequal number of entries in row expressions"
    );
    assert_eq!(
        err("SELECT ROW() < ROW()"),
        "cannot compare rows of zero length"
    );
    assert_eq!(
        err("SELECT (a, b) = (1, 2) FROM t"),
        "operator does not exist: text = integer"
    );
    // The desugarer numbers one binding per field, then the subquery.
    assert_eq!(
        err("SELECT a IN (SELECT a FROM u), (a, b) IN (SELECT a FROM u) FROM t"),
        "subquery4 has 1 columns available but 2 columns specified"
    );
}

#[test]
fn rows_compared_whole_are_refused() {
    for sql in [
        "SELECT (1, 2)",
        "SELECT ROW(1, 2)",
        "SELECT ((a, b)) = (1, 'x') FROM t",
        "SELECT (a, b) = a FROM t",
        "SELECT (a, b) IN ((1, 'x'), a) FROM t",
        "SELECT (a, b) BETWEEN (1, 'x') AND a FROM t",
    ] {
        assert!(err(sql).starts_with("unsupported: "), "{sql}: {}", err(sql));
    }
    // Refused before a missing column is reported.
    assert_eq!(
        err("SELECT nope, (a, b) = a FROM t"),
        "unsupported: expression tuple"
    );
    // Expanded rows hide nothing: the missing column is the error.
    assert_eq!(
        err("SELECT nope, (a, b) = (1, 'x') FROM t"),
        "column \"nope\" does not exist"
    );
}
