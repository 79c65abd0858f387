//! `DROP TABLE|VIEW|MATERIALIZED VIEW|INDEX [IF EXISTS] a [, b ...]
//! [CASCADE | RESTRICT]`, planned as Materialize's `plan_drop_objects`
//! plans it: each name in turn is resolved (one `IF EXISTS` does not find
//! is skipped), checked to be of the kind the statement names, and,
//! without `CASCADE`, refused if anything but an index depends on it. What
//! the named objects take with them is the coordinator's to find
//! (`coordinator::drops`), against the catalog the statement runs on.

use sqlparser::ast::{ObjectName, ObjectType};

use super::{forms, materialized, names, object_of_kind, resolve, schemas};
use crate::plan::{minimal_name, ObjectKind, Resolver, Statement};
use crate::repr::{unsupported, GlobalId};

/// Plans a DROP; `None` when `IF EXISTS` found none of the names.
pub(super) fn plan(
    catalog: &dyn Resolver,
    object_type: ObjectType,
    if_exists: bool,
    names: &[ObjectName],
    cascade: bool,
) -> Result<Option<Statement>, String> {
    let kind = match object_type {
        ObjectType::Table => ObjectKind::Table,
        ObjectType::View => ObjectKind::View,
        ObjectType::MaterializedView => ObjectKind::MaterializedView,
        ObjectType::Index => ObjectKind::Index,
        ObjectType::Schema => return schemas::drop_schemas(catalog, if_exists, names, cascade),
        ObjectType::Database => return schemas::drop_databases(catalog, if_exists, names, cascade),
        other => return Err(unsupported(forms::drop_object(&other))),
    };
    let mut ids: Vec<GlobalId> = vec![];
    for name in names {
        // An unknown database or schema is, to IF EXISTS, an unknown item.
        if let Err(e) = names::item_name(catalog, name)? {
            match if_exists {
                true => continue,
                false => return Err(e),
            }
        }
        if if_exists && resolve(catalog, name).is_err() {
            continue;
        }
        // Materialize's `cannot drop table ... because it is required by
        // the database system`, or its kind mismatch: not its words.
        if let Ok((shown, id, _)) = resolve(catalog, name) {
            if catalog.in_mz_catalog(id) {
                return Err(unsupported(format!("DROP of a system relation: {shown}")));
            }
        }
        materialized::check_drop_kind(catalog, name, kind)?;
        let id = object_of_kind(catalog, name, kind)?;
        if !cascade {
            if let Some((dependent_kind, dependent)) = catalog.drop_dependent(id) {
                let shown = minimal_name(catalog, id).unwrap_or_default();
                return Err(still_depended_upon(
                    kind,
                    &shown,
                    dependent_kind,
                    &dependent,
                ));
            }
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok((!ids.is_empty()).then_some(Statement::Drop { ids }))
}

/// Materialize's `DependentObjectsStillExist`, with its hint: the names
/// as it qualifies them least, which in the default schema is bare.
pub fn still_depended_upon(
    kind: ObjectKind,
    name: &str,
    dependent_kind: ObjectKind,
    dependent: &str,
) -> String {
    format!(
        "cannot drop {} \"{name}\": still depended upon by {} \"{dependent}\"\n\
         HINT: Use DROP ... CASCADE to drop the dependent objects too.",
        kind.name(),
        dependent_kind.name()
    )
}
