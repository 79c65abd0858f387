//! Constant folding of a planned scalar expression, as Materialize's
//! `MirScalarExpr::reduce` does before anything runs: a subtree that reads
//! no column is evaluated once, to a literal or a literal error.
//!
//! It matters beyond speed because Materialize's answers depend on it. A
//! strict operator or function with a literal NULL operand beside one that
//! reads a column is NULL, and one with a literal error operand is that
//! error, whatever the row holds: `a / 0 + NULL` is NULL on every row, and
//! `a + 1 / 0` is an error even where `a` is NULL. Evaluation reads these
//! rules from the folded shape (`eval::scalar`, `literal_operands`).
//!
//! Folding applies the same rules to a node whose operands are part
//! literal, part column, as `reduce` rewrites such a node into a literal
//! before its parent is reduced: so an `AND` or `OR` with an operand that
//! folded to an error is that error, whatever its other operands decide
//! on a row (`a < 0 AND 1 / 0 = 1` fails on every row, and so does
//! `a IN (1, 1 / 0)`), as `reduce`'s literal-error rule for a variadic
//! function comes before anything `AND` and `OR` decide.

use super::functions::propagates_nulls;
use super::literals::{is_constant_node, literal_operands};
use crate::plan::{BinaryOp, ScalarExpr};
use crate::recursion::grown;

impl ScalarExpr {
    /// The expression with every subtree that reads no column evaluated:
    /// a `Literal`, or an `Error` of its evaluation error's text.
    pub fn fold(self) -> ScalarExpr {
        let folded = grown(|| self.fold_children());
        if let Some(decided) = folded.decided_by_literals() {
            return decided;
        }
        if is_constant_node(&folded) || !folded.children_are_constant() {
            return folded;
        }
        match folded.eval(&[]) {
            Ok(d) => ScalarExpr::Literal(d),
            Err(e) => match e.evaluation() {
                Some(what) => ScalarExpr::Error(what.to_string()),
                // An error of another kind has no literal to stand for it.
                None => folded,
            },
        }
    }

    /// What a node some of whose operands are literals and some read a
    /// column is, by those literals alone (`literal_operands`): a strict
    /// operator's or function's NULL or error, and an `AND`'s or `OR`'s
    /// error (a NULL decides neither).
    fn decided_by_literals(&self) -> Option<ScalarExpr> {
        let decided = match self {
            ScalarExpr::Binary(BinaryOp::And | BinaryOp::Or, l, r) => {
                literal_operands([&**l, &**r], false)
            }
            ScalarExpr::Binary(_, l, r) => literal_operands([&**l, &**r], true),
            ScalarExpr::Or(es) => literal_operands(es, false),
            ScalarExpr::Call(func, args) => literal_operands(args, propagates_nulls(*func)),
            _ => None,
        }?;
        Some(match decided {
            Ok(d) => ScalarExpr::Literal(d),
            Err(what) => ScalarExpr::Error(what),
        })
    }

    fn children_are_constant(&self) -> bool {
        match self {
            ScalarExpr::Column(_) => false,
            ScalarExpr::Literal(_) | ScalarExpr::Error(_) => true,
            ScalarExpr::Unary(_, e) | ScalarExpr::Cast(_, e) => is_constant_node(e),
            ScalarExpr::Binary(_, l, r) => is_constant_node(l) && is_constant_node(r),
            ScalarExpr::Case { whens, els } => {
                is_constant_node(els)
                    && whens
                        .iter()
                        .all(|(c, t)| is_constant_node(c) && is_constant_node(t))
            }
            ScalarExpr::Or(es) | ScalarExpr::Coalesce(es) | ScalarExpr::Call(_, es) => {
                es.iter().all(is_constant_node)
            }
        }
    }

    fn fold_children(self) -> ScalarExpr {
        self.map_children(&mut ScalarExpr::fold)
    }
}
