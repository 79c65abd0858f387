//! The check that stands in for Materialize's assumption about a table's
//! keys (`sql::constraints`): Materialize does not enforce them, and its
//! optimizer assumes no two rows share one, so over a table where two do,
//! its answers are its plans', not SQL's. The engine refuses the write that
//! would make two rows share a key, so every answer it gives over a keyed
//! table is one Materialize gives too.

use std::collections::BTreeMap;

use differential_dataflow::consolidation::consolidate;

use super::catalog::Detail;
use super::Engine;
use crate::packed::PackedRow;
use crate::repr::{unsupported, Datum, Diff, GlobalId, Row};

impl Engine {
    /// The refusal of `updates` to `table` if, after them, two rows (or
    /// one row twice) would share a key of the table.
    pub(super) fn repeated_key(
        &mut self,
        table: GlobalId,
        updates: &[(PackedRow, Diff)],
    ) -> Option<String> {
        let keys = match self.catalog.get(table).map(|e| (&e.name, &e.detail)) {
            Some((name, Detail::Table { keys })) if !keys.is_empty() => {
                (name.clone(), keys.clone())
            }
            _ => return None,
        };
        let (name, keys) = keys;
        let mut rows: Vec<(Row, Diff)> = self.rows_of(table);
        rows.extend(updates.iter().map(|(row, diff)| (row.unpack(), *diff)));
        consolidate(&mut rows);
        let repeats = keys.iter().any(|key| {
            let mut counts: BTreeMap<Vec<&Datum>, Diff> = BTreeMap::new();
            for (row, count) in &rows {
                *counts
                    .entry(key.iter().map(|&i| &row[i]).collect())
                    .or_default() += count;
            }
            counts.values().any(|&count| count > 1)
        });
        repeats.then(|| {
            unsupported(format!(
                "a write that gives two rows of {name} the same key (Materialize does not enforce keys)"
            ))
        })
    }
}
