//! Roles, the connections they act on, and what a role may run.
//!
//! Materialize's sqllogictest runner opens a named connection on its first
//! use, as the record's user (`materialize` when none is named), and the
//! server creates a role of that name if there is none
//! (`handle_startup_inner`). A connection keeps its own time zone and its
//! role's id; once that role is dropped, every statement on it fails as
//! Materialize's `check_plan` fails it (`ConcurrentRoleDrop`).
//!
//! Who may run what is Materialize's `rbac.rs`: `enable_rbac_checks` (on by
//! default) or a system role's acting turns the checks on, and a superuser
//! (`mz_system`) passes every check on user objects. The engine keeps each
//! object's privileges (`acl.rs`) and checks them for `GRANT` and `REVOKE`;
//! for other statements it answers where no check can fail and refuses by
//! name where one could (`gate`): the bootstrap role `materialize` holds
//! every privilege on its own objects and on the system, so its statements
//! run while every object is its own and no `REVOKE` took a privilege from
//! it or `PUBLIC`; any other role runs only what reads and writes no object
//! while the checks are on.

use std::collections::{BTreeMap, BTreeSet};

use super::privileges::Membership;
use super::Engine;
use crate::api::Outcome;
use crate::plan::Statement;
use crate::repr::{unsupported, GlobalId};
use crate::sql::RoleStatement;

/// The default connection's role: Materialize's bootstrap role, `u1`.
pub(super) const BOOTSTRAP: &str = "materialize";
/// The superuser, on the internal port.
pub(super) const SYSTEM: &str = "mz_system";
/// Materialize's built-in roles and their ids (`PUBLIC`'s is `p`).
const BUILTIN: [(&str, &str); 6] = [
    ("mz_system", "s1"),
    ("mz_support", "s2"),
    ("mz_analytics", "s3"),
    ("mz_monitor", "g1"),
    ("mz_monitor_redacted", "g2"),
    ("public", "p"),
];
/// The users that connect on the internal port, all system roles.
const INTERNAL: [&str; 3] = ["mz_system", "mz_support", "mz_analytics"];

/// The roles, the connections and who acts.
pub(super) struct Roles {
    /// User roles by name, with their ids' numbers (`u1` is `materialize`).
    users: BTreeMap<String, u64>,
    next_user: u64,
    /// Named connections, opened on first use.
    connections: BTreeMap<String, Connection>,
    /// The named connection a directive runs on; `None`: the default one.
    acting: Option<String>,
    /// `enable_rbac_checks`, on by default.
    pub rbac_checks: bool,
    /// The owner of every object a role other than `materialize` created.
    owners: BTreeMap<GlobalId, String>,
    /// Which roles each role was granted.
    pub membership: Membership,
}

/// A named connection: the role it was opened as and its variables.
struct Connection {
    user: String,
    id: String,
    vars: crate::sql::Vars,
}

impl Default for Roles {
    fn default() -> Roles {
        Roles {
            users: BTreeMap::from([(BOOTSTRAP.to_string(), 1)]),
            next_user: 2,
            connections: BTreeMap::new(),
            acting: None,
            rbac_checks: true,
            owners: BTreeMap::new(),
            membership: Membership::default(),
        }
    }
}

impl Roles {
    /// The id of the role named `name`, if there is one.
    pub(super) fn id(&self, name: &str) -> Option<String> {
        match BUILTIN.iter().find(|(n, _)| *n == name) {
            Some((_, id)) => Some(id.to_string()),
            None => self.users.get(name).map(|n| format!("u{n}")),
        }
    }

    /// Every role `mz_roles` lists, by id: the built-in ones and the
    /// user's, but not `PUBLIC`, which is in no `mz_roles` row (so
    /// `pg_has_role` knows no such role either).
    pub(super) fn listed(&self) -> BTreeMap<String, String> {
        let names = BUILTIN
            .iter()
            .filter(|(_, id)| *id != super::privileges::PUBLIC)
            .map(|(name, _)| name.to_string())
            .chain(self.users.keys().cloned());
        names
            .filter_map(|name| Some((self.id(&name)?, name)))
            .collect()
    }

    /// The id of the role that owns catalog item `id`: the role that
    /// created it (`materialize`, `u1`, unless recorded otherwise). A role
    /// that owns a live object cannot be dropped, so the name still has
    /// the id it had.
    pub(super) fn owner_id(&self, id: GlobalId) -> String {
        let name = self.owners.get(&id).map_or(BOOTSTRAP, String::as_str);
        self.id(name).unwrap_or_else(|| "u1".into())
    }

    /// The acting role's name and the id the connection was opened with.
    fn acting(&self) -> (&str, String) {
        match self.acting.as_ref().and_then(|c| self.connections.get(c)) {
            Some(c) => (&c.user, c.id.clone()),
            None => (BOOTSTRAP, "u1".into()),
        }
    }

    /// The acting role's id.
    pub(super) fn acting_id(&self) -> String {
        self.acting().1
    }

    /// The named connection acting; `None`: the default one.
    pub(super) fn connection(&self) -> Option<&str> {
        self.acting.as_deref()
    }

    /// The acting role's name.
    pub(super) fn user(&self) -> &str {
        self.acting().0
    }

    /// Materialize's `ConcurrentRoleDrop`: the acting role was dropped.
    fn still_there(&self) -> Result<(), String> {
        let (user, id) = self.acting();
        match self.id(user) == Some(id.clone()) {
            true => Ok(()),
            false => Err(format!(
                "role {id} was concurrently dropped\n\
                 DETAIL: Please disconnect and re-connect with a valid role."
            )),
        }
    }

    /// Whether no check can fail for the acting role on objects owned by
    /// others: a superuser, or a user role while the checks are off.
    pub(super) fn unchecked(&self) -> bool {
        let user = self.user();
        user == SYSTEM || (!self.rbac_checks && !is_builtin(user))
    }

    /// Whether every object of `ids` is the bootstrap role's.
    fn all_bootstrap(&self, ids: &BTreeSet<GlobalId>) -> bool {
        ids.iter()
            .all(|id| self.owners.get(id).is_none_or(|o| o == BOOTSTRAP))
    }
}

/// Materialize's `sequence_grant_role` and `sequence_revoke_role`, then its
/// catalog's `Op::GrantRole` and `Op::RevokeRole` in order, on a copy that
/// replaces `membership` only if every one passes. Roles are (name, id).
fn grant_roles(
    membership: &mut Membership,
    revoke: bool,
    roles: &[(String, String)],
    members: &[(String, String)],
) -> Result<(), String> {
    // `ensure_not_reserved_role` of the member, `ensure_grantable_role` of
    // the role.
    let grantable = |(role, role_id): &(String, String), (member, _): &(String, String)| {
        if is_builtin(member) {
            reserved(member)?;
        }
        match role_id.starts_with('s') || role_id == super::privileges::PUBLIC {
            true => Err(format!("role name \"{role}\" cannot be granted")),
            false => Ok(()),
        }
    };
    let mut ops = Vec::new();
    for role in roles {
        for member in members {
            // A membership that is already so (or not) is a notice.
            match membership.is_direct(&role.1, &member.1) != revoke {
                true => grantable(role, member)?,
                false => ops.push((role, member)),
            }
        }
    }
    let mut after = membership.clone();
    for (role, member) in ops {
        grantable(role, member)?;
        match revoke {
            true => after.revoke(&role.1, &member.1),
            false if after.member_of(&role.1).contains(&member.1) => {
                return Err(format!(
                    "role \"{}\" is a member of role \"{}\"",
                    role.0, member.0
                ))
            }
            false => after.grant(&role.1, &member.1),
        }
    }
    *membership = after;
    Ok(())
}

fn is_builtin(name: &str) -> bool {
    BUILTIN.iter().any(|(n, _)| *n == name)
}

/// Materialize's `is_reserved_role_name`, with its error.
fn reserved(name: &str) -> Result<(), String> {
    let prefixed = ["mz_", "pg_", "external_"]
        .iter()
        .any(|p| name.starts_with(p));
    match prefixed || name == "public" {
        false => Ok(()),
        true => Err(format!(
            "role name \"{name}\" is reserved\nDETAIL: The role \"public\" and the \
             prefixes \"mz_\" and \"pg_\" are reserved for system roles."
        )),
    }
}

impl Engine {
    /// Runs `run` on connection `name`, opened as `user` on its first use
    /// (a later use keeps the first user, as Materialize's runner does),
    /// with that connection's variables.
    pub fn on_connection(
        &mut self,
        name: &str,
        user: &str,
        run: impl FnOnce(&mut Engine) -> Outcome,
    ) -> Outcome {
        if !self.roles.connections.contains_key(name) {
            let internal = INTERNAL.contains(&user);
            let id = match self.roles.id(user) {
                Some(id) if internal || !is_builtin(user) => id,
                Some(_) => return Outcome::Error(unsupported(format!("a connection as {user}"))),
                None if reserved(user).is_err() => {
                    return Outcome::Error(unsupported(format!("a connection as {user}")))
                }
                None => self.create_role(user),
            };
            let connection = Connection {
                user: user.to_string(),
                id,
                vars: crate::sql::Vars::default(),
            };
            self.roles.connections.insert(name.to_string(), connection);
        }
        let connection = self.roles.connections.get_mut(name).expect("opened");
        std::mem::swap(&mut self.vars, &mut connection.vars);
        self.roles.acting = Some(name.to_string());
        let outcome = run(self);
        self.roles.acting = None;
        let connection = self.roles.connections.get_mut(name).expect("opened");
        std::mem::swap(&mut self.vars, &mut connection.vars);
        outcome
    }

    /// Creates user role `name`; its id.
    fn create_role(&mut self, name: &str) -> String {
        let n = self.roles.next_user;
        self.roles.next_user += 1;
        self.roles.users.insert(name.to_string(), n);
        format!("u{n}")
    }

    /// Whether the acting role may run `statement`, planned: `Err` with
    /// Materialize's error or a refusal by name where a privilege the
    /// engine does not model could decide.
    pub(super) fn gate(&self, statement: &Statement) -> Result<(), String> {
        self.roles.still_there()?;
        let user = self.roles.user();
        let touches_nothing = match statement {
            Statement::Select { plan, .. } => plan.is_constant(),
            Statement::SetVariable { .. }
            | Statement::ShowVariable { .. }
            | Statement::Transaction(_) => true,
            _ => false,
        };
        if user == SYSTEM {
            // Its default cluster, `mz_system`, takes no index.
            return match statement {
                Statement::CreateIndex { .. } | Statement::CreateMaterializedView { .. } => Err(
                    unsupported("an index or materialized view on the mz_system cluster"),
                ),
                _ => Ok(()),
            };
        }
        let objects: BTreeSet<GlobalId> = self
            .catalog
            .entries()
            .filter(|e| e.kind() != crate::plan::ObjectKind::Introspection)
            .map(|e| e.id)
            .collect();
        let allowed = touches_nothing
            || self.roles.unchecked()
            || (user == BOOTSTRAP && self.roles.all_bootstrap(&objects) && !self.acls.revoked());
        match allowed {
            true => Ok(()),
            false => Err(unsupported(format!("privileges of role {user}"))),
        }
    }

    /// The objects there are before a statement runs, if its role is
    /// not the bootstrap role (whose objects are not recorded).
    pub(super) fn owned_before(&self) -> Option<BTreeSet<GlobalId>> {
        (self.roles.user() != BOOTSTRAP).then(|| self.catalog.entries().map(|e| e.id).collect())
    }

    /// Records the acting role as the owner of the objects `before` did not
    /// hold (those the statement just run created).
    pub(super) fn own_new(&mut self, before: Option<BTreeSet<GlobalId>>) {
        let Some(before) = before else {
            return;
        };
        let user = self.roles.user().to_string();
        let new: Vec<GlobalId> = self
            .catalog
            .entries()
            .map(|e| e.id)
            .filter(|id| !before.contains(id))
            .collect();
        for id in new {
            self.roles.owners.insert(id, user.clone());
        }
    }

    /// The connection as a one-off query's functions read it; the
    /// memberships only for the bootstrap role and the superuser, whose
    /// reads of `mz_roles` no privilege refuses.
    pub(super) fn session(&self) -> crate::plan::Session {
        let user = self.roles.user();
        let by_id = self.roles.listed();
        let memberships = [BOOTSTRAP, SYSTEM].contains(&user).then(|| {
            let of = |id: &String| {
                let ids = self.roles.membership.member_of_itself(id);
                ids.iter().filter_map(|id| by_id.get(id).cloned()).collect()
            };
            by_id
                .iter()
                .map(|(id, name)| (name.clone(), of(id)))
                .collect()
        });
        let schemas = crate::plan::path_schemas(&self.catalog).into_iter();
        let schemas = schemas.map(|s| match s {
            crate::plan::PathSchema::User(id) => self.catalog.namespaces.names(id).1,
            crate::plan::PathSchema::System(name) => name,
        });
        crate::plan::Session {
            user: user.to_string(),
            database: self.catalog.path.database.clone(),
            schemas: schemas.collect(),
            memberships,
        }
    }

    /// Runs a role statement as the acting role.
    pub(super) fn run_role_statement(&mut self, statement: RoleStatement) -> Result<(), String> {
        self.roles.still_there()?;
        let statement = match statement {
            RoleStatement::Privileges(statement) => return self.grant_privileges(statement),
            statement => statement,
        };
        let user = self.roles.user().to_string();
        // A membership's names are resolved when it is planned, before its
        // privileges are checked.
        let membership = match statement {
            RoleStatement::Membership {
                revoke,
                ref roles,
                ref members,
            } => {
                let resolve = |name: &String| {
                    let id = self.roles.id(name);
                    id.map(|id| (name.clone(), id))
                        .ok_or_else(|| format!("unknown role '{name}'"))
                };
                let roles = roles.iter().map(resolve).collect::<Result<Vec<_>, _>>()?;
                let members = members.iter().map(resolve).collect::<Result<Vec<_>, _>>()?;
                Some((revoke, roles, members))
            }
            _ => None,
        };
        // `CREATEROLE` on the system: the bootstrap role's and the
        // superuser's; another role's only while the checks are off.
        if user != BOOTSTRAP && !self.roles.unchecked() {
            return Err(unsupported(format!("privileges of role {user}")));
        }
        if let Some((revoke, roles, members)) = membership {
            return grant_roles(&mut self.roles.membership, revoke, &roles, &members);
        }
        match statement {
            RoleStatement::Membership { .. } | RoleStatement::Privileges(_) => {
                unreachable!("run above")
            }
            RoleStatement::Create { name } => {
                reserved(&name)?;
                if self.roles.id(&name).is_some() {
                    return Err(format!("role '{name}' already exists"));
                }
                self.create_role(&name);
            }
            RoleStatement::Alter { name, planned } => {
                self.roles
                    .id(&name)
                    .ok_or_else(|| format!("unknown role '{name}'"))?;
                planned?;
                if is_builtin(&name) {
                    reserved(&name)?;
                }
            }
            RoleStatement::Drop { if_exists, names } => {
                let mut dropped = Vec::new();
                for name in names {
                    if self.roles.id(&name).is_none() {
                        match if_exists {
                            true => continue,
                            false => return Err(format!("unknown role '{name}'")),
                        }
                    }
                    if name == user {
                        return Err("current role cannot be dropped".into());
                    }
                    dropped.push(name);
                }
                for name in &dropped {
                    if is_builtin(name) {
                        reserved(name)?;
                    }
                }
                let live: BTreeSet<GlobalId> = self.catalog.entries().map(|e| e.id).collect();
                let owns = |name: &String| {
                    let owned =
                        |(id, owner): (&GlobalId, &String)| owner == name && live.contains(id);
                    name == BOOTSTRAP || self.roles.owners.iter().any(owned)
                };
                if dropped.iter().any(owns) {
                    return Err(unsupported("DROP ROLE of a role that owns objects"));
                }
                for name in dropped {
                    let id = self.roles.id(&name).expect("resolved");
                    self.roles.membership.drop_role(&id);
                    self.roles.users.remove(&name);
                }
            }
        }
        Ok(())
    }
}
