//! The rows of Materialize's catalog relations (`mz_tables`, `mz_views`,
//! `mz_materialized_views`, `mz_indexes`, `mz_schemas`, `mz_databases`),
//! computed from the engine's catalog at the read's time, as Materialize's
//! `builtin_table_updates.rs` fills them for user objects.
//!
//! Only the columns the engine fills exactly as Materialize does carry a
//! value (`Relation::refused_column`); a read of any other is refused by
//! the demand pass before the rows are used, so its NULL is never seen.
//! Materialize's own system objects are not here: a read that could see
//! them is refused by the planner (`sql::query::catalog_reads`).

use super::builtin::Relation;
use super::catalog::Catalog;
use crate::plan::ObjectKind;
use crate::repr::{Datum, Row};

/// The rows of catalog relation `relation`, one per user object it lists.
pub fn rows(relation: Relation, catalog: &Catalog) -> Vec<Row> {
    let columns = relation.columns();
    let row = |name: &str| {
        let mut row = vec![Datum::Null; columns.len()];
        if let Some(at) = columns.iter().position(|c| c.name == "name") {
            row[at] = Datum::Text(name.to_string());
        }
        row
    };
    let kind = match relation {
        Relation::Tables => ObjectKind::Table,
        Relation::Views => ObjectKind::View,
        Relation::MaterializedViews => ObjectKind::MaterializedView,
        Relation::Indexes => ObjectKind::Index,
        Relation::Schemas => {
            return catalog
                .namespaces
                .schemas()
                .map(|(_, name)| row(name))
                .collect()
        }
        Relation::Databases => return catalog.namespaces.databases().map(row).collect(),
        _ => return vec![],
    };
    catalog
        .entries()
        .filter(|e| e.kind() == kind)
        .map(|e| row(&e.name))
        .collect()
}
