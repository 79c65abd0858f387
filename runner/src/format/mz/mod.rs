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
//! `simple` either, by its first word (on a named connection, opened as
//! its user on first use: `Engine::on_connection`), and `reset-server`
//! starts a fresh engine. A record the runner cannot run gets no block and is refused by
//! [`refused`]: `copy` (its file is in Materialize's repository), `simple`
//! with a password, several statements in
//! one record (Materialize sends a record as one prepared statement), a
//! record naming an `mz_` relation (Materialize's catalog; the engine's
//! introspection relations of those names are its own, with other columns
//! and rows) other than the catalog relations the engine has as Materialize
//! does (`ENGINE_CATALOG`), and one with `AS OF` or `UP TO` (the engine's clock counts
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
    Some(match &written.record {
        Record::Statement { sql, .. } => Command::Statement { sql: sql.clone() },
        Record::Query { sql, .. } => query(sql),
        Record::Simple {
            sql,
            conn: Some(name),
            user,
            ..
        } => Command::Connection {
            name: name.clone(),
            // Materialize's runner connects as `materialize` when no user is named.
            user: user.clone().unwrap_or_else(|| "materialize".into()),
            sql: sql.clone(),
            query: reads(sql),
        },
        Record::Simple { sql, .. } => match (reads(sql), words::statements(sql).len() > 1) {
            (true, _) => query(sql),
            (false, true) => Command::Simple { sql: sql.clone() },
            (false, false) => Command::Statement { sql: sql.clone() },
        },
        Record::ResetServer => Command::Reset,
        Record::HashThreshold | Record::Copy { .. } => return None,
    })
}

/// Whether a `simple` record is one statement whose first word makes it
/// a read.
fn reads(sql: &str) -> bool {
    let statements = words::statements(sql);
    if statements.len() > 1 {
        return false;
    }
    let first = statements.first().and_then(|s| s.first());
    let reads = ["select", "values", "with", "table", "show", "explain"];
    first.is_some_and(|t| reads.iter().any(|w| t.is(w)))
}

fn query(sql: &str) -> Command {
    Command::Query {
        sql: sql.to_string(),
        sort: false,
    }
}

/// The `mz_` names a record may hold and still run: Materialize's catalog
/// relations the engine has with Materialize's columns (refusing the ones
/// it does not fill) and rows (refusing a read that could see Materialize's
/// system objects), alone or after `mz_catalog.`. Every other `mz_` name is
/// refused here: the engine's introspection relations of those names are
/// its own.
const ENGINE_CATALOG: [&str; 8] = [
    "mz_databases",
    "mz_indexes",
    "mz_materialized_views",
    "mz_role_members",
    "mz_roles",
    "mz_schemas",
    "mz_tables",
    "mz_views",
];

/// The construct of a record the runner does not run, if it is one that
/// expects something (`hash-threshold` expects nothing).
pub fn refused(written: &Written) -> Option<&'static str> {
    if system(written) {
        return None;
    }
    let sql = match &written.record {
        Record::Copy { .. } => return Some("copy"),
        Record::Simple {
            password: Some(_), ..
        } => return Some("simple with a password"),
        Record::Statement { sql, .. } | Record::Query { sql, .. } | Record::Simple { sql, .. } => {
            sql
        }
        Record::HashThreshold | Record::ResetServer => return None,
    };
    let statements = words::statements(sql);
    // Materialize's runner sends a `statement` or `query` record as one
    // prepared statement, and a `simple` one as one request.
    if statements.len() > 1 && !matches!(written.record, Record::Simple { .. }) {
        return Some("several statements in one record");
    }
    if statements.iter().any(|tokens| refused_catalog_name(tokens)) {
        return Some("Materialize's catalog (mz_ relations)");
    }
    let timed = statements.iter().any(|tokens| {
        tokens
            .windows(2)
            .any(|w| (w[0].is("as") && w[1].is("of")) || (w[0].is("up") && w[1].is("to")))
    });
    timed.then_some("AS OF and UP TO (Materialize's timestamps)")
}

/// Whether `tokens` name an `mz_` relation or schema other than the
/// catalog relations the engine has (`ENGINE_CATALOG`, or `mz_catalog.` and
/// one of them).
fn refused_catalog_name(tokens: &[words::Token]) -> bool {
    let engine_catalog = |t: Option<&words::Token>| matches!(t, Some(words::Token::Word { text, .. }) if ENGINE_CATALOG.contains(&text.as_str()));
    tokens.iter().enumerate().any(|(i, t)| match t {
        words::Token::Word { text, .. } if text.starts_with("mz_") => {
            let qualifies = text == "mz_catalog"
                && tokens.get(i + 1) == Some(&words::Token::Dot)
                && engine_catalog(tokens.get(i + 2));
            !(qualifies || engine_catalog(Some(t)))
        }
        _ => false,
    })
}

/// Whether a record is `ALTER SYSTEM ...` alone, run by the `mz_system`
/// user on its own connection: the engine runs it whatever names it holds.
fn system(written: &Written) -> bool {
    let Record::Simple {
        sql,
        conn: Some(conn),
        user: Some(user),
        ..
    } = &written.record
    else {
        return false;
    };
    let statements = words::statements(sql);
    let alters = match statements.as_slice() {
        [only] => only.len() > 2 && only[0].is("alter") && only[1].is("system"),
        _ => false,
    };
    conn == "mz_system" && user == "mz_system" && alters
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

    /// A `simple` record on a named connection runs there, as its user
    /// (`materialize` when none is named); one of several statements runs
    /// as one request; one with a password, or a `statement` record of
    /// several statements, is refused.
    #[test]
    fn a_named_connection_runs_as_its_user() {
        let record = |head: &str, sql: &str| format!("{head}\n{sql}\n----\nCOMPLETE 0\n\n");
        let text = [
            record(
                "simple conn=mz_system,user=mz_system",
                "ALTER SYSTEM SET unsafe_enable_table_keys = true",
            ),
            record("simple conn=joe,user=joe", "SELECT 1"),
            record("simple conn=c", "CREATE TABLE t (a int)"),
            record("simple conn=c", "SELECT 1; SELECT 2"),
            record("simple", "BEGIN; SELECT 1"),
            "statement ok\nSELECT 1; SELECT 2\n\n".to_string(),
            record("simple conn=p,user=p,password=x", "SELECT 1"),
        ]
        .concat();
        let script = parse_script("t.slt", &text).expect("parses");
        let commands: Vec<&Command> = script.blocks.iter().map(|b| &b.directive.command).collect();
        let on = |name: &str, user: &str, sql: &str, query| Command::Connection {
            name: name.into(),
            user: user.into(),
            sql: sql.into(),
            query,
        };
        assert_eq!(
            commands,
            [
                &on(
                    "mz_system",
                    "mz_system",
                    "ALTER SYSTEM SET unsafe_enable_table_keys = true",
                    false
                ),
                &on("joe", "joe", "SELECT 1", true),
                &on("c", "materialize", "CREATE TABLE t (a int)", false),
                &on("c", "materialize", "SELECT 1; SELECT 2", false),
                &Command::Simple {
                    sql: "BEGIN; SELECT 1".into()
                },
            ]
        );
        let Format::Materialize(layout) = &script.format else {
            panic!("a Materialize script");
        };
        let refusals: Vec<_> = layout.records.iter().map(refused).collect();
        assert_eq!(
            refusals,
            [
                None,
                None,
                None,
                None,
                None,
                Some("several statements in one record"),
                Some("simple with a password"),
            ]
        );
    }
}

#[cfg(test)]
mod catalog_tests {
    use super::*;

    /// A record naming only the catalog relations the engine has, bare or
    /// in `mz_catalog`, runs; one naming any other `mz_` relation or
    /// schema is refused.
    #[test]
    fn only_the_engines_catalog_relations_run() {
        let refused = |sql: &str| refused_catalog_name(&words::tokens(sql));
        assert!(!refused("SELECT name FROM mz_tables WHERE name = 't'"));
        assert!(!refused("SELECT name FROM mz_catalog.mz_indexes"));
        assert!(!refused("SELECT 'mz_objects' FROM \"mz_views\""));
        assert!(refused("SELECT name FROM mz_objects"));
        assert!(!refused("SELECT name FROM mz_catalog.mz_roles"));
        assert!(!refused("SELECT member FROM mz_role_members"));
        assert!(refused("SELECT name FROM mz_catalog.mz_columns"));
        assert!(refused("SET search_path = mz_catalog"));
        assert!(refused(
            "SELECT * FROM mz_tables JOIN mz_internal.mz_comments ON true"
        ));
    }
}
