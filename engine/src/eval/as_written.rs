//! An expression evaluated as written, none of Materialize's optimizer's
//! rewrites applied: as its sequencer evaluates an `UPDATE`'s `SET`
//! expressions over each row it read (`sequence_read_then_write`, which
//! lowers them and never `reduce`s them). So `k < 0 AND 1 / 0 = 1` is
//! `false` where `k` is 1 (AND's false decides over the error), where
//! folded it is `division by zero` on every row; and `a / 0 + NULL` is
//! `division by zero`, where folded it is NULL.
//!
//! The row's values are bound into the expression as literals, and the
//! whole is evaluated: with no operand reading a column, none of the
//! rules evaluation reads from a folded shape applies (`literals.rs`),
//! and every node is evaluated in order over its operands' values. A
//! value bound from the row is a datum a row holds, as the real system's
//! is (reduced, `round(n, places)` reads it so).

use crate::plan::ScalarExpr;
use crate::recursion::grown;
use crate::repr::{DataflowError, Datum};

impl ScalarExpr {
    /// The expression's value over `row`, evaluated as written.
    pub fn eval_as_written(&self, row: &[Datum]) -> Result<Datum, DataflowError> {
        self.clone().bound(row).eval(&[])
    }

    /// The expression with every column replaced by `row`'s value.
    fn bound(self, row: &[Datum]) -> ScalarExpr {
        match self {
            ScalarExpr::Column(i) => ScalarExpr::Literal(row[i].clone()),
            e => grown(|| e.map_children(&mut |c| c.bound(row))),
        }
    }
}
