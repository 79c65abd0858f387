//! A parenthesized query with clauses outside its parentheses, such as
//! `(SELECT a FROM t ORDER BY a) LIMIT 1`, read as Materialize's parser
//! reads it (`parse_query_tail`): the inner query's WITH, ORDER BY, LIMIT
//! and OFFSET and the outer ones make one query over the inner body, and a
//! clause written on both sides is an error.
//!
//! So an inner ORDER BY orders an outer LIMIT, and an outer ORDER BY sees
//! the inner SELECT's FROM (`(SELECT a FROM t) ORDER BY t.b`): planning
//! the parentheses as a query of their own answers otherwise. sqlparser
//! keeps the parentheses, so they are taken away here, before planning.

use std::borrow::Cow;

use sqlparser::ast::{LimitClause, Query, SetExpr};

use super::finishing::limit_parts;
use super::refused::clauses_of;

/// `q` with every pair of parentheses around its body merged into it, as
/// Materialize's parser merges them; `q` itself when there are none.
pub(super) fn flattened(q: &Query) -> Result<Cow<'_, Query>, String> {
    let SetExpr::Query(inner) = &*q.body else {
        return Ok(Cow::Borrowed(q));
    };
    clauses_of(q)?;
    let inner = flattened(inner)?;
    clauses_of(&inner)?;
    let with = match (&q.with, &inner.with) {
        (Some(_), Some(_)) => return Err("multiple WITH clauses not allowed".into()),
        (outer, inner) => outer.clone().or_else(|| inner.clone()),
    };
    let order_by = match (&q.order_by, &inner.order_by) {
        (Some(_), Some(_)) => return Err("multiple ORDER BY clauses not allowed".into()),
        (outer, inner) => outer.clone().or_else(|| inner.clone()),
    };
    let limit_clause = merged_limits(q.limit_clause.as_ref(), inner.limit_clause.as_ref())?;
    Ok(Cow::Owned(Query {
        with,
        order_by,
        limit_clause,
        ..inner.into_owned()
    }))
}

/// The outer and inner `LIMIT` and `OFFSET` as one clause, each written
/// on one side at most. (`LIMIT ALL`, which sqlparser reads as no LIMIT,
/// is refused before parsing.)
fn merged_limits(
    outer: Option<&LimitClause>,
    inner: Option<&LimitClause>,
) -> Result<Option<LimitClause>, String> {
    let (outer, inner) = match (outer, inner) {
        (None, inner) => return Ok(inner.cloned()),
        (outer, None) => return Ok(outer.cloned()),
        (Some(outer), Some(inner)) => (limit_parts(outer)?, limit_parts(inner)?),
    };
    if outer.0.is_some() && inner.0.is_some() {
        return Err("multiple LIMIT/FETCH clauses not allowed".into());
    }
    if outer.1.is_some() && inner.1.is_some() {
        return Err("multiple OFFSET clauses not allowed".into());
    }
    Ok(Some(LimitClause::LimitOffset {
        limit: outer.0.clone().or_else(|| inner.0.clone()),
        offset: outer.1.clone().or_else(|| inner.1.clone()),
        limit_by: vec![],
    }))
}
