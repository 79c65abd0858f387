//! Role membership, as Materialize keeps it: which roles each role was
//! granted (`GRANT role TO member`), always by `mz_system` (Materialize's
//! `plan_grant_role` makes every grantor the bootstrap superuser, as it has
//! no `ADMIN OPTION`), and the roles a role is a member of through them
//! (`collect_role_membership`). Kept apart from the roles themselves
//! (`roles.rs`) with a small read API, so that the catalog's relations
//! (`mz_role_members`) and the privilege functions can read it. Roles are
//! named by their ids (`u2`, `g1`, `p`), so that a role dropped and created
//! again under its name is no member of what the old one was.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The id of `PUBLIC`, of which every role is a member.
pub(super) const PUBLIC: &str = "p";
/// The grantor of every membership: `mz_system`.
pub(super) const GRANTOR: &str = "s1";

/// Each member's direct memberships: member id to the ids of its roles.
#[derive(Default, Clone)]
pub(super) struct Membership {
    granted: BTreeMap<String, BTreeSet<String>>,
}

impl Membership {
    /// Whether `member` was granted `role` itself.
    pub(super) fn is_direct(&self, role: &str, member: &str) -> bool {
        self.granted.get(member).is_some_and(|r| r.contains(role))
    }

    /// Grants `role` to `member`.
    pub(super) fn grant(&mut self, role: &str, member: &str) {
        let roles = self.granted.entry(member.to_string()).or_default();
        roles.insert(role.to_string());
    }

    /// Revokes `role` from `member`, if it was granted.
    pub(super) fn revoke(&mut self, role: &str, member: &str) {
        if let Some(roles) = self.granted.get_mut(member) {
            roles.remove(role);
            if roles.is_empty() {
                self.granted.remove(member);
            }
        }
    }

    /// Forgets a dropped role: its memberships and its members'.
    pub(super) fn drop_role(&mut self, id: &str) {
        self.granted.remove(id);
        for roles in self.granted.values_mut() {
            roles.remove(id);
        }
        self.granted.retain(|_, roles| !roles.is_empty());
    }

    /// Materialize's `collect_role_membership`: the role itself, every role
    /// it is a member of, directly or through others, and `PUBLIC`.
    pub(super) fn member_of(&self, id: &str) -> BTreeSet<String> {
        let mut membership = BTreeSet::new();
        let mut queue = VecDeque::from([id.to_string()]);
        while let Some(current) = queue.pop_front() {
            if membership.insert(current.clone()) {
                if let Some(roles) = self.granted.get(&current) {
                    queue.extend(roles.iter().cloned());
                }
            }
        }
        membership.insert(PUBLIC.to_string());
        membership
    }

    /// Materialize's `mz_role_oid_memberships` of a role: itself and every
    /// role it is a member of, directly or through others, but not
    /// `PUBLIC`, of which no role is a member by a grant.
    pub(super) fn member_of_itself(&self, id: &str) -> BTreeSet<String> {
        let mut of = self.member_of(id);
        if id != PUBLIC {
            of.remove(PUBLIC);
        }
        of
    }

    /// Every membership: (role, member, grantor), as `mz_role_members`
    /// lists them.
    pub(super) fn memberships(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.granted.iter().flat_map(|(member, roles)| {
            roles
                .iter()
                .map(move |role| (role.as_str(), member.as_str(), GRANTOR))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[&str]) -> BTreeSet<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn membership_is_transitive_and_forgets_a_dropped_role() {
        let mut m = Membership::default();
        assert_eq!(m.member_of("u2"), set(&["u2", "p"]));
        m.grant("u3", "u2");
        m.grant("u4", "u3");
        assert!(m.is_direct("u3", "u2"));
        assert!(!m.is_direct("u4", "u2"));
        assert_eq!(m.member_of("u2"), set(&["u2", "u3", "u4", "p"]));
        assert_eq!(
            m.memberships().collect::<Vec<_>>(),
            [("u3", "u2", "s1"), ("u4", "u3", "s1")]
        );
        m.drop_role("u3");
        assert_eq!(m.member_of("u2"), set(&["u2", "p"]));
        assert_eq!(m.memberships().count(), 0);
        m.grant("u4", "u2");
        m.revoke("u4", "u2");
        m.revoke("u4", "u2");
        assert_eq!(m.member_of("u2"), set(&["u2", "p"]));
    }
}
