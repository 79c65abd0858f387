//! One file's replay on a PostgreSQL connection: a schema of its own, each
//! directive turned into what the server runs, and the server's answer as
//! an engine [`Outcome`], so the runner renders it exactly as it renders
//! the engine's. The schema (and any scratch schema of an `AS OF` read) is
//! dropped when the session ends.

use crate::timeline::{Read, Timeline};
use crate::translate::{statements, Statement};
use crate::watch::on_server;
use engine::repr::{array, interval, jsonb, range, time, Datum, Numeric};
use engine::Outcome;
use postgres::error::SqlState;
use postgres::types::Type;
use postgres::{Client, SimpleQueryMessage};
use runner::format::directive::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Schemas made by this process so far, for unique names.
static SCHEMAS: AtomicUsize = AtomicUsize::new(0);

/// Runs `sql` (several statements or none) on the server, as in flight.
fn batch(client: &mut Client, sql: &str) -> Result<(), postgres::Error> {
    on_server(sql, || client.batch_execute(sql))
}

/// What the server answered a directive, and the SQL that asked.
pub struct Answer {
    /// The SQL sent (a peek's `SELECT *`, a read without `AS OF`).
    pub sql: String,
    pub outcome: Outcome,
}

/// A file being replayed.
pub struct Session<'c> {
    client: &'c mut Client,
    schema: String,
    timeline: Timeline,
}

impl<'c> Session<'c> {
    /// Creates the file's schema and puts it first on the search path.
    pub fn start(client: &'c mut Client) -> Result<Session<'c>, String> {
        let schema = fresh_schema("oracle");
        enter(client, &schema)?;
        Ok(Session {
            client,
            schema,
            timeline: Timeline::default(),
        })
    }

    /// Runs `command`; `None` for a directive PostgreSQL has no counterpart
    /// of (holds, compaction, pausing, stepping), which only `tick` affects.
    /// An `Err` is the oracle's own failure (the connection broke).
    pub fn run(&mut self, command: &Command) -> Result<Option<Answer>, String> {
        let answer = match command {
            Command::Statement { sql } => Answer {
                sql: sql.clone(),
                outcome: self.statements(sql)?,
            },
            Command::IssuePeek { name, .. } => {
                let read = self.timeline.read(command).expect("a peek is a read");
                let sql = read.as_ref().map_or_else(|e| e.clone(), |r| r.sql.clone());
                let outcome = match read {
                    Ok(read) => {
                        self.timeline.issue(name, read);
                        Outcome::Issued
                    }
                    Err(e) => Outcome::Error(e),
                };
                Answer { sql, outcome }
            }
            Command::Tick => {
                self.timeline.tick();
                return Ok(None);
            }
            // Materialize's `reset-server`: what follows starts afresh.
            Command::Reset => {
                leave(self.client, &self.schema)?;
                self.schema = fresh_schema("oracle");
                enter(self.client, &self.schema)?;
                self.timeline = Timeline::default();
                return Ok(None);
            }
            _ => match self.timeline.read(command) {
                None => return Ok(None),
                Some(Err(e)) => Answer {
                    sql: String::new(),
                    outcome: Outcome::Error(e),
                },
                Some(Ok(read)) => Answer {
                    outcome: self.read(&read)?,
                    sql: read.sql,
                },
            },
        };
        Ok(Some(answer))
    }

    /// A directive's statements in order, stopping at the first error (the
    /// ones before it stay applied, as in the engine's autocommit session).
    fn statements(&mut self, sql: &str) -> Result<Outcome, String> {
        let statements = match statements(sql) {
            Ok(s) => s,
            Err(e) => return Ok(Outcome::Error(e)),
        };
        for statement in statements {
            let result = match &statement {
                Statement::Write(sql) => {
                    execute(self.client, sql)?.map(|()| self.timeline.wrote(sql))
                }
                Statement::Other(sql) => {
                    execute(self.client, sql)?.map(|()| self.timeline.defined(sql))
                }
                Statement::CreateIndex {
                    name,
                    base,
                    relation,
                    columns,
                } => {
                    let columns = match columns.is_empty() {
                        true => "*".to_string(),
                        false => columns.join(", "),
                    };
                    let check = format!("SELECT {columns} FROM {relation} LIMIT 0");
                    execute(self.client, &check)?
                        .and_then(|()| self.timeline.create_index(name.as_deref(), base, relation))
                        .map(drop)
                }
                Statement::DropIndex(name) => self.timeline.drop_index(name),
                Statement::Database(sql) => Err(format!("not run by the oracle: {sql}")),
            };
            if let Err(message) = result {
                return Ok(Outcome::Error(message));
            }
        }
        Ok(Outcome::Ok)
    }

    /// Answers `read` from the state at its time: the current one, or one
    /// rebuilt in a scratch schema from the DDL and the writes up to then.
    fn read(&mut self, read: &Read) -> Result<Outcome, String> {
        let Some(rebuild) = self.timeline.rebuild(read.at) else {
            return query(self.client, &read.sql);
        };
        let scratch = fresh_schema(&self.schema);
        enter(self.client, &scratch)?;
        let mut outcome = Ok(Outcome::Ok);
        for sql in rebuild {
            if let Err(e) = execute(self.client, sql)? {
                outcome = Err(format!(
                    "rebuilding the state at {}: `{sql}` failed: {e}",
                    read.at
                ));
                break;
            }
        }
        if outcome.is_ok() {
            outcome = query(self.client, &read.sql);
        }
        leave(self.client, &scratch)?;
        enter_existing(self.client, &self.schema)?;
        outcome
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // A file's transaction (a `BEGIN` left open, or aborted by an
        // error) and its `SET`s end with it, so the next file on this
        // connection starts as the first did: `RESET ALL` returns each
        // setting to the connection's own (`statement_timeout`). Best
        // effort: a broken connection has already lost the schema's
        // session, and the next run's names differ anyway.
        let _ = batch(self.client, "ROLLBACK");
        let _ = batch(self.client, "RESET ALL");
        let _ = leave(self.client, &self.schema);
    }
}

/// A schema name no other session of this process, nor (by the pid) of
/// another process on the same server, uses.
fn fresh_schema(prefix: &str) -> String {
    let n = SCHEMAS.fetch_add(1, Ordering::Relaxed);
    match prefix {
        "oracle" => format!("oracle_{}_{n}", std::process::id()),
        parent => format!("{parent}_{n}"),
    }
}

fn enter(client: &mut Client, schema: &str) -> Result<(), String> {
    batch(client, &format!("CREATE SCHEMA {schema}"))
        .map_err(|e| format!("cannot create schema {schema}: {e}"))?;
    enter_existing(client, schema)
}

fn enter_existing(client: &mut Client, schema: &str) -> Result<(), String> {
    batch(client, &format!("SET search_path TO {schema}"))
        .map_err(|e| format!("cannot use schema {schema}: {e}"))
}

fn leave(client: &mut Client, schema: &str) -> Result<(), String> {
    batch(client, &format!("DROP SCHEMA {schema} CASCADE"))
        .map_err(|e| format!("cannot drop schema {schema}: {e}"))
}

/// Runs one statement: `Ok(Err(message))` is the server refusing it,
/// `Err` a failure of the connection itself.
fn execute(client: &mut Client, sql: &str) -> Result<Result<(), String>, String> {
    match batch(client, sql) {
        Ok(()) => Ok(Ok(())),
        Err(e) => refused(e).map(Err),
    }
}

/// What stands for PostgreSQL's answer when `statement_timeout` cancelled
/// the statement: no answer, which [`crate::check`] never takes for an
/// error that agrees (a 600-way join once timed out on a loaded machine
/// and "agreed" with the engine's recursion-limit error).
pub const TIMED_OUT: &str = "PostgreSQL gave no answer: the statement ran past statement_timeout";

/// The server's message of a statement it refused ([`TIMED_OUT`] for one
/// it cancelled), or the connection's failure as the oracle's own error.
fn refused(error: postgres::Error) -> Result<String, String> {
    match error.as_db_error() {
        Some(db) if *db.code() == SqlState::QUERY_CANCELED => Ok(TIMED_OUT.to_string()),
        Some(db) => Ok(db.message().to_string()),
        None => Err(format!("PostgreSQL connection: {error}")),
    }
}

/// A query's rows as engine datums. The statement is prepared to learn its
/// column types, then run with the simple protocol, whose text values
/// convert to datums without a decoder per type.
fn query(client: &mut Client, sql: &str) -> Result<Outcome, String> {
    let types: Vec<Type> = match on_server(sql, || client.prepare(sql)) {
        Ok(statement) => statement
            .columns()
            .iter()
            .map(|c| c.type_().clone())
            .collect(),
        Err(e) => return refused(e).map(Outcome::Error),
    };
    let messages = match on_server(sql, || client.simple_query(sql)) {
        Ok(messages) => messages,
        Err(e) => return refused(e).map(Outcome::Error),
    };
    let rows = messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some(
                (0..row.len())
                    .map(|i| datum(types.get(i), row.get(i)))
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    Ok(Outcome::Rows(rows))
}

/// One value, from its text form and its column's type: integers (by
/// width) and booleans as the engine's, integral `numeric`s (PostgreSQL's
/// `sum` of a `bigint`) as integers, anything else as text. A fractional
/// `numeric` keeps PostgreSQL's text, display scale and all, which the
/// engine's (the real system's) never has: the difference the directives
/// marked `skip-postgres=mz-numeric` name.
pub fn datum(typ: Option<&Type>, text: Option<&str>) -> Datum {
    let Some(text) = text else {
        return Datum::Null;
    };
    let converted = match typ {
        Some(&Type::BOOL) => Some(Datum::Bool(text == "t")),
        Some(&Type::INT2) => text.parse::<i16>().ok().map(Datum::Int16),
        Some(&Type::INT4) => text.parse::<i32>().ok().map(Datum::Int32),
        Some(&Type::INT8) => text.parse::<i64>().ok().map(Datum::Int64),
        // An integral numeric (a `sum` of bigints) is a bigint in the engine.
        Some(&Type::NUMERIC) => text.parse::<i64>().ok().map(Datum::Int64),
        // PostgreSQL's ISO text of a date or timestamp reads back as the
        // engine's value, so that rows sort as the engine's do (a BC date
        // among them too).
        Some(&Type::DATE) => time::parse_date(text).ok().map(Datum::Date),
        Some(&Type::TIMESTAMP) => time::parse_timestamp(text).ok().map(Datum::Timestamp),
        // In the session time zone, UTC: `2020-01-01 00:00:00+00`.
        Some(&Type::TIMESTAMPTZ) => time::parse_timestamptz(text).ok().map(Datum::TimestampTz),
        // PostgreSQL's text of a time (`01:02:03.04`) is the real system's.
        Some(&Type::TIME) => time::parse_time(text).ok().map(Datum::Time),
        // PostgreSQL's text of a bytea (`\x00ff`, its default hex output)
        // is the real system's.
        Some(&Type::BYTEA) => engine::repr::bytes::parse(text).ok().map(Datum::Bytes),
        // PostgreSQL's text of an interval (`1 year 2 mons -3 days
        // +04:05:06`) is one of the forms the engine reads: it reads back
        // as the engine's value, shown as the real system shows it.
        Some(&Type::INTERVAL) => interval::parse_interval(text).ok().map(Datum::Interval),
        // PostgreSQL's text of a jsonb (`{"a": 1}`, spaces after the
        // separators) reads back as the engine's value, shown compact as
        // the real system shows it.
        Some(&Type::JSONB) => jsonb::parse(text).ok().map(|j| Datum::Jsonb(Box::new(j))),
        // PostgreSQL's text of an array of the types read back here
        // (`{1,NULL}`, `{"a b",c}`) is the real system's too: it reads
        // back as the engine's array, so that rows sort as the engine's.
        Some(t) if array_of(t).is_some() => {
            let element = array_of(t).expect("an array type");
            let read = array::parse(text, |e| element(e).ok_or_else(String::new));
            read.ok().map(|a| Datum::Array(Box::new(a)))
        }
        Some(t) => range_of(t).and_then(|element| {
            // PostgreSQL quotes a bound with a space (a timestamp's), which
            // the real system's reader takes no quotes around: unquoted, it
            // reads back as the engine's range.
            let unquoted = text.replace('"', "");
            let read = range::parse(&unquoted, |bound| element(bound).ok_or_else(String::new));
            read.ok().map(|r| Datum::Range(Box::new(r)))
        }),
        None => None,
    };
    converted.unwrap_or_else(|| Datum::Text(text.to_string()))
}

/// How an element of an array type's text reads back (`None`: not an
/// array type read back here).
fn array_of(t: &Type) -> Option<fn(&str) -> Option<Datum>> {
    Some(match *t {
        Type::BOOL_ARRAY => |e| Some(Datum::Bool(e == "t")),
        Type::INT2_ARRAY => |e| e.parse().ok().map(Datum::Int16),
        Type::INT4_ARRAY => |e| e.parse().ok().map(Datum::Int32),
        Type::INT8_ARRAY => |e| e.parse().ok().map(Datum::Int64),
        Type::TEXT_ARRAY => |e| Some(Datum::Text(e.to_string())),
        _ => return None,
    })
}

/// How a bound of a range type's text reads back (`None`: not a range
/// type the engine has).
fn range_of(t: &Type) -> Option<fn(&str) -> Option<Datum>> {
    Some(match *t {
        Type::INT4_RANGE => |b| b.parse().ok().map(Datum::Int32),
        Type::INT8_RANGE => |b| b.parse().ok().map(Datum::Int64),
        Type::NUM_RANGE => |b| Numeric::parse(b).map(Datum::Numeric),
        Type::DATE_RANGE => |b| time::parse_date(b).ok().map(Datum::Date),
        Type::TS_RANGE => |b| time::parse_timestamp(b).ok().map(Datum::Timestamp),
        Type::TSTZ_RANGE => |b| time::parse_timestamptz(b).ok().map(Datum::TimestampTz),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_convert_by_column_type() {
        assert_eq!(datum(Some(&Type::INT4), Some("-3")), Datum::Int32(-3));
        assert_eq!(datum(Some(&Type::INT2), Some("-3")), Datum::Int16(-3));
        assert_eq!(datum(Some(&Type::NUMERIC), Some("12")), Datum::Int64(12));
        assert_eq!(
            datum(Some(&Type::NUMERIC), Some("2.5000")),
            Datum::Text("2.5000".into())
        );
        assert_eq!(datum(Some(&Type::BOOL), Some("f")), Datum::Bool(false));
        assert_eq!(datum(Some(&Type::TEXT), Some("t")), Datum::Text("t".into()));
        assert_eq!(datum(Some(&Type::INT8), None), Datum::Null);
        let bc = datum(Some(&Type::DATE), Some("0044-03-15 BC"));
        assert_eq!(bc.to_string(), "0044-03-15 BC");
        assert!(matches!(bc, Datum::Date(_)));
        let ts = datum(Some(&Type::TIMESTAMP), Some("2020-01-01 10:00:00.5"));
        assert!(matches!(ts, Datum::Timestamp(_)));
        let tz = datum(Some(&Type::TIMESTAMPTZ), Some("0001-01-01 10:00:00+00 BC"));
        assert_eq!(tz.to_string(), "0001-01-01 10:00:00+00 BC");
        // PostgreSQL's `mons` and signs read back, shown as the real
        // system shows them.
        let iv = datum(
            Some(&Type::INTERVAL),
            Some("-1 years -2 mons +3 days -04:05:06.7"),
        );
        assert_eq!(iv.to_string(), "-1 years -2 months +3 days -04:05:06.7");
        // A range reads back as the engine's, a timestamp's quotes and a
        // numeric's display scale gone.
        let r = datum(Some(&Type::INT4_RANGE), Some("[1,3)"));
        assert!(matches!(r, Datum::Range(_)));
        let n = datum(Some(&Type::NUM_RANGE), Some("[1.50,2.0)"));
        assert_eq!(n.to_string(), "[1.5,2)");
        let ts = "[\"2020-01-01 00:00:00\",)";
        assert_eq!(datum(Some(&Type::TS_RANGE), Some(ts)).to_string(), ts);
        assert_eq!(
            datum(Some(&Type::DATE_RANGE), Some("empty")).to_string(),
            "empty"
        );
    }
}
