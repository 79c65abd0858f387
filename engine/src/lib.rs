//! A reference engine for arrangement sharing in a streaming database's
//! compute layer, built on timely-dataflow and differential-dataflow.
//!
//! `Engine` is the whole public surface the conformance runner drives: one
//! method per scenario directive, each returning an [`Outcome`].

pub mod plan;
pub mod repr;
pub mod sql;

use repr::{Row, Timestamp};

/// How an engine is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Sharing on: a maintenance and an interactive runtime; off: one Solo runtime.
    pub sharing: bool,
    /// Timely workers per runtime.
    pub workers: usize,
    /// `None`: round-robin stepping; `Some(seed)`: a reproducible random choice each step.
    pub seed: Option<u64>,
}

/// A runtime named by a scenario. In Solo both names mean the one runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Maintenance,
    Interactive,
}

/// The result of one directive, as the transcript shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `ok`
    Ok,
    /// Rows in the order the engine produced them (after any ORDER BY/LIMIT).
    Rows(Vec<Row>),
    /// `error: <message>`
    Error(String),
    /// `pending: <diagnosis>`: the system is quiescent and the read cannot be answered.
    Pending(String),
    /// `issued`: a named peek was issued.
    Issued,
}

/// Evidence of which configuration was in effect, checked by the runner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Reads (peeks and slow-path dataflows) served by the interactive runtime through shared imports.
    pub shared_reads: u64,
    /// Reads served by a runtime from arrangements it maintains itself.
    pub local_reads: u64,
    /// Arrangements published into the sharing registry.
    pub published: u64,
}

/// The engine: a catalog, a clock, the runtimes and their scheduler.
pub struct Engine {
    _private: (),
}

impl Engine {
    pub fn new(_config: Config) -> Engine {
        todo!("engine under construction")
    }
    /// `statement`: one or more SQL statements; `Ok` or `Error`.
    pub fn statement(&mut self, _sql: &str) -> Outcome {
        todo!()
    }
    /// `query`: one SELECT; `Rows`, `Error` or `Pending`.
    pub fn query(&mut self, _sql: &str) -> Outcome {
        todo!()
    }
    /// `peek index=<name> [as-of=T]`: a fast-path peek; `Rows`, `Error` or `Pending`.
    pub fn peek(&mut self, _index: &str, _as_of: Option<Timestamp>) -> Outcome {
        todo!()
    }
    /// `peek ... name=P`: issues the peek only; `Issued` or `Error`.
    pub fn issue_peek(&mut self, _index: &str, _as_of: Option<Timestamp>, _name: &str) -> Outcome {
        todo!()
    }
    /// `await name=P`: the named peek's result, or `Pending` once quiescent.
    pub fn await_peek(&mut self, _name: &str) -> Outcome {
        todo!()
    }
    /// `hold on=<name> at=T name=H`
    pub fn hold(&mut self, _on: &str, _at: Timestamp, _name: &str) -> Outcome {
        todo!()
    }
    /// `release name=H`
    pub fn release(&mut self, _name: &str) -> Outcome {
        todo!()
    }
    /// `allow-compaction on=<name> since=T`
    pub fn allow_compaction(&mut self, _on: &str, _since: Timestamp) -> Outcome {
        todo!()
    }
    /// `tick`: advances the clock without writes.
    pub fn tick(&mut self) -> Outcome {
        todo!()
    }
    /// `pause runtime=R [worker=N]`
    pub fn pause(&mut self, _role: Role, _worker: Option<usize>) -> Outcome {
        todo!()
    }
    /// `resume runtime=R [worker=N]`
    pub fn resume(&mut self, _role: Role, _worker: Option<usize>) -> Outcome {
        todo!()
    }
    /// `step runtime=R [worker=N]`: steps the named (possibly paused) workers once.
    pub fn step(&mut self, _role: Role, _worker: Option<usize>) -> Outcome {
        todo!()
    }
    /// What this engine has done that proves its configuration.
    pub fn witness(&self) -> Witness {
        todo!()
    }
}
