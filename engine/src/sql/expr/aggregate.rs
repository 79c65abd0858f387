//! Aggregates in expressions: the GROUP BY an expression is planned under
//! (`Grouping`), an aggregate call checked and planned as a column of the
//! reduce's output (whether an expression calls one at all is `walk`'s).

use sqlparser::ast::{BinaryOperator, CastKind, DataType, Expr, OrderByExpr, UnaryOperator, Value};

use super::aggregate_call::{direction, Call, Rewrite};
use super::jsonb::{aggregated_key, aggregated_value};
use super::typed::{literal, Typed};
use super::ExprContext;
use crate::plan::{Aggregate, AggregateFunc, BinaryOp, FloatWidth, Ordered, ScalarExpr, SortKey};
use crate::repr::array::ArrayElem;
use crate::repr::{unsupported, Datum, ScalarType};

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
    pub fn aggregate(&mut self, call: &Call) -> Result<Typed, String> {
        match call.rewrite {
            Some(Rewrite::Variance(variance)) => return self.variance(call, variance),
            Some(Rewrite::And) => return self.bool_aggregate(call, true),
            Some(Rewrite::Or) => return self.bool_aggregate(call, false),
            None => {}
        }
        let mut func = call.func;
        let distinct = call.distinct;
        let name = function_of(func);
        if self.grouping.is_none() {
            // The real system names the function, except when nested.
            return Err(match self.no_aggregates.starts_with("nested") {
                true => self.no_aggregates.to_string(),
                false => format!("{} (function pg_catalog.{name})", self.no_aggregates),
            });
        }
        let mut inner = ExprContext::within(
            self.scope,
            "nested aggregate functions are not allowed",
            self.outer,
        );
        let mut args = match call.args.as_slice() {
            [] => vec![literal(&Value::Boolean(true))?],
            exprs => exprs
                .iter()
                .map(|e| inner.plan(e))
                .collect::<Result<_, _>>()?,
        };
        let (inner_refs, outer_refs) = inner.refs();
        // Planned for every aggregate, kept by the order-sensitive ones
        // only, as Materialize's `plan_aggregate_common` does.
        let order_by = order_keys(&mut inner, call.order_by)?;
        // Its overload is chosen before the FILTER is planned.
        if func == AggregateFunc::StringAgg {
            args = args
                .into_iter()
                .map(string_agg_argument)
                .collect::<Result<_, _>>()?;
        }
        let (filter, (filter_inner, filter_outer)) = match call.filter {
            Some(e) => self.aggregate_filter(e)?,
            None => (None, (0, 0)),
        };
        // An argument (or FILTER) naming only an outer query's columns
        // makes the aggregate that query's (PostgreSQL's rule), which is
        // not planned; the ORDER BY's columns do not count.
        if let (0, 1..) = (inner_refs + filter_inner, outer_refs + filter_outer) {
            return Err(unsupported("an aggregate of an outer query's columns"));
        }
        if func == AggregateFunc::CountAll && filter.is_some() {
            // `count(*)` is `count(true)`, which a FILTER makes NULL.
            func = AggregateFunc::Count;
        }
        let grouping = self.grouping.as_deref_mut().expect("checked above");
        let arg = args.remove(0);
        // The real system's overloads (docs/semantics.md, "Overloads"): a
        // NULL or a string literal is `unknown`, which several overloads
        // could take, and `avg` is its `sum` divided by its `count`.
        let mut ordered = Ordered::default();
        let (arg, typ, nullable) = match func {
            AggregateFunc::CountAll | AggregateFunc::Count => (arg, Some(ScalarType::Int64), false),
            // A sum of floats is of their type, summed in fixed point, of
            // numerics a numeric, summed exactly; an average of either is
            // that sum over their count, as the real system plans `avg`
            // (docs/semantics.md, "Floats" and "Numeric").
            AggregateFunc::Sum | AggregateFunc::Avg if accumulated(&arg).is_some() => {
                let (sum_func, typ) = accumulated(&arg).expect("a float or a numeric");
                let arg = filtered(arg.expr, &filter);
                let sum = Aggregate::new(sum_func, arg.clone(), distinct);
                let sum = ScalarExpr::Column(column(grouping, sum));
                let expr = match func {
                    AggregateFunc::Sum => sum,
                    _ => {
                        let count = Aggregate::new(AggregateFunc::Count, arg, distinct);
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
                let arg = summed(name, arg)?;
                match arg.typ {
                    Some(ScalarType::Int64) => {
                        func = AggregateFunc::SumInt64;
                        (arg, Some(ScalarType::Numeric), true)
                    }
                    _ => (arg, Some(ScalarType::Int64), true),
                }
            }
            AggregateFunc::Avg => (summed(name, arg)?, Some(ScalarType::Numeric), true),
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
                // Materialize's identity of `array_agg` under a FILTER is
                // the empty array: a group whose rows are all filtered out
                // is `{}`, so the condition goes beside the value.
                ordered.args.extend(filter.clone());
                ordered.order_by = order_by;
                (arg, Some(ScalarType::Array(elem)), true)
            }
            AggregateFunc::StringAgg => {
                ordered.args.push(filtered(args.remove(0).expr, &filter));
                ordered.order_by = order_by;
                (arg, Some(ScalarType::Text), true)
            }
            AggregateFunc::JsonbAgg => {
                ordered.order_by = order_by;
                (aggregated_value(name, arg)?, Some(ScalarType::Jsonb), true)
            }
            AggregateFunc::JsonbObjectAgg => {
                let value = aggregated_value(name, args.remove(0))?;
                ordered.args.push(filtered(value.expr, &filter));
                ordered.order_by = order_by;
                (aggregated_key(name, arg)?, Some(ScalarType::Jsonb), true)
            }
            AggregateFunc::Min | AggregateFunc::Max => {
                extreme(name, &arg)?;
                let typ = arg.typ;
                (arg, typ, true)
            }
        };
        let aggregate = Aggregate {
            func,
            expr: filtered(arg.expr, &filter),
            distinct,
            ordered,
        };
        Ok(Typed {
            expr: ScalarExpr::Column(column(grouping, aggregate)),
            typ,
            nullable,
        })
    }
}

impl ExprContext<'_> {
    /// `bool_and(x)` as `sum((NOT x)::int4) = 0` and `bool_or(x)` as
    /// `sum((x OR false)::int4) > 0`, Materialize's rewrites before
    /// planning (`transform_ast.rs`), which drop an ORDER BY unplanned.
    fn bool_aggregate(&mut self, call: &Call, and: bool) -> Result<Typed, String> {
        let x = Box::new(Expr::Nested(Box::new(call.args[0].clone())));
        let (as_int, op) = match and {
            true => (
                Expr::UnaryOp {
                    op: UnaryOperator::Not,
                    expr: x,
                },
                BinaryOp::Eq,
            ),
            false => {
                let right = Box::new(Expr::Value(Value::Boolean(false).into()));
                let or = BinaryOperator::Or;
                (
                    Expr::BinaryOp {
                        left: x,
                        op: or,
                        right,
                    },
                    BinaryOp::Gt,
                )
            }
        };
        let as_int = Expr::Cast {
            kind: CastKind::DoubleColon,
            expr: Box::new(Expr::Nested(Box::new(as_int))),
            data_type: DataType::Int4(None),
            format: None,
        };
        let sum = self.aggregate(&Call {
            args: vec![&as_int],
            order_by: &[],
            rewrite: None,
            ..*call
        })?;
        let zero = Box::new(ScalarExpr::Literal(Datum::Int64(0)));
        let expr = ScalarExpr::Binary(op, Box::new(sum.expr), zero);
        Ok(Typed::new(expr, ScalarType::Bool, true))
    }

    /// A `FILTER (WHERE ...)`'s condition, and how many column references
    /// it resolved here and in an outer query. Its type error names the
    /// context Materialize plans aggregates in (`type_as(ecx, ...)` in
    /// `plan_aggregate_common`, whose `ecx` is "aggregate function").
    fn aggregate_filter(&self, e: &Expr) -> Result<FilterPlan, String> {
        let no_aggregates = "aggregate functions are not allowed in FILTER";
        let mut cx = ExprContext::within(self.scope, no_aggregates, self.outer);
        let t = cx.plan(e)?.expect(ScalarType::Bool, |t| {
            format!("aggregate function must have type boolean, not type {t}")
        })?;
        Ok((Some(t.expr), cx.refs()))
    }
}

/// A FILTER's condition and the column references it resolved.
type FilterPlan = (Option<ScalarExpr>, (usize, usize));

/// The keys of an aggregate call's `ORDER BY`, planned as Materialize's
/// `plan_function_order_by` plans them: no positions, a key of unknown
/// type taken as text.
fn order_keys(cx: &mut ExprContext, order_by: &[OrderByExpr]) -> Result<Vec<SortKey>, String> {
    order_by
        .iter()
        .map(|o| {
            let (descending, nulls_last) = direction(o)?;
            let key = cx.plan(&o.expr)?;
            let key = match key.is_unknown() {
                true => key.coerce(ScalarType::Text)?,
                false => key,
            };
            Ok(SortKey {
                expr: key.expr,
                descending,
                nulls_last,
            })
        })
        .collect()
}

/// `expr` where the FILTER's condition holds, else NULL: Materialize's
/// `CASE WHEN cond THEN expr ELSE identity END`, whose identity is NULL
/// for every aggregate but `array_agg` (which reads the condition itself).
fn filtered(expr: ScalarExpr, filter: &Option<ScalarExpr>) -> ScalarExpr {
    match filter {
        None => expr,
        Some(cond) => ScalarExpr::Case {
            whens: vec![(cond.clone(), expr)],
            els: Box::new(ScalarExpr::Literal(Datum::Null)),
        },
    }
}

/// An argument of `string_agg(text, text)`: a text, a `varchar` made one,
/// or an unknown literal read as one; any other type is refused.
pub(super) fn string_agg_argument(arg: Typed) -> Result<Typed, String> {
    match arg.typ {
        _ if arg.is_unknown() => arg.coerce(ScalarType::Text),
        Some(ScalarType::Text) => Ok(arg),
        Some(ScalarType::VarChar(_)) => Ok(arg.cast(ScalarType::Text)),
        _ => Err(unsupported(format!("string_agg of {}", arg.type_name()))),
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

/// An argument of `sum` or `avg` of integers, as the real system's
/// overloads take one: a NULL or a string literal is `unknown`, which
/// several overloads could take, and `sum(boolean)` has none.
pub(super) fn summed(name: &str, arg: Typed) -> Result<Typed, String> {
    match arg.typ {
        _ if arg.is_unknown() => Err("function sum(unknown) is not unique".to_string()),
        Some(t) if t.is_integer() => Ok(arg),
        Some(ScalarType::Bool) if name == "sum" => {
            Err("function sum(boolean) does not exist".to_string())
        }
        _ => Err(unsupported(format!("{name} of {}", arg.type_name()))),
    }
}

/// Refuses an argument of `min` or `max` the engine does not order as the
/// real system: of unknown type, an array or a list (the engine's
/// aggregates take the derived order, not their SQL order, NULL elements
/// last); and a `bytea`, of which the real system has neither.
pub(super) fn extreme(name: &str, arg: &Typed) -> Result<(), String> {
    if arg.is_unknown() {
        return Err(unsupported(format!("{name} of an unknown-typed argument")));
    }
    if let Some(t @ (ScalarType::Array(_) | ScalarType::List(_) | ScalarType::Bytes)) = arg.typ {
        return Err(unsupported(format!("{name} of {}", t.name())));
    }
    Ok(())
}

/// The sum of a float or numeric argument and its type (of its
/// argument's type), `None` for any other.
pub(super) fn accumulated(arg: &Typed) -> Option<(AggregateFunc, ScalarType)> {
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
        AggregateFunc::StringAgg => "string_agg",
        AggregateFunc::JsonbAgg => "jsonb_agg",
        AggregateFunc::JsonbObjectAgg => "jsonb_object_agg",
    }
}
