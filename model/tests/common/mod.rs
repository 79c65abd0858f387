//! What the hand-computed tests of the model share: directives sent to a
//! [`Model`] and the claims they must give.

use model::{Expectation, Model};
use runner::format::directive::Command;

pub fn statement(m: &mut Model, sql: &str) -> Expectation {
    m.expect(&Command::Statement { sql: sql.into() })
}

pub fn query(m: &mut Model, sql: &str) -> Expectation {
    m.expect(&Command::Query {
        sql: sql.into(),
        sort: true,
    })
}

pub fn claim(lines: &[&str]) -> Expectation {
    Expectation::Claim(lines.iter().map(|l| l.to_string()).collect())
}

pub fn ok(m: &mut Model, sql: &str) {
    assert_eq!(statement(m, sql), claim(&["ok"]), "{sql}");
}
