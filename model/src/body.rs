//! A query's body: a plain SELECT (`query.rs`) or set operations over
//! SELECTs and parenthesized queries, with their multiplicities counted
//! naively: `UNION ALL` adds, `EXCEPT ALL` subtracts (never below none),
//! `INTERSECT ALL` takes the smaller count, and the forms without `ALL`
//! keep each row once (docs/semantics.md, "Set operations, VALUES and WITH"). Each branch's
//! errors are kept once, beside the rows, as every input's are. Apart from
//! `query.rs` so that the SELECT knows nothing of what combines it; the
//! catalog, statements and reads evaluate a query through [`evaluate`].

use crate::query::{self, Catalog, Relation};
use crate::scalar::Unsupported;
use crate::types::Type;
use engine::repr::{Datum, Row};
use sqlparser::ast::{self, SetExpr, SetOperator, SetQuantifier};
use std::collections::BTreeMap;

/// A query's result, and whether it has an `ORDER BY` (which only matters
/// to a `nosort` read).
pub fn evaluate(q: &ast::Query, catalog: &dyn Catalog) -> Result<(Relation, bool), Unsupported> {
    if let SetExpr::Select(_) = &*q.body {
        return query::evaluate(q, catalog);
    }
    if q.with.is_some() || q.limit_clause.is_some() || q.fetch.is_some() {
        return Err("WITH, LIMIT, OFFSET or FETCH");
    }
    if q.order_by.is_some() {
        return Err("ORDER BY over a set operation");
    }
    Ok((rows_of(&q.body, catalog)?, false))
}

/// The plain SELECTs of a query's body, each branch of its set operations.
pub fn branches(body: &SetExpr) -> Result<Vec<&ast::Select>, Unsupported> {
    Ok(match body {
        SetExpr::Select(s) => vec![s],
        SetExpr::Query(q) => branches(&q.body)?,
        SetExpr::SetOperation { left, right, .. } => {
            let mut out = branches(left)?;
            out.extend(branches(right)?);
            out
        }
        _ => return Err("a query body other than SELECTs and set operations"),
    })
}

/// A body's rows and errors, each branch evaluated on its own.
fn rows_of(body: &SetExpr, catalog: &dyn Catalog) -> Result<Relation, Unsupported> {
    match body {
        SetExpr::Select(s) => query::evaluate_select(s, catalog),
        // A parenthesized query's own ORDER BY orders nothing.
        SetExpr::Query(q) => Ok(evaluate(q, catalog)?.0),
        SetExpr::SetOperation {
            left,
            op,
            set_quantifier,
            right,
        } => {
            let all = match set_quantifier {
                SetQuantifier::All => true,
                SetQuantifier::Distinct | SetQuantifier::None => false,
                _ => return Err("a set quantifier outside the model"),
            };
            let (left, right) = (rows_of(left, catalog)?, rows_of(right, catalog)?);
            combine(op, all, left, right)
        }
        _ => Err("a query body other than SELECTs and set operations"),
    }
}

/// `left op right` over rows of unified types.
fn combine(op: &SetOperator, all: bool, l: Relation, r: Relation) -> Result<Relation, Unsupported> {
    if l.columns.len() != r.columns.len() {
        return Err("set operation branches of different widths");
    }
    let (left, right, types) = unified(&l, &r)?;
    let count = |rows: Vec<Row>| {
        let mut counts: BTreeMap<Row, i64> = BTreeMap::new();
        rows.into_iter()
            .for_each(|row| *counts.entry(row).or_default() += 1);
        counts
    };
    let (left, right) = (count(left), count(right));
    let of = |counts: &BTreeMap<Row, i64>, row: &Row| counts.get(row).copied().unwrap_or(0);
    let mut keys: Vec<&Row> = left.keys().chain(right.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut rows = vec![];
    for row in keys {
        let (a, b) = (of(&left, row), of(&right, row));
        let n = match op {
            SetOperator::Union => a + b,
            SetOperator::Except => a - b,
            SetOperator::Intersect => a.min(b),
            _ => return Err("a set operator outside the model"),
        };
        let n = match (all, op) {
            (true, _) => n,
            (false, SetOperator::Except) => i64::from(a > 0 && b == 0),
            (false, _) => n.min(1),
        };
        rows.extend(std::iter::repeat_n(row.clone(), n.max(0) as usize));
    }
    let mut errs = l.errs;
    errs.extend(r.errs);
    Ok(Relation {
        columns: l.columns,
        types,
        rows,
        errs,
    })
}

/// A column's kind of value, by a known type or a value in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An integer of 16, 32 or 64 bits.
    Integer(u8),
    Other(std::mem::Discriminant<Datum>),
}

fn kind_of_type(t: Type) -> Result<Kind, Unsupported> {
    Ok(match t {
        Type::Int => Kind::Integer(32),
        Type::BigInt => Kind::Integer(64),
        Type::Char(_) | Type::VarChar(_) => return Err("a set operation of char or varchar"),
        Type::Text => Kind::Other(std::mem::discriminant(&Datum::Text(String::new()))),
        Type::Bool => Kind::Other(std::mem::discriminant(&Datum::Bool(true))),
        Type::Float(_) => return Err("a set operation of floats"),
    })
}

fn kind_of_datum(d: &Datum) -> Option<Kind> {
    match d {
        Datum::Null => None,
        Datum::Int16(_) => Some(Kind::Integer(16)),
        Datum::Int32(_) => Some(Kind::Integer(32)),
        Datum::Int64(_) => Some(Kind::Integer(64)),
        d => Some(Kind::Other(std::mem::discriminant(d))),
    }
}

/// Both sides' rows, and the result's column types.
type Unified = (Vec<Row>, Vec<Row>, Vec<Option<Type>>);

/// Both sides' rows with each column's integers widened to the type the
/// engine unifies them to (the wider), and the result's column types. A
/// column whose type one side leaves unknown (no known type and no value),
/// or whose sides are of kinds other than two integers, is no claim.
fn unified(l: &Relation, r: &Relation) -> Result<Unified, Unsupported> {
    let width = l.columns.len();
    let mut widths = vec![];
    let mut types = vec![];
    for i in 0..width {
        let side = |rel: &Relation| -> Result<Option<Kind>, Unsupported> {
            let known = rel.types.get(i).copied().flatten();
            let known = known.map(kind_of_type).transpose()?;
            let seen = rel.rows.iter().filter_map(|row| kind_of_datum(&row[i]));
            let mut kinds: Vec<Kind> = vec![];
            for k in known.into_iter().chain(seen) {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            match kinds.as_slice() {
                [] => Ok(None),
                [k] => Ok(Some(*k)),
                _ => Err("a column of values of more than one type"),
            }
        };
        let (a, b) = (side(l)?, side(r)?);
        let width = match (a, b) {
            (Some(Kind::Integer(x)), Some(Kind::Integer(y))) => Some(x.max(y)),
            (Some(x), Some(y)) if x == y => None,
            (Some(_), Some(_)) => return Err("a set operation of two types"),
            _ => return Err("a set operation over a column of unknown type"),
        };
        widths.push(width);
        let (lt, rt) = (
            l.types.get(i).copied().flatten(),
            r.types.get(i).copied().flatten(),
        );
        types.push(match (lt == rt, width) {
            (true, _) => lt,
            (false, Some(64)) => Some(Type::BigInt),
            (false, Some(32)) => Some(Type::Int),
            (false, _) => None,
        });
    }
    let widen = |rows: &[Row]| -> Vec<Row> {
        rows.iter()
            .map(|row| {
                row.iter()
                    .zip(&widths)
                    .map(|(d, w)| widened(d, *w))
                    .collect()
            })
            .collect()
    };
    Ok((widen(&l.rows), widen(&r.rows), types))
}

/// An integer cast to `bits` (exact: only ever wider).
fn widened(d: &Datum, bits: Option<u8>) -> Datum {
    let value = match d {
        Datum::Int16(i) => i64::from(*i),
        Datum::Int32(i) => i64::from(*i),
        Datum::Int64(i) => *i,
        d => return d.clone(),
    };
    match bits {
        Some(64) => Datum::Int64(value),
        Some(32) => Datum::Int32(value as i32),
        Some(16) => Datum::Int16(value as i16),
        _ => d.clone(),
    }
}
