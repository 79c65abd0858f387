//! `CREATE DATABASE [IF NOT EXISTS] d` and `CREATE SCHEMA [IF NOT EXISTS]
//! [d.]s`, planned as Materialize's `plan_create_database` and
//! `plan_create_schema` plan them and its catalog transaction checks them:
//! a schema's database must exist (`invalid database d`), a name beginning
//! `mz_`, `pg_` or `external_` is reserved for a schema
//! (`unacceptable schema name '...'`), and a name taken is `database '...'
//! already exists` or `schema '...' already exists` unless `IF NOT EXISTS`.
//! Any other clause (sqlparser reads those of other systems) is refused.
//! `DROP SCHEMA` and `DROP DATABASE`, planned as `plan_drop_schema` and
//! `plan_drop_database` plan them: `IF EXISTS`, and `RESTRICT` (the
//! default), which refuses a schema with objects and a database with
//! schemas, or `CASCADE`, which drops them (`coordinator::drops`).

use sqlparser::ast::{self, ObjectName, SchemaName};

use super::names::{parts, system_schema};
use crate::plan::{Resolver, Statement, DEFAULT_DATABASE};
use crate::repr::unsupported;

/// Materialize's `BUILTIN_PREFIXES`: names a user schema may not begin with.
const RESERVED_PREFIXES: [&str; 3] = ["mz_", "pg_", "external_"];

/// Plans `CREATE DATABASE`; `None` when `IF NOT EXISTS` finds it.
pub(super) fn create_database(
    catalog: &dyn Resolver,
    stmt: &ast::Statement,
    db_name: &ObjectName,
    if_not_exists: bool,
) -> Result<Option<Statement>, String> {
    plain(stmt, "DATABASE", db_name, if_not_exists)?;
    let name = match parts(db_name)?.as_slice() {
        [name] => name.clone(),
        _ => return Err(unsupported(format!("qualified database name: {db_name}"))),
    };
    match (catalog.database_exists(&name), if_not_exists) {
        (false, _) => Ok(Some(Statement::CreateDatabase { name })),
        (true, true) => Ok(None),
        (true, false) => Err(format!("database '{name}' already exists")),
    }
}

/// Plans `CREATE SCHEMA`; `None` when `IF NOT EXISTS` finds it.
pub(super) fn create_schema(
    catalog: &dyn Resolver,
    stmt: &ast::Statement,
    schema_name: &SchemaName,
    if_not_exists: bool,
) -> Result<Option<Statement>, String> {
    let SchemaName::Simple(given) = schema_name else {
        return Err(unsupported("CREATE SCHEMA ... AUTHORIZATION"));
    };
    plain(stmt, "SCHEMA", given, if_not_exists)?;
    let (database, name) = match parts(given)?.as_slice() {
        [name] => match catalog.path().database {
            current if catalog.database_exists(&current) => (current, name.clone()),
            _ => return Err("no database specified and no active database".into()),
        },
        [database, name] => (database.clone(), name.clone()),
        _ => return Err(format!("schema name {given} has more than two components")),
    };
    if !catalog.database_exists(&database) {
        return Err(format!("invalid database {database}"));
    }
    if RESERVED_PREFIXES.iter().any(|p| name.starts_with(p)) {
        return Err(format!("unacceptable schema name '{name}'"));
    }
    if system_schema(&name) {
        // `information_schema`: Materialize would make a user schema that
        // hides its system one in that database; the engine has neither.
        return Err(unsupported(format!(
            "a schema named as a system schema: {name}"
        )));
    }
    match (
        catalog.schema(Some(&database), &name).is_ok(),
        if_not_exists,
    ) {
        (false, _) => Ok(Some(Statement::CreateSchema { database, name })),
        (true, true) => Ok(None),
        (true, false) => Err(format!("schema '{name}' already exists")),
    }
}

/// Refuses any clause but the name and `IF NOT EXISTS`: the statement must
/// print back as its plain form.
fn plain(
    stmt: &ast::Statement,
    what: &str,
    name: &ObjectName,
    if_not_exists: bool,
) -> Result<(), String> {
    let clause = if if_not_exists { "IF NOT EXISTS " } else { "" };
    match stmt.to_string() == format!("CREATE {what} {clause}{name}") {
        true => Ok(()),
        false => Err(unsupported(format!("CREATE {what} clauses: {stmt}"))),
    }
}

/// Plans `DROP SCHEMA [IF EXISTS] [d.]s [, ...] [CASCADE | RESTRICT]` as
/// Materialize's `plan_drop_schema` does; `None` when `IF EXISTS` found
/// none. Without `CASCADE` a schema with objects is refused. The current
/// schema may go: then the search path finds the next one, or none
/// (`plan::current_schema`).
pub(super) fn drop_schemas(
    catalog: &dyn Resolver,
    if_exists: bool,
    names: &[ObjectName],
    cascade: bool,
) -> Result<Option<Statement>, String> {
    let mut schemas = vec![];
    for name in names {
        let parts = parts(name)?;
        let (database, schema) = match parts.as_slice() {
            [schema] => (None, schema),
            [database, schema] => (Some(database.as_str()), schema),
            _ => return Err(unsupported(format!("schema name: {name}"))),
        };
        if system_schema(schema) && database.is_none_or(|d| catalog.database_exists(d)) {
            return Err(format!(
                "cannot drop schema {name} because it is required by the database system"
            ));
        }
        let id = match catalog.schema(database, schema) {
            Ok(id) => id,
            Err(_) if if_exists => continue,
            Err(e) => return Err(e),
        };
        if !cascade && !catalog.items_in(id).is_empty() {
            let (database, schema) = catalog.schema_names(id);
            return Err(format!(
                "schema '{database}.{schema}' cannot be dropped without CASCADE while it contains objects"
            ));
        }
        if !schemas.contains(&id) {
            schemas.push(id);
        }
    }
    let databases = vec![];
    Ok((!schemas.is_empty()).then_some(Statement::DropSchemas { schemas, databases }))
}

/// Plans `DROP DATABASE [IF EXISTS] d [CASCADE | RESTRICT]` as
/// Materialize's `plan_drop_database` does: with `RESTRICT` (its parser's
/// default is `CASCADE`) a database with a schema (its `public` too) is
/// refused. Materialize's parser reads one name; its default database is
/// refused by name, as its default schema is.
pub(super) fn drop_databases(
    catalog: &dyn Resolver,
    if_exists: bool,
    names: &[ObjectName],
    cascade: bool,
) -> Result<Option<Statement>, String> {
    if names.len() > 1 {
        return Err(unsupported("DROP DATABASE of several databases"));
    }
    let (mut schemas, mut databases) = (vec![], vec![]);
    for name in names {
        let database = match parts(name)?.as_slice() {
            [database] => database.clone(),
            _ => return Err(unsupported(format!("database name: {name}"))),
        };
        if !catalog.database_exists(&database) {
            match if_exists {
                true => continue,
                false => return Err(format!("unknown database '{database}'")),
            }
        }
        if database == DEFAULT_DATABASE {
            return Err(unsupported(format!(
                "DROP DATABASE of the default database: {name}"
            )));
        }
        let of_it = catalog.schemas_in(&database);
        if !cascade && !of_it.is_empty() {
            return Err(format!(
                "database '{name}' cannot be dropped with RESTRICT while it contains schemas"
            ));
        }
        if !databases.contains(&database) {
            schemas.extend(of_it);
            databases.push(database);
        }
    }
    Ok((!databases.is_empty()).then_some(Statement::DropSchemas { schemas, databases }))
}
