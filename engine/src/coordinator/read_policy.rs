//! The default read policy: after every directive each table's and index's
//! since advances to `now`, held back by named holds, pending peeks, live
//! subscribes (at their frontiers), and the since of every index dataflow
//! that imports it. The decision is a pure
//! function of those inputs (`advances`); the coordinator only sends it on.

use std::collections::BTreeMap;

use super::Engine;
use crate::protocol::Command;
use crate::repr::{GlobalId, Timestamp};

impl Engine {
    /// A table or index by name, for the directives that hold or compact one.
    pub(super) fn resolve_collection(&self, name: &str) -> Result<GlobalId, String> {
        match crate::plan::Resolver::resolve(&self.catalog, name) {
            Some((id, _)) if self.sinces.contains_key(&id) => Ok(id),
            Some(_) => Err(format!("{name} is not a table or index")),
            None => Err(format!("unknown catalog item '{name}'")),
        }
    }

    /// Applies the default read policy, then lets the workers settle.
    pub(super) fn finish_directive(&mut self) {
        // Subscribes that ended in the directive hold nothing any more.
        self.end_subscribes();
        let mut holds: Vec<(GlobalId, Timestamp)> = self.holds.values().copied().collect();
        for state in self.peeks.values() {
            holds.extend(state.holds.iter().map(|id| (*id, state.time)));
        }
        holds.extend(self.subscribe_holds());
        holds.extend(self.transactions.holds());
        let imports: Vec<(GlobalId, GlobalId)> = self
            .catalog
            .entries()
            .filter_map(|entry| entry.export().map(|detail| (entry.id, detail)))
            .flat_map(|(index, detail)| detail.imports.iter().map(move |on| (index, *on)))
            .collect();
        for (id, since) in advances(self.now, &self.sinces, &holds, &imports) {
            self.advance_since(id, since);
        }
        self.settle_subscribes();
    }

    /// Moves `id`'s since forward to `since` (never back) on every runtime.
    pub(super) fn advance_since(&mut self, id: GlobalId, since: Timestamp) {
        let current = self.sinces.get_mut(&id).expect("collection has a since");
        if since <= *current {
            return;
        }
        *current = since;
        for handle in &self.runtimes {
            handle
                .runtime
                .broadcast(Command::AllowCompaction { id, since });
        }
    }
}

/// The sinces the policy advances, newest collection first: each goes to
/// `now`, held back by every `(collection, time)` hold and by the (already
/// advanced) since of every `(index, collection)` importer. A since never
/// moves back. Newest first because an index only imports older objects,
/// so importers are settled before what they hold.
pub(super) fn advances(
    now: Timestamp,
    sinces: &BTreeMap<GlobalId, Timestamp>,
    holds: &[(GlobalId, Timestamp)],
    imports: &[(GlobalId, GlobalId)],
) -> Vec<(GlobalId, Timestamp)> {
    let mut sinces = sinces.clone();
    let mut advanced = Vec::new();
    let ids: Vec<GlobalId> = sinces.keys().rev().copied().collect();
    for id in ids {
        let held = holds.iter().filter(|(on, _)| *on == id).map(|(_, at)| *at);
        let importers = imports
            .iter()
            .filter(|(_, on)| *on == id)
            .map(|(index, _)| sinces[index]);
        let target = held.chain(importers).fold(now, Timestamp::min);
        let since = sinces.get_mut(&id).expect("listed");
        if target > *since {
            *since = target;
            advanced.push((id, target));
        }
    }
    advanced
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: GlobalId = GlobalId(1);
    const I: GlobalId = GlobalId(2);
    const J: GlobalId = GlobalId(3);

    fn sinces(entries: &[(GlobalId, Timestamp)]) -> BTreeMap<GlobalId, Timestamp> {
        entries.iter().copied().collect()
    }

    #[test]
    fn everything_advances_to_now_newest_first() {
        let advanced = advances(5, &sinces(&[(T, 1), (I, 2)]), &[], &[]);
        assert_eq!(advanced, vec![(I, 5), (T, 5)]);
    }

    #[test]
    fn the_earliest_hold_holds_a_collection_back() {
        let advanced = advances(5, &sinces(&[(T, 1)]), &[(T, 4), (T, 3), (I, 0)], &[]);
        assert_eq!(advanced, vec![(T, 3)]);
    }

    #[test]
    fn an_importer_holds_its_input_at_its_own_new_since() {
        // J imports I, I imports T; a hold on J at 3 holds all three there.
        let advanced = advances(
            5,
            &sinces(&[(T, 1), (I, 1), (J, 1)]),
            &[(J, 3)],
            &[(I, T), (J, I)],
        );
        assert_eq!(advanced, vec![(J, 3), (I, 3), (T, 3)]);
    }

    #[test]
    fn a_since_never_moves_back() {
        let advanced = advances(5, &sinces(&[(T, 4), (I, 2)]), &[(T, 2), (I, 3)], &[]);
        assert_eq!(advanced, vec![(I, 3)]);
    }
}
