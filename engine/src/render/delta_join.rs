//! Delta joins: one dataflow path per input, each path's changes looked up
//! in the other inputs' arrangements (the traces an index keeps on this
//! runtime, or the points the other runtime publishes), so no intermediate
//! result is arranged and every output change is produced exactly once.
//!
//! The half join keeps the real system's time discipline under a total
//! order: path `i` looks input `j` up at times up to and including its
//! change's time when `j > i`, strictly before it when `j < i`. Changes of
//! several inputs at one time thus pair up on exactly one path. Times are
//! compared as the dataflow presents them: every time before its `as_of`
//! counts as the `as_of`.
//!
//! Each input's errors join the output's errors once, whatever the number
//! of paths (the mutation `join-errs-per-path` breaks exactly this).

use std::collections::BTreeMap;
use std::sync::Arc;

use differential_dataflow::trace::cursor::cursor_list;
use differential_dataflow::trace::{Cursor, TraceReader};
use differential_dataflow::{AsCollection, Hashable, VecCollection};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::{Exchange, Pipeline};
use timely::dataflow::operators::{Capability, Operator};
use timely::progress::Antichain;

use super::inputs::{Inputs, LookupSource};
use super::join::{enforce_equivalences, keyed};
use crate::arrangement::{all_batches, row_of};
use crate::mutation;
use crate::packed::PackedRow;
use crate::plan::RelationPlan;
use crate::repr::{Diff, GlobalId, Row, Timestamp};
use crate::shared_batch::Shared;
use crate::sharing::import::Reader;
use crate::typedefs::{Errs, Oks};
use crate::typedefs::{OksBatch, OksTrace};

/// One half join's own handle on what it looks up, holding compaction
/// where its pending changes still need to read.
enum Handle {
    Local(OksTrace),
    Shared(Reader),
}

impl Handle {
    fn open(source: &LookupSource, as_of: Timestamp) -> Handle {
        let mut handle = match source {
            LookupSource::Local(trace) => Handle::Local(trace.clone()),
            LookupSource::Shared { point, registry } => {
                Handle::Shared(Reader::new(Arc::clone(point), registry.reader_id()))
            }
        };
        handle.hold(as_of);
        handle
    }

    /// Lets the arrangement compact up to `at`, no further.
    fn hold(&mut self, at: Timestamp) {
        match self {
            Handle::Local(trace) => {
                let frontier = Antichain::from_elem(at);
                trace.set_logical_compaction(frontier.borrow());
                trace.set_physical_compaction(frontier.borrow());
            }
            Handle::Shared(reader) => {
                reader.hold(at);
            }
        }
    }

    fn batches(&mut self) -> Vec<Shared<OksBatch>> {
        match self {
            Handle::Local(trace) => all_batches(trace),
            Handle::Shared(reader) => reader.point.snapshot().oks.batches,
        }
    }
}

/// A path's partial result: the join key and, per input, its row once
/// the path has reached it (empty before).
type Partial = (Row, Vec<Row>);

/// Renders `plans` as a delta join if every input is an imported index
/// and all of them are arranged by the same equivalence classes, in the
/// same order; `None` otherwise (the caller renders it linear).
pub fn render<'s>(
    plans: &[RelationPlan],
    equivalences: &[Vec<usize>],
    inputs: &Inputs<'s>,
    as_of: Timestamp,
) -> Option<(Oks<'s>, Errs<'s>)> {
    let ids: Vec<GlobalId> = plans
        .iter()
        .map(|plan| match plan {
            RelationPlan::Get(id) if inputs.lookups.contains_key(id) => Some(*id),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if ids.len() < 2 || !shares_key(&ids, equivalences, inputs) {
        return None;
    }
    let paths = ids.len();
    let orders: Vec<String> = (0..paths)
        .map(|i| {
            let rest = (0..paths).filter(|j| *j != i).map(|j| format!(" » %{j}"));
            format!("[%{i}{}]", rest.collect::<String>())
        })
        .collect();
    inputs
        .joins
        .borrow_mut()
        .push(format!("Delta Join {}", orders.join(" ")));
    let mut oks: Option<Oks<'s>> = None;
    let mut errs: Option<Errs<'s>> = None;
    let mut add_errs = |e: Errs<'s>| {
        errs = Some(match errs.take() {
            None => e,
            Some(errs) => errs.concat(e),
        })
    };
    for (i, id) in ids.iter().enumerate() {
        let (changes, input_errs) = inputs.collections[id].clone();
        add_errs(input_errs);
        let mut path = keyed(changes, inputs.lookups[id].key.clone()).map(move |(key, row)| {
            let mut parts = vec![Vec::new(); paths];
            parts[i] = row;
            (key, parts)
        });
        for (j, other) in ids.iter().enumerate().filter(|(j, _)| *j != i) {
            let (progress, other_errs) = inputs.collections[other].clone();
            let name = format!("DeltaJoin path {i} lookup {j}");
            let source = inputs.lookups[other].source.clone();
            path = half_join(path, progress, source, j, j < i, as_of, &name);
            // The bug the seeds found: each path's lookups emitted the
            // errors of the input they read, besides its own path's once.
            if mutation::join_errs_per_path() {
                add_errs(other_errs);
            }
        }
        let rows = path.map(|(_key, parts)| parts.concat());
        oks = Some(match oks {
            None => rows,
            Some(oks) => oks.concat(rows),
        });
    }
    let oks = enforce_equivalences(oks?, equivalences.to_vec());
    Some((oks, errs?))
}

/// Whether every input is arranged by one column of each of the same
/// equivalence classes, in the same order, so any path can look any other
/// input up by its own key.
fn shares_key(ids: &[GlobalId], equivalences: &[Vec<usize>], inputs: &Inputs<'_>) -> bool {
    let classes = merged(equivalences);
    let class_of = |column: usize| classes.iter().position(|c| c.contains(&column));
    let mut offset = 0;
    let mut shared: Option<Vec<Option<usize>>> = None;
    for id in ids {
        let key = &inputs.lookups[id].key;
        let these: Vec<Option<usize>> = key.iter().map(|c| class_of(offset + c)).collect();
        if key.is_empty() || these.contains(&None) || shared.as_ref().is_some_and(|s| *s != these) {
            return false;
        }
        shared = Some(these);
        offset += inputs.arities[id];
    }
    true
}

/// The equivalence classes with every two that share a column merged.
fn merged(equivalences: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for class in equivalences {
        let mut joined = class.clone();
        classes.retain(|c| {
            let overlaps = c.iter().any(|x| class.contains(x));
            if overlaps {
                joined.extend(c);
            }
            !overlaps
        });
        joined.sort();
        joined.dedup();
        classes.push(joined);
    }
    classes
}

/// Looks each change of `path` up in `source`, putting each matching row
/// at `slot`: at times strictly before the change's when `strict`, else up
/// to and including it. `progress` is the looked-up input's own changes,
/// read only for its frontier: once it passes what a change may see, the
/// arrangement holds every update the change needs.
#[allow(clippy::too_many_arguments)]
pub fn half_join<'s>(
    path: VecCollection<'s, Timestamp, Partial, Diff>,
    progress: Oks<'s>,
    source: LookupSource,
    slot: usize,
    strict: bool,
    as_of: Timestamp,
    name: &str,
) -> VecCollection<'s, Timestamp, Partial, Diff> {
    let sees = move |trace_time: Timestamp, change_time: Timestamp| {
        let trace_time = trace_time.max(as_of);
        match strict {
            true => trace_time < change_time,
            false => trace_time <= change_time,
        }
    };
    let worker = path.inner.scope().worker();
    let exchange = Exchange::new(|((key, _), _, _): &(Partial, Timestamp, Diff)| key.hashed());
    path.inner
        .binary_frontier::<_, CapacityContainerBuilder<Vec<_>>, _, _, _, _>(
            progress.inner,
            exchange,
            Pipeline,
            name,
            move |_capability, info| {
                let mut handle = Some(Handle::open(&source, as_of));
                if let Some(Handle::Shared(reader)) = &handle {
                    reader.wake_on_publish(worker.sync_activator_for(info.address.to_vec()));
                }
                type Changes = Vec<(Partial, Diff)>;
                let mut pending: BTreeMap<Timestamp, (Capability<Timestamp>, Changes)> =
                    BTreeMap::new();
                move |(changes, changes_frontier), (lookups, lookups_frontier), output| {
                    changes.for_each(|capability, data| {
                        for (partial, time, diff) in data.drain(..) {
                            pending
                                .entry(time)
                                .or_insert_with(|| (capability.delayed(&time, 0), Vec::new()))
                                .1
                                .push((partial, diff));
                        }
                    });
                    lookups.for_each(|_, data| data.clear());
                    let Some(lookup) = handle.as_mut() else {
                        return;
                    };
                    // A change is ready once nothing the looked-up input may
                    // still bring is something it would see.
                    let ready = |time: Timestamp| {
                        lookups_frontier.frontier().iter().all(|f| !sees(*f, time))
                    };
                    let ready_times: Vec<Timestamp> =
                        pending.keys().copied().take_while(|t| ready(*t)).collect();
                    if !ready_times.is_empty() {
                        let batches = lookup.batches();
                        for time in ready_times {
                            let (capability, mut changes) =
                                pending.remove(&time).expect("a pending time");
                            changes.sort_by(|a, b| a.0 .0.cmp(&b.0 .0));
                            let (mut cursor, storage) = cursor_list(batches.clone());
                            let mut session = output.session(&capability);
                            for ((key, parts), diff) in changes {
                                let packed = PackedRow::pack(&key);
                                cursor.seek_key(&storage, packed.as_ref());
                                if !cursor.key_valid(&storage)
                                    || cursor.key(&storage) != packed.as_ref()
                                {
                                    continue;
                                }
                                while cursor.val_valid(&storage) {
                                    let mut count = 0;
                                    cursor.map_times(&storage, |t, r| {
                                        if sees(*t, time) {
                                            count += *r;
                                        }
                                    });
                                    if count != 0 {
                                        let mut parts = parts.clone();
                                        let (k, v) = (cursor.key(&storage), cursor.val(&storage));
                                        parts[slot] = row_of(k, v).unpack();
                                        session.give(((key.clone(), parts), time, diff * count));
                                    }
                                    cursor.step_val(&storage);
                                }
                                cursor.rewind_vals(&storage);
                            }
                        }
                    }
                    // Hold the arrangement one below the least time a change
                    // may still have, so compaction keeps every comparison.
                    let least = changes_frontier
                        .frontier()
                        .iter()
                        .copied()
                        .chain(pending.keys().copied())
                        .min();
                    match least {
                        Some(least) => lookup.hold(least.saturating_sub(1).max(as_of)),
                        None => handle = None,
                    }
                }
            },
        )
        .as_collection()
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeMap;
    use std::rc::Rc;

    use differential_dataflow::input::{Input, InputSession};

    use super::*;
    use crate::arrangement::{arrange, import_local, rows, IndexTraces};
    use crate::render::inputs::Lookup;
    use crate::repr::{DataflowError, Datum};

    type Update = (Row, Timestamp, Diff);

    /// Input `i`'s changes, per time: (key, tag, diff); rows are `[key, tag]`.
    const CHANGES: &[(usize, Timestamp, i64, i64, Diff)] = &[
        // All three inputs at one time: the triple must appear once.
        (0, 1, 1, 10, 1),
        (1, 1, 1, 20, 1),
        (2, 1, 1, 30, 1),
        // Interleaved: B at 2, A at 3, C and a retraction of A at 4.
        (1, 2, 1, 21, 1),
        (0, 3, 1, 11, 1),
        (2, 4, 1, 31, 1),
        (0, 4, 1, 10, -1),
        // A key only two inputs have never joins; then the third catches up.
        (0, 5, 2, 12, 1),
        (1, 5, 2, 22, 2),
        (2, 6, 2, 32, 1),
    ];

    /// The three-way join of everything up to `time`, as (row, count).
    fn join_at(time: Timestamp) -> BTreeMap<Row, Diff> {
        let state = |input: usize| -> Vec<(i64, i64, Diff)> {
            let mut rows: BTreeMap<(i64, i64), Diff> = BTreeMap::new();
            for (i, t, k, tag, d) in CHANGES {
                if *i == input && *t <= time {
                    *rows.entry((*k, *tag)).or_default() += d;
                }
            }
            rows.into_iter().map(|((k, tag), d)| (k, tag, d)).collect()
        };
        let mut out = BTreeMap::new();
        for (ka, a, da) in state(0) {
            for (kb, b, db) in state(1) {
                for (kc, c, dc) in state(2) {
                    if ka == kb && kb == kc && da * db * dc != 0 {
                        let row = [ka, a, kb, b, kc, c].map(Datum::Int64).to_vec();
                        *out.entry(row).or_default() += da * db * dc;
                    }
                }
            }
        }
        out
    }

    /// Every output change exactly once: the delta join's updates at each
    /// time are exactly the change of the full join at that time, for
    /// changes of several inputs at one time and at interleaved times.
    #[test]
    fn each_output_change_exactly_once() {
        timely::execute_directly(|worker| {
            let (mut inputs, mut traces): (
                Vec<InputSession<Timestamp, Row, Diff>>,
                Vec<IndexTraces>,
            ) = worker.dataflow::<Timestamp, _, _>(|scope| {
                (0..3)
                    .map(|_| {
                        let (input, rows) = scope.new_collection::<Row, Diff>();
                        let errs = rows.clone().flat_map(|_| None::<DataflowError>);
                        (input, arrange(rows, vec![0], errs))
                    })
                    .unzip()
            });
            let seen: Rc<RefCell<Vec<Update>>> = Rc::default();
            let probe = worker.dataflow::<Timestamp, _, _>(|scope| {
                let ids = [GlobalId(1), GlobalId(2), GlobalId(3)];
                let mut join_inputs = Inputs {
                    collections: BTreeMap::new(),
                    arities: BTreeMap::new(),
                    lookups: BTreeMap::new(),
                    joins: Default::default(),
                    locals: Default::default(),
                };
                for (id, traces) in ids.iter().zip(traces.iter_mut()) {
                    let since = Antichain::from_elem(0);
                    let (oks, errs) = import_local(scope, *id, traces, &since, None);
                    let pair = (rows(oks), errs);
                    join_inputs.collections.insert(*id, pair);
                    join_inputs.arities.insert(*id, 2);
                    let source = LookupSource::Local(traces.oks.clone());
                    join_inputs.lookups.insert(
                        *id,
                        Lookup {
                            key: vec![0],
                            source,
                        },
                    );
                }
                let plans: Vec<RelationPlan> =
                    ids.iter().map(|id| RelationPlan::Get(*id)).collect();
                let (oks, _errs) = render(&plans, &[vec![0, 2, 4]], &join_inputs, 0)
                    .expect("every input is arranged by the join key");
                let seen = Rc::clone(&seen);
                oks.inspect(move |u| seen.borrow_mut().push(u.clone()))
                    .probe()
                    .0
            });
            for time in 1..=6 {
                for input in &mut inputs {
                    input.advance_to(time);
                }
                for (i, t, k, tag, d) in CHANGES {
                    if *t == time {
                        inputs[*i].update(vec![Datum::Int64(*k), Datum::Int64(*tag)], *d);
                    }
                }
                for input in &mut inputs {
                    input.advance_to(time + 1);
                    input.flush();
                }
                while probe.less_than(&(time + 1)) {
                    worker.step();
                }
                let mut got: BTreeMap<Row, Diff> = BTreeMap::new();
                for (row, _, d) in seen.borrow().iter().filter(|(_, t, _)| *t == time) {
                    *got.entry(row.clone()).or_default() += d;
                }
                got.retain(|_, d| *d != 0);
                let mut expected = join_at(time);
                for (row, d) in join_at(time - 1) {
                    *expected.entry(row).or_default() -= d;
                }
                expected.retain(|_, d| *d != 0);
                assert_eq!(got, expected, "the join's change at {time}");
            }
            assert!(
                seen.borrow().iter().all(|(_, t, _)| *t >= 1),
                "no update before the first change"
            );
            drop(traces);
        });
    }
}
