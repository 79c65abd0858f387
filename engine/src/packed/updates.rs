//! The oks batcher's updates, `(key, row, time, diff)`, with keys and rows
//! packed back to back (`PackedRows`, as an arrangement keeps them) and
//! each run of equal `(time, diff)`s kept once: about 15 bytes an update
//! of a key of one integer and a row of two at one time, where a `((PackedRow, PackedRow), time, diff)` takes 64 (and
//! an allocation for a row too long to be inline). An index built over a
//! loaded table holds every update of the snapshot in its batcher at once,
//! beside the table, until it seals them into the index's batch; they all
//! have the one time of the snapshot.

use differential_dataflow::trace::implementations::ord_neu::BuilderInput;
use differential_dataflow::trace::implementations::BatchContainer;
use timely::container::DrainContainer;

use super::{PackedRef, PackedRow, PackedRows};
use crate::repr::{Diff, Timestamp};

/// Updates of `(key, row)` pairs, in the order pushed.
#[derive(Default)]
pub struct PackedUpdates {
    keys: PackedRows,
    rows: PackedRows,
    stamps: Vec<Stamp>,
}

/// Consecutive updates with one `(time, diff)`: those before `end`, from
/// the previous stamp's end on.
#[derive(Clone, Copy)]
struct Stamp {
    end: u32,
    time: Timestamp,
    diff: Diff,
}

/// One update, read in place.
pub type Update<'a> = (PackedRef<'a>, PackedRef<'a>, Timestamp, Diff);

impl PackedUpdates {
    /// Room for `len` updates whose keys and rows take `key_bytes` and
    /// `row_bytes` in all, and `stamps` runs of one `(time, diff)`.
    pub fn with_capacity(len: usize, key_bytes: usize, row_bytes: usize, stamps: usize) -> Self {
        PackedUpdates {
            keys: PackedRows::with_bytes(len, key_bytes),
            rows: PackedRows::with_bytes(len, row_bytes),
            stamps: Vec::with_capacity(stamps),
        }
    }

    /// Room for `len` updates with keys, rows and runs of one `(time,
    /// diff)` the size of `like`'s, on average (a merge's output, sized
    /// after its input).
    pub fn like(like: &PackedUpdates, len: usize) -> Self {
        let per = |count: usize| (count * len).div_ceil(like.len().max(1));
        PackedUpdates::with_capacity(
            len,
            per(like.keys.byte_len()),
            per(like.rows.byte_len()),
            per(like.stamps.len()),
        )
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The times of the updates, each run's once.
    pub fn times(&self) -> impl Iterator<Item = Timestamp> + '_ {
        self.stamps.iter().map(|stamp| stamp.time)
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn get(&self, index: usize) -> Update<'_> {
        let run = self
            .stamps
            .partition_point(|stamp| stamp.end as usize <= index);
        let Stamp { time, diff, .. } = self.stamps[run];
        (self.keys.index(index), self.rows.index(index), time, diff)
    }

    pub fn push(&mut self, (key, row, time, diff): Update<'_>) {
        self.keys.push(key);
        self.rows.push(row);
        match self.stamps.last_mut() {
            Some(last) if (last.time, last.diff) == (time, diff) => last.end += 1,
            _ => {
                let end = u32::try_from(self.keys.len()).expect("a chunk under 4G updates");
                self.stamps.push(Stamp { end, time, diff });
            }
        }
    }

    pub fn clear(&mut self) {
        self.keys.clear();
        self.rows.clear();
        self.stamps.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = Update<'_>> {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// A sorted run of the chunker, packed exactly to size.
impl From<Vec<((PackedRow, PackedRow), Timestamp, Diff)>> for PackedUpdates {
    fn from(run: Vec<((PackedRow, PackedRow), Timestamp, Diff)>) -> Self {
        let bytes = |side: fn(&(PackedRow, PackedRow)) -> &PackedRow| {
            run.iter()
                .map(|(pair, _, _)| side(pair).as_ref().bytes().len())
                .sum()
        };
        let stamps = 1 + run
            .windows(2)
            .filter(|w| (w[0].1, w[0].2) != (w[1].1, w[1].2))
            .count();
        let (keys, rows) = (bytes(|p| &p.0), bytes(|p| &p.1));
        let mut updates = PackedUpdates::with_capacity(run.len(), keys, rows, stamps);
        for ((key, row), time, diff) in &run {
            updates.push((key.as_ref(), row.as_ref(), *time, *diff));
        }
        updates
    }
}

impl DrainContainer for PackedUpdates {
    type Item<'a> = Update<'a>;
    type DrainIter<'a> = Drain<'a>;
    /// Reads the updates in place; the builder that drains a chunk drops
    /// it next.
    fn drain(&mut self) -> Drain<'_> {
        Drain {
            updates: self,
            next: 0,
        }
    }
}

/// The updates of a `PackedUpdates`, in order.
pub struct Drain<'a> {
    updates: &'a PackedUpdates,
    next: usize,
}

impl<'a> Iterator for Drain<'a> {
    type Item = Update<'a>;
    fn next(&mut self) -> Option<Update<'a>> {
        let update = (self.next < self.updates.len()).then(|| self.updates.get(self.next));
        self.next += 1;
        update
    }
}

/// What differential's batch builder reads a sealed chain through.
impl BuilderInput<PackedRows, PackedRows> for PackedUpdates {
    type Key<'a> = PackedRef<'a>;
    type Val<'a> = PackedRef<'a>;
    type Time = Timestamp;
    type Diff = Diff;

    fn into_parts<'a>(
        update: Self::Item<'a>,
    ) -> (Self::Key<'a>, Self::Val<'a>, Self::Time, Self::Diff) {
        update
    }

    fn key_eq(this: &PackedRef<'_>, other: PackedRef<'_>) -> bool {
        *this == other
    }

    fn val_eq(this: &PackedRef<'_>, other: PackedRef<'_>) -> bool {
        *this == other
    }

    fn key_val_upd_counts(chain: &[Self]) -> (usize, usize, usize) {
        let sizes = SealedSizes::of(chain);
        (sizes.keys, sizes.vals, sizes.upds)
    }
}

/// What a batch sealed from a sorted, consolidated chain takes, counted
/// exactly, so its sealer reserves no more than it fills (differential's
/// guess reserves a time and a diff for every update, and ten bytes for
/// every key and row, until the batch is dropped).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SealedSizes {
    /// Distinct keys, and their bytes.
    pub keys: usize,
    pub key_bytes: usize,
    /// Distinct `(key, row)` pairs, and their rows' bytes.
    pub vals: usize,
    pub val_bytes: usize,
    /// Every update of the chain.
    pub upds: usize,
    /// The `(time, diff)`s the batch stores: differential's builder stores
    /// none for a pair whose only update equals the one stored last.
    pub stored: usize,
}

impl SealedSizes {
    pub fn of(chain: &[PackedUpdates]) -> SealedSizes {
        let mut sizes = SealedSizes::default();
        let mut last: Option<(PackedRef<'_>, PackedRef<'_>)> = None;
        // The current pair's updates: how many, its first, its last.
        let mut pair = (0, (0, 0), (0, 0));
        let mut stored_last = None;
        let mut close = |sizes: &mut SealedSizes, (count, first, last)| {
            if count == 1 && stored_last == Some(first) {
                return;
            }
            sizes.stored += count;
            stored_last = Some(last);
        };
        for (key, row, time, diff) in chain.iter().flat_map(PackedUpdates::iter) {
            let (new_key, new_pair) = match last {
                Some((k, _)) if k != key => (true, true),
                Some((_, r)) => (false, r != row),
                None => (true, true),
            };
            if new_pair {
                if last.is_some() {
                    close(&mut sizes, pair);
                }
                pair = (0, (time, diff), (time, diff));
                sizes.vals += 1;
                sizes.val_bytes += row.bytes().len();
            }
            if new_key {
                sizes.keys += 1;
                sizes.key_bytes += key.bytes().len();
            }
            pair = (pair.0 + 1, pair.1, (time, diff));
            sizes.upds += 1;
            last = Some((key, row));
        }
        if last.is_some() {
            close(&mut sizes, pair);
        }
        sizes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum::{Int32, Text};

    fn run() -> Vec<((PackedRow, PackedRow), Timestamp, Diff)> {
        let pair = |k: i32, text: &str| {
            let key = PackedRow::pack(&[Int32(k)]);
            (key, PackedRow::pack(&[Int32(k), Text(text.into())]))
        };
        vec![
            (pair(1, "a"), 0, 1),
            (pair(1, "a"), 2, -1),
            (pair(1, "a long row, longer than fits inline"), 0, 1),
            (pair(2, "b"), 1, 3),
        ]
    }

    #[test]
    fn a_run_reads_back_as_it_was_sized_exactly() {
        let run = run();
        let updates = PackedUpdates::from(run.clone());
        assert_eq!(updates.len(), 4);
        let back: Vec<_> = updates
            .iter()
            .map(|(k, r, t, d)| ((k.to_owned(), r.to_owned()), t, d))
            .collect();
        assert!(back
            .iter()
            .zip(&run)
            .all(|(a, b)| a.0 .0 == b.0 .0 && a.0 .1 == b.0 .1 && (a.1, a.2) == (b.1, b.2)));
        assert_eq!((updates.keys.spare(), updates.rows.spare()), (0, 0));
        // Four runs of one (time, diff), each kept once, in room for four.
        assert_eq!((updates.stamps.len(), updates.stamps.capacity()), (4, 4));
        let mut drained = PackedUpdates::from(run);
        assert_eq!(drained.drain().count(), 4);
    }

    /// Updates of one `(time, diff)` keep it once, however many they are,
    /// and read it back each.
    #[test]
    fn a_run_of_one_time_keeps_it_once() {
        let key = |k: i32| PackedRow::pack(&[Int32(k)]);
        let run: Vec<_> = (0..1000).map(|k| ((key(k), key(k)), 9, 1)).collect();
        let mut updates = PackedUpdates::from(run);
        assert_eq!((updates.len(), updates.stamps.len()), (1000, 1));
        assert_eq!(updates.stamps.capacity(), 1, "sized exactly");
        assert!(updates.iter().all(|(_, _, t, d)| (t, d) == (9, 1)));
        updates.push((key(1000).as_ref(), key(1000).as_ref(), 9, 2));
        assert_eq!(updates.stamps.len(), 2);
        assert_eq!(updates.get(999).3, 1);
        assert_eq!(updates.get(1000).3, 2);
        assert_eq!(updates.times().collect::<Vec<_>>(), [9, 9]);
    }

    /// A merge's output chunk has room for rows the size of its input's.
    #[test]
    fn a_chunk_like_another_has_room_for_rows_of_its_size() {
        let like = PackedUpdates::from(run());
        let (keys, rows) = (like.keys.byte_len(), like.rows.byte_len());
        let room = PackedUpdates::like(&like, 400);
        assert_eq!(room.keys.spare(), keys * 100);
        assert_eq!(room.rows.spare(), rows * 100);
        assert!(room.is_empty() && !like.is_empty());
    }

    #[test]
    fn counts_are_of_distinct_keys_and_pairs_across_the_chain() {
        let mut run = run();
        let tail = PackedUpdates::from(run.split_off(2));
        let chain = [PackedUpdates::from(run), tail];
        assert_eq!(PackedUpdates::key_val_upd_counts(&chain), (2, 3, 4));
        // A row's second time under its key is no new value.
        let pair = |k: i32, v: i32| (PackedRow::pack(&[Int32(k)]), PackedRow::pack(&[Int32(v)]));
        let run = vec![
            (pair(1, 1), 0, 1),
            (pair(1, 1), 1, 1),
            (pair(1, 2), 0, 1),
            (pair(1, 2), 1, 1),
            (pair(2, 3), 0, 1),
        ];
        let chain = [PackedUpdates::from(run)];
        assert_eq!(PackedUpdates::key_val_upd_counts(&chain), (2, 3, 5));
        assert_eq!(PackedUpdates::key_val_upd_counts(&[]), (0, 0, 0));
    }

    /// The bytes of distinct keys and rows, and the `(time, diff)`s a
    /// sealed batch stores, across a chain's chunks: a pair's only update
    /// equal to the one stored last is not stored again.
    #[test]
    fn sealed_sizes_count_what_the_batch_stores() {
        let len = |row: &PackedRow| row.as_ref().bytes().len();
        let mut run = run();
        let expected = SealedSizes {
            keys: 2,
            key_bytes: len(&run[0].0 .0) + len(&run[3].0 .0),
            vals: 3,
            val_bytes: len(&run[0].0 .1) + len(&run[2].0 .1) + len(&run[3].0 .1),
            upds: 4,
            // (0, 1) and (2, -1); (0, 1) again, after (2, -1); then (1, 3).
            stored: 4,
        };
        let tail = PackedUpdates::from(run.split_off(1));
        assert_eq!(SealedSizes::of(&[PackedUpdates::from(run), tail]), expected);
        let key = |k: i32| PackedRow::pack(&[Int32(k)]);
        let singles = |diffs: &[Diff]| {
            let run = (0..).zip(diffs).map(|(k, d)| ((key(k), key(k)), 5, *d));
            SealedSizes::of(&[PackedUpdates::from(run.collect::<Vec<_>>())]).stored
        };
        assert_eq!(singles(&[1, 1, 1, 1]), 1);
        assert_eq!(singles(&[1, 1, -1, -1, 1]), 3);
        assert_eq!(SealedSizes::of(&[]), SealedSizes::default());
    }
}
