//! The privileges each object holds, as Materialize's catalog keeps them:
//! an owner and a list of `MzAclItem`s (grantee, grantor, privileges) on
//! every database, schema and catalog item. Kept apart from the roles
//! (`roles.rs`) and their memberships (`privileges.rs`), with a small read
//! API (`owner`, `acl`, `holds`), so that the privilege functions, the
//! checks and the catalog's relations can read it.
//!
//! What an object holds when it is made is Materialize's: the default
//! database `materialize` and its schema `public` are `mz_system`'s, with
//! `USAGE` for `PUBLIC` and `mz_support` and every privilege for the
//! bootstrap role (`initialize.rs`); a new object holds its owner's every
//! privilege of its type (`rbac::owner_privilege`), and a new database or
//! schema `USAGE` for `mz_support` too, by the built-in default privilege.
//! `GRANT` and `REVOKE` of privileges change them as Materialize's
//! `sequence_update_privileges` does, the grantor always the owner.

use std::collections::{BTreeMap, BTreeSet};

use super::privileges::PUBLIC;
use super::roles::SYSTEM;
use super::Engine;
use crate::plan::Resolver;
use crate::plan::SchemaId;
use crate::repr::quoted;
use crate::repr::GlobalId;
use crate::sql::{AclMode, GrantObject, PrivilegeStatement};

/// An object that holds privileges.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Object {
    Database(String),
    Schema(SchemaId),
    Item(GlobalId),
}

impl Object {
    fn of(object: &GrantObject) -> Object {
        match object {
            GrantObject::Item(id, ..) => Object::Item(*id),
            GrantObject::Schema(id, _) => Object::Schema(*id),
            GrantObject::Database(name) => Object::Database(name.clone()),
        }
    }
}

/// An object's owner and privileges: (grantee, grantor) to privileges,
/// roles by id.
#[derive(Clone, Debug)]
pub(super) struct Acl {
    pub owner: String,
    pub items: BTreeMap<(String, String), AclMode>,
}

/// Every object's privileges.
#[derive(Clone, Debug)]
pub(super) struct Acls {
    objects: BTreeMap<Object, Acl>,
    /// Whether a `REVOKE` took a privilege from the bootstrap role or
    /// `PUBLIC`, after which the bootstrap role may lack one it needs.
    revoked: bool,
}

/// `mz_system`'s id, the default namespaces' owner.
const SYSTEM_ID: &str = "s1";
/// `mz_support`'s id.
const SUPPORT_ID: &str = "s2";

impl Default for Acls {
    fn default() -> Acls {
        let namespace = || {
            let items = [
                (PUBLIC, AclMode::USAGE),
                (SUPPORT_ID, AclMode::USAGE),
                (SYSTEM_ID, AclMode::USAGE_CREATE),
                ("u1", AclMode::USAGE_CREATE),
            ];
            let items = items
                .iter()
                .map(|(grantee, mode)| ((grantee.to_string(), SYSTEM_ID.to_string()), *mode));
            Acl {
                owner: SYSTEM_ID.into(),
                items: items.collect(),
            }
        };
        let objects = [
            (
                Object::Database(crate::plan::DEFAULT_DATABASE.into()),
                namespace(),
            ),
            (Object::Schema(SchemaId::DEFAULT), namespace()),
        ];
        Acls {
            objects: objects.into_iter().collect(),
            revoked: false,
        }
    }
}

impl Acls {
    /// The owner's id of an object there is.
    #[allow(dead_code)]
    pub(super) fn owner(&self, object: &Object) -> Option<&str> {
        self.objects.get(object).map(|acl| acl.owner.as_str())
    }

    /// An object's owner and privileges.
    #[allow(dead_code)]
    pub(super) fn acl(&self, object: &Object) -> Option<&Acl> {
        self.objects.get(object)
    }

    /// Whether any of `roles` (a role's membership, `PUBLIC` among them)
    /// holds every privilege of `mode` on `object`, as Materialize's
    /// `check_object_privileges` reads an ACL: the privileges of all of
    /// them together.
    #[allow(dead_code)]
    pub(super) fn holds(&self, object: &Object, roles: &BTreeSet<String>, mode: AclMode) -> bool {
        let Some(acl) = self.objects.get(object) else {
            return false;
        };
        let held = acl
            .items
            .iter()
            .filter(|((grantee, _), _)| roles.contains(grantee))
            .fold(AclMode::default(), |held, (_, m)| held.union(*m));
        held.contains(mode)
    }

    /// Whether the bootstrap role or `PUBLIC` lost a privilege.
    pub(super) fn revoked(&self) -> bool {
        self.revoked
    }

    /// Makes `object` as `owner` made it, with the privileges Materialize
    /// gives a new one of its kind; `full` is its type's every privilege.
    fn create(&mut self, object: Object, owner: &str, full: AclMode) {
        let mut items = BTreeMap::new();
        items.insert((owner.to_string(), owner.to_string()), full);
        if !matches!(object, Object::Item(_)) {
            items.insert((SUPPORT_ID.to_string(), owner.to_string()), AclMode::USAGE);
        }
        let acl = Acl {
            owner: owner.to_string(),
            items,
        };
        self.objects.insert(object, acl);
    }

    /// Grants or revokes `mode` to or from `grantee` as `grantor`.
    fn update(
        &mut self,
        object: &Object,
        grantee: &str,
        grantor: &str,
        mode: AclMode,
        revoke: bool,
    ) {
        let Some(acl) = self.objects.get_mut(object) else {
            return;
        };
        let key = (grantee.to_string(), grantor.to_string());
        let held = acl.items.get(&key).copied().unwrap_or_default();
        let after = match revoke {
            true => held.difference(mode),
            false => held.union(mode),
        };
        self.revoked |= revoke && after != held && ["u1", PUBLIC].contains(&grantee);
        match after.is_empty() {
            true => acl.items.remove(&key),
            false => acl.items.insert(key, after),
        };
    }
}

impl Engine {
    /// Brings the privileges up to the catalog after a statement: an
    /// object made by it is the acting role's, one dropped is forgotten.
    pub(super) fn sync_acls(&mut self) {
        let owner = self.roles.acting_id();
        let mut live: BTreeMap<Object, AclMode> = BTreeMap::new();
        for database in self.catalog.namespaces.databases() {
            live.insert(
                Object::Database(database.to_string()),
                AclMode::USAGE_CREATE,
            );
        }
        for schema in self.catalog.namespaces.schema_ids() {
            live.insert(Object::Schema(schema), AclMode::USAGE_CREATE);
        }
        for entry in self.catalog.entries() {
            let full = match entry.kind() {
                crate::plan::ObjectKind::Introspection => continue,
                crate::plan::ObjectKind::Table => AclMode::TABLE,
                crate::plan::ObjectKind::Index => AclMode::default(),
                _ => AclMode::SELECT,
            };
            live.insert(Object::Item(entry.id), full);
        }
        self.acls
            .objects
            .retain(|object, _| live.contains_key(object));
        for (object, full) in live {
            if !self.acls.objects.contains_key(&object) {
                self.acls.create(object, &owner, full);
            }
        }
    }

    /// Runs a `GRANT` or `REVOKE` of privileges as Materialize plans,
    /// checks and sequences it; a statement that fails changes nothing.
    pub(super) fn grant_privileges(&mut self, statement: PrivilegeStatement) -> Result<(), String> {
        let objects = crate::sql::resolve_grant(&self.catalog, &statement);
        // The roles are resolved with the objects' names, after them.
        let objects = objects?;
        let mut grantees = Vec::new();
        for name in &statement.roles {
            let id = self
                .roles
                .id(name)
                .ok_or_else(|| format!("unknown role '{name}'"))?;
            grantees.push((name.clone(), id));
        }
        // Who may: a superuser, or any user role with the checks off, on
        // user objects; otherwise the owner, with USAGE on where it lives.
        if self.roles.user() != SYSTEM && !self.roles.unchecked() {
            self.check_grant(&objects)?;
        }
        let mut after = self.acls.clone();
        for (object, mode) in objects {
            let object = Object::of(&object);
            let grantor = after
                .owner(&object)
                .expect("an object there is")
                .to_string();
            for (name, id) in &grantees {
                // `ensure_not_system_role` and `ensure_not_predefined_role`.
                if id.starts_with('s') || id.starts_with('g') {
                    return Err(format!(
                        "role name \"{name}\" is reserved\nDETAIL: The role prefixes \"mz_\" \
                         and \"pg_\" are reserved for system roles."
                    ));
                }
                after.update(&object, id, &grantor, mode, statement.revoke);
            }
        }
        self.acls = after;
        Ok(())
    }

    /// Materialize's `rbac.rs` requirements of a `GRANT` or `REVOKE` of
    /// privileges, validated in its order: the ownership of every object
    /// (`must be owner of ...`, listing every one not owned), then `USAGE`
    /// on the schema of each item and the database of each schema.
    fn check_grant(&self, objects: &[(GrantObject, AclMode)]) -> Result<(), String> {
        let user = self.roles.user().to_string();
        let roles = self.roles.membership.member_of(&self.roles.acting_id());
        let unowned: Vec<String> = objects
            .iter()
            .filter(|(object, _)| {
                let owner = self.acls.owner(&Object::of(object));
                !owner.is_some_and(|owner| roles.contains(owner))
            })
            .map(|(object, _)| format!("{} {}", object.type_name(), object.full_name()))
            .collect();
        if !unowned.is_empty() {
            return Err(format!("must be owner of {}", unowned.join(", ")));
        }
        for (object, _) in objects {
            let (within, description) = match object {
                GrantObject::Item(id, ..) => {
                    let schema = self.catalog.schema_of(*id);
                    let (database, name) = self.catalog.namespaces.names(schema);
                    let described = quoted(&format!("{database}.{name}"));
                    (Object::Schema(schema), format!("SCHEMA {described}"))
                }
                GrantObject::Schema(schema, _) => {
                    let (database, _) = self.catalog.namespaces.names(*schema);
                    let described = format!("DATABASE {}", quoted(&database));
                    (Object::Database(database), described)
                }
                GrantObject::Database(_) => continue,
            };
            if !self.acls.holds(&within, &roles, AclMode::USAGE) {
                return Err(format!(
                    "permission denied for {description}\nDETAIL: The '{user}' role needs \
                     USAGE privileges on {description}"
                ));
            }
        }
        Ok(())
    }
}
