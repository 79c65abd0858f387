//! Where a run's time goes: a target factory that times engine start-up,
//! each kind of directive and shut-down, for the explorer's breakdown and
//! the suite benchmark (`cargo bench -p runner --bench suite`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use engine::{Config, Outcome, Witness};

use crate::format::directive::Command;
use crate::run::target::{self, Target};

/// Time spent per kind (`start-up`, `create`, `write`, `read`,
/// `introspection`, `peek`, `subscribe`, `control`, `drop`, `shut-down`),
/// shared by every target one factory builds.
#[derive(Clone, Default)]
pub struct Times(Arc<Mutex<BTreeMap<&'static str, Duration>>>);

impl Times {
    fn add(&self, kind: &'static str, time: Duration) {
        *self.0.lock().expect("times").entry(kind).or_default() += time;
    }

    /// What was added since the last take, emptied.
    pub fn take(&self) -> BTreeMap<&'static str, Duration> {
        std::mem::take(&mut *self.0.lock().expect("times"))
    }

    /// Builds the reference engine for `config`, timing its start-up, and
    /// wraps it so every directive and the shut-down are timed too.
    pub fn engine(&self, config: &Config) -> Box<dyn Target> {
        let start = Instant::now();
        let inner = target::engine(config);
        self.add("start-up", start.elapsed());
        Box::new(Timed {
            inner: Some(inner),
            times: self.clone(),
        })
    }
}

/// What a directive does, for where the time goes.
fn kind_of(command: &Command) -> &'static str {
    match command {
        Command::Statement { sql } => {
            let first = sql.split_whitespace().next().unwrap_or("");
            match first.to_ascii_uppercase().as_str() {
                "CREATE" => "create",
                "DROP" => "drop",
                _ => "write",
            }
        }
        Command::Query { sql, .. } if sql.contains("mz_") => "introspection",
        Command::Query { .. } => "read",
        Command::Peek { .. } | Command::IssuePeek { .. } | Command::Await { .. } => "peek",
        Command::Subscribe { .. } | Command::Fetch { .. } | Command::Cancel { .. } => "subscribe",
        _ => "control",
    }
}

/// The engine, timed per kind of directive.
struct Timed {
    inner: Option<Box<dyn Target>>,
    times: Times,
}

impl Target for Timed {
    fn execute(&mut self, command: &Command) -> Outcome {
        let start = Instant::now();
        let outcome = self.inner.as_mut().expect("live").execute(command);
        self.times.add(kind_of(command), start.elapsed());
        outcome
    }

    fn witness(&self) -> Witness {
        self.inner.as_ref().expect("live").witness()
    }
}

impl Drop for Timed {
    fn drop(&mut self) {
        let start = Instant::now();
        drop(self.inner.take());
        self.times.add("shut-down", start.elapsed());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every phase of a run lands under its kind, and `take` empties.
    #[test]
    fn a_run_is_timed_by_kind() {
        let times = Times::default();
        {
            let mut engine = times.engine(&Config {
                sharing: true,
                workers: 2,
                seed: None,
                joins: engine::JoinPlan::Linear,
            });
            let statement = |sql: &str| Command::Statement { sql: sql.into() };
            engine.execute(&statement("CREATE TABLE t (a int)"));
            engine.execute(&statement("INSERT INTO t VALUES (1)"));
            engine.execute(&Command::Tick);
        }
        let kinds: Vec<&str> = times.take().into_keys().collect();
        assert_eq!(
            kinds,
            ["control", "create", "shut-down", "start-up", "write"]
        );
        assert!(times.take().is_empty());
    }
}
