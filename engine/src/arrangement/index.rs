//! An index's two traces (rows by key, errors by themselves), how they are
//! arranged from a dataflow's collections, and the chains of batches a
//! publisher hands to readers elsewhere.

use std::rc::Rc;

use differential_dataflow::trace::implementations::spine_fueled::Spine;
use differential_dataflow::trace::implementations::KeyBatcher;
use differential_dataflow::trace::TraceReader;
use differential_dataflow::VecCollection;
use timely::progress::Antichain;

use super::layout::OksBatcher;
use super::read::{all_batches, upper_of};
use crate::packed::PackedRow;
#[cfg(test)]
use crate::repr::Row;
use crate::repr::{meet, DataflowError, Diff, Frontier, Timestamp};
use crate::shared_batch::Shared;
use crate::typedefs::{Errs, ErrsBatch, ErrsTrace, Oks, OksBatch, OksTrace};

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
