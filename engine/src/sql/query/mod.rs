//! SELECT: FROM with inner equi-joins, WHERE, GROUP BY and HAVING, the select
//! list, DISTINCT, and the ORDER BY / LIMIT finishing.
//!
//! `from` plans the FROM clause, `finishing` the ORDER BY and LIMIT; the
//! rest of the SELECT is planned here.

mod finishing;
mod from;

use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, Query, Select, SelectItem, SelectItemQualifiedWildcardKind,
    SetExpr, TableWithJoins, WildcardAdditionalOptions,
};

use super::expr::{
    contains_aggregate, output_name, where_clause, ExprContext, Grouping, Scope, Typed,
};
use super::{ident, object_name};
use crate::plan::{Finishing, RelationPlan, Resolver, ScalarExpr, SimpleSelect};
use crate::repr::Column;
use finishing::{limit, order_by, position};
use from::plan_from;

/// A planned SELECT.
#[derive(Debug)]
pub(super) struct PlannedQuery {
    pub plan: RelationPlan,
    pub columns: Vec<Column>,
    pub finishing: Finishing,
    pub simple: Option<SimpleSelect>,
}

pub(super) fn plan_query(catalog: &dyn Resolver, q: &Query) -> Result<PlannedQuery, String> {
    if q.with.is_some() {
        return Err("WITH is not supported".into());
    }
    if q.fetch.is_some() || !q.locks.is_empty() || q.for_clause.is_some() {
        return Err(format!("query not supported: {q}"));
    }
    let s = match &*q.body {
        SetExpr::Select(s) => s,
        SetExpr::Query(_) => return Err("subqueries are not supported".into()),
        SetExpr::SetOperation { op, .. } => return Err(format!("{op} is not supported")),
        body => return Err(format!("query not supported: {body}")),
    };
    if s.top.is_some() || s.into.is_some() || s.qualify.is_some() || !s.named_window.is_empty() {
        return Err(format!("SELECT not supported: {s}"));
    }
    let (limit, offset) = limit(q.limit_clause.as_ref())?;

    let mut from = plan_from(catalog, &s.from)?;
    if let Some(selection) = &s.selection {
        let predicates = where_clause(&from.scope, selection)?;
        from.predicates.extend(predicates);
    }
    let simple = simple_shape(q, s).then(|| from.simple()).flatten();
    let scope = from.scope.clone();
    let input = from.into_plan();

    let group_by = group_by(s)?;
    let mut grouping = grouping(s, &scope, &group_by)?;
    let mut cx = ExprContext::plain(
        &scope,
        "aggregate functions are not allowed in ORDER BY clause",
    );
    cx.grouping = grouping.as_mut();
    let outputs = projection(&mut cx, &s.projection)?;
    let having = match &s.having {
        Some(h) => cx.predicate(h, "HAVING clause")?,
        None => vec![],
    };
    let order_by = order_by(&mut cx, q.order_by.as_ref(), &outputs)?;

    let (mut plan, arity) = match grouping {
        None => (input, scope.items.len()),
        Some(grouping) => reduce(input, scope.items.len(), grouping, group_by.is_empty()),
    };
    plan = filter(plan, having);
    let exprs: Vec<Typed> = outputs.iter().map(|(_, t)| t.clone()).collect();
    plan = project(plan, arity, &exprs);
    match &s.distinct {
        None | Some(Distinct::All) => {}
        Some(Distinct::Distinct) => {
            plan = RelationPlan::Distinct {
                input: Box::new(plan),
            }
        }
        Some(Distinct::On(_)) => return Err("SELECT DISTINCT ON is not supported".into()),
    }
    Ok(PlannedQuery {
        plan,
        columns: outputs
            .into_iter()
            .map(|(name, t)| t.column(name))
            .collect(),
        finishing: Finishing {
            order_by,
            limit,
            offset,
        },
        simple,
    })
}

/// The query's grouping, if it aggregates: by the GROUP BY keys, or global
/// when it has aggregates or HAVING but no GROUP BY.
fn grouping(s: &Select, scope: &Scope, keys: &[&Expr]) -> Result<Option<Grouping>, String> {
    let aggregates = s.projection.iter().any(|item| match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            contains_aggregate(e)
        }
        _ => false,
    });
    if keys.is_empty() && s.having.is_none() && !aggregates {
        return Ok(None);
    }
    let mut cx = ExprContext::plain(
        scope,
        "aggregate functions are not allowed in GROUP BY clause",
    );
    let keys = keys.iter().map(|e| cx.plan(e)).collect::<Result<_, _>>()?;
    Ok(Some(Grouping {
        keys,
        aggregates: vec![],
    }))
}

/// `SELECT * FROM x [WHERE ...]`, the shape a fast-path peek serves.
fn simple_shape(q: &Query, s: &Select) -> bool {
    matches!(s.projection.as_slice(), [SelectItem::Wildcard(o)] if plain_wildcard(o))
        && matches!(s.from.as_slice(), [TableWithJoins { joins, .. }] if joins.is_empty())
        && s.distinct.is_none()
        && s.having.is_none()
        && matches!(&s.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty())
        && q.order_by.is_none()
        && q.limit_clause.is_none()
}

/// The grouping's reduce over `input` (of `arity` columns), and its arity.
fn reduce(
    input: RelationPlan,
    arity: usize,
    grouping: Grouping,
    global: bool,
) -> (RelationPlan, usize) {
    let (input, _, group_key) = as_columns(input, arity, &grouping.keys);
    let arity = group_key.len() + grouping.aggregates.len();
    let reduce = RelationPlan::Reduce {
        input: Box::new(input),
        group_key,
        aggregates: grouping.aggregates,
        global,
    };
    (reduce, arity)
}

/// `exprs` over `input` (of `arity` columns), without a no-op Project.
fn project(input: RelationPlan, arity: usize, exprs: &[Typed]) -> RelationPlan {
    let (input, mapped, columns) = as_columns(input, arity, exprs);
    match columns.iter().copied().eq(0..mapped) {
        true => input,
        false => RelationPlan::Project {
            input: Box::new(input),
            columns,
        },
    }
}

fn filter(input: RelationPlan, predicates: Vec<ScalarExpr>) -> RelationPlan {
    match predicates.is_empty() {
        true => input,
        false => RelationPlan::Filter {
            input: Box::new(input),
            predicates,
        },
    }
}

/// Positions of `exprs` over `input` (of `arity` columns): a column is its
/// own position; any other expression is mapped onto the end of the input.
/// Also returns the arity of the mapped input.
fn as_columns(
    input: RelationPlan,
    arity: usize,
    exprs: &[Typed],
) -> (RelationPlan, usize, Vec<usize>) {
    let mut mapped = vec![];
    let columns = exprs
        .iter()
        .map(|t| match t.expr {
            ScalarExpr::Column(i) => i,
            ref e => {
                mapped.push(e.clone());
                arity + mapped.len() - 1
            }
        })
        .collect();
    let mapped_arity = arity + mapped.len();
    let input = match mapped.is_empty() {
        true => input,
        false => RelationPlan::Map {
            input: Box::new(input),
            exprs: mapped,
        },
    };
    (input, mapped_arity, columns)
}

fn plain_wildcard(o: &WildcardAdditionalOptions) -> bool {
    o.opt_ilike.is_none()
        && o.opt_exclude.is_none()
        && o.opt_except.is_none()
        && o.opt_replace.is_none()
        && o.opt_rename.is_none()
        && o.opt_alias.is_none()
}

/// The GROUP BY expressions, positions replaced by the select items they name.
fn group_by(s: &Select) -> Result<Vec<&Expr>, String> {
    let GroupByExpr::Expressions(keys, modifiers) = &s.group_by else {
        return Err("GROUP BY ALL is not supported".into());
    };
    if !modifiers.is_empty() {
        return Err(format!("GROUP BY not supported: {}", s.group_by));
    }
    keys.iter()
        .map(|key| match position(key, s.projection.len(), "GROUP BY")? {
            None => Ok(key),
            Some(p) => match &s.projection[p] {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Ok(e),
                _ => Err(format!("GROUP BY position {} is not an expression", p + 1)),
            },
        })
        .collect()
}

/// The select list: each output column's name and expression.
fn projection(cx: &mut ExprContext, items: &[SelectItem]) -> Result<Vec<(String, Typed)>, String> {
    let mut out = vec![];
    for item in items {
        let table = match item {
            SelectItem::UnnamedExpr(e) => {
                out.push((output_name(e), cx.plan(e)?));
                continue;
            }
            SelectItem::ExprWithAlias { expr, alias } => {
                out.push((ident(alias), cx.plan(expr)?));
                continue;
            }
            SelectItem::Wildcard(o) if plain_wildcard(o) => {
                if cx.scope.items.is_empty() {
                    return Err("SELECT * with no tables specified is not valid".into());
                }
                None
            }
            SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(name), o)
                if plain_wildcard(o) =>
            {
                let table = object_name(name)?;
                if !cx.scope.has_table(&table) {
                    return Err(format!("missing FROM-clause entry for table \"{table}\""));
                }
                Some(table)
            }
            _ => return Err(format!("select item not supported: {item}")),
        };
        for (i, item) in cx.scope.items.iter().enumerate() {
            if table.as_ref().is_none_or(|t| *t == item.table) {
                out.push((item.column.name.clone(), cx.column_at(i)?));
            }
        }
    }
    Ok(out)
}
