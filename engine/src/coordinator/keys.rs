//! The check that stands in for Materialize's assumption about a table's
//! keys (`sql::constraints`): Materialize does not enforce them, and its
//! optimizer assumes no two rows share one, so over a table where two do,
//! its answers are its plans', not SQL's. The engine refuses the write that
//! would make two rows share a key, so every answer it gives over a keyed
//! table is one Materialize gives too.
//!
//! Each keyed table keeps how many rows hold each value of each key
//! (`KeyCounts`), updated by every write, so a write is checked against the
//! values it touches alone: O(updates × log rows), where consolidating the
//! whole table on each write made a bulk load quadratic.

use std::collections::BTreeMap;

use super::Engine;
use crate::packed::PackedRow;
use crate::repr::{unsupported, Datum, Diff, GlobalId};

/// For each key of a table (its columns), how many rows hold each of its
/// values; a value no row holds is absent.
pub struct KeyCounts {
    keys: Vec<Vec<usize>>,
    counts: Vec<BTreeMap<Vec<Datum>, Diff>>,
}

impl KeyCounts {
    /// The counts of an empty table with these keys.
    pub fn new(keys: Vec<Vec<usize>>) -> KeyCounts {
        let counts = keys.iter().map(|_| BTreeMap::new()).collect();
        KeyCounts { keys, counts }
    }

    /// How `updates` change the count of each value of key `k`.
    fn deltas(&self, k: usize, updates: &[(PackedRow, Diff)]) -> BTreeMap<Vec<Datum>, Diff> {
        let mut deltas = BTreeMap::new();
        for (row, diff) in updates {
            let row = row.unpack();
            let value = self.keys[k].iter().map(|&i| row[i].clone()).collect();
            *deltas.entry(value).or_default() += diff;
        }
        deltas
    }

    /// Whether, after `updates`, two rows (or one row twice) would hold the
    /// same value of a key.
    fn repeats(&self, updates: &[(PackedRow, Diff)]) -> bool {
        (0..self.keys.len()).any(|k| {
            self.deltas(k, updates)
                .iter()
                .any(|(value, delta)| self.counts[k].get(value).copied().unwrap_or(0) + delta > 1)
        })
    }

    /// Adds `updates` to the counts.
    pub fn write(&mut self, updates: &[(PackedRow, Diff)]) {
        for k in 0..self.keys.len() {
            for (value, delta) in self.deltas(k, updates) {
                let count = self.counts[k].entry(value.clone()).or_default();
                *count += delta;
                if *count == 0 {
                    self.counts[k].remove(&value);
                }
            }
        }
    }
}

impl Engine {
    /// The refusal of `updates` to `table` if, after them, two rows (or
    /// one row twice) would share a key of the table.
    pub(super) fn repeated_key(
        &self,
        table: GlobalId,
        updates: &[(PackedRow, Diff)],
    ) -> Option<String> {
        let counts = self.table_keys.get(&table)?;
        let name = &self.catalog.get(table)?.name;
        counts.repeats(updates).then(|| {
            unsupported(format!(
                "a write that gives two rows of {name} the same key (Materialize does not enforce keys)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updates(rows: &[(i32, i32, Diff)]) -> Vec<(PackedRow, Diff)> {
        let row = |a, b| PackedRow::pack(&[Datum::Int32(a), Datum::Int32(b)]);
        rows.iter().map(|&(a, b, d)| (row(a, b), d)).collect()
    }

    /// The counts follow every write, and a write is judged by the rows it
    /// leaves: keys may move and a deleted key be written again.
    #[test]
    fn counts_follow_writes_and_judge_what_a_write_leaves() {
        let mut counts = KeyCounts::new(vec![vec![0], vec![1]]);
        counts.write(&updates(&[(1, 10, 1), (2, 20, 1)]));
        assert!(counts.repeats(&updates(&[(1, 30, 1)])), "key 0 repeated");
        assert!(counts.repeats(&updates(&[(3, 20, 1)])), "key 1 repeated");
        assert!(
            counts.repeats(&updates(&[(4, 40, 1), (4, 41, 1)])),
            "within"
        );
        assert!(counts.repeats(&updates(&[(1, 10, 1)])), "a row twice");
        // Moving keys past each other: 1 and 2 become 2 and 3.
        let moved = updates(&[(1, 10, -1), (2, 20, -1), (2, 10, 1), (3, 20, 1)]);
        assert!(!counts.repeats(&moved));
        counts.write(&moved);
        assert!(!counts.repeats(&updates(&[(1, 30, 1)])), "1 is free again");
        assert!(counts.repeats(&updates(&[(3, 30, 1)])));
        counts.write(&updates(&[(2, 10, -1), (3, 20, -1)]));
        assert!(counts.counts.iter().all(BTreeMap::is_empty));
    }
}
