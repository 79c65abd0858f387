//! Window functions as a plan holds them: the calls one reduce over each
//! partition computes together (`Window`), and the frame a call reads.
//!
//! Materialize computes a window function as a reduce keyed by the
//! partition whose aggregate sorts the partition's records and gives each
//! its value (src/sql/src/plan/lowering.rs, `window_func_applied_to`); a
//! `RelationPlan::Window` is that reduce, over columns a `Map` before it
//! computed (the partition key, the order keys, the arguments).

use super::{AggregateFunc, OrderColumn};

/// The window functions the engine computes (Materialize's
/// `ScalarWindowFunc` and `ValueWindowFunc`, and an aggregate over a
/// window, its `AggregateFunc::WindowAggregate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WindowFunc {
    RowNumber,
    Rank,
    DenseRank,
    Lag,
    Lead,
    FirstValue,
    LastValue,
    /// `count`, `sum`, `min` or `max` over the frame of each row (an
    /// `avg` is planned as its `sum` over its `count`).
    Aggregate(AggregateFunc),
}

/// The calls Materialize fuses into one reduce when they share their
/// window (`transform_hir::fuse_window_functions`): value window functions
/// with each other, aggregates with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    Value,
    Aggregate,
}

impl WindowFunc {
    /// The calls it fuses with, if any (a scalar window function always
    /// has a reduce of its own).
    pub fn fusion(self) -> Option<Fusion> {
        match self {
            WindowFunc::RowNumber | WindowFunc::Rank | WindowFunc::DenseRank => None,
            WindowFunc::Aggregate(_) => Some(Fusion::Aggregate),
            _ => Some(Fusion::Value),
        }
    }
}

/// A frame's units: `ROWS`, or `RANGE` (only as the default frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameUnits {
    Rows,
    Range,
}

/// One end of a frame, as Materialize's `WindowFrameBound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameBound {
    UnboundedPreceding,
    OffsetPreceding(u64),
    CurrentRow,
    OffsetFollowing(u64),
    UnboundedFollowing,
}

/// The rows of a partition a `first_value` or `last_value` reads around
/// each row. The default is `RANGE BETWEEN UNBOUNDED PRECEDING AND
/// CURRENT ROW`: from the first row to the current row's last peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub units: FrameUnits,
    pub start: FrameBound,
    pub end: FrameBound,
}

impl Frame {
    /// Whether an aggregate over this frame is evaluated afresh over the
    /// frame's values in the partition's order, as Materialize's
    /// `window_aggr_inner` does for the whole partition (`UNBOUNDED` at
    /// both ends, or the default frame without `ORDER BY`) and for a frame
    /// with an offset; the other frames it accumulates one row at a time
    /// (its `OneByOneAggr`, a dataflow sum for `sum` and `count`).
    pub fn evaluated(&self, ordered: bool) -> bool {
        use FrameBound::*;
        match (self.units, self.start, self.end) {
            (_, UnboundedPreceding, UnboundedFollowing) => true,
            (FrameUnits::Range, _, _) => !ordered,
            (_, UnboundedPreceding, CurrentRow) | (_, CurrentRow, UnboundedFollowing) => false,
            _ => true,
        }
    }
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            units: FrameUnits::Range,
            start: FrameBound::UnboundedPreceding,
            end: FrameBound::CurrentRow,
        }
    }
}

/// One call: its function and the input columns of its arguments (`lag`
/// and `lead` always three, value, offset and default, as Materialize
/// encodes them; `first_value` and `last_value` one; the others none).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WindowCall {
    pub func: WindowFunc,
    pub args: Vec<usize>,
}

/// The calls one reduce computes over each partition: the input's first
/// `width` columns are the row as the query has it, the columns after them
/// what a `Map` computed for the calls. The output is those `width`
/// columns followed by one column per call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    pub width: usize,
    /// The input columns whose values key the reduce.
    pub partition: Vec<usize>,
    /// How a partition's rows are ordered; rows equal under it are told
    /// apart by their first `width` columns, as Materialize's tiebreaker.
    pub order_by: Vec<OrderColumn>,
    pub frame: Frame,
    pub calls: Vec<WindowCall>,
}
