//! What one file has done so far, in the engine's time: the clock, the
//! statements that took effect (each write with its commit time), the
//! indexes by name, and the peeks issued but not awaited. From it a read
//! directive becomes the SQL PostgreSQL answers and the time it is asked at,
//! and a time in the past becomes the statements that rebuild its state.
//! No I/O: the session feeds it what the server accepted.

use crate::translate::strip_as_of;
use runner::format::directive::Command;
use std::collections::BTreeMap;

/// A read: the SQL, and the time whose state answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub sql: String,
    pub at: u64,
}

/// One statement that took effect.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Applied {
    sql: String,
    /// The time a write committed at; `None` for DDL, which takes no time.
    commit: Option<u64>,
}

/// The state of one file's replay (docs/semantics.md, "Time").
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// `now`: starts at 0, advanced by every write and every `tick`.
    now: u64,
    applied: Vec<Applied>,
    /// Index name to the relation it indexes.
    indexes: BTreeMap<String, String>,
    /// Issued peeks by name, with the time they were issued for.
    issued: BTreeMap<String, Read>,
}

impl Timeline {
    pub fn now(&self) -> u64 {
        self.now
    }

    /// A write took effect: it commits at `now + 1`, and `now` advances.
    pub fn wrote(&mut self, sql: &str) {
        self.now += 1;
        self.applied.push(Applied {
            sql: sql.to_string(),
            commit: Some(self.now),
        });
    }

    /// DDL (or another statement taking no time) took effect.
    pub fn defined(&mut self, sql: &str) {
        self.applied.push(Applied {
            sql: sql.to_string(),
            commit: None,
        });
    }

    /// `tick`: time passes with no write.
    pub fn tick(&mut self) {
        self.now += 1;
    }

    /// An index on `relation`, named `name`, or else the first of `base`,
    /// `base1`, `base2`, ... that is free. Returns the name.
    pub fn create_index(
        &mut self,
        name: Option<&str>,
        base: &str,
        relation: &str,
    ) -> Result<String, String> {
        let name = match name {
            Some(name) if self.indexes.contains_key(name) => {
                return Err(format!("index \"{name}\" already exists"))
            }
            Some(name) => name.to_string(),
            None => std::iter::once(base.to_string())
                .chain((1..).map(|i| format!("{base}{i}")))
                .find(|n| !self.indexes.contains_key(n))
                .expect("a free name"),
        };
        self.indexes.insert(name.clone(), relation.to_string());
        Ok(name)
    }

    pub fn drop_index(&mut self, name: &str) -> Result<(), String> {
        match self.indexes.remove(name) {
            Some(_) => Ok(()),
            None => Err(format!("index \"{name}\" does not exist")),
        }
    }

    /// The read `command` asks for, or `None` if it is no read. An `Err` is
    /// the read's answer: it names an unknown index or peek.
    pub fn read(&self, command: &Command) -> Option<Result<Read, String>> {
        let read = match command {
            Command::Query { sql, .. } => strip_as_of(sql).map(|(sql, at)| Read {
                sql,
                at: at.unwrap_or(self.now),
            }),
            Command::Peek { index, as_of } | Command::IssuePeek { index, as_of, .. } => {
                self.peek(index, *as_of)
            }
            Command::Await { name } => self
                .issued
                .get(name)
                .cloned()
                .ok_or_else(|| format!("no peek named `{name}` was issued")),
            _ => return None,
        };
        Some(read)
    }

    /// `peek index=I [as-of=T]`: all of the indexed relation.
    fn peek(&self, index: &str, as_of: Option<u64>) -> Result<Read, String> {
        let relation = self
            .indexes
            .get(index)
            .ok_or_else(|| format!("unknown index `{index}`"))?;
        Ok(Read {
            sql: format!("SELECT * FROM {relation}"),
            at: as_of.unwrap_or(self.now),
        })
    }

    /// `peek ... name=P` was issued as `read`.
    pub fn issue(&mut self, name: &str, read: Read) {
        self.issued.insert(name.to_string(), read);
    }

    /// The statements that rebuild the state at `at`, in order: all the
    /// DDL, and the writes committed at or before `at`. `None` when the
    /// current state already is that state (`at` is `now` or later; a
    /// later time sees no more writes than have happened).
    pub fn rebuild(&self, at: u64) -> Option<Vec<&str>> {
        (at < self.now).then(|| {
            self.applied
                .iter()
                .filter(|a| a.commit.is_none_or(|c| c <= at))
                .map(|a| a.sql.as_str())
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(sql: &str) -> Command {
        Command::Query {
            sql: sql.into(),
            sort: true,
        }
    }

    fn timeline() -> Timeline {
        let mut t = Timeline::default();
        t.defined("CREATE TABLE t (a int)");
        t.wrote("INSERT INTO t VALUES (1)");
        t.create_index(None, "t_primary_idx", "t").unwrap();
        t.wrote("INSERT INTO t VALUES (2)");
        t.defined("CREATE VIEW v AS SELECT a FROM t");
        t.tick();
        t.wrote("DELETE FROM t");
        t
    }

    #[test]
    fn writes_and_ticks_advance_the_clock() {
        assert_eq!(timeline().now(), 4);
    }

    #[test]
    fn a_peek_reads_the_indexed_relation() {
        let t = timeline();
        let peek = Command::Peek {
            index: "t_primary_idx".into(),
            as_of: None,
        };
        assert_eq!(
            t.read(&peek),
            Some(Ok(Read {
                sql: "SELECT * FROM t".into(),
                at: 4
            }))
        );
        let old = Command::Peek {
            index: "t_primary_idx".into(),
            as_of: Some(1),
        };
        assert_eq!(t.read(&old).unwrap().unwrap().at, 1);
        let unknown = Command::Peek {
            index: "nope".into(),
            as_of: None,
        };
        assert!(t.read(&unknown).unwrap().is_err());
        assert_eq!(t.read(&Command::Tick), None);
    }

    #[test]
    fn an_issued_peek_is_awaited_at_its_time() {
        let mut t = timeline();
        let issue = Command::IssuePeek {
            index: "t_primary_idx".into(),
            as_of: None,
            name: "p".into(),
        };
        let read = t.read(&issue).unwrap().unwrap();
        t.issue("p", read);
        t.wrote("INSERT INTO t VALUES (3)");
        let awaited = t.read(&Command::Await { name: "p".into() });
        assert_eq!(awaited.unwrap().unwrap().at, 4);
        assert_eq!(t.rebuild(4).unwrap().len(), 5, "all but the last write");
    }

    #[test]
    fn as_of_rebuilds_from_ddl_and_the_writes_up_to_it() {
        let t = timeline();
        let read = t.read(&query("SELECT a FROM v AS OF 1")).unwrap().unwrap();
        assert_eq!(
            read,
            Read {
                sql: "SELECT a FROM v".into(),
                at: 1
            }
        );
        assert_eq!(
            t.rebuild(read.at).unwrap(),
            [
                "CREATE TABLE t (a int)",
                "INSERT INTO t VALUES (1)",
                "CREATE VIEW v AS SELECT a FROM t",
            ]
        );
        assert_eq!(t.rebuild(3).unwrap().len(), 4, "the tick adds no write");
        assert_eq!(t.rebuild(4), None, "now is the current state");
        assert_eq!(t.rebuild(u64::MAX), None);
    }

    #[test]
    fn index_names_are_unique_until_dropped() {
        let mut t = timeline();
        assert!(t.create_index(Some("t_primary_idx"), "x", "t").is_err());
        let next = t.create_index(None, "t_primary_idx", "t");
        assert_eq!(next.as_deref(), Ok("t_primary_idx1"));
        t.drop_index("t_primary_idx").unwrap();
        assert!(t.drop_index("t_primary_idx").is_err());
        let free = t.create_index(None, "t_primary_idx", "t");
        assert_eq!(free.as_deref(), Ok("t_primary_idx"));
    }
}
