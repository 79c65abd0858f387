//! Reading a point another runtime publishes: the import operator that
//! brings it into a dataflow, and the handle a fast-path peek reads.
//!
//! Both read the publisher's own batches through the point (no copy, no
//! merging of their own) and hold the point while they live: the hold is
//! released when the reader drops, so an import's hold lives and dies with
//! its dataflow.

use std::sync::Arc;

use differential_dataflow::trace::cursor::{cursor_list, CursorList, Navigable};
use differential_dataflow::trace::Cursor;
use differential_dataflow::AsCollection;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::generic::builder_rc::OperatorBuilder;
use timely::dataflow::operators::generic::OutputBuilder;
use timely::dataflow::Scope;
use timely::scheduling::SyncActivator;

use super::{HoldKey, Point, Snapshot};
use crate::arrangement::{each_time, row_of, WALK_FUEL};
use crate::mutation;
use crate::repr::{meet, Frontier};
use crate::repr::{DataflowError, Diff, Row, Timestamp};
use crate::shared_batch::Shared;
use crate::typedefs::{Errs, Oks};
use crate::typedefs::{ErrsBatch, OksBatch};

/// A reader's hold and wake-up registration on a point, undone on drop.
pub struct Reader {
    pub point: Arc<Point>,
    id: u64,
}

impl Reader {
    pub fn new(point: Arc<Point>, id: u64) -> Self {
        Reader { point, id }
    }

    /// Holds the point at `at`; returns where the hold sits (beyond `at`
    /// if the point had already compacted past it).
    pub fn hold(&self, at: Timestamp) -> Timestamp {
        self.point.hold(HoldKey::Reader(self.id), at)
    }

    /// Wakes `activator` whenever the point is published to; the point
    /// counts as read (its publication drains) while the reader lives.
    pub fn wake_on_publish(&self, activator: SyncActivator) {
        self.point.add_reader(self.id, activator);
    }

    /// Gives the hold up: the reader needs nothing more of the point.
    fn release(&self) {
        if !mutation::import_hold_leak() {
            self.point.release(HoldKey::Reader(self.id));
        }
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.release();
        self.point.remove_reader(self.id);
    }
}

/// Imports the point as collections of rows and errors, from `as_of` until
/// the chain's upper reaches `until` (then it holds nothing any more).
///
/// Panics if the point has compacted past `as_of`, as the real system does
/// when a publication cannot serve a dataflow's `as_of`: the coordinator
/// never builds a dataflow below its inputs' sinces, so this is a bug.
pub fn import<'s>(
    scope: Scope<'s, Timestamp>,
    name: &str,
    reader: Reader,
    as_of: Timestamp,
    until: Frontier,
) -> (Oks<'s>, Errs<'s>) {
    let held = reader.hold(as_of);
    assert!(
        held == as_of,
        "{name}: the publication's since [{held}] is beyond the dataflow's as_of {as_of}"
    );
    let worker = scope.worker();
    // Rows and errors leave on outputs of their own, as the local import's
    // two arrangements do, with no operator after it to split them.
    let mut builder = OperatorBuilder::new(name.to_owned(), scope);
    let address = builder.operator_info().address;
    let (oks_output, oks) = builder.new_output::<Vec<(Row, Timestamp, Diff)>>();
    let (errs_output, errs) = builder.new_output::<Vec<(DataflowError, Timestamp, Diff)>>();
    let mut oks_output = OutputBuilder::<_, CapacityContainerBuilder<_>>::from(oks_output);
    let mut errs_output = OutputBuilder::<_, CapacityContainerBuilder<_>>::from(errs_output);
    builder.build(move |mut capabilities| {
        reader.wake_on_publish(worker.sync_activator_for(address.to_vec()));
        let activator = worker.activator_for(address);
        for capability in &mut capabilities {
            capability.downgrade(&0);
        }
        // One capability per output; both move together.
        let mut capabilities = Some(capabilities);
        // Every update at a time before `seen` has been emitted.
        let mut seen: Frontier = Some(0);
        // The read under way, from `seen` to the upper it began with.
        let mut reading: Option<Read> = None;
        move |_frontiers| {
            let Some(caps) = capabilities.as_mut() else {
                return;
            };
            let read = match reading.as_mut() {
                Some(read) => read,
                None => {
                    let (oks_upper, errs_upper) = reader.point.uppers();
                    let upper = meet(oks_upper, errs_upper);
                    if upper == seen {
                        return;
                    }
                    // Below `as_of` everything presents at `as_of`: until the
                    // upper passes it, the updates emitted are pieces of that
                    // snapshot, and the hold stays at `as_of` (a hold never
                    // moves back).
                    let lower = seen.expect("a sealed import stops");
                    reading.insert(Read::new(reader.point.snapshot(), lower, upper))
                }
            };
            let (mut oks_handle, mut errs_handle) = (oks_output.activate(), errs_output.activate());
            let mut oks = oks_handle.session(&caps[0]);
            let mut errs = errs_handle.session(&caps[1]);
            let done = read.step(
                WALK_FUEL,
                |row, time, diff| oks.give((row, time.max(as_of), diff)),
                |err, time, diff| errs.give((err, time.max(as_of), diff)),
            );
            drop((oks, errs));
            if !done {
                activator.activate();
                return;
            }
            let upper = read.upper;
            reading = None;
            seen = upper;
            match upper.filter(|u| until.is_none_or(|until| *u < until)) {
                Some(u) => {
                    for cap in caps.iter_mut() {
                        cap.downgrade(&u);
                    }
                    // Held one below what was read: compaction to the hold
                    // cannot move an emitted update to a time not yet read.
                    reader.hold(u - 1);
                }
                None => {
                    capabilities = None;
                    reader.release();
                }
            }
        }
    });
    (oks.as_collection(), errs.as_collection())
}

/// A read of a snapshot's updates at times in `[lower, upper)`, at most
/// `WALK_FUEL` rows an activation (as `arrangement::walk` reads a local
/// import): its place in the rows' chain is kept between activations, and
/// the errors, few, are read once the rows are done.
struct Read {
    cursor: CursorList<<Shared<OksBatch> as Navigable>::Cursor>,
    oks: Vec<Shared<OksBatch>>,
    errs: Vec<Shared<ErrsBatch>>,
    lower: Timestamp,
    upper: Frontier,
    times: Vec<(Timestamp, Diff)>,
}

impl Read {
    fn new(snapshot: Snapshot, lower: Timestamp, upper: Frontier) -> Read {
        let (cursor, oks) = cursor_list(snapshot.oks.batches);
        Read {
            cursor,
            oks,
            errs: snapshot.errs.batches,
            lower,
            upper,
            times: Vec::new(),
        }
    }

    /// Calls `row` on the updates of at most `fuel` more rows, and, once
    /// the rows are done, `err` on every error's; returns whether the read
    /// is done.
    fn step(
        &mut self,
        mut fuel: usize,
        mut row: impl FnMut(Row, Timestamp, Diff),
        mut err: impl FnMut(DataflowError, Timestamp, Diff),
    ) -> bool {
        let (lower, upper) = (self.lower, self.upper);
        let in_range = |t: Timestamp| t >= lower && upper.is_none_or(|u| t < u);
        let (cursor, storage, times) = (&mut self.cursor, &self.oks, &mut self.times);
        while cursor.key_valid(storage) {
            while cursor.val_valid(storage) {
                if fuel == 0 {
                    return false;
                }
                fuel -= 1;
                cursor.map_times(storage, |t, r| {
                    if in_range(*t) {
                        times.push((*t, *r));
                    }
                });
                let unpack = || row_of(cursor.key(storage), cursor.val(storage)).unpack();
                each_time(times, unpack, &mut row);
                times.clear();
                cursor.step_val(storage);
            }
            cursor.step_key(storage);
        }
        let (mut cursor, storage) = cursor_list(std::mem::take(&mut self.errs));
        while cursor.key_valid(&storage) {
            cursor.map_times(&storage, |t, r| {
                if in_range(*t) {
                    times.push((*t, *r));
                }
            });
            each_time(times, || cursor.key(&storage).clone(), &mut err);
            times.clear();
            cursor.step_key(&storage);
        }
        true
    }
}

/// A fast-path peek's view of a shared index: its own hold at the peek's
/// time, and the since it must refuse reads below.
pub struct SharedIndex {
    reader: Reader,
    since: Timestamp,
}

impl SharedIndex {
    /// `collection_since` is the peer's since for the index; the point's
    /// published since can only be lower, unless the point mixes up the
    /// frontiers of the collections sharing it.
    pub fn new(reader: Reader, collection_since: Timestamp, time: Timestamp) -> Self {
        let published = reader.point.since().unwrap_or(Timestamp::MAX);
        let held = reader.hold(time);
        SharedIndex {
            since: collection_since.max(published).max(held),
            reader,
        }
    }

    pub fn since(&self) -> Timestamp {
        self.since
    }

    pub fn snapshot(&self) -> Snapshot {
        self.reader.point.snapshot()
    }

    pub fn uppers(&self) -> (Frontier, Frontier) {
        self.reader.point.uppers()
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use differential_dataflow::input::Input;

    use super::*;
    use crate::arrangement::{arrange_by_self, IndexTraces};
    use crate::repr::{Datum, GlobalId};
    use crate::sharing::Registry;

    /// A read of a chain takes the updates at times in `[lower, upper)`
    /// and no others: an upper below the chain's own (the meet with the
    /// errors' upper) leaves the updates at and past it for the next read.
    /// It takes at most its fuel's rows a step, and goes on where it left.
    #[test]
    fn a_read_takes_exactly_lower_to_upper_its_fuel_at_a_time() {
        timely::execute_directly(|worker| {
            let (mut input, mut traces) = crate::arrangement::rows_by_themselves(worker);
            for time in 0..3u64 {
                input.advance_to(time);
                input.update(vec![Datum::Int64(time as i64)], 1);
            }
            crate::arrangement::seal(worker, &mut input, &mut traces, 3);
            let mut read = |lower, upper, fuel| {
                let (oks, errs) = traces.chains();
                let mut read = Read::new(Snapshot { oks, errs }, lower, upper);
                let (mut rows, mut errors, mut steps) = (Vec::new(), Vec::new(), 1);
                while !read.step(
                    fuel,
                    |row, t, r| rows.push((row, t, r)),
                    |e, t, r| errors.push((e, t, r)),
                ) {
                    steps += 1;
                }
                rows.sort();
                assert!(errors.is_empty());
                (rows, steps)
            };
            let at = |t: u64| (vec![Datum::Int64(t as i64)], t, 1);
            assert_eq!(read(0, Some(2), usize::MAX), (vec![at(0), at(1)], 1));
            assert_eq!(read(1, Some(2), usize::MAX), (vec![at(1)], 1));
            assert_eq!(read(2, None, usize::MAX), (vec![at(2)], 1));
            // One row a step: three steps, the last finding the end.
            assert_eq!(read(0, None, 1), (vec![at(0), at(1), at(2)], 3));
        });
    }

    /// An import hands on at most `WALK_FUEL` rows a step and wakes itself
    /// for the rest: nothing else would (the point publishes once).
    #[test]
    fn an_import_reads_a_large_snapshot_a_bounded_number_of_rows_a_step() {
        timely::execute_directly(|worker| {
            let registry = Registry::default();
            let id = GlobalId(1);
            let point = registry.publish(id, 0, 0);
            point.release(HoldKey::Peer(id));
            let count = 2 * WALK_FUEL + 10;
            let (mut input, mut traces) = crate::arrangement::rows_by_themselves(worker);
            for k in 0..count {
                input.update(vec![Datum::Int64(k as i64)], 1);
            }
            crate::arrangement::seal(worker, &mut input, &mut traces, 1);
            let (oks, errs) = traces.chains();
            point.update(oks, errs);
            let seen = Rc::new(RefCell::new(0));
            let sink = Rc::clone(&seen);
            let dataflow = worker.next_dataflow_index();
            worker.dataflow::<Timestamp, _, _>(|scope| {
                let reader = Reader::new(registry.get_or_create(id, 0), registry.reader_id());
                let (oks, _errs) = import(scope, "test import", reader, 0, None);
                oks.inspect(move |_| *sink.borrow_mut() += 1);
            });
            let (mut most, mut steps) = (0, 0);
            while *seen.borrow() < count && steps < 100 {
                let before = *seen.borrow();
                worker.step();
                most = most.max(*seen.borrow() - before);
                steps += 1;
            }
            assert_eq!(*seen.borrow(), count);
            assert!(0 < most && most <= WALK_FUEL, "{most} rows in one step");
            // The point is never sealed: the import would wait for it.
            worker.drop_dataflow(dataflow);
        });
    }

    /// An import's hold: at `as_of` once built, just below what it has
    /// read while it follows the chain, gone once its dataflow is dropped;
    /// and a sealed point (published once, under two ids) ends every reader.
    #[test]
    fn an_import_holds_at_as_of_follows_live_and_releases_on_drop() {
        timely::execute_directly(|worker| {
            let registry = Registry::default();
            let (id, alias) = (GlobalId(1), GlobalId(2));
            let point = registry.publish(id, 0, 0);
            let target = registry.get_or_create(id, 0);
            assert!(registry.publish_alias(alias, id, &target, 0, 0).is_some());
            point.release(HoldKey::Peer(id));
            point.release(HoldKey::Peer(alias));

            // The maintained side: a table-like arrangement of rows.
            let (mut input, mut traces) = worker.dataflow::<Timestamp, _, _>(|scope| {
                let (input, rows) = scope.new_collection::<Row, Diff>();
                let errs = rows.clone().flat_map(|_| None::<DataflowError>);
                let traces: IndexTraces = arrange_by_self(rows, errs);
                (input, traces)
            });
            let mut publish =
                |worker: &mut timely::worker::Worker,
                 input: &mut differential_dataflow::input::InputSession<Timestamp, Row, Diff>,
                 upper: Timestamp| {
                    input.advance_to(upper);
                    input.flush();
                    while traces.upper() != Some(upper) {
                        worker.step();
                    }
                    let (oks, errs) = traces.chains();
                    let spine: Vec<_> = oks.batches.iter().map(|b| Arc::as_ptr(&b.0)).collect();
                    point.update(oks, errs);
                    // Zero copy: the point holds the spine's own batches.
                    let published = point.snapshot().oks.batches;
                    let published: Vec<_> = published.iter().map(|b| Arc::as_ptr(&b.0)).collect();
                    assert_eq!(published, spine);
                };
            input.update(vec![Datum::Int64(1)], 1);
            publish(worker, &mut input, 2);
            point.note(id, 1);

            // The reader: imports the alias's slot (the same point) at 1.
            let seen = Rc::new(RefCell::new(Vec::new()));
            let reader_point = registry.get_or_create(alias, 0);
            let dataflow = worker.next_dataflow_index();
            let probe = worker.dataflow::<Timestamp, _, _>(|scope| {
                let reader = Reader::new(reader_point, registry.reader_id());
                let (oks, _errs) = import(scope, "test import", reader, 1, None);
                let seen = Rc::clone(&seen);
                let (probe, _) = oks
                    .inspect(move |update| seen.borrow_mut().push(update.clone()))
                    .probe();
                probe
            });
            point.note(id, 5);
            assert_eq!(point.since(), Some(1), "held at as_of once built");
            for _ in 0..10 {
                worker.step();
            }
            assert_eq!(*seen.borrow(), vec![(vec![Datum::Int64(1)], 1, 1)]);
            assert_eq!(point.since(), Some(1), "read through 2: held at 1");

            input.update(vec![Datum::Int64(2)], 1);
            publish(worker, &mut input, 4);
            for _ in 0..10 {
                worker.step();
            }
            assert_eq!(seen.borrow().last(), Some(&(vec![Datum::Int64(2)], 2, 1)));
            assert_eq!(point.since(), Some(3), "read through 4: held at 3");

            // Sealed: the reader, bound under the alias, sees the end.
            point.retire();
            for _ in 0..10 {
                worker.step();
            }
            assert!(probe.done(), "a sealed point ends the import");
            assert_eq!(point.since(), Some(5), "a finished import holds nothing");

            worker.drop_dataflow(dataflow);
            assert_eq!(point.since(), Some(5));
        });
    }

    /// A reader dropped while it still follows the chain releases its hold.
    #[test]
    fn a_dropped_import_releases_its_hold() {
        timely::execute_directly(|worker| {
            let registry = Registry::default();
            let id = GlobalId(1);
            let point = registry.publish(id, 0, 0);
            point.release(HoldKey::Peer(id));
            let dataflow = worker.next_dataflow_index();
            worker.dataflow::<Timestamp, _, _>(|scope| {
                let reader = Reader::new(Arc::clone(&point), registry.reader_id());
                import(scope, "test import", reader, 0, None);
            });
            point.note(id, 3);
            assert_eq!(point.since(), Some(0), "held at as_of");
            worker.drop_dataflow(dataflow);
            assert_eq!(point.since(), Some(3), "released on drop");
        });
    }
}
