//! What the planner needs to know about the catalog: the one interface
//! between the SQL front end and whoever holds the objects (the
//! coordinator's catalog; the planner tests' fixed one), and the kinds and
//! schemas of its objects.

use std::collections::{BTreeMap, BTreeSet};

use crate::repr::{unsupported, Column, GlobalId};

/// A schema of the catalog, by id: `DEFAULT` is Materialize's default
/// database and schema, `materialize.public`.
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

/// Materialize's default database, the current one until `SET database`.
pub const DEFAULT_DATABASE: &str = "materialize";
/// Materialize's default schema, the search path until `SET search_path`.
pub const DEFAULT_SCHEMA: &str = "public";

/// The connection's variables `database` and `search_path`, as names:
/// the database need not exist, nor the schemas, which Materialize's
/// `resolve_search_path` skips when they do not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub database: String,
    pub schemas: Vec<String>,
}

impl Default for Path {
    fn default() -> Path {
        Path {
            database: DEFAULT_DATABASE.to_string(),
            schemas: vec![DEFAULT_SCHEMA.to_string()],
        }
    }
}

/// The connection a one-off query runs on, as Materialize's unmaterializable
/// functions read it when it evaluates them before the query runs.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The acting role's name (`current_user`, `session_user`).
    pub user: String,
    /// The current database's name, which need not exist
    /// (`current_database`).
    pub database: String,
    /// The search path's schemas that exist, in order
    /// (`current_schemas(false)`; the first is `current_schema`).
    pub schemas: Vec<String>,
    /// Each role's name with the names of the roles it is a member of,
    /// itself among them (Materialize's `mz_role_oid_memberships`), where
    /// the engine answers `has_role` as this role.
    pub memberships: Option<BTreeMap<String, BTreeSet<String>>>,
}

/// What the planner needs to know about the catalog.
pub trait Resolver {
    /// Resolves a relation, index or view name: unqualified, exactly as
    /// given (an unquoted name was folded to lower case before), through
    /// the search path (the system relations, then each schema of `path`
    /// that exists, in order).
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)>;
    /// The connection's current database and search path.
    fn path(&self) -> Path {
        Path::default()
    }
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

/// Materialize's schemas that live in no database (its `ambient` ones),
/// which a name may give with or without a database.
const SYSTEM_SCHEMAS: [&str; 8] = [
    "information_schema",
    "mz_catalog",
    "mz_catalog_unstable",
    "mz_internal",
    "mz_introspection",
    "mz_temp",
    "mz_unsafe",
    "pg_catalog",
];

/// Whether `schema` is one of Materialize's system schemas.
pub fn system_schema(schema: &str) -> bool {
    SYSTEM_SCHEMAS.contains(&schema)
}

/// A schema of the search path that exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSchema {
    User(SchemaId),
    /// One of Materialize's system schemas, by name: the engine has their
    /// relations, found before any user schema, but not the schemas.
    System(String),
}

/// The schemas of the search path that exist, in order (a name twice is
/// there twice), as Materialize's `resolve_search_path` finds them: each
/// in the current database, else among its system schemas.
pub fn path_schemas(catalog: &dyn Resolver) -> Vec<PathSchema> {
    let path = catalog.path();
    let exists = catalog.database_exists(&path.database);
    let schemas = path.schemas.iter();
    schemas
        .filter_map(|s| match catalog.schema(Some(&path.database), s) {
            Ok(id) if exists => Some(PathSchema::User(id)),
            _ => system_schema(s).then(|| PathSchema::System(s.clone())),
        })
        .collect()
}

/// The user schemas of the search path that exist, in order.
pub fn search_schemas(catalog: &dyn Resolver) -> Vec<SchemaId> {
    let schemas = path_schemas(catalog).into_iter();
    schemas
        .filter_map(|s| match s {
            PathSchema::User(id) => Some(id),
            PathSchema::System(_) => None,
        })
        .collect()
}

/// The schema an unqualified new object is created in, the first of the
/// search path that exists, or Materialize's `InvalidSchemaName`; a system
/// schema, which the engine does not have, is refused by name.
pub fn current_schema(catalog: &dyn Resolver) -> Result<SchemaId, String> {
    match path_schemas(catalog).into_iter().next() {
        Some(PathSchema::User(id)) => Ok(id),
        Some(PathSchema::System(s)) => Err(unsupported(format!(
            "system schema {s} as the current schema"
        ))),
        None => Err("no valid schema selected".to_string()),
    }
}

/// An object's name as Materialize's `minimal_qualification` writes it in
/// errors: bare when the search path finds it so, `schema.item` in the
/// current database, `database.schema.item` in another (the search path
/// finds nothing bare there).
pub fn minimal_name(catalog: &dyn Resolver, id: GlobalId) -> Option<String> {
    let item = catalog.name(id)?;
    if catalog.resolve(&item).is_some_and(|(found, _)| found == id) {
        return Some(item);
    }
    let (database, schema) = catalog.schema_names(catalog.schema_of(id));
    Some(match database == catalog.path().database {
        true => format!("{schema}.{item}"),
        false => format!("{database}.{schema}.{item}"),
    })
}

/// An object's full name, `database.schema.item`, as Materialize writes it
/// in `... already exists` and in the context of a view's errors.
pub fn full_name(catalog: &dyn Resolver, schema: SchemaId, item: &str) -> String {
    let (database, schema) = catalog.schema_names(schema);
    format!("{database}.{schema}.{item}")
}
