//! How a strict operator meets NULLs and errors, restated from
//! docs/semantics.md ("Scalar functions"): Materialize folds what reads no
//! column before anything runs, so a literal NULL operand beside one that
//! reads a column is NULL and else a literal error operand is that error;
//! then, row by row, the left operand decides first, the right unevaluated.

use super::{EvalError, Scalar};
use engine::repr::Datum;

/// Whether `e` reads no column of its row: what Materialize's optimizer
/// folds to a literal. A subquery is read as a column of a join.
fn reads_no_column(e: &Scalar) -> bool {
    match e {
        Scalar::Column(_) | Scalar::Subquery(..) => false,
        Scalar::Literal(_) => true,
        Scalar::Arith(_, l, r) | Scalar::Cmp(_, l, r) | Scalar::And(l, r) | Scalar::Or(l, r) => {
            reads_no_column(l) && reads_no_column(r)
        }
        Scalar::Not(e) | Scalar::Neg(e) | Scalar::IsNull(e, _) | Scalar::ToInt(e, _) => {
            reads_no_column(e)
        }
        Scalar::In(e, items) => reads_no_column(e) && items.iter().all(reads_no_column),
    }
}

/// `f` of `l` and `r` over `row`, as a strict operator.
pub fn strict(
    l: &Scalar,
    r: &Scalar,
    row: &[Datum],
    f: impl FnOnce(&Datum, &Datum) -> Result<Datum, EvalError>,
) -> Result<Datum, EvalError> {
    let (l_literal, r_literal) = (reads_no_column(l), reads_no_column(r));
    if l_literal != r_literal {
        let literal = if l_literal { l } else { r };
        // Literal, so the row is never read.
        let folded = literal.eval(&[]);
        if folded == Ok(Datum::Null) || folded.is_err() {
            return folded;
        }
    }
    let l = l.eval(row)?;
    if l == Datum::Null {
        return Ok(Datum::Null);
    }
    let r = r.eval(row)?;
    if r == Datum::Null {
        return Ok(Datum::Null);
    }
    f(&l, &r)
}
