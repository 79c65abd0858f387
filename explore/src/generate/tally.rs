//! How often a run generated each kind of directive and of statement, so
//! that a kind the generator never produces shows as a 0 at the end of the
//! run instead of going unseen (until generator version 4 it produced no
//! `DROP TABLE` or `DROP VIEW`, and no scenario dropped a subscribe's
//! input). One line, `generated: ...`, which a `--jobs` parent reads back
//! from each job and sums.

use std::fmt;
use std::path::Path;
use std::sync::LazyLock;

use runner::format::directive::{self, Command};
use runner::format::Script;

use super::scenario::Scenario;

/// The directive kinds: each directive of the format (in the order of
/// [`runner::format::directive::NAMES`], so that a new directive is listed
/// with its count), a `peek` with `name=` (which only issues a named peek)
/// apart.
static DIRECTIVES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let split = |name: &&'static str| match *name {
        "peek" => vec!["peek", "peek name="],
        other => vec![other],
    };
    directive::NAMES.iter().flat_map(split).collect()
});

/// The statement kinds the engine accepts, by their leading words (a
/// `statement` directive's statements, and a `query`'s `SELECT`).
const STATEMENTS: &[&str] = &[
    "CREATE TABLE",
    "CREATE VIEW",
    "CREATE INDEX",
    "CREATE DEFAULT INDEX",
    "INSERT",
    "UPDATE",
    "DELETE",
    "DROP TABLE",
    "DROP VIEW",
    "DROP INDEX",
    "SELECT",
    "other",
];

/// What it begins with on the tally's line.
const PREFIX: &str = "generated: ";

/// Counts per directive kind and per statement kind, zeros included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    directives: Vec<u64>,
    statements: Vec<u64>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            directives: vec![0; DIRECTIVES.len()],
            statements: vec![0; STATEMENTS.len()],
        }
    }
}

impl Tally {
    /// Counts the directives and statements of `scenario`.
    pub fn add(&mut self, scenario: &Scenario) {
        let text = scenario.render(&[]);
        let Ok(script) = Script::parse(Path::new("tally.dd"), "tally.dd", &text) else {
            // The check reports a file that does not parse (a `Parse` failure).
            return;
        };
        for block in &script.blocks {
            let (kind, sql) = match &block.directive.command {
                Command::Statement { sql } => ("statement", Some(sql)),
                Command::System { sql } => ("system", Some(sql)),
                Command::Query { sql, .. } => ("query", Some(sql)),
                Command::Peek { .. } => ("peek", None),
                Command::IssuePeek { .. } => ("peek name=", None),
                Command::Await { .. } => ("await", None),
                Command::Subscribe { .. } => ("subscribe", None),
                Command::Fetch { .. } => ("fetch", None),
                Command::Cancel { .. } => ("cancel", None),
                Command::Hold { .. } => ("hold", None),
                Command::Release { .. } => ("release", None),
                Command::AllowCompaction { .. } => ("allow-compaction", None),
                Command::Tick => ("tick", None),
                Command::Pause { .. } => ("pause", None),
                Command::Resume { .. } => ("resume", None),
                Command::Step { .. } => ("step", None),
                // Materialize's `reset-server`, not a `.dd` directive: a
                // generated scenario, which is one, never holds it.
                Command::Reset => continue,
            };
            bump(&mut self.directives, &DIRECTIVES, kind);
            let statements = sql.into_iter().flat_map(|sql| sql.split(';'));
            for statement in statements.filter(|s| !s.trim().is_empty()) {
                bump(&mut self.statements, STATEMENTS, statement_kind(statement));
            }
        }
    }

    /// Adds another tally's counts (a job's, read back by `parse`).
    pub fn merge(&mut self, other: &Tally) {
        let pairs = self.directives.iter_mut().zip(&other.directives);
        for (mine, theirs) in pairs.chain(self.statements.iter_mut().zip(&other.statements)) {
            *mine += theirs;
        }
    }

    /// The tally a `generated: ...` line shows, if `line` is one.
    pub fn parse(line: &str) -> Option<Tally> {
        let (directives, statements) = line.strip_prefix(PREFIX)?.split_once("; statements ")?;
        let directives = directives.strip_prefix("directives ")?;
        Some(Tally {
            directives: counts(directives, &DIRECTIVES)?,
            statements: counts(statements, STATEMENTS)?,
        })
    }
}

/// The kind of one statement, by its leading words.
fn statement_kind(statement: &str) -> &'static str {
    let words: Vec<String> = statement
        .split_whitespace()
        .take(3)
        .map(str::to_uppercase)
        .collect();
    let leading = words.join(" ");
    let longest = STATEMENTS
        .iter()
        .filter(|kind| leading == **kind || leading.starts_with(&format!("{kind} ")));
    longest
        .max_by_key(|kind| kind.len())
        .copied()
        .unwrap_or("other")
}

fn bump(counts: &mut [u64], kinds: &[&str], kind: &str) {
    let at = kinds
        .iter()
        .position(|k| *k == kind)
        .expect("a listed kind");
    counts[at] += 1;
}

/// The counts of `kinds` in `text` (`kind N, kind N, ...`, in `kinds` order).
fn counts(text: &str, kinds: &[&str]) -> Option<Vec<u64>> {
    let items: Vec<&str> = text.split(", ").collect();
    if items.len() != kinds.len() {
        return None;
    }
    let pairs = items.iter().zip(kinds);
    pairs
        .map(|(item, kind)| item.strip_prefix(kind)?.trim().parse().ok())
        .collect()
}

impl fmt::Display for Tally {
    /// `generated: directives statement N, ...; statements CREATE TABLE N, ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |kinds: &[&str], counts: &[u64]| {
            let pairs = kinds.iter().zip(counts);
            let items: Vec<String> = pairs.map(|(k, n)| format!("{k} {n}")).collect();
            items.join(", ")
        };
        write!(
            f,
            "{PREFIX}directives {}; statements {}",
            list(&DIRECTIVES, &self.directives),
            list(STATEMENTS, &self.statements)
        )
    }
}
