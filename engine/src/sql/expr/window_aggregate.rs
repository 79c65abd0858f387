//! An aggregate call with `OVER` (`sum(x) OVER (...)`), planned as
//! Materialize's `plan_function` plans a `Func::Aggregate` with a window:
//! the window first (`plan_window_function_common`), then the aggregate
//! as it would be without one (`plan_aggregate_common`), its overload and
//! result type those of the aggregate (src/sql/src/func.rs: `sum` of
//! integers a `bigint`, of `bigint`s a `numeric`; `count` a `bigint`).
//! `avg(x) OVER w` is Materialize's rewrite before planning
//! (`transform_ast.rs`, `plan_avg`): `mz_avg_promotion(sum(x) OVER w) /
//! CASE WHEN count(x) OVER w = 0 THEN NULL ELSE count(x) OVER w END`, two
//! window calls. What the engine does not compute exactly is refused by
//! name.

use sqlparser::ast::{Expr, Function, Ident, Value};

use super::aggregate::{accumulated, extreme, string_agg_argument, summed};
use super::aggregate_call::aggregate_parts;
use super::typed::{literal, Typed};
use crate::plan::{AggregateFunc, BinaryOp, Frame, FrameBound, ScalarExpr};
use crate::repr::array::ArrayElem;
use crate::repr::{unsupported, Datum, ScalarType};

/// Whether a call of `name` with `OVER` is an aggregate's.
pub(super) fn is_aggregate(name: &str) -> bool {
    matches!(
        name,
        "count"
            | "sum"
            | "min"
            | "max"
            | "avg"
            | "array_agg"
            | "string_agg"
            | "bool_and"
            | "bool_or"
    )
}

/// The arguments of an aggregate call with `OVER` (none for `count(*)`),
/// or its refusal.
pub(super) fn aggregate_args<'f>(f: &'f Function, name: &str) -> Result<Vec<&'f Expr>, String> {
    let call = aggregate_parts(f, true)?;
    if call.rewrite.is_some() {
        return Err(unsupported(format!("aggregate window function {name}")));
    }
    if call.distinct {
        // Materialize refuses it too.
        return Err(unsupported("DISTINCT in window aggregates"));
    }
    if call.filter.is_some() {
        return Err(unsupported("FILTER in window aggregates"));
    }
    if !call.order_by.is_empty() {
        return Err(unsupported("ORDER BY in the call of a window aggregate"));
    }
    Ok(call.args)
}

/// Refuses a frame from one end of the partition to an offset from the
/// row, as Materialize does (database-issues#6720).
pub(super) fn check_frame(frame: &Frame) -> Result<(), String> {
    use FrameBound::*;
    let offset = |b: FrameBound| matches!(b, OffsetPreceding(_) | OffsetFollowing(_));
    match (frame.start, frame.end) {
        (UnboundedPreceding, end) if offset(end) => {}
        (start, UnboundedFollowing) if offset(start) => {}
        _ => return Ok(()),
    }
    Err(unsupported("mixed unbounded - offset frames"))
}

/// The aggregate of a call of `name` (not `avg`) over a window, of `args`
/// (none for `count(*)`, which is `count(true)`) as it takes them, with
/// the type and nullability of its value; `ordered`: the window has an
/// ORDER BY.
pub(super) fn window_aggregate(
    name: &str,
    mut args: Vec<Typed>,
    frame: &Frame,
    ordered: bool,
) -> Result<(AggregateFunc, Vec<Typed>, ScalarType, bool), String> {
    if args.is_empty() {
        args.push(literal(&Value::Boolean(true))?);
    }
    if name == "string_agg" {
        let args = args.into_iter().map(string_agg_argument);
        let args = args.collect::<Result<_, _>>()?;
        return Ok((AggregateFunc::StringAgg, args, ScalarType::Text, true));
    }
    let arg = &args[0];
    let (func, typ, nullable) = overload(name, arg)?;
    if let AggregateFunc::SumFloat(_) = func {
        if frame.evaluated(ordered) {
            // Materialize adds them as floats in the frame's order there,
            // not in fixed point as the dataflow sums them.
            let t = arg.type_name();
            return Err(unsupported(format!(
                "sum of {t} over the whole partition or an offset frame"
            )));
        }
    }
    Ok((func, args, typ, nullable))
}

/// The calls `avg(x) OVER w` is planned as: `sum(x) OVER w` and
/// `count(x) OVER w`, written as `f` with another name.
pub(super) fn avg_calls(f: &Function) -> [Function; 2] {
    ["sum", "count"].map(|name| Function {
        name: vec![Ident::new(name)].into(),
        ..f.clone()
    })
}

/// `avg(x) OVER w` of its `sum` and `count` calls' values, as Materialize
/// rewrites it: the sum, made a `numeric` if it is an integer, over the
/// count cast to its type, NULL where the count is 0.
pub(super) fn avg(sum: Typed, count: Typed) -> Typed {
    let (sum, typ) = match sum.typ {
        Some(t @ (ScalarType::Float32 | ScalarType::Float64 | ScalarType::Numeric)) => {
            (sum.expr, t)
        }
        _ => (
            ScalarExpr::Cast(ScalarType::Numeric, Box::new(sum.expr)),
            ScalarType::Numeric,
        ),
    };
    let zero = ScalarExpr::Literal(Datum::Int64(0));
    let is_zero = ScalarExpr::Binary(BinaryOp::Eq, Box::new(count.expr.clone()), Box::new(zero));
    let count = ScalarExpr::Case {
        whens: vec![(is_zero, ScalarExpr::Literal(Datum::Null))],
        els: Box::new(ScalarExpr::Cast(typ, Box::new(count.expr))),
    };
    let avg = ScalarExpr::Binary(BinaryOp::Div, Box::new(sum), Box::new(count));
    Typed::new(avg, typ, true)
}

/// The aggregate `name` of `arg` is, its type and whether it can be NULL,
/// as the real system's overloads choose (those the engine plans).
fn overload(name: &str, arg: &Typed) -> Result<(AggregateFunc, ScalarType, bool), String> {
    Ok(match name {
        "count" => (AggregateFunc::Count, ScalarType::Int64, false),
        "sum" => match accumulated(arg) {
            Some((func, typ)) => (func, typ, true),
            None => match summed(name, arg.clone())?.typ {
                Some(ScalarType::Int64) => (AggregateFunc::SumInt64, ScalarType::Numeric, true),
                _ => (AggregateFunc::Sum, ScalarType::Int64, true),
            },
        },
        "array_agg" => {
            let elem = arg
                .typ
                .filter(|_| !arg.is_unknown())
                .and_then(ArrayElem::of);
            let Some(elem) = elem else {
                return Err(unsupported(format!("{name} of {}", arg.type_name())));
            };
            (AggregateFunc::ArrayAgg, ScalarType::Array(elem), true)
        }
        _ => {
            extreme(name, arg)?;
            let func = match name {
                "min" => AggregateFunc::Min,
                _ => AggregateFunc::Max,
            };
            (func, arg.typ.expect("a known type"), true)
        }
    })
}
