//! SELECT evaluated naively: the cross product of the FROM items filtered
//! by their ON conditions, WHERE, GROUP BY with count/sum/min/max, the
//! projection and DISTINCT, on whole collections of rows. Each input's
//! errors are carried once, beside its rows; a row whose evaluation fails
//! adds its error instead of a row.

use crate::scalar::{compile, ident, EvalError, Scalar, Scope, Unsupported};
use engine::repr::{Datum, Row};
use sqlparser::ast::{
    self, Distinct, FunctionArg, FunctionArgExpr, FunctionArguments, GroupByExpr, JoinConstraint,
    JoinOperator, SelectItem, SetExpr, TableFactor,
};

/// A relation's contents at one time: rows and errors, both multisets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relation {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    pub errs: Vec<String>,
}

impl Relation {
    /// What a read of it prints: the smallest error, else the rows, sorted.
    pub fn lines(mut self) -> Vec<String> {
        self.errs.sort();
        if let Some(e) = self.errs.first() {
            return vec![format!("error: {e}")];
        }
        self.rows.sort();
        self.rows.iter().map(|r| render(r)).collect()
    }
}

/// A row as the runner prints it.
pub fn render(row: &[Datum]) -> String {
    row.iter()
        .map(Datum::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a query finds the relations it names (at the read's time).
pub trait Catalog {
    fn relation(&self, name: &str) -> Result<Relation, Unsupported>;
}

/// A query's result, and whether it has an `ORDER BY` (which only matters
/// to a `nosort` read).
pub fn evaluate(q: &ast::Query, catalog: &dyn Catalog) -> Result<(Relation, bool), Unsupported> {
    if q.with.is_some() || q.limit_clause.is_some() || q.fetch.is_some() {
        return Err("WITH, LIMIT, OFFSET or FETCH");
    }
    let SetExpr::Select(s) = &*q.body else {
        return Err("a query body other than a plain SELECT");
    };
    Ok((select(s, catalog)?, q.order_by.is_some()))
}

fn select(s: &ast::Select, catalog: &dyn Catalog) -> Result<Relation, Unsupported> {
    if s.having.is_some() || s.top.is_some() || s.into.is_some() {
        return Err("HAVING, TOP or INTO");
    }
    let (scope, rows, mut errs) = from(&s.from, catalog)?;
    let mut kept = vec![];
    match &s.selection {
        None => kept = rows,
        Some(w) => {
            let w = compile(w, &scope)?;
            for row in rows {
                match w.holds(&row) {
                    Ok(true) => kept.push(row),
                    Ok(false) => {}
                    Err(e) => errs.push(failed(e)?),
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
    let mut out = if keys.is_empty() && !aggregated {
        project(&s.projection, &scope, kept, errs)?
    } else {
        group(&s.projection, keys, &scope, kept, errs)?
    };
    match &s.distinct {
        None => {}
        Some(Distinct::Distinct) => {
            out.rows.sort();
            out.rows.dedup();
        }
        Some(_) => return Err("DISTINCT ON"),
    }
    Ok(out)
}

/// An evaluation error as data, or the reason to make no claim.
fn failed(e: EvalError) -> Result<String, Unsupported> {
    match e {
        EvalError::Error(text) => Ok(text),
        EvalError::Unsupported(why) => Err(why),
    }
}

type Product = (Scope, Vec<Row>, Vec<String>);

/// The FROM clause: its scope, the rows of its (filtered) product and every
/// input's errors once. No FROM is one empty row.
fn from(items: &[ast::TableWithJoins], catalog: &dyn Catalog) -> Result<Product, Unsupported> {
    let mut product: Product = (Scope::default(), vec![vec![]], vec![]);
    for item in items {
        product = join(product, &item.relation, None, catalog)?;
        for j in &item.joins {
            let on = match &j.join_operator {
                JoinOperator::Join(c) | JoinOperator::Inner(c) => match c {
                    JoinConstraint::On(e) => Some(e),
                    JoinConstraint::None => None,
                    _ => return Err("a join constraint other than ON"),
                },
                JoinOperator::CrossJoin(JoinConstraint::None) => None,
                _ => return Err("a join other than an inner join"),
            };
            product = join(product, &j.relation, on, catalog)?;
        }
    }
    Ok(product)
}

fn join(
    (mut scope, rows, mut errs): Product,
    factor: &TableFactor,
    on: Option<&ast::Expr>,
    catalog: &dyn Catalog,
) -> Result<Product, Unsupported> {
    let TableFactor::Table {
        name,
        alias,
        args: None,
        ..
    } = factor
    else {
        return Err("a FROM item other than a named relation");
    };
    let [ast::ObjectNamePart::Identifier(base)] = name.0.as_slice() else {
        return Err("a qualified relation name");
    };
    let qualifier = match alias {
        Some(a) if a.columns.is_empty() => ident(&a.name),
        Some(_) => return Err("column aliases on a FROM item"),
        None => ident(base),
    };
    let input = catalog.relation(&ident(base))?;
    scope
        .columns
        .extend(input.columns.iter().map(|c| (qualifier.clone(), c.clone())));
    errs.extend(input.errs);
    let on = on.map(|e| compile(e, &scope)).transpose()?;
    let mut out = vec![];
    for left in &rows {
        for right in &input.rows {
            let row: Row = left.iter().chain(right).cloned().collect();
            match on.as_ref().map_or(Ok(true), |on| on.holds(&row)) {
                Ok(true) => out.push(row),
                Ok(false) => {}
                Err(e) => errs.push(failed(e)?),
            }
        }
    }
    Ok((scope, out, errs))
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
                for (i, (_, n)) in scope.columns.iter().enumerate() {
                    out.push((ItemExpr::Column(i), n.clone()));
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
    projection: &[SelectItem],
    scope: &Scope,
    rows: Vec<Row>,
    mut errs: Vec<String>,
) -> Result<Relation, Unsupported> {
    let items = items(projection, scope)?;
    let exprs = items
        .iter()
        .map(|(e, _)| match e {
            ItemExpr::Ast(e) => compile(e, scope),
            ItemExpr::Column(i) => Ok(Scalar::Column(*i)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = vec![];
    for row in rows {
        match exprs
            .iter()
            .map(|e| e.eval(&row))
            .collect::<Result<Row, _>>()
        {
            Ok(r) => out.push(r),
            Err(e) => errs.push(failed(e)?),
        }
    }
    Ok(Relation {
        columns: items.into_iter().map(|(_, n)| n).collect(),
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
    let keys = keys
        .iter()
        .map(|k| compile(k, scope))
        .collect::<Result<Vec<_>, _>>()?;
    let mut outputs = vec![];
    let mut columns = vec![];
    for (item, name) in items(projection, scope)? {
        let ItemExpr::Ast(e) = item else {
            return Err("`*` in a grouped SELECT");
        };
        outputs.push(match aggregate(e) {
            Some(a) => {
                let (func, arg) = a?;
                Output::Aggregate(func, arg.map(|a| compile(a, scope)).transpose()?)
            }
            None => {
                let c = compile(e, scope)?;
                Output::Key(
                    keys.iter()
                        .position(|k| *k == c)
                        .ok_or("a grouped SELECT item that is not a key")?,
                )
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
        Func::Min => values.into_iter().min().unwrap_or(Datum::Null),
        Func::Max => values.into_iter().max().unwrap_or(Datum::Null),
        Func::Sum if values.is_empty() => Datum::Null,
        Func::Sum => {
            let mut sum: i64 = 0;
            for v in values {
                let v = match v {
                    Datum::Int32(i) => i as i64,
                    Datum::Int64(i) => i,
                    _ => return Err("sum of a non-integer"),
                };
                match sum.checked_add(v) {
                    Some(s) => sum = s,
                    None => {
                        // The real system's sum of bigints is a numeric: the
                        // engine refuses a sum past 64 bits.
                        errs.push(
                            "unsupported: sum beyond the range of a bigint (a numeric in the real system)"
                                .into(),
                        );
                        return Ok(Datum::Null);
                    }
                }
            }
            Datum::Int64(sum)
        }
    })
}
