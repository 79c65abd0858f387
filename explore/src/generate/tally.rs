//! How often a run generated each kind of directive and of statement (and
//! each form of subquery and join inside them, since version 6), so
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

/// The forms of a statement's text counted apart, by name, each where its
/// words appear (a statement may show several): the subqueries and join
/// forms of issue 35, which hide inside a `CREATE VIEW` or a `SELECT`
/// (since version 7 also its scalar functions and floats, since version 8
/// its set operations and window functions).
/// `NOT IN` and `NOT EXISTS` count under `IN` and `EXISTS` too.
const FORMS: &[(&str, &str)] = &[
    ("scalar-subquery", ", (SELECT "),
    ("EXISTS", "EXISTS (SELECT "),
    ("NOT-EXISTS", "NOT EXISTS (SELECT "),
    ("IN-subquery", " IN (SELECT "),
    ("NOT-IN-subquery", " NOT IN (SELECT "),
    ("ANY", " ANY (SELECT "),
    ("ALL", " ALL (SELECT "),
    ("LEFT-JOIN", " LEFT JOIN "),
    ("RIGHT-JOIN", " RIGHT JOIN "),
    ("FULL-JOIN", " FULL JOIN "),
    ("USING", " USING ("),
    ("NATURAL", " NATURAL "),
    ("concat", "CONCAT("),
    ("concat_ws", "CONCAT_WS("),
    ("length", "LENGTH("),
    ("substr", "SUBSTR("),
    ("upper", "UPPER("),
    ("reverse", "REVERSE("),
    ("strpos", "STRPOS("),
    ("replace", "REPLACE("),
    ("left", "LEFT("),
    ("btrim", "BTRIM("),
    ("repeat", "REPEAT("),
    ("abs", "ABS("),
    ("mod", "MOD("),
    ("greatest", "GREATEST("),
    ("least", "LEAST("),
    ("nullif", "NULLIF("),
    ("double-precision", "::FLOAT8"),
    ("real", "::REAL"),
    ("NaN", "'NAN'"),
    ("minus-zero", " * -0"),
    ("char", " CHAR(3)"),
    ("varchar", " VARCHAR(3)"),
    ("UNION", " UNION "),
    ("UNION-ALL", " UNION ALL "),
    ("INTERSECT", " INTERSECT "),
    ("INTERSECT-ALL", " INTERSECT ALL "),
    ("EXCEPT", " EXCEPT "),
    ("EXCEPT-ALL", " EXCEPT ALL "),
    ("row_number", "ROW_NUMBER() OVER"),
    ("rank", " RANK() OVER"),
    ("dense_rank", "DENSE_RANK() OVER"),
    ("lag", "LAG("),
    ("lead", "LEAD("),
    ("first_value", "FIRST_VALUE("),
    ("last_value", "LAST_VALUE("),
];

/// The forms' names, as the tally's line lists them.
static FORM_NAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| FORMS.iter().map(|(name, _)| *name).collect());

/// What it begins with on the tally's line.
const PREFIX: &str = "generated: ";

/// Counts per directive kind, per statement kind and per form, zeros
/// included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    directives: Vec<u64>,
    statements: Vec<u64>,
    forms: Vec<u64>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            directives: vec![0; DIRECTIVES.len()],
            statements: vec![0; STATEMENTS.len()],
            forms: vec![0; FORMS.len()],
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
                Command::Connection { sql, .. } => ("connection", Some(sql)),
                Command::Simple { sql } => ("simple", Some(sql)),
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
                let upper = statement.to_uppercase();
                for (count, (_, words)) in self.forms.iter_mut().zip(FORMS) {
                    *count += upper.matches(words).count() as u64;
                }
            }
        }
    }

    /// Adds another tally's counts (a job's, read back by `parse`).
    pub fn merge(&mut self, other: &Tally) {
        let pairs = self.directives.iter_mut().zip(&other.directives);
        let pairs = pairs.chain(self.statements.iter_mut().zip(&other.statements));
        for (mine, theirs) in pairs.chain(self.forms.iter_mut().zip(&other.forms)) {
            *mine += theirs;
        }
    }

    /// The tally a `generated: ...` line shows, if `line` is one.
    pub fn parse(line: &str) -> Option<Tally> {
        let (directives, rest) = line.strip_prefix(PREFIX)?.split_once("; statements ")?;
        let (statements, forms) = rest.split_once("; forms ")?;
        let directives = directives.strip_prefix("directives ")?;
        Some(Tally {
            directives: counts(directives, &DIRECTIVES)?,
            statements: counts(statements, STATEMENTS)?,
            forms: counts(forms, &FORM_NAMES)?,
        })
    }
}

/// The kind of one statement, by its leading words.
fn statement_kind(statement: &str) -> &'static str {
    // A set operation's read may open with a parenthesized branch.
    let words: Vec<String> = statement
        .trim_start()
        .trim_start_matches('(')
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
    /// `generated: directives statement N, ...; statements CREATE TABLE N,
    /// ...; forms scalar-subquery N, ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |kinds: &[&str], counts: &[u64]| {
            let pairs = kinds.iter().zip(counts);
            let items: Vec<String> = pairs.map(|(k, n)| format!("{k} {n}")).collect();
            items.join(", ")
        };
        write!(
            f,
            "{PREFIX}directives {}; statements {}; forms {}",
            list(&DIRECTIVES, &self.directives),
            list(STATEMENTS, &self.statements),
            list(&FORM_NAMES, &self.forms)
        )
    }
}
