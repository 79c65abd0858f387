//! What introspection shows of a worker: its exports' frontiers, sizes,
//! error counts and the dataflows that maintain them.

use super::peek::IndexHandle;
use super::ComputeState;
use crate::arrangement;
use crate::protocol::{ExportReport, Reply, WorkerReport};
use crate::repr::{GlobalId, Timestamp};

impl ComputeState {
    /// Reports what introspection shows of this worker.
    pub(super) fn report(&mut self, request: u64) {
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
            // A re-export has no operators, so no plan of its own.
            let joins = match export.has_operators {
                true => export.maintained_by.joins.clone(),
                false => Vec::new(),
            };
            let logged_by = match export.has_operators {
                true => None,
                false => self.owner(id),
            };
            report.exports.push(ExportReport {
                id,
                dataflow_id,
                since,
                upper,
                records,
                errors,
                logged_by,
                joins,
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

    /// For a re-export: the earliest export still holding its traces, if
    /// earlier than itself (that one logs the error counts, and every
    /// later holder inherits them, however many re-exports in).
    fn owner(&self, id: GlobalId) -> Option<GlobalId> {
        let export = &self.exports[&id];
        let mut holders = self.exports.iter();
        let first = holders.find(|(_, e)| e.traces.same_traces(&export.traces));
        first.map(|(owner, _)| *owner).filter(|owner| *owner < id)
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
        for subscription in self.subscribes.values_mut() {
            for traces in subscription.holds_mut() {
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
