//! Accumulable aggregates (`count`, `sum`, `avg`), reduced the way the real
//! system renders `ReducePlan::Accumulable`: each row becomes its group's key
//! with a difference that carries its partial sums, so differential
//! consolidates a group to one update per time before the reduce runs,
//! instead of handing the reduce every row of the group. The rows of each
//! incoming batch are summed per group and time on the spot, so what is
//! exchanged and arranged is a handful of sums, not one per row.
//!
//! It applies only where the result cannot differ from reducing the rows:
//! no `DISTINCT`, and arguments that are columns or literals, which cannot
//! fail to evaluate (a failing argument makes the whole group an error, and
//! which error depends on the rows). What it cannot see is one row's
//! multiplicity, only the group's: a negative row in a group that is
//! positive overall goes unreported here, as in the real system.

use std::collections::BTreeMap;

use differential_dataflow::AsCollection;
use differential_dataflow::VecCollection;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::generic::operator::Operator;

use crate::eval::{
    average, int8_out_of_range, sum_out_of_range, FloatSum, NumericSum, NUMERIC_SUM_LIMBS,
};
use crate::plan::{Aggregate, AggregateFunc, ScalarExpr};
use crate::repr::{DataflowError, Datum, Diff, Numeric, Row, Timestamp};

/// A row's contribution: its multiplicity, then per aggregate `SLOTS`
/// sums: the multiplicity of a non-NULL argument and the argument times
/// it; for a `sum` of floats (`eval::FloatSum`), the fixed-point sum in
/// two halves (so that differential's additions never overflow, where the
/// real system's wrap), and the counts of infinities and NaNs; for a `sum`
/// of numerics (`eval::NumericSum`), its exact sum's limbs in the slots
/// after those two, and the count of NaNs in the last.
type Sums = Vec<i128>;

/// The sums kept per aggregate.
const SLOTS: usize = 7;
const _: () = assert!(2 + NUMERIC_SUM_LIMBS < SLOTS, "a numeric sum's slots");

/// Whether every aggregate can be reduced from sums.
pub fn applies(aggregates: &[Aggregate]) -> bool {
    aggregates.iter().all(|a| {
        !a.distinct
            && matches!(a.expr, ScalarExpr::Column(_) | ScalarExpr::Literal(_))
            && matches!(
                a.func,
                AggregateFunc::CountAll
                    | AggregateFunc::Count
                    | AggregateFunc::Sum
                    | AggregateFunc::SumInt64
                    | AggregateFunc::Avg
                    | AggregateFunc::SumFloat(_)
                    | AggregateFunc::SumNumeric
            )
    })
}

/// Each group's row (its key, then every aggregate) or its error. Only for
/// aggregates that [`applies`] accepts.
pub fn reduce<'s>(
    oks: VecCollection<'s, Timestamp, Row, Diff>,
    key: Vec<usize>,
    aggregates: Vec<Aggregate>,
) -> VecCollection<'s, Timestamp, Result<Row, DataflowError>, Diff> {
    debug_assert!(applies(&aggregates));
    let arguments = aggregates.clone();
    let width = 1 + SLOTS * aggregates.len();
    oks.inner
        .unary::<CapacityContainerBuilder<Vec<_>>, _, _, _>(
            Pipeline,
            "AccumulableSums",
            move |_capability, _info| {
                let mut groups: BTreeMap<(Row, Timestamp), Sums> = BTreeMap::new();
                move |input, output| {
                    input.for_each(|capability, rows| {
                        for (row, time, diff) in rows.drain(..) {
                            let group: Row = key.iter().map(|c| row[*c].clone()).collect();
                            let sums = groups
                                .entry((group, time))
                                .or_insert_with(|| vec![0; width]);
                            add(sums, &row, diff, &arguments);
                        }
                        let mut session = output.session(&capability);
                        for ((group, time), sums) in std::mem::take(&mut groups) {
                            if sums.iter().any(|s| *s != 0) {
                                session.give(((group, ()), time, sums));
                            }
                        }
                    });
                }
            },
        )
        .as_collection()
        .reduce(
            move |key: &Row,
                  input: &[(&(), Sums)],
                  out: &mut Vec<(Result<Row, DataflowError>, Diff)>| {
                out.push((finish(key, &input[0].1, &aggregates), 1));
            },
        )
        .map(|(_key, result)| result)
}

/// Adds `row`'s contribution, `diff` times, to `sums`.
fn add(sums: &mut [i128], row: &[Datum], diff: Diff, aggregates: &[Aggregate]) {
    let diff = i128::from(diff);
    sums[0] += diff;
    for (aggregate, slots) in aggregates.iter().zip(sums[1..].chunks_exact_mut(SLOTS)) {
        let argument = match &aggregate.expr {
            ScalarExpr::Column(c) => &row[*c],
            ScalarExpr::Literal(d) => d,
            other => unreachable!("accumulable argument {other:?}"),
        };
        let (non_null, sum) = match argument {
            Datum::Null => (0, 0),
            Datum::Int16(i) => (diff, i128::from(*i) * diff),
            Datum::Int32(i) => (diff, i128::from(*i) * diff),
            Datum::Int64(i) => (diff, i128::from(*i) * diff),
            Datum::Float32(_) | Datum::Float64(_) => {
                let float = FloatSum::of(argument, 1);
                let [high, low] = FloatSum::split(float.accum);
                slots[2] += high * diff;
                slots[3] += low * diff;
                slots[4] += float.pos_infs * diff;
                slots[5] += float.neg_infs * diff;
                slots[6] += float.nans * diff;
                (diff, 0)
            }
            Datum::Numeric(_) => {
                let numeric = NumericSum::of(argument, 1);
                for (slot, limb) in slots[2..].iter_mut().zip(numeric.limbs) {
                    *slot += limb * diff;
                }
                slots[2 + NUMERIC_SUM_LIMBS] += numeric.nans * diff;
                (diff, 0)
            }
            // Only counted: the planner gives sum and avg numbers.
            _ => (diff, 0),
        };
        slots[0] += non_null;
        slots[1] += sum;
    }
}

/// A group's row from its accumulated sums.
fn finish(key: &Row, sums: &[i128], aggregates: &[Aggregate]) -> Result<Row, DataflowError> {
    let rows = sums[0];
    if rows <= 0 {
        // Zero rows with non-zero sums, or fewer than zero: a bug upstream.
        return Err(DataflowError(format!(
            "Non-positive multiplicity in reduce: {rows} rows in group {key:?}"
        )));
    }
    let int8 = |n: i128| {
        i64::try_from(n)
            .map(Datum::Int64)
            .map_err(|_| int8_out_of_range())
    };
    let mut out = key.clone();
    for (aggregate, slots) in aggregates.iter().zip(sums[1..].chunks_exact(SLOTS)) {
        let (non_null, sum) = (slots[0], slots[1]);
        out.push(match aggregate.func {
            AggregateFunc::CountAll => int8(rows)?,
            AggregateFunc::Count => int8(non_null)?,
            _ if non_null == 0 => Datum::Null,
            AggregateFunc::Sum => Datum::Int64(i64::try_from(sum).map_err(|_| sum_out_of_range())?),
            AggregateFunc::SumInt64 => Datum::Numeric(Numeric::from_i128(sum)),
            AggregateFunc::Avg => Datum::Numeric(average(sum, non_null)?),
            AggregateFunc::SumFloat(width) => FloatSum {
                accum: FloatSum::joined(slots[2], slots[3]),
                pos_infs: slots[4],
                neg_infs: slots[5],
                nans: slots[6],
                non_nulls: non_null,
            }
            .finish(width),
            AggregateFunc::SumNumeric => {
                let mut limbs = [0; NUMERIC_SUM_LIMBS];
                limbs.copy_from_slice(&slots[2..2 + NUMERIC_SUM_LIMBS]);
                NumericSum {
                    limbs,
                    nans: slots[2 + NUMERIC_SUM_LIMBS],
                    non_nulls: non_null,
                }
                .finish()?
            }
            AggregateFunc::Min
            | AggregateFunc::Max
            | AggregateFunc::ArrayAgg
            | AggregateFunc::StringAgg
            | AggregateFunc::JsonbAgg
            | AggregateFunc::JsonbObjectAgg => {
                unreachable!("min and max do not accumulate")
            }
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::aggregate;
    use Datum::{Int32, Int64, Null, Text};

    fn agg(func: AggregateFunc, column: usize) -> Aggregate {
        Aggregate::new(func, ScalarExpr::Column(column), false)
    }

    /// Every accumulable function over a group with NULLs, repeated rows and
    /// a text column, against reducing the rows themselves.
    #[test]
    fn sums_finish_as_the_rows_reduce() {
        use AggregateFunc::*;
        let aggregates = vec![
            agg(CountAll, 0),
            agg(Count, 0),
            agg(Count, 2),
            agg(Sum, 0),
            agg(Sum, 1),
            agg(Avg, 1),
            agg(Sum, 3),
            agg(Avg, 3),
        ];
        let group: Vec<(Row, Diff)> = vec![
            (vec![Int32(7), Int64(-3), Text("a".into()), Null], 2),
            (vec![Null, Int64(10), Null, Null], 1),
            (
                vec![Int32(i32::MAX), Int64(i64::MAX / 4), Text("b".into()), Null],
                3,
            ),
        ];
        let (got, expected) = summed_and_reduced(&group, &aggregates);
        assert_eq!(got, expected);
        assert_eq!(
            got.expect("in range")[4],
            Int64(-3 * 2 + 10 + 3 * (i64::MAX / 4))
        );
    }

    /// A group's aggregates finished from its accumulated sums, beside the
    /// same aggregates reduced from its rows.
    fn summed_and_reduced(
        group: &[(Row, Diff)],
        aggregates: &[Aggregate],
    ) -> (Result<Row, DataflowError>, Result<Row, DataflowError>) {
        let mut total: Sums = vec![0; 1 + SLOTS * aggregates.len()];
        for (row, diff) in group {
            add(&mut total, row, *diff, aggregates);
        }
        let got = finish(&vec![], &total, aggregates);
        let expected = aggregates
            .iter()
            .map(|a| {
                let values: Vec<(Datum, i64)> = group
                    .iter()
                    .map(|(row, diff)| (a.expr.eval(row).expect("a column"), *diff))
                    .collect();
                aggregate(a.func, &values)
            })
            .collect();
        (got, expected)
    }

    /// Sums of floats, with infinities, a NaN, NULLs, multiplicities and
    /// values beyond an `i128` in fixed point (whose sum wraps), against
    /// reducing the rows themselves.
    #[test]
    fn float_sums_finish_as_the_rows_reduce() {
        use crate::plan::FloatWidth::{F32 as W32, F64 as W64};
        use crate::repr::{F32, F64};
        let d = |f: f64| Datum::Float64(F64::new(f));
        let r = |f: f32| Datum::Float32(F32::new(f));
        let aggregates = vec![
            agg(AggregateFunc::SumFloat(W64), 0),
            agg(AggregateFunc::SumFloat(W32), 1),
            agg(AggregateFunc::SumFloat(W64), 2),
            agg(AggregateFunc::Count, 0),
        ];
        let groups: Vec<Vec<(Row, Diff)>> = vec![
            vec![
                (vec![d(0.1), r(0.1), d(1e300)], 3),
                (vec![d(-1e16), r(-2.5), d(1e300)], 1),
                (vec![Null, Null, Null], 2),
                (vec![d(1e16), r(1e30), d(-1e301)], 2),
            ],
            vec![
                (vec![d(f64::INFINITY), r(f32::NAN), d(1.0)], 1),
                (vec![d(f64::NEG_INFINITY), r(f32::INFINITY), d(2.0)], 1),
            ],
            vec![(vec![Null, Null, Null], 1)],
        ];
        for group in groups {
            let (got, expected) = summed_and_reduced(&group, &aggregates);
            assert_eq!(got, expected, "{group:?}");
        }
    }

    /// Sums of numerics, with NaNs, NULLs, multiplicities, values of 39
    /// places beside values near 10^38, a sum that overflows and one that
    /// a retraction brings back to zero, against reducing the rows.
    #[test]
    fn numeric_sums_finish_as_the_rows_reduce() {
        let n = |s: &str| Datum::Numeric(crate::eval::parse_numeric(s).expect("a numeric"));
        let tiny = n(&format!("-0.{}7", "0".repeat(38)));
        let big = n(&format!("{}.5", "9".repeat(37)));
        let aggregates = vec![
            agg(AggregateFunc::SumNumeric, 0),
            agg(AggregateFunc::SumNumeric, 1),
            agg(AggregateFunc::Count, 0),
        ];
        let groups: Vec<Vec<(Row, Diff)>> = vec![
            vec![
                (vec![n("1.25"), big.clone()], 3),
                (vec![tiny.clone(), tiny.clone()], 2),
                (vec![Null, Null], 2),
                (vec![n("-3.75"), n("-12345.678")], 1),
            ],
            vec![
                (vec![n("NaN"), big.clone()], 1),
                (vec![n("2"), big.clone()], 11),
            ],
            vec![(vec![n("1.5"), n("0")], 1), (vec![n("-1.5"), n("0")], 1)],
            vec![(vec![Null, Null], 1)],
        ];
        for group in groups {
            let (got, expected) = summed_and_reduced(&group, &aggregates);
            assert_eq!(got, expected, "{group:?}");
        }
    }

    /// The operator itself: groups by key over times, retractions that
    /// empty a group, and a group whose sums come back to zero leaving no row.
    #[test]
    fn the_reduce_gives_each_groups_row_at_each_time() {
        use std::cell::RefCell;
        use std::rc::Rc;

        use differential_dataflow::input::Input;

        use AggregateFunc::*;
        type Output = (Result<Row, DataflowError>, Timestamp, Diff);
        let mut got = timely::execute_directly(|worker| {
            let seen: Rc<RefCell<Vec<Output>>> = Rc::default();
            let sink = Rc::clone(&seen);
            let (mut input, probe) = worker.dataflow::<Timestamp, _, _>(|scope| {
                let (input, rows) = scope.new_collection::<Row, Diff>();
                let aggregates = vec![agg(CountAll, 0), agg(Sum, 1), agg(Avg, 1)];
                let probe = reduce(rows, vec![0], aggregates)
                    .inspect(move |update| sink.borrow_mut().push(update.clone()))
                    .probe()
                    .0;
                (input, probe)
            });
            let row = |k: i32, v: i64| vec![Int32(k), Int64(v)];
            input.update(row(1, 10), 1);
            input.update(row(1, 20), 2);
            input.update(row(2, 5), 1);
            input.advance_to(1);
            input.update(row(2, 5), -1);
            input.update(row(1, 20), -1);
            input.update(row(3, 0), 1);
            input.advance_to(2);
            input.flush();
            worker.step_while(|| probe.less_than(input.time()));
            let got = seen.borrow().clone();
            got
        });
        differential_dataflow::consolidation::consolidate_updates(&mut got);
        let avg = |sum, n| Datum::Numeric(crate::repr::Numeric::quotient(sum, n));
        let out = |k: i32, n: i64, sum: i64, average: Datum| {
            Ok(vec![Int32(k), Int64(n), Int64(sum), average])
        };
        let expected: Vec<Output> = vec![
            (out(1, 3, 50, avg(50, 3)), 0, 1),
            (out(1, 3, 50, avg(50, 3)), 1, -1),
            (out(1, 2, 30, avg(30, 2)), 1, 1),
            (out(2, 1, 5, avg(5, 1)), 0, 1),
            (out(2, 1, 5, avg(5, 1)), 1, -1),
            (out(3, 1, 0, avg(0, 1)), 1, 1),
        ];
        let mut expected = expected;
        differential_dataflow::consolidation::consolidate_updates(&mut expected);
        assert_eq!(got, expected);
    }

    #[test]
    fn an_out_of_range_sum_and_a_negative_group_are_errors() {
        let aggregates = vec![agg(AggregateFunc::Sum, 0)];
        let mut total = vec![0; 1 + SLOTS];
        add(&mut total, &[Int64(i64::MAX)], 2, &aggregates);
        let got = finish(&vec![], &total, &aggregates);
        assert_eq!(got, Err(sum_out_of_range()));
        total[0] = -1;
        let got = finish(&vec![Int32(1)], &total, &aggregates);
        assert!(matches!(got, Err(DataflowError(e)) if e.starts_with("Non-positive")));
    }

    #[test]
    fn only_plain_column_and_literal_arguments_apply() {
        let plain = agg(AggregateFunc::Sum, 0);
        assert!(applies(std::slice::from_ref(&plain)));
        let distinct = Aggregate {
            distinct: true,
            ..plain.clone()
        };
        assert!(!applies(&[plain.clone(), distinct]));
        assert!(!applies(&[agg(AggregateFunc::Min, 0)]));
        let computed = Aggregate {
            expr: ScalarExpr::Cast(
                crate::repr::ScalarType::Int64,
                Box::new(ScalarExpr::Column(0)),
            ),
            ..plain
        };
        assert!(!applies(&[computed]));
    }
}
