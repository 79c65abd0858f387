//! Reading a point another runtime publishes: the import operator that
//! brings it into a dataflow, and the handle a fast-path peek reads.
//!
//! Both read the publisher's own batches through the point (no copy, no
//! merging of their own) and hold the point while they live: the hold is
//! released when the reader drops, so an import's hold lives and dies with
//! its dataflow.

use std::sync::Arc;

use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::Cursor;
use differential_dataflow::AsCollection;
use timely::dataflow::operators::generic::operator::source;
use timely::dataflow::Scope;

use crate::render::{Errs, Oks};
use crate::repr::{DataflowError, Diff, Row, Timestamp};
use crate::sharing::{Frontier, HoldKey, Point, Snapshot};

/// A reader's hold and wake-up registration on a point, undone on drop.
pub struct Reader {
    pub point: Arc<Point>,
    id: u64,
}

impl Reader {
    pub fn new(point: Arc<Point>, id: u64) -> Self {
        Reader { point, id }
    }

    /// Holds the point at `at`; returns where the hold sits (beyond `at`
    /// if the point had already compacted past it).
    pub fn hold(&self, at: Timestamp) -> Timestamp {
        self.point.hold(HoldKey::Reader(self.id), at)
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        #[cfg(not(mutation = "import_hold_leak"))]
        self.point.release(HoldKey::Reader(self.id));
        self.point.remove_reader(self.id);
    }
}

/// Imports the point as collections of rows and errors, from `as_of` until
/// the chain's upper reaches `until` (then it holds nothing any more).
///
/// Panics if the point has compacted past `as_of`, as the real system does
/// when a publication cannot serve a dataflow's `as_of`: the coordinator
/// never builds a dataflow below its inputs' sinces, so this is a bug.
pub fn import<'s>(
    scope: Scope<'s, Timestamp>,
    name: &str,
    reader: Reader,
    as_of: Timestamp,
    until: Frontier,
) -> (Oks<'s>, Errs<'s>) {
    let held = reader.hold(as_of);
    assert!(
        held == as_of,
        "{name}: the publication's since [{held}] is beyond the dataflow's as_of {as_of}"
    );
    let worker = scope.worker();
    let results = source(scope, name, move |mut capability, info| {
        reader
            .point
            .add_reader(reader.id, worker.sync_activator_for(info.address.to_vec()));
        capability.downgrade(&0);
        let mut capability = Some(capability);
        // Every update at a time before `seen` has been emitted.
        let mut seen: Frontier = Some(0);
        move |output| {
            let Some(cap) = capability.as_mut() else {
                return;
            };
            let snapshot = reader.point.snapshot();
            let upper = snapshot.upper();
            match upper {
                // Not yet complete at `as_of`: follow the upper, emit nothing.
                Some(u) if u <= as_of => {
                    if u > *cap.time() {
                        cap.downgrade(&u);
                    }
                    return;
                }
                _ if upper == seen => return,
                _ => {}
            }
            let lower = seen.expect("a sealed import stops");
            let mut session = output.session(&*cap);
            for_each_update(&snapshot, lower, upper, |result, time, diff| {
                session.give((result, time.max(as_of), diff))
            });
            drop(session);
            seen = upper;
            match upper.filter(|u| until.is_none_or(|until| *u < until)) {
                Some(u) => {
                    cap.downgrade(&u);
                    // Held one below what was read: compaction to the hold
                    // cannot move an emitted update to a time not yet read.
                    reader.hold(u - 1);
                }
                None => {
                    capability = None;
                    reader.point.release(HoldKey::Reader(reader.id));
                }
            }
        }
    })
    .as_collection();
    let oks = results
        .clone()
        .flat_map(|r: Result<Row, DataflowError>| r.ok());
    let errs = results.flat_map(|r| r.err());
    (oks, errs)
}

/// Calls `logic` on every update of both chains at a time in `[lower, upper)`.
fn for_each_update(
    snapshot: &Snapshot,
    lower: Timestamp,
    upper: Frontier,
    mut logic: impl FnMut(Result<Row, DataflowError>, Timestamp, Diff),
) {
    let in_range = |t: Timestamp| t >= lower && upper.is_none_or(|u| t < u);
    let (mut cursor, storage) = cursor_list(snapshot.oks.batches.clone());
    while cursor.key_valid(&storage) {
        while cursor.val_valid(&storage) {
            let row = cursor.val(&storage).clone();
            cursor.map_times(&storage, |t, r| {
                if in_range(*t) {
                    logic(Ok(row.clone()), *t, *r);
                }
            });
            cursor.step_val(&storage);
        }
        cursor.step_key(&storage);
    }
    let (mut cursor, storage) = cursor_list(snapshot.errs.batches.clone());
    while cursor.key_valid(&storage) {
        let err = cursor.key(&storage).clone();
        cursor.map_times(&storage, |t, r| {
            if in_range(*t) {
                logic(Err(err.clone()), *t, *r);
            }
        });
        cursor.step_key(&storage);
    }
}

/// A fast-path peek's view of a shared index: its own hold at the peek's
/// time, and the since it must refuse reads below.
pub struct SharedIndex {
    reader: Reader,
    since: Timestamp,
}

impl SharedIndex {
    /// `collection_since` is the peer's since for the index; the point's
    /// published since can only be lower, unless the point mixes up the
    /// frontiers of the collections sharing it.
    pub fn new(reader: Reader, collection_since: Timestamp, time: Timestamp) -> Self {
        let published = reader.point.since().unwrap_or(Timestamp::MAX);
        let held = reader.hold(time);
        SharedIndex {
            since: collection_since.max(published).max(held),
            reader,
        }
    }

    pub fn since(&self) -> Timestamp {
        self.since
    }

    pub fn snapshot(&self) -> Snapshot {
        self.reader.point.snapshot()
    }

    pub fn uppers(&self) -> (Frontier, Frontier) {
        let snapshot = self.snapshot();
        (snapshot.oks.upper, snapshot.errs.upper)
    }
}
