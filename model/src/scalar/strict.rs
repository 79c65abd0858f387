//! How a strict operator meets a literal NULL or error, restated from
//! docs/semantics.md ("Scalar functions"): Materialize folds what reads no
//! column before anything runs, so a literal NULL operand beside one that
//! reads a column is NULL, and else a literal error operand is that error.
//! (Row by row both operands are then evaluated, an error before a NULL:
//! `eval.rs`, `operands`.)

use super::{EvalError, Scalar};
use engine::repr::Datum;

/// Whether `e` reads no column of its row: what Materialize's optimizer
/// folds to a literal. A subquery is read as a column of a join.
fn reads_no_column(e: &Scalar) -> bool {
    match e {
        Scalar::Column(_) | Scalar::Subquery(..) => false,
        Scalar::Literal(_) | Scalar::Decimal(_) => true,
        Scalar::Arith(_, l, r) | Scalar::Cmp(_, l, r) | Scalar::And(l, r) | Scalar::Or(l, r) => {
            reads_no_column(l) && reads_no_column(r)
        }
        Scalar::Not(e)
        | Scalar::Neg(e)
        | Scalar::IsNull(e, _)
        | Scalar::ToInt(e, _)
        | Scalar::ToFloat(e, _)
        | Scalar::Trim(e) => reads_no_column(e),
        Scalar::In(e, items) => reads_no_column(e) && items.iter().all(reads_no_column),
        Scalar::Call(_, args) => args.iter().all(reads_no_column),
    }
}

/// A strict operator of `l` and `r` decided by a literal operand beside one
/// that reads a column: NULL, or the literal's error; `None` otherwise.
pub fn literal_operands(l: &Scalar, r: &Scalar) -> Option<Result<Datum, EvalError>> {
    let (l_literal, r_literal) = (reads_no_column(l), reads_no_column(r));
    if l_literal == r_literal {
        return None;
    }
    let literal = if l_literal { l } else { r };
    // Literal, so the row is never read. Where the model cannot value it
    // alone (a numeric literal typed by its neighbour) it is neither NULL
    // nor an error, and decides nothing.
    match literal.eval(&[]) {
        Ok(Datum::Null) => Some(Ok(Datum::Null)),
        Err(e @ EvalError::Error(_)) => Some(Err(e)),
        _ => None,
    }
}
