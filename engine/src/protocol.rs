//! What the coordinator and a runtime's workers say to each other: the
//! commands a worker carries out, the replies it sends back, and the state
//! every worker of a runtime shares with the coordinator.
//!
//! Commands are plain data, so the coordinator never reaches into a
//! worker's state and a worker's whole repertoire is one `match`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::api::JoinPlan;
use crate::packed::PackedRow;
use crate::plan::{RelationPlan, ScalarExpr};
use crate::repr::Frontier;
use crate::repr::{DataflowError, Diff, GlobalId, Row, Timestamp};
use crate::sharing::Registry;

/// What a runtime does in its process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeRole {
    /// Sharing off: everything, publishing nothing.
    Solo,
    /// Maintains tables and indexes, keeps logging, publishes every one.
    Maintenance,
    /// Serves reads through what maintenance publishes; keeps nothing itself.
    Interactive,
}

/// What every worker of a runtime shares with the coordinator.
#[derive(Clone)]
pub struct Context {
    pub role: RuntimeRole,
    /// Where stepping workers leave the frontiers a pending peek waits on.
    pub board: Arc<Mutex<Board>>,
    /// The process's sharing registry (Solo only counts its reads there).
    pub registry: Arc<Registry>,
}

/// Where a dataflow reads a relation from.
#[derive(Clone, Debug)]
pub enum Import {
    /// A table's contents.
    Table(GlobalId),
    /// An index's oks and errs, imported as collections; `key` is what
    /// its rows are arranged by, for a delta join to look them up.
    Index { id: GlobalId, key: Vec<usize> },
    /// Literal rows (introspection relations, evaluated by the coordinator).
    Constant(Vec<Row>),
}

/// A dataflow to build: what it reads, what it computes, when from.
#[derive(Clone, Debug)]
pub struct DataflowDesc {
    pub id: u64,
    pub name: String,
    pub as_of: Timestamp,
    /// Relation id -> where to read it, and its arity.
    pub imports: BTreeMap<GlobalId, (Import, usize)>,
    pub plan: RelationPlan,
    /// How joins are rendered.
    pub joins: JoinPlan,
}

/// One thing a worker is told to do, at the start of its next step.
#[derive(Clone, Debug)]
pub enum Command {
    /// Creates a table with since `now` and upper `now + 1`.
    CreateTable {
        id: GlobalId,
        now: Timestamp,
    },
    /// Applies updates to a table (sent to one worker only), packed once
    /// by the coordinator, which keeps them too.
    Write {
        table: GlobalId,
        updates: Vec<(PackedRow, Diff)>,
    },
    /// Closes time `upper - 1` on every table.
    AdvanceTables {
        upper: Timestamp,
    },
    /// Builds an index dataflow arranging the plan's rows by `key`.
    CreateIndex {
        id: GlobalId,
        desc: DataflowDesc,
        key: Vec<usize>,
    },
    /// Exports `id` as another name for `target`'s arrangement.
    Reexport {
        id: GlobalId,
        target: GlobalId,
        dataflow_id: u64,
        as_of: Timestamp,
    },
    DropExport {
        id: GlobalId,
    },
    DropTable {
        id: GlobalId,
    },
    /// Interactive: takes up what maintenance publishes for `id`.
    Peer {
        id: GlobalId,
        as_of: Timestamp,
    },
    /// Interactive: lets go of what maintenance published for `id`.
    DropPeer {
        id: GlobalId,
    },
    /// Builds the dataflow a slow-path peek reads once.
    CreateTransient {
        peek: u64,
        desc: DataflowDesc,
    },
    /// Builds the dataflow of a subscribe: it follows its imports live from
    /// `desc.as_of` until its frontier reaches `up_to`, capturing its output.
    CreateSubscribe {
        subscribe: u64,
        desc: DataflowDesc,
        up_to: Frontier,
    },
    /// Drops a subscribe's dataflow and every hold it has.
    DropSubscribe {
        subscribe: u64,
    },
    /// Registers a peek, answered once readable.
    Peek(PeekRequest),
    /// Forgets a peek and any transient dataflow behind it.
    CancelPeek {
        peek: u64,
    },
    /// A read policy decision for an index or table.
    AllowCompaction {
        id: GlobalId,
        since: Timestamp,
    },
    /// Reports what introspection shows of the worker.
    Report {
        request: u64,
    },
}

/// What a peek reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeekTarget {
    /// An index's arrangement (fast path).
    Index(GlobalId),
    /// The transient dataflow built for the peek (slow path).
    Transient,
}

impl std::fmt::Display for PeekTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeekTarget::Index(id) => write!(f, "{id}"),
            PeekTarget::Transient => write!(f, "the transient dataflow"),
        }
    }
}

/// A peek as sent to every worker.
#[derive(Clone, Debug)]
pub struct PeekRequest {
    pub id: u64,
    pub target: PeekTarget,
    pub time: Timestamp,
    /// Applied to each row read (a fast-path `WHERE`).
    pub predicates: Vec<ScalarExpr>,
    /// The one key to read, when the predicates pin it to literals.
    pub key: Option<Row>,
}

/// One worker's answer. Rows stay packed until the coordinator has put
/// every worker's in order: a packed row is no allocation (most fit
/// inline) and compares from its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeekResponse {
    Rows(Vec<(PackedRow, Diff)>),
    Error(String),
}

/// The frontiers a waiting peek sees, for its diagnosis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontiers {
    pub since: Option<Timestamp>,
    pub oks_upper: Option<Timestamp>,
    pub errs_upper: Option<Timestamp>,
}

/// Frontiers last seen by each worker for each waiting peek.
#[derive(Default)]
pub struct Board {
    seen: BTreeMap<(u64, usize), Frontiers>,
}

impl Board {
    pub fn note(&mut self, peek: u64, worker: usize, frontiers: Frontiers) {
        self.seen.insert((peek, worker), frontiers);
    }
    pub fn get(&self, peek: u64, worker: usize) -> Option<&Frontiers> {
        self.seen.get(&(peek, worker))
    }
    pub fn forget(&mut self, peek: u64) {
        self.seen.retain(|(p, _), _| *p != peek);
    }
}

/// Replies from workers to the coordinator.
pub enum Reply {
    Peek {
        peek: u64,
        worker: usize,
        response: PeekResponse,
    },
    Report {
        request: u64,
        report: WorkerReport,
    },
    /// What a subscribe's dataflow emitted on one worker since its last
    /// reply, and the frontier of its output there (`None`: it is done).
    Subscribe {
        subscribe: u64,
        worker: usize,
        updates: Vec<(Result<Row, DataflowError>, Timestamp, Diff)>,
        frontier: Frontier,
    },
}

/// What introspection needs from one worker.
#[derive(Clone, Debug, Default)]
pub struct WorkerReport {
    pub worker: usize,
    pub exports: Vec<ExportReport>,
    /// Catalog dataflow ids and names of dataflows with operators.
    pub dataflows: Vec<(u64, String)>,
}

#[derive(Clone, Debug)]
pub struct ExportReport {
    pub id: GlobalId,
    pub dataflow_id: u64,
    /// Effective frontiers of the trace: the meet of every handle's since.
    pub since: Option<Timestamp>,
    pub upper: Option<Timestamp>,
    /// Updates in the oks trace, consolidated at its since.
    pub records: i64,
    /// Net multiplicity of the errs trace.
    pub errors: i64,
    /// Who logs the error counts of the export's errs: `None` if the export
    /// does (it maintains them, or the export that did was dropped and it
    /// is the first left holding them), else that export, on this worker.
    pub logged_by: Option<GlobalId>,
    /// How each join of the export's dataflow was rendered.
    pub joins: Vec<String>,
}
