//! How the oks batcher merges its chains of `PackedUpdates` and splits
//! them by time, as differential's `VecMerger` does for vectors: two
//! sorted chains become one, updates of equal `(key, row, time)` summed
//! and dropped at zero, and an extract parts what a frontier has passed
//! from what it has not.

use std::cmp::Ordering;

use differential_dataflow::batcher::merge::{Extractor, Merger};
use timely::progress::frontier::{Antichain, AntichainRef};

use crate::packed::{PackedUpdates, Update};
use crate::repr::Timestamp;

/// Updates per chunk a merge or an extract writes.
const CHUNK: usize = 4096;

/// Merges and splits chains of `PackedUpdates`.
#[derive(Default)]
pub struct PackedMerger;

/// A chain read update by update: the chunk at hand and where in it.
struct Reader {
    chunks: std::vec::IntoIter<PackedUpdates>,
    chunk: PackedUpdates,
    at: usize,
}

impl Reader {
    fn new(mut chain: Vec<PackedUpdates>) -> Self {
        // An empty chunk would read as the end of its chain.
        chain.retain(|chunk| !chunk.is_empty());
        let mut chunks = chain.into_iter();
        let chunk = chunks.next().unwrap_or_default();
        Reader {
            chunks,
            chunk,
            at: 0,
        }
    }

    fn done(&self) -> bool {
        self.at == self.chunk.len()
    }

    /// The update at hand; the reader is not done.
    fn get(&self) -> Update<'_> {
        self.chunk.get(self.at)
    }

    /// Moves past the update at hand; a spent chunk goes to `stash`.
    fn advance(&mut self, stash: &mut Vec<PackedUpdates>) {
        self.at += 1;
        if self.done() {
            if let Some(next) = self.chunks.next() {
                let mut spent = std::mem::replace(&mut self.chunk, next);
                if stash.len() < 2 {
                    spent.clear();
                    stash.push(spent);
                }
                self.at = 0;
            }
        }
    }
}

/// An empty chunk for `len` updates sized like `like`'s: a spent one
/// from `stash` if there is one.
fn empty(like: &PackedUpdates, len: usize, stash: &mut Vec<PackedUpdates>) -> PackedUpdates {
    stash
        .pop()
        .unwrap_or_else(|| PackedUpdates::like(like, len))
}

/// Pushes `chunk` to `chain` once full, starting another.
fn ship_if_full(
    chunk: &mut PackedUpdates,
    chain: &mut Vec<PackedUpdates>,
    stash: &mut Vec<PackedUpdates>,
) {
    if chunk.len() >= CHUNK {
        let fresh = empty(chunk, CHUNK, stash);
        chain.push(std::mem::replace(chunk, fresh));
    }
}

impl Merger for PackedMerger {
    type Chunk = PackedUpdates;

    fn merge(
        &mut self,
        list1: Vec<PackedUpdates>,
        list2: Vec<PackedUpdates>,
        output: &mut Vec<PackedUpdates>,
        stash: &mut Vec<PackedUpdates>,
    ) {
        // Room for all of a small merge (most of a scenario's), not more.
        let total: usize = list1.iter().chain(&list2).map(PackedUpdates::len).sum();
        let (mut a, mut b) = (Reader::new(list1), Reader::new(list2));
        let mut result = empty(&a.chunk, total.min(CHUNK), stash);
        // Each side's update at hand is read once, when its side advances.
        if !a.done() && !b.done() {
            let (mut x, mut y) = (a.get(), b.get());
            loop {
                match (x.0, x.1, x.2).cmp(&(y.0, y.1, y.2)) {
                    Ordering::Less => {
                        result.push(x);
                        ship_if_full(&mut result, output, stash);
                        a.advance(stash);
                        if a.done() {
                            break;
                        }
                        x = a.get();
                    }
                    Ordering::Greater => {
                        result.push(y);
                        ship_if_full(&mut result, output, stash);
                        b.advance(stash);
                        if b.done() {
                            break;
                        }
                        y = b.get();
                    }
                    Ordering::Equal => {
                        let diff = x.3 + y.3;
                        if diff != 0 {
                            result.push((x.0, x.1, x.2, diff));
                            ship_if_full(&mut result, output, stash);
                        }
                        a.advance(stash);
                        b.advance(stash);
                        if a.done() || b.done() {
                            break;
                        }
                        (x, y) = (a.get(), b.get());
                    }
                }
            }
        }
        // One side is spent: the rest of the other's chunk at hand, then
        // its remaining chunks as they are.
        for rest in [a, b] {
            for at in rest.at..rest.chunk.len() {
                result.push(rest.chunk.get(at));
                ship_if_full(&mut result, output, stash);
            }
            if !result.is_empty() {
                output.push(std::mem::take(&mut result));
            }
            output.extend(rest.chunks);
        }
    }

    fn len(chunk: &PackedUpdates) -> usize {
        chunk.len()
    }
}

impl Extractor for PackedMerger {
    type Time = Timestamp;

    fn extract(
        &mut self,
        merged: Vec<PackedUpdates>,
        upper: AntichainRef<Timestamp>,
        frontier: &mut Antichain<Timestamp>,
        readied: &mut Vec<PackedUpdates>,
        kept: &mut Vec<PackedUpdates>,
        stash: &mut Vec<PackedUpdates>,
    ) {
        let mut ready = PackedUpdates::default();
        let mut keep = PackedUpdates::default();
        for chunk in merged {
            let later = |t: &Timestamp| upper.less_equal(t);
            // A chunk wholly before or wholly at or after `upper` moves as
            // it is, behind what was parted before it.
            let (mut before, mut after) = (false, false);
            for t in chunk.times() {
                if later(&t) {
                    after = true;
                    frontier.insert(t);
                } else {
                    before = true;
                }
            }
            match (before, after) {
                (true, false) => {
                    flush(&mut ready, readied);
                    readied.push(chunk);
                }
                (false, true) => {
                    flush(&mut keep, kept);
                    kept.push(chunk);
                }
                _ => {
                    for at in 0..chunk.len() {
                        let update = chunk.get(at);
                        let (side, chain) = if later(&update.2) {
                            (&mut keep, &mut *kept)
                        } else {
                            (&mut ready, &mut *readied)
                        };
                        side.push(update);
                        ship_if_full(side, chain, stash);
                    }
                }
            }
        }
        flush(&mut ready, readied);
        flush(&mut keep, kept);
    }
}

/// Pushes a partly filled chunk to its chain.
fn flush(chunk: &mut PackedUpdates, chain: &mut Vec<PackedUpdates>) {
    if !chunk.is_empty() {
        chain.push(std::mem::take(chunk));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::PackedRow;
    use crate::repr::Datum::Int32;
    use crate::repr::Diff;

    type Owned = (i32, Timestamp, Diff);

    /// A chain of chunks of `size` updates of key `k` and row `[k]`.
    fn chain(updates: &[Owned], size: usize) -> Vec<PackedUpdates> {
        updates
            .chunks(size)
            .map(|chunk| {
                let run: Vec<_> = chunk
                    .iter()
                    .map(|&(k, t, d)| {
                        let row = PackedRow::pack(&[Int32(k)]);
                        ((row.clone(), row), t, d)
                    })
                    .collect();
                PackedUpdates::from(run)
            })
            .collect()
    }

    fn read(chain: &[PackedUpdates]) -> Vec<Owned> {
        let int = |row: crate::packed::PackedRef<'_>| match row.unpack()[..] {
            [Int32(k)] => k,
            _ => panic!("not a test row"),
        };
        chain
            .iter()
            .flat_map(PackedUpdates::iter)
            .map(|(k, r, t, d)| {
                assert_eq!(int(k), int(r));
                (int(k), t, d)
            })
            .collect()
    }

    /// Merged chains read as the sorted sum of both, zeros dropped, across
    /// chunk boundaries and past `CHUNK` updates of output.
    #[test]
    fn a_merge_is_the_sorted_sum_of_its_chains() {
        let a: Vec<Owned> = (0..6000).map(|i| (2 * i, 0, 1)).collect();
        let b: Vec<Owned> = (0..3000)
            .map(|i| (3 * i, 0, if i % 2 == 0 { -1 } else { 1 }))
            .collect();
        let mut want = std::collections::BTreeMap::new();
        for &(k, t, d) in a.iter().chain(&b) {
            *want.entry((k, t)).or_insert(0) += d;
        }
        let want: Vec<Owned> = want
            .into_iter()
            .filter(|(_, d)| *d != 0)
            .map(|((k, t), d)| (k, t, d))
            .collect();
        let (mut output, mut stash) = (Vec::new(), Vec::new());
        PackedMerger.merge(chain(&a, 1000), chain(&b, 700), &mut output, &mut stash);
        assert_eq!(read(&output), want);
        let lens: Vec<usize> = output.iter().map(PackedMerger::len).collect();
        assert_eq!(lens.iter().sum::<usize>(), want.len());
        assert!(lens.len() > 1, "{lens:?}");
        assert!(lens.iter().all(|&len| 0 < len && len <= CHUNK), "{lens:?}");
        let mut empty = Vec::new();
        PackedMerger.merge(Vec::new(), chain(&a, 1000), &mut empty, &mut stash);
        assert_eq!(read(&empty), a);
    }

    /// An extract readies what `upper` has passed and keeps the rest, in
    /// order, with the least kept time as the frontier: chunks wholly on
    /// one side and chunks that straddle it.
    #[test]
    fn an_extract_parts_a_chain_at_upper() {
        let updates: Vec<Owned> = (0..5000).map(|i| (i, (i % 7) as Timestamp, 1)).collect();
        let mut chunks = chain(&updates[..4000], 1000);
        // Chunks wholly before and wholly after `upper`, longer than a
        // chunk the extract writes: they move as they are.
        let long = |from: i32, time: Timestamp| -> Vec<Owned> {
            (from..from + 5000).map(|k| (k, time, 1)).collect()
        };
        chunks.extend(chain(&long(5000, 1), 5000));
        chunks.extend(chain(&long(10000, 5), 5000));
        let all = read(&chunks);
        let (mut readied, mut kept, mut stash) = (Vec::new(), Vec::new(), Vec::new());
        let mut frontier = Antichain::new();
        let upper = Antichain::from_elem(3);
        PackedMerger.extract(
            chunks,
            upper.borrow(),
            &mut frontier,
            &mut readied,
            &mut kept,
            &mut stash,
        );
        let (before, after): (Vec<Owned>, Vec<Owned>) = all.into_iter().partition(|u| u.1 < 3);
        assert_eq!(read(&readied), before);
        assert_eq!(read(&kept), after);
        assert_eq!(frontier, Antichain::from_elem(3));
        let lens =
            |chain: &[PackedUpdates]| chain.iter().map(PackedUpdates::len).collect::<Vec<_>>();
        // The straddling chunks' parts, then the long chunk as it was.
        assert_eq!(lens(&readied), [before.len() - 5000, 5000]);
        assert_eq!(lens(&kept), [after.len() - 5000, 5000]);
    }
}
