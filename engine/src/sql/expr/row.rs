//! Row constructors, `(a, b)` and `ROW(a, b)`, where Materialize expands
//! them field by field before planning (its desugarer,
//! `sql/src/plan/transform_ast.rs`): a row compared with `=`, `<>`, `<`,
//! `<=`, `>` or `>=` to another row constructor, a row left of an IN list
//! or BETWEEN, and a row left of IN, ANY or ALL of a subquery. The engine
//! has no record type, so a row anywhere else (a value in a select list,
//! compared with a column, parenthesized once more) is refused as
//! `expression tuple` or `function row`, never compared whole.

use sqlparser::ast::{BinaryOperator, Expr, FunctionArguments};

use super::typed::{binary, negate, operands, Typed};
use super::{function_name, plain_args, ExprContext};

/// The fields of `e` when it is a row constructor as written: `(a, b)`
/// or `ROW(...)`, never a parenthesized one (`((a, b))`), which the
/// desugarer leaves to be compared whole as a record.
pub(super) fn fields(e: &Expr) -> Option<Vec<&Expr>> {
    match e {
        Expr::Tuple(fields) => Some(fields.iter().collect()),
        Expr::Function(f) if is_row_constructor(f) => plain_args(f).ok(),
        _ => None,
    }
}

fn is_row_constructor(f: &sqlparser::ast::Function) -> bool {
    let bare = matches!(f.name.0.as_slice(), [part] if part.as_ident().is_some_and(|i| i.quote_style.is_none()));
    bare && function_name(f) == "row" && matches!(f.args, FunctionArguments::List(_))
}

/// Whether `op` is a comparison the desugarer expands between rows.
pub(super) fn is_comparison(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(op, B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq)
}

/// The fields of both sides of `left op right` when it is a comparison
/// of two row constructors.
pub(super) fn comparison<'e>(
    left: &'e Expr,
    op: &BinaryOperator,
    right: &'e Expr,
) -> Option<(Vec<&'e Expr>, Vec<&'e Expr>)> {
    Some((fields(left)?, fields(right)?)).filter(|_| is_comparison(op))
}

/// The fields of `e` compared with a subquery's columns or a list's rows:
/// a row constructor's, else `e` alone (the desugarer wraps it in a row).
pub(super) fn operand(e: &Expr) -> Vec<&Expr> {
    fields(e).unwrap_or_else(|| vec![e])
}

/// `l op r` of two rows of `n` fields, as the desugarer expands it, with
/// `pair(i)` planning the `i`-th fields in its order of planning:
/// `=` is `ln = rn AND ... AND l1 = r1` (the last pair first), `<>` its
/// negation, and `<` is `l1 < r1 OR (l1 = r1 AND (l2 < r2 OR ... ln < rn))`,
/// `<=` the same with `ln <= rn` last, and `>` and `>=` alike.
pub(super) fn expand(
    op: &BinaryOperator,
    n: usize,
    mut pair: impl FnMut(usize) -> Result<(Typed, Typed), String>,
) -> Result<Typed, String> {
    use BinaryOperator as B;
    match n {
        0 => return Err("cannot compare rows of zero length".into()),
        _ if !is_comparison(op) => unreachable!("only comparisons are expanded"),
        _ => {}
    }
    if matches!(op, B::Eq | B::NotEq) {
        let mut all: Option<Typed> = None;
        for i in (0..n).rev() {
            let (l, r) = pair(i)?;
            let eq = binary(&B::Eq, l, r)?;
            all = Some(match all {
                None => eq,
                Some(rest) => binary(&B::And, eq, rest)?,
            });
        }
        return Ok(negate(all.expect("n > 0"), *op == B::NotEq));
    }
    let strict = match op {
        B::Lt | B::LtEq => B::Lt,
        _ => B::Gt,
    };
    // Outermost first, as planned: `l1 < r1 OR (l1 = r1 AND <rest>)`.
    let mut levels = Vec::with_capacity(n);
    for i in 0..n - 1 {
        let (l, r) = pair(i)?;
        let before = binary(&strict, l.clone(), r.clone())?;
        levels.push((before, binary(&B::Eq, l, r)?));
    }
    let (l, r) = pair(n - 1)?;
    let mut rest = binary(op, l, r)?;
    for (before, equal) in levels.into_iter().rev() {
        rest = binary(&B::Or, before, binary(&B::And, equal, rest)?)?;
    }
    Ok(rest)
}

/// The error for rows of different widths.
pub(super) fn unequal() -> String {
    "unequal number of entries in row expressions".into()
}

impl ExprContext<'_> {
    /// `(l1, ...) op (r1, ...)`, expanded field by field.
    #[inline(never)]
    pub(super) fn row_comparison(
        &mut self,
        left: &[&Expr],
        op: &BinaryOperator,
        right: &[&Expr],
    ) -> Result<Typed, String> {
        if left.len() != right.len() {
            return Err(unequal());
        }
        expand(op, left.len(), |i| {
            operands(left[i], right[i], |e| self.plan(e))
        })
    }

    /// `(a, b) [NOT] BETWEEN low AND high`, as the desugarer writes it
    /// before rows are expanded: `row >= low AND row <= high`, or for NOT
    /// `row < low OR row > high`.
    #[inline(never)]
    pub(super) fn row_between(
        &mut self,
        row: &Expr,
        low: &Expr,
        high: &Expr,
        negated: bool,
    ) -> Result<Typed, String> {
        use BinaryOperator as B;
        let (above, below, join) = match negated {
            false => (B::GtEq, B::LtEq, B::And),
            true => (B::Lt, B::Gt, B::Or),
        };
        let compare = |op: B, bound: &Expr| Expr::BinaryOp {
            left: Box::new(row.clone()),
            op,
            right: Box::new(bound.clone()),
        };
        let l = self.plan(&compare(above, low))?;
        let r = self.plan(&compare(below, high))?;
        binary(&join, l, r)
    }
}
