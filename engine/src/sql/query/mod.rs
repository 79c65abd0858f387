//! SELECT: FROM with its joins, WHERE, GROUP BY and HAVING, the select
//! list, DISTINCT, subqueries, and the ORDER BY / LIMIT finishing.
//!
//! `from` plans the FROM clause, `finishing` the ORDER BY and LIMIT,
//! `subquery` how a subquery's rows are planned and joined back onto the
//! rows it was computed for; the rest of the SELECT is planned here.

mod catalog_reads;
mod distinct_on;
mod finishing;
mod from;
mod group_by;
mod parenthesized;
mod recursive;
mod refused;
mod sets;
mod subquery;
mod window;
mod with;

use std::cell::{Cell, RefCell};

use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, Query, Select, SelectItem, SelectItemQualifiedWildcardKind,
    SetExpr, TableWithJoins, WildcardAdditionalOptions,
};

use super::expr::window::frames_first;
use super::expr::{
    contains_subquery, output_name, ExprContext, Grouping, Outer, Prefix, Reads, Subqueries, Typed,
    SUBQUERY_COLUMN,
};
use super::{forms, ident, unqualified_name};
use crate::plan::{
    DerivedSite, Finishing, OrderColumn, RelationPlan, Resolver, ScalarExpr, SimpleSelect,
};
use crate::recursion::grown;
use crate::repr::{unsupported, Column, Datum, UNSUPPORTED};
use finishing::{limit, order_by};
use from::plan_from;
use group_by::{group_by, grouping};
use refused::{first_refusal_in, select_of};
use subquery::{split_conjuncts, where_error, Deferred};

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
    let planner = Planner {
        catalog,
        ids: Cell::new(0),
        quantified: Cell::new(0),
        ctes: RefCell::new(vec![]),
        site: Cell::new(DerivedSite::Subquery),
    };
    planner
        .query(q, None, None, false)
        .map_err(|e| match e.starts_with(UNSUPPORTED) {
            true => e,
            false => first_refusal_in(q).unwrap_or(e),
        })
}

/// Plans one statement's queries, the nested ones too.
pub(super) struct Planner<'c> {
    catalog: &'c dyn Resolver,
    /// The next `Let` id: unique within the statement.
    ids: Cell<usize>,
    /// The ids the real system's desugarer allocated so far to the
    /// quantified subqueries (`IN`, `ANY`, `ALL`) and their bindings.
    quantified: Cell<usize>,
    /// The CTEs in scope, innermost last.
    ctes: RefCell<Vec<with::Cte>>,
    /// What a subquery in FROM planned now is written in: a `Derived`'s site.
    site: Cell<DerivedSite>,
}

/// What a nested query is planned within: the names of the query around
/// it, the outer row it reads (its plan's leading columns), and what of
/// its rows the query around it reads.
pub(super) struct Correlation<'x> {
    pub outer: &'x dyn Outer,
    pub prefix: &'x Prefix,
    pub reads: Reads<'x>,
}

impl Planner<'_> {
    /// Plans `q`, nested in another query when `corr` says how; else
    /// `names` are the enclosing queries' and `in_from` says whether it is
    /// a subquery in FROM (which reads no outer row).
    fn query(
        &self,
        q: &Query,
        corr: Option<&Correlation>,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        // A query nests through its FROM's derived tables, as deep as the
        // text's nesting allows: one level on a grown stack.
        grown(|| self.query_here(q, corr, names, in_from))
    }

    fn query_here(
        &self,
        q: &Query,
        corr: Option<&Correlation>,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        let q = &*parenthesized::flattened(q)?;
        if q.with.is_some() {
            return self.with_query(q, corr, names, in_from);
        }
        if !matches!(*q.body, SetExpr::Select(_)) {
            let body = refused::body_name(&q.body);
            if corr.is_some() {
                return Err(unsupported(format!(
                    "{body} in a subquery in an expression"
                )));
            }
            refused::clauses_of(q)?;
            return self.set_query(q, names, in_from);
        }
        let s = select_of(q)?;
        let (limit, offset) = limit(q.limit_clause.as_ref())?;
        let outer = corr.map(|c| c.outer).or(names);
        let prefix = corr.map(|c| c.prefix);
        let width = prefix.map_or(0, |p| p.columns.len());

        let mut from = plan_from(self, &s.from, prefix, outer)?;
        catalog_reads::check(self, s)?;
        // A WHERE's conjuncts without subqueries filter the FROM; each with
        // one filters after them, in order, as the real system splits them.
        let mut deferred = vec![];
        if let Some(selection) = &s.selection {
            let no_aggregates = "aggregate functions are not allowed in WHERE clause";
            let mut cx = ExprContext::within(&from.scope, no_aggregates, outer);
            let (now, later) = match contains_subquery(selection) {
                true => split_conjuncts(selection),
                false => (vec![selection], vec![]),
            };
            for c in now {
                let predicates = cx.predicate_with(c, "WHERE clause", where_error)?;
                from.predicates.extend(predicates);
            }
            cx.subqueries = Some(Subqueries::new(self, false));
            for c in later {
                let predicates = cx.filter_conjunct(c, "WHERE clause", where_error)?;
                deferred.push(Deferred::new(predicates, cx.take_subqueries()));
            }
        }
        let simple = (corr.is_none() && deferred.is_empty() && simple_shape(q, s))
            .then(|| from.simple())
            .flatten();
        let scope = from.scope.clone();

        let group_by = group_by(s, &scope, outer)?;
        let mut grouping = grouping(s, q.order_by.as_ref(), &scope, &group_by, corr)?;
        let grouped = grouping.as_ref().map(|g| g.keys.len());
        let mut cx = ExprContext::within(
            &scope,
            "aggregate functions are not allowed in ORDER BY clause",
            outer,
        );
        cx.grouping = grouping.as_mut();
        cx.subqueries = Some(Subqueries::new(self, true));
        cx.windows = Some(Default::default());
        frames_first(s.projection.iter().filter_map(item_expr))?;
        cx.name = "SELECT clause";
        cx.reduces = !from.is_constant();
        let mut outputs = projection(&mut cx, &s.projection, s.from.is_empty())?;
        let windows = cx.windows.take();
        let select_subqueries = cx.take_subqueries();
        let mut having = vec![];
        let mut having_deferred = vec![];
        if let Some(h) = &s.having {
            let (now, later) = match contains_subquery(h) {
                true => split_conjuncts(h),
                false => (vec![h], vec![]),
            };
            cx.subqueries = None;
            for c in now {
                having.extend(cx.predicate(c, "HAVING clause")?);
            }
            cx.subqueries = Some(Subqueries::new(self, false));
            for c in later {
                let predicates = cx.filter_conjunct(c, "HAVING clause", |e| e)?;
                having_deferred.push(Deferred::new(predicates, cx.take_subqueries()));
            }
        }
        cx.subqueries = None;
        cx.site = "in ORDER BY clause";
        // Columns ORDER BY alone sorts by follow the select list's; DISTINCT
        // ON's ordering keeps to the select list, as refused before.
        let visible = outputs.len();
        let hidden = !matches!(s.distinct, Some(Distinct::On(_)));
        let order_by = order_by(&mut cx, q.order_by.as_ref(), &mut outputs, hidden)?;
        if outputs.len() > visible && matches!(s.distinct, Some(Distinct::Distinct)) {
            return Err(
                "for SELECT DISTINCT, ORDER BY expressions must appear in select list".into(),
            );
        }
        let distinct_on = distinct_on::plan(&mut cx, s.distinct.as_ref(), &order_by, &outputs)?;
        drop(cx);

        // The filter on a nested query's output goes into its WHERE where
        // it means the same, so that an equality becomes a join's key.
        let mut filter = match corr.map(|c| c.reads) {
            Some(Reads::Filtered(f)) => Some(f),
            _ => None,
        };
        // The real system computes no column nothing reads, nor its errors
        // (`SELECT x FROM (SELECT x, 1/a FROM t)` does not fail); which
        // columns are read is known when the plan is lowered, so the
        // computed ones are marked (`RelationPlan::Derived`).
        let is_computed =
            |t: &Typed| !matches!(t.expr, ScalarExpr::Column(_) | ScalarExpr::Literal(_));
        let computed: Vec<usize> = match in_from {
            true => (0..visible)
                .filter(|i| is_computed(&outputs[*i].1))
                .map(|i| width + i)
                .collect(),
            false => vec![],
        };
        // The real system types a subquery's unknown-typed column by how
        // the expression around it uses it (`1 IN (SELECT '1')` is true).
        let valued = corr.is_some_and(|c| !matches!(c.reads, Reads::Existence));
        if valued && outputs[..visible].iter().any(|(_, t)| t.is_unknown()) {
            return Err(unsupported("a subquery's column of unknown type"));
        }
        if let Some(Reads::Existence) = corr.map(|c| c.reads) {
            // Only whether there are rows is read: no value is computed.
            if !select_subqueries.is_empty() {
                return Err(unsupported("subqueries in the select list of EXISTS"));
            }
            for (_, t) in &mut outputs {
                t.expr = ScalarExpr::Literal(Datum::Null);
            }
        }
        if let Some(f) = filter {
            let pushable =
                grouping.is_none() && distinct_on.is_none() && limit.is_none() && offset == 0;
            let first = outputs[..visible].first().map(|(_, t)| t.clone());
            if let Some(first) = first.filter(|t| pushable && !reads_subquery(&t.expr)) {
                let rest = outputs[1..visible].iter().map(|(_, t)| t.clone());
                let all: Vec<Typed> = std::iter::once(first).chain(rest).collect();
                from.predicates.push(f(&all)?);
                filter = None;
            }
        }

        let mut plan = from.into_plan();
        let mut arity = scope.items.len();
        for d in deferred {
            plan = self.filter_deferred(plan, arity, arity, d);
        }
        if let Some(grouping) = grouping {
            (plan, arity) = self.reduce(plan, arity, grouping, group_by.is_empty(), prefix);
        }
        let row_width = grouped.unwrap_or(arity);
        plan = filter_plan(plan, having);
        for d in having_deferred {
            plan = self.filter_deferred(plan, arity, row_width, d);
        }
        let site = window::Site {
            nested: corr.is_some(),
            in_from,
            using_join: window::has_using_join(&s.from),
        };
        (plan, arity) = window::apply(plan, arity, windows, &mut outputs, site)?;
        if !select_subqueries.is_empty() {
            let count = select_subqueries.len();
            plan = self.apply(plan, arity, row_width, select_subqueries);
            let base = arity;
            for (_, t) in &mut outputs {
                t.expr = placed(t.expr.clone(), base);
            }
            arity += count;
        }
        let prefix_exprs = prefix
            .into_iter()
            .flat_map(|p| p.columns.iter().enumerate());
        let mut exprs: Vec<Typed> = prefix_exprs
            .map(|(i, c)| Typed::of_column(ScalarExpr::Column(i), c))
            .collect();
        exprs.extend(outputs.iter().map(|(_, t)| t.clone()));
        plan = match distinct_on {
            Some(d) => d.top_k(plan, arity, &exprs, width),
            None => project(plan, arity, &exprs),
        };
        if let Some(Distinct::Distinct) = &s.distinct {
            plan = RelationPlan::Distinct {
                input: Box::new(plan),
            }
        }
        if !computed.is_empty() {
            plan = RelationPlan::Derived {
                input: Box::new(plan),
                computed,
                site: self.site.get(),
            };
        }
        let sorted_only = outputs.len() > visible;
        let columns = outputs
            .into_iter()
            .take(visible)
            .map(|(name, t)| t.column(name))
            .collect::<Vec<_>>();
        let finishing = Finishing {
            order_by,
            limit,
            offset,
            shown: crate::repr::chars::shown(&columns),
            project: sorted_only.then_some(visible),
        };
        if corr.is_some() {
            plan = nested_finishing(plan, width, finishing);
            if let Some(f) = filter {
                let at =
                    |(i, c): (usize, &Column)| Typed::of_column(ScalarExpr::Column(width + i), c);
                let all: Vec<Typed> = columns.iter().enumerate().map(at).collect();
                plan = filter_plan(plan, vec![f(&all)?]);
            }
            return Ok(PlannedQuery {
                plan,
                columns,
                finishing: Finishing::default(),
                simple: None,
            });
        }
        Ok(PlannedQuery {
            plan,
            columns,
            finishing,
            simple,
        })
    }
}

/// A nested query's LIMIT and OFFSET, within each outer row (its plan's
/// first `width` columns), without the columns only its ORDER BY sorts by;
/// its ORDER BY alone orders nothing.
fn nested_finishing(plan: RelationPlan, width: usize, finishing: Finishing) -> RelationPlan {
    match finishing.project {
        Some(visible) => RelationPlan::Project {
            input: Box::new(nested_top_k(plan, width, finishing)),
            columns: (0..width + visible).collect(),
        },
        None => nested_top_k(plan, width, finishing),
    }
}

fn nested_top_k(plan: RelationPlan, width: usize, finishing: Finishing) -> RelationPlan {
    if finishing.limit.is_none() && finishing.offset == 0 {
        return plan;
    }
    let order_by = finishing.order_by.iter().map(|o| OrderColumn {
        column: o.column + width,
        ..*o
    });
    RelationPlan::TopK {
        input: Box::new(plan),
        group_key: (0..width).collect(),
        order_by: order_by.collect(),
        limit: finishing.limit,
        offset: finishing.offset,
    }
}

/// Whether `e` reads a subquery's placeholder column.
fn reads_subquery(e: &ScalarExpr) -> bool {
    let found = Cell::new(false);
    let _ = e.clone().remap_columns(&|c| {
        found.set(found.get() || c >= SUBQUERY_COLUMN);
        c
    });
    found.get()
}

/// `e` with the subqueries' placeholder columns at their place: the `j`-th
/// right after the `base` columns of the relation they were joined onto.
fn placed(e: ScalarExpr, base: usize) -> ScalarExpr {
    e.remap_columns(&|c| match c >= SUBQUERY_COLUMN {
        true => base + (c - SUBQUERY_COLUMN),
        false => c,
    })
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

fn filter_plan(input: RelationPlan, predicates: Vec<ScalarExpr>) -> RelationPlan {
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
                let t = cx.plan(e)?;
                let subqueries = cx.subqueries.as_ref();
                let name = output_name(e, &|q| subqueries?.scalar_name(q));
                out.push((name, t));
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
                let table = unqualified_name(name)?;
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
        let positions = match &table {
            None => cx.scope.star.clone(),
            Some(t) => cx.scope.table_columns(t),
        };
        for i in positions {
            out.push((cx.scope.items[i].column.name.clone(), cx.column_at(i)?));
        }
    }
    Ok(out)
}
