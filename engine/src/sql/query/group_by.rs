//! A query's GROUP BY: its expressions as Materialize reads them (a
//! position, a name of a column, of an enclosing query's column, or of a
//! select item's alias), and the grouping they make, each key planned and
//! kept as written (`expr/grouped.rs` matches expressions to keys by it).

use sqlparser::ast::{Expr, GroupByExpr, OrderBy, OrderByKind, Select, SelectItem};

use super::super::expr::{
    contains_aggregate, is_function_keyword, output_name, ExprContext, Grouping, Outer, Scope,
    Typed,
};
use super::super::ident;
use super::finishing::position;
use super::{distinct_on, item_expr, Correlation};
use crate::plan::ScalarExpr;
use crate::repr::unsupported;

/// The query's grouping, if it aggregates: by the GROUP BY keys, or global
/// when it has aggregates or HAVING but no GROUP BY. A nested query groups
/// by its outer row first (its leading columns), so that it aggregates per
/// outer row.
pub(super) fn grouping(
    s: &Select,
    order_by: Option<&OrderBy>,
    scope: &Scope,
    keys: &[&Expr],
    corr: Option<&Correlation>,
) -> Result<Option<Grouping>, String> {
    // An aggregate anywhere but WHERE makes the query aggregate (an ORDER BY
    // one too, as in the real system, so the select list must group).
    let ordered = order_by.is_some_and(|o| match &o.kind {
        OrderByKind::Expressions(exprs) => exprs.iter().any(|o| contains_aggregate(&o.expr)),
        OrderByKind::All(_) => false,
    });
    let aggregates = ordered
        || distinct_on::aggregates(s)
        || s.projection.iter().any(|item| match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                contains_aggregate(e)
            }
            _ => false,
        });
    if keys.is_empty() && s.having.is_none() && !aggregates {
        return Ok(None);
    }
    let mut cx = ExprContext::within(
        scope,
        "aggregate functions are not allowed in GROUP BY clause",
        corr.map(|c| c.outer),
    );
    let prefix = corr
        .into_iter()
        .flat_map(|c| c.prefix.columns.iter().enumerate());
    let mut planned: Vec<Typed> = prefix
        .map(|(i, c)| Typed::of_column(ScalarExpr::Column(i), c))
        .collect();
    let mut written = vec![None; planned.len()];
    for e in keys {
        planned.push(cx.plan(e)?);
        written.push(Some((*e).clone()));
    }
    Ok(Some(Grouping {
        keys: planned,
        written,
        aggregates: vec![],
    }))
}

/// The GROUP BY expressions, as the real system reads them: a position
/// is the select item it counts to; a plain name is a column of the FROM
/// clause or of an enclosing query if there is one, else the select item
/// it is the alias of (two such items are ambiguous).
pub(super) fn group_by<'s>(
    s: &'s Select,
    scope: &Scope,
    outer: Option<&dyn Outer>,
) -> Result<Vec<&'s Expr>, String> {
    let GroupByExpr::Expressions(keys, modifiers) = &s.group_by else {
        return Err(unsupported("GROUP BY ALL"));
    };
    if !modifiers.is_empty() {
        return Err(unsupported(format!("GROUP BY modifiers: {}", s.group_by)));
    }
    let item = |p: usize| match &s.projection[p] {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Ok(e),
        _ => Err(unsupported("GROUP BY a position beside a wildcard")),
    };
    let wildcards = s.projection.iter().any(|i| item_expr(i).is_none());
    keys.iter()
        .map(|key| {
            if let Some(p) = position(key, s.projection.len(), "GROUP BY")? {
                return match wildcards {
                    true => Err(unsupported("GROUP BY a position beside a wildcard")),
                    false => item(p),
                };
            }
            let Expr::Identifier(name) = key else {
                return Ok(key);
            };
            let name = ident(name);
            if is_function_keyword(&name) {
                return Ok(key);
            }
            match scope.resolve(None, &name) {
                Err(e) if e.ends_with("does not exist") => {}
                _ => return Ok(key),
            }
            // An enclosing query's column comes before an alias, as
            // Materialize's `plan_identifier` finds it first.
            if let Some(Ok(Some(_))) = outer.map(|o| o.resolve(None, &name)) {
                return Ok(key);
            }
            let aliased: Vec<usize> = (0..s.projection.len())
                .filter(|p| matches!(&s.projection[*p], SelectItem::ExprWithAlias { alias, .. } if ident(alias) == name))
                .collect();
            match aliased.as_slice() {
                [] if s.projection.iter().any(|i| matches!(i, SelectItem::UnnamedExpr(e) if output_name(e, &|_| None) == name)) => {
                    Err(unsupported("GROUP BY the implicit name of a select item"))
                }
                [] => Ok(key),
                [p] => item(*p),
                _ => Err(format!("column reference \"{name}\" is ambiguous")),
            }
        })
        .collect()
}
