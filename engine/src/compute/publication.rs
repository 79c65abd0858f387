//! A worker's side of sharing: what a maintenance worker publishes into the
//! registry, and the bundles an interactive worker holds on what it reads.

use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;

use timely::worker::Worker;

use super::{ComputeState, LiveDataflow};
use crate::arrangement::{batch_id, holds_exactly, IndexTraces};
use crate::mutation;
use crate::protocol::RuntimeRole;
use crate::repr::Frontier;
use crate::repr::{GlobalId, Timestamp};
use crate::sharing::{HoldKey, Point};

/// A maintenance worker's publication of one arrangement into a point.
pub(super) struct Publication {
    pub(super) point: Arc<Point>,
    /// The publisher's own handles: the point's hold on the traces.
    pub(super) traces: IndexTraces,
    /// The ids published through it on this worker that are still live.
    ids: BTreeSet<GlobalId>,
    /// The since last applied to `traces`.
    applied: Option<Frontier>,
    /// What was last published.
    published: Option<Published>,
    /// Set once its last id is dropped while imports still read the
    /// point: it goes on publishing, keeping the dataflow that maintains
    /// the traces alive, until the last import is gone. (In Solo an
    /// importing dataflow keeps that dataflow alive the same way.)
    draining: Option<Option<Rc<LiveDataflow>>>,
}

/// What a publication last published: its batches' identities and uppers.
struct Published {
    oks: Vec<usize>,
    errs: Vec<usize>,
    uppers: (Frontier, Frontier),
}

/// The interactive runtime's bundle for a collection maintenance publishes:
/// its hold on the point, downgraded as the controller allows compaction.
pub(super) struct Peer {
    pub(super) point: Arc<Point>,
    pub(super) since: Timestamp,
}

impl ComputeState {
    /// Maintenance: publishes re-export `export` as an alias of `target`'s
    /// point, or, if a reader already bound the alias's id, publishes the
    /// target's traces (new handles on them) under it, backing that reader's
    /// point in place.
    pub(super) fn publish_reexport(
        &mut self,
        export: GlobalId,
        target: GlobalId,
        traces: &IndexTraces,
        as_of: Timestamp,
    ) {
        if self.role != RuntimeRole::Maintenance {
            return;
        }
        let key = self.published_as[&target];
        let point = &self.publications[&key].point;
        match self
            .registry
            .publish_alias(export, target, point, self.worker, as_of)
        {
            Some(_) => {
                let publication = self.publications.get_mut(&key).expect("published");
                publication.ids.insert(export);
                self.published_as.insert(export, key);
            }
            None => self.publish_new(export, traces.clone(), as_of),
        }
    }

    /// Maintenance: publishes `traces` under `id` on this worker.
    pub(super) fn publish_new(&mut self, id: GlobalId, traces: IndexTraces, as_of: Timestamp) {
        if self.role != RuntimeRole::Maintenance {
            return;
        }
        let point = self.registry.publish(id, self.worker, as_of);
        self.publications.insert(
            id,
            Publication {
                point,
                traces,
                ids: BTreeSet::from([id]),
                applied: None,
                published: None,
                draining: None,
            },
        );
        self.published_as.insert(id, id);
    }

    /// Maintenance: `id` is dropped; its publication ends with its last
    /// id, or drains while imports still read it (`maintained_by` is the
    /// dataflow it then keeps alive).
    pub(super) fn unpublish(&mut self, id: GlobalId, maintained_by: Option<Rc<LiveDataflow>>) {
        let Some(key) = self.published_as.remove(&id) else {
            return;
        };
        self.registry.remove(id, self.worker);
        let publication = self.publications.get_mut(&key).expect("published");
        publication.point.forget(id);
        publication.ids.remove(&id);
        if publication.ids.is_empty() {
            if publication.point.has_imports() && !mutation::no_draining() {
                publication.draining = Some(maintained_by);
            } else {
                let publication = self.publications.remove(&key).expect("present");
                publication.point.retire();
                self.retired(&publication.point);
            }
        }
    }

    /// Maintenance, after every step: each publication's handles follow
    /// the point's since, then changed batches or uppers are published (so
    /// every point presents its traces as they are after the step); a
    /// draining publication nothing reads any more ends (`Publication::drained`).
    pub(super) fn publish(&mut self, worker: &mut Worker) -> bool {
        let drained: Vec<GlobalId> = self
            .publications
            .iter()
            .filter(|(_, p)| p.drained())
            .map(|(key, _)| *key)
            .collect();
        for key in &drained {
            let publication = self.publications.remove(key).expect("listed");
            publication.point.retire();
            self.retired(&publication.point);
        }
        if !drained.is_empty() {
            self.drop_unused_dataflows(worker);
        }
        let mut active = !drained.is_empty();
        for publication in self.publications.values_mut() {
            let since = publication.point.since();
            if publication.applied != Some(since) {
                publication.traces.compact_to(since);
                publication.applied = Some(since);
                active = true;
            }
        }
        // Only once every handle is compacted: compacting through one
        // publication's handles may merge batches of traces another
        // publication (a re-export's fallback) publishes too.
        for publication in self.publications.values_mut() {
            if publication.is_current() {
                continue;
            }
            let (oks, errs) = publication.traces.chains();
            publication.published = Some(Published {
                oks: oks.batches.iter().map(batch_id).collect(),
                errs: errs.batches.iter().map(batch_id).collect(),
                uppers: (oks.upper, errs.upper),
            });
            publication.point.update(oks, errs);
            active = true;
        }
        active
    }

    /// Interactive: takes over the hold `publish` reserved at `as_of` (or
    /// places it, if the reader comes first).
    pub(super) fn peer(&mut self, id: GlobalId, as_of: Timestamp) {
        let point = self.registry.get_or_create(id, self.worker);
        let since = point.hold(HoldKey::Peer(id), as_of);
        self.peers.insert(id, Peer { point, since });
    }

    /// Interactive: the collection is dropped; its hold goes with it.
    pub(super) fn drop_peer(&mut self, id: GlobalId) {
        if let Some(peer) = self.peers.remove(&id) {
            peer.point.release(HoldKey::Peer(id));
            self.registry.remove_placeholder(id, self.worker);
        }
    }
}

impl Publication {
    /// Whether a draining publication is done: no import reads its point,
    /// or nothing holds the point any more (each import that still reads
    /// it has read to its end: its `UP TO`, or the seal of a dropped table).
    /// A point held by nothing has the empty frontier as its since and can
    /// serve no read; going on would compact the handles to the empty
    /// frontier, which closes the traces, and then read them.
    fn drained(&self) -> bool {
        let held = self.point.since().is_some() || mutation::drain_past_empty_since();
        self.draining.is_some() && (!self.point.has_imports() || !held)
    }

    /// Whether the point still presents what the traces hold.
    fn is_current(&self) -> bool {
        self.published.as_ref().is_some_and(|p| {
            holds_exactly(&self.traces.oks, &p.oks, p.uppers.0)
                && holds_exactly(&self.traces.errs, &p.errs, p.uppers.1)
        })
    }
}
