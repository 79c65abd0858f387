//! The witness's look at a worker's dataflows and, on maintenance, its
//! publications, after each of its steps.
//!
//! A worker keeps no dataflow installed that nothing uses any more (counted
//! in the registry's `unused_dataflows`): a dropped index, an answered read
//! or a drained publication takes its dataflow out of timely in the step
//! that ends it, so it stops costing steps and memory at once.
//!
//! Two claims on publications, counted in `points_astray` when broken: a
//! published point presents exactly the batches and uppers of the traces it
//! publishes (a point behind its traces keeps superseded batches alive
//! beside the merged ones, so memory is held twice, and readers walk
//! unmerged batches); and a retired point that somebody still holds keeps
//! no batches and reads as sealed. The checks live outside the sharing
//! code they check, as the runner's witness does.

use std::rc::Rc;
use std::sync::{Arc, Weak};

use super::ComputeState;
use crate::arrangement::Chain;
use crate::sharing::{Counters, Point};

impl ComputeState {
    /// Maintenance: notes that `point` was retired, to check it while it
    /// lives.
    pub(super) fn retired(&mut self, point: &Arc<Point>) {
        self.retired.push(Arc::downgrade(point));
    }

    /// Counts the dataflows only this worker's list still holds: what
    /// `drop_unused_dataflows` should have removed already.
    pub(super) fn audit_dataflows(&self) {
        let unused = self.dataflows.iter().filter(|d| Rc::strong_count(d) == 1);
        for _ in unused {
            Counters::bump(&self.registry.counters.unused_dataflows);
        }
    }

    /// Checks every publication of this worker and every retired point
    /// still alive; forgets retired points nobody holds any more.
    pub(super) fn audit_publications(&mut self) {
        let astray = || Counters::bump(&self.registry.counters.points_astray);
        for publication in self.publications.values_mut() {
            let (oks, errs) = publication.traces.chains();
            let presented = publication.point.snapshot();
            if !same(&presented.oks, &oks) || !same(&presented.errs, &errs) {
                astray();
            }
        }
        self.retired.retain(|point| {
            let Some(point) = Weak::upgrade(point) else {
                return false;
            };
            let left = point.snapshot();
            let sealed = left.oks.upper.is_none() && left.errs.upper.is_none();
            if !sealed || !left.oks.batches.is_empty() || !left.errs.batches.is_empty() {
                astray();
            }
            true
        });
    }
}

/// Whether two chains are the same batches (by identity) with the same upper.
fn same<B>(a: &Chain<B>, b: &Chain<B>) -> bool {
    a.upper == b.upper
        && a.batches.len() == b.batches.len()
        && a.batches
            .iter()
            .zip(&b.batches)
            .all(|(x, y)| Arc::ptr_eq(&x.0, &y.0))
}
