//! Batches behind an `Arc`, so an index's arrangement can be read from the
//! threads of another runtime without copying it.
//!
//! Differential's spines hold `Rc` batches, which cannot cross threads.
//! `Shared<B>` is the same batch behind an `Arc`: the arrange operator builds
//! `B` and hands it over by `From`, merges produce new `Shared` batches, and a
//! reader elsewhere holds clones of the very batches the spine holds.
//!
//! Its test reads a real spine's batches on another thread, so it lives
//! with the arrangement's (`arrangement/tests.rs`), which builds one.

use std::ops::Deref;
use std::sync::Arc;

use differential_dataflow::trace::cursor::{Cursor, Navigable};
use differential_dataflow::trace::implementations::spine_fueled::{Merger, SpineBatch};
use timely::progress::frontier::AntichainRef;

/// A batch shared by reference count across threads.
pub struct Shared<B>(pub Arc<B>);

impl<B> Clone for Shared<B> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<B> Deref for Shared<B> {
    type Target = B;
    fn deref(&self) -> &B {
        &self.0
    }
}

impl<B> From<B> for Shared<B> {
    fn from(batch: B) -> Self {
        Shared(Arc::new(batch))
    }
}

impl<B: SpineBatch> SpineBatch for Shared<B> {
    type Time = B::Time;
    type Merger = SharedMerger<B>;
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Merges the batches inside two `Shared`s into a new `Shared`.
pub struct SharedMerger<B: SpineBatch> {
    merger: B::Merger,
}

impl<B: SpineBatch> Merger<Shared<B>> for SharedMerger<B> {
    fn new(source1: &Shared<B>, source2: &Shared<B>, frontier: AntichainRef<B::Time>) -> Self {
        SharedMerger {
            merger: B::Merger::new(source1, source2, frontier),
        }
    }
    fn work(&mut self, source1: &Shared<B>, source2: &Shared<B>, fuel: &mut isize) {
        self.merger.work(source1, source2, fuel)
    }
    fn done(self) -> Option<Shared<B>> {
        self.merger.done().map(Shared::from)
    }
}

impl<B: Navigable> Navigable for Shared<B> {
    type Cursor = SharedCursor<B::Cursor>;
    fn cursor(&self) -> Self::Cursor {
        SharedCursor(self.0.cursor())
    }
}

/// A batch's own cursor, reading through the `Arc`.
///
/// The engine reads batches only through `CursorList` (peeks, imports,
/// introspection) and `as_collection`, which never seek a value or rewind:
/// `seek_val`, `rewind_keys` and `rewind_vals` are here because the trait
/// requires them, and `.ci/mutants-sharing` does not mutate them.
pub struct SharedCursor<C>(C);

impl<C: Cursor> Cursor for SharedCursor<C> {
    type Storage = Shared<C::Storage>;
    type Key<'a> = C::Key<'a>;
    type ValOwn = C::ValOwn;
    type Val<'a> = C::Val<'a>;
    type Time = C::Time;
    type TimeGat<'a> = C::TimeGat<'a>;
    type Diff = C::Diff;
    type DiffGat<'a> = C::DiffGat<'a>;
    type KeyContainer = C::KeyContainer;
    type ValContainer = C::ValContainer;
    type TimeContainer = C::TimeContainer;
    type DiffContainer = C::DiffContainer;

    fn key_valid(&self, storage: &Self::Storage) -> bool {
        self.0.key_valid(storage)
    }
    fn val_valid(&self, storage: &Self::Storage) -> bool {
        self.0.val_valid(storage)
    }
    fn key<'a>(&self, storage: &'a Self::Storage) -> Self::Key<'a> {
        self.0.key(storage)
    }
    fn val<'a>(&self, storage: &'a Self::Storage) -> Self::Val<'a> {
        self.0.val(storage)
    }
    // Through this cursor's own validity tests rather than the inner
    // `get_key`: `CursorList` finds keys only by `get_key`, so this is
    // where every read of a shared batch asks whether a key is valid.
    fn get_key<'a>(&self, storage: &'a Self::Storage) -> Option<Self::Key<'a>> {
        self.key_valid(storage).then(|| self.key(storage))
    }
    fn get_val<'a>(&self, storage: &'a Self::Storage) -> Option<Self::Val<'a>> {
        self.val_valid(storage).then(|| self.val(storage))
    }
    fn map_times<L: FnMut(Self::TimeGat<'_>, Self::DiffGat<'_>)>(
        &mut self,
        storage: &Self::Storage,
        logic: L,
    ) {
        self.0.map_times(storage, logic)
    }
    fn step_key(&mut self, storage: &Self::Storage) {
        self.0.step_key(storage)
    }
    fn seek_key(&mut self, storage: &Self::Storage, key: Self::Key<'_>) {
        self.0.seek_key(storage, key)
    }
    fn step_val(&mut self, storage: &Self::Storage) {
        self.0.step_val(storage)
    }
    #[mutants::skip] // never called: see `SharedCursor`
    fn seek_val(&mut self, storage: &Self::Storage, val: Self::Val<'_>) {
        self.0.seek_val(storage, val)
    }
    #[mutants::skip] // never called: see `SharedCursor`
    fn rewind_keys(&mut self, storage: &Self::Storage) {
        self.0.rewind_keys(storage)
    }
    #[mutants::skip] // never called: see `SharedCursor`
    fn rewind_vals(&mut self, storage: &Self::Storage) {
        self.0.rewind_vals(storage)
    }
}
