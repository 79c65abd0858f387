//! An aggregate over a window (`sum(x) OVER (...)`): each row's value of
//! `count`, `sum`, `min` or `max` over the rows of its frame, restated
//! from Materialize's `window_aggr_inner` (src/expr/src/relation/func.rs).
//! Over the whole partition, or over a frame with an offset, the frame's
//! values are aggregated afresh in the partition's order (its
//! `AggregateFunc::eval`, where a `numeric` sum rounds each addition);
//! from the partition's start to the current row (to its last peer under
//! the default `RANGE` frame), or from the current row to the end, they
//! are given one at a time to a running aggregate (its `OneByOneAggr`,
//! which for `sum` and `count` is the dataflow's accumulator).

use super::aggregate::{add_integer, aggregate, empty_aggregate, integer, integer_sum};
use super::float_sum::FloatSum;
use super::numeric_sum::{in_order, NumericSum};
use crate::plan::{AggregateFunc, Frame, FrameBound, FrameUnits};
use crate::repr::{unsupported, DataflowError, Datum};

/// Each row's value of `func` over its frame; `values` are the argument's
/// in the partition's order, and `last_peer[i]` is the last row tied with
/// row `i` under the window's ORDER BY (`ordered`: it has one).
pub fn window_aggregate(
    func: AggregateFunc,
    frame: &Frame,
    ordered: bool,
    values: &[&Datum],
    last_peer: &[usize],
) -> Result<Vec<Datum>, DataflowError> {
    use FrameBound::*;
    let n = values.len();
    if !frame.evaluated(ordered) {
        let mut out = Vec::with_capacity(n);
        let mut running = Running::new(func);
        match (frame.units, frame.start) {
            (FrameUnits::Range, _) => {
                // Each peer group's rows together, and the value after them
                // for each of them.
                let mut start = 0;
                while start < n {
                    let end = last_peer[start];
                    values[start..=end]
                        .iter()
                        .try_for_each(|v| running.give(v))?;
                    let value = running.value()?;
                    out.extend(std::iter::repeat_n(value, end + 1 - start));
                    start = end + 1;
                }
            }
            (_, UnboundedPreceding) => {
                for v in values {
                    running.give(v)?;
                    out.push(running.value()?);
                }
            }
            _ => {
                // From the current row to the end: the same, from the end.
                for v in values.iter().rev() {
                    running.give(v)?;
                    out.push(running.value()?);
                }
                out.reverse();
            }
        }
        return Ok(out);
    }
    let whole = matches!(
        (frame.start, frame.end),
        (UnboundedPreceding, UnboundedFollowing)
    ) || frame.units == FrameUnits::Range;
    if whole {
        let value = evaluate(func, values)?;
        return Ok(vec![value; n]);
    }
    let offset = |b: FrameBound| -> i64 {
        match b {
            OffsetPreceding(o) => -(o as i64),
            OffsetFollowing(o) => o as i64,
            CurrentRow => 0,
            UnboundedPreceding | UnboundedFollowing => unreachable!("refused when planned"),
        }
    };
    let (start, end) = (offset(frame.start), offset(frame.end));
    (0..n as i64)
        .map(|i| {
            let first = (i + start).max(0);
            let last = (i + end).min(n as i64 - 1);
            match first <= last {
                true => evaluate(func, &values[first as usize..=last as usize]),
                false => Ok(empty_aggregate(func)),
            }
        })
        .collect()
}

/// `func` of a frame's values, aggregated afresh in their order.
fn evaluate(func: AggregateFunc, values: &[&Datum]) -> Result<Datum, DataflowError> {
    match func {
        AggregateFunc::SumNumeric => in_order(values.iter().copied()),
        // Added as floats in the frame's order: refused when planned.
        AggregateFunc::SumFloat(_) => Err(DataflowError(unsupported(
            "a window sum of floats over the whole partition or an offset frame",
        ))),
        _ => {
            let values: Vec<(Datum, i64)> = values.iter().map(|d| ((*d).clone(), 1)).collect();
            aggregate(func, &values)
        }
    }
}

/// The aggregate of the values given so far, one at a time.
enum Running {
    Count(AggregateFunc, i64),
    Integer(AggregateFunc, Option<i128>),
    Float(crate::plan::FloatWidth, FloatSum),
    Numeric(NumericSum),
    Extreme(AggregateFunc, Option<Datum>),
}

impl Running {
    fn new(func: AggregateFunc) -> Running {
        match func {
            AggregateFunc::CountAll | AggregateFunc::Count => Running::Count(func, 0),
            AggregateFunc::SumFloat(width) => Running::Float(width, FloatSum::default()),
            AggregateFunc::SumNumeric => Running::Numeric(NumericSum::default()),
            AggregateFunc::Min | AggregateFunc::Max => Running::Extreme(func, None),
            _ => Running::Integer(func, None),
        }
    }

    fn give(&mut self, d: &Datum) -> Result<(), DataflowError> {
        if *d == Datum::Null && !matches!(self, Running::Count(AggregateFunc::CountAll, _)) {
            return Ok(());
        }
        match self {
            Running::Count(_, n) => *n += 1,
            Running::Integer(_, sum) => add_integer(sum, integer("sum", d)?, 1)?,
            Running::Float(_, sum) => sum.add(&FloatSum::of(d, 1)),
            Running::Numeric(sum) => sum.add(&NumericSum::of(d, 1)),
            Running::Extreme(func, best) => {
                let better = match best {
                    None => true,
                    Some(b) if *func == AggregateFunc::Min => d < b,
                    Some(b) => d > b,
                };
                if better {
                    *best = Some(d.clone());
                }
            }
        }
        Ok(())
    }

    fn value(&self) -> Result<Datum, DataflowError> {
        match self {
            Running::Count(_, n) => Ok(Datum::Int64(*n)),
            Running::Integer(func, sum) => integer_sum(*func, *sum),
            Running::Float(width, sum) => Ok(sum.finish(*width)),
            Running::Numeric(sum) => sum.finish(),
            Running::Extreme(_, best) => Ok(best.clone().unwrap_or(Datum::Null)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::{Int32, Int64, Null};

    fn frame(units: FrameUnits, start: FrameBound, end: FrameBound) -> Frame {
        Frame { units, start, end }
    }

    fn sums(frame: &Frame, ordered: bool, values: &[Datum], last_peer: &[usize]) -> Vec<Datum> {
        let values: Vec<&Datum> = values.iter().collect();
        window_aggregate(AggregateFunc::Sum, frame, ordered, &values, last_peer)
            .expect("no overflow")
    }

    #[test]
    fn each_frame_reads_its_rows() {
        use FrameBound::*;
        let values = [Int32(1), Null, Int32(4), Int32(8)];
        // Rows 1 and 2 are peers.
        let peers = [0, 2, 2, 3];
        let range = Frame::default();
        let expect = |v: [Option<i64>; 4]| v.map(|v| v.map_or(Null, Int64)).to_vec();
        assert_eq!(
            sums(&range, true, &values, &peers),
            expect([Some(1), Some(5), Some(5), Some(13)])
        );
        assert_eq!(sums(&range, false, &values, &peers), expect([Some(13); 4]));
        let rows = frame(FrameUnits::Rows, UnboundedPreceding, CurrentRow);
        assert_eq!(
            sums(&rows, true, &values, &peers),
            expect([Some(1), Some(1), Some(5), Some(13)])
        );
        let rest = frame(FrameUnits::Rows, CurrentRow, UnboundedFollowing);
        assert_eq!(
            sums(&rest, true, &values, &peers),
            expect([Some(13), Some(12), Some(12), Some(8)])
        );
        let around = frame(FrameUnits::Rows, OffsetPreceding(1), OffsetFollowing(1));
        assert_eq!(
            sums(&around, true, &values, &peers),
            expect([Some(1), Some(5), Some(12), Some(12)])
        );
        // An empty frame, and one of only a NULL, are NULL.
        let ahead = frame(FrameUnits::Rows, OffsetFollowing(1), OffsetFollowing(1));
        assert_eq!(
            sums(&ahead, true, &values, &peers),
            expect([None, Some(4), Some(8), None])
        );
        let values: Vec<&Datum> = values.iter().collect();
        let counts = window_aggregate(AggregateFunc::Count, &ahead, true, &values, &peers);
        assert_eq!(counts, Ok(vec![Int64(0), Int64(1), Int64(1), Int64(0)]));
        let max = window_aggregate(AggregateFunc::Max, &rows, true, &values, &peers);
        assert_eq!(max, Ok(vec![Int32(1), Int32(1), Int32(4), Int32(8)]));
    }
}
