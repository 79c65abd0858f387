//! The FROM clause evaluated naively, by nested loops over whole
//! collections: each FROM item's joins left to right (inner joins with
//! `ON` or none, `LEFT`, `RIGHT` and `FULL` joins keeping their sides'
//! unmatched rows padded with NULLs, `USING` and `NATURAL` with their
//! joined columns first), the items crossed. Each input's errors are
//! carried once; a row whose `ON` fails adds its error instead.

use crate::relation::{Catalog, Relation};
use crate::scalar::{compile, ident, Cmp, EvalError, Scalar, Scope, Unsupported};
use crate::types::{is_string_type, Type};
use engine::repr::{Datum, Row};
use sqlparser::ast::{self, JoinConstraint, JoinOperator, TableFactor};

/// A FROM clause's scope, the rows of its (filtered) product and every
/// input's errors once.
pub type Product = (Scope, Vec<Row>, Vec<String>);

/// An evaluation error as data, or the reason to make no claim.
pub fn failed(e: EvalError) -> Result<String, Unsupported> {
    match e {
        EvalError::Error(text) => Ok(text),
        EvalError::Unsupported(why) => Err(why),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Inner,
    Left,
    Right,
    Full,
}

/// No FROM is one empty row.
fn empty() -> Product {
    (Scope::default(), vec![vec![]], vec![])
}

/// The FROM clause. An item after the first with an outer join is a join
/// tree of its own, crossed with the items before it (its conditions
/// cannot name them); inner joins fold into the product as they come.
pub fn from(items: &[ast::TableWithJoins], catalog: &dyn Catalog) -> Result<Product, Unsupported> {
    let mut product = empty();
    for (n, item) in items.iter().enumerate() {
        let outer = item.joins.iter().any(|j| {
            !matches!(
                j.join_operator,
                JoinOperator::Join(_) | JoinOperator::Inner(_) | JoinOperator::CrossJoin(_)
            )
        });
        product = match n > 0 && outer {
            true => {
                let own = joins(empty(), item, catalog)?;
                let (scope, rows, errs) = product;
                let named = Named {
                    types: own.0.all_types(),
                    columns: own.0.columns,
                    rows: own.1,
                    errs: own.2,
                    qualified_only: own.0.qualified_only,
                };
                join(
                    (scope, rows, errs),
                    named,
                    Kind::Inner,
                    &JoinConstraint::None,
                )?
            }
            false => joins(product, item, catalog)?,
        };
    }
    Ok(product)
}

/// One FROM item's relation and joins, onto `product`.
fn joins(
    mut product: Product,
    item: &ast::TableWithJoins,
    catalog: &dyn Catalog,
) -> Result<Product, Unsupported> {
    let none = JoinConstraint::None;
    product = join(product, named(&item.relation, catalog)?, Kind::Inner, &none)?;
    for j in &item.joins {
        let (kind, constraint) = match &j.join_operator {
            JoinOperator::Join(c) | JoinOperator::Inner(c) => (Kind::Inner, c),
            JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => (Kind::Left, c),
            JoinOperator::Right(c) | JoinOperator::RightOuter(c) => (Kind::Right, c),
            JoinOperator::FullOuter(c) => (Kind::Full, c),
            JoinOperator::CrossJoin(JoinConstraint::None) => (Kind::Inner, &none),
            _ => return Err("a join outside the model"),
        };
        product = join(product, named(&j.relation, catalog)?, kind, constraint)?;
    }
    Ok(product)
}

/// A join's right side: its columns (qualified), rows and errors.
struct Named {
    columns: Vec<(String, String)>,
    types: Vec<Option<Type>>,
    rows: Vec<Row>,
    errs: Vec<String>,
    qualified_only: Vec<usize>,
}

fn named(factor: &TableFactor, catalog: &dyn Catalog) -> Result<Named, Unsupported> {
    if matches!(
        factor,
        TableFactor::Table { args: Some(_), .. } | TableFactor::UNNEST { .. }
    ) {
        return Err("a table function in FROM");
    }
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
    let Relation {
        columns,
        types,
        rows,
        errs,
    } = catalog.relation(&ident(base))?;
    Ok(Named {
        types,
        columns: columns
            .into_iter()
            .map(|c| (qualifier.clone(), c))
            .collect(),
        rows,
        errs,
        qualified_only: vec![],
    })
}

/// The columns a `USING` or `NATURAL` join joins on: (name, left position,
/// right position) each, or none for a cross join.
fn using(
    scope: &Scope,
    right: &Named,
    constraint: &JoinConstraint,
) -> Result<Vec<(String, usize, usize)>, Unsupported> {
    let visible = |i: &usize| !scope.qualified_only.contains(i);
    let names: Vec<String> = match constraint {
        JoinConstraint::Using(names) => {
            let names = names.iter().map(|n| match n.0.as_slice() {
                [ast::ObjectNamePart::Identifier(i)] => Ok(ident(i)),
                _ => Err("a qualified name in USING"),
            });
            names.collect::<Result<_, _>>()?
        }
        JoinConstraint::Natural => {
            let left = (0..scope.columns.len()).filter(visible);
            let left = left.map(|i| scope.columns[i].1.clone());
            left.filter(|n| right.columns.iter().any(|(_, c)| c == n))
                .collect()
        }
        _ => return Ok(vec![]),
    };
    let mut pairs = vec![];
    for name in names {
        let one = |found: Vec<usize>| match found.as_slice() {
            [i] => Ok(*i),
            _ => Err("a USING column missing, or on a side more than once"),
        };
        let l = (0..scope.columns.len()).filter(|i| visible(i) && scope.columns[*i].1 == name);
        let r = (0..right.columns.len()).filter(|i| right.columns[*i].1 == name);
        let (l, r) = (one(l.collect())?, one(r.collect())?);
        if pairs.iter().any(|(n, _, _)| *n == name) {
            return Err("a column twice in USING");
        }
        pairs.push((name, l, r));
    }
    Ok(pairs)
}

/// An outer join's `ON` must be equalities of a column of each side (the
/// engine refuses any other).
fn equalities(on: &Scalar, left: usize) -> bool {
    match on {
        Scalar::And(a, b) => equalities(a, left) && equalities(b, left),
        Scalar::Cmp(Cmp::Eq, a, b) => match (&**a, &**b) {
            (Scalar::Column(a), Scalar::Column(b)) => (*a < left) != (*b < left),
            _ => false,
        },
        _ => false,
    }
}

fn join(
    (scope, rows, mut errs): Product,
    right: Named,
    kind: Kind,
    constraint: &JoinConstraint,
) -> Result<Product, Unsupported> {
    let (lw, rw) = (scope.columns.len(), right.columns.len());
    errs.extend(right.errs.iter().cloned());
    let pairs = using(&scope, &right, constraint)?;
    let mut both = scope.clone();
    both.types = scope.all_types();
    both.types
        .extend((0..rw).map(|i| right.types.get(i).copied().flatten()));
    both.columns.extend(right.columns.iter().cloned());
    let shifted = right.qualified_only.iter().map(|i| i + lw);
    both.qualified_only.extend(shifted);
    both.unstarred
        .extend(right.qualified_only.iter().map(|i| i + lw));
    let on = match constraint {
        JoinConstraint::On(e) => Some(compile(e, &both)?),
        JoinConstraint::None | JoinConstraint::Natural => None,
        JoinConstraint::Using(_) => None,
        _ => return Err("USING ... AS"),
    };
    if kind != Kind::Inner && !on.as_ref().is_none_or(|on| equalities(on, lw)) {
        return Err("an outer join's ON other than equalities of the two sides");
    }
    let equal = pairs.iter().map(|(_, l, r)| {
        let (l, r) = (
            Box::new(Scalar::Column(*l)),
            Box::new(Scalar::Column(lw + r)),
        );
        Scalar::Cmp(Cmp::Eq, l, r)
    });
    let condition = on
        .into_iter()
        .chain(equal)
        .reduce(|a, b| Scalar::And(Box::new(a), Box::new(b)));
    let mut out = vec![];
    let mut right_matched = vec![false; right.rows.len()];
    for l in &rows {
        let mut matched = false;
        for (j, r) in right.rows.iter().enumerate() {
            let row: Row = l.iter().chain(r).cloned().collect();
            match condition.as_ref().map_or(Ok(true), |c| c.holds(&row)) {
                Ok(true) => {
                    (matched, right_matched[j]) = (true, true);
                    out.push(row);
                }
                Ok(false) => {}
                Err(_) if kind != Kind::Inner => {
                    return Err("an outer join whose condition fails to evaluate")
                }
                Err(e) => errs.push(failed(e)?),
            }
        }
        if !matched && matches!(kind, Kind::Left | Kind::Full) {
            out.push(l.iter().cloned().chain(vec![Datum::Null; rw]).collect());
        }
    }
    if matches!(kind, Kind::Right | Kind::Full) {
        let unmatched = right.rows.iter().zip(&right_matched).filter(|(_, m)| !**m);
        for (r, _) in unmatched {
            out.push(vec![Datum::Null; lw].into_iter().chain(r.clone()).collect());
        }
    }
    if pairs.is_empty() {
        return Ok((both, out, errs));
    }
    // USING and NATURAL: the joined columns first, then both sides whole;
    // each side's joined column found only by its qualified name.
    let merged = |row: &Row, l: usize, r: usize| match kind {
        Kind::Inner | Kind::Left => row[l].clone(),
        Kind::Right => row[lw + r].clone(),
        Kind::Full if row[l] == Datum::Null => row[lw + r].clone(),
        Kind::Full => row[l].clone(),
    };
    let m = pairs.len();
    let rows = out.iter().map(|row| {
        let first = pairs.iter().map(|(_, l, r)| merged(row, *l, *r));
        first.chain(row.iter().cloned()).collect()
    });
    let rows = rows.collect();
    let hidden = pairs.iter().flat_map(|(_, l, r)| [*l + m, lw + *r + m]);
    let hidden: Vec<usize> = hidden.collect();
    let shift = |v: &[usize]| v.iter().map(|i| i + m).collect::<Vec<_>>();
    let names = pairs.iter().map(|(n, _, _)| (String::new(), n.clone()));
    // A joined column of a char or varchar: the model does not trim it.
    if pairs
        .iter()
        .any(|(_, l, r)| is_string_type(both.type_at(*l)) || is_string_type(both.type_at(lw + r)))
    {
        return Err("USING or NATURAL on a char or varchar column");
    }
    // The engine refuses an outer join of two types (`integer` beside
    // `bigint` too); the model knows a column's type only from a table.
    let alike = |l: usize, r: usize| {
        both.type_at(l)
            .is_some_and(|t| both.type_at(lw + r) == Some(t))
    };
    if kind != Kind::Inner && !pairs.iter().all(|(_, l, r)| alike(*l, *r)) {
        return Err("an outer join USING columns the model does not know to be of one type");
    }
    let scope = Scope {
        types: vec![None; m].into_iter().chain(both.all_types()).collect(),
        columns: names.chain(both.columns).collect(),
        qualified_only: shift(&both.qualified_only)
            .into_iter()
            .chain(hidden.iter().copied())
            .collect(),
        unstarred: shift(&both.unstarred).into_iter().chain(hidden).collect(),
        ..Scope::default()
    };
    Ok((scope, rows, errs))
}
