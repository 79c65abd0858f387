//! The engine's API types: how an engine is built (`Config`, `JoinPlan`),
//! which runtime a directive names (`Role`), what a directive returns
//! (`Outcome`, `Progress`) and the evidence of the configuration in effect
//! (`Witness`). A leaf beside `repr`: the coordinator returns these, the
//! runner reads them, and nothing here knows how they are produced.

use crate::repr::{self, Row};

/// How an engine is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Sharing on: a maintenance and an interactive runtime; off: one Solo runtime.
    pub sharing: bool,
    /// Timely workers per runtime.
    pub workers: usize,
    /// `None`: round-robin stepping; `Some(seed)`: a reproducible random choice each step.
    pub seed: Option<u64>,
    /// How joins are rendered.
    pub joins: JoinPlan,
}

/// How a join is rendered. Both must give the same answers; the suite runs
/// files both ways to check it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JoinPlan {
    /// A chain of binary joins, each arranging its two inputs.
    #[default]
    Linear,
    /// Where every input is an index arranged by the join key: one path per
    /// input, looking its changes up in the other inputs' arrangements (see
    /// `delta_join`); elsewhere linear.
    Delta,
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
    /// What a fetch of a subscribe returns: the changes completed since the
    /// last fetch, each `mz_timestamp, mz_diff, columns...`, consolidated
    /// per time and sorted by time, then row; then where it stands.
    Updates { rows: Vec<Row>, progress: Progress },
    /// What a request of several statements returns (`Engine::simple`):
    /// each statement's outcome in turn, `Ok` or `Rows`. An error ends the
    /// request and is its whole outcome, as the simple query protocol's
    /// client shows it.
    Results(Vec<Outcome>),
}

/// Where a subscribe stands after a fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Live: every change before its frontier was fetched, and the next is
    /// not complete once the engine is quiescent. The text names the
    /// frontiers it waits on.
    Waiting(String),
    /// Ended at this frontier: `UP TO` reached, or (`None`) every input
    /// ended (constants do).
    Complete(Option<repr::Timestamp>),
    /// Ended by an error in its input, as a peek would report it, or by the
    /// drop of a relation it names.
    Failed(String),
}

/// Evidence of which configuration was in effect, checked by the runner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Reads (peeks, slow-path dataflows and subscribes) served by the interactive runtime through shared imports.
    pub shared_reads: u64,
    /// Reads served by a runtime from arrangements it maintains itself.
    pub local_reads: u64,
    /// Arrangements published into the sharing registry.
    pub published: u64,
    /// Reads of introspection relations, which the logging runtime answers
    /// itself in every configuration, so they prove nothing about sharing.
    pub logging_reads: u64,
    /// Reads that returned rows without reading any table or index
    /// (`SELECT 1`, a view of constants, a fetch of a subscribe over
    /// either, `SHOW TIMEZONE`): nothing was there to share, so they prove
    /// nothing about sharing either.
    pub constant_reads: u64,
    /// Dropped collections that still have a slot in the sharing registry
    /// (a leak: the slot keeps its point alive for the life of the
    /// process). `None` while some worker is paused: a drop it has not
    /// applied yet may still be on its way.
    pub stale_slots: Option<Vec<repr::GlobalId>>,
    /// Points found astray after a maintenance step: a published point
    /// whose batches or uppers were not exactly those of the traces it
    /// publishes (readers would walk superseded batches, and the point
    /// would keep them alive beside the merged ones), or a retired point,
    /// still held by someone, that kept its batches.
    pub points_astray: u64,
    /// Dataflows found still installed after a step though nothing used
    /// them any more (a dropped index, an answered read, a drained
    /// publication): each should leave timely in the step that ends it.
    pub unused_dataflows: u64,
}
