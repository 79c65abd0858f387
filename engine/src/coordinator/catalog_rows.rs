//! The rows of Materialize's catalog relations (`mz_tables`, `mz_views`,
//! `mz_materialized_views`, `mz_indexes`, `mz_schemas`, `mz_databases`),
//! computed from the engine's catalog at the read's time, as Materialize's
//! `builtin_table_updates.rs` fills them for user objects; and those of
//! `mz_roles` and `mz_role_members`, from the engine's roles.
//!
//! An item's `owner_id` is its owner's role id (`Roles::owner_id`).
//! Only the columns the engine fills exactly as Materialize does carry a
//! value (`Relation::refused_column`); a read of any other is refused by
//! the demand pass before the rows are used, so its NULL is never seen.
//! Materialize's own system objects are not here: a read that could see
//! them is refused by the planner (`sql::query::catalog_reads`).

use std::collections::BTreeMap;

use super::builtin::Relation;
use super::catalog::{Catalog, Detail};
use super::privileges::Membership;
use crate::plan::ObjectKind;
use crate::repr::{Datum, GlobalId, Row};

/// The rows of catalog relation `relation`, one per user object it lists;
/// `owners` holds each item's owner's role id (`owners`).
pub fn rows(relation: Relation, catalog: &Catalog, owners: &[(GlobalId, String)]) -> Vec<Row> {
    let columns = relation.columns();
    let at = |column: &str| columns.iter().position(|c| c.name == column);
    let row = |name: &str| {
        let mut row = vec![Datum::Null; columns.len()];
        if let Some(at) = at("name") {
            row[at] = Datum::Text(name.to_string());
        }
        row
    };
    let item = |e: &super::catalog::Entry| {
        let mut row = row(&e.name);
        let owner = owners.iter().find(|(id, _)| *id == e.id);
        if let (Some(at), Some((_, owner))) = (at("owner_id"), owner) {
            row[at] = Datum::Text(owner.clone());
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
        .map(item)
        .collect()
}

/// Each catalog item's owner, by role id, as Materialize records it: the
/// role that created it (`owner_id`), but an index's is the owner of the
/// relation it is on (`create_index.rs`).
pub fn owners(catalog: &Catalog, owner_id: impl Fn(GlobalId) -> String) -> Vec<(GlobalId, String)> {
    catalog
        .entries()
        .map(|e| {
            let owned = match &e.detail {
                Detail::Index(index) => index.on,
                _ => e.id,
            };
            (e.id, owner_id(owned))
        })
        .collect()
}

/// The rows of `mz_roles`, from every role it lists by id, as
/// `pack_role_update` fills them: `oid` (refused) NULL; `inherit` true,
/// as Materialize refuses `NOINHERIT`; `rolcanlogin` and `rolsuper` from
/// the role's `LOGIN` and `SUPERUSER` attributes, which no engine role
/// has (the engine refuses both), so Materialize's guesses: true for its
/// superusers `mz_system` (which has both attributes) and `mz_support`,
/// else `rolcanlogin` whether the name looks like an email address and
/// `rolsuper` NULL.
pub fn roles(listed: &BTreeMap<String, String>) -> Vec<Row> {
    listed
        .iter()
        .map(|(id, name)| {
            let superuser = ["s1", "s2"].contains(&id.as_str());
            vec![
                Datum::Text(id.clone()),
                Datum::Null,
                Datum::Text(name.clone()),
                Datum::Bool(true),
                Datum::Bool(superuser || looks_like_email(name)),
                match superuser {
                    true => Datum::Bool(true),
                    false => Datum::Null,
                },
            ]
        })
        .collect()
}

/// The rows of `mz_role_members`: each membership granted, by ids.
pub fn role_members(membership: &Membership) -> Vec<Row> {
    membership
        .memberships()
        .map(|(role, member, grantor)| {
            [role, member, grantor]
                .map(|id| Datum::Text(id.to_string()))
                .to_vec()
        })
        .collect()
}

/// Whether `name` matches Materialize's `^[^@]+@[^@]+\.[^@]+$`: one `@`,
/// something before it, and after it a dot with something either side.
fn looks_like_email(name: &str) -> bool {
    let Some((user, domain)) = name.split_once('@') else {
        return false;
    };
    let dotted = domain
        .char_indices()
        .any(|(at, c)| c == '.' && at > 0 && at + 1 < domain.len());
    !user.is_empty() && !domain.contains('@') && dotted
}

#[cfg(test)]
mod tests {
    use super::looks_like_email;

    #[test]
    fn an_email_address_is_one_at_then_a_dotted_domain() {
        assert!(looks_like_email("joe@example.com"));
        assert!(looks_like_email("a@b.c"));
        assert!(looks_like_email("a@b..c"));
        assert!(!looks_like_email("materialize"));
        assert!(!looks_like_email("@b.c"));
        assert!(!looks_like_email("a@.c"));
        assert!(!looks_like_email("a@b."));
        assert!(!looks_like_email("a@b@c.d"));
        assert!(!looks_like_email("a@bc"));
    }
}
