//! What a `DROP` takes with it: the named objects and, transitively,
//! everything that depends on them (`CASCADE`; without it the planner has
//! refused a drop that anything but an index depends on, so only the
//! indexes on the named relations go with them, as they always do).
//! Each is dropped as a drop of it alone would drop it: what reads a
//! dropped relation by name ends first, then each object leaves the
//! catalog and compute, dependents before what they depend on.

use std::collections::BTreeSet;

use super::Engine;
use crate::api::Outcome;
use crate::repr::GlobalId;

impl Engine {
    /// Drops `ids` and their dependents, as one statement.
    pub(super) fn drop_objects(&mut self, ids: &[GlobalId]) -> Outcome {
        // Materialize's `item_dependents` order: each object after all that
        // depend on it, dependents taken in id order.
        let mut seen = BTreeSet::new();
        let mut order = vec![];
        for &id in ids {
            self.catalog.dependents_first(id, &mut seen, &mut order);
        }
        // As in the real system, a read that names several of them ends
        // naming the first by id (its `depends_on` is ordered by id).
        let mut relations: Vec<(GlobalId, String)> = order
            .iter()
            .filter_map(|id| self.catalog.get(*id))
            .filter(|e| e.index().is_none())
            .map(|e| (e.id, e.name.clone()))
            .collect();
        relations.sort();
        for (id, name) in relations {
            self.end_reads_of(id, &name);
        }
        for id in order {
            self.forget(id);
        }
        self.settle();
        Outcome::Ok
    }
}
