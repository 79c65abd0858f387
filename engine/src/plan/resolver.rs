//! What the planner needs to know about the catalog: the one interface
//! between the SQL front end and whoever holds the objects (the
//! coordinator's catalog; the planner tests' fixed one), and the kinds and
//! schemas of its objects.

use std::collections::{BTreeMap, BTreeSet};

use crate::repr::{Column, GlobalId};

/// A schema of the catalog, by id: `DEFAULT` is Materialize's default
/// database and schema, `materialize.public`, the one search path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SchemaId(pub u64);

impl SchemaId {
    pub const DEFAULT: SchemaId = SchemaId(0);
}

/// The kinds of catalog objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Table,
    View,
    MaterializedView,
    Index,
    /// A built-in introspection relation.
    Introspection,
}

impl ObjectKind {
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Table => "table",
            ObjectKind::View => "view",
            ObjectKind::MaterializedView => "materialized view",
            ObjectKind::Index => "index",
            ObjectKind::Introspection => "source",
        }
    }
}

/// Materialize's default database, the current one.
pub const DEFAULT_DATABASE: &str = "materialize";
/// Materialize's default schema, the search path.
pub const DEFAULT_SCHEMA: &str = "public";

/// The connection a one-off query runs on, as Materialize's unmaterializable
/// functions read it when it evaluates them before the query runs.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The acting role's name (`current_user`, `session_user`).
    pub user: String,
    /// Each role's name with the names of the roles it is a member of,
    /// itself among them (Materialize's `mz_role_oid_memberships`), where
    /// the engine answers `has_role` as this role.
    pub memberships: Option<BTreeMap<String, BTreeSet<String>>>,
}

/// What the planner needs to know about the catalog.
pub trait Resolver {
    /// Resolves a relation, index or view name: unqualified, exactly as
    /// given (an unquoted name was folded to lower case before), through
    /// the search path (the system relations, then `materialize.public`).
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)>;
    /// The connection, while a one-off query is planned; `None` elsewhere
    /// (a view's query is evaluated when it is read, not when it is made).
    fn session(&self) -> Option<&Session> {
        None
    }
    /// Resolves an item's name in one schema, which never holds a system
    /// relation.
    fn resolve_in(&self, schema: SchemaId, name: &str) -> Option<(GlobalId, ObjectKind)> {
        self.resolve(name)
            .filter(|(_, kind)| schema == SchemaId::DEFAULT && *kind != ObjectKind::Introspection)
    }
    /// The schema `schema` of `database` (the current one if `None`), or
    /// Materialize's error: `unknown database '...'`, `unknown schema '...'`.
    fn schema(&self, database: Option<&str>, schema: &str) -> Result<SchemaId, String> {
        if let Some(database) = database.filter(|d| *d != DEFAULT_DATABASE) {
            return Err(format!("unknown database '{database}'"));
        }
        match schema == DEFAULT_SCHEMA {
            true => Ok(SchemaId::DEFAULT),
            false => Err(format!("unknown schema '{schema}'")),
        }
    }
    /// Whether a database of this name exists.
    fn database_exists(&self, name: &str) -> bool {
        name == DEFAULT_DATABASE
    }
    /// Every database's name, in order.
    fn databases(&self) -> Vec<String> {
        vec![DEFAULT_DATABASE.to_string()]
    }
    /// The names of a schema's database and of the schema.
    fn schema_names(&self, _schema: SchemaId) -> (String, String) {
        (DEFAULT_DATABASE.to_string(), DEFAULT_SCHEMA.to_string())
    }
    /// Whether it is a catalog relation in which Materialize lists its own
    /// system objects too (`mz_tables`, ...), which the catalog lacks.
    fn lists_system_objects(&self, _id: GlobalId) -> bool {
        false
    }
    /// Whether it is one of Materialize's relations of `mz_catalog` that
    /// the engine has as Materialize does, which `mz_catalog.` may qualify.
    fn in_mz_catalog(&self, _id: GlobalId) -> bool {
        false
    }
    /// The schema an object lives in.
    fn schema_of(&self, _id: GlobalId) -> SchemaId {
        SchemaId::DEFAULT
    }
    /// The objects that live in a schema, by id.
    fn items_in(&self, _schema: SchemaId) -> Vec<GlobalId> {
        vec![]
    }
    /// The schemas of a database.
    fn schemas_in(&self, database: &str) -> Vec<SchemaId> {
        match database == DEFAULT_DATABASE {
            true => vec![SchemaId::DEFAULT],
            false => vec![],
        }
    }
    /// The columns of a relation (table, view or introspection relation).
    fn columns(&self, id: GlobalId) -> Option<Vec<Column>>;
    /// The name of an object, for default index names.
    fn name(&self, id: GlobalId) -> Option<String>;
    /// Whether a system variable (`sql::constraints`) is on.
    fn enabled(&self, _flag: &str) -> bool {
        false
    }
    /// The first object, by id, whose dependence on `id` refuses its drop
    /// without `CASCADE` (anything but an index): its kind and name.
    fn drop_dependent(&self, _id: GlobalId) -> Option<(ObjectKind, String)> {
        None
    }
    /// A relation's keys; `None` for a view over a table with keys, whose
    /// keys Materialize infers and the engine does not.
    fn keys(&self, _id: GlobalId) -> Option<Vec<Vec<usize>>> {
        Some(vec![])
    }
}

/// An object's name as Materialize's `minimal_qualification` writes it in
/// errors: bare when the search path finds it so, `schema.item` in the
/// current database, `database.schema.item` in another.
pub fn minimal_name(catalog: &dyn Resolver, id: GlobalId) -> Option<String> {
    let item = catalog.name(id)?;
    let (database, schema) = catalog.schema_names(catalog.schema_of(id));
    Some(
        match (database == DEFAULT_DATABASE, catalog.resolve(&item)) {
            (true, Some((found, _))) if found == id => item,
            (true, _) => format!("{schema}.{item}"),
            (false, _) => format!("{database}.{schema}.{item}"),
        },
    )
}

/// An object's full name, `database.schema.item`, as Materialize writes it
/// in `... already exists` and in the context of a view's errors.
pub fn full_name(catalog: &dyn Resolver, schema: SchemaId, item: &str) -> String {
    let (database, schema) = catalog.schema_names(schema);
    format!("{database}.{schema}.{item}")
}
