//! The first construct of an expression that planning would refuse, found
//! without planning it. When planning fails with a real error (a column
//! that does not exist), a construct the engine does not implement anywhere
//! in the statement is what is reported instead: the real system checks
//! in its own order and may find another error first, or none.

use sqlparser::ast::{
    AccessExpr, BinaryOperator, CastKind, DataType, Expr, FunctionArguments, InTarget, Subscript,
    UnaryOperator, Value,
};

use super::aggregate_call::aggregate_call;
use super::call_syntax::{special_args, special_refusal};
use super::float::numeric_literal;
use super::session_func::is_session_function;
use super::typed::jsonb::is_jsonb_operator;
use super::typed::range::is_range_operator;
use super::typed::text::is_text_operator;
use super::typed::{int_literal, literal, scalar_type};
use super::window::window_exprs;
use super::{forms, function_name, is_scalar_function, like_operator, plain_args, RESERVED};
use super::{list, row, time};
use crate::recursion::grown;
use crate::repr::{unsupported, UNSUPPORTED};

/// The refusal of the first construct of `e` the planner does not plan.
pub fn first_refusal(e: &Expr) -> Option<String> {
    first_refusal_within(e, 0)
}

fn first_refusal_within(e: &Expr, depth: usize) -> Option<String> {
    // Planning refuses deeper nesting with its own error.
    if depth > super::RECURSION_LIMIT {
        return None;
    }
    // Each level on a stack grown as it needs, as every walk is
    // (docs/semantics.md, "Recursion limits").
    let walk = |e: &Expr| grown(|| first_refusal_within(e, depth + 1));
    fn refused<T>(r: Result<T, String>) -> Option<String> {
        r.err().filter(|e| e.starts_with(UNSUPPORTED))
    }
    match e {
        Expr::Identifier(id) => {
            let reserved =
                id.quote_style.is_none() && RESERVED.contains(&id.value.to_lowercase().as_str());
            reserved.then(|| unsupported(format!("reserved keyword {} as a name", id.value)))
        }
        Expr::CompoundIdentifier(parts) if parts.len() == 2 => None,
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => refused(int_literal(n)),
            other => refused(literal(other)),
        },
        Expr::Nested(e) | Expr::IsNull(e) | Expr::IsNotNull(e) => walk(e),
        Expr::UnaryOp { op, expr } => match op {
            UnaryOperator::Minus | UnaryOperator::Plus | UnaryOperator::Not => walk(expr),
            _ => Some(unsupported(format!("operator {op}"))),
        },
        // Rows the planner expands field by field (`row.rs`).
        Expr::BinaryOp { left, op, right } if row::comparison(left, op, right).is_some() => {
            let (l, r) = row::comparison(left, op, right)?;
            l.into_iter().chain(r).find_map(walk)
        }
        Expr::BinaryOp { left, op, right } => {
            use BinaryOperator as B;
            let planned = matches!(
                op,
                B::Plus
                    | B::Minus
                    | B::Multiply
                    | B::Divide
                    | B::Modulo
                    | B::Eq
                    | B::NotEq
                    | B::Lt
                    | B::LtEq
                    | B::Gt
                    | B::GtEq
                    | B::And
                    | B::Or
            ) || is_range_operator(op)
                || is_jsonb_operator(op)
                || is_text_operator(op)
                || like_operator(op).is_some();
            match planned {
                false => Some(unsupported(format!("operator {op}"))),
                true => walk(left).or_else(|| walk(right)),
            }
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            global: false,
            ..
        } => match row::fields(expr) {
            Some(fields) => fields.into_iter().find_map(walk).or_else(|| {
                let mut items = list.iter().map(|item| row::fields(item).ok_or(item));
                items.find_map(|item| match item {
                    Ok(fields) => fields.into_iter().find_map(walk),
                    Err(item) => walk(item).or_else(|| Some(unsupported("expression tuple"))),
                })
            }),
            None => walk(expr).or_else(|| list.iter().find_map(walk)),
        },
        // A subquery's own refusals are found when it is planned, before
        // any error of the query around it is.
        Expr::Subquery(_) | Expr::Exists { .. } => None,
        Expr::In {
            expr,
            target: InTarget::Subquery(_),
            global: false,
            ..
        } => row::operand(expr).into_iter().find_map(walk),
        Expr::AnyOp { left, right, .. } | Expr::AllOp { left, right, .. }
            if matches!(**right, Expr::Subquery(_)) =>
        {
            row::operand(left).into_iter().find_map(walk)
        }
        Expr::AnyOp { .. } | Expr::AllOp { .. } => {
            let (left, op, right, _) = super::walk::any_or_all(e)?;
            refused(super::array::quantified_operator(op))
                .or_else(|| walk(left))
                .or_else(|| walk(right))
        }
        Expr::Between {
            expr, low, high, ..
        } => match (row::fields(expr), row::fields(low), row::fields(high)) {
            (Some(e), Some(l), Some(h)) => e.into_iter().chain(l).chain(h).find_map(walk),
            _ => walk(expr).or_else(|| walk(low)).or_else(|| walk(high)),
        },
        Expr::Like {
            any: false,
            expr,
            pattern,
            escape_char: None,
            ..
        }
        | Expr::ILike {
            any: false,
            expr,
            pattern,
            escape_char: None,
            ..
        } => walk(expr).or_else(|| walk(pattern)),
        Expr::Cast {
            kind: CastKind::Cast | CastKind::DoubleColon,
            expr,
            data_type,
            format: None,
        } if float_literal_cast(expr, data_type) => None,
        Expr::Cast {
            kind: CastKind::Cast | CastKind::DoubleColon,
            expr,
            data_type,
            format: None,
        } => refused(scalar_type(data_type)).or_else(|| walk(expr)),
        Expr::Function(f) if f.over.is_some() => match window_exprs(f) {
            Err(e) => refused::<()>(Err(e)),
            Ok(exprs) => exprs.into_iter().find_map(walk),
        },
        Expr::Function(f) => {
            let args = match function_name(f).as_str() {
                _ if list::is_constructor(f) => plain_args(f),
                "coalesce" => plain_args(f),
                name if is_scalar_function(name) => plain_args(f),
                name if is_session_function(name) => match &f.args {
                    FunctionArguments::None => Ok(vec![]),
                    _ => plain_args(f),
                },
                _ => aggregate_call(f).map(|call| call.exprs().collect()),
            };
            match args {
                Err(e) => refused::<()>(Err(e)),
                Ok(args) => match &f.args {
                    FunctionArguments::List(_) => args.into_iter().find_map(walk),
                    _ => None,
                },
            }
        }
        Expr::Substring { .. }
        | Expr::Position { .. }
        | Expr::Trim { .. }
        | Expr::Ceil { .. }
        | Expr::Floor { .. }
        | Expr::Extract { .. } => {
            special_refusal(e).or_else(|| special_args(e).into_iter().find_map(walk))
        }
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => operand
            .as_deref()
            .and_then(walk)
            .or_else(|| {
                conditions
                    .iter()
                    .find_map(|w| walk(&w.condition).or_else(|| walk(&w.result)))
            })
            .or_else(|| else_result.as_deref().and_then(walk)),
        Expr::TypedString(_) | Expr::Interval(_) => time::refusal(e),
        // Inside `ARRAY[...]`, `[...]` is an array too; outside, the
        // planner refuses it.
        Expr::Array(a) => a.elem.iter().find_map(walk),
        Expr::CompoundFieldAccess { root, access_chain } => super::array::constructor(root)
            .or_else(|| walk(root))
            .or_else(|| {
                access_chain.iter().find_map(|a| match a {
                    AccessExpr::Subscript(Subscript::Index { index }) => walk(index),
                    AccessExpr::Subscript(_) => None,
                    AccessExpr::Dot(_) => Some(unsupported("field access")),
                })
            }),
        other => Some(unsupported(forms::expr(other))),
    }
}

/// Whether `expr` cast to `data_type` is a numeric literal cast to a
/// float, which is that float. Out of line, so that the walk's frame stays
/// small.
#[inline(never)]
fn float_literal_cast(expr: &Expr, data_type: &DataType) -> bool {
    scalar_type(data_type).is_ok_and(|to| to.is_float()) && numeric_literal(expr).is_some()
}
