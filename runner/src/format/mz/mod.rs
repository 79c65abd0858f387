//! Materialize's own sqllogictest dialect (`# dialect: materialize` in a
//! file's header, or every file of a foreign corpus): a parser of our own,
//! since the `sqllogictest` crate knows neither its record forms (`simple`,
//! `colnames`, `multiline`, `mode cockroach`, `reset-server`, `copy`,
//! `statement error pgcode ...`) nor its reading of `skipif`, nor its
//! runner's formatting and comparison; each is restated here from
//! Materialize's `parser.rs` and `runner.rs`.
//!
//! Records become [`Block`]s: `statement` runs `Engine::statement`, `query`
//! `Engine::query` (and asks the result's column names for `colnames`),
//! `simple` either, by its first word, and `reset-server` starts a fresh
//! engine. A record the runner cannot run gets no block and is refused by
//! [`refused`]: `copy` (its file is in Materialize's repository), `simple`
//! on a named connection (another user's session; but `ALTER SYSTEM ...` as
//! `mz_system`, which runs `Engine::system`), several statements in
//! one record (Materialize sends a record as one prepared statement), a
//! record naming an `mz_` relation (Materialize's catalog; the engine's
//! introspection relations of those names are its own, with other columns
//! and rows), and one with `AS OF` or `UP TO` (the engine's clock counts
//! its writes; Materialize's is milliseconds since the epoch).
//!
//! `layout` holds the records, `parse` reads them, `value` and `output`
//! print an outcome, `compare` holds it to its record, `transcript` writes
//! the completed file, `words` is the little lexing routing needs.

pub mod compare;
pub mod layout;
pub mod output;
pub mod parse;
pub mod transcript;
pub mod value;
pub mod words;

use crate::format::directive::{Command, Directive, SkipReason};
use crate::format::{Block, Format, Script, ScriptError};
use layout::{Layout, Record, Written};

/// Parses a file of Materialize's dialect (`shown` names it in errors).
pub fn parse_script(shown: &str, text: &str) -> Result<Script, ScriptError> {
    let mut layout = parse::parse(text).map_err(|(line, message)| ScriptError {
        path: shown.to_string(),
        line,
        message,
    })?;
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut blocks = Vec::new();
    for (i, written) in layout.records.iter().enumerate() {
        let skip_postgres = match &written.skip_postgres {
            None => None,
            Some(reason) => Some(SkipReason::parse(reason).ok_or_else(|| ScriptError {
                path: shown.to_string(),
                line: written.line - 1,
                message: format!("`skip-postgres={reason}` names no reason"),
            })?),
        };
        let Some(command) = command(written) else {
            continue;
        };
        layout.blocks.push(i);
        blocks.push(Block {
            directive: Directive {
                line: written.line,
                text: written.head.clone(),
                command,
                configs: None,
                conditions: Vec::new(),
                skip_postgres,
            },
            directive_offset: line_starts.get(written.line - 1).copied().unwrap_or(0),
            output_span: 0..0,
            output: Vec::new(),
        });
    }
    Ok(Script {
        text: text.to_string(),
        blocks,
        format: Format::Materialize(layout),
    })
}

/// What the engine runs for a record; `None` for one it does not run.
fn command(written: &Written) -> Option<Command> {
    if refused(written).is_some() {
        return None;
    }
    if let Some(sql) = system(written) {
        return Some(Command::System {
            sql: sql.to_string(),
        });
    }
    Some(match &written.record {
        Record::Statement { sql, .. } => Command::Statement { sql: sql.clone() },
        Record::Query { sql, .. } => query(sql),
        Record::Simple { sql, .. } => {
            let statements = words::statements(sql);
            let first = statements.first().and_then(|s| s.first());
            let reads = ["select", "values", "with", "table", "show", "explain"];
            match first.is_some_and(|t| reads.iter().any(|w| t.is(w))) {
                true => query(sql),
                false => Command::Statement { sql: sql.clone() },
            }
        }
        Record::ResetServer => Command::Reset,
        Record::HashThreshold | Record::Copy { .. } => return None,
    })
}

fn query(sql: &str) -> Command {
    Command::Query {
        sql: sql.to_string(),
        sort: false,
    }
}

/// The construct of a record the runner does not run, if it is one that
/// expects something (`hash-threshold` expects nothing).
pub fn refused(written: &Written) -> Option<&'static str> {
    if system(written).is_some() {
        return None;
    }
    let sql = match &written.record {
        Record::Copy { .. } => return Some("copy"),
        Record::Simple { conn: Some(_), .. } => return Some("simple on a named connection"),
        Record::Statement { sql, .. } | Record::Query { sql, .. } | Record::Simple { sql, .. } => {
            sql
        }
        Record::HashThreshold | Record::ResetServer => return None,
    };
    let statements = words::statements(sql);
    if statements.len() > 1 {
        return Some("several statements in one record");
    }
    let tokens = statements.first().map_or(&[][..], Vec::as_slice);
    let catalog =
        |t: &words::Token| matches!(t, words::Token::Word { text, .. } if text.starts_with("mz_"));
    if tokens.iter().any(catalog) {
        return Some("Materialize's catalog (mz_ relations)");
    }
    let timed = tokens
        .windows(2)
        .any(|w| (w[0].is("as") && w[1].is("of")) || (w[0].is("up") && w[1].is("to")));
    timed.then_some("AS OF and UP TO (Materialize's timestamps)")
}

/// The SQL of a record that the `mz_system` user runs on its own
/// connection, `ALTER SYSTEM ...` alone: the engine runs it as that user
/// (`Command::System`). Any other record on a named connection is refused.
fn system(written: &Written) -> Option<&str> {
    let Record::Simple {
        sql,
        conn: Some(conn),
        user: Some(user),
        ..
    } = &written.record
    else {
        return None;
    };
    let statements = words::statements(sql);
    let alters = match statements.as_slice() {
        [only] => only.len() > 2 && only[0].is("alter") && only[1].is("system"),
        _ => false,
    };
    (conn == "mz_system" && user == "mz_system" && alters).then_some(sql.as_str())
}

/// The SQL to describe for block `block`'s column names, if its record
/// checks them (`colnames`).
pub fn described(layout: &Layout, block: usize) -> Option<&str> {
    match &layout.record(block).record {
        Record::Query {
            sql,
            expect: Ok(results),
        } if results.columns.is_some() => Some(sql),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only `ALTER SYSTEM` alone, as `mz_system` on its own connection,
    /// runs; every other record on a named connection is refused.
    #[test]
    fn only_alter_system_runs_on_the_system_connection() {
        let record = |conn: &str, sql: &str| {
            format!("simple conn={conn},user={conn}\n{sql}\n----\nCOMPLETE 0\n\n")
        };
        let text = [
            record(
                "mz_system",
                "ALTER SYSTEM SET unsafe_enable_table_keys = true",
            ),
            record("mz_system", "SELECT 1"),
            record(
                "mz_system",
                "ALTER SYSTEM SET a = 1; ALTER SYSTEM SET b = 2",
            ),
            record("other", "ALTER SYSTEM SET unsafe_enable_table_keys = true"),
        ]
        .concat();
        let script = parse_script("t.slt", &text).expect("parses");
        let commands: Vec<&Command> = script.blocks.iter().map(|b| &b.directive.command).collect();
        let sql = "ALTER SYSTEM SET unsafe_enable_table_keys = true".to_string();
        assert_eq!(commands, [&Command::System { sql }]);
        let Format::Materialize(layout) = &script.format else {
            panic!("a Materialize script");
        };
        let refusals: Vec<_> = layout.records.iter().map(refused).collect();
        assert_eq!(
            refusals,
            [
                None,
                Some("simple on a named connection"),
                Some("simple on a named connection"),
                Some("simple on a named connection"),
            ]
        );
    }
}
