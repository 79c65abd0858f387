//! Walks over an expression's syntax that look for a construct without
//! planning it: an aggregate call (which makes a query aggregate), a
//! subquery (which makes a WHERE's conjunct filter after the others) or a
//! window function call.
//! Both look through the forms the planner reads, never into a subquery.

use sqlparser::ast::{
    AccessExpr, BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget,
    Subscript, WindowType,
};

use super::aggregate_call::aggregate_call;
use super::call_syntax::special_args;
use super::RECURSION_LIMIT;

/// Whether `e` calls an aggregate (outside of any subquery).
pub fn contains_aggregate(e: &Expr) -> bool {
    any_within(
        e,
        0,
        &|e| matches!(e, Expr::Function(f) if aggregate_call(f).is_ok()),
    )
}

/// Whether `e` calls a window function (outside of any subquery).
pub fn contains_window(e: &Expr) -> bool {
    any_within(
        e,
        0,
        &|e| matches!(e, Expr::Function(f) if f.over.is_some()),
    )
}

/// `left op ANY|SOME (right)` or `left op ALL (right)`: its operand,
/// comparison, right side and whether it is ALL; `None` for another form.
pub fn any_or_all(e: &Expr) -> Option<(&Expr, &BinaryOperator, &Expr, bool)> {
    match e {
        Expr::AnyOp {
            left,
            compare_op,
            right,
            ..
        } => Some((left, compare_op, right, false)),
        Expr::AllOp {
            left,
            compare_op,
            right,
        } => Some((left, compare_op, right, true)),
        _ => None,
    }
}

/// Whether `e` holds a subquery.
pub fn contains_subquery(e: &Expr) -> bool {
    any_within(e, 0, &|e| match e {
        // Of an array too: the real system plans it as a subquery.
        Expr::Subquery(_) | Expr::Exists { .. } | Expr::AnyOp { .. } | Expr::AllOp { .. } => true,
        Expr::In { target, .. } => !matches!(target, InTarget::List(_)),
        Expr::Function(f) => matches!(f.args, FunctionArguments::Subquery(_)),
        _ => false,
    })
}

/// Whether `found` holds for `e` or any expression in it, looking no
/// deeper than [`RECURSION_LIMIT`] (planning such an expression fails).
pub(super) fn any_within(e: &Expr, depth: usize, found: &dyn Fn(&Expr) -> bool) -> bool {
    if found(e) {
        return true;
    }
    let any = |e: &Expr| depth < RECURSION_LIMIT && any_within(e, depth + 1, found);
    match e {
        Expr::Function(f) => {
            let args = match &f.args {
                FunctionArguments::List(list) => list
                    .args
                    .iter()
                    .any(|a| matches!(a, FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if any(e))),
                _ => false,
            };
            // A window's PARTITION BY and ORDER BY are over the row too.
            args || match &f.over {
                Some(WindowType::WindowSpec(spec)) => {
                    let order = spec.order_by.iter().map(|o| &o.expr);
                    spec.partition_by.iter().chain(order).any(any)
                }
                _ => false,
            }
        }
        Expr::BinaryOp { left, right, .. } => any(left) || any(right),
        Expr::UnaryOp { expr, .. }
        | Expr::Nested(expr)
        | Expr::IsNull(expr)
        | Expr::IsNotNull(expr)
        | Expr::Cast { expr, .. } => any(expr),
        Expr::In { expr, target, .. } => {
            any(expr) || matches!(target, InTarget::List(list) if list.iter().any(any))
        }
        // Of an array (not a subquery), its array is over the row too.
        Expr::AnyOp { left, right, .. } | Expr::AllOp { left, right, .. } => {
            any(left) || (!matches!(**right, Expr::Subquery(_)) && any(right))
        }
        Expr::Substring { .. }
        | Expr::Position { .. }
        | Expr::Trim { .. }
        | Expr::Ceil { .. }
        | Expr::Floor { .. }
        | Expr::Extract { .. } => special_args(e).into_iter().any(any),
        Expr::Between {
            expr, low, high, ..
        } => any(expr) || any(low) || any(high),
        Expr::Array(a) => a.elem.iter().any(any),
        Expr::Tuple(fields) => fields.iter().any(any),
        Expr::CompoundFieldAccess { root, access_chain } => {
            any(root)
                || access_chain.iter().any(|a| match a {
                    AccessExpr::Subscript(Subscript::Index { index }) => any(index),
                    _ => false,
                })
        }
        Expr::Like { expr, pattern, .. } | Expr::ILike { expr, pattern, .. } => {
            any(expr) || any(pattern)
        }
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            operand.as_deref().is_some_and(any)
                || else_result.as_deref().is_some_and(any)
                || conditions
                    .iter()
                    .any(|w| any(&w.condition) || any(&w.result))
        }
        _ => false,
    }
}
