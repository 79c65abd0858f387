//! The select list's window function calls planned onto the query's row
//! after GROUP BY and HAVING, and before the select list, DISTINCT and
//! ORDER BY, as Materialize's `plan_select` plans them (its step 7): the
//! calls in the reverse of the order they appear in, each a reduce over
//! its partitions (`RelationPlan::Window`) whose input row is the query's
//! row with the values of the calls before it, except that value window
//! functions (`lag`, `lead`, `first_value`, `last_value`) with the same
//! window share one reduce at the place of the first of them, as
//! Materialize's `fuse_window_functions` fuses them, and so do aggregates
//! over a window with each other. The row a reduce reads
//! breaks the ties of its ORDER BY, so the order matters.

use sqlparser::ast::{JoinConstraint, TableWithJoins};

use super::super::expr::window::{WindowCallPlan, Windows, WINDOW_COLUMN};
use super::super::expr::Typed;
use super::from::join_kind;
use crate::plan::{OrderColumn, RelationPlan, ScalarExpr, Window, WindowCall};
use crate::repr::unsupported;

/// Where the query with the calls stands.
pub(super) struct Site {
    /// A subquery in an expression: refused.
    pub nested: bool,
    /// A subquery in FROM: a call whose expressions can fail is refused,
    /// as a computed column there is (what nothing reads is not computed).
    pub in_from: bool,
    /// The FROM has a `JOIN ... USING` or a `NATURAL JOIN`: refused, since
    /// Materialize's row there (`plan_using_constraint`: the join columns
    /// first, the hidden ones kept) breaks a window's ties in an order the
    /// engine's row does not have.
    pub using_join: bool,
}

/// Whether `from` joins anything `USING (...)` or `NATURAL`ly.
pub(super) fn has_using_join(from: &[TableWithJoins]) -> bool {
    from.iter().flat_map(|t| &t.joins).any(|j| {
        matches!(
            join_kind(&j.join_operator),
            Ok((_, JoinConstraint::Using(_) | JoinConstraint::Natural))
        )
    })
}

/// `plan` (of `arity` columns) with a column per call of `windows` after
/// its own, and the select list's placeholders read from them.
pub(super) fn apply(
    mut plan: RelationPlan,
    mut arity: usize,
    windows: Option<Windows>,
    outputs: &mut [(String, Typed)],
    site: Site,
) -> Result<(RelationPlan, usize), String> {
    let calls = windows.map(|w| w.calls).unwrap_or_default();
    if calls.is_empty() {
        return Ok((plan, arity));
    }
    if site.nested {
        return Err(unsupported(
            "window functions in a subquery in an expression",
        ));
    }
    if site.using_join {
        return Err(unsupported(
            "window functions over a JOIN ... USING or a NATURAL JOIN",
        ));
    }
    let plain = |e: &ScalarExpr| matches!(e, ScalarExpr::Column(_) | ScalarExpr::Literal(_));
    if site.in_from && !calls.iter().all(|c| call_exprs(c).all(plain)) {
        return Err(unsupported(
            "a window function of a computed expression in a subquery in FROM",
        ));
    }
    let mut placed = vec![0; calls.len()];
    for group in groups(&calls) {
        let first = &calls[group[0]];
        let partition: Vec<&ScalarExpr> = first.partition.iter().collect();
        let order: Vec<&ScalarExpr> = first.order_by.iter().map(|o| &o.0).collect();
        // What the reduce reads, as Materialize evaluates it: the
        // partition key, each call's arguments, then the ORDER BY.
        let mut exprs: Vec<ScalarExpr> = partition.into_iter().cloned().collect();
        let mut window_calls = vec![];
        for &j in &group {
            let args = (0..calls[j].args.len())
                .map(|a| arity + exprs.len() + a)
                .collect();
            exprs.extend(calls[j].args.iter().cloned());
            window_calls.push(WindowCall {
                func: calls[j].func,
                args,
            });
        }
        let order_at = arity + exprs.len();
        exprs.extend(order.into_iter().cloned());
        let order_by = first.order_by.iter().enumerate();
        let order_by = order_by.map(|(i, (_, descending, nulls_last))| OrderColumn {
            column: order_at + i,
            descending: *descending,
            nulls_last: *nulls_last,
        });
        let window = Window {
            width: arity,
            partition: (arity..arity + first.partition.len()).collect(),
            order_by: order_by.collect(),
            frame: first.frame,
            calls: window_calls,
        };
        let input = RelationPlan::Map {
            input: Box::new(plan),
            exprs,
        };
        plan = RelationPlan::Window {
            input: Box::new(input),
            window,
        };
        for (k, &j) in group.iter().enumerate() {
            placed[j] = arity + k;
        }
        arity += group.len();
    }
    for (_, t) in outputs.iter_mut() {
        t.expr = t.expr.clone().remap_columns(&|c| match c >= WINDOW_COLUMN {
            true => placed[c - WINDOW_COLUMN],
            false => c,
        });
    }
    Ok((plan, arity))
}

/// Every expression a call evaluates.
fn call_exprs(c: &WindowCallPlan) -> impl Iterator<Item = &ScalarExpr> {
    let order = c.order_by.iter().map(|o| &o.0);
    c.partition.iter().chain(&c.args).chain(order)
}

/// The reduces the calls make, in the order they are computed: the calls
/// in reverse order of appearance, a value window function (an aggregate)
/// joining the group of the first one of its kind before it with the same
/// window.
fn groups(calls: &[WindowCallPlan]) -> Vec<Vec<usize>> {
    let same_window = |a: &WindowCallPlan, b: &WindowCallPlan| {
        a.partition == b.partition && a.order_by == b.order_by && a.frame == b.frame
    };
    let mut groups: Vec<Vec<usize>> = vec![];
    for j in (0..calls.len()).rev() {
        let call = &calls[j];
        let joins = groups.iter_mut().find(|g| {
            let first = &calls[g[0]];
            call.func.fusion().is_some()
                && call.func.fusion() == first.func.fusion()
                && same_window(first, call)
        });
        match joins {
            Some(group) => group.push(j),
            None => groups.push(vec![j]),
        }
    }
    groups
}
