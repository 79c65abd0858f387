//! An index's arrangements: the two differential traces (rows by key, errors
//! by themselves) every index, table and transient result is kept in, and
//! how they are built, imported and read.
//!
//! The batch types sit behind `Arc` (`Shared`) so the sharing registry can
//! hand the very batches to the other runtime; everything that names them
//! takes them from here.

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use differential_dataflow::batcher::merge::{MergeBatcher, Sealer};
use differential_dataflow::operators::arrange::{Arranged, TraceAgent};
use differential_dataflow::trace::cursor::{cursor_list, CursorList, Navigable};
use differential_dataflow::trace::implementations::ord_neu::val_batch::OrdValStorage;
use differential_dataflow::trace::implementations::ord_neu::{
    OrdKeyBatch, OrdValBatch, OrdValBuilder, Upds, Vals,
};
use differential_dataflow::trace::implementations::spine_fueled::{Spine, SpineBatch};
use differential_dataflow::trace::implementations::{KeyBatcher, Vector};
use differential_dataflow::trace::wrappers::frontier::TraceFrontier;
use differential_dataflow::trace::{Builder, Cursor, TraceReader};
use differential_dataflow::{AsCollection, VecCollection};
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::operator::Operator;
use timely::progress::Antichain;

use crate::chunker::RunChunker;
use crate::merger::PackedMerger;
use crate::packed::{Offsets, PackedRef, PackedRow, PackedRows, PackedUpdates, SealedSizes};
use crate::render::{Errs, Oks};
#[cfg(test)]
use crate::repr::Row;
use crate::repr::{DataflowError, Diff, GlobalId, Timestamp};
use crate::shared_batch::Shared;

/// A frontier of one timestamp; `None` is the empty frontier.
pub type Frontier = Option<Timestamp>;

/// The meet of two frontiers of a total order.
pub fn meet(a: Frontier, b: Frontier) -> Frontier {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Keys and rows packed, back to back in byte vectors (`PackedRows`): no
/// allocation per datum, no slot per row.
pub type OksBatch = OrdValBatch<OksLayout>;
type OksLayout = (PackedRows, PackedRows, Vec<Timestamp>, Vec<Diff>, Offsets);
/// Differential's batcher for `(key, row)` pairs: sorted runs, packed
/// back to back while they wait to be merged and sealed.
type OksBatcher = MergeBatcher<
    RunChunker<(PackedRow, PackedRow), Timestamp, Diff, PackedUpdates>,
    PackedMerger,
    OksSealer,
>;

/// Seals the oks batcher's chains with differential's builder, into room
/// counted exactly beforehand (`SealedSizes`). Differential's own seal
/// knows only how many keys, rows and updates are coming: it reserves ten
/// bytes for each key and row (twice an index key of one integer, all of a
/// table's empty values) and a time and a diff for every update, where
/// most pairs of a snapshot share one `(time, diff)` the batch stores once.
/// Reserved at the seal, beside the chain, that was the index build's peak,
/// and kept as long as the batch. (Merged batches are sized from theirs.)
struct OksSealer;

impl Sealer<PackedUpdates> for OksSealer {
    type Output = OksBatch;
    fn seal(chain: &mut Vec<PackedUpdates>) -> Option<OksBatch> {
        let sizes = SealedSizes::of(chain);
        let mut builder = OrdValBuilder::<OksLayout, PackedUpdates>::with_capacity(0, 0, 0);
        let mut vals = Vals::with_capacity(sizes.keys + 1, 0);
        vals.vals = PackedRows::with_bytes(sizes.vals, sizes.val_bytes);
        builder.result = OrdValStorage {
            keys: PackedRows::with_bytes(sizes.keys, sizes.key_bytes),
            vals,
            upds: Upds::with_capacity(sizes.vals + 1, sizes.stored),
        };
        for mut chunk in chain.drain(..) {
            builder.push(&mut chunk);
        }
        builder.done()
    }
}
pub type ErrsBatch = OrdKeyBatch<Vector<((DataflowError, ()), Timestamp, Diff)>>;
/// Rows arranged by key, the value being the whole row, both packed;
/// batches behind `Arc`.
pub type OksTrace = TraceAgent<Spine<Shared<OksBatch>>>;
/// Errors arranged by themselves; batches behind `Arc`.
pub type ErrsTrace = TraceAgent<Spine<Shared<ErrsBatch>>>;

/// The two traces of an index.
#[derive(Clone)]
pub struct IndexTraces {
    pub oks: OksTrace,
    pub errs: ErrsTrace,
}

impl IndexTraces {
    /// Sets logical and physical compaction of both handles to `since`.
    pub fn allow_compaction(&mut self, since: Timestamp) {
        self.compact_to(Some(since));
    }

    /// As `allow_compaction`, to a frontier that may be empty.
    pub fn compact_to(&mut self, since: Frontier) {
        let frontier: Antichain<Timestamp> = since.into_iter().collect();
        self.oks.set_logical_compaction(frontier.borrow());
        self.oks.set_physical_compaction(frontier.borrow());
        self.errs.set_logical_compaction(frontier.borrow());
        self.errs.set_physical_compaction(frontier.borrow());
    }

    /// The lesser of the two traces' uppers (`None`: the empty frontier).
    pub fn upper(&mut self) -> Frontier {
        meet(upper_of(&mut self.oks), upper_of(&mut self.errs))
    }

    /// This handle's logical compaction frontier.
    pub fn since(&mut self) -> Option<Timestamp> {
        self.oks.get_logical_compaction().first().copied()
    }

    /// Both handles' batches and uppers, as a reader elsewhere sees them.
    pub fn chains(&mut self) -> (Chain<OksBatch>, Chain<ErrsBatch>) {
        let oks = Chain {
            batches: all_batches(&mut self.oks),
            upper: upper_of(&mut self.oks),
        };
        let errs = Chain {
            batches: all_batches(&mut self.errs),
            upper: upper_of(&mut self.errs),
        };
        (oks, errs)
    }

    /// Whether both handles refer to the same traces as `other`'s.
    pub fn same_traces(&self, other: &IndexTraces) -> bool {
        Rc::ptr_eq(
            &self.oks.trace_box_unstable(),
            &other.oks.trace_box_unstable(),
        )
    }
}

/// The batches a publisher currently holds for one of its traces.
pub struct Chain<B> {
    pub batches: Vec<Shared<B>>,
    /// Times not beyond it are complete; `Some(0)` until first published.
    pub upper: Frontier,
}

impl<B> Default for Chain<B> {
    fn default() -> Self {
        Chain {
            batches: Vec::new(),
            upper: Some(0),
        }
    }
}

impl<B> Clone for Chain<B> {
    fn clone(&self) -> Self {
        Chain {
            batches: self.batches.clone(),
            upper: self.upper,
        }
    }
}

/// An index's oks as another dataflow of the same worker imports them.
pub type ImportedOks<'s> = Arranged<'s, TraceFrontier<OksTrace>>;

/// The rows of an imported arrangement, unpacked. Differential's
/// `as_collection` would clone what it makes for every time of a row (one
/// here, mostly) and drop the original; a row is unpacked once and moved.
pub fn rows(oks: ImportedOks<'_>) -> Oks<'_> {
    walk(oks, "Rows", |key, val| row_of(key, val).unpack())
}

/// Pairs an operator walking imported batches makes in one activation, at
/// most (here and in `sharing::import`): the rest wait in the batches it
/// keeps, not in its output. Made all at once, a loaded table's snapshot
/// sat in channels, 64 bytes a keyed pair, before the arrangement
/// downstream took any: the index build's high-water mark.
pub const WALK_FUEL: usize = 1 << 16;

/// Makes `make(key, val)` once for each `(key, val)` of an imported
/// arrangement's batches and hands it on at each of its times
/// (`each_time`), at most `WALK_FUEL` pairs an activation: the operator
/// keeps its place in the batch and the capabilities of its message, and
/// activates itself again.
fn walk<'s, D: Clone + 'static>(
    oks: ImportedOks<'s>,
    name: &str,
    mut make: impl FnMut(PackedRef<'_>, PackedRef<'_>) -> D + 'static,
) -> VecCollection<'s, Timestamp, D, Diff> {
    let scope = oks.stream.scope();
    oks.stream
        .unary(Pipeline, name, move |_, info| {
            let activator = scope.activator_for(info.address);
            let mut pending = VecDeque::new();
            let mut times = Vec::new();
            move |input, output| {
                input.for_each(|stamp, spans| {
                    for batch in spans.iter().filter_map(|span| span.inner.clone()) {
                        let cursor = batch.cursor();
                        pending.push_back((stamp.retain_stamp(0), batch, cursor));
                    }
                });
                let mut fuel = WALK_FUEL;
                while let Some((capabilities, batch, cursor)) = pending.front_mut() {
                    let mut session = output.session(&*capabilities);
                    while let Some(key) = cursor.get_key(batch) {
                        while let Some(val) = cursor.get_val(batch) {
                            if fuel == 0 {
                                activator.activate();
                                return;
                            }
                            fuel -= 1;
                            cursor.map_times(batch, |t, r| times.push((*t, *r)));
                            each_time(
                                &times,
                                || make(key, val),
                                |made, t, r| session.give((made, t, r)),
                            );
                            times.clear();
                            cursor.step_val(batch);
                        }
                        cursor.step_key(batch);
                    }
                    drop(session);
                    pending.pop_front();
                }
            }
        })
        .as_collection()
}

/// The row an oks arrangement's `(key, value)` holds. Rows arranged by
/// themselves (a table's, a transient read's) are kept once, as the key,
/// with the empty row as the value; any other value is the row itself,
/// and an empty one is the row of no columns, whose key is empty too.
pub fn row_of<'a>(key: PackedRef<'a>, val: PackedRef<'a>) -> PackedRef<'a> {
    if val.is_empty() {
        key
    } else {
        val
    }
}

/// Hands what `make` makes to `logic` once per `(time, diff)` of `times`,
/// made once and cloned for all but the last.
pub fn each_time<D: Clone>(
    times: &[(Timestamp, Diff)],
    make: impl FnOnce() -> D,
    mut logic: impl FnMut(D, Timestamp, Diff),
) {
    if let Some((&(time, diff), earlier)) = times.split_last() {
        let datum = make();
        for &(t, r) in earlier {
            logic(datum.clone(), t, r);
        }
        logic(datum, time, diff);
    }
}

/// Imports a trace this worker maintains, at `since`, as its oks
/// arrangement (`rows` unpacks them) and its errors, until its upper
/// reaches `until` (`None`: for as long as it lives).
pub fn import_local<'s>(
    scope: timely::dataflow::Scope<'s, Timestamp>,
    id: GlobalId,
    traces: &mut IndexTraces,
    since: &Antichain<Timestamp>,
    until: Frontier,
) -> (ImportedOks<'s>, Errs<'s>) {
    let until = until.map_or_else(Antichain::new, Antichain::from_elem);
    let (oks, _) = traces.oks.import_frontier_core(
        scope,
        &format!("Import {id} oks"),
        since.clone(),
        until.clone(),
    );
    let (errs, _) =
        traces
            .errs
            .import_frontier_core(scope, &format!("Import {id} errs"), since.clone(), until);
    (
        oks,
        errs.as_collection(|err: &DataflowError, _: &()| err.clone()),
    )
}

/// Arranges an imported arrangement's rows by their `key` columns, without
/// unpacking them: the key is copied out of each packed row.
pub fn arrange_imported<'s>(oks: ImportedOks<'s>, key: Vec<usize>, errs: Errs<'s>) -> IndexTraces {
    let keyed = walk(oks, "KeyBy", move |k, v| {
        let row = row_of(k, v);
        (row.project(&key), row.to_owned())
    });
    arrange_packed(keyed, errs)
}

/// Arranges rows by their `key` columns, and errors, into the two traces
/// of an index (key and row packed on the way in, the key straight from
/// the row's columns).
pub fn arrange<'s>(rows: Oks<'s>, key: Vec<usize>, errs: Errs<'s>) -> IndexTraces {
    let rows = rows.map(move |row| (PackedRow::pack_columns(&row, &key), PackedRow::pack(&row)));
    arrange_packed(rows, errs)
}

/// Arranges rows by themselves (a transient read's result), packing each
/// once.
pub fn arrange_by_self<'s>(rows: Oks<'s>, errs: Errs<'s>) -> IndexTraces {
    arrange_packed_by_self(rows.map(|row| PackedRow::pack(&row)), errs)
}

/// As `arrange_by_self`, for rows already packed (a table's): each kept
/// once, as the key, beside an empty value (see `row_of`).
pub fn arrange_packed_by_self<'s>(
    rows: VecCollection<'s, Timestamp, PackedRow, Diff>,
    errs: Errs<'s>,
) -> IndexTraces {
    arrange_packed(rows.map(|row| (row, PackedRow::pack(&[]))), errs)
}

/// As `arrange`, for keys and rows already packed.
pub fn arrange_packed<'s>(
    rows: VecCollection<'s, Timestamp, (PackedRow, PackedRow), Diff>,
    errs: Errs<'s>,
) -> IndexTraces {
    let oks = rows
        .arrange_named::<OksBatcher, Spine<Shared<OksBatch>>>("ArrangeBy[oks]", OksBatcher::new);
    let errs = errs
        .map(|e| (e, ()))
        .arrange_named::<KeyBatcher<DataflowError, Timestamp, Diff>, Spine<Shared<ErrsBatch>>>(
            "ArrangeBy[errs]",
            KeyBatcher::new,
        );
    IndexTraces {
        oks: oks.trace,
        errs: errs.trace,
    }
}

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

/// For tests: an index of rows keyed by themselves on `worker`, with no
/// errors, and the input that feeds it.
#[cfg(test)]
pub(crate) fn rows_by_themselves(
    worker: &mut timely::worker::Worker,
) -> (
    differential_dataflow::input::InputSession<Timestamp, Row, Diff>,
    IndexTraces,
) {
    use differential_dataflow::input::Input;
    worker.dataflow::<Timestamp, _, _>(|scope| {
        let (input, rows) = scope.new_collection::<Row, Diff>();
        let errs = rows.clone().flat_map(|_| None);
        (input, arrange_by_self(rows, errs))
    })
}

/// For tests: closes `input` at `time` and steps `worker` until the index
/// is complete through it.
#[cfg(test)]
pub(crate) fn seal(
    worker: &mut timely::worker::Worker,
    input: &mut differential_dataflow::input::InputSession<Timestamp, Row, Diff>,
    traces: &mut IndexTraces,
    time: Timestamp,
) {
    input.advance_to(time);
    input.flush();
    while traces.upper() != Some(time) {
        worker.step();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum;
    use differential_dataflow::trace::implementations::BatchContainer;

    /// A sealed batch reserves what it fills and no more: differential's
    /// seal reserved ten bytes a key and a row (here a byte-sized key and
    /// an empty row each) and a time and a diff an update, where pairs
    /// whose one update equals the last stored share it.
    #[test]
    fn a_sealed_batch_reserves_exactly_what_it_fills() {
        let row = PackedRow::pack(&[]);
        let key = |k: i32| PackedRow::pack(&[Datum::Int32(k)]);
        let mut run: Vec<_> = (0..100).map(|k| ((key(k), row.clone()), 7, 1)).collect();
        run.insert(51, ((key(50), row.clone()), 8, 1));
        let batch = OksSealer::seal(&mut vec![PackedUpdates::from(run)]).expect("updates");
        assert_eq!(BatchContainer::len(&batch.storage.keys), 100);
        assert_eq!(batch.updates, 101);
        assert_eq!(batch.storage.keys.spare(), 0);
        assert_eq!(batch.storage.vals.vals.spare(), 0);
        // (7, 1) for key 0; (7, 1) and (8, 1) for key 50; (7, 1) for 51.
        let upds = &batch.storage.upds;
        assert_eq!(upds.times, [7, 7, 8, 7]);
        assert_eq!(upds.diffs, [1, 1, 1, 1]);
        assert_eq!((upds.times.capacity(), upds.diffs.capacity()), (4, 4));
    }

    /// A key's rows stay apart as its values, and a row's times together
    /// under it.
    #[test]
    fn a_sealed_batch_keeps_a_keys_rows_apart() {
        let pack = |datums: &[i32]| {
            PackedRow::pack(&datums.iter().map(|d| Datum::Int32(*d)).collect::<Row>())
        };
        let (key, a, b) = (pack(&[1]), pack(&[1, 2]), pack(&[1, 3]));
        let run = vec![
            ((key.clone(), a.clone()), 0, 1),
            ((key.clone(), a.clone()), 1, 1),
            ((key.clone(), b.clone()), 0, 1),
        ];
        let batch = OksSealer::seal(&mut vec![PackedUpdates::from(run)]).expect("updates");
        let (mut cursor, storage) = cursor_list(vec![Shared::from(batch)]);
        let mut read = Vec::new();
        while let Some(val) = cursor.get_val(&storage) {
            let mut times = Vec::new();
            cursor.map_times(&storage, |t, r| times.push((*t, *r)));
            read.push((val.to_owned(), times));
            cursor.step_val(&storage);
        }
        assert!(read == [(a, vec![(0, 1), (1, 1)]), (b, vec![(0, 1)])]);
    }

    /// Rows arranged by themselves read back whole through `row_of`, each
    /// kept once, as the key, beside an empty value; the row of no
    /// columns too.
    #[test]
    fn rows_by_themselves_read_back_through_row_of() {
        timely::execute_directly(|worker| {
            let mut rows: Vec<Row> = vec![
                vec![],
                vec![Datum::Int32(1), Datum::Null],
                vec![Datum::Text("a".into())],
            ];
            let (mut input, mut traces) = rows_by_themselves(worker);
            for row in &rows {
                input.update(row.clone(), 1);
            }
            seal(worker, &mut input, &mut traces, 1);
            let (oks, _) = traces.chains();
            let (mut cursor, storage) = cursor_list(oks.batches);
            let mut read = Vec::new();
            while cursor.key_valid(&storage) {
                while cursor.val_valid(&storage) {
                    let (key, val) = (cursor.key(&storage), cursor.val(&storage));
                    assert!(val.is_empty(), "the row is not kept twice");
                    read.push(row_of(key, val).unpack());
                    cursor.step_val(&storage);
                }
                cursor.step_key(&storage);
            }
            rows.sort();
            assert_eq!(read, rows);
        });
    }

    /// An imported arrangement is walked at most `WALK_FUEL` pairs an
    /// activation: what one step hands on is bounded, and every row
    /// arrives in the end, once (three walks: besides the message and the
    /// frontier's move, only the operator's own activation wakes it).
    #[test]
    fn an_import_hands_on_a_bounded_number_of_rows_a_step() {
        timely::execute_directly(|worker| {
            let count = 2 * WALK_FUEL + 10;
            let (mut input, mut traces) = rows_by_themselves(worker);
            for k in 0..count {
                input.update(vec![Datum::Int64(k as i64)], 1);
            }
            seal(worker, &mut input, &mut traces, 1);
            let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
            let sink = Rc::clone(&seen);
            worker.dataflow::<Timestamp, _, _>(|scope| {
                let since = Antichain::from_elem(0);
                let (oks, _) = import_local(scope, GlobalId(1), &mut traces, &since, None);
                rows(oks).inspect(move |(row, _, _)| sink.borrow_mut().push(row.clone()));
            });
            let (mut most, mut steps) = (0, 0);
            while seen.borrow().len() < count && steps < 100 {
                let before = seen.borrow().len();
                worker.step();
                most = most.max(seen.borrow().len() - before);
                steps += 1;
            }
            assert!(0 < most && most <= WALK_FUEL, "{most} rows in one step");
            let mut seen = seen.take();
            seen.sort();
            let all: Vec<Row> = (0..count).map(|k| vec![Datum::Int64(k as i64)]).collect();
            assert!(seen == all, "{} rows of {count}", seen.len());
        });
    }

    /// `holds_exactly` agrees with reading the chain anew: the same batches
    /// and upper hold; another upper, a missing batch or a new one do not.
    #[test]
    fn holds_exactly_tells_when_a_chain_changed() {
        timely::execute_directly(|worker| {
            let (mut input, mut traces) = rows_by_themselves(worker);
            let read = |traces: &mut IndexTraces| {
                let (oks, _) = traces.chains();
                (
                    oks.batches.iter().map(batch_id).collect::<Vec<_>>(),
                    oks.upper,
                )
            };
            let mut before: Option<(Vec<usize>, Frontier)> = None;
            for time in 1..4u64 {
                input.update(vec![Datum::Int64(time as i64)], 1);
                seal(worker, &mut input, &mut traces, time);
                let (ids, upper) = read(&mut traces);
                assert!(!ids.is_empty());
                assert!(holds_exactly(&traces.oks, &ids, upper));
                assert!(!holds_exactly(&traces.oks, &ids, Some(time + 1)));
                assert!(!holds_exactly(&traces.oks, &ids[1..], upper));
                let mut more = ids.clone();
                more.push(0);
                assert!(!holds_exactly(&traces.oks, &more, upper));
                if let Some((ids, upper)) = before.replace((ids, upper)) {
                    assert!(!holds_exactly(&traces.oks, &ids, upper), "time {time}");
                }
            }
        });
    }
}
