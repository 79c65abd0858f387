//! Scalar expressions evaluated over a row: arithmetic at each integer
//! width, comparisons, AND/OR/NOT with SQL's three-valued logic, CASE,
//! COALESCE, LIKE, casts and calls of functions (`functions.rs`); and
//! predicates (`is_true`, `passes`). CASE's arms and an OR of many
//! operands (an IN list) are evaluated in a loop.

use super::cast::cast;
use super::chars::assign;
use super::error_order::greater;
use super::errors::{
    division_by_zero, int4_out_of_range, int8_out_of_range_of, numeric_field_overflow, type_error,
};
use super::float;
use super::functions::call;
use super::int16;
use super::interval;
use super::literals::literal_operands;
use super::numeric;
use super::time;
use super::unsigned;
use crate::plan::{BinaryOp, ScalarExpr, UnaryOp};
use crate::recursion::grown;
use crate::repr::chars::padded;
use crate::repr::{DataflowError, Datum};

impl ScalarExpr {
    /// Evaluates the expression over `row`.
    ///
    /// Arithmetic and comparisons are strict, as the real system's binary
    /// functions: both operands are evaluated, an error is the result (the
    /// left's before the right's), and only then a NULL operand makes NULL,
    /// so `a + 1 / b` fails where `a` is NULL and `b` is 0 (the real
    /// system's eager evaluation of arguments, `try_from_iter` of a tuple,
    /// since February 2026). Before that, a
    /// literal NULL operand beside one that is not a literal makes NULL, and
    /// else a literal error operand that error, as the real system's
    /// optimizer folds them (`fold.rs`, `literals.rs`). AND and OR follow
    /// three-valued logic in which a deciding operand (false for AND, true
    /// for OR) wins over NULL *and* over an error on the other side, in either
    /// order, as in the real system: `b <> 0 AND a / b > 0` never fails; of
    /// two errors, the greater in the real system's order is the result.
    ///
    /// An expression nests at most [`RECURSION_LIMIT`] levels (the planner
    /// holds it there), and each level above the leaves is evaluated on a
    /// stack grown as it needs, so no row recurses off a worker's stack.
    ///
    /// [`RECURSION_LIMIT`]: crate::recursion::RECURSION_LIMIT
    pub fn eval(&self, row: &[Datum]) -> Result<Datum, DataflowError> {
        match self {
            ScalarExpr::Column(i) => Ok(row[*i].clone()),
            ScalarExpr::Literal(d) => Ok(d.clone()),
            ScalarExpr::Error(what) => Err(DataflowError::eval(what)),
            _ => grown(|| self.eval_inner(row)),
        }
    }

    /// One level of [`ScalarExpr::eval`] above the leaves.
    fn eval_inner(&self, row: &[Datum]) -> Result<Datum, DataflowError> {
        match self {
            ScalarExpr::Column(_) | ScalarExpr::Literal(_) | ScalarExpr::Error(_) => self.eval(row),
            ScalarExpr::Unary(op, e) => unary(*op, e.eval(row)?),
            ScalarExpr::Cast(to, e) => cast(e.eval(row)?, *to).map_err(|e| DataflowError::eval(&e)),
            ScalarExpr::Case { whens, els } => {
                for (cond, then) in whens {
                    if is_true(&cond.eval(row)?) {
                        return then.eval(row);
                    }
                }
                els.eval(row)
            }
            ScalarExpr::Or(operands) => any(operands, row),
            ScalarExpr::Call(func, args) => call(*func, args, row),
            ScalarExpr::Coalesce(exprs) => {
                for e in exprs {
                    let d = e.eval(row)?;
                    if d != Datum::Null {
                        return Ok(d);
                    }
                }
                Ok(Datum::Null)
            }
            ScalarExpr::Binary(BinaryOp::And, l, r) => logical(false, l, r, row),
            ScalarExpr::Binary(BinaryOp::Or, l, r) => logical(true, l, r, row),
            ScalarExpr::Binary(op, l, r) => {
                if let Some(decided) = literal_operands([&**l, &**r], true) {
                    return decided.map_err(|what| DataflowError::eval(&what));
                }
                let (l, r) = (l.eval(row), r.eval(row));
                match (l?, r?) {
                    (Datum::Null, _) | (_, Datum::Null) => Ok(Datum::Null),
                    (l, r) => binary(*op, l, r),
                }
            }
        }
    }
}

fn unary(op: UnaryOp, d: Datum) -> Result<Datum, DataflowError> {
    if let (UnaryOp::Neg, Some(negated)) = (op, float::negate(&d)) {
        return Ok(negated);
    }
    match (op, d) {
        (UnaryOp::IsNull, d) => Ok(Datum::Bool(d == Datum::Null)),
        (UnaryOp::IsNotNull, d) => Ok(Datum::Bool(d != Datum::Null)),
        (_, Datum::Null) => Ok(Datum::Null),
        (UnaryOp::Assign(to), d) => assign(d, to).map_err(|e| DataflowError::eval(&e)),
        (UnaryOp::PadChar(length), d) => Ok(padded(d, length)),
        (UnaryOp::Not, Datum::Bool(b)) => Ok(Datum::Bool(!b)),
        (UnaryOp::Neg, Datum::Numeric(n)) => Ok(numeric::negate(n)),
        (UnaryOp::Neg, Datum::Int32(i)) => i
            .checked_neg()
            .map(Datum::Int32)
            .ok_or_else(|| int4_out_of_range(i)),
        (UnaryOp::Neg, Datum::Int16(i)) => int16::negate(i, false),
        (UnaryOp::Neg, Datum::Interval(i)) => interval::negate(i),
        (UnaryOp::Neg, Datum::Int64(i)) => i
            .checked_neg()
            .map(Datum::Int64)
            .ok_or_else(|| int8_out_of_range_of(i)),
        (op, d) => Err(type_error(&format!("{op:?}"), &d)),
    }
}

/// AND (`decisive == false`) or OR (`decisive == true`). Where both
/// operands fail, Materialize reports the greater error in its order
/// (`error_order.rs`), whichever side it is on.
fn logical(
    decisive: bool,
    l: &ScalarExpr,
    r: &ScalarExpr,
    row: &[Datum],
) -> Result<Datum, DataflowError> {
    let l = l.eval(row);
    if l == Ok(Datum::Bool(decisive)) {
        return Ok(Datum::Bool(decisive));
    }
    let r = r.eval(row);
    if r == Ok(Datum::Bool(decisive)) {
        return Ok(Datum::Bool(decisive));
    }
    let (l, r) = match (l, r) {
        (Err(l), Err(r)) => return Err(greater(l, r)),
        (l, r) => (l?, r?),
    };
    match (l, r) {
        (Datum::Null, Datum::Bool(_) | Datum::Null) | (Datum::Bool(_), Datum::Null) => {
            Ok(Datum::Null)
        }
        (Datum::Bool(_), Datum::Bool(_)) => Ok(Datum::Bool(!decisive)),
        (Datum::Bool(_) | Datum::Null, d) | (d, _) => Err(type_error("AND/OR", &d)),
    }
}

/// The OR of `operands`, in a loop: as the left-deep chain of binary ORs
/// they stand for, a true operand decides, else the greatest error in
/// Materialize's order (`error_order.rs`), else NULL if any operand is
/// NULL, else false.
fn any(operands: &[ScalarExpr], row: &[Datum]) -> Result<Datum, DataflowError> {
    let (mut error, mut null) = (None, false);
    for operand in operands {
        match operand.eval(row) {
            Ok(Datum::Bool(true)) => return Ok(Datum::Bool(true)),
            Ok(Datum::Bool(false)) => {}
            Ok(Datum::Null) => null = true,
            Ok(d) => error = error.or(Some(type_error("AND/OR", &d))),
            Err(e) => {
                error = Some(match error.take() {
                    Some(kept) => greater(kept, e),
                    None => e,
                })
            }
        }
    }
    match (error, null) {
        (Some(e), _) => Err(e),
        (None, true) => Ok(Datum::Null),
        (None, false) => Ok(Datum::Bool(false)),
    }
}

/// Whether `d` is a float NaN (for the mutation `nan-below-numbers`).
fn is_nan(d: &Datum) -> bool {
    match d {
        Datum::Float32(f) => f.get().is_nan(),
        Datum::Float64(f) => f.get().is_nan(),
        _ => false,
    }
}

/// A binary operator other than AND/OR on non-NULL operands.
fn binary(op: BinaryOp, l: Datum, r: Datum) -> Result<Datum, DataflowError> {
    use std::cmp::Ordering::*;
    let ord = |accept: &[std::cmp::Ordering]| -> Result<Datum, DataflowError> {
        if std::mem::discriminant(&l) != std::mem::discriminant(&r) {
            return Err(type_error("comparison", &r));
        }
        let mut o = l.sql_cmp(&r);
        if crate::mutation::nan_below_numbers() && is_nan(&l) != is_nan(&r) {
            o = o.reverse();
        }
        Ok(Datum::Bool(accept.contains(&o)))
    };
    // An array's `=` is the real system's datum equality, which holds
    // the dimensions' lengths its order does not see (`repr::array`).
    if let (Datum::Array(a), Datum::Array(b), BinaryOp::Eq | BinaryOp::NotEq) = (&l, &r, op) {
        return Ok(Datum::Bool(a.sql_eq(b) == (op == BinaryOp::Eq)));
    }
    match op {
        BinaryOp::Eq => ord(&[Equal]),
        BinaryOp::NotEq => ord(&[Less, Greater]),
        BinaryOp::Lt => ord(&[Less]),
        BinaryOp::LtEq => ord(&[Less, Equal]),
        BinaryOp::Gt => ord(&[Greater]),
        BinaryOp::GtEq => ord(&[Greater, Equal]),
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            if let Some(result) = float::binary(op, &l, &r) {
                return result;
            }
            if let Some(result) = int16::binary(op, &l, &r) {
                return result;
            }
            if let Some(result) = unsigned::binary(op, &l, &r) {
                return result;
            }
            if let Some(result) = time::binary(op, &l, &r) {
                return result;
            }
            match (&l, &r) {
                (Datum::Numeric(a), Datum::Numeric(b)) => {
                    numeric::arithmetic(op, *a, *b).expect("an arithmetic operator")
                }
                (Datum::Int32(a), Datum::Int32(b)) => {
                    let wide = arithmetic(op, i64::from(*a), i64::from(*b))?;
                    i32::try_from(wide).map(Datum::Int32).map_err(|_| match op {
                        BinaryOp::Div => int4_out_of_range(operation(op, a, b)),
                        _ => numeric_field_overflow(),
                    })
                }
                (Datum::Int64(a), Datum::Int64(b)) => arithmetic(op, *a, *b).map(Datum::Int64),
                _ => Err(type_error(
                    "arithmetic",
                    if matches!(l, Datum::Int32(_) | Datum::Int64(_)) {
                        &r
                    } else {
                        &l
                    },
                )),
            }
        }
        BinaryOp::Like | BinaryOp::ILike => match (&l, &r) {
            (Datum::Text(text), Datum::Text(pattern)) => {
                // The real system's bound on a pattern (8 KiB), checked
                // before anything else about it (`like_pattern::compile`).
                if pattern.len() > 8 << 10 {
                    return Err(DataflowError::eval("LIKE pattern exceeds maximum length"));
                }
                let fold = |s: &str| match op {
                    BinaryOp::ILike => s.to_lowercase(),
                    _ => s.to_string(),
                };
                let text: Vec<char> = fold(text).chars().collect();
                let pattern: Vec<char> = fold(pattern).chars().collect();
                like(&text, &pattern)
                    .map(Datum::Bool)
                    .map_err(DataflowError::eval)
            }
            _ => Err(type_error(
                "LIKE",
                if matches!(l, Datum::Text(_)) { &r } else { &l },
            )),
        },
        BinaryOp::And | BinaryOp::Or => unreachable!("handled by `logical`"),
    }
}

/// Whether `text` matches the LIKE `pattern` as a whole; the error is the
/// real system's text for a pattern ending in its escape character.
fn like(text: &[char], pattern: &[char]) -> Result<bool, &'static str> {
    // Dynamic programming over (pattern prefix, text prefix): `matched[j]`
    // says whether the pattern so far matches the first j characters.
    let mut matched = vec![false; text.len() + 1];
    matched[0] = true;
    let mut p = 0;
    while p < pattern.len() {
        let (literal, next) = match pattern[p] {
            '%' => {
                // Any run: every length from the first match on.
                if let Some(first) = matched.iter().position(|m| *m) {
                    matched[first..].fill(true);
                }
                p += 1;
                continue;
            }
            '_' => (None, p + 1),
            '\\' => match pattern.get(p + 1) {
                Some(c) => (Some(*c), p + 2),
                None => return Err("unterminated escape sequence in LIKE"),
            },
            c => (Some(c), p + 1),
        };
        for j in (0..text.len()).rev() {
            matched[j + 1] = matched[j] && literal.is_none_or(|c| c == text[j]);
        }
        matched[0] = false;
        p = next;
    }
    Ok(matched[text.len()])
}

/// 64-bit arithmetic; a 32-bit operation runs here on widened operands and
/// its caller narrows the result, so `i32::MIN / -1` fails there.
fn arithmetic(op: BinaryOp, a: i64, b: i64) -> Result<i64, DataflowError> {
    if matches!(op, BinaryOp::Div | BinaryOp::Mod) && b == 0 {
        return Err(division_by_zero());
    }
    match op {
        BinaryOp::Add => a.checked_add(b),
        BinaryOp::Sub => a.checked_sub(b),
        BinaryOp::Mul => a.checked_mul(b),
        BinaryOp::Div => a.checked_div(b),
        // Only i64::MIN % -1 overflows, and its remainder is 0.
        BinaryOp::Mod => Some(a.checked_rem(b).unwrap_or(0)),
        _ => unreachable!("not arithmetic"),
    }
    .ok_or_else(|| match op {
        BinaryOp::Div => int8_out_of_range_of(operation(op, &a, &b)),
        _ => numeric_field_overflow(),
    })
}

/// `a / b`: an operation as the real system names it in an error.
fn operation(op: BinaryOp, a: &impl std::fmt::Display, b: &impl std::fmt::Display) -> String {
    let symbol = match op {
        BinaryOp::Div => "/",
        _ => "%",
    };
    format!("{a} {symbol} {b}")
}

/// Whether a predicate's value keeps a row: only `true` does (NULL drops it).
pub fn is_true(d: &Datum) -> bool {
    *d == Datum::Bool(true)
}

/// Whether every predicate holds for `row`. A predicate that is false or
/// NULL drops the row even when another one fails to evaluate, as the
/// conjunction they came from would; an error is returned only otherwise.
pub fn passes(predicates: &[ScalarExpr], row: &[Datum]) -> Result<bool, DataflowError> {
    let mut error = None;
    for predicate in predicates {
        match predicate.eval(row) {
            Ok(datum) if !is_true(&datum) => return Ok(false),
            Ok(_) => {}
            Err(e) => error = error.or(Some(e)),
        }
    }
    error.map_or(Ok(true), Err)
}
