//! One window partition's values: its rows sorted as Materialize sorts
//! them (`order_aggregate_datums`: the window's ORDER BY, then the row
//! itself), and each call's value for each row, restated from
//! src/expr/src/relation/func.rs (`row_number`, `rank`, `dense_rank`,
//! `lag_lead_inner_respect_nulls`, `first_value_inner`, `last_value_inner`;
//! an aggregate's in `window_aggregate.rs`).

use std::cmp::Ordering;

use super::window_aggregate::window_aggregate;
use crate::plan::{
    compare_rows, datum_order, Frame, FrameBound, FrameUnits, OrderColumn, Window, WindowCall,
    WindowFunc,
};
use crate::repr::{DataflowError, Datum, Diff, Row};

/// The partition's rows, each copy once, with every call's value after
/// the row's first `width` columns. A count that is not positive is an
/// error (only a bug upstream makes one).
pub fn window_partition(window: &Window, rows: &[(&Row, Diff)]) -> Result<Vec<Row>, DataflowError> {
    if let Some((row, diff)) = rows.iter().find(|(_, diff)| *diff <= 0) {
        return Err(DataflowError(format!(
            "Non-positive multiplicity in reduce: {diff} for row {row:?}"
        )));
    }
    let mut sorted: Vec<&Row> = rows
        .iter()
        .flat_map(|(row, diff)| std::iter::repeat_n(*row, usize::try_from(*diff).unwrap_or(0)))
        .collect();
    sorted.sort_by(|a, b| in_partition(&window.order_by, window.width, a, b));
    let values: Vec<Vec<Datum>> = window
        .calls
        .iter()
        .map(|call| call_values(window, call, &sorted))
        .collect::<Result<_, _>>()?;
    Ok(sorted
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut out: Row = row[..window.width].to_vec();
            out.extend(values.iter().map(|v| v[i].clone()));
            out
        })
        .collect())
}

/// Materialize's order within a partition: the ORDER BY columns, then the
/// row's own columns as its `Datum`s order (NULL after every value), then,
/// for rows that order still ties, the derived order, so that the sort is
/// the same on every run.
fn in_partition(order: &[OrderColumn], width: usize, a: &Row, b: &Row) -> Ordering {
    compare_rows(order, a, b)
        .then_with(|| {
            let datums = a[..width].iter().zip(&b[..width]);
            datums.fold(Ordering::Equal, |o, (x, y)| {
                o.then_with(|| datum_order(x, y))
            })
        })
        .then_with(|| a.cmp(b))
}

/// One call's value for each of the sorted rows; an aggregate's can fail.
fn call_values(
    window: &Window,
    call: &WindowCall,
    sorted: &[&Row],
) -> Result<Vec<Datum>, DataflowError> {
    let arg = |i: usize| -> Vec<&Datum> { sorted.iter().map(|r| &r[call.args[i]]).collect() };
    // Rows are peers when their ORDER BY values are equal (as rows).
    let peers = |i: usize, j: usize| {
        let key = |r: &Row| -> Vec<Datum> {
            let columns = window.order_by.iter().map(|o| r[o.column].clone());
            columns.collect()
        };
        key(sorted[i]) == key(sorted[j])
    };
    let n = sorted.len();
    // Each row's last peer, where `RANGE ... CURRENT ROW` ends.
    let mut last_peer: Vec<usize> = (0..n).collect();
    for i in (0..n.saturating_sub(1)).rev() {
        if peers(i, i + 1) && !crate::mutation::frame_without_peers() {
            last_peer[i] = last_peer[i + 1];
        }
    }
    Ok(match call.func {
        WindowFunc::RowNumber => (1..=n).map(|i| Datum::Int64(i as i64)).collect(),
        WindowFunc::Rank | WindowFunc::DenseRank => {
            let dense = call.func == WindowFunc::DenseRank;
            let mut out = Vec::with_capacity(n);
            let mut rank = 1;
            for i in 0..n {
                // Under `rank-as-row-number` a rank (not a dense one) is
                // the row's number, peers or not.
                let broken = !dense && crate::mutation::rank_as_row_number();
                if i > 0 && (broken || !peers(i - 1, i)) {
                    rank = if dense { rank + 1 } else { i as i64 + 1 };
                }
                out.push(Datum::Int64(rank));
            }
            out
        }
        WindowFunc::Lag | WindowFunc::Lead => {
            let (values, offsets, defaults) = (arg(0), arg(1), arg(2));
            (0..n)
                .map(|i| {
                    let Datum::Int32(offset) = offsets[i] else {
                        // A NULL offset gives NULL.
                        return Datum::Null;
                    };
                    let offset = i64::from(*offset);
                    let at = match call.func {
                        WindowFunc::Lag => i as i64 - offset,
                        _ => i as i64 + offset,
                    };
                    let found = usize::try_from(at).ok().and_then(|at| values.get(at));
                    (*found.unwrap_or(&defaults[i])).clone()
                })
                .collect()
        }
        WindowFunc::FirstValue => first_values(&arg(0), &window.frame),
        WindowFunc::LastValue => last_values(&arg(0), &last_peer, &window.frame),
        WindowFunc::Aggregate(func) => {
            let ordered = !window.order_by.is_empty();
            let args: Vec<Vec<&Datum>> = (0..call.args.len()).map(arg).collect();
            window_aggregate(func, &window.frame, ordered, &args, &last_peer)?
        }
    })
}

/// `first_value` of each row under `frame` (`first_value_inner`).
fn first_values(datums: &[&Datum], frame: &Frame) -> Vec<Datum> {
    let n = datums.len();
    let at = |i: usize| datums[i].clone();
    (0..n)
        .map(|idx| match frame.start {
            FrameBound::CurrentRow => at(idx),
            FrameBound::UnboundedPreceding => match frame.end {
                FrameBound::OffsetPreceding(end) if idx < end as usize => Datum::Null,
                _ => at(0),
            },
            FrameBound::OffsetPreceding(start) => {
                let start_idx = idx.saturating_sub(start as usize);
                match frame.end {
                    FrameBound::OffsetPreceding(end) if start < end || idx < end as usize => {
                        Datum::Null
                    }
                    _ => at(start_idx),
                }
            }
            FrameBound::OffsetFollowing(start) => {
                let start_idx = idx.saturating_add(start as usize);
                match frame.end {
                    FrameBound::OffsetFollowing(end) if start > end || start_idx >= n => {
                        Datum::Null
                    }
                    _ => datums.get(start_idx).map_or(Datum::Null, |d| (*d).clone()),
                }
            }
            FrameBound::UnboundedFollowing => unreachable!("refused when planned"),
        })
        .collect()
}

/// `last_value` of each row under `frame` (`last_value_inner`); a row's
/// last peer is where `RANGE ... CURRENT ROW` ends.
fn last_values(datums: &[&Datum], last_peer: &[usize], frame: &Frame) -> Vec<Datum> {
    let n = datums.len();
    let at = |i: usize| datums[i].clone();
    (0..n)
        .map(|idx| match frame.end {
            FrameBound::CurrentRow => match frame.units {
                FrameUnits::Rows => at(idx),
                FrameUnits::Range => at(last_peer[idx]),
            },
            FrameBound::UnboundedFollowing => match frame.start {
                FrameBound::OffsetFollowing(start) if idx + start as usize > n - 1 => Datum::Null,
                _ => at(n - 1),
            },
            FrameBound::OffsetFollowing(end) => {
                let end_idx = idx.saturating_add(end as usize).min(n - 1);
                match frame.start {
                    FrameBound::OffsetFollowing(start)
                        if end < start || idx.saturating_add(start as usize) >= n =>
                    {
                        Datum::Null
                    }
                    _ => at(end_idx),
                }
            }
            FrameBound::OffsetPreceding(end) => {
                if idx < end as usize {
                    Datum::Null
                } else {
                    match frame.start {
                        FrameBound::OffsetPreceding(start) if end > start => Datum::Null,
                        _ => at(idx - end as usize),
                    }
                }
            }
            FrameBound::UnboundedPreceding => unreachable!("refused when planned"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::{Int32, Int64, Null};

    fn window(calls: Vec<WindowCall>) -> Window {
        Window {
            width: 1,
            partition: vec![],
            order_by: vec![OrderColumn::new(1, false)],
            frame: Frame::default(),
            calls,
        }
    }

    #[test]
    fn copies_are_numbered_apart_and_peers_share_a_rank() {
        // (row, order key): a NULL key sorts last; ties go by the row.
        let rows: Vec<Row> = vec![
            vec![Int32(9), Int32(1)],
            vec![Int32(8), Null],
            vec![Int32(7), Int32(1)],
        ];
        let input: Vec<(&Row, Diff)> = rows.iter().zip([2, 1, 1]).collect();
        let call = |func| WindowCall { func, args: vec![] };
        let w = window(vec![
            call(WindowFunc::RowNumber),
            call(WindowFunc::Rank),
            call(WindowFunc::DenseRank),
        ]);
        let out = window_partition(&w, &input).expect("positive counts");
        let expect = |v: i32, n: i64, r: i64, d: i64| vec![Int32(v), Int64(n), Int64(r), Int64(d)];
        assert_eq!(
            out,
            vec![
                expect(7, 1, 1, 1),
                expect(9, 2, 1, 1),
                expect(9, 3, 1, 1),
                expect(8, 4, 4, 2),
            ]
        );
        let negative: Vec<(&Row, Diff)> = vec![(&rows[0], -1)];
        assert!(window_partition(&w, &negative).is_err());
    }

    #[test]
    fn lag_reads_each_rows_own_offset_and_default() {
        // (value, order key, offset, default)
        let rows: Vec<Row> = [(10, 1, 1, 0), (20, 2, -1, 0), (30, 3, 5, -1)]
            .iter()
            .map(|&(v, k, o, d)| vec![Int32(v), Int32(k), Int32(o), Int32(d)])
            .collect();
        let input: Vec<(&Row, Diff)> = rows.iter().map(|r| (r, 1)).collect();
        let lag = WindowCall {
            func: WindowFunc::Lag,
            args: vec![0, 2, 3],
        };
        let out = window_partition(&window(vec![lag]), &input).expect("positive counts");
        let values: Vec<&Datum> = out.iter().map(|r| &r[1]).collect();
        assert_eq!(values, vec![&Int32(0), &Int32(30), &Int32(-1)]);
    }
}
