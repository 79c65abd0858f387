//! Window functions as a plan holds them: the calls one reduce over each
//! partition computes together (`Window`), and the frame a call reads.
//!
//! Materialize computes a window function as a reduce keyed by the
//! partition whose aggregate sorts the partition's records and gives each
//! its value (src/sql/src/plan/lowering.rs, `window_func_applied_to`); a
//! `RelationPlan::Window` is that reduce, over columns a `Map` before it
//! computed (the partition key, the order keys, the arguments).

use super::OrderColumn;

/// The window functions the engine computes (Materialize's
/// `ScalarWindowFunc` and `ValueWindowFunc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WindowFunc {
    RowNumber,
    Rank,
    DenseRank,
    Lag,
    Lead,
    FirstValue,
    LastValue,
}

impl WindowFunc {
    /// Whether Materialize fuses calls of it that share their window into
    /// one reduce (`transform_hir::fuse_window_functions`: the value window
    /// functions; a scalar one always has a reduce of its own).
    pub fn fuses(self) -> bool {
        !matches!(
            self,
            WindowFunc::RowNumber | WindowFunc::Rank | WindowFunc::DenseRank
        )
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
