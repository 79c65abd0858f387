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

use super::literals::is_constant_node;
use crate::plan::ScalarExpr;
use crate::recursion::grown;

/// What `DataflowError::eval` puts before the text of an evaluation error.
const EVALUATION_ERROR: &str = "Evaluation error: ";

impl ScalarExpr {
    /// The expression with every subtree that reads no column evaluated:
    /// a `Literal`, or an `Error` of its evaluation error's text.
    pub fn fold(self) -> ScalarExpr {
        let folded = grown(|| self.fold_children());
        if is_constant_node(&folded) || !folded.children_are_constant() {
            return folded;
        }
        match folded.eval(&[]) {
            Ok(d) => ScalarExpr::Literal(d),
            Err(e) => match e.0.strip_prefix(EVALUATION_ERROR) {
                Some(what) => ScalarExpr::Error(what.to_string()),
                // An error of another kind has no literal to stand for it.
                None => folded,
            },
        }
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
