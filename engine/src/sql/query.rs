//! SELECT: FROM with inner equi-joins, WHERE, GROUP BY and HAVING, the select
//! list, DISTINCT, and the ORDER BY / LIMIT finishing.

use sqlparser::ast::{
    Distinct, Expr, FunctionArg, FunctionArgExpr, GroupByExpr, JoinConstraint, JoinOperator,
    LimitClause, ObjectName, OrderBy, OrderByKind, OrderBySort, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, TableFactor, TableFunctionArgs, TableWithJoins,
    Value, WildcardAdditionalOptions,
};

use super::expr::{
    contains_aggregate, output_name, where_clause, ExprContext, Grouping, Scope, Typed,
};
use super::{ident, object_name, relation};
use crate::plan::{
    BinaryOp, Finishing, OrderColumn, RelationPlan, Resolver, ScalarExpr, SimpleSelect,
};
use crate::repr::Column;
use crate::repr::{Datum, ScalarType};

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

/// The FROM clause: its relations side by side, and the predicates (ON
/// conditions, then WHERE) over their concatenated columns.
#[derive(Default)]
struct From {
    /// Each relation and its arity.
    inputs: Vec<(RelationPlan, usize)>,
    tables: Vec<String>,
    scope: Scope,
    predicates: Vec<ScalarExpr>,
}

fn plan_from(catalog: &dyn Resolver, from: &[TableWithJoins]) -> Result<From, String> {
    let mut out = From::default();
    for table in from {
        out.add(catalog, &table.relation)?;
        for join in &table.joins {
            if let Some(on) = left_join_condition(&join.join_operator)? {
                out.left_join(catalog, &join.relation, on)?;
                continue;
            }
            out.add(catalog, &join.relation)?;
            if let Some(on) = join_condition(&join.join_operator)? {
                // ON sees the relations joined so far, which are a prefix of the scope.
                let mut cx = ExprContext::plain(
                    &out.scope,
                    "aggregate functions are not allowed in JOIN conditions",
                );
                let predicates = cx.predicate(on, "ON clause")?;
                out.predicates.extend(predicates);
            }
        }
    }
    Ok(out)
}

/// The ON condition of a `LEFT [OUTER] JOIN`; `None` for any other join.
fn left_join_condition(op: &JoinOperator) -> Result<Option<&Expr>, String> {
    match op {
        JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => match c {
            JoinConstraint::On(e) => Ok(Some(e)),
            _ => Err("LEFT JOIN needs an ON condition".into()),
        },
        _ => Ok(None),
    }
}

fn join_condition(op: &JoinOperator) -> Result<Option<&Expr>, String> {
    match op {
        JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => match c {
            JoinConstraint::On(e) => Ok(Some(e)),
            JoinConstraint::None => Ok(None),
            _ => Err("USING and NATURAL joins are not supported".into()),
        },
        JoinOperator::Right(_) | JoinOperator::RightOuter(_) | JoinOperator::FullOuter(_) => {
            Err("RIGHT and FULL joins are not supported".into())
        }
        _ => Err("only inner and left joins are supported".into()),
    }
}

impl From {
    fn add(&mut self, catalog: &dyn Resolver, factor: &TableFactor) -> Result<(), String> {
        let TableFactor::Table {
            name,
            alias,
            args,
            with_ordinality: false,
            ..
        } = factor
        else {
            return Err(match factor {
                TableFactor::Derived { .. } => "subqueries are not supported".into(),
                _ => format!("FROM item not supported: {factor}"),
            });
        };
        let (relation_name, plan, columns) = match args {
            None => {
                let (name, id, columns) = relation(catalog, name)?;
                (name, RelationPlan::Get(id), columns)
            }
            Some(args) => table_function(name, args)?,
        };
        let table = match alias {
            None => relation_name,
            Some(alias) if alias.columns.is_empty() => ident(&alias.name),
            Some(alias) => return Err(format!("column aliases are not supported: {alias}")),
        };
        // PostgreSQL names a one-column function's column after its alias.
        let columns = match (args, alias) {
            (Some(_), Some(_)) => columns
                .into_iter()
                .map(|c| Column {
                    name: table.clone(),
                    ..c
                })
                .collect(),
            _ => columns,
        };
        if self.tables.contains(&table) {
            return Err(format!("table name \"{table}\" specified more than once"));
        }
        self.inputs.push((plan, columns.len()));
        self.scope
            .items
            .extend(Scope::relation(&table, columns).items);
        self.tables.push(table);
        Ok(())
    }

    /// `<everything so far> LEFT JOIN factor ON on`: the relations so far
    /// become the left input of one `LeftJoin`, whose right columns are
    /// nullable. `on` must be a conjunction of equalities between a left
    /// and a right column.
    fn left_join(
        &mut self,
        catalog: &dyn Resolver,
        factor: &TableFactor,
        on: &Expr,
    ) -> Result<(), String> {
        let left_arity = self.scope.items.len();
        self.add(catalog, factor)?;
        let mut cx = ExprContext::plain(
            &self.scope,
            "aggregate functions are not allowed in JOIN conditions",
        );
        let mut left_key = vec![];
        let mut right_key = vec![];
        for p in cx.predicate(on, "ON clause")? {
            let pair = match &p {
                ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                    (ScalarExpr::Column(a), ScalarExpr::Column(b)) => Some((*a.min(b), *a.max(b)))
                        .filter(|(a, b)| *a < left_arity && *b >= left_arity),
                    _ => None,
                },
                _ => None,
            };
            let (l, r) = pair.ok_or_else(|| {
                "LEFT JOIN supports only equalities between a column of each side in ON".to_string()
            })?;
            left_key.push(l);
            right_key.push(r - left_arity);
        }
        let (right, right_arity) = self.inputs.pop().expect("just added");
        let left = From {
            inputs: std::mem::take(&mut self.inputs),
            predicates: std::mem::take(&mut self.predicates),
            ..From::default()
        }
        .into_plan();
        let join = RelationPlan::LeftJoin {
            left: Box::new(left),
            right: Box::new(right),
            left_key,
            right_key,
            right_arity,
        };
        self.inputs.push((join, left_arity + right_arity));
        for item in &mut self.scope.items[left_arity..] {
            item.column.nullable = true;
        }
        Ok(())
    }

    /// The fast-path shape, if this is a single relation.
    fn simple(&self) -> Option<SimpleSelect> {
        match self.inputs.as_slice() {
            [(RelationPlan::Get(relation), _)] => Some(SimpleSelect {
                relation: *relation,
                predicates: self.predicates.clone(),
            }),
            _ => None,
        }
    }

    /// The join of the inputs: equalities between columns of different
    /// inputs become its equivalence classes, other predicates a filter.
    fn into_plan(self) -> RelationPlan {
        let mut starts = vec![];
        let mut arity = 0;
        for (_, n) in &self.inputs {
            starts.push(arity);
            arity += n;
        }
        let input_of = |column: usize| starts.iter().rposition(|s| *s <= column);
        let mut classes: Vec<Vec<usize>> = vec![];
        let mut filters = vec![];
        for p in self.predicates {
            match &p {
                ScalarExpr::Binary(BinaryOp::Eq, l, r) => match (&**l, &**r) {
                    (ScalarExpr::Column(a), ScalarExpr::Column(b))
                        if input_of(*a) != input_of(*b) =>
                    {
                        merge(&mut classes, *a, *b)
                    }
                    _ => filters.push(p),
                },
                _ => filters.push(p),
            }
        }
        for class in &mut classes {
            class.sort();
            class.dedup();
        }
        classes.sort();
        let mut inputs: Vec<RelationPlan> = self.inputs.into_iter().map(|(p, _)| p).collect();
        let plan = match inputs.len() {
            0 => RelationPlan::Constant {
                rows: vec![vec![]],
                arity: 0,
            },
            1 => inputs.pop().expect("one input"),
            _ => RelationPlan::Join {
                inputs,
                equivalences: classes,
            },
        };
        filter(plan, filters)
    }
}

/// A table function in FROM: `generate_series(start, stop)` over constant
/// integer bounds, one column of their (widest) type.
fn table_function(
    name: &ObjectName,
    args: &TableFunctionArgs,
) -> Result<(String, RelationPlan, Vec<Column>), String> {
    let function = object_name(name)?;
    if function != "generate_series" {
        return Err(format!("function {function} does not exist"));
    }
    let exprs = args
        .args
        .iter()
        .map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if args.settings.is_none() => Ok(e),
            _ => Err(format!("function call not supported: {name}")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let no_columns = Scope::default();
    let mut cx = ExprContext::plain(
        &no_columns,
        "aggregate functions are not allowed in functions in FROM",
    );
    let bounds = exprs
        .iter()
        .map(|e| cx.plan(e))
        .collect::<Result<Vec<_>, _>>()?;
    let [start, stop] = <[Typed; 2]>::try_from(bounds)
        .map_err(|_| "generate_series takes a start and a stop".to_string())?;
    let typ = match (start.typ, stop.typ) {
        (Some(ScalarType::Int64), _) | (_, Some(ScalarType::Int64)) => ScalarType::Int64,
        _ => ScalarType::Int32,
    };
    let bound = |t: Typed| -> Result<Datum, String> {
        let t =
            t.expect_integer(|found| format!("function generate_series({found}) does not exist"))?;
        t.cast(typ).expr.eval(&[]).map_err(|e| e.0)
    };
    let (start, stop) = (bound(start)?, bound(stop)?);
    let column = Column {
        name: function.clone(),
        typ,
        nullable: false,
    };
    Ok((
        function,
        RelationPlan::GenerateSeries { start, stop },
        vec![column],
    ))
}

/// Adds `a = b` to the equivalence classes.
fn merge(classes: &mut Vec<Vec<usize>>, a: usize, b: usize) {
    let find = |classes: &Vec<Vec<usize>>, x: usize| classes.iter().position(|c| c.contains(&x));
    match (find(classes, a), find(classes, b)) {
        (Some(i), Some(j)) if i == j => {}
        (Some(i), Some(j)) => {
            let moved = classes.remove(i.max(j));
            classes[i.min(j)].extend(moved);
        }
        (Some(i), None) => classes[i].push(b),
        (None, Some(j)) => classes[j].push(a),
        (None, None) => classes.push(vec![a, b]),
    }
}

fn plain_wildcard(o: &WildcardAdditionalOptions) -> bool {
    o.opt_ilike.is_none()
        && o.opt_exclude.is_none()
        && o.opt_except.is_none()
        && o.opt_replace.is_none()
        && o.opt_rename.is_none()
        && o.opt_alias.is_none()
}

/// `n` in `ORDER BY n` / `GROUP BY n`: a 1-based select-list position.
fn position(e: &Expr, len: usize, clause: &str) -> Result<Option<usize>, String> {
    let Expr::Value(v) = e else {
        return Ok(None);
    };
    let Value::Number(n, _) = &v.value else {
        return Ok(None);
    };
    match n.parse::<usize>() {
        Ok(p) if (1..=len).contains(&p) => Ok(Some(p - 1)),
        _ => Err(format!("{clause} position {n} is not in select list")),
    }
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

/// ORDER BY as output column positions: a position, an output column's name,
/// or an expression the select list computes.
fn order_by(
    cx: &mut ExprContext,
    order_by: Option<&OrderBy>,
    outputs: &[(String, Typed)],
) -> Result<Vec<OrderColumn>, String> {
    let Some(order_by) = order_by else {
        return Ok(vec![]);
    };
    let OrderByKind::Expressions(exprs) = &order_by.kind else {
        return Err("ORDER BY ALL is not supported".into());
    };
    let mut out = vec![];
    for o in exprs {
        let descending = match (&o.options.sort, &o.with_fill) {
            (None | Some(OrderBySort::Asc), None) => false,
            (Some(OrderBySort::Desc), None) => true,
            _ => return Err(format!("ORDER BY option not supported: {o}")),
        };
        let mut column = OrderColumn::new(order_column(cx, &o.expr, outputs)?, descending);
        if let Some(nulls_first) = o.options.nulls_first {
            column.nulls_last = !nulls_first;
        }
        out.push(column);
    }
    Ok(out)
}

fn order_column(
    cx: &mut ExprContext,
    e: &Expr,
    outputs: &[(String, Typed)],
) -> Result<usize, String> {
    if let Some(p) = position(e, outputs.len(), "ORDER BY")? {
        return Ok(p);
    }
    if let Expr::Identifier(name) = e {
        let name = ident(name);
        let named: Vec<usize> = (0..outputs.len())
            .filter(|i| outputs[*i].0 == name)
            .collect();
        if let Some(first) = named.first() {
            if named
                .iter()
                .any(|i| outputs[*i].1.expr != outputs[*first].1.expr)
            {
                return Err(format!("ORDER BY \"{name}\" is ambiguous"));
            }
            return Ok(*first);
        }
    }
    let planned = cx.plan(e)?.expr;
    outputs
        .iter()
        .position(|(_, t)| t.expr == planned)
        .ok_or_else(|| format!("ORDER BY expression must appear in the select list: {e}"))
}

/// LIMIT and OFFSET: (limit, offset), each a non-negative integer literal.
fn limit(clause: Option<&LimitClause>) -> Result<(Option<usize>, usize), String> {
    let Some(clause) = clause else {
        return Ok((None, 0));
    };
    let LimitClause::LimitOffset {
        limit,
        offset,
        limit_by,
    } = clause
    else {
        return Err(format!("LIMIT not supported: {clause}"));
    };
    if !limit_by.is_empty() {
        return Err(format!("LIMIT not supported: {clause}"));
    }
    let count = |e: &Expr, what: &str| {
        match e {
            Expr::Value(v) => match &v.value {
                Value::Number(n, _) => n.parse().ok(),
                _ => None,
            },
            _ => None,
        }
        .ok_or_else(|| format!("{what} must be a non-negative integer, found: {e}"))
    };
    let limit = limit.as_ref().map(|e| count(e, "LIMIT")).transpose()?;
    let offset = offset
        .as_ref()
        .map(|o| count(&o.value, "OFFSET"))
        .transpose()?
        .unwrap_or(0);
    Ok((limit, offset))
}
