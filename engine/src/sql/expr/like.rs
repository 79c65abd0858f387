//! `LIKE` and `ILIKE`, written as keywords or as PostgreSQL's operators
//! (`~~`, `~~*`, `!~~`, `!~~*`): both sides made text as Materialize's
//! planner makes them, or its `operator does not exist`.

use sqlparser::ast::{BinaryOperator, Expr};

use super::{negate, ExprContext, Typed};
use crate::plan::{BinaryOp, ScalarExpr};
use crate::repr::ScalarType;

impl ExprContext<'_> {
    #[inline(never)]
    pub(super) fn like(
        &mut self,
        op: BinaryOp,
        expr: &Expr,
        pattern: &Expr,
        negated: bool,
    ) -> Result<Typed, String> {
        let text = self
            .plan(expr)?
            .like_operand(true)
            .coerce(ScalarType::Text)?;
        let pattern = self
            .plan(pattern)?
            .like_operand(false)
            .coerce(ScalarType::Text)?;
        if text.typ != Some(ScalarType::Text) || pattern.typ != Some(ScalarType::Text) {
            let name = if op == BinaryOp::Like { "~~" } else { "~~*" };
            return Err(format!(
                "operator does not exist: {} {name} {}",
                text.type_name(),
                pattern.type_name()
            ));
        }
        let nullable = text.nullable || pattern.nullable;
        let like = ScalarExpr::Binary(op, Box::new(text.expr), Box::new(pattern.expr));
        Ok(negate(
            Typed::new(like, ScalarType::Bool, nullable),
            negated,
        ))
    }
}

/// PostgreSQL's operator spelling of LIKE (`~~`, `~~*`, `!~~`, `!~~*`):
/// which LIKE, and whether negated.
pub(super) fn like_operator(op: &BinaryOperator) -> Option<(BinaryOp, bool)> {
    use BinaryOperator as B;
    match op {
        B::PGLikeMatch => Some((BinaryOp::Like, false)),
        B::PGILikeMatch => Some((BinaryOp::ILike, false)),
        B::PGNotLikeMatch => Some((BinaryOp::Like, true)),
        B::PGNotILikeMatch => Some((BinaryOp::ILike, true)),
        _ => None,
    }
}
