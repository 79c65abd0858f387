//! A catalog item's name as a statement gives it: `t`, `s.t` or `d.s.t`,
//! resolved as Materialize's `resolve_schema` and `resolve` resolve it: a
//! database first (`unknown database 'd'`), then a schema in it
//! (`unknown schema 's'`), then the item in that schema; an unqualified
//! name through the search path. One of Materialize's system schemas,
//! which the engine does not have, is refused by name, but for
//! `mz_catalog`'s relations the engine has (`mz_catalog.mz_tables`).

use sqlparser::ast::ObjectName;

use super::ident;
use crate::plan::{current_schema, Resolver, SchemaId};
use crate::repr::unsupported;

pub(super) use crate::plan::system_schema;

/// A name resolved to its schema.
pub(super) struct ItemName {
    /// The schema given, `None` for a name the search path resolves.
    pub schema: Option<SchemaId>,
    /// The item's own name, which the catalog knows it by.
    pub item: String,
    /// The name as given, folded, for `unknown catalog item '...'`.
    pub given: String,
}

/// A new object's schema and own name, as Materialize's
/// `allocate_qualified_name` finds them: the schema given, in the current
/// database unless one is given (`no database specified ...` when the
/// current one does not exist), or the first of the search path that
/// exists (`no valid schema selected`).
pub(super) fn new_item(
    catalog: &dyn Resolver,
    name: &ObjectName,
) -> Result<(SchemaId, String), String> {
    let parts = parts(name)?;
    if let [schema, _] = parts.as_slice() {
        if !system_schema(schema) && !catalog.database_exists(&catalog.path().database) {
            return Err(
                "no database specified for non-system schema and no active database".into(),
            );
        }
    }
    let given = item(catalog, name)?;
    let schema = match given.schema {
        Some(schema) => schema,
        None => current_schema(catalog)?,
    };
    Ok((schema, given.item))
}

/// The parts of a name, folded; the error is the name's form.
pub(super) fn parts(name: &ObjectName) -> Result<Vec<String>, String> {
    name.0
        .iter()
        .map(|part| {
            part.as_ident()
                .map(ident)
                .ok_or_else(|| unsupported(format!("name form: {name}")))
        })
        .collect()
}

/// Resolves `name`'s database and schema.
/// The outer error is the name's form, which always fails; the inner is an
/// unknown database or schema, which `DROP ... IF EXISTS` forgives as it
/// forgives an unknown item.
pub(super) fn item_name(
    catalog: &dyn Resolver,
    name: &ObjectName,
) -> Result<Result<ItemName, String>, String> {
    let parts = parts(name)?;
    let (database, schema, item) = match parts.as_slice() {
        [item] => (None, None, item),
        [schema, item] => (None, Some(schema), item),
        [database, schema, item] => (Some(database), Some(schema), item),
        _ => {
            return Err(format!(
                "qualified name did not have between 1 and 3 components: {name}"
            ))
        }
    };
    let given = parts.join(".");
    let Some(schema) = schema else {
        return Ok(Ok(ItemName {
            schema: None,
            item: item.clone(),
            given,
        }));
    };
    if database.is_some_and(|d| !catalog.database_exists(d)) {
        return Ok(Err(format!(
            "unknown database '{}'",
            database.expect("given")
        )));
    }
    let in_mz_catalog = catalog
        .resolve(item)
        .is_some_and(|(id, _)| catalog.in_mz_catalog(id));
    if schema == "mz_catalog" && in_mz_catalog {
        // One of Materialize's catalog relations the engine has, which the
        // search path finds first.
        return Ok(Ok(ItemName {
            schema: None,
            item: item.clone(),
            given,
        }));
    }
    if system_schema(schema) {
        // Found in any database; the engine has none of them, nor what
        // they hold.
        return Err(unsupported(format!("schema {schema}: {name}")));
    }
    Ok(catalog
        .schema(database.map(String::as_str), schema)
        .map(|schema| ItemName {
            schema: Some(schema),
            item: item.clone(),
            given,
        }))
}

/// The item's name, or the error that resolving its schema gives.
pub(super) fn item(catalog: &dyn Resolver, name: &ObjectName) -> Result<ItemName, String> {
    item_name(catalog, name)?
}
