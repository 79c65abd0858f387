//! An aggregate over a window (`sum(x) OVER (...)`): each row's value of
//! `count`, `sum`, `min`, `max`, `array_agg` or `string_agg` over the rows
//! of its frame, restated from Materialize's `window_aggr_inner`
//! (src/expr/src/relation/func.rs).
//! Over the whole partition, or over a frame with an offset, the frame's
//! values are aggregated afresh in the partition's order (its
//! `AggregateFunc::eval`, where a `numeric` sum rounds each addition);
//! from the partition's start to the current row (to its last peer under
//! the default `RANGE` frame), or from the current row to the end, they
//! are given one at a time to a running aggregate (its `OneByOneAggr`,
//! which for `sum` and `count` is the dataflow's accumulator, and for
//! `array_agg` and `string_agg` aggregates the values so far afresh).

use super::aggregate::{add_integer, aggregate, empty_aggregate, integer, integer_sum};
use super::float_sum::FloatSum;
use super::numeric_sum::{in_order, NumericSum};
use super::ordered::ordered_aggregate;
use crate::plan::{AggregateFunc, Frame, FrameBound, FrameUnits};
use crate::repr::{unsupported, DataflowError, Datum};

/// Each row's value of `func` over its frame; `args` are the values of
/// each argument in the partition's order, and `last_peer[i]` is the last
/// row tied with row `i` under the window's ORDER BY (`ordered`: it has
/// one).
pub fn window_aggregate(
    func: AggregateFunc,
    frame: &Frame,
    ordered: bool,
    args: &[Vec<&Datum>],
    last_peer: &[usize],
) -> Result<Vec<Datum>, DataflowError> {
    use FrameBound::*;
    let n = last_peer.len();
    let accumulable = !matches!(func, AggregateFunc::ArrayAgg | AggregateFunc::StringAgg);
    if !frame.evaluated(ordered) && accumulable {
        return running(func, frame, &args[0], last_peer);
    }
    let whole = matches!(
        (frame.start, frame.end),
        (UnboundedPreceding, UnboundedFollowing)
    ) || (frame.units == FrameUnits::Range && !ordered);
    let offset = |b: FrameBound, i: usize| -> i64 {
        match b {
            OffsetPreceding(o) => i as i64 - o as i64,
            OffsetFollowing(o) => i as i64 + o as i64,
            CurrentRow => i as i64,
            UnboundedPreceding => 0,
            UnboundedFollowing => n as i64 - 1,
        }
    };
    // Each row's frame, first and last row, cut at the partition's ends.
    let bounds = |i: usize| -> (i64, i64) {
        match (whole, frame.units) {
            (true, _) => (0, n as i64 - 1),
            (false, FrameUnits::Range) => (0, last_peer[i] as i64),
            (false, FrameUnits::Rows) => (
                offset(frame.start, i).max(0),
                offset(frame.end, i).min(n as i64 - 1),
            ),
        }
    };
    let mut last: Option<((i64, i64), Datum)> = None;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (first, end) = bounds(i);
        let value = match &last {
            Some((at, value)) if *at == (first, end) => value.clone(),
            _ if first > end => empty_aggregate(func),
            _ => evaluate(func, args, first as usize..=end as usize)?,
        };
        last = Some(((first, end), value.clone()));
        out.push(value);
    }
    Ok(out)
}

/// Each row's value of an aggregate that accumulates (`count`, `sum`,
/// `min`, `max`) over a frame from the partition's start to the row (to
/// its last peer under `RANGE`), or from the row to the end: the values
/// given one at a time.
fn running(
    func: AggregateFunc,
    frame: &Frame,
    values: &[&Datum],
    last_peer: &[usize],
) -> Result<Vec<Datum>, DataflowError> {
    let n = values.len();
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
        (_, FrameBound::UnboundedPreceding) => {
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
    Ok(out)
}

/// `func` of the frame `rows` of the arguments, aggregated afresh in
/// their order (`array_agg` and `string_agg` sort them by their values,
/// as Materialize's `array_concat` and `string_agg` do without an ORDER
/// BY in their call).
fn evaluate(
    func: AggregateFunc,
    args: &[Vec<&Datum>],
    rows: std::ops::RangeInclusive<usize>,
) -> Result<Datum, DataflowError> {
    let values = &args[0][rows.clone()];
    match func {
        AggregateFunc::SumNumeric => in_order(values.iter().copied()),
        // Added as floats in the frame's order: refused when planned.
        AggregateFunc::SumFloat(_) => Err(DataflowError(unsupported(
            "a window sum of floats over the whole partition or an offset frame",
        ))),
        AggregateFunc::StringAgg => {
            let rows = rows.map(|i| (args.iter().map(|a| a[i].clone()).collect(), 1));
            ordered_aggregate(func, &[], args.len(), rows.collect())
        }
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
    use crate::repr::array::Array;
    use Datum::{Int32, Int64, Null};

    fn frame(units: FrameUnits, start: FrameBound, end: FrameBound) -> Frame {
        Frame { units, start, end }
    }

    fn sums(frame: &Frame, ordered: bool, values: &[Datum], last_peer: &[usize]) -> Vec<Datum> {
        let values = [values.iter().collect()];
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
        let values = [values.iter().collect()];
        let counts = window_aggregate(AggregateFunc::Count, &ahead, true, &values, &peers);
        assert_eq!(counts, Ok(vec![Int64(0), Int64(1), Int64(1), Int64(0)]));
        let max = window_aggregate(AggregateFunc::Max, &rows, true, &values, &peers);
        assert_eq!(max, Ok(vec![Int32(1), Int32(1), Int32(4), Int32(8)]));
    }

    #[test]
    fn string_agg_and_array_agg_sort_each_frame_by_its_values() {
        use FrameBound::*;
        let text = |s: &str| Datum::Text(s.into());
        let values = [text("b"), text("a"), Null, text("c")];
        let separators = [text(","), text(";"), text("!"), text(",")];
        let args = [values.iter().collect(), separators.iter().collect()];
        let rows = frame(FrameUnits::Rows, UnboundedPreceding, CurrentRow);
        let peers = [0, 1, 2, 3];
        let out = window_aggregate(AggregateFunc::StringAgg, &rows, true, &args, &peers);
        let expect = ["b", "a,b", "a,b", "a,b,c"].map(text).to_vec();
        assert_eq!(out, Ok(expect));
        let ahead = frame(FrameUnits::Rows, OffsetFollowing(2), OffsetFollowing(3));
        let out = window_aggregate(AggregateFunc::ArrayAgg, &ahead, true, &args[..1], &peers);
        let array = |v: Vec<Datum>| Datum::Array(Box::new(Array::list(v)));
        let expect = vec![
            array(vec![text("c"), Null]),
            array(vec![text("c")]),
            Null,
            Null,
        ];
        assert_eq!(out, Ok(expect));
    }
}
