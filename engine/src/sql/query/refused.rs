//! What of a query the planner refuses before planning it: the clauses
//! of `Query` and `Select` it does not plan (`select_of`), and the first
//! construct of a query that planning would refuse (`first_refusal_in`),
//! which is reported in place of a real error the real system might
//! never have reached.

use sqlparser::ast::{GroupByExpr, OrderByKind, Query, Select, SelectFlavor, SetExpr, TableFactor};

use super::super::expr::first_refusal;
use super::super::{clauses, forms};
use super::item_expr;
use crate::repr::unsupported;

/// The first construct of `q` that planning refuses, found without planning.
pub fn first_refusal_in(q: &Query) -> Option<String> {
    let s = match select_of(q) {
        Ok(s) => s,
        Err(e) => return Some(e),
    };
    for table in &s.from {
        let factors =
            std::iter::once(&table.relation).chain(table.joins.iter().map(|j| &j.relation));
        for factor in factors {
            match factor {
                TableFactor::Table { .. } => {}
                TableFactor::Derived {
                    lateral: false,
                    subquery,
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

/// The SELECT of a query, every clause the planner does not plan refused.
/// `Query` and `Select` are taken apart to their last field, so that a
/// field a new sqlparser adds cannot go unnoticed: it fails to compile
/// here until it is planned or refused.
pub fn select_of(q: &Query) -> Result<&Select, String> {
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
