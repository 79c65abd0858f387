//! The aliases every part of the engine names its collections, batches and
//! traces by: a leaf, so that the renderer, the arrangements and the
//! sharing registry agree on the types without importing each other (as
//! Materialize's compute crate has its `typedefs.rs`).
//!
//! The batch types sit behind `Arc` (`Shared`) so the sharing registry can
//! hand the very batches to the other runtime.

use differential_dataflow::operators::arrange::{Arranged, TraceAgent};
use differential_dataflow::trace::implementations::ord_neu::{OrdKeyBatch, OrdValBatch};
use differential_dataflow::trace::implementations::spine_fueled::Spine;
use differential_dataflow::trace::implementations::Vector;
use differential_dataflow::trace::wrappers::frontier::TraceFrontier;
use differential_dataflow::VecCollection;

use crate::packed::{Offsets, PackedRows};
use crate::repr::{DataflowError, Diff, Row, Timestamp};
use crate::shared_batch::Shared;

/// A dataflow's rows.
pub type Oks<'s> = VecCollection<'s, Timestamp, Row, Diff>;
/// A dataflow's errors, kept apart from its rows.
pub type Errs<'s> = VecCollection<'s, Timestamp, DataflowError, Diff>;

/// Keys and rows packed, back to back in byte vectors (`PackedRows`): no
/// allocation per datum, no slot per row.
pub type OksBatch = OrdValBatch<OksLayout>;
/// Where an oks batch keeps its keys, rows, times, diffs and offsets.
pub type OksLayout = (PackedRows, PackedRows, Vec<Timestamp>, Vec<Diff>, Offsets);
/// Errors by themselves, with no value.
pub type ErrsBatch = OrdKeyBatch<Vector<((DataflowError, ()), Timestamp, Diff)>>;
/// Rows arranged by key, the value being the whole row, both packed;
/// batches behind `Arc`.
pub type OksTrace = TraceAgent<Spine<Shared<OksBatch>>>;
/// Errors arranged by themselves; batches behind `Arc`.
pub type ErrsTrace = TraceAgent<Spine<Shared<ErrsBatch>>>;
/// An index's oks as another dataflow of the same worker imports them.
pub type ImportedOks<'s> = Arranged<'s, TraceFrontier<OksTrace>>;
