//! Installing and dropping what a worker maintains: tables, index
//! dataflows, re-exports and the transient dataflows slow-path peeks read.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use differential_dataflow::input::Input;
use timely::progress::Antichain;
use timely::worker::Worker;

use super::{ComputeState, Export, LiveDataflow, Table};
use crate::api::JoinPlan;
use crate::arrangement::{self, IndexTraces};
use crate::packed::PackedRow;
use crate::plan::RelationPlan;
use crate::protocol::{DataflowDesc, Import};
use crate::render::{self, Inputs};
use crate::render::{Lookup, LookupSource};
use crate::repr::Frontier;
use crate::repr::{DataflowError, Diff, GlobalId, Timestamp};
use crate::sharing::import::{self, Reader};
use crate::sharing::Counters;
use crate::typedefs::{Errs, ImportedOks, Oks};

impl ComputeState {
    /// Creates a table with since `now` and upper `now + 1`.
    pub(super) fn create_table(&mut self, worker: &mut Worker, id: GlobalId, now: Timestamp) {
        let (mut input, mut traces) = worker.dataflow_named(&format!("Table {id}"), |scope| {
            let (input, rows) = scope.new_collection::<PackedRow, Diff>();
            let errs = rows.clone().flat_map(|_| None::<DataflowError>);
            // A table is arranged by its whole row.
            (input, arrangement::arrange_packed_by_self(rows, errs))
        });
        input.advance_to(now + 1);
        input.flush();
        traces.allow_compaction(now);
        self.publish_new(id, traces.clone(), now);
        self.tables.insert(id, Table { input, traces });
    }

    /// Applies `updates` to table `id` at `time` (on this worker only).
    pub(super) fn write(&mut self, id: GlobalId, updates: Vec<(PackedRow, Diff)>) {
        let table = self.tables.get_mut(&id).expect("table exists");
        for (row, diff) in updates {
            table.input.update(row, diff);
        }
    }

    /// Closes time `upper - 1` on every table: they all get upper `upper`.
    pub(super) fn advance_tables(&mut self, upper: Timestamp) {
        for table in self.tables.values_mut() {
            table.input.advance_to(upper);
            table.input.flush();
        }
    }

    pub(super) fn drop_table(&mut self, id: GlobalId) {
        self.tables.remove(&id);
        self.unpublish(id, None);
    }

    /// Builds an index dataflow: renders the plan and arranges it by `key`.
    pub(super) fn create_index(
        &mut self,
        worker: &mut Worker,
        export: GlobalId,
        desc: DataflowDesc,
        key: Vec<usize>,
    ) {
        let as_of = desc.as_of;
        let (traces, live, _) =
            self.build(
                worker,
                &desc,
                Purpose::Index,
                move |rendered| match rendered {
                    Rendered::Imported(oks, errs) => arrangement::arrange_imported(oks, key, errs),
                    Rendered::Rows(oks, errs) => arrangement::arrange(oks, key, errs),
                },
            );
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
    pub(super) fn reexport(
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
    pub(super) fn create_transient(&mut self, worker: &mut Worker, peek: u64, desc: DataflowDesc) {
        let as_of = desc.as_of;
        let (mut traces, live, _) = self.build(worker, &desc, Purpose::Read, |rendered| {
            let (oks, errs) = rendered.rows();
            arrangement::arrange_by_self(oks, errs)
        });
        traces.allow_compaction(as_of);
        self.transients.insert(peek, (traces, live));
    }

    /// Builds `desc` with `export` turning its result into what the
    /// caller keeps. A read counts, per import, whether it was served
    /// locally or through a shared import. For a subscribe it also returns
    /// new handles on every trace it imports locally (its holds).
    pub(super) fn build<R, F>(
        &mut self,
        worker: &mut Worker,
        desc: &DataflowDesc,
        purpose: Purpose,
        export: F,
    ) -> (R, Rc<LiveDataflow>, Vec<IndexTraces>)
    where
        F: for<'s> FnOnce(Rendered<'s>) -> R,
    {
        let timely_index = worker.next_dataflow_index();
        let as_of = desc.as_of;
        let since = Antichain::from_elem(as_of);
        // A read needs its imports only through `as_of`; at the last
        // timestamp there is no time beyond, so they never stop.
        let until: Frontier = match purpose {
            Purpose::Index => None,
            Purpose::Read => as_of.checked_add(1),
            Purpose::Subscribe { up_to } => up_to,
        };
        let read = purpose != Purpose::Index;
        let subscribe = matches!(purpose, Purpose::Subscribe { .. });
        // A subscribe stops reading its local imports at its `up_to` too.
        let local_until = if subscribe { until } else { None };
        let mut held = Vec::new();
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
                lookups: BTreeMap::new(),
                joins: RefCell::new(Vec::new()),
                locals: RefCell::default(),
            };
            let mut direct = None;
            for (id, (import, arity)) in &desc.imports {
                inputs.arities.insert(*id, *arity);
                // What a delta join may look this import up by.
                let lookup_key = match import {
                    Import::Index { key, .. } if desc.joins == JoinPlan::Delta => Some(key),
                    _ => None,
                };
                // Where it may look it up: the trace or the shared point.
                let mut lookup = None;
                let pair = match import {
                    Import::Table(source) | Import::Index { id: source, .. } => {
                        let local = match import {
                            Import::Table(_) => tables.get_mut(source).map(|t| &mut t.traces),
                            _ => exports.get_mut(source).map(|export| {
                                imported_dataflows.push(Rc::clone(&export.maintained_by));
                                &mut export.traces
                            }),
                        };
                        match local {
                            Some(traces) => {
                                lookup =
                                    lookup_key.map(|_| LookupSource::Local(traces.oks.clone()));
                                if read {
                                    Counters::bump(&counters.local_reads);
                                }
                                if subscribe {
                                    held.push(traces.clone());
                                }
                                let (oks, errs) = arrangement::import_local(
                                    scope,
                                    *source,
                                    traces,
                                    &since,
                                    local_until,
                                );
                                // A plan that is only this import goes to
                                // the export as the arrangement itself.
                                if desc.plan == RelationPlan::Get(*id) {
                                    direct = Some((oks, errs));
                                    continue;
                                }
                                (arrangement::rows(oks), errs)
                            }
                            None => {
                                let peer = peers.get(source).expect("imported collection exists");
                                if read {
                                    Counters::bump(&counters.shared_reads);
                                }
                                lookup = lookup_key.map(|_| LookupSource::Shared {
                                    point: Arc::clone(&peer.point),
                                    registry: Arc::clone(registry),
                                });
                                let reader =
                                    Reader::new(Arc::clone(&peer.point), registry.reader_id());
                                import::import(
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
                if let (Some(key), Some(source)) = (lookup_key, lookup) {
                    let key = key.clone();
                    inputs.lookups.insert(*id, Lookup { key, source });
                }
            }
            let rendered = match direct {
                Some((oks, errs)) => Rendered::Imported(oks, errs),
                None => {
                    let (oks, errs) = render::render(scope, &desc.plan, &inputs, as_of, index);
                    Rendered::Rows(oks, errs)
                }
            };
            (export(rendered), inputs.joins.into_inner())
        });
        let (traces, joins) = traces;
        let live = Rc::new(LiveDataflow {
            timely_index,
            id: desc.id,
            name: desc.name.clone(),
            joins,
            _imports: imported_dataflows,
        });
        self.dataflows.push(Rc::clone(&live));
        (traces, live, held)
    }

    /// Drops an export; its dataflow goes once nothing else holds it.
    pub(super) fn drop_export(&mut self, worker: &mut Worker, id: GlobalId) {
        let export = self.exports.remove(&id);
        self.unpublish(id, export.map(|e| e.maintained_by));
        self.drop_unused_dataflows(worker);
    }

    /// Removes from timely every dataflow only this worker's list still holds.
    pub(super) fn drop_unused_dataflows(&mut self, worker: &mut Worker) {
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
}

/// What a dataflow's plan renders to for its export: rows, or, for a plan
/// that is only a local import, the imported arrangement itself, which an
/// index arranges by its key without unpacking a row.
pub(super) enum Rendered<'s> {
    Rows(Oks<'s>, Errs<'s>),
    Imported(ImportedOks<'s>, Errs<'s>),
}

impl<'s> Rendered<'s> {
    /// The rows, unpacked if they are still arranged.
    pub(super) fn rows(self) -> (Oks<'s>, Errs<'s>) {
        match self {
            Rendered::Rows(oks, errs) => (oks, errs),
            Rendered::Imported(oks, errs) => (arrangement::rows(oks), errs),
        }
    }
}

/// What a dataflow is built for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Purpose {
    /// An index, maintained until it is dropped.
    Index,
    /// One read at the dataflow's `as_of` (a slow-path peek).
    Read,
    /// A read that stays: from the dataflow's `as_of` until `up_to`.
    Subscribe { up_to: Frontier },
}
