//! Holding one golden to PostgreSQL: every statement and read the server
//! can answer is replayed in a [`Session`], its answer rendered by the
//! runner's own [`Script::output`] and compared with the golden's claim
//! ([`Script::written`]); a marked directive must differ (else its marker
//! is stale).

use crate::session::{Session, TIMED_OUT};
use postgres::Client;
use runner::format::directive::{Command, Condition, Directive};
use runner::format::Script;

/// The label PostgreSQL goes by in `.slt` conditions (`skipif postgres`).
pub const LABEL: &str = "postgres";

/// How a compared directive came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// PostgreSQL answers what the golden claims (or both are errors).
    Agrees,
    /// PostgreSQL answers otherwise, and nothing says why: a failure.
    Differs,
    /// Marked as legitimately different (the reason), and it is.
    Skipped(String),
    /// Marked as different (the reason), but PostgreSQL agrees: a failure,
    /// so that every marker keeps meaning something.
    Stale(String),
}

impl Verdict {
    pub fn failed(&self) -> bool {
        matches!(self, Verdict::Differs | Verdict::Stale(_))
    }
}

/// One compared directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The directive's 1-based line in the golden.
    pub line: usize,
    /// The SQL PostgreSQL was sent.
    pub sql: String,
    /// The golden's lines, then PostgreSQL's, rendered the runner's way.
    pub golden: Vec<String>,
    pub postgres: Vec<String>,
    pub verdict: Verdict,
}

/// Why PostgreSQL's answer to `directive` may differ, if it is marked:
/// `skip-postgres=<reason>` in `.dd`, `skipif postgres` in `.slt`.
fn marker(directive: &Directive) -> Option<String> {
    let slt = directive
        .conditions
        .iter()
        .any(|c| *c == Condition::SkipIf(LABEL.to_string()));
    match (directive.skip_postgres, slt) {
        (Some(reason), _) => Some(reason.name().to_string()),
        (None, true) => Some("skipif postgres".to_string()),
        (None, false) => None,
    }
}

/// Whether PostgreSQL replays `directive` at all. An `.slt` record for
/// other labels only (`onlyif solo`) is no record of PostgreSQL's, and a
/// `skipif postgres` statement is not run (sqllogictest's meaning), though
/// a `skipif postgres` read is, to find stale markers; reads change nothing.
fn replayed(directive: &Directive) -> bool {
    directive.conditions.iter().all(|c| match c {
        Condition::OnlyIf(label) => label == LABEL,
        Condition::SkipIf(label) => label != LABEL || directive.command.is_read(),
    })
}

/// Whether `golden` and `postgres` (lines of one directive) agree: equal,
/// or both an error, whatever its text (the texts are each system's own).
/// A statement PostgreSQL did not finish ([`TIMED_OUT`]) agrees with none.
pub fn agree(golden: &[String], postgres: &[String]) -> bool {
    let error = |lines: &[String]| lines.first().is_some_and(|l| l.starts_with("error: "));
    !timed_out(postgres) && (golden == postgres || (error(golden) && error(postgres)))
}

/// Whether `postgres` is no answer: the server cancelled the statement.
fn timed_out(postgres: &[String]) -> bool {
    postgres.first().and_then(|l| l.strip_prefix("error: ")) == Some(TIMED_OUT)
}

/// The verdict on one directive from whether the answers agree and its
/// marker. A marked directive PostgreSQL gave no answer to stays marked
/// (its marker is not shown stale); an unmarked one differs, as any
/// statement that runs away fails.
pub fn judge(agrees: bool, marker: Option<String>) -> Verdict {
    match (agrees, marker) {
        (true, None) => Verdict::Agrees,
        (false, None) => Verdict::Differs,
        (true, Some(reason)) => Verdict::Stale(reason),
        (false, Some(reason)) => Verdict::Skipped(reason),
    }
}

/// Replays `script` (a parsed golden) on `client` in a schema of its own
/// and judges every statement and read PostgreSQL can answer, in order.
/// An `Err` is the oracle's own failure (the connection broke).
pub fn check_script(client: &mut Client, script: &Script) -> Result<Vec<Finding>, String> {
    let mut session = Session::start(client)?;
    let mut findings = Vec::new();
    for (i, block) in script.blocks.iter().enumerate() {
        let directive = &block.directive;
        if !replayed(directive) {
            continue;
        }
        let Some(answer) = session.run(&directive.command)? else {
            continue;
        };
        if !compared(&directive.command) {
            continue;
        }
        let golden = script.written(i);
        let postgres = script.output(i, &answer.outcome);
        // In Materialize's dialect a record's expectation is compared as its
        // runner compares it (sorted, hashed); both errors still agree.
        let agrees = match script.meets(i, &postgres) {
            Some(meets) => meets || agree(&golden, &postgres),
            None => agree(&golden, &postgres),
        };
        findings.push(Finding {
            line: directive.line,
            sql: answer.sql,
            verdict: judge(agrees, marker(directive)),
            golden,
            postgres,
        });
    }
    Ok(findings)
}

/// Statements and reads are compared; an issued peek only says `issued`.
fn compared(command: &Command) -> bool {
    matches!(command, Command::Statement { .. }) || command.is_read()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::repr::Datum;
    use engine::Outcome;
    use std::path::Path;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const GOLDEN: &str = "statement\nCREATE TABLE t (a int)\n----\nok\n\n\
        query\nSELECT a FROM t\n----\n1\n3\n\n\
        query skip-postgres=errors-as-data\nSELECT 1/a FROM t\n----\nerror: Evaluation error: division by zero\n";

    #[test]
    fn a_wrong_row_in_a_golden_differs_at_its_line() {
        let script = Script::parse(Path::new("x.dd"), "goldens/x.dd", GOLDEN).unwrap();
        // What PostgreSQL would answer, rendered the runner's way: 1 and 2.
        let rows = Outcome::Rows(vec![vec![Datum::Int32(2)], vec![Datum::Int32(1)]]);
        let postgres = script.output(1, &rows);
        assert_eq!(postgres, lines(&["1", "2"]), "sorted as the runner prints");
        let verdict = judge(
            agree(&script.written(1), &postgres),
            marker(&script.blocks[1].directive),
        );
        assert_eq!(verdict, Verdict::Differs);
        assert_eq!(script.blocks[1].directive.line, 6);
    }

    #[test]
    fn markers_skip_a_difference_and_go_stale_on_agreement() {
        let script = Script::parse(Path::new("x.dd"), "x.dd", GOLDEN).unwrap();
        let marked = marker(&script.blocks[2].directive);
        assert_eq!(marked.as_deref(), Some("errors-as-data"));
        let rows = script.output(2, &Outcome::Rows(vec![vec![Datum::Int32(1)]]));
        assert_eq!(
            judge(agree(&script.written(2), &rows), marked.clone()),
            Verdict::Skipped("errors-as-data".into())
        );
        let error = script.output(2, &Outcome::Error("division by zero".into()));
        assert_eq!(
            judge(agree(&script.written(2), &error), marked),
            Verdict::Stale("errors-as-data".into())
        );
    }

    #[test]
    fn a_statement_postgresql_cancelled_agrees_with_nothing() {
        let none = vec![format!("error: {TIMED_OUT}")];
        let error = lines(&["error: exceeded recursion limit of 512"]);
        assert!(!agree(&error, &none));
        assert!(!agree(&none, &none));
        assert_eq!(
            judge(agree(&error, &none), Some("recursion-limit".into())),
            Verdict::Skipped("recursion-limit".into())
        );
        assert_eq!(judge(agree(&error, &none), None), Verdict::Differs);
    }

    #[test]
    fn errors_agree_whatever_their_text() {
        assert!(agree(&lines(&["error: a"]), &lines(&["error: b", "c"])));
        assert!(!agree(&lines(&["error: a"]), &lines(&["ok"])));
        assert!(!agree(&lines(&["pending: x"]), &lines(&["1"])));
    }

    #[test]
    fn slt_conditions_decide_what_postgres_replays() {
        let text = "onlyif solo\nstatement ok\nINSERT INTO t VALUES (1)\n\n\
            skipif postgres\nstatement ok\nINSERT INTO t VALUES (2)\n\n\
            skipif postgres\nquery I\nSELECT a FROM t\n----\n1\n\n\
            onlyif postgres\nquery I\nSELECT 1\n----\n1\n";
        let script = Script::parse(Path::new("x.slt"), "x.slt", text).unwrap();
        let replays: Vec<bool> = script
            .blocks
            .iter()
            .map(|b| replayed(&b.directive))
            .collect();
        assert_eq!(replays, [false, false, true, true]);
        assert_eq!(
            marker(&script.blocks[2].directive).as_deref(),
            Some("skipif postgres")
        );
    }
}
