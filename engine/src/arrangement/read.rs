//! Reading a trace in place, outside any dataflow: its upper, its batches
//! and their identities, a cursor over them, and counts of what it holds.

use std::collections::BTreeMap;
use std::sync::Arc;

use differential_dataflow::trace::cursor::{cursor_list, CursorList, Navigable};
use differential_dataflow::trace::implementations::spine_fueled::SpineBatch;
use differential_dataflow::trace::{Cursor, TraceReader};
use timely::progress::Antichain;

use crate::repr::{Diff, Frontier, Timestamp};
use crate::shared_batch::Shared;
use crate::typedefs::{ErrsTrace, OksTrace};

/// The upper of `trace` (`None`: the empty frontier).
pub fn upper_of<Tr: TraceReader<Time = Timestamp>>(trace: &mut Tr) -> Frontier {
    let mut upper = Antichain::new();
    trace.read_upper(&mut upper);
    upper.first().copied()
}

/// The identity of a shared batch: what says a chain changed.
pub fn batch_id<B>(batch: &Shared<B>) -> usize {
    Arc::as_ptr(&batch.0) as usize
}

/// Whether `trace` holds exactly the batches `ids` names, in order, and has
/// upper `upper`: what `all_batches` and `upper_of` would read, checked in
/// place, cloning no batch and allocating nothing (a publisher asks after
/// every step, and most steps change nothing).
pub fn holds_exactly<B, Tr>(trace: &Tr, ids: &[usize], upper: Frontier) -> bool
where
    B: SpineBatch,
    Tr: TraceReader<Time = Timestamp, Batch = Shared<B>>,
{
    let mut ids = ids.iter();
    let mut same = true;
    // `read_upper`: the last span's upper, the minimum if there is none.
    let mut last: Frontier = Some(0);
    trace.map_spans(|span| {
        // `batches_through` keeps the spans with updates.
        if let Some(batch) = span.inner.as_ref().filter(|b| b.len() > 0) {
            same &= ids.next() == Some(&batch_id(batch));
        }
        last = span.upper().first().copied();
    });
    same && ids.next().is_none() && last == upper
}

/// Every batch `trace` holds (clones of the spine's own `Rc`s or `Arc`s).
pub fn all_batches<Tr: TraceReader>(trace: &mut Tr) -> Vec<Tr::Batch> {
    trace
        .batches_through(Antichain::new().borrow())
        .expect("a trace hands out all of its batches")
}

/// A cursor over every batch `trace` holds, and the batches it reads.
pub fn cursor_of<Tr>(
    trace: &mut Tr,
) -> (CursorList<<Tr::Batch as Navigable>::Cursor>, Vec<Tr::Batch>)
where
    Tr: TraceReader,
    Tr::Batch: Navigable,
{
    cursor_list(all_batches(trace))
}

/// Updates in `trace` once times are advanced to `since` and consolidated.
pub fn records_at(trace: &mut OksTrace, since: Option<Timestamp>) -> i64 {
    let since = since.unwrap_or(Timestamp::MAX);
    let (mut cursor, storage) = cursor_of(trace);
    let mut records = 0;
    while cursor.key_valid(&storage) {
        while cursor.val_valid(&storage) {
            let mut times: BTreeMap<Timestamp, Diff> = BTreeMap::new();
            cursor.map_times(&storage, |t, r| {
                *times.entry((*t).max(since)).or_insert(0) += *r;
            });
            records += times.values().filter(|d| **d != 0).count() as i64;
            cursor.step_val(&storage);
        }
        cursor.step_key(&storage);
    }
    records
}

/// The net multiplicity of all errors in `trace`.
pub fn net_errors(trace: &mut ErrsTrace) -> i64 {
    let (mut cursor, storage) = cursor_of(trace);
    let mut total = 0;
    while cursor.key_valid(&storage) {
        while cursor.val_valid(&storage) {
            cursor.map_times(&storage, |_t, r| total += *r);
            cursor.step_val(&storage);
        }
        cursor.step_key(&storage);
    }
    total
}
