//! How updates enter differential's merge batcher: in long sorted runs.
//!
//! Differential's `ContainerChunker` sorts a few kilobytes of updates at a
//! time (128 of the oks' 64-byte updates) and hands each to the batcher's
//! merge ladder as a chain of its own, so every update is compared and moved
//! again at each of the ladder's levels: a million rows arriving as one index
//! snapshot are merged a dozen times over. `RunChunker` collects what
//! arrives until a run of `RUN` updates (or the batcher's next extract),
//! sorts and consolidates it once, and hands the ladder that one chain:
//! a table write of ten thousand rows is one sort, not a ladder of merges.

use std::collections::VecDeque;

use differential_dataflow::consolidation::consolidate_updates;
use differential_dataflow::difference::Semigroup;
use timely::container::{ContainerBuilder, PushInto};

/// Updates per sorted run: 1 MiB of the oks' 64-byte updates, few enough chains
/// for the ladder, little enough held unsorted.
const RUN: usize = 1 << 14;

/// A merge batcher's chunker that sorts runs of up to `RUN` updates, and
/// hands each on as a `C` (the vector itself, or the oks' packed updates).
pub struct RunChunker<D, T, R, C = Vec<(D, T, R)>> {
    /// What arrived since the last run was cut, unsorted.
    pending: Vec<(D, T, R)>,
    /// Sorted, consolidated runs, not yet taken by the batcher.
    ready: VecDeque<C>,
    /// The run last handed out, which the batcher takes from here.
    taken: C,
}

impl<D, T, R, C: Default> Default for RunChunker<D, T, R, C> {
    fn default() -> Self {
        RunChunker {
            pending: Vec::new(),
            ready: VecDeque::new(),
            taken: C::default(),
        }
    }
}

impl<D: Ord, T: Ord, R: Semigroup, C: From<Vec<(D, T, R)>>> RunChunker<D, T, R, C> {
    /// Sorts and consolidates what is pending into a ready run.
    fn cut(&mut self) {
        consolidate_updates(&mut self.pending);
        if !self.pending.is_empty() {
            let run = std::mem::take(&mut self.pending);
            self.ready.push_back(C::from(run));
        }
    }

    fn hand_out(&mut self) -> Option<&mut C> {
        self.taken = self.ready.pop_front()?;
        Some(&mut self.taken)
    }
}

impl<D: Ord, T: Ord, R: Semigroup, C: From<Vec<(D, T, R)>>> PushInto<&mut Vec<(D, T, R)>>
    for RunChunker<D, T, R, C>
{
    fn push_into(&mut self, updates: &mut Vec<(D, T, R)>) {
        self.pending.append(updates);
        if self.pending.len() >= RUN {
            self.cut();
        }
    }
}

impl<D: Ord, T: Ord, R: Semigroup, C: Default + From<Vec<(D, T, R)>>> ContainerBuilder
    for RunChunker<D, T, R, C>
{
    type Container = C;

    fn extract(&mut self) -> Option<&mut Self::Container> {
        self.hand_out()
    }

    fn finish(&mut self) -> Option<&mut Self::Container> {
        if !self.pending.is_empty() {
            self.cut();
        }
        self.hand_out()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains `chunker` the way the merge batcher does at an extract.
    fn finished(chunker: &mut RunChunker<u32, u64, i64>) -> Vec<Vec<(u32, u64, i64)>> {
        let mut runs = Vec::new();
        while let Some(run) = chunker.finish() {
            runs.push(std::mem::take(run));
        }
        runs
    }

    #[test]
    fn a_run_is_cut_when_it_is_long_enough_and_at_the_finish() {
        let mut chunker = RunChunker::<u32, u64, i64>::default();
        let mut first: Vec<(u32, u64, i64)> =
            (0..RUN as u32 - 1).rev().map(|k| (k, 0, 1)).collect();
        chunker.push_into(&mut first);
        assert!(first.is_empty(), "the chunker takes what it is given");
        assert!(chunker.extract().is_none(), "no run before RUN updates");
        chunker.push_into(&mut vec![(7, 0, 1), (RUN as u32, 0, 1)]);
        let run = std::mem::take(chunker.extract().expect("a run of RUN updates"));
        assert_eq!(run.len(), RUN, "the two updates of 7 are one");
        assert!(run.windows(2).all(|w| w[0] < w[1]), "sorted");
        assert_eq!(run[7], (7, 0, 2));
        assert!(chunker.extract().is_none());

        chunker.push_into(&mut vec![(3, 1, 1), (2, 1, 1), (3, 1, -1)]);
        assert!(
            chunker.extract().is_none(),
            "a short run waits for the finish"
        );
        assert_eq!(finished(&mut chunker), vec![vec![(2, 1, 1)]]);
        assert!(finished(&mut chunker).is_empty());
    }

    #[test]
    fn updates_that_cancel_out_leave_no_run() {
        let mut chunker = RunChunker::<u32, u64, i64>::default();
        chunker.push_into(&mut vec![(1, 0, 1), (1, 0, -1)]);
        assert!(finished(&mut chunker).is_empty());
    }
}
