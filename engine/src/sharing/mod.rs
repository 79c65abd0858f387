//! The per-process sharing registry: publication points per (id, worker)
//! through which the maintenance runtime hands the arrangements of its
//! indexes and tables to the interactive runtime.
//!
//! A point holds the publisher's current batches (behind `Arc`, never
//! copied), their uppers, the writer's compaction notes per collection and
//! the readers' holds per collection and per reader. The publisher (on a
//! maintenance worker) sets its own trace handle to the point's published
//! since, so a reader's hold is a real hold on the trace; readers are woken
//! through `SyncActivator`s when the point changes.
//!
//! `import` holds the operator through which a dataflow reads a point.

pub mod import;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use timely::scheduling::SyncActivator;

use crate::arrangement::Chain;
use crate::mutation;
use crate::repr::{meet, Frontier};
use crate::repr::{GlobalId, Timestamp};
use crate::typedefs::{ErrsBatch, OksBatch};

/// Who holds a point back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HoldKey {
    /// The peer runtime's hold on a collection: reserved by `publish` at the
    /// index's `as_of`, taken over by the peer's bundle, which downgrades it
    /// as the controller allows compaction.
    Peer(GlobalId),
    /// One reader (an import or a peek), released when the reader drops.
    Reader(u64),
}

/// What a reader sees of a point at one moment.
pub struct Snapshot {
    pub oks: Chain<OksBatch>,
    pub errs: Chain<ErrsBatch>,
}

/// A publication point: one collection's arrangement on one worker, or an
/// unbacked placeholder a reader created first.
#[derive(Default)]
pub struct Point {
    state: Mutex<PointState>,
    /// The registry's count of changes, bumped by every change to the point.
    changes: Arc<AtomicU64>,
}

#[derive(Default)]
struct PointState {
    /// The id whose publisher backs the point; `None` for a placeholder.
    target: Option<GlobalId>,
    /// Whether the target collection is still live (not dropped).
    target_live: bool,
    oks: Chain<OksBatch>,
    errs: Chain<ErrsBatch>,
    /// The writer's compaction frontier per collection that reads this point.
    notes: BTreeMap<GlobalId, Timestamp>,
    holds: BTreeMap<HoldKey, Timestamp>,
    /// Activators of the import operators reading the point.
    readers: BTreeMap<u64, SyncActivator>,
}

impl PointState {
    /// The notes that govern: the target's while it lives, else the meet of
    /// the remaining aliases'.
    fn governing(&self) -> Frontier {
        if self.target_live {
            if let Some(target) = self.target {
                return self.notes.get(&target).copied();
            }
        }
        self.notes.values().copied().min()
    }

    fn since(&self) -> Frontier {
        let holds = self.holds.values().copied().min();
        meet(self.governing(), holds)
    }

    /// The key a hold is kept under: its own.
    ///
    /// Not mutated by `.ci/mutants-sharing`: the identity in every build but
    /// the mutation `point-frontiers`, whose seeded bug `.ci/mutations` checks.
    #[mutants::skip]
    fn key(&self, key: HoldKey) -> HoldKey {
        match (key, self.target) {
            // The bug the seeds found: one standing hold per point, joined
            // across the collections that share it.
            (HoldKey::Peer(_), Some(target)) if mutation::point_frontiers() => {
                HoldKey::Peer(target)
            }
            _ => key,
        }
    }
}

impl Point {
    fn lock(&self) -> MutexGuard<'_, PointState> {
        self.state.lock().expect("point lock")
    }

    /// The state, to change it: counted as a change of the registry.
    fn change(&self) -> MutexGuard<'_, PointState> {
        self.changes.fetch_add(1, Ordering::Relaxed);
        self.lock()
    }

    /// Whether a publisher backs the point.
    pub fn is_backed(&self) -> bool {
        self.lock().target.is_some()
    }

    /// The since the point serves reads at: the meet of the governing notes
    /// and every hold.
    pub fn since(&self) -> Frontier {
        self.lock().since()
    }

    /// The oks and errs uppers, without touching the batches.
    pub fn uppers(&self) -> (Frontier, Frontier) {
        let state = self.lock();
        (state.oks.upper, state.errs.upper)
    }

    pub fn snapshot(&self) -> Snapshot {
        let state = self.lock();
        Snapshot {
            oks: state.oks.clone(),
            errs: state.errs.clone(),
        }
    }

    /// Places (or moves forward) a hold, never below the published since:
    /// what has been compacted away cannot be held. Returns where it sits.
    pub fn hold(&self, key: HoldKey, at: Timestamp) -> Timestamp {
        let mut state = self.change();
        let key = state.key(key);
        let floor = state.since().unwrap_or(at);
        let current = state.holds.get(&key).copied();
        let at = at.max(floor).max(current.unwrap_or(at));
        state.holds.insert(key, at);
        at
    }

    /// Places `key` at `at` unless it is already placed.
    fn reserve(state: &mut PointState, key: HoldKey, at: Timestamp) {
        let key = state.key(key);
        state.holds.entry(key).or_insert(at);
    }

    pub fn release(&self, key: HoldKey) {
        let mut state = self.change();
        let key = state.key(key);
        state.holds.remove(&key);
    }

    /// Notes the writer's compaction frontier of collection `id`.
    pub fn note(&self, id: GlobalId, since: Timestamp) {
        let mut state = self.change();
        // The bug the seeds found: one writer frontier per point, and the
        // last collection the controller noted wins.
        if let (true, Some(target)) = (mutation::point_frontiers(), state.target) {
            state.notes.insert(target, since);
            return;
        }
        let note = state.notes.entry(id).or_insert(since);
        *note = (*note).max(since);
    }

    /// Forgets collection `id`: its notes stop counting; if it was the
    /// target, the aliases' meet governs from now on.
    pub fn forget(&self, id: GlobalId) {
        let mut state = self.change();
        state.notes.remove(&id);
        if state.target == Some(id) {
            state.target_live = false;
        }
    }

    pub fn add_reader(&self, reader: u64, activator: SyncActivator) {
        self.change().readers.insert(reader, activator);
    }

    pub fn remove_reader(&self, reader: u64) {
        self.change().readers.remove(&reader);
    }

    /// Whether an import operator still reads the point.
    pub fn has_imports(&self) -> bool {
        !self.lock().readers.is_empty()
    }

    /// The publisher's side: replaces the chains and wakes every reader.
    pub fn update(&self, oks: Chain<OksBatch>, errs: Chain<ErrsBatch>) {
        let mut state = self.change();
        state.oks = oks;
        state.errs = errs;
        for activator in state.readers.values() {
            // A reader whose worker is gone has nothing left to wake.
            let _ = activator.activate();
        }
    }

    /// The publisher is gone: its batches are released, and the point
    /// reads as sealed (an empty upper) so no reader waits on it.
    pub fn retire(&self) {
        let mut state = self.change();
        state.oks = Chain {
            batches: Vec::new(),
            upper: None,
        };
        state.errs = Chain {
            batches: Vec::new(),
            upper: None,
        };
        for activator in state.readers.values() {
            let _ = activator.activate();
        }
    }
}

/// Counts that prove which configuration served the reads.
#[derive(Default)]
pub struct Counters {
    pub shared_reads: AtomicU64,
    pub local_reads: AtomicU64,
    pub published: AtomicU64,
    /// Points a maintenance worker found, after one of its steps, not
    /// presenting its traces' batches, or still holding batches once
    /// retired (the witness's check, `compute/audit.rs`).
    pub points_astray: AtomicU64,
    /// Dataflows a worker found, after one of its steps, still installed
    /// though nothing uses them (`compute/audit.rs`), in any configuration.
    pub unused_dataflows: AtomicU64,
}

impl Counters {
    pub fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// The registry: slots by (id, worker), and where aliases were established.
#[derive(Default)]
pub struct Registry {
    slots: Mutex<BTreeMap<(GlobalId, usize), Arc<Point>>>,
    /// alias (id, worker) -> target, exactly where `publish_alias` aliased.
    aliases: Mutex<BTreeMap<(GlobalId, usize), GlobalId>>,
    next_reader: AtomicU64,
    /// Changes to the registry and its points: a step that changed nothing
    /// here cannot have given the other runtime work (`changes`).
    changes: Arc<AtomicU64>,
    pub counters: Counters,
}

impl Registry {
    fn slots(&self) -> MutexGuard<'_, BTreeMap<(GlobalId, usize), Arc<Point>>> {
        self.slots.lock().expect("registry lock")
    }

    /// How many changes the registry and its points have seen: what one
    /// runtime can tell the other goes through here, so a step that leaves
    /// this count as it was gave no unit of another runtime work.
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }

    fn changed(&self) {
        self.changes.fetch_add(1, Ordering::Relaxed);
    }

    /// The point of (id, worker); whoever comes first creates it, a reader
    /// as an unbacked placeholder.
    pub fn get_or_create(&self, id: GlobalId, worker: usize) -> Arc<Point> {
        let mut slots = self.slots();
        let point = slots.entry((id, worker)).or_insert_with(|| {
            self.changed();
            Arc::new(Point {
                changes: Arc::clone(&self.changes),
                ..Point::default()
            })
        });
        Arc::clone(point)
    }

    /// Backs the point of (id, worker) in place (a reader already bound to
    /// a placeholder sees the data), seeds the writer's note at `as_of`, and
    /// reserves the peer's hold at `as_of` before any compaction applies.
    pub fn publish(&self, id: GlobalId, worker: usize, as_of: Timestamp) -> Arc<Point> {
        let point = self.get_or_create(id, worker);
        {
            let mut state = point.change();
            state.target = Some(id);
            state.target_live = true;
            state.notes.insert(id, as_of);
            if !mutation::no_reserved_hold() {
                Point::reserve(&mut state, HoldKey::Peer(id), as_of);
            }
        }
        Counters::bump(&self.counters.published);
        point
    }

    /// Publishes `alias` as another name for `target`'s point on `worker`,
    /// only if nobody holds the alias's slot yet. `None`: a reader already
    /// bound its own point, and the caller must publish into that instead.
    pub fn publish_alias(
        &self,
        alias: GlobalId,
        target: GlobalId,
        point: &Arc<Point>,
        worker: usize,
        as_of: Timestamp,
    ) -> Option<Arc<Point>> {
        let mut slots = self.slots();
        let point = Arc::clone(point);
        if !mutation::alias_overwrites() && slots.contains_key(&(alias, worker)) {
            return None;
        }
        slots.insert((alias, worker), Arc::clone(&point));
        drop(slots);
        self.changed();
        self.aliases
            .lock()
            .expect("alias lock")
            .insert((alias, worker), target);
        {
            let mut state = point.change();
            state.notes.insert(alias, as_of);
            Point::reserve(&mut state, HoldKey::Peer(alias), as_of);
        }
        Counters::bump(&self.counters.published);
        Some(point)
    }

    /// The point the writer's notes for (id, worker) go to.
    pub fn noted_point(&self, id: GlobalId, worker: usize) -> Option<Arc<Point>> {
        if mutation::process_wide_alias() {
            if let Some(target) = self.alias_target_on_any_worker(id) {
                return self.slots().get(&(target, worker)).cloned();
            }
        }
        self.slots().get(&(id, worker)).cloned()
    }

    /// The bug the seeds found: the alias relation looked up without the
    /// worker, so a worker that fell back notes the target instead.
    ///
    /// Not mutated by `.ci/mutants-sharing`: called only in the
    /// `process-wide-alias` mutation, which `.ci/mutations` checks.
    #[mutants::skip]
    fn alias_target_on_any_worker(&self, id: GlobalId) -> Option<GlobalId> {
        self.aliases
            .lock()
            .expect("alias lock")
            .iter()
            .find(|((alias, _), _)| *alias == id)
            .map(|(_, target)| *target)
    }

    /// Whether (id, worker) was established as an alias.
    #[cfg(test)]
    pub fn is_alias(&self, id: GlobalId, worker: usize) -> bool {
        self.aliases
            .lock()
            .expect("alias lock")
            .contains_key(&(id, worker))
    }

    /// The ids that still have a slot on some worker: once every runtime
    /// has applied a drop, none of them may be a dropped collection's (the
    /// runner's witness checks it; a leaked slot keeps its point alive).
    ///
    /// Not mutated by `.ci/mutants-sharing`: a probe for the witness, and
    /// on a registry that leaks nothing, any answer without a dropped id
    /// (an empty one, say) reads the same.
    #[mutants::skip]
    pub fn slot_ids(&self) -> BTreeSet<GlobalId> {
        self.slots().keys().map(|(id, _)| *id).collect()
    }

    /// Removes the slot (id, worker); points stay alive while anyone holds them.
    pub fn remove(&self, id: GlobalId, worker: usize) {
        self.changed();
        self.slots().remove(&(id, worker));
        self.aliases
            .lock()
            .expect("alias lock")
            .remove(&(id, worker));
    }

    /// Removes the slot (id, worker) if nobody ever published into it: a
    /// reader's placeholder for a collection dropped before it was published.
    pub fn remove_placeholder(&self, id: GlobalId, worker: usize) {
        let mut slots = self.slots();
        if slots.get(&(id, worker)).is_some_and(|p| !p.is_backed()) {
            self.changed();
            slots.remove(&(id, worker));
        }
    }

    /// A fresh reader id (for holds and activators).
    pub fn reader_id(&self) -> u64 {
        self.next_reader.fetch_add(1, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_is_backed_in_place() {
        let registry = Registry::default();
        let reader = registry.get_or_create(GlobalId(1), 0);
        assert!(!reader.is_backed());
        let published = registry.publish(GlobalId(1), 0, 3);
        assert!(Arc::ptr_eq(&reader, &published));
        assert!(reader.is_backed());
        assert_eq!(reader.since(), Some(3));
    }

    #[test]
    fn alias_refused_once_a_reader_holds_its_own_point() {
        let registry = Registry::default();
        registry.publish(GlobalId(1), 0, 0);
        registry.publish(GlobalId(1), 1, 0);
        let early = registry.get_or_create(GlobalId(2), 1);
        let target0 = registry.get_or_create(GlobalId(1), 0);
        let target1 = registry.get_or_create(GlobalId(1), 1);
        let aliased = registry.publish_alias(GlobalId(2), GlobalId(1), &target0, 0, 0);
        assert!(aliased.is_some());
        assert!(registry.is_alias(GlobalId(2), 0));
        assert!(registry
            .publish_alias(GlobalId(2), GlobalId(1), &target1, 1, 0)
            .is_none());
        assert!(!registry.is_alias(GlobalId(2), 1));
        assert!(Arc::ptr_eq(&early, &registry.get_or_create(GlobalId(2), 1)));
    }

    #[test]
    fn frontiers_follow_the_target_then_the_aliases_meet() {
        let registry = Registry::default();
        let point = registry.publish(GlobalId(1), 0, 0);
        registry.publish_alias(GlobalId(2), GlobalId(1), &point, 0, 0);
        registry.publish_alias(GlobalId(3), GlobalId(1), &point, 0, 0);
        point.release(HoldKey::Peer(GlobalId(1)));
        point.release(HoldKey::Peer(GlobalId(2)));
        point.release(HoldKey::Peer(GlobalId(3)));
        point.note(GlobalId(1), 2);
        point.note(GlobalId(2), 5);
        point.note(GlobalId(3), 4);
        assert_eq!(point.since(), Some(2), "the target governs while it lives");
        point.forget(GlobalId(1));
        assert_eq!(point.since(), Some(4), "then the aliases' meet");
    }

    /// Publish first or peer first, the peer ends up with one hold at
    /// `as_of`, which it alone moves.
    #[test]
    fn the_reserved_hold_in_both_orders() {
        for publish_first in [true, false] {
            let registry = Registry::default();
            let id = GlobalId(1);
            let peer = |registry: &Registry| {
                let point = registry.get_or_create(id, 0);
                point.hold(HoldKey::Peer(id), 2);
                point
            };
            let point = if publish_first {
                let point = registry.publish(id, 0, 2);
                point.note(id, 5);
                assert_eq!(point.since(), Some(2), "reserved before the peer came");
                peer(&registry)
            } else {
                let point = peer(&registry);
                registry.publish(id, 0, 2);
                point.note(id, 5);
                point
            };
            assert_eq!(point.since(), Some(2));
            point.hold(HoldKey::Peer(id), 4);
            assert_eq!(point.since(), Some(4), "publish_first={publish_first}");
            point.release(HoldKey::Peer(id));
            assert_eq!(point.since(), Some(5));
        }
    }

    #[test]
    fn holds_are_per_key_and_never_below_the_since() {
        let registry = Registry::default();
        let point = registry.publish(GlobalId(1), 0, 2);
        point.note(GlobalId(1), 6);
        assert_eq!(point.since(), Some(2), "the reserved hold keeps as_of");
        assert_eq!(point.hold(HoldKey::Reader(7), 1), 2);
        point.hold(HoldKey::Peer(GlobalId(1)), 6);
        assert_eq!(point.since(), Some(2), "the reader still holds");
        point.release(HoldKey::Reader(7));
        assert_eq!(point.since(), Some(6));
    }
}
