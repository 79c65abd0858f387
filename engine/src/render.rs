//! Rendering a `RelationPlan` into differential collections of rows and errors.
//!
//! Every plan node yields a pair `(oks, errs)`. Errors are data: a scalar that
//! fails to evaluate sends its row's error to `errs` and the row nowhere. A
//! node propagates each input's `errs` exactly once (a join concatenates its
//! inputs' errors once, not once per path), so error multiplicities mean what
//! `mz_compute_error_counts` says they mean.

use std::cell::RefCell;
use std::collections::BTreeMap;

use differential_dataflow::input::Input;
use differential_dataflow::AsCollection;
use differential_dataflow::VecCollection;
use timely::dataflow::operators::core::OkErr;
use timely::dataflow::Scope;

use crate::accumulable;
use crate::delta_join::{self, Lookup};
use crate::eval::{aggregate, empty_aggregate, is_true};
use crate::plan::{compare_rows, Aggregate, OrderColumn, RelationPlan, ScalarExpr};
use crate::repr::{DataflowError, Datum, Diff, GlobalId, Row, Timestamp};

/// A collection of rows in a dataflow scope.
pub type Oks<'s> = VecCollection<'s, Timestamp, Row, Diff>;
/// A collection of errors in a dataflow scope.
pub type Errs<'s> = VecCollection<'s, Timestamp, DataflowError, Diff>;

/// What a plan reads, already brought into the dataflow's scope.
pub struct Inputs<'s> {
    pub collections: BTreeMap<GlobalId, (Oks<'s>, Errs<'s>)>,
    /// The column count of every relation a `Get` may name.
    pub arities: BTreeMap<GlobalId, usize>,
    /// The arrangements a delta join may look imported indexes up in;
    /// empty when joins are planned linear.
    pub lookups: BTreeMap<GlobalId, Lookup>,
    /// Each join's plan as rendered, in the real system's words
    /// (`Differential Join %0 » %1`, `Delta Join [%0 » %1] [%1 » %0]`).
    pub joins: RefCell<Vec<String>>,
}

/// Renders `plan` at `as_of` on worker `worker`.
pub fn render<'s>(
    scope: Scope<'s, Timestamp>,
    plan: &RelationPlan,
    inputs: &Inputs<'s>,
    as_of: Timestamp,
    worker: usize,
) -> (Oks<'s>, Errs<'s>) {
    match plan {
        RelationPlan::Get(id) => {
            let (oks, errs) = inputs
                .collections
                .get(id)
                .unwrap_or_else(|| panic!("dataflow has no import for {id}"));
            (oks.clone(), errs.clone())
        }
        RelationPlan::Constant { rows, .. } => {
            let rows = if worker == 0 {
                rows.clone()
            } else {
                Vec::new()
            };
            (
                constant(scope, rows, as_of),
                constant(scope, Vec::new(), as_of),
            )
        }
        RelationPlan::GenerateSeries { start, stop } => {
            // The bounds enter once, on worker 0; the rows are made in the
            // dataflow and spread over the workers by whatever arranges them.
            let bounds = if worker == 0 {
                vec![(start.clone(), stop.clone())]
            } else {
                Vec::new()
            };
            let rows =
                constant(scope, bounds, as_of).flat_map(|(start, stop)| series(&start, &stop));
            (rows, constant(scope, Vec::new(), as_of))
        }
        RelationPlan::Map { input, exprs } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            let exprs = exprs.clone();
            split(
                oks.map(move |mut row| {
                    for expr in &exprs {
                        let datum = expr.eval(&row)?;
                        row.push(datum);
                    }
                    Ok(row)
                }),
                errs,
            )
        }
        RelationPlan::Filter { input, predicates } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            let predicates = predicates.clone();
            let results = oks.flat_map(move |row| match passes(&predicates, &row) {
                Ok(true) => Some(Ok(row)),
                Ok(false) => None,
                Err(e) => Some(Err(e)),
            });
            split(results, errs)
        }
        RelationPlan::Project { input, columns } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            let columns = columns.clone();
            (
                oks.map(move |row| columns.iter().map(|c| row[*c].clone()).collect()),
                errs,
            )
        }
        RelationPlan::Join {
            inputs: plans,
            equivalences,
        } => render_join(scope, plans, equivalences, inputs, as_of, worker),
        RelationPlan::Reduce {
            input,
            group_key,
            aggregates,
            global,
        } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            render_reduce(
                scope, oks, errs, group_key, aggregates, *global, as_of, worker,
            )
        }
        RelationPlan::Distinct { input } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            (oks.distinct_core::<Diff>(), errs)
        }
        RelationPlan::LeftJoin {
            left,
            right,
            left_key,
            right_key,
            right_arity,
        } => {
            let (left, left_errs) = render(scope, left, inputs, as_of, worker);
            let (right, right_errs) = render(scope, right, inputs, as_of, worker);
            let oks = render_left_join(left, right, left_key, right_key, *right_arity);
            // Each input's errors, once.
            (oks, left_errs.concat(right_errs))
        }
        RelationPlan::TopK {
            input,
            order_by,
            limit,
            offset,
        } => {
            let (oks, errs) = render(scope, input, inputs, as_of, worker);
            let (order_by, limit, offset) = (order_by.clone(), *limit, *offset);
            let results = oks
                .map(|row| ((), row))
                .reduce(
                    move |_key: &(),
                          rows: &[(&Row, Diff)],
                          out: &mut Vec<(Result<Row, DataflowError>, Diff)>| {
                        top_k(rows, &order_by, limit, offset, out)
                    },
                )
                .map(|((), result)| result);
            split(results, errs)
        }
    }
}

/// The rows of `generate_series(start, stop)`, of the bounds' type.
fn series(start: &Datum, stop: &Datum) -> Vec<Row> {
    match (start, stop) {
        (Datum::Int32(a), Datum::Int32(b)) => (*a..=*b).map(|i| vec![Datum::Int32(i)]).collect(),
        (Datum::Int64(a), Datum::Int64(b)) => (*a..=*b).map(|i| vec![Datum::Int64(i)]).collect(),
        _ => Vec::new(),
    }
}

/// The pairs of an equi-join, plus each left row without a partner padded
/// with `right_arity` NULLs: the matched keys are arranged and the left
/// rows whose key is among them taken away (an antijoin).
fn render_left_join<'s>(
    left: Oks<'s>,
    right: Oks<'s>,
    left_key: &[usize],
    right_key: &[usize],
    right_arity: usize,
) -> Oks<'s> {
    let keyed_left = keyed(left.clone(), left_key.to_vec());
    let keyed_right = keyed(right, right_key.to_vec());
    let matched = keyed_left
        .clone()
        .join(keyed_right.clone())
        .map(|(_key, (mut l, r))| {
            l.extend(r);
            l
        });
    let right_keys = keyed_right.map(|(k, _)| k).distinct_core::<Diff>();
    let unmatched = keyed_left.antijoin(right_keys).map(|(_key, row)| row);
    // A NULL in the key never matches: such a left row is always padded.
    let key = left_key.to_vec();
    let null_keyed = left.filter(move |row| key.iter().any(|c| row[*c] == Datum::Null));
    let padded = unmatched.concat(null_keyed).map(move |mut row| {
        row.extend(std::iter::repeat_n(Datum::Null, right_arity));
        row
    });
    matched.concat(padded)
}

/// One top-k group's output: its rows in order (ties by the rows' own
/// order), the first `offset` skipped, then at most `limit`, each row with
/// as many copies as it has within the cut.
fn top_k(
    rows: &[(&Row, Diff)],
    order_by: &[OrderColumn],
    limit: Option<usize>,
    offset: usize,
    out: &mut Vec<(Result<Row, DataflowError>, Diff)>,
) {
    if let Some(e) = non_positive(rows) {
        out.push((Err(e), 1));
        return;
    }
    let mut sorted = rows.to_vec();
    // Stable: rows come sorted by themselves, which breaks ties.
    sorted.sort_by(|a, b| compare_rows(order_by, a.0, b.0));
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

/// Whether every predicate holds for `row`. A predicate that is false or
/// NULL drops the row even when another one fails to evaluate, as the
/// conjunction they came from would; an error is returned only otherwise.
pub fn passes(predicates: &[ScalarExpr], row: &[Datum]) -> Result<bool, DataflowError> {
    let mut error = None;
    for predicate in predicates {
        match predicate.eval(row) {
            Ok(datum) if !is_true(&datum) => return Ok(false),
            Ok(_) => {}
            Err(e) => error = error.or(Some(e)),
        }
    }
    error.map_or(Ok(true), Err)
}

/// Literal updates at `as_of`, introduced by this worker.
pub fn constant<'s, D: differential_dataflow::ExchangeData>(
    scope: Scope<'s, Timestamp>,
    data: Vec<D>,
    as_of: Timestamp,
) -> VecCollection<'s, Timestamp, D, Diff> {
    let (_input, collection) =
        scope.new_collection_from_raw(data.into_iter().map(move |d| (d, as_of, 1)));
    collection
}

/// Splits fallible results into rows and errors, adding `errs` to the errors.
fn split<'s>(
    results: VecCollection<'s, Timestamp, Result<Row, DataflowError>, Diff>,
    errs: Errs<'s>,
) -> (Oks<'s>, Errs<'s>) {
    let (oks, new_errs) = ok_err(results);
    (oks, errs.concat(new_errs))
}

/// Fallible results as rows and errors, each moved to its side by one
/// operator: two readers of one collection would each get a copy of every
/// row.
fn ok_err<'s>(
    results: VecCollection<'s, Timestamp, Result<Row, DataflowError>, Diff>,
) -> (Oks<'s>, Errs<'s>) {
    let (oks, errs) = results.inner.ok_err(|(result, time, diff)| match result {
        Ok(row) => Ok((row, time, diff)),
        Err(e) => Err((e, time, diff)),
    });
    (oks.as_collection(), errs.as_collection())
}

fn render_join<'s>(
    scope: Scope<'s, Timestamp>,
    plans: &[RelationPlan],
    equivalences: &[Vec<usize>],
    inputs: &Inputs<'s>,
    as_of: Timestamp,
    worker: usize,
) -> (Oks<'s>, Errs<'s>) {
    if let Some(delta) = delta_join::render(plans, equivalences, inputs, as_of) {
        return delta;
    }
    let order: Vec<String> = (0..plans.len()).map(|i| format!("%{i}")).collect();
    inputs
        .joins
        .borrow_mut()
        .push(format!("Differential Join {}", order.join(" » ")));
    let rendered: Vec<_> = plans
        .iter()
        .map(|p| (render(scope, p, inputs, as_of, worker), arity(p, inputs)))
        .collect();
    let mut errs: Option<Errs<'s>> = None;
    let mut joined: Option<(Oks<'s>, usize)> = None;
    for ((oks, input_errs), input_arity) in rendered {
        // Each input's errors, once.
        errs = Some(match errs {
            None => input_errs,
            Some(e) => e.concat(input_errs),
        });
        joined = Some(match joined {
            None => (oks, input_arity),
            Some((prefix, prefix_arity)) => {
                // Columns of each class split across the prefix and this input form the key.
                let mut left_key = Vec::new();
                let mut right_key = Vec::new();
                for class in equivalences {
                    let left = class.iter().find(|c| **c < prefix_arity);
                    let right = class
                        .iter()
                        .find(|c| **c >= prefix_arity && **c < prefix_arity + input_arity);
                    if let (Some(l), Some(r)) = (left, right) {
                        left_key.push(*l);
                        right_key.push(*r - prefix_arity);
                    }
                }
                let left = keyed(prefix, left_key);
                let right = keyed(oks, right_key);
                let rows = left.join(right).map(|(_key, (mut l, r))| {
                    l.extend(r);
                    l
                });
                (rows, prefix_arity + input_arity)
            }
        });
    }
    let (rows, _) = joined.expect("a join has inputs");
    let rows = enforce_equivalences(rows, equivalences.to_vec());
    (rows, errs.expect("a join has inputs"))
}

/// Keeps the joined rows whose every equivalence class holds one non-NULL
/// value: classes with several columns on one side are enforced only here.
pub fn enforce_equivalences<'s>(rows: Oks<'s>, equivalences: Vec<Vec<usize>>) -> Oks<'s> {
    rows.filter(move |row| {
        equivalences.iter().all(|class| {
            let first = &row[class[0]];
            *first != Datum::Null && class.iter().all(|c| row[*c] == *first)
        })
    })
}

/// Keys rows by the given columns, dropping rows with a NULL key (NULL never joins).
pub fn keyed<'s>(rows: Oks<'s>, key: Vec<usize>) -> VecCollection<'s, Timestamp, (Row, Row), Diff> {
    rows.flat_map(move |row| {
        let k: Row = key.iter().map(|c| row[*c].clone()).collect();
        if k.contains(&Datum::Null) {
            None
        } else {
            Some((k, row))
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn render_reduce<'s>(
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

/// The number of columns `plan` produces.
pub fn arity(plan: &RelationPlan, inputs: &Inputs<'_>) -> usize {
    match plan {
        RelationPlan::Get(id) => *inputs
            .arities
            .get(id)
            .unwrap_or_else(|| panic!("arity of {id} unknown")),
        RelationPlan::Constant { arity, .. } => *arity,
        RelationPlan::GenerateSeries { .. } => 1,
        RelationPlan::Map { input, exprs } => arity(input, inputs) + exprs.len(),
        RelationPlan::Filter { input, .. }
        | RelationPlan::Distinct { input }
        | RelationPlan::TopK { input, .. } => arity(input, inputs),
        RelationPlan::LeftJoin {
            left, right_arity, ..
        } => arity(left, inputs) + right_arity,
        RelationPlan::Project { columns, .. } => columns.len(),
        RelationPlan::Join { inputs: plans, .. } => plans.iter().map(|p| arity(p, inputs)).sum(),
        RelationPlan::Reduce {
            group_key,
            aggregates,
            ..
        } => group_key.len() + aggregates.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Datum::{Int32, Int64, Null};

    #[test]
    fn top_k_cuts_in_sql_order_counting_copies() {
        let rows: Vec<Row> = vec![vec![Null], vec![Int32(1)], vec![Int32(2)], vec![Int32(3)]];
        let input: Vec<(&Row, Diff)> = rows.iter().zip([1, 2, 1, 1]).collect();
        let cut = |order: OrderColumn, limit, offset| {
            let mut out = vec![];
            top_k(&input, &[order], limit, offset, &mut out);
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
        top_k(&negative, &[asc], None, 0, &mut out);
        assert!(matches!(out.as_slice(), [(Err(_), 1)]));
    }

    #[test]
    fn series_rows_keep_the_bounds_type() {
        assert_eq!(
            series(&Int32(1), &Int32(3)),
            vec![vec![Int32(1)], vec![Int32(2)], vec![Int32(3)]]
        );
        assert_eq!(series(&Int64(5), &Int64(5)), vec![vec![Int64(5)]]);
        assert!(series(&Int32(2), &Int32(1)).is_empty());
        assert!(series(&Null, &Int32(1)).is_empty());
    }
}
