//! The catalog: named tables, views and indexes, with ids in creation order.

use std::collections::BTreeMap;

use super::builtin::Relation;
use crate::plan::{self, ObjectKind, RelationPlan};
use crate::repr::{Column, GlobalId};

/// What an object is beyond its name and columns.
#[derive(Clone, Debug)]
pub enum Detail {
    Table,
    View { plan: RelationPlan },
    Index(IndexDetail),
}

#[derive(Clone, Debug)]
pub struct IndexDetail {
    pub on: GlobalId,
    pub key: Vec<usize>,
    /// Set when the index re-exports another index's arrangement.
    pub reexport_of: Option<GlobalId>,
    /// What its dataflow imports (tables or indexes).
    pub imports: Vec<GlobalId>,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub id: GlobalId,
    pub name: String,
    pub columns: Vec<Column>,
    pub detail: Detail,
}

impl Entry {
    pub fn kind(&self) -> ObjectKind {
        match self.detail {
            Detail::Table => ObjectKind::Table,
            Detail::View { .. } => ObjectKind::View,
            Detail::Index(_) => ObjectKind::Index,
        }
    }
    pub fn index(&self) -> Option<&IndexDetail> {
        match &self.detail {
            Detail::Index(detail) => Some(detail),
            _ => None,
        }
    }
}

#[derive(Default)]
pub struct Catalog {
    entries: BTreeMap<GlobalId, Entry>,
    next_id: u64,
}

impl Catalog {
    /// Allocates the next user id (`u1`, `u2`, ...).
    pub fn allocate_id(&mut self) -> GlobalId {
        self.next_id += 1;
        GlobalId(self.next_id)
    }

    pub fn insert(&mut self, entry: Entry) {
        self.entries.insert(entry.id, entry);
    }

    pub fn remove(&mut self, id: GlobalId) -> Option<Entry> {
        self.entries.remove(&id)
    }

    pub fn get(&self, id: GlobalId) -> Option<&Entry> {
        self.entries.get(&id)
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// Indexes on `relation`, lowest id first.
    pub fn indexes_on(&self, relation: GlobalId) -> impl Iterator<Item = (&Entry, &IndexDetail)> {
        self.entries
            .values()
            .filter_map(move |e| e.index().filter(|d| d.on == relation).map(|d| (e, d)))
    }

    /// Objects that depend on `id`: views reading it, indexes on it or importing it.
    pub fn dependents(&self, id: GlobalId) -> Vec<&Entry> {
        self.entries
            .values()
            .filter(|e| match &e.detail {
                Detail::Table => false,
                Detail::View { plan } => plan.reads_any(&|g| g == id),
                Detail::Index(d) => {
                    d.on == id || d.imports.contains(&id) || d.reexport_of == Some(id)
                }
            })
            .collect()
    }
}

impl plan::Resolver for Catalog {
    /// A name is looked up as it is: the planner folded an unquoted one to
    /// lower case, and a quoted one keeps its case (`"A"` is not `a`).
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)> {
        if let Some(relation) = Relation::by_name(name) {
            return Some((relation.id(), ObjectKind::Introspection));
        }
        self.entries
            .values()
            .find(|e| e.name == name)
            .map(|e| (e.id, e.kind()))
    }

    fn columns(&self, id: GlobalId) -> Option<Vec<Column>> {
        if let Some(relation) = Relation::by_id(id) {
            return Some(relation.columns());
        }
        self.entries.get(&id).map(|e| e.columns.clone())
    }

    fn name(&self, id: GlobalId) -> Option<String> {
        if let Some(relation) = Relation::by_id(id) {
            return Some(relation.name().to_string());
        }
        self.entries.get(&id).map(|e| e.name.clone())
    }
}
