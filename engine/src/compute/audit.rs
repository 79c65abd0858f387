//! The witness's look at a maintenance worker's publications, after each
//! of its steps.
//!
//! Two claims, counted in the registry's `points_astray` when broken: a
//! published point presents exactly the batches and uppers of the traces it
//! publishes (a point behind its traces keeps superseded batches alive
//! beside the merged ones, so memory is held twice, and readers walk
//! unmerged batches); and a retired point that somebody still holds keeps
//! no batches and reads as sealed. The checks live outside the sharing
//! code they check, as the runner's witness does.

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
