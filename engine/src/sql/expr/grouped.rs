//! Which expressions under a GROUP BY are its keys, as Materialize finds
//! them: by syntax. Its group scope keeps, for each key, the GROUP BY
//! expressions that planned to it, as written, and an expression of the
//! select list, HAVING or ORDER BY is a key when it is written as one of
//! them (its `Scope::resolve_expr`, at every level of `plan_expr`; a
//! literal never is one). So `t.a + 1` is not `a + 1`, nor `1 + a`, nor
//! `a + (0 + 1)`: their columns must then be grouped on their own.
//! A name is a key when it names a key column, however qualified (its
//! group scope holds the column's names).
//!
//! Syntax is compared as Materialize's parser, name resolution and
//! desugaring (`transform_ast`) leave it: a name folded to lower case
//! unless quoted, parentheses dropped, `CAST(x AS t)` the same as `x::t`,
//! a type by what it names. Its desugaring also rewrites `BETWEEN` and
//! some functions (`mod` is `%`) into other forms, which are compared
//! here as different forms, undecided. Where the engine cannot tell
//! whether two texts are the same to Materialize (a form compared here
//! by sqlparser's own equality) and they plan to the same expression,
//! the expression is refused by name rather than guessed.

use sqlparser::ast::{
    CastKind, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, InTarget,
};

use super::super::ident;
use super::typed::scalar_type;
use super::{function_name, ExprContext, Typed};
use crate::plan::ScalarExpr;
use crate::repr::unsupported;

impl ExprContext<'_> {
    /// Under GROUP BY: `e` as a key column, if it is written as a key.
    pub(super) fn key(&self, e: &Expr) -> Result<Option<Typed>, String> {
        let Some(grouping) = self.grouping.as_ref() else {
            return Ok(None);
        };
        let column = |k: usize| Typed {
            expr: ScalarExpr::Column(k),
            ..grouping.keys[k].clone()
        };
        let planned = || ExprContext::plain(self.scope, "").plan(e).ok();
        let planned_key = |p: Typed| grouping.keys.iter().position(|k| k.expr == p.expr);
        match e {
            Expr::Value(_) => return Ok(None),
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => {
                // A name finds a key column by what it names.
                let key = planned().and_then(planned_key);
                let key = key.filter(|k| matches!(grouping.keys[*k].expr, ScalarExpr::Column(_)));
                return Ok(key.map(column));
            }
            _ => {}
        }
        let mut undecided = false;
        for (k, written) in grouping.written.iter().enumerate() {
            match written.as_ref().map(|w| same(w, e)) {
                Some(Some(true)) => return Ok(Some(column(k))),
                Some(None) => undecided = true,
                _ => {}
            }
        }
        if undecided && planned().and_then(planned_key).is_some() {
            return Err(unsupported(format!(
                "an expression that may be a GROUP BY expression written otherwise: {e}"
            )));
        }
        Ok(None)
    }
}

/// Which form of a string literal `v` is written in, if it is one.
fn string_form(v: &sqlparser::ast::Value) -> Option<std::mem::Discriminant<sqlparser::ast::Value>> {
    use sqlparser::ast::Value::*;
    matches!(
        v,
        SingleQuotedString(_)
            | EscapedStringLiteral(_)
            | DollarQuotedString(_)
            | NationalStringLiteral(_)
            | UnicodeStringLiteral(_)
    )
    .then(|| std::mem::discriminant(v))
}

/// Whether `a` and `b` are the same text to Materialize: `Some(false)`
/// where they surely differ, `None` where the engine cannot tell.
fn same(a: &Expr, b: &Expr) -> Option<bool> {
    crate::recursion::grown(|| compared(a, b))
}

fn compared(a: &Expr, b: &Expr) -> Option<bool> {
    use Expr::*;
    match (a, b) {
        // Materialize's desugaring drops every pair of parentheses.
        (Nested(a), b) | (b, Nested(a)) => same(a, b),
        (Identifier(x), Identifier(y)) => Some(ident(x) == ident(y)),
        (CompoundIdentifier(x), CompoundIdentifier(y)) => {
            Some(x.len() == y.len() && x.iter().zip(y).all(|(x, y)| ident(x) == ident(y)))
        }
        // Materialize's lexer reads every form of a string literal into one
        // `Value::String` of its text; whether sqlparser's forms (`'x'`,
        // `E'x'`, `$$x$$`) hold the same text the engine does not tell.
        (Value(x), Value(y)) if string_form(&x.value) != string_form(&y.value) => {
            match string_form(&x.value).is_some() && string_form(&y.value).is_some() {
                true => None,
                false => Some(false),
            }
        }
        (Value(x), Value(y)) => Some(x == y),
        (UnaryOp { op, expr: x }, UnaryOp { op: o, expr: y }) => {
            all_same([Some(op == o), same(x, y)])
        }
        (
            BinaryOp { left, op, right },
            BinaryOp {
                left: l,
                op: o,
                right: r,
            },
        ) => all_same([Some(op == o), same(left, l), same(right, r)]),
        (IsNull(x), IsNull(y)) | (IsNotNull(x), IsNotNull(y)) => same(x, y),
        (
            Cast {
                kind,
                expr: x,
                data_type,
                format: None,
            },
            Cast {
                kind: k,
                expr: y,
                data_type: d,
                format: None,
            },
        ) if cast_syntax(kind) && cast_syntax(k) => {
            let types = match (scalar_type(data_type), scalar_type(d)) {
                (Ok(t), Ok(u)) => Some(t == u),
                _ => None,
            };
            all_same([types, same(x, y)])
        }
        (
            In {
                expr: x,
                target: InTarget::List(list),
                negated,
                global: false,
            },
            In {
                expr: y,
                target: InTarget::List(l),
                negated: n,
                global: false,
            },
        ) => all_same(
            [Some(negated == n && list.len() == l.len()), same(x, y)]
                .into_iter()
                .chain(list.iter().zip(l).map(|(a, b)| same(a, b))),
        ),
        (
            Between {
                expr: x,
                negated,
                low,
                high,
            },
            Between {
                expr: y,
                negated: n,
                low: lo,
                high: hi,
            },
        ) => all_same([
            Some(negated == n),
            same(x, y),
            same(low, lo),
            same(high, hi),
        ]),
        (
            Case {
                operand,
                conditions,
                else_result,
                ..
            },
            Case {
                operand: o,
                conditions: c,
                else_result: e,
                ..
            },
        ) => {
            let optional = |a: &Option<Box<Expr>>, b: &Option<Box<Expr>>| match (a, b) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => Some(true),
                _ => Some(false),
            };
            let arms = conditions.iter().zip(c).map(|(a, b)| {
                all_same([same(&a.condition, &b.condition), same(&a.result, &b.result)])
            });
            all_same(
                [
                    Some(conditions.len() == c.len()),
                    optional(operand, o),
                    optional(else_result, e),
                ]
                .into_iter()
                .chain(arms),
            )
        }
        (Function(f), Function(g)) => functions(f, g),
        _ if a == b => Some(true),
        // Two forms the comparison knows are different texts.
        _ if known(a) && known(b) => Some(false),
        _ => None,
    }
}

/// `CAST(x AS t)` and `x::t`, one form to Materialize.
fn cast_syntax(kind: &CastKind) -> bool {
    matches!(kind, CastKind::Cast | CastKind::DoubleColon)
}

/// The forms `compared` reads that Materialize's desugaring leaves as
/// they are (it rewrites `BETWEEN` into comparisons).
fn known(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Identifier(_)
            | Expr::CompoundIdentifier(_)
            | Expr::Value(_)
            | Expr::UnaryOp { .. }
            | Expr::BinaryOp { .. }
            | Expr::IsNull(_)
            | Expr::IsNotNull(_)
            | Expr::In {
                target: InTarget::List(_),
                ..
            }
            | Expr::Case { .. }
    )
}

/// Two calls of unqualified names with plain arguments; any other call is
/// compared by sqlparser's equality, undecided where it differs.
fn functions(f: &Function, g: &Function) -> Option<bool> {
    let plain = |f: &Function| {
        f.name.0.len() == 1
            && f.filter.is_none()
            && f.over.is_none()
            && f.within_group.is_empty()
            && f.null_treatment.is_none()
            && matches!(f.parameters, FunctionArguments::None)
    };
    let (FunctionArguments::List(x), FunctionArguments::List(y)) = (&f.args, &g.args) else {
        return (f == g).then_some(true);
    };
    if !plain(f) || !plain(g) || !x.clauses.is_empty() || !y.clauses.is_empty() {
        return (f == g).then_some(true);
    }
    let arg = |a: &FunctionArg, b: &FunctionArg| match (a, b) {
        (
            FunctionArg::Unnamed(FunctionArgExpr::Expr(a)),
            FunctionArg::Unnamed(FunctionArgExpr::Expr(b)),
        ) => same(a, b),
        _ => (a == b).then_some(true),
    };
    all_same(
        [
            // Materialize renames some (`pow` is `power`): undecided.
            (function_name(f) == function_name(g)).then_some(true),
            Some(x.duplicate_treatment == y.duplicate_treatment && x.args.len() == y.args.len()),
        ]
        .into_iter()
        .chain(x.args.iter().zip(&y.args).map(|(a, b)| arg(a, b))),
    )
}

/// Same if every part is, different if any part is, else undecided.
fn all_same(parts: impl IntoIterator<Item = Option<bool>>) -> Option<bool> {
    let mut undecided = false;
    for part in parts {
        match part {
            Some(false) => return Some(false),
            None => undecided = true,
            Some(true) => {}
        }
    }
    (!undecided).then_some(true)
}
