//! Aggregates in expressions: the GROUP BY an expression is planned under
//! (`Grouping`), an aggregate call checked and planned as a column of the
//! reduce's output (whether an expression calls one at all is `walk`'s).

use sqlparser::ast::{
    DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Value,
};

use super::typed::{literal, Typed};
use super::{function_name, ExprContext};
use crate::plan::{Aggregate, AggregateFunc, BinaryOp, FloatWidth, ScalarExpr};
use crate::repr::array::ArrayElem;
use crate::repr::{unsupported, ScalarType};

/// The GROUP BY of the query being planned. Under it, expressions are over
/// the reduce's output (keys, then aggregates): an expression equal to a key
/// is that key's column, an aggregate call is its aggregate's column.
#[derive(Debug, Default)]
pub struct Grouping {
    /// Over the reduce's input.
    pub keys: Vec<Typed>,
    /// Each key's GROUP BY expression as written (`None` for a nested
    /// query's outer row), which an expression must be written as to be
    /// that key (`grouped.rs`).
    pub written: Vec<Option<Expr>>,
    pub aggregates: Vec<Aggregate>,
}

impl ExprContext<'_> {
    pub fn aggregate(
        &mut self,
        mut func: AggregateFunc,
        arg: Option<&Expr>,
        distinct: bool,
    ) -> Result<Typed, String> {
        let name = function_of(func);
        let Some(grouping) = self.grouping.as_deref_mut() else {
            // The real system names the function, except when nested.
            return Err(match self.no_aggregates.starts_with("nested") {
                true => self.no_aggregates.to_string(),
                false => format!("{} (function pg_catalog.{name})", self.no_aggregates),
            });
        };
        let mut inner = ExprContext::within(
            self.scope,
            "nested aggregate functions are not allowed",
            self.outer,
        );
        let arg = match arg {
            Some(e) => inner.plan(e)?,
            None => literal(&Value::Boolean(true))?,
        };
        // An argument naming only an outer query's columns makes the
        // aggregate that query's (PostgreSQL's rule), which is not planned.
        if let (0, 1..) = inner.refs() {
            return Err(unsupported("an aggregate of an outer query's columns"));
        }
        // The real system's overloads (docs/semantics.md, "Overloads"): a
        // NULL or a string literal is `unknown`, which several overloads
        // could take, and `avg` is its `sum` divided by its `count`.
        let summed = |arg: Typed| match arg.typ {
            _ if arg.is_unknown() => Err("function sum(unknown) is not unique".to_string()),
            Some(t) if t.is_integer() => Ok(arg),
            Some(ScalarType::Bool) if func == AggregateFunc::Sum => {
                Err("function sum(boolean) does not exist".to_string())
            }
            _ => Err(unsupported(format!("{name} of {}", arg.type_name()))),
        };
        let (arg, typ, nullable) = match func {
            AggregateFunc::CountAll | AggregateFunc::Count => (arg, Some(ScalarType::Int64), false),
            // A sum of floats is of their type, summed in fixed point, of
            // numerics a numeric, summed exactly; an average of either is
            // that sum over their count, as the real system plans `avg`
            // (docs/semantics.md, "Floats" and "Numeric").
            AggregateFunc::Sum | AggregateFunc::Avg if accumulated(&arg).is_some() => {
                let (sum_func, typ) = accumulated(&arg).expect("a float or a numeric");
                let sum = Aggregate {
                    func: sum_func,
                    expr: arg.expr.clone(),
                    distinct,
                };
                let sum = ScalarExpr::Column(column(grouping, sum));
                let expr = match func {
                    AggregateFunc::Sum => sum,
                    _ => {
                        let count = Aggregate {
                            func: AggregateFunc::Count,
                            expr: arg.expr,
                            distinct,
                        };
                        let count = ScalarExpr::Column(column(grouping, count));
                        let count = ScalarExpr::Cast(typ, Box::new(count));
                        ScalarExpr::Binary(BinaryOp::Div, Box::new(sum), Box::new(count))
                    }
                };
                return Ok(Typed::new(expr, typ, true));
            }
            // As the real system's overloads: sum(integer) is a bigint,
            // sum(bigint) a numeric (its `SumInt64`).
            AggregateFunc::Sum | AggregateFunc::SumInt64 => {
                let arg = summed(arg)?;
                match arg.typ {
                    Some(ScalarType::Int64) => {
                        func = AggregateFunc::SumInt64;
                        (arg, Some(ScalarType::Numeric), true)
                    }
                    _ => (arg, Some(ScalarType::Int64), true),
                }
            }
            AggregateFunc::Avg => (summed(arg)?, Some(ScalarType::Numeric), true),
            AggregateFunc::SumFloat(_) | AggregateFunc::SumNumeric => {
                unreachable!("planned from Sum")
            }
            AggregateFunc::ArrayAgg => {
                let elem = match arg.typ {
                    _ if arg.is_unknown() => None,
                    Some(t) => ArrayElem::of(t),
                    None => None,
                };
                let Some(elem) = elem else {
                    return Err(unsupported(format!("{name} of {}", arg.type_name())));
                };
                (arg, Some(ScalarType::Array(elem)), true)
            }
            AggregateFunc::Min | AggregateFunc::Max => {
                if arg.is_unknown() {
                    return Err(unsupported(format!("{name} of an unknown-typed argument")));
                }
                // The engine's aggregates take the derived order, not an
                // array's SQL order (NULL elements last).
                if let Some(t @ ScalarType::Array(_)) = arg.typ {
                    return Err(unsupported(format!("{name} of {}", t.name())));
                }
                let typ = arg.typ;
                (arg, typ, true)
            }
        };
        let aggregate = Aggregate {
            func,
            expr: arg.expr,
            distinct,
        };
        Ok(Typed {
            expr: ScalarExpr::Column(column(grouping, aggregate)),
            typ,
            nullable,
        })
    }
}

/// The reduce's output column of `aggregate`, added to the grouping's
/// aggregates unless it is there already.
fn column(grouping: &mut Grouping, aggregate: Aggregate) -> usize {
    let aggregates = &mut grouping.aggregates;
    let j = aggregates
        .iter()
        .position(|a| *a == aggregate)
        .unwrap_or_else(|| {
            aggregates.push(aggregate);
            aggregates.len() - 1
        });
    grouping.keys.len() + j
}

/// The sum of a float or numeric argument and its type (of its
/// argument's type), `None` for any other.
fn accumulated(arg: &Typed) -> Option<(AggregateFunc, ScalarType)> {
    let typ = arg.typ.filter(|_| !arg.is_unknown())?;
    Some(match typ {
        ScalarType::Float32 => (AggregateFunc::SumFloat(FloatWidth::F32), typ),
        ScalarType::Float64 => (AggregateFunc::SumFloat(FloatWidth::F64), typ),
        // Of any scale, a numeric without one (the real system's
        // `sum(numeric)`), and the count cast to one without rounding.
        ScalarType::Numeric | ScalarType::NumericScale(_) => {
            (AggregateFunc::SumNumeric, ScalarType::Numeric)
        }
        _ => return None,
    })
}

/// The SQL name of an aggregate function.
fn function_of(func: AggregateFunc) -> &'static str {
    match func {
        AggregateFunc::CountAll | AggregateFunc::Count => "count",
        AggregateFunc::Sum
        | AggregateFunc::SumInt64
        | AggregateFunc::SumFloat(_)
        | AggregateFunc::SumNumeric => "sum",
        AggregateFunc::Avg => "avg",
        AggregateFunc::Min => "min",
        AggregateFunc::Max => "max",
        AggregateFunc::ArrayAgg => "array_agg",
    }
}

/// Checks an aggregate call: its function, its argument (`None` for `*`)
/// and whether it is over distinct values (`count(DISTINCT x)`).
pub fn aggregate_call(f: &Function) -> Result<(AggregateFunc, Option<&Expr>, bool), String> {
    let name = function_name(f);
    let func = match name.as_str() {
        "count" => AggregateFunc::Count,
        "sum" => AggregateFunc::Sum,
        "min" => AggregateFunc::Min,
        "max" => AggregateFunc::Max,
        "array_agg" => AggregateFunc::ArrayAgg,
        "avg" => AggregateFunc::Avg,
        // The real system has hundreds of functions; these are all here.
        _ => return Err(unsupported(format!("function {name}"))),
    };
    if f.over.is_some() {
        return Err(unsupported("window function"));
    }
    let FunctionArguments::List(list) = &f.args else {
        return Err(unsupported(format!("function call form: {f}")));
    };
    let distinct = list.duplicate_treatment == Some(DuplicateTreatment::Distinct);
    let plain = f.filter.is_none()
        && f.within_group.is_empty()
        && f.null_treatment.is_none()
        && matches!(f.parameters, FunctionArguments::None)
        && list.clauses.is_empty();
    match (plain, func, list.args.as_slice()) {
        (false, ..) => Err(unsupported(format!("function call form: {f}"))),
        (_, AggregateFunc::Count, [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)])
            if !distinct =>
        {
            Ok((AggregateFunc::CountAll, None, false))
        }
        (_, _, [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))]) => Ok((func, Some(e), distinct)),
        _ => Err(unsupported(format!("{name} of other than one argument"))),
    }
}
