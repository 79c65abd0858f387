//! A worker's compute state: table inputs, exported index arrangements,
//! live dataflows and pending peeks, and the commands that change them.
//!
//! Everything here lives on one worker thread. An index is a pair of
//! differential arrangements (oks by key, errs by self) whose trace handles
//! sit in `exports`; a re-export holds further handles on the same traces.
//!
//! This module holds the state and dispatches each command; its children
//! hold what the commands do: `install` (tables, dataflows, re-exports),
//! `peeks` (with `peek`, one peek's reads of an index), `subscribe`,
//! `report` (introspection) and `publication`
//! (sharing), and `audit`, the witness's check of the publications. The
//! state's fields are private to them.

mod audit;
mod install;
pub(crate) mod peek;
mod peeks;
mod publication;
mod report;
mod subscribe;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex, Weak};

use differential_dataflow::input::InputSession;
use timely::worker::Worker;

use crate::arrangement::IndexTraces;
use crate::packed::PackedRow;
use crate::protocol::{Board, Command, Context, Reply, RuntimeRole};
use crate::repr::{Diff, GlobalId, Timestamp};
use crate::runtime::{ReplySender, WorkerLogic};
use crate::sharing::{HoldKey, Point, Registry};
use publication::{Peer, Publication};
use subscribe::Subscription;

/// A dataflow installed on this worker. Held by `Rc` by everything that
/// needs it alive (its exports, dataflows importing its exports); the worker
/// drops it from timely once only its own list holds it.
pub struct LiveDataflow {
    /// Timely's index of the dataflow on this worker.
    timely_index: usize,
    /// The catalog's dataflow id (shared by all workers and runtimes).
    id: u64,
    name: String,
    /// How each join in it was rendered, as `mz_lir_mapping` shows it.
    joins: Vec<String>,
    /// Dataflows whose exports this one imports, kept alive with it.
    _imports: Vec<Rc<LiveDataflow>>,
}

/// An exported index on this worker.
pub struct Export {
    traces: IndexTraces,
    /// The dataflow that maintains the traces (for a re-export, its target's).
    maintained_by: Rc<LiveDataflow>,
    /// The export's own dataflow id as the catalog knows it.
    dataflow_id: u64,
    /// Whether this export's own dataflow has operators (false for a re-export).
    has_operators: bool,
}

/// A table: its input, and its rows arranged by themselves with no errors
/// (the stand-in for a storage shard, which both runtimes can read).
pub struct Table {
    input: InputSession<Timestamp, PackedRow, Diff>,
    traces: IndexTraces,
}

/// The per-worker state behind every command.
pub struct ComputeState {
    worker: usize,
    replies: ReplySender<Reply>,
    tables: BTreeMap<GlobalId, Table>,
    exports: BTreeMap<GlobalId, Export>,
    /// Transient (slow-path) dataflows, by the peek that reads them.
    transients: BTreeMap<u64, (IndexTraces, Rc<LiveDataflow>)>,
    dataflows: Vec<Rc<LiveDataflow>>,
    peeks: BTreeMap<u64, peek::Pending>,
    /// Live subscribes' dataflows, by the coordinator's subscribe id.
    subscribes: BTreeMap<u64, Subscription>,
    board: Arc<Mutex<Board>>,
    role: RuntimeRole,
    registry: Arc<Registry>,
    /// Maintenance: what this worker publishes, by the id that created it.
    publications: BTreeMap<GlobalId, Publication>,
    /// Maintenance: the publication each published id goes through.
    published_as: BTreeMap<GlobalId, GlobalId>,
    /// Interactive: a bundle per table and index maintenance publishes.
    peers: BTreeMap<GlobalId, Peer>,
    /// Maintenance: points this worker retired, checked while somebody
    /// still holds them (`audit`).
    retired: Vec<Weak<Point>>,
}

impl WorkerLogic for ComputeState {
    type Command = Command;
    type Reply = Reply;
    type Shared = Context;

    fn new(worker: &mut Worker, replies: ReplySender<Reply>, context: Context) -> Self {
        ComputeState {
            worker: worker.index(),
            replies,
            tables: BTreeMap::new(),
            exports: BTreeMap::new(),
            transients: BTreeMap::new(),
            dataflows: Vec::new(),
            peeks: BTreeMap::new(),
            subscribes: BTreeMap::new(),
            board: context.board,
            role: context.role,
            registry: context.registry,
            publications: BTreeMap::new(),
            published_as: BTreeMap::new(),
            peers: BTreeMap::new(),
            retired: Vec::new(),
        }
    }

    fn handle(&mut self, worker: &mut Worker, command: Command) {
        match command {
            Command::CreateTable { id, now } => self.create_table(worker, id, now),
            Command::Write { table, updates } => self.write(table, updates),
            Command::AdvanceTables { upper } => self.advance_tables(upper),
            Command::CreateIndex { id, desc, key } => self.create_index(worker, id, desc, key),
            Command::Reexport {
                id,
                target,
                dataflow_id,
                as_of,
            } => self.reexport(id, target, dataflow_id, as_of),
            Command::DropExport { id } => self.drop_export(worker, id),
            Command::DropTable { id } => self.drop_table(id),
            Command::Peer { id, as_of } => self.peer(id, as_of),
            Command::DropPeer { id } => self.drop_peer(id),
            Command::CreateTransient { peek, desc } => self.create_transient(worker, peek, desc),
            Command::CreateSubscribe {
                subscribe,
                desc,
                up_to,
            } => self.create_subscribe(worker, subscribe, desc, up_to),
            Command::DropSubscribe { subscribe } => self.drop_subscribe(worker, subscribe),
            Command::Peek(request) => self.peek(request),
            Command::CancelPeek { peek } => self.cancel_peek(worker, peek),
            Command::AllowCompaction { id, since } => self.allow_compaction(id, since),
            Command::Report { request } => self.report(request),
        }
    }

    fn after_step(&mut self, worker: &mut Worker) -> bool {
        let answered = self.process_peeks();
        let sent = self.send_subscribes();
        let published = self.publish(worker);
        answered || sent || published
    }

    fn audit(&mut self) {
        self.audit_publications();
        self.audit_dataflows();
    }

    /// The other runtime reaches this one only through the registry's
    /// points: a publisher reads its peers' holds and readers, an import
    /// (in any dataflow: transients and subscribes are dataflows too) is
    /// woken by its point, a pending peek reads its point's uppers. A worker
    /// with none of these has nothing a point could change.
    fn waits_on_others(&self) -> bool {
        !self.publications.is_empty() || !self.dataflows.is_empty() || !self.peeks.is_empty()
    }
}

impl ComputeState {
    /// Applies a read policy decision to an index or table: to the handles
    /// this worker maintains (and, publishing, as a note to its point), or
    /// to the peer's hold on what maintenance publishes.
    fn allow_compaction(&mut self, id: GlobalId, since: Timestamp) {
        if let Some(export) = self.exports.get_mut(&id) {
            export.traces.allow_compaction(since);
        } else if let Some(table) = self.tables.get_mut(&id) {
            table.traces.allow_compaction(since);
        } else if let Some(peer) = self.peers.get_mut(&id) {
            peer.since = peer.point.hold(HoldKey::Peer(id), since);
        }
        if self.published_as.contains_key(&id) {
            if let Some(point) = self.registry.noted_point(id, self.worker) {
                point.note(id, since);
            }
        }
    }
}
