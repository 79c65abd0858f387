//! The catalog: named tables, views and indexes, with ids in creation order.

use std::collections::{BTreeMap, BTreeSet};

use super::builtin::Relation;
use super::namespaces::Namespaces;
use crate::plan::{self, ObjectKind, RelationPlan, SchemaId};
use crate::recursion::grown;
use crate::repr::{Column, GlobalId};

/// What an object is beyond its name and columns.
#[derive(Clone, Debug)]
pub enum Detail {
    /// A table, with its keys (`sql::constraints`).
    Table {
        keys: Vec<Vec<usize>>,
    },
    View {
        plan: RelationPlan,
    },
    /// A materialized view: its definition, and its export, kept as an
    /// index's is (`on` itself, keyed by every column): the stand-in for
    /// Materialize's persist shard (`coordinator::materialized`).
    MaterializedView {
        plan: RelationPlan,
        export: IndexDetail,
    },
    Index(IndexDetail),
}

#[derive(Clone, Debug)]
pub struct IndexDetail {
    pub on: GlobalId,
    pub key: Vec<usize>,
    /// What its dataflow imports (tables or indexes; a re-export: the
    /// index it re-exports).
    pub imports: Vec<GlobalId>,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub id: GlobalId,
    pub name: String,
    /// The schema it lives in (`namespaces`).
    pub schema: SchemaId,
    pub columns: Vec<Column>,
    pub detail: Detail,
}

impl Entry {
    pub fn kind(&self) -> ObjectKind {
        match self.detail {
            Detail::Table { .. } => ObjectKind::Table,
            Detail::View { .. } => ObjectKind::View,
            Detail::MaterializedView { .. } => ObjectKind::MaterializedView,
            Detail::Index(_) => ObjectKind::Index,
        }
    }
    /// What a compute export keeps: an index's or a materialized view's.
    pub fn export(&self) -> Option<&IndexDetail> {
        match &self.detail {
            Detail::Index(detail) | Detail::MaterializedView { export: detail, .. } => Some(detail),
            _ => None,
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
    /// The system variables that are on (`coordinator::system`).
    pub enabled: BTreeSet<&'static str>,
    /// The databases and schemas.
    pub namespaces: Namespaces,
    /// The connection, while a one-off query is planned.
    pub session: Option<plan::Session>,
    /// The acting connection's database and search path, while a statement
    /// is planned (`sql::Vars::path`).
    pub path: plan::Path,
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

    /// The first object, in id order, that refuses a drop of `id`, as
    /// Materialize's dependency rule has it: any object that depends on
    /// it but an index (here: a view or materialized view that reads it).
    /// An index never refuses a drop; one on `id` goes with it
    /// (`indexes_on`), and one that imports `id` is on a view that reads it.
    pub fn blocks_drop(&self, id: GlobalId) -> Option<&Entry> {
        self.entries.values().find(|e| match &e.detail {
            Detail::Table { .. } | Detail::Index(_) => false,
            Detail::View { plan } | Detail::MaterializedView { plan, .. } => {
                plan.reads_any(&|g| g == id)
            }
        })
    }

    /// `id` and, transitively, what depends on it, each after all that
    /// depend on it, appended to `order` unless `seen`: Materialize's
    /// `item_dependents`, whose `used_by` is in creation (here id) order.
    /// What depends on an object: the indexes on it, and the views and
    /// materialized views that read it.
    pub fn dependents_first(
        &self,
        id: GlobalId,
        seen: &mut BTreeSet<GlobalId>,
        order: &mut Vec<GlobalId>,
    ) {
        if !seen.insert(id) {
            return;
        }
        let used_by: Vec<GlobalId> = self
            .entries
            .values()
            .filter(|e| match &e.detail {
                Detail::Table { .. } => false,
                Detail::Index(index) => index.on == id,
                Detail::View { plan } | Detail::MaterializedView { plan, .. } => {
                    plan.reads_any(&|g| g == id)
                }
            })
            .map(|e| e.id)
            .collect();
        for dependent in used_by {
            grown(|| self.dependents_first(dependent, seen, order));
        }
        order.push(id);
    }
}

impl plan::Resolver for Catalog {
    fn session(&self) -> Option<&plan::Session> {
        self.session.as_ref()
    }

    /// A name is looked up as it is: the planner folded an unquoted one to
    /// lower case, and a quoted one keeps its case (`"A"` is not `a`).
    /// The search path: the system relations (Materialize's `mz_catalog`
    /// and `pg_catalog` come first unless the path names them, which
    /// `sql::vars` refuses after another schema), then each schema of the
    /// path that exists.
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)> {
        if let Some(relation) = Relation::by_name(name) {
            return Some((relation.id(), ObjectKind::Introspection));
        }
        let schemas = plan::search_schemas(self);
        schemas.into_iter().find_map(|s| self.resolve_in(s, name))
    }

    fn path(&self) -> plan::Path {
        self.path.clone()
    }

    fn resolve_in(&self, schema: SchemaId, name: &str) -> Option<(GlobalId, ObjectKind)> {
        self.entries
            .values()
            .find(|e| e.schema == schema && e.name == name)
            .map(|e| (e.id, e.kind()))
    }

    /// Without a database, the current one; when that does not exist,
    /// Materialize's `resolve_schema` looks only among its system schemas
    /// (`sql::names`), so a user schema is unknown.
    fn schema(&self, database: Option<&str>, schema: &str) -> Result<SchemaId, String> {
        match database {
            Some(database) => self.namespaces.schema(database, schema),
            None if self.namespaces.database_exists(&self.path.database) => {
                self.namespaces.schema(&self.path.database, schema)
            }
            None => Err(format!("unknown schema '{schema}'")),
        }
    }

    fn database_exists(&self, name: &str) -> bool {
        self.namespaces.database_exists(name)
    }

    fn databases(&self) -> Vec<String> {
        self.namespaces.databases().map(str::to_string).collect()
    }

    fn schema_names(&self, schema: SchemaId) -> (String, String) {
        self.namespaces.names(schema)
    }

    fn lists_system_objects(&self, id: GlobalId) -> bool {
        Relation::by_id(id).is_some_and(Relation::lists_system_objects)
    }

    fn in_mz_catalog(&self, id: GlobalId) -> bool {
        Relation::by_id(id).is_some_and(Relation::is_catalog)
    }

    fn schema_of(&self, id: GlobalId) -> SchemaId {
        self.entries
            .get(&id)
            .map_or(SchemaId::DEFAULT, |e| e.schema)
    }

    fn items_in(&self, schema: SchemaId) -> Vec<GlobalId> {
        let entries = self.entries.values();
        entries
            .filter(|e| e.schema == schema)
            .map(|e| e.id)
            .collect()
    }

    fn schemas_in(&self, database: &str) -> Vec<SchemaId> {
        self.namespaces.schemas_in(database)
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

    fn drop_dependent(&self, id: GlobalId) -> Option<(ObjectKind, String)> {
        let e = self.blocks_drop(id)?;
        Some((e.kind(), plan::minimal_name(self, e.id)?))
    }

    fn enabled(&self, flag: &str) -> bool {
        self.enabled.contains(flag)
    }

    fn keys(&self, id: GlobalId) -> Option<Vec<Vec<usize>>> {
        match self.entries.get(&id).map(|e| &e.detail) {
            Some(Detail::Table { keys }) => Some(keys.clone()),
            Some(Detail::View { plan } | Detail::MaterializedView { plan, .. })
                if plan.reads_any(&|g| self.keys(g) != Some(vec![])) =>
            {
                None
            }
            _ => Some(vec![]),
        }
    }
}
