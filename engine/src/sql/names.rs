//! A catalog item's name as a statement gives it: `t`, `public.t` or
//! `materialize.public.t`. Every object of the engine lives in
//! Materialize's default database and schema, so the three name the same
//! object; another database or schema is Materialize's error for it
//! (`unknown database 'd'`, `unknown schema 's'`), and one of its system
//! schemas, which the engine does not have, is refused by name.

use sqlparser::ast::ObjectName;

use super::ident;
use crate::repr::unsupported;

/// Materialize's default database, where every object of the engine lives.
const DATABASE: &str = "materialize";
/// Materialize's default schema in it.
const SCHEMA: &str = "public";
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

/// A name resolved to the default database and schema.
pub(super) struct ItemName {
    /// The item's own name, which the catalog knows it by.
    pub item: String,
    /// The name as given, folded, for `unknown catalog item '...'`.
    pub given: String,
    /// Whether a schema was given (a name so qualified never finds a system
    /// catalog relation, which lives in another schema).
    pub qualified: bool,
}

/// Resolves `name`'s database and schema, as Materialize's
/// `resolve_schema` does: the database first, then the schema.
/// The outer error is the name's form, which always fails; the inner is an
/// unknown database or schema, which `DROP ... IF EXISTS` forgives as it
/// forgives an unknown item.
pub(super) fn item_name(name: &ObjectName) -> Result<Result<ItemName, String>, String> {
    let mut parts = vec![];
    for part in &name.0 {
        let part = part
            .as_ident()
            .ok_or_else(|| unsupported(format!("name form: {name}")))?;
        parts.push(ident(part));
    }
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
    if let Some(schema) = schema.filter(|s| SYSTEM_SCHEMAS.contains(&s.as_str())) {
        // Found in any database Materialize knows; the engine has none of
        // them, nor what they hold.
        if database.is_none_or(|d| d == DATABASE) {
            return Err(unsupported(format!("schema {schema}: {name}")));
        }
    }
    if let Some(database) = database.filter(|d| *d != DATABASE) {
        return Ok(Err(format!("unknown database '{database}'")));
    }
    if let Some(schema) = schema.filter(|s| *s != SCHEMA) {
        return Ok(Err(format!("unknown schema '{schema}'")));
    }
    Ok(Ok(ItemName {
        item: item.clone(),
        given: parts.join("."),
        qualified: schema.is_some(),
    }))
}

/// The item's own name, or the error that resolving its schema gives.
pub(super) fn item(name: &ObjectName) -> Result<ItemName, String> {
    item_name(name)?
}
