//! `CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(columns)]
//! AS query`, planned in the order Materialize's `plan_create_materialized_view`
//! checks it (`sql/src/plan/statement/ddl.rs`): the query, then the column
//! names, then what `OR REPLACE` would drop, then the name. Kept apart from
//! `statement` (plain views) because its rules and texts are its own.

use sqlparser::ast::{CreateView, ObjectName};

use super::clauses;
use super::query::{plan_query, PlannedQuery};
use super::{rename_columns, resolve};
use crate::plan::{full_name, with_top_k, ObjectKind, Resolver, Statement};
use crate::repr::unsupported;

/// Plans a materialized view; `None` when `IF NOT EXISTS` finds the name
/// taken. The dependents of a replaced one are checked where the catalog
/// is (`coordinator::materialized`), as Materialize's drop would.
pub(super) fn create(catalog: &dyn Resolver, v: &CreateView) -> Result<Option<Statement>, String> {
    clauses::create_view(v)?;
    let CreateView {
        or_replace,
        name,
        query,
        if_not_exists,
        ..
    } = v;
    let (schema, name) = super::names::new_item(catalog, name)?;
    let full = full_name(catalog, schema, &name);
    let PlannedQuery {
        plan,
        mut columns,
        finishing,
        simple: _,
    } = plan_query(catalog, query)?;
    let context = format!("materialized view {full}");
    rename_columns(&context, &mut columns, &v.columns)?;
    // LIMIT or OFFSET make it a top-k, as in a view.
    let plan = with_top_k(plan, finishing);
    if let Some((_, ObjectKind::Introspection)) = catalog.resolve(&name) {
        return Err(unsupported(format!(
            "a materialized view named as a system catalog relation: {name}"
        )));
    }
    let existing = catalog.resolve_in(schema, &name);
    let mut replace = None;
    if *or_replace {
        match existing {
            Some((id, ObjectKind::MaterializedView)) => {
                if plan.reads_any(&|g| g == id) {
                    return Err(format!(
                        "cannot replace materialized view {full}: depended upon by new {full} definition"
                    ));
                }
                replace = Some(id);
            }
            Some((_, kind)) => return Err(not_materialized(&name, kind)),
            None => {}
        }
    } else if let Some((_, kind)) = existing {
        if *if_not_exists {
            return Ok(None);
        }
        let kind = kind.name();
        return Err(format!("{kind} \"{full}\" already exists"));
    }
    Ok(Some(Statement::CreateMaterializedView {
        name,
        schema,
        columns,
        plan,
        replace,
    }))
}

/// Materialize's `MismatchedObjectType` for an object that is not the
/// materialized view a statement names: the name unquoted, as it prints it.
pub(super) fn not_materialized(name: &str, kind: ObjectKind) -> String {
    let article = if kind == ObjectKind::Index { "an" } else { "a" };
    format!(
        "{name} is {article} {} not a materialized view",
        kind.name()
    )
}

/// `DROP VIEW` of a materialized view, with Materialize's hint.
fn drop_view_of_materialized(name: &str) -> String {
    format!("{name} is not a view\nHINT: Use DROP MATERIALIZED VIEW to remove a materialized view.")
}

/// A `DROP` whose kind and the object's differ where a materialized view
/// is one of them fails with Materialize's texts; other mismatches are
/// `object_of_kind`'s.
pub(super) fn check_drop_kind(
    catalog: &dyn Resolver,
    name: &ObjectName,
    expected: ObjectKind,
) -> Result<(), String> {
    match (resolve(catalog, name), expected) {
        (Ok((name, _, ObjectKind::MaterializedView)), ObjectKind::View) => {
            Err(drop_view_of_materialized(&name))
        }
        (Ok((name, _, kind)), ObjectKind::MaterializedView) if kind != expected => {
            Err(not_materialized(&name, kind))
        }
        _ => Ok(()),
    }
}
