//! Subqueries decorrelated the way the real system lowers them
//! (`sql/src/plan/lowering.rs`: `branch`, `apply_scalar_subquery`,
//! `apply_existential_subquery`, `lookup`): a clause's relation is bound
//! once (`Let`); the distinct values of the outer columns a subquery
//! names are its keys; its rows are planned over the keys (`Nested`);
//! they are reduced to one value per key; and the values are joined back
//! onto the clause's rows on those columns, NULL matching NULL. Nothing is
//! evaluated row by row: every step is a join, reduce or distinct over
//! arrangements, and under sharing its reads are imports like any other.
//!
//! Also: a WHERE's or HAVING's conjuncts split by whether they hold a
//! subquery (those that do filter after the others, one at a time, as the
//! real system's `split_subquery_predicates` orders them), the prefix
//! the real system puts on an error in planning a SELECT's WHERE, and a
//! correlated aggregate's row for every outer row.

use sqlparser::ast::{BinaryOperator, Expr, Query};

use super::super::expr::{
    contains_subquery, Grouping, Kind, Nested, Outer, Prefix, Reads, Subquery,
};
use super::{filter_plan, placed, reduce, Correlation, Planner};
use crate::eval::empty_aggregate;
use crate::plan::{
    Aggregate, AggregateFunc, BinaryOp, JoinKind, RelationPlan, ScalarExpr, UnaryOp,
};
use crate::repr::{Column, Datum, UNSUPPORTED};

/// The real system's text for a scalar subquery's second row.
const MORE_THAN_ONE: &str = "more than one record produced in subquery";

impl Nested for Planner<'_> {
    fn plan(
        &self,
        q: &Query,
        outer: &dyn Outer,
        prefix: &Prefix,
        reads: Reads,
    ) -> Result<(RelationPlan, Vec<Column>), String> {
        let corr = Correlation {
            outer,
            prefix,
            reads,
        };
        let planned = self.query(q, Some(&corr), None, false)?;
        Ok((planned.plan, planned.columns))
    }

    fn fresh(&self) -> usize {
        let id = self.ids.get();
        self.ids.set(id + 1);
        id
    }

    fn quantified_name(&self, width: usize) -> String {
        // The real system desugars each to `(SELECT ... FROM (q) AS
        // subqueryN (right_col0_M, ...))`, numbering the bindings, one
        // per field of its left operand, then the subquery, from 0 in one
        // counter.
        let n = self.quantified.get();
        self.quantified.set(n + width + 1);
        format!("subquery{}", n + width)
    }
}

/// A WHERE's or HAVING's conjunct with subqueries: its predicates over the
/// relation with its subqueries' placeholder columns.
pub struct Deferred {
    predicates: Vec<ScalarExpr>,
    subqueries: Vec<Subquery>,
}

impl Deferred {
    pub fn new(predicates: Vec<ScalarExpr>, subqueries: Vec<Subquery>) -> Deferred {
        Deferred {
            predicates,
            subqueries,
        }
    }
}

impl Planner<'_> {
    /// `input` (of `arity` columns, its first `width` the ones a
    /// subquery's outer references name) filtered by a deferred conjunct.
    pub(super) fn filter_deferred(
        &self,
        input: RelationPlan,
        arity: usize,
        width: usize,
        d: Deferred,
    ) -> RelationPlan {
        let with = self.apply(input, arity, width, d.subqueries);
        let predicates = d.predicates.into_iter().map(|p| placed(p, arity));
        RelationPlan::Project {
            input: Box::new(filter_plan(with, predicates.collect())),
            columns: (0..arity).collect(),
        }
    }

    /// `input` (of `arity` columns, its first `width` the ones the
    /// subqueries' outer references name) with each subquery's value
    /// appended as a column, in order.
    pub(super) fn apply(
        &self,
        input: RelationPlan,
        arity: usize,
        width: usize,
        subqueries: Vec<Subquery>,
    ) -> RelationPlan {
        let rows = self.fresh();
        let outer = RelationPlan::Local { id: rows, arity };
        let mut body = outer.clone();
        let mut columns = arity;
        let mut values = vec![];
        for s in subqueries {
            debug_assert_eq!(s.width, width, "a subquery planned over another row");
            let keys = keys(outer.clone(), &s.used, width);
            let default = default_of(&s.kind);
            let result = RelationPlan::Let {
                id: s.keys,
                value: Box::new(keys),
                body: Box::new(per_key(s.kind, s.branch, width, self.fresh())),
            };
            body = RelationPlan::EquiJoin {
                left: Box::new(body),
                right: Box::new(result),
                left_key: s.used.clone(),
                right_key: s.used,
                arities: (columns, width + 2),
                kind: JoinKind::Left,
                nulls_match: !crate::mutation::subquery_null_keys(),
            };
            let (value, present) = (columns + width, columns + width + 1);
            values.push(match default {
                // An outer row with no rows of it: the value over no rows.
                Some(d) => ScalarExpr::Case {
                    whens: vec![(
                        ScalarExpr::Unary(UnaryOp::IsNull, Box::new(ScalarExpr::Column(present))),
                        ScalarExpr::Literal(d),
                    )],
                    els: Box::new(ScalarExpr::Column(value)),
                },
                None => ScalarExpr::Column(value),
            });
            columns += width + 2;
        }
        let count = values.len();
        let body = RelationPlan::Project {
            input: Box::new(RelationPlan::Map {
                input: Box::new(body),
                exprs: values,
            }),
            columns: (0..arity).chain(columns..columns + count).collect(),
        };
        RelationPlan::Let {
            id: rows,
            value: Box::new(input),
            body: Box::new(body),
        }
    }

    /// The reduce of a grouping; a nested query's global aggregate has a
    /// row for every outer row (`prefix`), over no rows too, as a global
    /// aggregate has one: the real system's `lookup` of the keys.
    pub(super) fn reduce(
        &self,
        input: RelationPlan,
        arity: usize,
        grouping: Grouping,
        global: bool,
        prefix: Option<&Prefix>,
    ) -> (RelationPlan, usize) {
        let Some(prefix) = prefix.filter(|_| global) else {
            return reduce(input, arity, grouping, global);
        };
        let funcs: Vec<AggregateFunc> = grouping.aggregates.iter().map(|a| a.func).collect();
        let (reduced, arity) = reduce(input, arity, grouping, false);
        let width = prefix.columns.len();
        let joined = RelationPlan::EquiJoin {
            left: Box::new(RelationPlan::Local {
                id: prefix.id,
                arity: width,
            }),
            right: Box::new(reduced),
            left_key: (0..width).collect(),
            right_key: (0..width).collect(),
            arities: (width, arity),
            kind: JoinKind::Left,
            nulls_match: true,
        };
        // The aggregates' value over no rows where it is not NULL (counts).
        let exprs = funcs.iter().enumerate().map(|(j, f)| {
            let column = ScalarExpr::Column(2 * width + j);
            match empty_aggregate(*f) {
                Datum::Null => column,
                d => ScalarExpr::Coalesce(vec![column, ScalarExpr::Literal(d)]),
            }
        });
        let mapped = 2 * width + funcs.len();
        let plan = RelationPlan::Project {
            input: Box::new(RelationPlan::Map {
                input: Box::new(joined),
                exprs: exprs.collect(),
            }),
            columns: (0..width).chain(mapped..mapped + funcs.len()).collect(),
        };
        (plan, arity)
    }
}

/// The distinct values of `outer`'s `used` columns, laid out as the outer
/// row of `width` columns with NULL in the others: the rows a subquery is
/// computed for (one row of NULLs if it names no outer column).
pub(super) fn keys(outer: RelationPlan, used: &[usize], width: usize) -> RelationPlan {
    if used.is_empty() {
        return RelationPlan::Constant {
            rows: vec![vec![Datum::Null; width]],
            arity: width,
        };
    }
    let distinct = RelationPlan::Distinct {
        input: Box::new(RelationPlan::Project {
            input: Box::new(outer),
            columns: used.to_vec(),
        }),
    };
    let null = used.len();
    let columns = (0..width).map(|c| used.iter().position(|u| *u == c).unwrap_or(null));
    RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(distinct),
            exprs: vec![ScalarExpr::Literal(Datum::Null)],
        }),
        columns: columns.collect(),
    }
}

/// A subquery's value for an outer row without rows, where it is not NULL.
fn default_of(kind: &Kind) -> Option<Datum> {
    match kind {
        Kind::Scalar => None,
        Kind::Exists { .. } => Some(Datum::Bool(false)),
        Kind::Quantified { all, .. } => Some(Datum::Bool(*all)),
    }
}

/// A subquery's rows reduced to at most one row per key (the outer row,
/// `width` columns), then its value and a column that is never NULL (so
/// that an outer row without one is told apart once joined): for a scalar
/// subquery each row (and, for a key with more than one, an error), for
/// EXISTS `true`, for ANY and ALL the three-valued combination. `id` is
/// free for a `Let`.
fn per_key(kind: Kind, branch: RelationPlan, width: usize, id: usize) -> RelationPlan {
    let prefix: Vec<usize> = (0..width).collect();
    let present = ScalarExpr::Literal(Datum::Bool(true));
    match kind {
        Kind::Scalar => scalar(branch, width, id),
        Kind::Exists { filter } => {
            let rows = match filter {
                Some(f) => filter_plan(branch, vec![f]),
                None => branch,
            };
            RelationPlan::Map {
                input: Box::new(RelationPlan::Distinct {
                    input: Box::new(RelationPlan::Project {
                        input: Box::new(rows),
                        columns: prefix,
                    }),
                }),
                exprs: vec![present.clone(), present],
            }
        }
        Kind::Quantified { cmp, all } => {
            let aggregate = |func| Aggregate::new(func, cmp.clone(), false);
            // ANY: true decides, the greatest; ALL: false, the least.
            let deciding = match all {
                false => AggregateFunc::Max,
                true => AggregateFunc::Min,
            };
            let aggregates = vec![
                aggregate(AggregateFunc::CountAll),
                aggregate(AggregateFunc::Count),
                aggregate(deciding),
            ];
            let reduced = RelationPlan::Reduce {
                input: Box::new(branch),
                group_key: prefix.clone(),
                aggregates,
                global: false,
            };
            let (rows, valued, decided) = (width, width + 1, width + 2);
            let literal = |b: bool| Box::new(ScalarExpr::Literal(Datum::Bool(b)));
            let column = |c| Box::new(ScalarExpr::Column(c));
            let value = ScalarExpr::Case {
                whens: vec![
                    (
                        ScalarExpr::Binary(BinaryOp::Eq, column(decided), literal(!all)),
                        *literal(!all),
                    ),
                    (
                        ScalarExpr::Binary(BinaryOp::Lt, column(valued), column(rows)),
                        ScalarExpr::Literal(Datum::Null),
                    ),
                ],
                els: literal(all),
            };
            let mapped = width + 3;
            RelationPlan::Project {
                input: Box::new(RelationPlan::Map {
                    input: Box::new(reduced),
                    exprs: vec![value, present],
                }),
                columns: prefix.into_iter().chain([mapped, mapped + 1]).collect(),
            }
        }
    }
}

/// A scalar subquery's rows (key, value) with `true` appended, and for
/// each key with more than one row, an error in their stead beside them:
/// the real system's `MultipleRowsFromSubquery` literal, one per key.
fn scalar(branch: RelationPlan, width: usize, id: usize) -> RelationPlan {
    let present = ScalarExpr::Literal(Datum::Bool(true));
    // The branch is read twice; its errors count once.
    let rows = RelationPlan::Local {
        id,
        arity: width + 1,
    };
    let counts = RelationPlan::Reduce {
        input: Box::new(rows.clone()),
        group_key: (0..width).collect(),
        aggregates: vec![Aggregate::new(
            AggregateFunc::CountAll,
            ScalarExpr::Literal(Datum::Bool(true)),
            false,
        )],
        global: false,
    };
    let more = ScalarExpr::Binary(
        BinaryOp::Gt,
        Box::new(ScalarExpr::Column(width)),
        Box::new(ScalarExpr::Literal(Datum::Int64(1))),
    );
    let errors = RelationPlan::Map {
        input: Box::new(RelationPlan::Project {
            input: Box::new(filter_plan(counts, vec![more])),
            columns: (0..width).collect(),
        }),
        exprs: vec![ScalarExpr::Error(MORE_THAN_ONE.into()), present.clone()],
    };
    let valued = RelationPlan::Map {
        input: Box::new(rows),
        exprs: vec![present],
    };
    RelationPlan::Let {
        id,
        value: Box::new(branch),
        body: Box::new(RelationPlan::Union {
            inputs: vec![valued, errors],
        }),
    }
}

/// A WHERE's or HAVING's conjuncts: those without a subquery, and those
/// with one, each in its order.
pub fn split_conjuncts(e: &Expr) -> (Vec<&Expr>, Vec<&Expr>) {
    let mut all = vec![];
    conjuncts(e, &mut all, 0);
    all.into_iter().partition(|c| !contains_subquery(c))
}

fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>, depth: usize) {
    // Deeper than the recursion limit, planning the rest fails anyway.
    let and = |e: &Expr| {
        matches!(
            e,
            Expr::BinaryOp {
                op: BinaryOperator::And,
                ..
            }
        )
    };
    match e {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } if depth < LIMIT => {
            conjuncts(left, out, depth + 1);
            conjuncts(right, out, depth + 1);
        }
        Expr::Nested(inner) if and(inner) && depth < LIMIT => conjuncts(inner, out, depth + 1),
        e => out.push(e),
    }
}

/// How deep the walks over a WHERE's syntax go: past the planner's own
/// recursion limit, which then refuses the expression.
const LIMIT: usize = 600;

/// Materialize's SELECT prefixes an error in planning its WHERE with
/// `WHERE clause error: `: not the engine's refusals and recursion limit
/// (docs/semantics.md); the clause's own type error never comes here.
pub fn where_error(e: String) -> String {
    let own = [UNSUPPORTED, "exceeded recursion limit"];
    match own.iter().any(|p| e.starts_with(p)) {
        true => e,
        false => format!("WHERE clause error: {e}"),
    }
}
