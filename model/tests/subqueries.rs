//! The model's subqueries and outer joins against answers computed by
//! hand from docs/semantics.md ("Joins", "Subqueries"): per outer row,
//! with SQL's NULL rules, and no claim where the engine's answer depends
//! on how it plans a subquery (an error inside one, counted per key).

use model::{Expectation, Model};
use runner::format::directive::Command;

fn expect(m: &mut Model, sql: &str) -> Expectation {
    let command = match sql.starts_with("SELECT") {
        true => Command::Query {
            sql: sql.into(),
            sort: true,
        },
        false => Command::Statement { sql: sql.into() },
    };
    m.expect(&command)
}

fn claim(lines: &[&str]) -> Expectation {
    Expectation::Claim(lines.iter().map(|l| l.to_string()).collect())
}

/// t (k, v) and u (k, w), with NULL keys on both sides.
fn tables() -> Model {
    let mut m = Model::new();
    for sql in [
        "CREATE TABLE t (k int, v int)",
        "CREATE TABLE u (k int, w int)",
        "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (NULL, 40)",
        "INSERT INTO u VALUES (1, 100), (2, 200), (2, 201), (4, 400), (NULL, 500)",
    ] {
        assert_eq!(expect(&mut m, sql), claim(&["ok"]), "{sql}");
    }
    m
}

#[test]
fn scalar_subqueries_are_evaluated_per_outer_row() {
    let mut m = tables();
    let cases: &[(&str, &[&str])] = &[
        // Uncorrelated: one value for every row.
        (
            "SELECT k, (SELECT max(w) FROM u) FROM t",
            &["NULL 500", "1 500", "2 500", "3 500"],
        ),
        // Correlated: NULL over no rows, count 0 over none; a NULL key
        // matches no u.k, but is an outer value like any other.
        (
            "SELECT k, (SELECT max(w) FROM u WHERE u.k = t.k) FROM t",
            &["NULL NULL", "1 100", "2 201", "3 NULL"],
        ),
        (
            "SELECT k, (SELECT count(*) FROM u WHERE u.k = t.k) FROM t",
            &["NULL 0", "1 1", "2 2", "3 0"],
        ),
        (
            "SELECT k, (SELECT count(*) FROM u WHERE t.k IS NULL) FROM t",
            &["NULL 5", "1 0", "2 0", "3 0"],
        ),
        // The outer value inside the subquery's select list.
        (
            "SELECT k, (SELECT t.v + u.w FROM u WHERE u.k = t.k - 1 AND u.w < 201) FROM t",
            &["NULL NULL", "1 NULL", "2 120", "3 230"],
        ),
    ];
    for (sql, lines) in cases {
        assert_eq!(expect(&mut m, sql), claim(lines), "{sql}");
    }
}

#[test]
fn exists_in_any_and_all_follow_three_valued_logic() {
    let mut m = tables();
    let cases: &[(&str, &[&str])] = &[
        (
            "SELECT k FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
            &["1", "2"],
        ),
        (
            "SELECT k FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)",
            &["NULL", "3"],
        ),
        // u.k holds a NULL: NOT IN is never true, IN is NULL where false.
        (
            "SELECT k, k IN (SELECT k FROM u), k NOT IN (SELECT k FROM u) FROM t",
            &["NULL NULL NULL", "1 true false", "2 true false", "3 NULL NULL"],
        ),
        (
            "SELECT k, k NOT IN (SELECT k FROM u WHERE k IS NOT NULL) FROM t",
            &["NULL NULL", "1 false", "2 false", "3 true"],
        ),
        // Over no rows ANY is false and ALL is true, even for a NULL.
        (
            "SELECT k, v < ALL (SELECT w FROM u WHERE u.k = t.k), v = ANY (SELECT w FROM u WHERE u.k = t.k) FROM t",
            &["NULL true false", "1 true false", "2 true false", "3 true false"],
        ),
        (
            "SELECT k FROM t WHERE v * 10 >= ALL (SELECT w FROM u WHERE u.k = t.k)",
            &["NULL", "1", "3"],
        ),
    ];
    for (sql, lines) in cases {
        assert_eq!(expect(&mut m, sql), claim(lines), "{sql}");
    }
}

#[test]
fn outer_joins_pad_unmatched_rows_and_using_joins_their_columns_once() {
    let mut m = tables();
    let cases: &[(&str, &[&str])] = &[
        (
            "SELECT t.k, v, w FROM t LEFT JOIN u ON t.k = u.k",
            &[
                "NULL 40 NULL",
                "1 10 100",
                "2 20 200",
                "2 20 201",
                "3 30 NULL",
            ],
        ),
        (
            "SELECT t.k, u.k, w FROM t RIGHT JOIN u ON t.k = u.k",
            &[
                "NULL NULL 500",
                "NULL 4 400",
                "1 1 100",
                "2 2 200",
                "2 2 201",
            ],
        ),
        // FULL ... USING: k is the COALESCE of the two sides' k.
        (
            "SELECT * FROM t FULL JOIN u USING (k)",
            &[
                "NULL NULL 500",
                "NULL 40 NULL",
                "1 10 100",
                "2 20 200",
                "2 20 201",
                "3 30 NULL",
                "4 NULL 400",
            ],
        ),
        // RIGHT ... USING: k is the right side's; t.k is still t's own.
        (
            "SELECT k, t.k FROM t NATURAL RIGHT JOIN u",
            &["NULL NULL", "1 1", "2 2", "2 2", "4 NULL"],
        ),
    ];
    for (sql, lines) in cases {
        assert_eq!(expect(&mut m, sql), claim(lines), "{sql}");
    }
}

#[test]
fn no_claim_where_a_subquery_errs_or_the_engine_refuses() {
    let mut m = tables();
    for sql in [
        // More than one row for k = 2: an error the engine counts per key.
        "SELECT k, (SELECT w FROM u WHERE u.k = t.k) FROM t",
        // An error inside a subquery.
        "SELECT k, (SELECT max(1 / (w - 500)) FROM u) FROM t",
        // An outer join's ON other than equalities of the two sides.
        "SELECT * FROM t LEFT JOIN u ON t.k < u.k",
    ] {
        assert!(
            matches!(expect(&mut m, sql), Expectation::NoClaim(_)),
            "{sql}"
        );
    }
    // A view whose subquery errs: reads of it and error counts are no
    // claims; its subquery's relation refuses its drop.
    let mut m = Model::new();
    for sql in [
        "CREATE TABLE t (k int, v int)",
        "CREATE TABLE u (k int, w int)",
        "CREATE VIEW e AS SELECT k, (SELECT w FROM u WHERE u.k = t.k) AS x FROM t",
        "CREATE INDEX e_k ON e (k)",
        "INSERT INTO t VALUES (1, 10)",
        "INSERT INTO u VALUES (1, 100), (1, 101)",
    ] {
        assert_eq!(expect(&mut m, sql), claim(&["ok"]), "{sql}");
    }
    for sql in [
        "SELECT * FROM e",
        "SELECT export_id, count FROM mz_compute_error_counts",
    ] {
        assert!(
            matches!(expect(&mut m, sql), Expectation::NoClaim(_)),
            "{sql}"
        );
    }
    assert_eq!(
        expect(&mut m, "DROP TABLE u"),
        claim(&[
            "error: cannot drop table \"u\": still depended upon by view \"e\"",
            "HINT: Use DROP ... CASCADE to drop the dependent objects too."
        ])
    );
}
