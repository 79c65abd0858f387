//! An aggregate call's parts as written (its function, arguments,
//! `DISTINCT`, `FILTER (WHERE ...)` and `ORDER BY`), read before planning
//! so that `walk` and `refusal` see every expression in it; and the
//! direction of an `ORDER BY` key in a call, a window's too.

use sqlparser::ast::{
    DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause,
    FunctionArguments, OrderByExpr, OrderBySort,
};

use super::function_name;
use crate::plan::AggregateFunc;
use crate::repr::unsupported;

/// An aggregate Materialize rewrites into others before planning
/// (`transform_ast.rs`): `bool_and` and `bool_or` into a `sum`
/// (`sum((NOT x)::int4) = 0` and `sum((x OR false)::int4) > 0`), the
/// variances and standard deviations into `sum`s and a `count`
/// (`variance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewrite {
    And,
    Or,
    Variance(Variance),
}

/// Which of the variances and standard deviations a call is
/// (`variance`, which plans them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variance {
    /// The function's name, as the call wrote it (lower case).
    pub name: &'static str,
    /// Of a sample (`count - 1` below the line), not of the population.
    pub sample: bool,
    /// The standard deviation: the variance's square root.
    pub root: bool,
}

impl Variance {
    /// The function `name` names, if one of the six.
    pub fn of(name: &str) -> Option<Variance> {
        let (name, sample, root) = match name {
            "variance" => ("variance", true, false),
            "var_samp" => ("var_samp", true, false),
            "var_pop" => ("var_pop", false, false),
            "stddev" => ("stddev", true, true),
            "stddev_samp" => ("stddev_samp", true, true),
            "stddev_pop" => ("stddev_pop", false, true),
            _ => return None,
        };
        Some(Variance { name, sample, root })
    }
}

/// An aggregate call's parts.
#[derive(Debug)]
pub struct Call<'e> {
    pub func: AggregateFunc,
    /// Empty for `count(*)`.
    pub args: Vec<&'e Expr>,
    pub distinct: bool,
    pub filter: Option<&'e Expr>,
    pub order_by: &'e [OrderByExpr],
    /// The rewrite of a call that is one, whose `func` is `Sum`.
    pub rewrite: Option<Rewrite>,
}

impl<'e> Call<'e> {
    /// Every expression written in the call.
    pub fn exprs(&self) -> impl Iterator<Item = &'e Expr> + '_ {
        let keys = self.order_by.iter().map(|o| &o.expr);
        self.args.iter().copied().chain(self.filter).chain(keys)
    }
}

/// Checks an aggregate call and reads its parts.
pub fn aggregate_call(f: &Function) -> Result<Call<'_>, String> {
    aggregate_parts(f, false)
}

/// Checks an aggregate call, with `OVER` if `windowed`, and reads its
/// parts.
pub fn aggregate_parts(f: &Function, windowed: bool) -> Result<Call<'_>, String> {
    let name = function_name(f);
    let (func, rewrite, arity) = match name.as_str() {
        "count" => (AggregateFunc::Count, None, 1),
        "sum" => (AggregateFunc::Sum, None, 1),
        "min" => (AggregateFunc::Min, None, 1),
        "max" => (AggregateFunc::Max, None, 1),
        "array_agg" => (AggregateFunc::ArrayAgg, None, 1),
        "avg" => (AggregateFunc::Avg, None, 1),
        "string_agg" => (AggregateFunc::StringAgg, None, 2),
        "jsonb_agg" => (AggregateFunc::JsonbAgg, None, 1),
        "jsonb_object_agg" => (AggregateFunc::JsonbObjectAgg, None, 2),
        "bool_and" => (AggregateFunc::Sum, Some(Rewrite::And), 1),
        "bool_or" => (AggregateFunc::Sum, Some(Rewrite::Or), 1),
        _ if Variance::of(&name).is_some() => {
            let variance = Variance::of(&name).map(Rewrite::Variance);
            (AggregateFunc::Sum, variance, 1)
        }
        // The real system has hundreds of functions; these are all here.
        _ => return Err(unsupported(format!("function {name}"))),
    };
    if f.over.is_some() && !windowed {
        return Err(unsupported("window function"));
    }
    let FunctionArguments::List(list) = &f.args else {
        return Err(unsupported(format!("function call form: {f}")));
    };
    let distinct = list.duplicate_treatment == Some(DuplicateTreatment::Distinct);
    let mut order_by: &[OrderByExpr] = &[];
    for clause in &list.clauses {
        match clause {
            FunctionArgumentClause::OrderBy(keys) if order_by.is_empty() => order_by = keys,
            _ => return Err(unsupported(format!("function call form: {f}"))),
        }
    }
    let plain = f.within_group.is_empty()
        && f.null_treatment.is_none()
        && matches!(f.parameters, FunctionArguments::None);
    if !plain {
        return Err(unsupported(format!("function call form: {f}")));
    }
    let mut call = Call {
        func,
        args: vec![],
        distinct,
        filter: f.filter.as_deref(),
        order_by,
        rewrite,
    };
    let arity_error = || match arity {
        1 => unsupported(format!("{name} of other than one argument")),
        _ => unsupported(format!("{name} of other than two arguments")),
    };
    for arg in &list.args {
        match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => call.args.push(e),
            FunctionArg::Unnamed(FunctionArgExpr::Wildcard)
                if func == AggregateFunc::Count && list.args.len() == 1 && !distinct =>
            {
                call.func = AggregateFunc::CountAll;
                return Ok(call);
            }
            _ => return Err(arity_error()),
        }
    }
    match call.args.len() == arity {
        true => Ok(call),
        false => Err(arity_error()),
    }
}

/// `DESC` and `NULLS FIRST` of an `ORDER BY` key in a call (a window's, an
/// aggregate's), as Materialize's `resolve_desc_and_nulls_last`: whether
/// descending, and whether NULLs go last (by default, when ascending).
pub fn direction(o: &OrderByExpr) -> Result<(bool, bool), String> {
    if o.with_fill.is_some() {
        return Err(unsupported(format!("ORDER BY option: {o}")));
    }
    let descending = matches!(o.options.sort, Some(OrderBySort::Desc));
    Ok((descending, !o.options.nulls_first.unwrap_or(descending)))
}
