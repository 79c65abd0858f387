//! What a replay drives: the reference [`Engine`], or in tests a stand-in.

use crate::format::directive::Command;
use engine::{Config, Engine, Outcome, Witness};

/// Something that executes directives and proves its configuration.
pub trait Target {
    /// Executes one directive.
    fn execute(&mut self, command: &Command) -> Outcome;
    /// The evidence of the configuration in effect, after the directives ran.
    fn witness(&self) -> Witness;
    /// The column names the query `sql` would return, if the target can
    /// say (a stand-in may not).
    fn describe(&mut self, _sql: &str) -> Option<Vec<String>> {
        None
    }
}

/// Builds a fresh target for each run (from any thread: `--jobs` checks
/// files in parallel).
pub type Factory<'a> = dyn Fn(&Config) -> Box<dyn Target> + Sync + 'a;

/// The factory of the reference engine.
pub fn engine(config: &Config) -> Box<dyn Target> {
    Box::new(Engine::new(config.clone()))
}

impl Target for Engine {
    fn execute(&mut self, command: &Command) -> Outcome {
        match command {
            Command::Statement { sql } => self.statement(sql),
            Command::Connection {
                name,
                user,
                sql,
                query,
            } => self.on_connection(name, user, |engine| match query {
                true => engine.query(sql),
                false => engine.simple(sql),
            }),
            Command::Simple { sql } => self.simple(sql),
            Command::Query { sql, .. } => self.query(sql),
            Command::Peek { index, as_of } => self.peek(index, *as_of),
            Command::IssuePeek { index, as_of, name } => self.issue_peek(index, *as_of, name),
            Command::Await { name } => self.await_peek(name),
            Command::Subscribe { name, sql } => self.subscribe(name, sql),
            Command::Fetch { name } => self.fetch(name),
            Command::Cancel { name } => self.cancel(name),
            Command::Hold { on, at, name } => self.hold(on, *at, name),
            Command::Release { name } => self.release(name),
            Command::AllowCompaction { on, since } => self.allow_compaction(on, *since),
            Command::Tick => self.tick(),
            Command::Pause { role, worker } => self.pause(*role, *worker),
            Command::Resume { role, worker } => self.resume(*role, *worker),
            Command::Step { role, worker } => self.step(*role, *worker),
            // A fresh engine is the replay's to make (see `replay`).
            Command::Reset => Outcome::Error("reset-server is done by the replay".into()),
        }
    }

    fn witness(&self) -> Witness {
        Engine::witness(self)
    }

    fn describe(&mut self, sql: &str) -> Option<Vec<String>> {
        Engine::describe(self, sql).ok()
    }
}
