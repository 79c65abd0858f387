//! What of a query's `ORDER BY` the model can claim: it sorts no rows,
//! so it abstains where the ORDER BY could decide more than the order (an
//! error of an expression the select list does not compute, or the engine's
//! error for a column outside a `SELECT DISTINCT`'s list).

use crate::ops::Unsupported;
use sqlparser::ast::{self, SetExpr};

/// `Ok` when `q`'s ORDER BY sorts by columns or positions only, and the
/// query is no `SELECT DISTINCT` with one.
pub fn claimable(q: &ast::Query) -> Result<(), Unsupported> {
    let keys = q.order_by.iter().flat_map(|o| match &o.kind {
        ast::OrderByKind::Expressions(exprs) => exprs.iter().map(|e| &e.expr).collect(),
        ast::OrderByKind::All(_) => vec![],
    });
    let plain = |e: &ast::Expr| {
        matches!(
            e,
            ast::Expr::Identifier(_)
                | ast::Expr::CompoundIdentifier(_)
                | ast::Expr::Value(ast::ValueWithSpan {
                    value: ast::Value::Number(..),
                    ..
                })
        )
    };
    if keys.into_iter().any(|e| !plain(e)) {
        return Err("an ORDER BY expression");
    }
    let distinct = matches!(&*q.body, SetExpr::Select(s) if s.distinct.is_some());
    if distinct && q.order_by.is_some() {
        return Err("ORDER BY beside DISTINCT");
    }
    Ok(())
}
