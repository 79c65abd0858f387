//! The model's set operations and window functions against answers
//! computed by hand: the multiplicities of each set operator, integers of
//! two widths unified, and the claims it does not make (a column whose
//! type one branch leaves unknown; a `row_number` over peers that differ).

use model::{Expectation, Model};

mod common;
use common::{claim, ok, query};

fn no_claim(e: Expectation) -> bool {
    matches!(e, Expectation::NoClaim(_))
}

fn tables(m: &mut Model) {
    ok(m, "CREATE TABLE a (k int, v int)");
    ok(m, "CREATE TABLE b (k int, v int)");
    ok(
        m,
        "INSERT INTO a VALUES (1, 1), (1, 1), (1, 1), (2, NULL), (3, 3)",
    );
    ok(
        m,
        "INSERT INTO b VALUES (1, 1), (2, NULL), (2, NULL), (4, 4)",
    );
}

#[test]
fn each_set_operator_counts_as_sql_says() {
    let mut m = Model::new();
    tables(&mut m);
    let q = |m: &mut Model, op: &str| query(m, &format!("SELECT * FROM a {op} SELECT * FROM b"));
    let all = [
        "1 1", "1 1", "1 1", "1 1", "2 NULL", "2 NULL", "2 NULL", "3 3", "4 4",
    ];
    assert_eq!(q(&mut m, "UNION ALL"), claim(&all));
    assert_eq!(q(&mut m, "UNION"), claim(&["1 1", "2 NULL", "3 3", "4 4"]));
    assert_eq!(q(&mut m, "EXCEPT ALL"), claim(&["1 1", "1 1", "3 3"]));
    assert_eq!(q(&mut m, "EXCEPT"), claim(&["3 3"]));
    assert_eq!(q(&mut m, "INTERSECT ALL"), claim(&["1 1", "2 NULL"]));
    assert_eq!(q(&mut m, "INTERSECT"), claim(&["1 1", "2 NULL"]));
    // Nested: (a EXCEPT ALL b) INTERSECT ALL a keeps a's surplus.
    let nested = "(SELECT * FROM a EXCEPT ALL SELECT * FROM b) INTERSECT ALL SELECT * FROM a";
    assert_eq!(query(&mut m, nested), claim(&["1 1", "1 1", "3 3"]));
}

#[test]
fn a_view_of_a_set_operation_is_read_with_its_multiplicities() {
    let mut m = Model::new();
    tables(&mut m);
    ok(&mut m, "CREATE VIEW e AS SELECT k, v::bigint AS x FROM a EXCEPT ALL SELECT k, count(*) FROM b GROUP BY k");
    ok(&mut m, "CREATE INDEX e_k ON e (k)");
    // b's counts: (1, 1), (2, 2), (4, 1); a's (1, 1) three times less one.
    let rows = ["1 1", "1 1", "2 NULL", "3 3"];
    assert_eq!(query(&mut m, "SELECT * FROM e"), claim(&rows));
    assert_eq!(
        query(&mut m, "SELECT k, count(*) FROM e GROUP BY k"),
        claim(&["1 2", "2 1", "3 1"])
    );
}

#[test]
fn a_column_one_branch_leaves_untyped_is_no_claim() {
    let mut m = Model::new();
    tables(&mut m);
    ok(&mut m, "CREATE TABLE c (k int, t text)");
    // c is empty and `k + 1` has no type the model knows: the engine might
    // refuse the pair of types, the model cannot tell.
    let sql = "SELECT k, v FROM a UNION ALL SELECT k + 1, length(t) FROM c";
    assert!(no_claim(query(&mut m, sql)));
    // Integers of two widths unify to the wider.
    let sql = "SELECT k, v FROM b EXCEPT SELECT k, count(*) FROM a GROUP BY k";
    assert_eq!(query(&mut m, sql), claim(&["1 1", "2 NULL", "4 4"]));
}

#[test]
fn ranks_are_claimed_over_peers_and_row_numbers_only_without_them() {
    let mut m = Model::new();
    ok(&mut m, "CREATE TABLE t (g int, v int)");
    ok(
        &mut m,
        "INSERT INTO t VALUES (1, 5), (1, 5), (1, 7), (2, NULL), (2, 3), (2, 9)",
    );
    let sql = "SELECT g, v, rank() OVER (PARTITION BY g ORDER BY v), dense_rank() OVER (PARTITION BY g ORDER BY v DESC) FROM t";
    let rows = [
        "1 5 1 2",
        "1 5 1 2",
        "1 7 3 1",
        "2 NULL 3 1",
        "2 3 1 3",
        "2 9 2 2",
    ];
    assert_eq!(query(&mut m, sql), claim(&rows));
    // Peers that are the same row: numbered either way alike.
    let sql = "SELECT g, v, row_number() OVER (PARTITION BY g ORDER BY v) FROM t";
    let rows = ["1 5 1", "1 5 2", "1 7 3", "2 NULL 3", "2 3 1", "2 9 2"];
    assert_eq!(query(&mut m, sql), claim(&rows));
    let sql = "SELECT g, v, lag(v) OVER (PARTITION BY g ORDER BY v) FROM t";
    let rows = [
        "1 5 NULL", "1 5 5", "1 7 5", "2 NULL 9", "2 3 NULL", "2 9 3",
    ];
    assert_eq!(query(&mut m, sql), claim(&rows));
    // DESC puts NULL first: NULL, 9, 7, 5, 5, 3.
    let sql = "SELECT g, v, lead(v, 2) OVER (ORDER BY v DESC) FROM t";
    let rows = [
        "1 5 NULL", "1 5 3", "1 7 5", "2 NULL 7", "2 3 NULL", "2 9 5",
    ];
    assert_eq!(query(&mut m, sql), claim(&rows));
    // Two calls numbering the copies of (1, 5) may pair their values
    // either way: no claim.
    let sql = "SELECT g, v, lag(v) OVER (PARTITION BY g ORDER BY v), lead(v, 2) OVER (ORDER BY v DESC) FROM t";
    assert!(no_claim(query(&mut m, sql)));
    // Peers that differ (partitioned by v, ordered by g): no claim.
    let sql = "SELECT g, v, row_number() OVER (ORDER BY g) FROM t";
    assert!(no_claim(query(&mut m, sql)));
    let sql = "SELECT g, first_value(v) OVER (PARTITION BY g ORDER BY g) FROM t";
    assert!(no_claim(query(&mut m, sql)));
    // rank over those peers is defined.
    let sql = "SELECT g, rank() OVER (ORDER BY g) FROM t";
    let rows = ["1 1", "1 1", "1 1", "2 4", "2 4", "2 4"];
    assert_eq!(query(&mut m, sql), claim(&rows));
}
