//! Tests of the arrangement's layout, sealing, walking and reading.

use std::rc::Rc;

use differential_dataflow::batcher::merge::Sealer;
use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::implementations::BatchContainer;
use differential_dataflow::trace::{Cursor, TraceReader};
use timely::progress::Antichain;

use super::layout::OksSealer;
use super::*;
use crate::packed::{PackedRef, PackedRow, PackedUpdates};
use crate::repr::{Datum, Frontier, GlobalId, Row, Timestamp};
use crate::shared_batch::Shared;

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
    let pack =
        |datums: &[i32]| PackedRow::pack(&datums.iter().map(|d| Datum::Int32(*d)).collect::<Row>());
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

#[test]
fn a_spines_batches_are_read_on_another_thread_without_a_copy() {
    timely::execute_directly(|worker| {
        let (mut input, mut traces) = rows_by_themselves(worker);
        for i in 0..10 {
            input.update(vec![Datum::Int64(i)], 1);
        }
        seal(worker, &mut input, &mut traces, 1);
        let batches = traces
            .oks
            .batches_through(Antichain::new().borrow())
            .expect("all batches");
        let pointers: Vec<usize> = batches.iter().map(batch_id).collect();
        let (rows, seen) = std::thread::spawn(move || {
            let seen: Vec<usize> = batches.iter().map(batch_id).collect();
            let (mut cursor, storage) = cursor_list(batches);
            let rows = cursor.to_vec(
                &storage,
                |k: PackedRef<'_>| k.unpack(),
                |v: PackedRef<'_>| v.unpack(),
            );
            (rows.len(), seen)
        })
        .join()
        .expect("reader thread");
        assert_eq!(rows, 10);
        assert_eq!(seen, pointers, "the reader holds the spine's own batches");
        // The local cursor agrees.
        let (mut cursor, storage) = cursor_of(&mut traces.oks);
        assert_eq!(
            cursor
                .to_vec(
                    &storage,
                    |k: PackedRef<'_>| k.unpack(),
                    |v: PackedRef<'_>| v.unpack()
                )
                .len(),
            10
        );
    });
}
