//! SELECT: FROM with inner equi-joins, WHERE, GROUP BY and HAVING, the select
//! list, DISTINCT, and the ORDER BY / LIMIT finishing.
//!
//! `from` plans the FROM clause, `finishing` the ORDER BY and LIMIT; the
//! rest of the SELECT is planned here.

mod finishing;
mod from;

use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, OrderBy, OrderByKind, Query, Select, SelectFlavor, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, TableFactor, TableWithJoins,
    WildcardAdditionalOptions,
};

use super::expr::{
    contains_aggregate, first_refusal, output_name, where_clause, ExprContext, Grouping, Scope,
    Typed,
};
use super::{clauses, forms, ident, object_name};
use crate::plan::{Finishing, RelationPlan, Resolver, ScalarExpr, SimpleSelect};
use crate::repr::{unsupported, Column, UNSUPPORTED};
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

/// Plans a SELECT. When it fails with a real error but has a construct
/// the engine does not implement, that construct is refused instead: the
/// real system checks in its own order, and may not fail at all.
pub(super) fn plan_query(catalog: &dyn Resolver, q: &Query) -> Result<PlannedQuery, String> {
    plan_select(catalog, q).map_err(|e| match e.starts_with(UNSUPPORTED) {
        true => e,
        false => first_refusal_in(q).unwrap_or(e),
    })
}

/// The first construct of `q` that planning refuses, found without planning.
fn first_refusal_in(q: &Query) -> Option<String> {
    let s = match select_of(q) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    for table in &s.from {
        let factors =
            std::iter::once(&table.relation).chain(table.joins.iter().map(|j| &j.relation));
        for factor in factors {
            if !matches!(factor, TableFactor::Table { .. }) {
                return Some(unsupported(forms::table_factor(factor)));
            }
        }
        for join in &table.joins {
            use sqlparser::ast::{JoinConstraint, JoinOperator as J};
            match &join.join_operator {
                J::Join(c) | J::Inner(c) | J::CrossJoin(c) | J::Left(c) | J::LeftOuter(c) => {
                    if let JoinConstraint::On(e) = c {
                        if let Some(r) = first_refusal(e) {
                            return Some(r);
                        }
                    }
                }
                other => return Some(unsupported(forms::join_operator(other))),
            }
        }
    }
    let keys = match &s.group_by {
        GroupByExpr::Expressions(keys, _) => keys.as_slice(),
        GroupByExpr::All(_) => &[],
    };
    let ordered = match q.order_by.as_ref().map(|o| &o.kind) {
        Some(OrderByKind::Expressions(exprs)) => exprs.iter().map(|o| &o.expr).collect(),
        _ => Vec::new(),
    };
    s.projection
        .iter()
        .filter_map(item_expr)
        .chain(s.selection.iter())
        .chain(keys)
        .chain(s.having.iter())
        .chain(ordered)
        .find_map(first_refusal)
}

fn plan_select(catalog: &dyn Resolver, q: &Query) -> Result<PlannedQuery, String> {
    let s = select_of(q)?;
    let (limit, offset) = limit(q.limit_clause.as_ref())?;

    let mut from = plan_from(catalog, &s.from)?;
    if let Some(selection) = &s.selection {
        let predicates = where_clause(&from.scope, selection)?;
        from.predicates.extend(predicates);
    }
    let simple = simple_shape(q, s).then(|| from.simple()).flatten();
    let scope = from.scope.clone();
    let input = from.into_plan();

    let group_by = group_by(s, &scope)?;
    let mut grouping = grouping(s, q.order_by.as_ref(), &scope, &group_by)?;
    let mut cx = ExprContext::plain(
        &scope,
        "aggregate functions are not allowed in ORDER BY clause",
    );
    cx.grouping = grouping.as_mut();
    let outputs = projection(&mut cx, &s.projection, s.from.is_empty())?;
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
        Some(Distinct::On(_)) => return Err(unsupported("SELECT DISTINCT ON")),
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

/// The SELECT of a query, every clause the planner does not plan refused.
/// `Query` and `Select` are taken apart to their last field, so that a
/// field a new sqlparser adds cannot go unnoticed: it fails to compile
/// here until it is planned or refused.
fn select_of(q: &Query) -> Result<&Select, String> {
    let Query {
        with,
        body,
        order_by: _,
        limit_clause: _,
        fetch,
        locks,
        for_clause,
        settings,
        format_clause,
        pipe_operators,
    } = q;
    let refused = [
        (with.is_some(), "WITH"),
        (fetch.is_some(), "FETCH"),
        (!locks.is_empty(), "FOR UPDATE"),
        (for_clause.is_some(), "FOR XML/JSON"),
        (settings.is_some(), "SETTINGS"),
        (format_clause.is_some(), "FORMAT"),
        (!pipe_operators.is_empty(), "pipe operators"),
    ];
    if let Some((_, what)) = refused.iter().find(|(set, _)| *set) {
        return Err(unsupported(what));
    }
    let s = match &**body {
        SetExpr::Select(s) => s,
        SetExpr::Query(_) => return Err(unsupported("subquery")),
        SetExpr::SetOperation { op, .. } => return Err(unsupported(op)),
        other => return Err(unsupported(forms::set_expr(other))),
    };
    let Select {
        select_token: _,
        optimizer_hints,
        distinct: _,
        select_modifiers,
        top,
        top_before_distinct: _,
        projection: _,
        exclude,
        into,
        from: _,
        lateral_views,
        prewhere,
        selection: _,
        connect_by,
        group_by: _,
        cluster_by,
        distribute_by,
        sort_by,
        having: _,
        named_window,
        qualify,
        window_before_qualify: _,
        value_table_mode,
        flavor,
    } = &**s;
    clauses::refuse(&[
        (!optimizer_hints.is_empty(), "optimizer hints"),
        (select_modifiers.is_some(), "SELECT modifiers"),
        (top.is_some(), "TOP"),
        (exclude.is_some(), "EXCLUDE"),
        (into.is_some(), "SELECT INTO"),
        (!lateral_views.is_empty(), "LATERAL VIEW"),
        (prewhere.is_some(), "PREWHERE"),
        (!connect_by.is_empty(), "CONNECT BY"),
        (!cluster_by.is_empty(), "CLUSTER BY"),
        (!distribute_by.is_empty(), "DISTRIBUTE BY"),
        (!sort_by.is_empty(), "SORT BY"),
        (!named_window.is_empty(), "WINDOW"),
        (qualify.is_some(), "QUALIFY"),
        (value_table_mode.is_some(), "SELECT AS VALUE"),
        (*flavor != SelectFlavor::Standard, "FROM before SELECT"),
    ])?;
    Ok(s)
}

/// The query's grouping, if it aggregates: by the GROUP BY keys, or global
/// when it has aggregates or HAVING but no GROUP BY.
fn grouping(
    s: &Select,
    order_by: Option<&OrderBy>,
    scope: &Scope,
    keys: &[&Expr],
) -> Result<Option<Grouping>, String> {
    // An aggregate anywhere but WHERE makes the query aggregate (an ORDER BY
    // one too, as in the real system, so the select list must group).
    let ordered = order_by.is_some_and(|o| match &o.kind {
        OrderByKind::Expressions(exprs) => exprs.iter().any(|o| contains_aggregate(&o.expr)),
        OrderByKind::All(_) => false,
    });
    let aggregates = ordered
        || s.projection.iter().any(|item| match item {
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

/// The GROUP BY expressions, as the real system reads them: a position
/// is the select item it counts to; a plain name is a column of the FROM
/// clause if there is one, else the select item it is the alias of (two
/// such items are ambiguous).
fn group_by<'s>(s: &'s Select, scope: &Scope) -> Result<Vec<&'s Expr>, String> {
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
            match scope.resolve(None, &name) {
                Err(e) if e.ends_with("does not exist") => {}
                _ => return Ok(key),
            }
            let aliased: Vec<usize> = (0..s.projection.len())
                .filter(|p| matches!(&s.projection[*p], SelectItem::ExprWithAlias { alias, .. } if ident(alias) == name))
                .collect();
            match aliased.as_slice() {
                [] if s.projection.iter().any(|i| matches!(i, SelectItem::UnnamedExpr(e) if output_name(e) == name)) => {
                    Err(unsupported("GROUP BY the implicit name of a select item"))
                }
                [] => Ok(key),
                [p] => item(*p),
                _ => Err(format!("column reference \"{name}\" is ambiguous")),
            }
        })
        .collect()
}

/// A select item's expression; `None` for a wildcard.
fn item_expr(item: &SelectItem) -> Option<&Expr> {
    match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
        _ => None,
    }
}

/// The select list: each output column's name and expression.
fn projection(
    cx: &mut ExprContext,
    items: &[SelectItem],
    no_from: bool,
) -> Result<Vec<(String, Typed)>, String> {
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
                if no_from {
                    return Err("SELECT * with no tables specified is not valid".into());
                }
                None
            }
            SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(name), o)
                if plain_wildcard(o) =>
            {
                let table = object_name(name)?;
                if !cx.scope.has_table(&table) {
                    return Err(format!("no table named '{table}' in scope"));
                }
                Some(table)
            }
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                return Err(unsupported(format!("wildcard options: {item}")))
            }
            other => return Err(unsupported(forms::select_item(other))),
        };
        for (i, item) in cx.scope.items.iter().enumerate() {
            if table.as_ref().is_none_or(|t| *t == item.table) {
                out.push((item.column.name.clone(), cx.column_at(i)?));
            }
        }
    }
    Ok(out)
}
