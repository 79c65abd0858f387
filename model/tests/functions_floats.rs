//! The model's scalar functions, floats and char/varchar against answers
//! computed by hand from docs/semantics.md's "Scalar functions", "Floats"
//! and "char and varchar" (and Materialize's float functions), directive by
//! directive: each claim, and each place it must make none.

use model::{Expectation, Model};
use runner::format::directive::Command;

mod common;
use common::{claim, ok, query};

fn no_claim(e: Expectation) -> bool {
    matches!(e, Expectation::NoClaim(_))
}

fn table() -> Model {
    let mut m = Model::new();
    ok(&mut m, "CREATE TABLE t (k int, v int, s text)");
    ok(
        &mut m,
        "INSERT INTO t VALUES (0, NULL, 'ab'), (1, 2, NULL), (2, -3, 'hello')",
    );
    m
}

#[test]
fn concat_skips_nulls_and_strict_functions_stop_at_one() {
    let mut m = table();
    assert_eq!(
        query(
            &mut m,
            "SELECT k, concat(v, '-', s), concat_ws('/', k, v, s) FROM t"
        ),
        claim(&["0 -ab 0/ab", "1 2- 1/2", "2 -3-hello 2/-3/hello"])
    );
    // A NULL argument is the result, and the one after it is not evaluated
    // (its division by zero neither).
    assert_eq!(
        query(
            &mut m,
            "SELECT k, substr(s, 1 / k) FROM t WHERE s IS NULL OR k > 0"
        ),
        claim(&["1 NULL", "2 hello"])
    );
    assert_eq!(
        query(
            &mut m,
            "SELECT k, length(s), upper(s), reverse(s), strpos(s, 'l') FROM t"
        ),
        claim(&["0 2 AB ba 0", "1 NULL NULL NULL NULL", "2 5 HELLO olleh 3"])
    );
    // An error in the argument evaluated first is the result.
    assert_eq!(
        query(&mut m, "SELECT substr(s, 1 / k) FROM t WHERE k = 0"),
        claim(&["error: Evaluation error: division by zero"])
    );
}

#[test]
fn string_functions_count_characters_as_the_rules_say() {
    let mut m = table();
    let sql = "SELECT substr('hello', -3, 5), left('hello', -2), right('hello', -2), \
               repeat('ab', k), replace('abc', '', '-'), btrim('xxaxx', 'x') FROM t WHERE k = 2";
    assert_eq!(query(&mut m, sql), claim(&["h hel llo abab -a-b-c- a"]));
    assert_eq!(
        query(&mut m, "SELECT substr(s, 1, v) FROM t WHERE k = 2"),
        claim(&["error: Evaluation error: negative substring length not allowed"])
    );
    assert_eq!(
        query(
            &mut m,
            "SELECT greatest(k, v), least(k, v), nullif(k, 1), abs(v), mod(v, 2) FROM t"
        ),
        claim(&["0 0 0 NULL NULL", "2 -3 2 3 -1", "2 1 NULL 2 0"])
    );
    // The least integer: abs fails, `% -1` is 0.
    assert_eq!(
        query(&mut m, "SELECT abs(-2147483647 - 1)"),
        claim(&["error: \"-2147483648\" integer out of range"])
    );
    assert_eq!(
        query(&mut m, "SELECT mod(-2147483647 - 1, -1)"),
        claim(&["0"])
    );
    // Overloads the model does not resolve: no claim.
    assert!(no_claim(query(&mut m, "SELECT abs(NULL)")));
    assert!(no_claim(query(&mut m, "SELECT length(k) FROM t")));
    assert!(no_claim(query(&mut m, "SELECT length(s::float8) FROM t")));
}

#[test]
fn float_arithmetic_fails_as_materializes_does() {
    let mut m = table();
    assert_eq!(
        query(
            &mut m,
            "SELECT k, v::float8 / 2, v::real * 0.1, k::float8 * -0 FROM t"
        ),
        claim(&["0 NULL NULL -0", "1 1 0.2 -0", "2 -1.5 -0.3 -0"])
    );
    // A read of constants reports its error without `Evaluation error: `.
    let overflow = "error: value out of range: overflow";
    assert_eq!(
        query(&mut m, "SELECT 2::float8 * '1e308'::float8"),
        claim(&[overflow])
    );
    // A numeric literal past what a `numeric` holds: refused by the engine.
    assert!(no_claim(query(&mut m, "SELECT 2::float8 * 1e308")));
    assert_eq!(
        query(&mut m, "SELECT '1e-300'::float8 * '1e-300'::float8"),
        claim(&["error: value out of range: underflow"])
    );
    assert_eq!(
        query(&mut m, "SELECT k::float8 / 0 FROM t WHERE k = 1"),
        claim(&["error: Evaluation error: division by zero"])
    );
    assert_eq!(
        query(
            &mut m,
            "SELECT 'NaN'::float8 / 0, 'Infinity'::float8 - 'Infinity'::float8, 0.1::real + 1"
        ),
        claim(&["NaN NaN 1.1"])
    );
    // Rounded half to even on the way back to an integer.
    assert_eq!(
        query(&mut m, "SELECT k, CAST(v::float8 * 1.5 AS int) FROM t"),
        claim(&["0 NULL", "1 3", "2 -4"])
    );
    assert_eq!(
        query(&mut m, "SELECT 'NaN'::float8::bigint"),
        claim(&["error: \"NaN\" bigint out of range"])
    );
}

#[test]
fn nan_is_above_every_number_and_minus_zero_equals_zero() {
    let mut m = Model::new();
    ok(&mut m, "CREATE TABLE f (k int, x double precision)");
    ok(
        &mut m,
        "INSERT INTO f VALUES (1, 'NaN'), (2, '-0'), (3, 0), (4, 'Infinity'), (5, -1.5)",
    );
    assert_eq!(
        query(&mut m, "SELECT k FROM f WHERE x < 'NaN'::float8"),
        claim(&["2", "3", "4", "5"])
    );
    assert_eq!(
        query(&mut m, "SELECT k FROM f WHERE x = 0::float8"),
        claim(&["2", "3"])
    );
    assert_eq!(
        query(&mut m, "SELECT min(x), max(x) FROM f WHERE k > 1"),
        claim(&["-1.5 Infinity"])
    );
    assert_eq!(query(&mut m, "SELECT max(x) FROM f"), claim(&["NaN"]));
    // `-0` and `0` are two groups, and min takes `-0`.
    assert_eq!(
        query(
            &mut m,
            "SELECT x, count(*) FROM f WHERE k IN (2, 3) GROUP BY x"
        ),
        claim(&["-0 1", "0 1"])
    );
    assert_eq!(
        query(&mut m, "SELECT min(x) FROM f WHERE k IN (2, 3)"),
        claim(&["-0"])
    );
    // A join of -0 and 0 (keys compared as bits in Materialize): no claim.
    assert!(no_claim(query(
        &mut m,
        "SELECT a.k, b.k FROM f a JOIN f b ON a.x = b.x"
    )));
}

#[test]
fn chars_are_shown_padded_and_compared_without_their_trailing_blanks() {
    let mut m = Model::new();
    ok(
        &mut m,
        "CREATE TABLE t (k int, c char(3), v varchar(3), x text)",
    );
    ok(
        &mut m,
        "INSERT INTO t VALUES (1, 'a', 'a ', 'a '), (2, '', '', '')",
    );
    assert_eq!(
        query(&mut m, "SELECT k, c, v, x FROM t"),
        claim(&["1 a   a  a ", "2      "])
    );
    // char beside varchar or a literal: as chars, both trimmed; beside a
    // text: its kept value against the text as is; varchar beside text:
    // as texts.
    assert_eq!(
        query(
            &mut m,
            "SELECT k, c = v, c = x, v = x, c = 'a  ', v = 'a' FROM t"
        ),
        claim(&[
            "1 true false true true false",
            "2 true true true false false"
        ])
    );
    // Through a view and a join, a char column stays one.
    ok(&mut m, "CREATE VIEW w AS SELECT k, c FROM t");
    assert_eq!(
        query(&mut m, "SELECT a.k, b.k FROM w a JOIN t b ON a.c = b.v"),
        claim(&["1 1", "2 2"])
    );
    // Too long: an error, unless all it cuts is blanks.
    let long = m.expect(&Command::Statement {
        sql: "INSERT INTO t VALUES (3, 'abcd', NULL, NULL)".into(),
    });
    assert_eq!(
        long,
        claim(&["error: value too long for type character(3)"])
    );
    ok(&mut m, "INSERT INTO t VALUES (3, 'ab   ', 'xy   ', NULL)");
    assert_eq!(
        query(
            &mut m,
            "SELECT c, v, max(c) FROM t WHERE k = 3 GROUP BY c, v"
        ),
        claim(&["ab  xy  ab "])
    );
    // A call over a char, which the engine refuses: no claim.
    assert!(no_claim(query(&mut m, "SELECT length(c) FROM t")));
}
