//! A worker's compute state: table inputs, exported index arrangements,
//! live dataflows and pending peeks, and the commands that change them.
//!
//! Everything here lives on one worker thread. An index is a pair of
//! differential arrangements (oks by key, errs by self) whose trace handles
//! sit in `exports`; a re-export holds further handles on the same traces.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use differential_dataflow::input::{Input, InputSession};
use timely::progress::Antichain;
use timely::worker::Worker;

use crate::arrangement::{self, arrange, Frontier, IndexTraces};
use crate::peek::{self, IndexHandle};
use crate::protocol::{
    Board, Command, Context, DataflowDesc, ExportReport, Import, PeekRequest, PeekResponse,
    PeekTarget, Reply, RuntimeRole, WorkerReport,
};
use crate::publication::{Peer, Publication};
use crate::render::{self, Inputs};
use crate::repr::{DataflowError, Diff, GlobalId, Row, Timestamp};
use crate::runtime::{ReplySender, WorkerLogic};
use crate::shared_import::{self, Reader, SharedIndex};
use crate::sharing::{Counters, HoldKey, Registry};

/// A dataflow installed on this worker. Held by `Rc` by everything that
/// needs it alive (its exports, dataflows importing its exports); the worker
/// drops it from timely once only its own list holds it.
pub struct LiveDataflow {
    /// Timely's index of the dataflow on this worker.
    pub timely_index: usize,
    /// The catalog's dataflow id (shared by all workers and runtimes).
    pub id: u64,
    pub name: String,
    /// Dataflows whose exports this one imports, kept alive with it.
    pub _imports: Vec<Rc<LiveDataflow>>,
}

/// An exported index on this worker.
pub struct Export {
    pub traces: IndexTraces,
    /// The dataflow that maintains the traces (for a re-export, its target's).
    pub maintained_by: Rc<LiveDataflow>,
    /// The export's own dataflow id as the catalog knows it.
    pub dataflow_id: u64,
    /// Whether this export's own dataflow has operators (false for a re-export).
    pub has_operators: bool,
}

/// A table: its input, and its rows arranged by themselves with no errors
/// (the stand-in for a storage shard, which both runtimes can read).
pub struct Table {
    pub input: InputSession<Timestamp, Row, Diff>,
    pub traces: IndexTraces,
}

/// The per-worker state behind every command.
pub struct ComputeState {
    pub worker: usize,
    pub replies: ReplySender<Reply>,
    pub tables: BTreeMap<GlobalId, Table>,
    pub exports: BTreeMap<GlobalId, Export>,
    /// Transient (slow-path) dataflows, by the peek that reads them.
    pub transients: BTreeMap<u64, (IndexTraces, Rc<LiveDataflow>)>,
    pub dataflows: Vec<Rc<LiveDataflow>>,
    pub peeks: BTreeMap<u64, peek::Pending>,
    pub board: Arc<Mutex<Board>>,
    pub role: RuntimeRole,
    pub registry: Arc<Registry>,
    /// Maintenance: what this worker publishes, by the id that created it.
    pub(crate) publications: BTreeMap<GlobalId, Publication>,
    /// Maintenance: the publication each published id goes through.
    pub(crate) published_as: BTreeMap<GlobalId, GlobalId>,
    /// Interactive: a bundle per table and index maintenance publishes.
    pub peers: BTreeMap<GlobalId, Peer>,
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
            board: context.board,
            role: context.role,
            registry: context.registry,
            publications: BTreeMap::new(),
            published_as: BTreeMap::new(),
            peers: BTreeMap::new(),
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
            Command::Peek(request) => self.peek(request),
            Command::CancelPeek { peek } => self.cancel_peek(worker, peek),
            Command::AllowCompaction { id, since } => self.allow_compaction(id, since),
            Command::Report { request } => self.report(request),
        }
    }

    fn after_step(&mut self, _worker: &mut Worker) -> bool {
        let answered = self.process_peeks();
        let published = self.publish();
        answered || published
    }
}

impl ComputeState {
    /// Creates a table with since `now` and upper `now + 1`.
    pub fn create_table(&mut self, worker: &mut Worker, id: GlobalId, now: Timestamp) {
        let (mut input, mut traces) = worker.dataflow_named(&format!("Table {id}"), |scope| {
            let (input, rows) = scope.new_collection::<Row, Diff>();
            let errs = rows.clone().flat_map(|_| None::<DataflowError>);
            (input, arrange(rows.map(|row| (row.clone(), row)), errs))
        });
        input.advance_to(now + 1);
        input.flush();
        traces.allow_compaction(now);
        self.publish_new(id, traces.clone(), now);
        self.tables.insert(id, Table { input, traces });
    }

    /// Applies `updates` to table `id` at `time` (on this worker only).
    pub fn write(&mut self, id: GlobalId, updates: Vec<(Row, Diff)>) {
        let table = self.tables.get_mut(&id).expect("table exists");
        for (row, diff) in updates {
            table.input.update(row, diff);
        }
    }

    /// Closes time `upper - 1` on every table: they all get upper `upper`.
    pub fn advance_tables(&mut self, upper: Timestamp) {
        for table in self.tables.values_mut() {
            table.input.advance_to(upper);
            table.input.flush();
        }
    }

    pub fn drop_table(&mut self, id: GlobalId) {
        self.tables.remove(&id);
        self.unpublish(id);
    }

    /// Builds an index dataflow: renders the plan and arranges it by `key`.
    pub fn create_index(
        &mut self,
        worker: &mut Worker,
        export: GlobalId,
        desc: DataflowDesc,
        key: Vec<usize>,
    ) {
        let as_of = desc.as_of;
        let (traces, live) = self.build(worker, &desc, None, move |oks, errs| {
            let keyed =
                oks.map(move |row| (key.iter().map(|c| row[*c].clone()).collect::<Row>(), row));
            arrange(keyed, errs)
        });
        let mut traces = traces;
        traces.allow_compaction(as_of);
        self.publish_new(export, traces.clone(), as_of);
        self.exports.insert(
            export,
            Export {
                traces,
                maintained_by: live,
                dataflow_id: desc.id,
                has_operators: true,
            },
        );
    }

    /// Exports `export` as another name for `target`'s arrangement: new
    /// handles on the same traces, and a dataflow without operators.
    pub fn reexport(
        &mut self,
        export: GlobalId,
        target: GlobalId,
        dataflow_id: u64,
        as_of: Timestamp,
    ) {
        let source = self.exports.get(&target).expect("re-export target exists");
        let mut traces = source.traces.clone();
        traces.allow_compaction(as_of);
        let maintained_by = Rc::clone(&source.maintained_by);
        self.publish_reexport(export, target, &traces, as_of);
        self.exports.insert(
            export,
            Export {
                traces,
                maintained_by,
                dataflow_id,
                has_operators: false,
            },
        );
    }

    /// Builds a transient dataflow whose result a peek reads once.
    pub fn create_transient(&mut self, worker: &mut Worker, peek: u64, desc: DataflowDesc) {
        let as_of = desc.as_of;
        let until = Some(as_of + 1);
        let (mut traces, live) = self.build(worker, &desc, until, |oks, errs| {
            arrange(oks.map(|row| (row.clone(), row)), errs)
        });
        traces.allow_compaction(as_of);
        self.transients.insert(peek, (traces, live));
    }

    /// Builds `desc` with `export` turning its result into traces. A read
    /// (`until` set) counts, per import, whether it was served locally or
    /// through a shared import.
    fn build<F>(
        &mut self,
        worker: &mut Worker,
        desc: &DataflowDesc,
        until: Frontier,
        export: F,
    ) -> (IndexTraces, Rc<LiveDataflow>)
    where
        F: for<'s> FnOnce(render::Oks<'s>, render::Errs<'s>) -> IndexTraces,
    {
        let timely_index = worker.next_dataflow_index();
        let as_of = desc.as_of;
        let since = Antichain::from_elem(as_of);
        let mut imported_dataflows = Vec::new();
        let index = self.worker;
        let tables = &mut self.tables;
        let exports = &mut self.exports;
        let peers = &self.peers;
        let registry = &self.registry;
        let counters = &self.registry.counters;
        let traces = worker.dataflow_named(&desc.name, |scope| {
            let mut inputs = Inputs {
                collections: BTreeMap::new(),
                arities: BTreeMap::new(),
            };
            for (id, (import, arity)) in &desc.imports {
                inputs.arities.insert(*id, *arity);
                let pair = match import {
                    Import::Table(source) | Import::Index(source) => {
                        let local = match import {
                            Import::Table(_) => tables.get_mut(source).map(|t| &mut t.traces),
                            _ => exports.get_mut(source).map(|export| {
                                imported_dataflows.push(Rc::clone(&export.maintained_by));
                                &mut export.traces
                            }),
                        };
                        match local {
                            Some(traces) => {
                                if until.is_some() {
                                    Counters::bump(&counters.local_reads);
                                }
                                arrangement::import_local(scope, *source, traces, &since)
                            }
                            None => {
                                let peer = peers.get(source).expect("imported collection exists");
                                if until.is_some() {
                                    Counters::bump(&counters.shared_reads);
                                }
                                let reader =
                                    Reader::new(Arc::clone(&peer.point), registry.reader_id());
                                shared_import::import(
                                    scope,
                                    &format!("SharedImport {source}"),
                                    reader,
                                    as_of,
                                    until,
                                )
                            }
                        }
                    }
                    Import::Constant(rows) => {
                        let rows = if index == 0 { rows.clone() } else { Vec::new() };
                        (
                            render::constant(scope, rows, as_of),
                            render::constant(scope, Vec::new(), as_of),
                        )
                    }
                };
                inputs.collections.insert(*id, pair);
            }
            let (oks, errs) = render::render(scope, &desc.plan, &inputs, as_of, index);
            export(oks, errs)
        });
        let live = Rc::new(LiveDataflow {
            timely_index,
            id: desc.id,
            name: desc.name.clone(),
            _imports: imported_dataflows,
        });
        self.dataflows.push(Rc::clone(&live));
        (traces, live)
    }

    /// Drops an export; its dataflow goes once nothing else holds it.
    pub fn drop_export(&mut self, worker: &mut Worker, id: GlobalId) {
        self.exports.remove(&id);
        self.unpublish(id);
        self.drop_unused_dataflows(worker);
    }

    /// Removes from timely every dataflow only this worker's list still holds.
    pub fn drop_unused_dataflows(&mut self, worker: &mut Worker) {
        loop {
            let before = self.dataflows.len();
            let mut keep = Vec::with_capacity(before);
            for live in self.dataflows.drain(..) {
                if Rc::strong_count(&live) == 1 {
                    worker.drop_dataflow(live.timely_index);
                } else {
                    keep.push(live);
                }
            }
            self.dataflows = keep;
            // Dropping one dataflow may release those it imported.
            if self.dataflows.len() == before {
                break;
            }
        }
    }

    /// Applies a read policy decision to an index or table: to the handles
    /// this worker maintains (and, publishing, as a note to its point), or
    /// to the peer's hold on what maintenance publishes.
    pub fn allow_compaction(&mut self, id: GlobalId, since: Timestamp) {
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

    /// Registers a peek; it is answered by `process_peeks` once readable.
    pub fn peek(&mut self, request: PeekRequest) {
        let handle = match request.target {
            PeekTarget::Transient => self
                .transients
                .get(&request.id)
                .map(|(t, _)| IndexHandle::Local(Box::new(t.clone()))),
            PeekTarget::Index(target) => match self.exports.get(&target) {
                Some(export) => Some(IndexHandle::Local(Box::new(export.traces.clone()))),
                None => self.peers.get(&target).map(|peer| {
                    let reader = Reader::new(Arc::clone(&peer.point), self.registry.reader_id());
                    IndexHandle::Shared(SharedIndex::new(reader, peer.since, request.time))
                }),
            },
        };
        match handle {
            Some(handle) => {
                let pending = peek::Pending::new(request, handle);
                self.peeks.insert(pending.request.id, pending);
            }
            None => {
                let response =
                    PeekResponse::Error(format!("peek target {} is not installed", request.target));
                self.replies.send(Reply::Peek {
                    peek: request.id,
                    worker: self.worker,
                    response,
                });
            }
        }
    }

    /// Forgets a peek and any transient dataflow behind it.
    pub fn cancel_peek(&mut self, worker: &mut Worker, peek: u64) {
        self.peeks.remove(&peek);
        if self.transients.remove(&peek).is_some() {
            self.drop_unused_dataflows(worker);
        }
    }

    /// Answers every pending peek whose traces are readable at its time.
    fn process_peeks(&mut self) -> bool {
        let mut answered = Vec::new();
        let mut board = self.board.lock().expect("board lock");
        for (id, pending) in self.peeks.iter_mut() {
            match pending.try_answer() {
                Some(response) => answered.push((*id, response)),
                None => board.note(*id, self.worker, pending.frontiers()),
            }
        }
        drop(board);
        let any = !answered.is_empty();
        for (id, response) in answered {
            let pending = self.peeks.remove(&id).expect("answered");
            let counters = &self.registry.counters;
            match (&pending.handle, pending.request.target) {
                // A transient's reads were counted per import.
                (_, PeekTarget::Transient) => {}
                (IndexHandle::Local(_), _) => Counters::bump(&counters.local_reads),
                (IndexHandle::Shared(_), _) => Counters::bump(&counters.shared_reads),
            }
            self.replies.send(Reply::Peek {
                peek: id,
                worker: self.worker,
                response,
            });
        }
        any
    }

    /// Reports what introspection shows of this worker.
    pub fn report(&mut self, request: u64) {
        let mut report = WorkerReport {
            worker: self.worker,
            ..Default::default()
        };
        let ids: Vec<GlobalId> = self.exports.keys().copied().collect();
        for id in ids {
            let since = self.effective_since(id);
            let export = self.exports.get_mut(&id).expect("listed");
            let upper = export.traces.upper();
            let records = arrangement::records_at(&mut export.traces.oks, since);
            let errors = arrangement::net_errors(&mut export.traces.errs);
            let dataflow_id = export.dataflow_id;
            let logs_errors = export.has_operators || !self.owner_alive(id);
            report.exports.push(ExportReport {
                id,
                dataflow_id,
                since,
                upper,
                records,
                errors,
                logs_errors,
            });
        }
        let mut dataflows: Vec<(u64, String)> = self
            .exports
            .values()
            .map(|e| (e.maintained_by.id, e.maintained_by.name.clone()))
            .collect();
        dataflows.sort();
        dataflows.dedup();
        report.dataflows = dataflows;
        self.replies.send(Reply::Report { request, report });
    }

    /// For a re-export: whether an earlier export with operators still holds
    /// the traces (then it logs the error counts, and the re-export inherits them).
    fn owner_alive(&self, id: GlobalId) -> bool {
        let export = &self.exports[&id];
        self.exports
            .iter()
            .any(|(other, e)| *other < id && e.traces.same_traces(&export.traces))
    }

    /// The meet of the since of every handle this worker holds on `id`'s traces.
    fn effective_since(&mut self, id: GlobalId) -> Option<Timestamp> {
        let target = self.exports[&id].traces.clone();
        let mut since: Option<Timestamp> = None;
        let mut meet = |s: Option<Timestamp>| {
            if let Some(s) = s {
                since = Some(since.map_or(s, |m: Timestamp| m.min(s)));
            }
        };
        for export in self.exports.values_mut() {
            if export.traces.same_traces(&target) {
                meet(export.traces.since());
            }
        }
        for pending in self.peeks.values_mut() {
            if let IndexHandle::Local(traces) = &mut pending.handle {
                if traces.same_traces(&target) {
                    meet(traces.since());
                }
            }
        }
        for publication in self.publications.values_mut() {
            if publication.traces.same_traces(&target) {
                meet(publication.traces.since());
            }
        }
        since
    }
}
