//! Window functions in a SELECT's list, computed naively over the rows
//! WHERE kept: each call's partition found by comparing values, sorted by
//! its ORDER BY (ascending `NULLS LAST`, descending `NULLS FIRST`, as
//! Materialize orders), and numbered. `rank` and `dense_rank` depend only
//! on the ORDER BY values, so they are claimed always; `row_number`,
//! `lag`, `lead`, `first_value` and `last_value` depend on the order of
//! peers (rows whose ORDER BY values are equal), which SQL leaves
//! undefined: they are claimed only where no two different rows of a
//! partition are peers (docs/tools/model.md). A call's value is appended
//! to its row; the projection reads it as a column.

use crate::scalar::{compile, Scalar, Scope, Unsupported};
use engine::repr::{Datum, Row};
use sqlparser::ast::{self, FunctionArg, FunctionArgExpr, FunctionArguments, OrderBySort};
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    RowNumber,
    Rank,
    DenseRank,
    /// `lag` (true) or `lead` (false), with its offset.
    Shift(bool, i64),
    FirstValue,
    LastValue,
}

/// One window function call, compiled.
#[derive(Debug)]
pub struct Call {
    func: Func,
    arg: Option<Scalar>,
    partition: Vec<Scalar>,
    /// Each ORDER BY expression and whether it is descending.
    order: Vec<(Scalar, bool)>,
}

/// The call `e` is, if it is a window function's (`Some`), compiled.
pub fn call(e: &ast::Expr, scope: &Scope) -> Option<Result<Call, Unsupported>> {
    let ast::Expr::Function(f) = e else {
        return None;
    };
    let over = f.over.as_ref()?;
    Some(compile_call(f, over, scope))
}

fn compile_call(
    f: &ast::Function,
    over: &ast::WindowType,
    scope: &Scope,
) -> Result<Call, Unsupported> {
    let name = f.name.to_string().to_lowercase();
    if matches!(name.as_str(), "count" | "sum" | "min" | "max" | "avg") {
        return Err("an aggregate over a window");
    }
    let ast::WindowType::WindowSpec(spec) = over else {
        return Err("a named window");
    };
    if spec.window_name.is_some() || spec.window_frame.is_some() {
        return Err("a window frame or a named window");
    }
    if f.filter.is_some() || f.null_treatment.is_some() || !f.within_group.is_empty() {
        return Err("a window function with FILTER, IGNORE NULLS or WITHIN GROUP");
    }
    let FunctionArguments::List(list) = &f.args else {
        return Err("a window function without an argument list");
    };
    if list.duplicate_treatment.is_some() || !list.clauses.is_empty() {
        return Err("a window function's arguments outside the model");
    }
    let mut args = vec![];
    for a in &list.args {
        let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = a else {
            return Err("a window function's arguments outside the model");
        };
        args.push(e);
    }
    let offset = |e: &ast::Expr| match e {
        ast::Expr::Value(v) => match &v.value {
            ast::Value::Number(n, false) => n.parse::<i64>().map_err(|_| "a big offset"),
            _ => Err("an offset that is not a number"),
        },
        _ => Err("an offset that is not a literal"),
    };
    let (func, arg) = match (name.as_str(), args.as_slice()) {
        ("row_number", []) => (Func::RowNumber, None),
        ("rank", []) => (Func::Rank, None),
        ("dense_rank", []) => (Func::DenseRank, None),
        ("lag" | "lead", [v]) => (Func::Shift(name == "lag", 1), Some(*v)),
        ("lag" | "lead", [v, n]) => (Func::Shift(name == "lag", offset(n)?), Some(*v)),
        ("first_value", [v]) => (Func::FirstValue, Some(*v)),
        ("last_value", [v]) => (Func::LastValue, Some(*v)),
        _ => return Err("a window function outside the model"),
    };
    let partition = spec.partition_by.iter().map(|e| compile(e, scope));
    let partition = partition.collect::<Result<Vec<_>, _>>()?;
    let mut order = vec![];
    for o in &spec.order_by {
        if o.with_fill.is_some() || o.options.nulls_first.is_some() {
            return Err("a window ORDER BY with NULLS FIRST, NULLS LAST or WITH FILL");
        }
        let desc = match &o.options.sort {
            None | Some(OrderBySort::Asc) => false,
            Some(OrderBySort::Desc) => true,
            Some(OrderBySort::Using(_)) => return Err("ORDER BY USING"),
        };
        order.push((compile(&o.expr, scope)?, desc));
    }
    let arg = arg.map(|a| compile(a, scope)).transpose()?;
    Ok(Call {
        func,
        arg,
        partition,
        order,
    })
}

/// SQL's order of one ORDER BY value: NULL after every value ascending.
fn compare(x: &Datum, y: &Datum) -> Result<Ordering, Unsupported> {
    if crate::floats::is_float(x) || crate::floats::is_float(y) {
        return Err("a window ordered by floats");
    }
    Ok(match (x, y) {
        (Datum::Null, Datum::Null) => Ordering::Equal,
        (Datum::Null, _) => Ordering::Greater,
        (_, Datum::Null) => Ordering::Less,
        _ => x.cmp(y),
    })
}

/// Each row with every call's value appended, in order.
pub fn compute(calls: &[Call], rows: Vec<Row>) -> Result<Vec<Row>, Unsupported> {
    let mut out = rows.clone();
    // Two calls that each number peers could pair their values across two
    // copies of a row either way: then no peers at all are claimed.
    let numbering = calls.iter().filter(|c| c.by_peers()).count();
    for call in calls {
        let values = values(call, &rows, numbering > 1)?;
        for (row, v) in out.iter_mut().zip(values) {
            row.push(v);
        }
    }
    Ok(out)
}

impl Call {
    /// Whether its values depend on the order of peers.
    fn by_peers(&self) -> bool {
        !matches!(self.func, Func::Rank | Func::DenseRank)
    }
}

/// One call's value for each row, in the rows' order; `strict`: no peers
/// at all, not even copies of one row.
fn values(call: &Call, rows: &[Row], strict: bool) -> Result<Vec<Datum>, Unsupported> {
    let eval = |e: &Scalar, row: &Row| e.eval(row).map_err(|_| "an error in a window's input");
    // (partition, order values, argument) of each row.
    let mut keyed = vec![];
    for row in rows {
        let partition = call.partition.iter().map(|p| eval(p, row));
        let partition = partition.collect::<Result<Vec<_>, _>>()?;
        let order = call.order.iter().map(|(o, _)| eval(o, row));
        let order = order.collect::<Result<Vec<_>, _>>()?;
        let arg = call.arg.as_ref().map(|a| eval(a, row)).transpose()?;
        keyed.push((partition, order, arg));
    }
    let by_order = |a: &[Datum], b: &[Datum]| -> Result<Ordering, Unsupported> {
        for ((x, y), (_, desc)) in a.iter().zip(b).zip(&call.order) {
            let o = compare(x, y)?;
            let o = if *desc { o.reverse() } else { o };
            if o != Ordering::Equal {
                return Ok(o);
            }
        }
        Ok(Ordering::Equal)
    };
    let mut out = vec![Datum::Null; rows.len()];
    let mut done = vec![false; rows.len()];
    for start in 0..rows.len() {
        if done[start] {
            continue;
        }
        let mut members: Vec<usize> = (start..rows.len())
            .filter(|i| keyed[*i].0 == keyed[start].0)
            .collect();
        members.iter().for_each(|i| done[*i] = true);
        // Insertion sort by the ORDER BY values (a comparison may refuse).
        for i in 1..members.len() {
            let mut j = i;
            while j > 0 && by_order(&keyed[members[j]].1, &keyed[members[j - 1]].1)?.is_lt() {
                members.swap(j, j - 1);
                j -= 1;
            }
        }
        let peers = |a: usize, b: usize| keyed[members[a]].1 == keyed[members[b]].1;
        if call.by_peers() {
            for i in 1..members.len() {
                let copies = rows[members[i - 1]] == rows[members[i]];
                if peers(i - 1, i) && (strict || !copies) {
                    return Err("a window function over peers whose order SQL leaves undefined");
                }
            }
        }
        let n = members.len();
        let arg = |i: usize| keyed[members[i]].2.clone().unwrap_or(Datum::Null);
        let (mut rank, mut dense) = (1, 1);
        for i in 0..n {
            if i > 0 && !peers(i - 1, i) {
                rank = i as i64 + 1;
                dense += 1;
            }
            out[members[i]] = match call.func {
                Func::RowNumber => Datum::Int64(i as i64 + 1),
                Func::Rank => Datum::Int64(rank),
                Func::DenseRank => Datum::Int64(dense),
                Func::Shift(lag, offset) => {
                    let at = if lag {
                        i as i64 - offset
                    } else {
                        i as i64 + offset
                    };
                    match usize::try_from(at).ok().filter(|at| *at < n) {
                        Some(at) => arg(at),
                        None => Datum::Null,
                    }
                }
                Func::FirstValue => arg(0),
                // The default frame ends at the current row's last peer.
                Func::LastValue => arg((i..n).take_while(|j| peers(i, *j)).last().unwrap_or(i)),
            };
        }
    }
    Ok(out)
}
