//! A table's current rows as the coordinator keeps them, for UPDATE and
//! DELETE to read (the table's contents as storage holds them, apart from
//! any worker, so a paused or lagging one does not change what they see).
//!
//! The consolidated rows (sorted, counts of equal rows summed, zeros
//! dropped) lie packed back to back, as an arrangement keeps them, with a
//! count each: about 22 bytes a row of two integers, where a
//! `Vec<(PackedRow, Diff)>` takes 32 and, grown by doubling, up to twice
//! that. Writes are appended as they come and merged in only when read or
//! once they outgrow half the consolidated rows, so a bulk load costs a
//! push per row instead of an ordered insert, each row is merged about
//! twice, and the appended part stays smaller than the rest (or under a
//! thousand updates); its vector is let go after each merge. (In the
//! benchmark's 1M-row load of 10,000-row writes, merging at a quarter took
//! about a tenth more time for no smaller peak; merging at the whole, or
//! keeping the vector, held 8 to 12 bytes a row more.)

use std::cmp::Ordering::{Equal, Greater, Less};

use differential_dataflow::consolidation::consolidate;
use differential_dataflow::trace::implementations::BatchContainer;

use crate::packed::{PackedRow, PackedRows};
use crate::repr::{Diff, Row};

/// Rows with their counts (see the module).
#[derive(Default)]
pub struct Contents {
    /// The consolidated rows, in row order.
    rows: PackedRows,
    /// The count of each of `rows`, never zero.
    counts: Vec<Diff>,
    /// Updates written since, not yet merged in.
    appended: Vec<(PackedRow, Diff)>,
}

impl Contents {
    /// Adds `updates` to the rows.
    pub fn write(&mut self, updates: &[(PackedRow, Diff)]) {
        self.appended.extend_from_slice(updates);
        if self.appended.len() > (self.counts.len() / 2).max(MIN_APPENDED) {
            self.consolidate();
        }
    }

    /// The rows with non-zero counts, in row order.
    pub fn rows(&mut self) -> impl Iterator<Item = (Row, Diff)> + '_ {
        self.consolidate();
        let (rows, counts) = (&self.rows, &self.counts);
        (0..counts.len()).map(move |i| (rows.index(i).unpack(), counts[i]))
    }

    /// Merges the appended updates into the consolidated rows.
    fn consolidate(&mut self) {
        if self.appended.is_empty() {
            return;
        }
        consolidate(&mut self.appended);
        // Room for every row and its bytes, as a merge of batches reserves:
        // differential's guess of ten bytes a row would grow a table of
        // wider rows by doubling, and keep the slack.
        let capacity = self.counts.len() + self.appended.len();
        let appended: usize = self
            .appended
            .iter()
            .map(|(row, _)| row.as_ref().byte_len())
            .sum();
        let mut rows = PackedRows::with_bytes(capacity, self.rows.byte_len() + appended);
        let mut counts = Vec::with_capacity(capacity);
        let mut push = |row, count| {
            if count != 0 {
                rows.push_ref(row);
                counts.push(count);
            }
        };
        let mut old = (0..self.counts.len()).peekable();
        let mut new = self.appended.iter().peekable();
        loop {
            let order = match (old.peek(), new.peek()) {
                (None, None) => break,
                (Some(_), None) => Less,
                (None, Some(_)) => Greater,
                (Some(&i), Some((row, _))) => self.rows.index(i).cmp(&row.as_ref()),
            };
            match order {
                Less => {
                    let i = old.next().expect("peeked");
                    push(self.rows.index(i), self.counts[i]);
                }
                Greater => {
                    let (row, count) = new.next().expect("peeked");
                    push(row.as_ref(), *count);
                }
                Equal => {
                    let i = old.next().expect("peeked");
                    let (_, count) = new.next().expect("peeked");
                    push(self.rows.index(i), self.counts[i] + count);
                }
            }
        }
        self.rows = rows;
        self.counts = counts;
        self.appended = Vec::new();
    }
}

/// Appended updates below this many are left for a read to merge in.
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

    /// A write is merged in once the appended updates outgrow half the
    /// consolidated rows, retractions cancelling rows to none.
    #[test]
    fn writes_merge_in_past_half_the_rows() {
        let mut contents = Contents::default();
        let rows = |range: std::ops::Range<i32>, diff: Diff| -> Vec<(PackedRow, Diff)> {
            range
                .map(|i| (PackedRow::pack(&[Int32(i)]), diff))
                .collect()
        };
        contents.write(&rows(0..8000, 1));
        assert_eq!((contents.counts.len(), contents.appended.len()), (8000, 0));
        contents.write(&rows(0..3000, -1));
        assert_eq!(
            (contents.counts.len(), contents.appended.len()),
            (8000, 3000)
        );
        contents.write(&rows(8000..9000, 1));
        assert_eq!(
            (contents.counts.len(), contents.appended.len()),
            (8000, 4000),
            "half the rows is not past half"
        );
        contents.write(&rows(9000..9001, 1));
        assert_eq!((contents.counts.len(), contents.appended.len()), (6001, 0));
        let got: Vec<(Row, Diff)> = contents.rows().collect();
        let want: Vec<(Row, Diff)> = (3000..9001).map(|i| (vec![Int32(i)], 1)).collect();
        assert_eq!(got, want);
    }

    /// A merge reserves the bytes its rows take: rows wider than a guess
    /// of ten bytes each leave no room spare when none cancel.
    #[test]
    fn a_merge_reserves_the_bytes_of_its_rows() {
        let mut contents = Contents::default();
        let wide = |i: i32| PackedRow::pack(&[Text(format!("a row of some width, {i:05}"))]);
        let rows: Vec<(PackedRow, Diff)> = (0..2000).map(|i| (wide(i), 1)).collect();
        contents.write(&rows);
        assert_eq!((contents.counts.len(), contents.appended.len()), (2000, 0));
        assert_eq!(contents.rows.spare(), 0);
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
                contents.appended.len() <= MIN_APPENDED + 300,
                "round {round}"
            );
        }
        assert_eq!(contents.rows().count(), 0);
        assert_eq!(Contents::default().rows().count(), 0);
    }
}
