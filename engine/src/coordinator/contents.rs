//! A table's current rows as the coordinator keeps them, for UPDATE and
//! DELETE to read: writes are appended as they come and consolidated
//! (sorted, counts of equal rows summed, zeros dropped) only when read or
//! once the appended part outgrows the consolidated one, so a bulk load
//! costs a push per row instead of an ordered insert, and updates that are
//! never read cannot grow it past about twice its consolidated size (or a
//! thousand updates, whichever is more).

use differential_dataflow::consolidation::consolidate;

use crate::packed::PackedRow;
use crate::repr::{Diff, Row};

/// Rows with their counts, packed as the arrangements keep them.
#[derive(Default)]
pub struct Contents {
    updates: Vec<(PackedRow, Diff)>,
    /// How many of `updates`, from the start, are consolidated.
    consolidated: usize,
}

impl Contents {
    /// Adds `updates` to the rows.
    pub fn write(&mut self, updates: &[(PackedRow, Diff)]) {
        self.updates.extend_from_slice(updates);
        if self.updates.len() - self.consolidated > self.consolidated.max(MIN_APPENDED) {
            self.consolidate();
        }
    }

    /// The rows with non-zero counts, in row order.
    pub fn rows(&mut self) -> impl Iterator<Item = (Row, Diff)> + '_ {
        self.consolidate();
        self.updates
            .iter()
            .map(|(row, count)| (row.unpack(), *count))
    }

    fn consolidate(&mut self) {
        consolidate(&mut self.updates);
        self.consolidated = self.updates.len();
    }
}

/// Appended updates below this many are left for a read to consolidate.
const MIN_APPENDED: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum::{Int32, Null, Text};

    /// Against a map of counts, over writes that insert, retract to zero
    /// and below, and cross the consolidation threshold.
    #[test]
    fn rows_are_the_sum_of_writes_in_row_order() {
        let mut contents = Contents::default();
        let mut expected = std::collections::BTreeMap::<Row, Diff>::new();
        let row = |i: i32| match i % 3 {
            0 => vec![Int32(i % 500)],
            1 => vec![Null, Text(format!("{}", i % 7))],
            _ => vec![Int32(-(i % 11))],
        };
        for round in 0..20 {
            let updates: Vec<(Row, Diff)> = (0..300)
                .map(|i| (row(i * 7 + round), [1, -1, 2, 0][(i + round) as usize % 4]))
                .collect();
            let packed: Vec<_> = updates
                .iter()
                .map(|(r, d)| (PackedRow::pack(r), *d))
                .collect();
            contents.write(&packed);
            for (r, d) in updates {
                *expected.entry(r).or_default() += d;
            }
            if round % 5 == 4 {
                expected.retain(|_, d| *d != 0);
                let got: Vec<(Row, Diff)> = contents.rows().collect();
                let want: Vec<(Row, Diff)> = expected.clone().into_iter().collect();
                assert_eq!(got, want, "after round {round}");
            }
        }
    }

    /// Writes that cancel out, never read: the log stays bounded.
    #[test]
    fn unread_updates_are_consolidated_as_they_pile_up() {
        let mut contents = Contents::default();
        let rows: Vec<PackedRow> = (0..300).map(|i| PackedRow::pack(&[Int32(i)])).collect();
        for round in 0..100 {
            let diff = if round % 2 == 0 { 1 } else { -1 };
            let updates: Vec<(PackedRow, Diff)> = rows.iter().map(|r| (r.clone(), diff)).collect();
            contents.write(&updates);
            assert!(
                contents.updates.len() <= MIN_APPENDED + 300,
                "round {round}"
            );
        }
        assert_eq!(contents.rows().count(), 0);
        assert_eq!(Contents::default().rows().count(), 0);
    }
}
