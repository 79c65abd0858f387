//! Two rewrites of Materialize's optimizer (`MirScalarExpr::reduce`,
//! `expr/src/scalar.rs`) that change what a row answers, not only how fast:
//! each drops an error that the expression as written would raise.
//!
//! - `e IS NULL` is decomposed before `e` is folded (`decompose_is_null`,
//!   in `reduce`'s pre-order visit): through a function that is NULL
//!   exactly when an argument is (arithmetic, comparisons, casts, `NOT`,
//!   minus, the strict scalar functions that introduce no NULL of their
//!   own) it becomes the OR of its
//!   arguments' `IS NULL`, and an `e` that cannot be NULL by its type is
//!   `false`. So `(a / b) IS NULL` is `a IS NULL OR b IS NULL`: false on a
//!   row where `b` is 0, not `division by zero`; `(1 / 0) IS NULL` over a
//!   table is false.
//! - `CASE WHEN c THEN x ELSE x END` is `x`: its condition, and its error,
//!   are never evaluated. Arms are dropped from the last while they equal
//!   the ELSE, as `reduce` rewrites the nested `If`s from the inside.
//!
//! Materialize applies them wherever `reduce` reaches before evaluation:
//! every predicate (its filters' predicates are canonicalized with
//! `reduce` as they are fused, even over constants), and every other
//! expression over a relation that is not constant; over a constant one
//! (no FROM, VALUES) its constant folding evaluates the expression first,
//! so `SELECT (1 / 0) IS NULL` fails (`ExprContext::reduces` says which).
//!
//! The type's nullability is the engine's own, structural one, with every
//! column taken as nullable: so `false` replaces `IS NULL` only where that
//! needs no column (a CASE whose arms are non-NULL literals), and a column
//! keeps its `IS NULL`, which answers what the type would. Where
//! Materialize would know a column is `NOT NULL` and the engine keeps an
//! `IS NULL` over an expression that fails, the engine still fails
//! (docs/semantics.md, "Known differences (open)").

use crate::eval::{introduces_nulls, propagates_nulls};
use crate::plan::{BinaryOp, Func, ScalarExpr, UnaryOp};
use crate::repr::Datum;

/// `e IS NULL` as Materialize's `reduce` leaves it.
pub fn is_null(e: ScalarExpr) -> ScalarExpr {
    crate::recursion::grown(|| decomposed(e))
}

fn decomposed(e: ScalarExpr) -> ScalarExpr {
    let any = |operands: Vec<ScalarExpr>| operands.into_iter().map(is_null).reduce(or);
    match e {
        ScalarExpr::Literal(d) => ScalarExpr::Literal(Datum::Bool(d == Datum::Null)),
        ScalarExpr::Unary(UnaryOp::IsNull | UnaryOp::IsNotNull, _) => false_(),
        ScalarExpr::Unary(
            UnaryOp::Neg | UnaryOp::Not | UnaryOp::Assign(_) | UnaryOp::PadChar(_),
            operand,
        )
        | ScalarExpr::Cast(_, operand) => is_null(*operand),
        ScalarExpr::Binary(op, l, r) if !matches!(op, BinaryOp::And | BinaryOp::Or) => {
            or(is_null(*l), is_null(*r))
        }
        ScalarExpr::Call(func, args) if null_exactly_with_an_argument(func) && !args.is_empty() => {
            any(args).expect("an argument")
        }
        e if !nullable(&e) => false_(),
        e => ScalarExpr::Unary(UnaryOp::IsNull, Box::new(e)),
    }
}

/// `CASE` arms as `reduce` leaves them: the last ones dropped while their
/// result equals the ELSE's (both as folded).
pub fn equal_arms_dropped(whens: &mut Vec<(ScalarExpr, ScalarExpr)>, els: &ScalarExpr) {
    let folded_els = els.clone().fold();
    while let Some((_, then)) = whens.last() {
        if then.clone().fold() != folded_els {
            break;
        }
        whens.pop();
    }
}

/// Whether `e` can be NULL by its type, every column taken as nullable
/// (Materialize's `typ`, for the shapes the engine plans).
fn nullable(e: &ScalarExpr) -> bool {
    crate::recursion::grown(|| match e {
        ScalarExpr::Column(_) => true,
        ScalarExpr::Literal(d) => *d == Datum::Null,
        ScalarExpr::Unary(UnaryOp::IsNull | UnaryOp::IsNotNull, _) => false,
        ScalarExpr::Unary(_, operand) | ScalarExpr::Cast(_, operand) => nullable(operand),
        ScalarExpr::Binary(_, l, r) => nullable(l) || nullable(r),
        ScalarExpr::Case { whens, els } => nullable(els) || whens.iter().any(|(_, t)| nullable(t)),
        ScalarExpr::Or(operands) => operands.iter().any(nullable),
        ScalarExpr::Coalesce(operands) => operands.iter().all(nullable),
        ScalarExpr::Call(func, args) if null_exactly_with_an_argument(*func) => {
            args.iter().any(nullable)
        }
        // An error literal, and functions whose NULLs the engine does not
        // model: taken as nullable, so their `IS NULL` is evaluated.
        ScalarExpr::Error(_) | ScalarExpr::Call(..) => true,
    })
}

/// Whether `func` is NULL exactly when an argument is: it propagates
/// NULLs and introduces none (a range's `upper`, a jsonb's `->` can be
/// NULL of non-NULL arguments).
fn null_exactly_with_an_argument(func: Func) -> bool {
    propagates_nulls(func) && !introduces_nulls(func)
}

fn or(l: ScalarExpr, r: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Binary(BinaryOp::Or, Box::new(l), Box::new(r))
}

fn false_() -> ScalarExpr {
    ScalarExpr::Literal(Datum::Bool(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{JsonbFunc, RangeFunc};

    /// `upper(r) IS NULL` and `(j ->> 'k') IS NULL` ask the call, not its
    /// arguments: each is NULL of non-NULL arguments. `jsonb_typeof`
    /// introduces no NULL, so its `IS NULL` is its argument's.
    #[test]
    fn a_call_that_introduces_nulls_keeps_its_is_null() {
        let column = || ScalarExpr::Column(0);
        let key = || ScalarExpr::Literal(Datum::Text("k".into()));
        for (func, args) in [
            (Func::Range(RangeFunc::Upper), vec![column()]),
            (Func::Jsonb(JsonbFunc::GetFieldText), vec![column(), key()]),
            (Func::Jsonb(JsonbFunc::ArrayLength), vec![column()]),
        ] {
            let call = ScalarExpr::Call(func, args);
            let kept = ScalarExpr::Unary(UnaryOp::IsNull, Box::new(call.clone()));
            assert_eq!(is_null(call), kept, "{func:?}");
        }
        let typeof_ = ScalarExpr::Call(Func::Jsonb(JsonbFunc::TypeOf), vec![column()]);
        let asked = ScalarExpr::Unary(UnaryOp::IsNull, Box::new(column()));
        assert_eq!(is_null(typeof_), asked);
    }
}
