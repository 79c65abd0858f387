//! The databases and schemas of the catalog, as Materialize's catalog
//! state keeps them: the default database `materialize` with its schema
//! `public` (`SchemaId::DEFAULT`), and those `CREATE DATABASE` (with its
//! own `public`) and `CREATE SCHEMA` add. Materialize's system schemas are
//! not here: the names that give one are refused before (`sql::names`).

use std::collections::{BTreeMap, BTreeSet};

use crate::plan::{SchemaId, DEFAULT_DATABASE, DEFAULT_SCHEMA};

/// A schema: its database's name and its own.
#[derive(Clone, Debug)]
struct Schema {
    database: String,
    name: String,
}

#[derive(Debug)]
pub struct Namespaces {
    databases: BTreeSet<String>,
    schemas: BTreeMap<SchemaId, Schema>,
    /// The next schema's id: ids are never reused, as Materialize's.
    next: u64,
}

impl Default for Namespaces {
    fn default() -> Namespaces {
        let mut namespaces = Namespaces {
            databases: BTreeSet::new(),
            schemas: BTreeMap::new(),
            next: SchemaId::DEFAULT.0,
        };
        namespaces.create_database(DEFAULT_DATABASE);
        namespaces
    }
}

impl Namespaces {
    /// A database and its schema `public`; the planner checked the name
    /// is free.
    pub fn create_database(&mut self, name: &str) {
        self.databases.insert(name.to_string());
        self.create_schema(name, DEFAULT_SCHEMA);
    }

    /// A schema of an existing database; the planner checked both.
    pub fn create_schema(&mut self, database: &str, name: &str) -> SchemaId {
        let id = SchemaId(self.next);
        self.next += 1;
        let schema = Schema {
            database: database.to_string(),
            name: name.to_string(),
        };
        self.schemas.insert(id, schema);
        id
    }

    pub fn database_exists(&self, name: &str) -> bool {
        self.databases.contains(name)
    }

    /// Materialize's `resolve_schema` in a database named.
    pub fn schema(&self, database: &str, name: &str) -> Result<SchemaId, String> {
        if !self.database_exists(database) {
            return Err(format!("unknown database '{database}'"));
        }
        self.schemas
            .iter()
            .find(|(_, s)| s.database == database && s.name == name)
            .map(|(id, _)| *id)
            .ok_or_else(|| format!("unknown schema '{name}'"))
    }

    /// The schemas of a database, by id.
    pub fn schemas_in(&self, database: &str) -> Vec<SchemaId> {
        let schemas = self.schemas.iter();
        schemas
            .filter(|(_, s)| s.database == database)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Every database's name, in order.
    pub fn databases(&self) -> impl Iterator<Item = &str> {
        self.databases.iter().map(String::as_str)
    }

    /// Every schema: its database's name and its own, by id.
    pub fn schemas(&self) -> impl Iterator<Item = (&str, &str)> {
        let schemas = self.schemas.values();
        schemas.map(|s| (s.database.as_str(), s.name.as_str()))
    }

    /// Every schema's id.
    pub fn schema_ids(&self) -> impl Iterator<Item = SchemaId> + '_ {
        self.schemas.keys().copied()
    }

    /// Forgets a schema the planner found empty, or emptied.
    pub fn drop_schema(&mut self, id: SchemaId) {
        self.schemas.remove(&id);
    }

    /// Forgets a database whose schemas are gone.
    pub fn drop_database(&mut self, name: &str) {
        self.databases.remove(name);
    }

    /// The names of a schema's database and of the schema.
    pub fn names(&self, id: SchemaId) -> (String, String) {
        let schema = &self.schemas[&id];
        (schema.database.clone(), schema.name.clone())
    }
}
