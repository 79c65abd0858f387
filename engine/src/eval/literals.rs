//! The shape of a strict call's operands after constant folding
//! (`fold.rs`): which are literals, and what Materialize's `reduce` makes
//! of a call with some literal operands. Shape alone, no evaluation, so
//! that evaluation (`scalar.rs`, `functions.rs`) and folding both build on
//! it.

use crate::plan::ScalarExpr;
use crate::recursion::grown;
use crate::repr::Datum;

/// A literal or a literal error: what the real system's optimizer leaves
/// of a subtree that reads no column.
pub fn is_constant_node(e: &ScalarExpr) -> bool {
    matches!(e, ScalarExpr::Literal(_) | ScalarExpr::Error(_))
}

/// Whether `e` reads no column: what the real system's optimizer folds to
/// a literal (`fold.rs` does so once a query is planned).
pub fn reads_no_column(e: &ScalarExpr) -> bool {
    match e {
        ScalarExpr::Column(_) => false,
        ScalarExpr::Literal(_) | ScalarExpr::Error(_) => true,
        ScalarExpr::Unary(_, e) | ScalarExpr::Cast(_, e) => grown(|| reads_no_column(e)),
        ScalarExpr::Binary(_, l, r) => grown(|| reads_no_column(l) && reads_no_column(r)),
        ScalarExpr::Case { whens, els } => grown(|| {
            reads_no_column(els)
                && whens
                    .iter()
                    .all(|(c, t)| reads_no_column(c) && reads_no_column(t))
        }),
        ScalarExpr::Or(es) | ScalarExpr::Coalesce(es) | ScalarExpr::Call(_, es) => {
            grown(|| es.iter().all(reads_no_column))
        }
    }
}

/// What a call is, by its operands alone, when some are literals and some
/// read a column (Materialize's `reduce`): NULL if one is a literal NULL and
/// the call is strict (`propagates_nulls`), else the first literal error;
/// `None` when that decides nothing, and when no operand reads a column,
/// which the real system evaluates in order (as `fold.rs` does). Cheap when
/// no operand is a literal NULL or error, as almost always.
pub fn literal_operands<'a>(
    operands: impl IntoIterator<Item = &'a ScalarExpr> + Clone,
    propagates_nulls: bool,
) -> Option<Result<Datum, String>> {
    let null = |e: &ScalarExpr| propagates_nulls && matches!(e, ScalarExpr::Literal(Datum::Null));
    let decisive = |e: &ScalarExpr| null(e) || matches!(e, ScalarExpr::Error(_));
    if !operands.clone().into_iter().any(decisive)
        || operands.clone().into_iter().all(reads_no_column)
    {
        return None;
    }
    if operands.clone().into_iter().any(null) {
        return Some(Ok(Datum::Null));
    }
    operands.into_iter().find_map(|e| match e {
        ScalarExpr::Error(what) => Some(Err(what.clone())),
        _ => None,
    })
}
