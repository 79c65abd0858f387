//! Reading an imported arrangement's batches inside a dataflow: a trace
//! this worker maintains imported into another of its dataflows
//! (`import_local`), its rows unpacked (`rows`) or keyed anew without
//! unpacking (`arrange_imported`), each through `walk`, a bounded number of
//! pairs an activation.

use std::collections::VecDeque;

use differential_dataflow::trace::cursor::Navigable;
use differential_dataflow::trace::Cursor;
use differential_dataflow::{AsCollection, VecCollection};
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::operator::Operator;
use timely::progress::Antichain;

use super::index::{arrange_packed, IndexTraces};
use super::layout::row_of;
use crate::packed::PackedRef;
use crate::repr::{DataflowError, Diff, Frontier, GlobalId, Timestamp};
use crate::typedefs::{Errs, ImportedOks, Oks};

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
