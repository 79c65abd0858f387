//! The finishing of a SELECT: ORDER BY (by output column, by position or
//! by an expression over the output) and LIMIT / OFFSET, and the ordinals
//! that GROUP BY and ORDER BY share.

use sqlparser::ast::{Expr, LimitClause, Offset, OrderBy, OrderByKind, OrderBySort, Value};

use super::super::expr::{is_function_keyword, negative_number, ExprContext, Typed};
use super::super::ident;
use crate::plan::OrderColumn;
use crate::repr::unsupported;

/// `n` in `ORDER BY n` / `GROUP BY n`: a 1-based select-list position.
///
/// A number that is no position (`1.5`, `-1`: Materialize's parser reads a
/// minus before a number as part of it) is Materialize's error, whose last
/// part is Rust's, as its planner parses the position the same way.
pub fn position(e: &Expr, len: usize, clause: &str) -> Result<Option<usize>, String> {
    let n = match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.clone(),
            _ => return Ok(None),
        },
        _ => match negative_number(e) {
            Some(n) => n,
            None => return Ok(None),
        },
    };
    match n.parse::<usize>() {
        Ok(p) if (1..=len).contains(&p) => Ok(Some(p - 1)),
        Ok(_) => Err(format!(
            "column reference {n} in {clause} clause is out of range (1 - {len})"
        )),
        Err(e) => Err(format!(
            "unable to parse column reference in {clause} clause: {n}: {e}"
        )),
    }
}

/// ORDER BY as output column positions: a position, an output column's name,
/// or an expression the select list computes; with `hidden`, any other
/// expression too, appended to `outputs` as a column the finishing sorts
/// by and then drops (Materialize's `plan_order_by_exprs` maps it the same
/// way, its finishing's `project` leaving it out); one expression written
/// twice is one column.
pub fn order_by(
    cx: &mut ExprContext,
    order_by: Option<&OrderBy>,
    outputs: &mut Vec<(String, Typed)>,
    hidden: bool,
) -> Result<Vec<OrderColumn>, String> {
    let Some(order_by) = order_by else {
        return Ok(vec![]);
    };
    cx.name = "ORDER BY clause";
    let OrderByKind::Expressions(exprs) = &order_by.kind else {
        return Err(unsupported("ORDER BY ALL"));
    };
    let visible = outputs.len();
    let mut out = vec![];
    for o in exprs {
        let descending = match (&o.options.sort, &o.with_fill) {
            (None | Some(OrderBySort::Asc), None) => false,
            (Some(OrderBySort::Desc), None) => true,
            _ => return Err(unsupported(format!("ORDER BY option: {o}"))),
        };
        let at = order_column(cx, &o.expr, outputs, visible, hidden)?;
        let mut column = OrderColumn::new(at, descending);
        if let Some(nulls_first) = o.options.nulls_first {
            column.nulls_last = !nulls_first;
        }
        out.push(column);
    }
    Ok(out)
}

/// The column `e` sorts by: among the first `visible` of `outputs` by
/// position or name, else any with its planned expression, else a hidden
/// one appended (when `hidden`).
fn order_column(
    cx: &mut ExprContext,
    e: &Expr,
    outputs: &mut Vec<(String, Typed)>,
    visible: usize,
    hidden: bool,
) -> Result<usize, String> {
    if let Some(p) = position(e, visible, "ORDER BY")? {
        return Ok(p);
    }
    if let Some(name) = output_name_reference(e) {
        let named: Vec<usize> = (0..visible).filter(|i| outputs[*i].0 == name).collect();
        if let Some(first) = named.first() {
            if named
                .iter()
                .any(|i| outputs[*i].1.expr != outputs[*first].1.expr)
            {
                return Err(unsupported(format!("ORDER BY an ambiguous name: {name}")));
            }
            return Ok(*first);
        }
    }
    let planned = cx.plan(e)?;
    if let Some(p) = outputs.iter().position(|(_, t)| t.expr == planned.expr) {
        return Ok(p);
    }
    match hidden {
        true => {
            outputs.push((String::new(), planned.typed()));
            Ok(outputs.len() - 1)
        }
        false => Err(unsupported(format!(
            "ORDER BY an expression not in the select list: {e}"
        ))),
    }
}

/// The output column a bare name in ORDER BY or DISTINCT ON may name:
/// none for a name Materialize makes a call before it looks at outputs.
pub(super) fn output_name_reference(e: &Expr) -> Option<String> {
    match e {
        Expr::Identifier(name) => Some(ident(name)).filter(|n| !is_function_keyword(n)),
        _ => None,
    }
}

/// A `LIMIT ... OFFSET ...` clause's limit and offset as written; the
/// other forms (`LIMIT ... BY`, MySQL's `LIMIT o, n`) are refused.
pub fn limit_parts(clause: &LimitClause) -> Result<(&Option<Expr>, &Option<Offset>), String> {
    match clause {
        LimitClause::LimitOffset {
            limit,
            offset,
            limit_by,
        } if limit_by.is_empty() => Ok((limit, offset)),
        _ => Err(unsupported(format!("LIMIT form: {clause}"))),
    }
}

/// LIMIT and OFFSET: (limit, offset), each a non-negative integer literal.
pub fn limit(clause: Option<&LimitClause>) -> Result<(Option<usize>, usize), String> {
    let Some(clause) = clause else {
        return Ok((None, 0));
    };
    let (limit, offset) = limit_parts(clause)?;
    let count = |e: &Expr, what: &str| {
        match e {
            Expr::Value(v) => match &v.value {
                Value::Number(n, _) => n.parse().ok(),
                _ => None,
            },
            _ => None,
        }
        .ok_or_else(|| unsupported(format!("{what} other than an integer literal: {e}")))
    };
    let limit = limit.as_ref().map(|e| count(e, "LIMIT")).transpose()?;
    let offset = offset
        .as_ref()
        .map(|o| count(&o.value, "OFFSET"))
        .transpose()?
        .unwrap_or(0);
    Ok((limit, offset))
}
