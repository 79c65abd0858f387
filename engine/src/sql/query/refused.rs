//! What of a query the planner refuses before planning it: the clauses
//! of `Query` and `Select` it does not plan (`select_of`, `clauses_of`),
//! and the first construct of a query that planning would refuse
//! (`first_refusal_in`, through its CTEs and set operations' branches),
//! which is reported in place of a real error the real system might
//! never have reached.

use sqlparser::ast::{
    Expr, GroupByExpr, OrderByKind, Query, Select, SelectFlavor, SelectItem, SetExpr, TableFactor,
};

use super::super::expr::first_refusal;
use super::super::{clauses, forms};
use super::item_expr;
use crate::recursion::grown;
use crate::repr::interval::is_unit_word;
use crate::repr::unsupported;

/// The first construct of `q` that planning refuses, found without planning.
pub fn first_refusal_in(q: &Query) -> Option<String> {
    if let Some(with) = &q.with {
        if let Some(r) = with
            .cte_tables
            .iter()
            .find_map(|c| first_refusal_in(&c.query))
        {
            return Some(r);
        }
    }
    if let Err(e) = clauses_of(q) {
        return Some(e);
    }
    let ordered = match q.order_by.as_ref().map(|o| &o.kind) {
        Some(OrderByKind::Expressions(exprs)) => exprs.iter().map(|o| &o.expr).collect(),
        _ => Vec::new(),
    };
    match &*q.body {
        SetExpr::Select(s) => match select_clauses(s) {
            Ok(()) => first_refusal_in_select(s, ordered),
            Err(e) => Some(e),
        },
        body => first_refusal_in_body(body).or_else(|| ordered.into_iter().find_map(first_refusal)),
    }
}

/// The first construct of a query body other than a plain SELECT that
/// planning refuses.
fn first_refusal_in_body(body: &SetExpr) -> Option<String> {
    grown(|| match body {
        SetExpr::Select(s) => select_clauses(s)
            .err()
            .or_else(|| first_refusal_in_select(s, vec![])),
        SetExpr::Query(q) => first_refusal_in(q),
        SetExpr::SetOperation { left, right, .. } => {
            first_refusal_in_body(left).or_else(|| first_refusal_in_body(right))
        }
        SetExpr::Values(v) => v
            .rows
            .iter()
            .flat_map(|r| &r.content)
            .find_map(first_refusal),
        other => Some(unsupported(forms::set_expr(other))),
    })
}

/// The name a refusal gives a query body other than a plain SELECT.
pub fn body_name(body: &SetExpr) -> String {
    match body {
        SetExpr::SetOperation { op, .. } => op.to_string(),
        SetExpr::Values(_) => "VALUES".into(),
        SetExpr::Query(_) => "a parenthesized query".into(),
        other => forms::set_expr(other),
    }
}

/// The first construct of a SELECT (ordered by `ordered`) that planning
/// refuses.
fn first_refusal_in_select(s: &Select, ordered: Vec<&Expr>) -> Option<String> {
    for table in &s.from {
        let factors =
            std::iter::once(&table.relation).chain(table.joins.iter().map(|j| &j.relation));
        for factor in factors {
            match factor {
                TableFactor::Table { .. } => {}
                TableFactor::Derived {
                    subquery,
                    sample: None,
                    ..
                } => {
                    if let Some(r) = first_refusal_in(subquery) {
                        return Some(r);
                    }
                }
                other => return Some(unsupported(forms::table_factor(other))),
            }
        }
        for join in &table.joins {
            use sqlparser::ast::{JoinConstraint, JoinOperator as J};
            match &join.join_operator {
                J::Join(c)
                | J::Inner(c)
                | J::CrossJoin(c)
                | J::Left(c)
                | J::LeftOuter(c)
                | J::Right(c)
                | J::RightOuter(c)
                | J::FullOuter(c) => {
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
    s.projection
        .iter()
        .filter_map(item_expr)
        .chain(s.selection.iter())
        .chain(keys)
        .chain(s.having.iter())
        .chain(ordered)
        .find_map(first_refusal)
}

/// The SELECT of a query without a WITH, every clause the planner does
/// not plan refused. `Query` and `Select` are taken apart to their last
/// field, so that a field a new sqlparser adds cannot go unnoticed: it
/// fails to compile here until it is planned or refused.
pub fn select_of(q: &Query) -> Result<&Select, String> {
    clauses_of(q)?;
    let s = match &*q.body {
        SetExpr::Select(s) => s,
        other => return Err(unsupported(body_name(other))),
    };
    select_clauses(s)?;
    Ok(s)
}

/// Refuses the clauses of `q` the planner does not plan (a WITH is
/// planned before the rest of the query is).
pub fn clauses_of(q: &Query) -> Result<(), String> {
    let Query {
        with: _,
        body: _,
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
        (fetch.is_some(), "FETCH"),
        (!locks.is_empty(), "FOR UPDATE"),
        (for_clause.is_some(), "FOR XML/JSON"),
        (settings.is_some(), "SETTINGS"),
        (format_clause.is_some(), "FORMAT"),
        (!pipe_operators.is_empty(), "pipe operators"),
    ];
    match refused.iter().find(|(set, _)| *set) {
        Some((_, what)) => Err(unsupported(what)),
        None => Ok(()),
    }
}

/// Refuses the clauses of `s` the planner does not plan.
fn select_clauses(s: &Select) -> Result<(), String> {
    let Select {
        select_token: _,
        optimizer_hints,
        distinct: _,
        select_modifiers,
        top,
        top_before_distinct: _,
        projection,
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
    } = s;
    clauses::refuse(&[
        (!optimizer_hints.is_empty(), "optimizer hints"),
        (
            projection.iter().any(qualifier_as_alias),
            "interval literal with a field qualifier",
        ),
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
    ])
}

/// Whether a select item is `INTERVAL '...' years`, whose last word
/// Materialize's parser reads as the literal's qualifier (`INTERVAL '10.333'
/// years` is `10 years`) and sqlparser as the item's alias: an unquoted
/// alias naming an interval field after an item with an interval literal.
fn qualifier_as_alias(item: &SelectItem) -> bool {
    match item {
        SelectItem::ExprWithAlias { expr, alias } => {
            alias.quote_style.is_none()
                && is_unit_word(&alias.value)
                && expr.to_string().contains("INTERVAL '")
        }
        _ => false,
    }
}
