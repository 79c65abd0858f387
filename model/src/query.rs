//! SELECT evaluated naively: the FROM clause's product (`from.rs`)
//! filtered by WHERE, GROUP BY with count/sum/min/max, window functions
//! (`window.rs`), the projection and DISTINCT, on whole collections of
//! rows. Each input's errors are carried once, beside its rows; a row
//! whose evaluation fails adds its error instead of a row. A subquery is
//! evaluated again for each outer row (the outer row's columns before its
//! own), with SQL's rules for what its rows make of it; an error inside one
//! is no claim, since the engine computes it once per distinct outer value
//! and counts its errors so.

pub use crate::relation::{render, Catalog, Relation};

use crate::from::{failed, from};
use crate::scalar::{
    compile, compile_in, ident, EvalError, Nested, Rows, Scalar, Scope, Sub, Unsupported,
};
use crate::types::{is_string_type, Type};
use engine::repr::{Datum, Row};
use sqlparser::ast::{
    self, Distinct, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, SelectItem,
    SetExpr,
};
use std::rc::Rc;

/// A query's result, and whether it has an `ORDER BY` (which only matters
/// to a `nosort` read).
pub fn evaluate(q: &ast::Query, catalog: &dyn Catalog) -> Result<(Relation, bool), Unsupported> {
    crate::ordering::claimable(q)?;
    let (select, _) = compile_select(q, None, catalog)?;
    Ok((select.run(&[])?, q.order_by.is_some()))
}

/// A SELECT compiled once and run for each outer row (none at the top).
#[derive(Debug)]
struct Select {
    /// The FROM clause's rows (its own columns) and its inputs' errors.
    rows: Vec<Row>,
    errs: Vec<String>,
    scope: Scope,
    /// WHERE in stages: the conjuncts without a subquery, then each with
    /// one, in order, each over the rows the ones before kept (as the
    /// engine plans them); the whole WHERE if it has no subquery.
    filters: Vec<Scalar>,
    shape: Shape,
    distinct: bool,
    /// The window functions the projection reads (`window.rs`).
    windows: Vec<crate::window::Call>,
}

#[derive(Debug)]
enum Shape {
    /// The projection, compiled, and its names.
    Project(Vec<Scalar>, Vec<String>),
    /// A grouped SELECT (no subquery in it), compiled as it is run.
    Group(Vec<SelectItem>, Vec<ast::Expr>),
}

/// Whether an expression holds a subquery.
fn has_subquery(e: &ast::Expr) -> bool {
    let mut found = vec![];
    subqueries_of(e, &mut found);
    !found.is_empty()
}

/// The subqueries in an expression (those the model compiles; any other
/// expression holding one is outside the model anyway).
fn subqueries_of<'a>(e: &'a ast::Expr, out: &mut Vec<&'a ast::Query>) {
    use ast::Expr::*;
    match e {
        Subquery(q) | Exists { subquery: q, .. } => out.push(q),
        In { expr, target, .. } => {
            subqueries_of(expr, out);
            match target {
                ast::InTarget::Subquery(q) => out.push(q),
                ast::InTarget::List(list) => list.iter().for_each(|i| subqueries_of(i, out)),
                _ => {}
            }
        }
        AnyOp { left, right, .. } | AllOp { left, right, .. } | BinaryOp { left, right, .. } => {
            subqueries_of(left, out);
            subqueries_of(right, out);
        }
        UnaryOp { expr, .. } | Nested(expr) | IsNull(expr) | IsNotNull(expr) => {
            subqueries_of(expr, out)
        }
        Cast { expr, .. } => subqueries_of(expr, out),
        _ => {}
    }
}

/// The subqueries in a SELECT's WHERE and select list (not those nested
/// in them), for the relations a view depends on.
pub fn subqueries(s: &ast::Select) -> Vec<&ast::Query> {
    let mut out = vec![];
    s.selection.iter().for_each(|w| subqueries_of(w, &mut out));
    for item in &s.projection {
        if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item {
            subqueries_of(e, &mut out);
        }
    }
    out
}

/// A WHERE's conjuncts.
fn conjuncts<'a>(e: &'a ast::Expr, out: &mut Vec<&'a ast::Expr>) {
    match e {
        ast::Expr::BinaryOp {
            left,
            op: ast::BinaryOperator::And,
            right,
        } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        ast::Expr::Nested(e) => conjuncts(e, out),
        e => out.push(e),
    }
}

/// Compiles a query, inside the scope `outer` if it is a subquery; with
/// the scope its expressions were compiled in.
fn compile_select(
    q: &ast::Query,
    outer: Option<&Scope>,
    catalog: &dyn Catalog,
) -> Result<(Select, Scope), Unsupported> {
    if q.with.is_some() || q.limit_clause.is_some() || q.fetch.is_some() {
        return Err("WITH, LIMIT, OFFSET or FETCH");
    }
    let SetExpr::Select(s) = &*q.body else {
        return Err("a query body other than a plain SELECT");
    };
    compile_plain(s, outer, catalog)
}

/// A plain SELECT's result: a branch of a set operation (`body.rs`).
pub fn evaluate_select(s: &ast::Select, catalog: &dyn Catalog) -> Result<Relation, Unsupported> {
    compile_plain(s, None, catalog)?.0.run(&[])
}

/// [`compile_select`] of the SELECT itself.
fn compile_plain(
    s: &ast::Select,
    outer: Option<&Scope>,
    catalog: &dyn Catalog,
) -> Result<(Select, Scope), Unsupported> {
    if s.having.is_some() || s.top.is_some() || s.into.is_some() {
        return Err("HAVING, TOP or INTO");
    }
    let (own, rows, errs) = from(&s.from, catalog)?;
    let scope = match outer {
        Some(o) => o.nested(&own),
        None => own,
    };
    let inner = Inner { catalog };
    let nested: Option<&dyn Nested> = Some(&inner);
    let mut filters = vec![];
    if let Some(w) = &s.selection {
        match has_subquery(w) {
            false => filters.push(compile(w, &scope)?),
            true => {
                let mut all = vec![];
                conjuncts(w, &mut all);
                let (with, plain): (Vec<_>, Vec<_>) =
                    all.into_iter().partition(|c| has_subquery(c));
                let plain = plain.into_iter().map(|c| compile(c, &scope));
                let plain = plain.collect::<Result<Vec<_>, _>>()?;
                let and = |a, b| Scalar::And(Box::new(a), Box::new(b));
                filters.extend(plain.into_iter().reduce(and));
                for c in with {
                    filters.push(compile_in(c, &scope, nested)?);
                }
            }
        }
    }
    let GroupByExpr::Expressions(keys, modifiers) = &s.group_by else {
        return Err("GROUP BY ALL");
    };
    if !modifiers.is_empty() {
        return Err("a GROUP BY modifier");
    }
    let aggregated = s.projection.iter().any(|item| match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            aggregate(e).is_some()
        }
        _ => false,
    });
    let mut windows = vec![];
    let shape = match keys.is_empty() && !aggregated {
        true => {
            let items = items(&s.projection, &scope)?;
            let mut exprs = vec![];
            for (e, _) in &items {
                exprs.push(match e {
                    // A window function's value is appended to its row.
                    ItemExpr::Ast(e) => match crate::window::call(e, &scope) {
                        Some(call) => {
                            windows.push(call?);
                            Scalar::Column(scope.columns.len() + windows.len() - 1)
                        }
                        None => compile_in(e, &scope, nested)?,
                    },
                    ItemExpr::Column(i) => Scalar::Column(*i),
                });
            }
            if !windows.is_empty() && outer.is_some() {
                return Err("a window function in a subquery");
            }
            Shape::Project(exprs, items.into_iter().map(|(_, n)| n).collect())
        }
        false => Shape::Group(s.projection.clone(), keys.clone()),
    };
    let distinct = match &s.distinct {
        None => false,
        Some(Distinct::Distinct) => true,
        Some(_) => return Err("DISTINCT ON"),
    };
    let select = Select {
        rows,
        errs,
        scope: scope.clone(),
        filters,
        shape,
        distinct,
        windows,
    };
    Ok((select, scope))
}

impl Select {
    /// The query's result for the outer row `outer` (its columns before
    /// each row's own).
    fn run(&self, outer: &[Datum]) -> Result<Relation, Unsupported> {
        let mut rows: Vec<Row> = self
            .rows
            .iter()
            .map(|r| outer.iter().chain(r).cloned().collect())
            .collect();
        let mut errs = self.errs.clone();
        for filter in &self.filters {
            let mut kept = vec![];
            for row in rows {
                match filter.holds(&row) {
                    Ok(true) => kept.push(row),
                    Ok(false) => {}
                    Err(e) => errs.push(failed(e)?),
                }
            }
            rows = kept;
        }
        if !self.windows.is_empty() {
            rows = crate::window::compute(&self.windows, rows)?;
        }
        let mut out = match &self.shape {
            Shape::Project(exprs, columns) => {
                let mut r = project(exprs, columns, rows, errs)?;
                r.types = exprs.iter().map(|e| column_type(e, &self.scope)).collect();
                r
            }
            Shape::Group(projection, keys) => group(projection, keys, &self.scope, rows, errs)?,
        };
        if self.distinct {
            out.rows.sort();
            out.rows.dedup();
        }
        Ok(out)
    }
}

/// An output column's type where it is a column's (a `char` read through a
/// view stays one) or a cast's; `None` for anything else computed.
fn column_type(e: &Scalar, scope: &Scope) -> Option<Type> {
    match e {
        Scalar::Column(i) => scope.type_at(*i),
        // A cast to an integer is of its type (a set operation's branches
        // unify by it).
        Scalar::ToInt(_, wide) => Some(if *wide { Type::BigInt } else { Type::Int }),
        _ => None,
    }
}

/// The subqueries of a query's expressions, compiled against its catalog.
struct Inner<'a> {
    catalog: &'a dyn Catalog,
}

impl Nested for Inner<'_> {
    fn subquery(&self, q: &ast::Query, scope: &Scope) -> Result<Sub, Unsupported> {
        let (select, own) = compile_select(q, Some(scope), self.catalog)?;
        if !select.errs.is_empty() {
            return Err("errors in a subquery's input (the engine's count is per plan)");
        }
        // A name that reached past the enclosing query correlates it too.
        let depth = scope.starts().len();
        if let Some(reached) = own.reached.get().filter(|r| *r + 1 < depth) {
            let theirs = scope.reached.get().map_or(reached, |r| r.min(reached));
            scope.reached.set(Some(theirs));
        }
        let correlated = own.reached.get().is_some();
        let plan = Subquery { select, correlated };
        // Uncorrelated, the engine computes it once whatever the outer
        // rows (even none): an error in it shows.
        if !correlated {
            plan.rows(&vec![Datum::Null; scope.columns.len()])?;
        }
        Ok(Sub(Rc::new(plan)))
    }
}

/// A subquery, run for each outer row.
#[derive(Debug)]
struct Subquery {
    select: Select,
    correlated: bool,
}

impl Rows for Subquery {
    fn rows(&self, outer: &[Datum]) -> Result<Vec<Row>, Unsupported> {
        let r = self.select.run(outer)?;
        if r.types.iter().any(|t| is_string_type(*t)) {
            return Err("a subquery of a char or varchar column");
        }
        match r.errs.is_empty() {
            true => Ok(r.rows),
            false => Err("an error inside a subquery (counted per key by the engine)"),
        }
    }

    fn correlated(&self) -> bool {
        self.correlated
    }
}

/// An output column's name, as a view exposes it.
fn name_of(e: &ast::Expr) -> String {
    match e {
        ast::Expr::Identifier(i) => ident(i),
        ast::Expr::CompoundIdentifier(parts) => parts.last().map(ident).unwrap_or_default(),
        ast::Expr::Function(f) => f.name.to_string().to_lowercase(),
        ast::Expr::Nested(e) => name_of(e),
        _ => "?column?".into(),
    }
}

/// The projection's expressions and names; `*` expands to the scope.
fn items<'a>(
    projection: &'a [SelectItem],
    scope: &Scope,
) -> Result<Vec<(ItemExpr<'a>, String)>, Unsupported> {
    let mut out = vec![];
    for item in projection {
        match item {
            SelectItem::UnnamedExpr(e) => out.push((ItemExpr::Ast(e), name_of(e))),
            SelectItem::ExprWithAlias { expr, alias } => {
                out.push((ItemExpr::Ast(expr), ident(alias)))
            }
            SelectItem::Wildcard(o) if o.opt_exclude.is_none() && o.opt_except.is_none() => {
                // The query's own columns (not those of the queries around
                // it), a USING join's sides' joined columns left out.
                let own = *scope.starts().last().expect("one level at least");
                for i in own..scope.columns.len() {
                    if !scope.unstarred.contains(&i) {
                        out.push((ItemExpr::Column(i), scope.columns[i].1.clone()));
                    }
                }
            }
            _ => return Err("a SELECT item outside the model"),
        }
    }
    Ok(out)
}

enum ItemExpr<'a> {
    Ast(&'a ast::Expr),
    Column(usize),
}

fn project(
    exprs: &[Scalar],
    columns: &[String],
    rows: Vec<Row>,
    mut errs: Vec<String>,
) -> Result<Relation, Unsupported> {
    let mut out = vec![];
    for row in rows {
        // Every column is evaluated: a subquery's no claim after another
        // column's error still counts.
        let values: Vec<_> = exprs.iter().map(|e| e.eval(&row)).collect();
        for v in &values {
            if let Err(EvalError::Unsupported(why)) = v {
                return Err(why);
            }
        }
        match values.into_iter().collect::<Result<Row, _>>() {
            Ok(r) => out.push(r),
            Err(e) => errs.push(failed(e)?),
        }
    }
    Ok(Relation {
        columns: columns.to_vec(),
        types: vec![],
        rows: out,
        errs,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Count,
    Sum,
    Min,
    Max,
}

/// `count(*)` (argument `None`), `count|sum|min|max(e)`.
fn aggregate(e: &ast::Expr) -> Option<Result<(Func, Option<&ast::Expr>), Unsupported>> {
    let ast::Expr::Function(f) = e else {
        return None;
    };
    let func = match f.name.to_string().to_lowercase().as_str() {
        "count" => Func::Count,
        "sum" => Func::Sum,
        "min" => Func::Min,
        "max" => Func::Max,
        _ => return None,
    };
    let FunctionArguments::List(list) = &f.args else {
        return Some(Err("an aggregate without an argument list"));
    };
    if list.duplicate_treatment.is_some()
        || !list.clauses.is_empty()
        || f.filter.is_some()
        || f.over.is_some()
    {
        return Some(Err("an aggregate with DISTINCT, FILTER or OVER"));
    }
    Some(match (func, list.args.as_slice()) {
        (Func::Count, [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)]) => Ok((func, None)),
        (_, [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))]) => Ok((func, Some(e))),
        _ => Err("an aggregate's arguments outside the model"),
    })
}

/// One output column of a grouped SELECT.
enum Output {
    Key(usize),
    Aggregate(Func, Option<Scalar>),
}

fn group(
    projection: &[SelectItem],
    keys: &[ast::Expr],
    scope: &Scope,
    rows: Vec<Row>,
    mut errs: Vec<String>,
) -> Result<Relation, Unsupported> {
    let written = keys;
    let keys = keys
        .iter()
        .map(|k| compile(k, scope))
        .collect::<Result<Vec<_>, _>>()?;
    let mut outputs = vec![];
    let mut columns = vec![];
    let mut types = vec![];
    for (item, name) in items(projection, scope)? {
        let ItemExpr::Ast(e) = item else {
            return Err("`*` in a grouped SELECT");
        };
        outputs.push(match aggregate(e) {
            Some(a) => {
                let (func, arg) = a?;
                let arg = arg.map(|a| compile(a, scope)).transpose()?;
                // `min` and `max` keep their argument's type.
                types.push(match (func, &arg) {
                    (Func::Min | Func::Max, Some(a)) => column_type(a, scope),
                    _ => None,
                });
                Output::Aggregate(func, arg)
            }
            None => {
                let c = compile(e, scope)?;
                types.push(column_type(&c, scope));
                let k = keys
                    .iter()
                    .position(|k| *k == c)
                    .ok_or("a grouped SELECT item that is not a key")?;
                // Materialize takes an item for a key by its text; a name
                // by the column it names.
                let name = |e: &ast::Expr| {
                    matches!(
                        e,
                        ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_)
                    )
                };
                if written[k] != *e && !(name(&written[k]) && name(e)) {
                    return Err("a grouped SELECT item written otherwise than its key");
                }
                Output::Key(k)
            }
        });
        columns.push(name);
    }
    // Groups in key order; a key that fails to evaluate is an error.
    let mut groups: std::collections::BTreeMap<Row, Vec<Row>> = Default::default();
    if keys.is_empty() {
        groups.insert(vec![], vec![]);
    }
    for row in rows {
        match keys
            .iter()
            .map(|k| k.eval(&row))
            .collect::<Result<Row, _>>()
        {
            Ok(key) => groups.entry(key).or_default().push(row),
            Err(e) => errs.push(failed(e)?),
        }
    }
    let mut out = vec![];
    for (key, members) in groups {
        let mut row = vec![];
        for o in &outputs {
            row.push(match o {
                Output::Key(i) => key[*i].clone(),
                Output::Aggregate(func, arg) => reduce(*func, arg.as_ref(), &members, &mut errs)?,
            });
        }
        out.push(row);
    }
    Ok(Relation {
        columns,
        types,
        rows: out,
        errs,
    })
}

/// One aggregate over a group's rows; a failed argument is an error.
fn reduce(
    func: Func,
    arg: Option<&Scalar>,
    rows: &[Row],
    errs: &mut Vec<String>,
) -> Result<Datum, Unsupported> {
    let mut values = vec![];
    for row in rows {
        match arg.map_or(Ok(Datum::Bool(true)), |a| a.eval(row)) {
            Ok(Datum::Null) => {}
            Ok(v) => values.push(v),
            Err(e) => errs.push(failed(e)?),
        }
    }
    Ok(match func {
        Func::Count => Datum::Int64(values.len() as i64),
        Func::Min | Func::Max if values.iter().any(crate::floats::is_float) => {
            // Floats by SQL's order, `-0` just below `0` (`floats.rs`).
            let mut best: Option<Datum> = None;
            for v in values {
                let o = match &best {
                    None => std::cmp::Ordering::Less,
                    Some(b) => crate::floats::extreme_order(&v, b)
                        .ok_or("min or max of floats beside other values")?,
                };
                if best.is_none()
                    || (o.is_lt() && func == Func::Min)
                    || (o.is_gt() && func == Func::Max)
                {
                    best = Some(v);
                }
            }
            best.unwrap_or(Datum::Null)
        }
        Func::Min => values.into_iter().min().unwrap_or(Datum::Null),
        Func::Max => values.into_iter().max().unwrap_or(Datum::Null),
        Func::Sum if values.is_empty() => Datum::Null,
        Func::Sum => {
            // Exact in 128 bits; the real system's sum of bigints is a
            // numeric (its `SumInt64`), of integers a bigint.
            let (mut sum, mut bigints) = (0i128, false);
            for v in values {
                sum += match v {
                    Datum::Int32(i) => i128::from(i),
                    Datum::Int64(i) => {
                        bigints = true;
                        i128::from(i)
                    }
                    _ => return Err("sum of a non-integer"),
                };
            }
            match bigints {
                true => Datum::Numeric(engine::repr::Numeric::from_i128(sum)),
                false => {
                    Datum::Int64(i64::try_from(sum).map_err(|_| "a sum of integers past 64 bits")?)
                }
            }
        }
    })
}
