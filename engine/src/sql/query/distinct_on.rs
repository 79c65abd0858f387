//! `SELECT DISTINCT ON (exprs)`: its expressions, the rule that they match
//! the leading ORDER BY expressions, and its plan, a top-k of one row per
//! group, as Materialize plans it (src/sql/src/plan/query.rs, the
//! `Distinct::On` arm of `plan_select_from`).
//!
//! Which row of a group survives is decided by the ORDER BY after the
//! DISTINCT ON expressions; where it leaves rows tied, Materialize keeps
//! the least by its `Datum` order over the top-k's input columns, which
//! its optimizer prunes and permutes (projection pushdown), so the engine
//! cannot say which of the tied rows' values would show where they differ
//! in two columns or in an expression. A select list whose every column
//! the DISTINCT ON and ORDER BY expressions fix but one input column is
//! answered (that column's least value shows); any other is refused by
//! name (docs/semantics.md, "DISTINCT ON").

use std::cell::RefCell;

use sqlparser::ast::{Distinct, Expr, Select};

use super::super::expr::{contains_aggregate, ExprContext, Typed};
use super::finishing::{output_name_reference, position};
use super::{as_columns, project};
use crate::plan::{OrderColumn, RelationPlan, ScalarExpr};
use crate::repr::unsupported;

/// Materialize's error for DISTINCT ON expressions that are not the
/// leading ORDER BY expressions.
pub const MUST_MATCH: &str =
    "SELECT DISTINCT ON expressions must match initial ORDER BY expressions";

/// A planned `DISTINCT ON`: the group key (over the relation before the
/// select list's projection) and the ORDER BY columns, by output position,
/// that order each group.
#[derive(Debug)]
pub(super) struct DistinctOn {
    key: Vec<Typed>,
    order: Vec<OrderColumn>,
}

/// Whether `s` has `DISTINCT ON` with an aggregate, which makes the query
/// aggregate as one in its select list would.
pub(super) fn aggregates(s: &Select) -> bool {
    matches!(&s.distinct, Some(Distinct::On(exprs)) if exprs.iter().any(contains_aggregate))
}

/// Plans `distinct`'s `DISTINCT ON` expressions, if it has them, after
/// the select list (`outputs`) and the ORDER BY (`order_by`, by output
/// position) were planned in `cx`.
pub(super) fn plan(
    cx: &mut ExprContext,
    distinct: Option<&Distinct>,
    order_by: &[OrderColumn],
    outputs: &[(String, Typed)],
) -> Result<Option<DistinctOn>, String> {
    let Some(Distinct::On(exprs)) = distinct else {
        return Ok(None);
    };
    // A window function or a subquery here is refused by the planner: the
    // engine plans them in the select list alone.
    (cx.name, cx.site) = ("DISTINCT ON clause", "in DISTINCT ON clause");
    let mut key = vec![];
    for e in exprs {
        key.push(expression(cx, e, outputs)?);
    }
    // The leading ORDER BY expressions, as many as there are DISTINCT ON
    // expressions, must each be one of them, in any order.
    let mut unmatched: Vec<&ScalarExpr> = key.iter().map(|t| &t.expr).collect();
    for o in order_by.iter().take(key.len()) {
        let expr = &outputs[o.column].1.expr;
        match unmatched.iter().position(|e| *e == expr) {
            Some(p) => drop(unmatched.remove(p)),
            None => return Err(MUST_MATCH.into()),
        }
    }
    let order: Vec<OrderColumn> = order_by.iter().skip(key.len()).copied().collect();
    if !decided(&key, &order, outputs) {
        return Err(unsupported(
            "SELECT DISTINCT ON whose ORDER BY leaves the kept row's columns undecided",
        ));
    }
    Ok(Some(DistinctOn { key, order }))
}

/// One `DISTINCT ON` expression, as Materialize reads it: an ordinal is
/// the select item it counts to, a plain name an output column's first
/// (and an input column's only if no output has it), anything else an
/// expression over the input columns.
fn expression(
    cx: &mut ExprContext,
    e: &Expr,
    outputs: &[(String, Typed)],
) -> Result<Typed, String> {
    if let Some(p) = position(e, outputs.len(), "DISTINCT ON")? {
        return Ok(outputs[p].1.clone());
    }
    if let Some(name) = output_name_reference(e) {
        let mut named = outputs.iter().filter(|(n, _)| *n == name);
        if let Some((_, first)) = named.next() {
            // Per SQL92 a name is not ambiguous if it names identical
            // select items (Materialize's `plan_order_by_or_distinct_expr`).
            if named.any(|(_, t)| t.expr != first.expr) {
                return Err(format!("column reference \"{name}\" is ambiguous"));
            }
            return Ok(first.clone());
        }
    }
    cx.plan(e)
}

/// Whether every output column is fixed within a group once the group's
/// key and its ORDER BY values are: it is one of them, or an expression
/// of input columns that are.
fn decided(key: &[Typed], order: &[OrderColumn], outputs: &[(String, Typed)]) -> bool {
    let fixed: Vec<&ScalarExpr> = key
        .iter()
        .map(|t| &t.expr)
        .chain(order.iter().map(|o| &outputs[o.column].1.expr))
        .collect();
    let columns: Vec<usize> = fixed
        .iter()
        .filter_map(|e| match e {
            ScalarExpr::Column(c) => Some(*c),
            _ => None,
        })
        .collect();
    let mut undecided = outputs.iter().enumerate().filter(|(i, (_, t))| {
        !(order.iter().any(|o| o.column == *i)
            || fixed.contains(&&t.expr)
            || reads(&t.expr).iter().all(|c| columns.contains(c)))
    });
    // One undecided input column alone is the only column tied rows may
    // differ in, whatever order Materialize's optimizer leaves the top-k's
    // columns in: the least value is kept (NULL last), as the engine's
    // top-k keeps it, its unread columns made NULL by the demand pass.
    // An expression is not: Materialize compares its value, the engine
    // the columns it reads.
    match undecided.next() {
        None => true,
        Some((_, (_, first))) => {
            matches!(first.expr, ScalarExpr::Column(_))
                && undecided.all(|(_, (_, t))| t.expr == first.expr)
        }
    }
}

/// The input columns `e` reads.
fn reads(e: &ScalarExpr) -> Vec<usize> {
    let read = RefCell::new(vec![]);
    let _ = e.clone().remap_columns(&|c| {
        read.borrow_mut().push(c);
        c
    });
    read.into_inner()
}

impl DistinctOn {
    /// `input` (of `arity` columns) projected onto `exprs` (the outer row's
    /// `width` columns, then the select list's), keeping the first row of
    /// each group of equal outer row and key by the ORDER BY: a top-k of
    /// limit 1, as Materialize lowers `DISTINCT ON`.
    pub(super) fn top_k(
        self,
        input: RelationPlan,
        arity: usize,
        exprs: &[Typed],
        width: usize,
    ) -> RelationPlan {
        let all: Vec<Typed> = exprs.iter().cloned().chain(self.key).collect();
        let (input, mapped, columns) = as_columns(input, arity, &all);
        let group_key = columns[..width]
            .iter()
            .chain(&columns[exprs.len()..])
            .copied()
            .collect();
        let order_by = self.order.iter().map(|o| {
            let column = columns[width + o.column];
            match crate::mutation::distinct_on_keeps_last() {
                false => OrderColumn { column, ..*o },
                true => OrderColumn {
                    column,
                    descending: !o.descending,
                    nulls_last: !o.nulls_last,
                },
            }
        });
        let top_k = RelationPlan::TopK {
            input: Box::new(input),
            group_key,
            order_by: order_by.collect(),
            limit: Some(1),
            offset: 0,
        };
        let kept: Vec<Typed> = columns[..exprs.len()]
            .iter()
            .zip(exprs)
            .map(|(c, t)| Typed {
                expr: ScalarExpr::Column(*c),
                ..t.clone()
            })
            .collect();
        project(top_k, mapped, &kept)
    }
}
