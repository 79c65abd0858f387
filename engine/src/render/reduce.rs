//! Reduces: grouped and global aggregates (row by row here, or from sums
//! in `accumulable` where every aggregate allows), and top-k, each group's
//! rows in SQL order cut to its limit.

use timely::dataflow::Scope;

use super::accumulable;
use super::collections::{constant, split};
use crate::eval::{aggregate, empty_aggregate, ordered_aggregate};
use crate::plan::{compare_rows, Aggregate, OrderColumn, Ties};
use crate::repr::{DataflowError, Datum, Diff, Row, Timestamp};
use crate::typedefs::{Errs, Oks};

#[allow(clippy::too_many_arguments)]
pub fn render<'s>(
    scope: Scope<'s, Timestamp>,
    oks: Oks<'s>,
    errs: Errs<'s>,
    group_key: &[usize],
    aggregates: &[Aggregate],
    global: bool,
    as_of: Timestamp,
    worker: usize,
) -> (Oks<'s>, Errs<'s>) {
    let key = group_key.to_vec();
    let aggs = aggregates.to_vec();
    let reduced = if accumulable::applies(aggregates) {
        accumulable::reduce(oks, key, aggs)
    } else {
        oks.map(move |row| (key.iter().map(|c| row[*c].clone()).collect::<Row>(), row))
            .reduce(
                move |key: &Row,
                      rows: &[(&Row, Diff)],
                      out: &mut Vec<(Result<Row, DataflowError>, Diff)>| {
                    out.push((reduce_group(key, rows, &aggs), 1));
                },
            )
            .map(|(_key, result)| result)
    };
    let (mut rows, errs) = split(reduced, errs);
    if global {
        // SQL gives a global aggregate one row even over no input: add the
        // empty-input row, minus itself whenever the reduce produced one.
        let default: Row = aggregates.iter().map(|a| empty_aggregate(a.func)).collect();
        let defaults = constant(
            scope,
            if worker == 0 {
                vec![default.clone()]
            } else {
                vec![]
            },
            as_of,
        );
        let produced = rows.clone().map(move |_| default.clone()).negate();
        rows = rows.concat(defaults).concat(produced);
    }
    (rows, errs)
}

/// One group's output row: its key followed by every aggregate.
fn reduce_group(
    key: &Row,
    rows: &[(&Row, Diff)],
    aggregates: &[Aggregate],
) -> Result<Row, DataflowError> {
    if let Some(e) = non_positive(rows) {
        return Err(e);
    }
    let mut out = key.clone();
    for agg in aggregates {
        if agg.is_ordered() {
            out.push(reduce_ordered(rows, agg)?);
            continue;
        }
        let mut values = rows
            .iter()
            .map(|(row, diff)| Ok((agg.expr.eval(row)?, *diff)))
            .collect::<Result<Vec<_>, DataflowError>>()?;
        if agg.distinct {
            // Each distinct value once (rows differ where values may not).
            values.sort();
            values.dedup_by(|a, b| a.0 == b.0);
            values.iter_mut().for_each(|(_, m)| *m = 1);
        }
        out.push(aggregate(agg.func, &values)?);
    }
    Ok(out)
}

/// An order-sensitive aggregate of one group: each row's value, further
/// arguments and ORDER BY keys, evaluated in that order as Materialize's
/// record of them is, and distinct over all of them under DISTINCT.
fn reduce_ordered(rows: &[(&Row, Diff)], agg: &Aggregate) -> Result<Datum, DataflowError> {
    let exprs: Vec<_> = std::iter::once(&agg.expr)
        .chain(agg.ordered.exprs())
        .collect();
    let mut values = rows
        .iter()
        .map(|(row, diff)| {
            let evaluated = exprs.iter().map(|e| e.eval(row));
            Ok((evaluated.collect::<Result<Row, _>>()?, *diff))
        })
        .collect::<Result<Vec<_>, DataflowError>>()?;
    if agg.distinct {
        values.sort();
        values.dedup_by(|a, b| a.0 == b.0);
        values.iter_mut().for_each(|(_, m)| *m = 1);
    }
    let payload = 1 + agg.ordered.args.len();
    let order: Vec<OrderColumn> = (agg.ordered.order_by.iter().enumerate())
        .map(|(i, k)| OrderColumn {
            column: payload + i,
            descending: k.descending,
            nulls_last: k.nulls_last,
        })
        .collect();
    ordered_aggregate(agg.func, &order, payload, values)
}

/// One top-k group's output: its rows in order (ties as `ties` orders
/// them), the first `offset` skipped, then at most `limit`, each row with
/// as many copies as it has within the cut.
pub fn top_k(
    rows: &[(&Row, Diff)],
    (order_by, ties): (&[OrderColumn], Ties),
    limit: Option<usize>,
    offset: usize,
    out: &mut Vec<(Result<Row, DataflowError>, Diff)>,
) {
    if let Some(e) = non_positive(rows) {
        out.push((Err(e), 1));
        return;
    }
    let mut sorted = rows.to_vec();
    sorted.sort_by(|a, b| compare_rows(order_by, a.0, b.0).then_with(|| ties.compare(a.0, b.0)));
    let mut skip = Diff::try_from(offset).unwrap_or(Diff::MAX);
    let mut left = limit.map(|l| Diff::try_from(l).unwrap_or(Diff::MAX));
    for (row, count) in sorted {
        let skipped = skip.min(count);
        skip -= skipped;
        let mut count = count - skipped;
        if let Some(left) = left.as_mut() {
            count = count.min(*left);
            *left -= count;
        }
        if count > 0 {
            out.push((Ok(row.clone()), count));
        }
        if left == Some(0) {
            break;
        }
    }
}

/// The error a reduce reports when its input has a non-positive count,
/// which only a bug upstream can cause.
fn non_positive(rows: &[(&Row, Diff)]) -> Option<DataflowError> {
    rows.iter().find(|(_, diff)| *diff <= 0).map(|(row, diff)| {
        DataflowError(format!(
            "Non-positive multiplicity in reduce: {diff} for row {row:?}"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::Datum;
    use Datum::{Int32, Null};

    #[test]
    fn top_k_cuts_in_sql_order_counting_copies() {
        let rows: Vec<Row> = vec![vec![Null], vec![Int32(1)], vec![Int32(2)], vec![Int32(3)]];
        let input: Vec<(&Row, Diff)> = rows.iter().zip([1, 2, 1, 1]).collect();
        let cut = |order: OrderColumn, limit, offset| {
            let mut out = vec![];
            top_k(&input, (&[order], Ties::Datums), limit, offset, &mut out);
            out.into_iter()
                .map(|(r, m)| (r.expect("no error"), m))
                .collect::<Vec<_>>()
        };
        let asc = OrderColumn::new(0, false);
        assert_eq!(
            cut(asc, Some(2), 0),
            vec![(vec![Int32(1)], 2)],
            "two copies of 1 fill the limit"
        );
        assert_eq!(
            cut(asc, Some(2), 1),
            vec![(vec![Int32(1)], 1), (vec![Int32(2)], 1)]
        );
        assert_eq!(
            cut(OrderColumn::new(0, true), Some(2), 0),
            vec![(vec![Null], 1), (vec![Int32(3)], 1)]
        );
        assert_eq!(cut(asc, None, 4), vec![(vec![Null], 1)]);
        let negative: Vec<(&Row, Diff)> = vec![(&rows[0], -1)];
        let mut out = vec![];
        top_k(&negative, (&[asc], Ties::Datums), None, 0, &mut out);
        assert!(matches!(out.as_slice(), [(Err(_), 1)]));
    }

    #[test]
    fn top_k_breaks_ties_as_materialize_does() {
        // Tied under the ORDER BY (column 0); they differ in column 1.
        let rows: Vec<Row> = vec![
            vec![Int32(1), Null],
            vec![Int32(1), Int32(5)],
            vec![Int32(1), Int32(-2)],
        ];
        let input: Vec<(&Row, Diff)> = rows.iter().map(|r| (r, 1)).collect();
        let first = |ties| {
            let mut out = vec![];
            top_k(
                &input,
                (&[OrderColumn::new(0, false)], ties),
                Some(1),
                0,
                &mut out,
            );
            out.into_iter()
                .map(|(r, _)| r.expect("no error"))
                .collect::<Vec<_>>()
        };
        // Rendered: its `Datum` order, NULL last.
        assert_eq!(first(Ties::Datums), vec![vec![Int32(1), Int32(-2)]]);
        // Folded: the encodings' order, where NULL's tag is 0.
        assert_eq!(first(Ties::Encoded), vec![vec![Int32(1), Null]]);
        let without_null: Vec<(&Row, Diff)> = input[1..].to_vec();
        let mut out = vec![];
        let order = [OrderColumn::new(0, false)];
        top_k(&without_null, (&order, Ties::Encoded), Some(1), 0, &mut out);
        // A negative integer's encoding has a later tag than a positive's.
        assert!(matches!(out.as_slice(), [(Ok(r), 1)] if r == &vec![Int32(1), Int32(5)]));
    }
}
