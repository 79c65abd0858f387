//! What a `DROP` takes with it: the named objects and, transitively,
//! everything that depends on them (`CASCADE`; without it the planner has
//! refused a drop that anything but an index depends on, so only the
//! indexes on the named relations go with them, as they always do).
//! Each is dropped as a drop of it alone would drop it: what reads a
//! dropped relation by name ends first, then each object leaves the
//! catalog and compute, dependents before what they depend on.
//! A `DROP SCHEMA` or `DROP DATABASE` drops every object in them so.

use std::collections::BTreeSet;

use super::Engine;
use crate::api::Outcome;
use crate::plan::{self, SchemaId};
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
            .map(|e| {
                (
                    e.id,
                    crate::plan::full_name(&self.catalog, e.schema, &e.name),
                )
            })
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

    /// `DROP SCHEMA` and `DROP DATABASE`: every object of the schemas goes,
    /// with what depends on it, as a `DROP ... CASCADE` of them all; then
    /// the schemas and the databases.
    pub(super) fn drop_schemas(&mut self, schemas: &[SchemaId], databases: &[String]) -> Outcome {
        let ids: Vec<GlobalId> = schemas
            .iter()
            .flat_map(|s| plan::Resolver::items_in(&self.catalog, *s))
            .collect();
        if !ids.is_empty() {
            let dropped = self.drop_objects(&ids);
            debug_assert!(matches!(dropped, Outcome::Ok), "{dropped:?}");
        }
        for schema in schemas {
            self.catalog.namespaces.drop_schema(*schema);
        }
        for database in databases {
            self.catalog.namespaces.drop_database(database);
        }
        Outcome::Ok
    }
}
