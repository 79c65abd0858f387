//! A window function call in a select list (`row_number() OVER (...)`),
//! planned as Materialize's `plan_function` plans one: its function and
//! arguments, its `PARTITION BY`, `ORDER BY` and frame, each expression
//! over the row the query has after GROUP BY and HAVING. Its value is a
//! placeholder column, `WINDOW_COLUMN` on, that `query::window` places
//! once the reduces computing the calls are planned; what the engine does
//! not compute exactly is refused by name.

use sqlparser::ast::{
    DuplicateTreatment, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Value,
    WindowFrame, WindowFrameBound, WindowFrameUnits, WindowSpec, WindowType,
};

use super::aggregate_call::direction;
use super::typed::Typed;
use super::walk::{any_within, contains_subquery, contains_window};
use super::window_aggregate::{aggregate_args, avg, avg_calls, check_frame, is_aggregate};
use super::{function_name, ExprContext};
use crate::plan::{Frame, FrameBound, FrameUnits, ScalarExpr, WindowFunc};
use crate::repr::{unsupported, Datum, ScalarType};

/// The first placeholder column of a window function's value, past the
/// subqueries' (`SUBQUERY_COLUMN`).
pub const WINDOW_COLUMN: usize = 1 << 41;

/// A planned call: its function, its arguments, and its window.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowCallPlan {
    pub func: WindowFunc,
    pub args: Vec<ScalarExpr>,
    pub partition: Vec<ScalarExpr>,
    /// Each `ORDER BY` expression, whether descending, whether NULLs last.
    pub order_by: Vec<(ScalarExpr, bool, bool)>,
    pub frame: Frame,
    /// The value's type and whether it can be NULL.
    pub typ: ScalarType,
    pub nullable: bool,
}

/// The window function calls of one select list, in the order they appear
/// there, each distinct text once (Materialize's `WindowFuncCollector`).
#[derive(Debug, Default)]
pub struct Windows {
    pub calls: Vec<WindowCallPlan>,
    texts: Vec<String>,
}

impl ExprContext<'_> {
    /// A call with `OVER`: its placeholder column, typed.
    pub(super) fn window(&mut self, f: &Function) -> Result<Typed, String> {
        let name = function_name(f);
        let Some(windows) = &self.windows else {
            // Materialize's text where it names the clause; the engine
            // plans window functions in the select list alone.
            let clause = self
                .no_aggregates
                .strip_prefix("aggregate functions are not allowed ");
            return Err(match clause {
                Some(c @ ("in WHERE clause" | "in GROUP BY clause")) => {
                    format!("window functions are not allowed {c} (function pg_catalog.{name})")
                }
                _ => unsupported("a window function outside the select list"),
            });
        };
        let text = f.to_string();
        if let Some(j) = windows.texts.iter().position(|t| *t == text) {
            let call = &windows.calls[j];
            let column = ScalarExpr::Column(WINDOW_COLUMN + j);
            return Ok(Typed::new(column, call.typ, call.nullable));
        }
        if is_aggregate(&name) {
            return self.window_aggregate(f, &name, text);
        }
        let func = window_func(&name)?;
        let args = plain_window_args(f, &name)?;
        let spec = self.window_spec(f, &args)?;
        let args = args
            .iter()
            .map(|e| self.plan(e))
            .collect::<Result<Vec<_>, String>>()?;
        let args = typed_args(func, &name, args)?;
        // The ranking functions give a `bigint`, the others their value.
        let (typ, nullable) = match args.first() {
            Some(value) => (value.typ.expect("a known type"), true),
            None => (ScalarType::Int64, false),
        };
        let args = args.into_iter().map(|a| a.expr.fold()).collect();
        Ok(self.add_window_call(func, args, spec, (typ, nullable), text))
    }

    /// An aggregate call with `OVER`, not yet planned under its `text`,
    /// as Materialize's `plan_function` plans one: the window first
    /// (`plan_window_function_common`), then the aggregate as it would be
    /// without one (`plan_aggregate_common`); `avg` is its rewrite into
    /// two calls (`window_aggregate.rs`).
    fn window_aggregate(
        &mut self,
        f: &Function,
        name: &str,
        text: String,
    ) -> Result<Typed, String> {
        let args = aggregate_args(f, name)?;
        let spec = self.window_spec(f, &args)?;
        check_frame(&spec.2)?;
        if name == "avg" {
            let [sum, count] = avg_calls(f);
            let sum = self.window(&sum)?;
            return Ok(avg(sum, self.window(&count)?));
        }
        let args = args.iter().map(|e| self.plan(e));
        let args = args.collect::<Result<Vec<_>, _>>()?;
        let ordered = !spec.1.is_empty();
        let (func, args, typ, nullable) =
            super::window_aggregate::window_aggregate(name, args, &spec.2, ordered)?;
        let func = WindowFunc::Aggregate(func);
        let args = args.into_iter().map(|a| a.expr.fold()).collect();
        Ok(self.add_window_call(func, args, spec, (typ, nullable), text))
    }

    /// A call's window, planned: its PARTITION BY, its ORDER BY and its
    /// frame, after checking that neither they nor the call's arguments
    /// hold a window function or a subquery.
    fn window_spec(&mut self, f: &Function, args: &[&Expr]) -> Result<Spec, String> {
        let Some(WindowType::WindowSpec(spec)) = &f.over else {
            return Err(unsupported("named windows"));
        };
        let spec_exprs = spec
            .partition_by
            .iter()
            .chain(spec.order_by.iter().map(|o| &o.expr));
        for e in args.iter().copied().chain(spec_exprs) {
            if contains_window(e) {
                return Err(unsupported("a window function within a window function"));
            }
            if contains_subquery(e) {
                return Err(unsupported("a subquery in a window function"));
            }
        }
        let frame = frame(spec)?;
        let partition = spec
            .partition_by
            .iter()
            .map(|e| Ok(self.plan(e)?.typed().expr.fold()))
            .collect::<Result<Vec<_>, String>>()?;
        let order_by = spec
            .order_by
            .iter()
            .map(|o| {
                let (descending, nulls_last) = direction(o)?;
                Ok((
                    self.plan(&o.expr)?.typed().expr.fold(),
                    descending,
                    nulls_last,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok((partition, order_by, frame))
    }

    /// The call of `func` over `args` and its window, recorded under its
    /// text, as the placeholder column the select list reads its value
    /// (of a type, NULL or not) from.
    fn add_window_call(
        &mut self,
        func: WindowFunc,
        args: Vec<ScalarExpr>,
        (partition, order_by, frame): Spec,
        (typ, nullable): (ScalarType, bool),
        text: String,
    ) -> Typed {
        let call = WindowCallPlan {
            func,
            args,
            partition,
            order_by,
            frame,
            typ,
            nullable,
        };
        let windows = self.windows.as_mut().expect("checked by the caller");
        windows.calls.push(call);
        windows.texts.push(text);
        let column = WINDOW_COLUMN + windows.calls.len() - 1;
        Typed::new(ScalarExpr::Column(column), typ, nullable)
    }
}

/// A call's planned window: PARTITION BY, ORDER BY, frame.
pub(super) type Spec = (Vec<ScalarExpr>, Vec<(ScalarExpr, bool, bool)>, Frame);

/// What a call reads, for the walk that finds the first refused
/// construct: its arguments, PARTITION BY and ORDER BY; or its refusal.
pub(super) fn window_exprs(f: &Function) -> Result<Vec<&Expr>, String> {
    let name = function_name(f);
    let mut exprs = match is_aggregate(&name) {
        true => aggregate_args(f, &name)?,
        false => {
            window_func(&name)?;
            plain_window_args(f, &name)?
        }
    };
    let Some(WindowType::WindowSpec(spec)) = &f.over else {
        return Err(unsupported("named windows"));
    };
    frame(spec)?;
    exprs.extend(&spec.partition_by);
    exprs.extend(spec.order_by.iter().map(|o| &o.expr));
    Ok(exprs)
}

/// The window function of a name.
fn window_func(name: &str) -> Result<WindowFunc, String> {
    Ok(match name {
        "row_number" => WindowFunc::RowNumber,
        "rank" => WindowFunc::Rank,
        "dense_rank" => WindowFunc::DenseRank,
        "lag" => WindowFunc::Lag,
        "lead" => WindowFunc::Lead,
        "first_value" => WindowFunc::FirstValue,
        "last_value" => WindowFunc::LastValue,
        _ => return Err(unsupported(format!("window function {name}"))),
    })
}

/// A call's plain positional arguments; every other form is refused, or
/// Materialize's error.
fn plain_window_args<'f>(f: &'f Function, name: &str) -> Result<Vec<&'f Expr>, String> {
    let FunctionArguments::List(list) = &f.args else {
        return match &f.args {
            FunctionArguments::None => Ok(vec![]),
            _ => Err(unsupported(format!("function call form: {f}"))),
        };
    };
    if list.duplicate_treatment == Some(DuplicateTreatment::Distinct) {
        return Err(format!(
            "DISTINCT specified, but {name} is not an aggregate function"
        ));
    }
    if f.null_treatment.is_some() || !list.clauses.is_empty() {
        return Err(unsupported("IGNORE NULLS and RESPECT NULLS"));
    }
    if f.filter.is_some() {
        return Err(unsupported("FILTER in non-aggregate window functions"));
    }
    let plain = f.within_group.is_empty()
        && matches!(f.parameters, FunctionArguments::None)
        && list.duplicate_treatment.is_none();
    list.args
        .iter()
        .map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if plain => Ok(e),
            FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => Err(format!(
                "* argument is invalid with non-aggregate function {name}"
            )),
            _ => Err(unsupported(format!("function call form: {f}"))),
        })
        .collect()
}

/// The arguments as the call's overload takes them (src/sql/src/func.rs):
/// `lag` and `lead` always three, value, `integer` offset (1 if not given)
/// and a default of the value's type (NULL if not given; a NULL or string
/// literal takes the value's type). A value of unknown type, and an offset
/// or default the engine would have to cast, are refused.
fn typed_args(func: WindowFunc, name: &str, args: Vec<Typed>) -> Result<Vec<Typed>, String> {
    let count = args.len();
    let value_of_known_type = |t: &Typed| match t.is_unknown() {
        true => Err(unsupported(format!(
            "{name} of an argument of unknown type"
        ))),
        false => Ok(()),
    };
    match func {
        WindowFunc::RowNumber | WindowFunc::Rank | WindowFunc::DenseRank => match count {
            0 => Ok(args),
            n => Err(format!(
                "function {name} has 0 parameters, but was called with {n}"
            )),
        },
        WindowFunc::Aggregate(_) => unreachable!("planned by window_aggregate"),
        WindowFunc::FirstValue | WindowFunc::LastValue => match args.as_slice() {
            [value] => value_of_known_type(value).map(|()| args),
            _ => Err(unsupported(format!("{name} of {count} arguments"))),
        },
        WindowFunc::Lag | WindowFunc::Lead => {
            let mut args = args.into_iter();
            let (Some(value), offset, default, None) =
                (args.next(), args.next(), args.next(), args.next())
            else {
                return Err(unsupported(format!("{name} of {count} arguments")));
            };
            value_of_known_type(&value)?;
            let null = || Typed {
                expr: ScalarExpr::Literal(Datum::Null),
                typ: None,
                nullable: true,
            };
            let offset = match offset {
                None => Typed::new(
                    ScalarExpr::Literal(Datum::Int32(1)),
                    ScalarType::Int32,
                    false,
                ),
                Some(o) if o.typ.is_none() || o.typ == Some(ScalarType::Int32) => o,
                Some(o) => {
                    let t = o.type_name();
                    return Err(unsupported(format!("{name} with an offset of type {t}")));
                }
            };
            // A NULL or string literal default takes the value's type.
            let default = match default {
                None => null(),
                Some(d) => d.coerce(value.typ.expect("a known type"))?,
            };
            if default.typ.is_some() && default.typ != value.typ {
                let (v, t) = (value.type_name(), default.type_name());
                return Err(unsupported(format!("{name} of {v} with a default of {t}")));
            }
            Ok(vec![value, offset, default])
        }
    }
}

/// The frames of the window calls in `items` (a select list's
/// expressions), checked before anything else of the select list is
/// planned, the last call first: Materialize plans a select list's window
/// calls before its items, and a call's frame before its expressions, so
/// `SELECT f1, first_value(f1) OVER (... 1000001 FOLLOWING)` without a
/// FROM is the frame's error, not `column "f1" does not exist`.
pub(in crate::sql) fn frames_first<'e>(
    items: impl Iterator<Item = &'e Expr>,
) -> Result<(), String> {
    let errors = std::cell::RefCell::new(vec![]);
    let record = |e: &Expr| {
        if let Expr::Function(Function {
            over: Some(WindowType::WindowSpec(spec)),
            ..
        }) = e
        {
            if let Err(error) = frame(spec) {
                errors.borrow_mut().push(error);
            }
        }
        false
    };
    for e in items {
        any_within(e, 0, &record);
    }
    errors.into_inner().pop().map_or(Ok(()), Err)
}

/// The frame, checked as Materialize's `plan_window_frame` checks it.
pub(super) fn frame(spec: &WindowSpec) -> Result<Frame, String> {
    use FrameBound::*;
    let Some(WindowFrame {
        units,
        start_bound,
        end_bound,
    }) = &spec.window_frame
    else {
        return Ok(Frame::default());
    };
    let units = match units {
        WindowFrameUnits::Rows => FrameUnits::Rows,
        WindowFrameUnits::Range => FrameUnits::Range,
        WindowFrameUnits::Groups => return Err(unsupported("GROUPS in window frames")),
    };
    let start = bound(start_bound)?;
    let end = end_bound.as_ref().map_or(Ok(CurrentRow), bound)?;
    match (start, end) {
        (UnboundedFollowing, _) => return Err("frame start cannot be UNBOUNDED FOLLOWING".into()),
        (_, UnboundedPreceding) => return Err("frame end cannot be UNBOUNDED PRECEDING".into()),
        (CurrentRow, OffsetPreceding(_)) => {
            return Err("frame starting from current row cannot have preceding rows".into())
        }
        (OffsetFollowing(_), OffsetPreceding(_) | CurrentRow) => {
            return Err("frame starting from following row cannot have preceding rows".into())
        }
        _ => {}
    }
    let offsets = [start, end].map(|b| match b {
        OffsetPreceding(o) | OffsetFollowing(o) => o,
        _ => 0,
    });
    if offsets.iter().any(|o| *o > 1_000_000) {
        return Err("Window frame offsets greater than 1000000 are currently not supported".into());
    }
    if units == FrameUnits::Range && (start != UnboundedPreceding || end != CurrentRow) {
        return Err(unsupported("RANGE in non-default window frames"));
    }
    Ok(Frame { units, start, end })
}

/// One end of a frame; an offset must be an integer literal.
fn bound(b: &WindowFrameBound) -> Result<FrameBound, String> {
    let offset = |e: &Expr| match e {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse::<u64>().ok(),
            _ => None,
        },
        _ => None,
    };
    let offset =
        |e: &Expr| offset(e).ok_or_else(|| unsupported(format!("window frame offset {e}")));
    Ok(match b {
        WindowFrameBound::CurrentRow => FrameBound::CurrentRow,
        WindowFrameBound::Preceding(None) => FrameBound::UnboundedPreceding,
        WindowFrameBound::Preceding(Some(e)) => FrameBound::OffsetPreceding(offset(e)?),
        WindowFrameBound::Following(None) => FrameBound::UnboundedFollowing,
        WindowFrameBound::Following(Some(e)) => FrameBound::OffsetFollowing(offset(e)?),
    })
}
