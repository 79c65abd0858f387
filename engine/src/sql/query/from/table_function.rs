//! A table function in FROM (`generate_series`, `unnest`, the jsonb ones
//! `sql/expr/jsonb.rs` plans, `WITH ORDINALITY`), planned as Materialize plans one (`plan_table_function`
//! in `sql/src/plan/query.rs`, its lowering in `lowering.rs`): its
//! arguments may name the columns of the FROM items before it (it is
//! implicitly LATERAL), and then it is a `FlatMap` over the FROM so far,
//! `branch`'s simple path for a table function; naming none, it is a
//! `FlatMap` over one empty row, joined as any FROM item. Its column is
//! named after the function, or after its alias, and `WITH ORDINALITY`
//! adds `ordinality`.

use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, ObjectName, TableAlias, TableFunctionArgs,
};

use super::super::super::expr::{
    is_jsonb_table_function, plan_jsonb_table_call, ExprContext, Outer, OuterRefused, Typed,
};
use super::super::super::{ident, unqualified_name};
use super::super::filter_plan;
use super::From;
use crate::plan::{columns_read, JoinKind, RelationPlan, ScalarExpr, TableFunc};
use crate::repr::{unsupported, Column, Datum, ScalarType};

/// A planned call: the function, its arguments and its columns.
pub(super) struct Call {
    pub name: String,
    pub func: TableFunc,
    pub exprs: Vec<ScalarExpr>,
    pub columns: Vec<Column>,
}

impl Call {
    /// Whether its arguments name a column of the FROM so far.
    pub fn correlated(&self) -> bool {
        self.exprs.iter().any(|e| !columns_read(e).is_empty())
    }

    /// The call over one empty row: its rows alone.
    pub fn alone(&self) -> RelationPlan {
        self.over(RelationPlan::Constant {
            rows: vec![vec![]],
            arity: 0,
        })
    }

    /// Each row of `input` followed by the call's rows for it.
    pub fn over(&self, input: RelationPlan) -> RelationPlan {
        RelationPlan::FlatMap {
            input: Box::new(input),
            func: self.func.clone(),
            exprs: self.exprs.clone(),
        }
    }
}

impl From {
    /// Plans `name(args)`, whose arguments see the FROM so far (and the
    /// outer query's columns only to refuse them).
    pub(super) fn table_call(
        &self,
        name: &ObjectName,
        args: &[FunctionArg],
        ordinality: bool,
        outer: Option<&dyn Outer>,
    ) -> Result<Call, String> {
        let function = unqualified_name(name)?;
        let known = matches!(function.as_str(), "generate_series" | "unnest");
        if !known && !is_jsonb_table_function(&function) {
            return Err(unsupported(format!("function {function}")));
        }
        let exprs = args
            .iter()
            .map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Ok(e),
                _ => Err(unsupported(format!("function call form: {name}"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.call(&function, &exprs, ordinality, outer)
    }

    /// Plans the call of `function` of `exprs`.
    pub(super) fn call(
        &self,
        function: &str,
        exprs: &[&Expr],
        ordinality: bool,
        outer: Option<&dyn Outer>,
    ) -> Result<Call, String> {
        let refusing = outer.map(|outer| OuterRefused {
            outer,
            what: "a table function naming an outer query's columns",
        });
        let names = refusing.as_ref().map(|r| r as &dyn Outer);
        let no_aggregates = "aggregate functions are not allowed in functions in FROM";
        let mut cx = ExprContext::within(&self.scope, no_aggregates, names);
        let args = exprs
            .iter()
            .map(|e| cx.plan(e))
            .collect::<Result<Vec<_>, _>>()?;
        let (func, exprs, mut columns) = match function {
            "generate_series" => generate_series(args)?,
            "unnest" => unnest(args)?,
            _ => plan_jsonb_table_call(function, args)?,
        };
        let func = match ordinality {
            false => func,
            true => {
                columns.push(Column {
                    name: "ordinality".into(),
                    typ: ScalarType::Int64,
                    nullable: false,
                });
                TableFunc::WithOrdinality(Box::new(func))
            }
        };
        Ok(Call {
            name: function.to_string(),
            func,
            exprs,
            columns,
        })
    }
}

/// A planned function: the function, its arguments and its columns.
type Planned = (TableFunc, Vec<ScalarExpr>, Vec<Column>);

/// `TableFunctionArgs` without a `SETTINGS` clause, which is refused.
pub(super) fn plain_args(args: &TableFunctionArgs) -> Result<&[FunctionArg], String> {
    match args.settings {
        None => Ok(&args.args),
        Some(_) => Err(unsupported("SETTINGS in a table function's arguments")),
    }
}

/// `generate_series(start, stop [, step])` of `integer`s or `bigint`s (the
/// widest of its arguments; the step 1 when not given), or of
/// `timestamp`s or `timestamptz`s by an `interval`.
fn generate_series(args: Vec<Typed>) -> Result<Planned, String> {
    let n = args.len();
    if !(2..=3).contains(&n) {
        return Err(unsupported(format!("generate_series of {n} arguments")));
    }
    if args.iter().all(Typed::is_unknown) {
        if n == 3 {
            return Err(unsupported("generate_series of three unknown arguments"));
        }
        // Neither says which of its overloads is meant (the real system's text).
        return Err("function generate_series(unknown, unknown) is not unique".into());
    }
    let known = |t: ScalarType| args.iter().any(|a| !a.is_unknown() && a.typ == Some(t));
    let time = [
        ScalarType::Timestamp,
        ScalarType::TimestampTz,
        ScalarType::Interval,
    ];
    if time.into_iter().any(known) {
        return timestamps(args);
    }
    let found = |found: &str| unsupported(format!("generate_series of {found}"));
    let args = args
        .into_iter()
        .map(|a| a.expect_integer(found))
        .collect::<Result<Vec<_>, _>>()?;
    let (typ, func, one) = match args.iter().any(|a| a.typ == Some(ScalarType::Int64)) {
        true => (
            ScalarType::Int64,
            TableFunc::GenerateSeriesInt64,
            Datum::Int64(1),
        ),
        false => (
            ScalarType::Int32,
            TableFunc::GenerateSeriesInt32,
            Datum::Int32(1),
        ),
    };
    let mut exprs: Vec<ScalarExpr> = args.into_iter().map(|a| a.cast(typ).expr).collect();
    if n == 2 {
        exprs.push(ScalarExpr::Literal(one));
    }
    Ok((func, exprs, series_column(typ)))
}

/// `generate_series(start, stop, step)` of timestamps: both bounds of one
/// of the two types (a string literal read as it), the step an interval.
fn timestamps(args: Vec<Typed>) -> Result<Planned, String> {
    let bounds = args.iter().take(2).filter(|a| !a.is_unknown());
    let types: Vec<_> = bounds.filter_map(|a| a.typ).collect();
    let (typ, func) = match types.as_slice() {
        [ScalarType::Timestamp] | [ScalarType::Timestamp, ScalarType::Timestamp] => {
            (ScalarType::Timestamp, TableFunc::GenerateSeriesTimestamp)
        }
        [ScalarType::TimestampTz] | [ScalarType::TimestampTz, ScalarType::TimestampTz] => (
            ScalarType::TimestampTz,
            TableFunc::GenerateSeriesTimestampTz,
        ),
        _ => return Err(unsupported("generate_series of these argument types")),
    };
    let [start, stop, step] = <[Typed; 3]>::try_from(args)
        .map_err(|_| unsupported("generate_series of timestamps without a step"))?;
    let mismatch = |found: &str| unsupported(format!("generate_series of {found}"));
    let exprs = vec![
        start.expect(typ, mismatch)?.expr,
        stop.expect(typ, mismatch)?.expr,
        step.expect(ScalarType::Interval, mismatch)?.expr,
    ];
    Ok((func, exprs, series_column(typ)))
}

/// The columns `generate_series` gives: one, never NULL.
fn series_column(typ: ScalarType) -> Vec<Column> {
    vec![Column {
        name: "generate_series".into(),
        typ,
        nullable: false,
    }]
}

/// `unnest(array)`: a row per element, of the element type.
fn unnest(args: Vec<Typed>) -> Result<Planned, String> {
    let [array] = <[Typed; 1]>::try_from(args)
        .map_err(|_| unsupported("unnest of other than one argument"))?;
    let Some(ScalarType::Array(elem)) = array.typ.filter(|_| !array.is_unknown()) else {
        let found = match array.is_unknown() {
            true => "unknown".into(),
            false => array.type_name(),
        };
        return Err(unsupported(format!("unnest of {found}")));
    };
    let column = Column {
        name: "unnest".into(),
        typ: elem.scalar(),
        nullable: true,
    };
    Ok((TableFunc::UnnestArray, vec![array.expr], vec![column]))
}

impl Call {
    /// The call under `alias`: a one-column function's column named after
    /// the function takes the alias's name (`plan_solitary_table_function`'s
    /// special case), before the alias's own column names apply.
    pub fn aliased(mut self, alias: Option<&TableAlias>) -> Call {
        if let (Some(alias), Some(first)) = (alias, self.columns.first_mut()) {
            if first.name == self.name {
                first.name = ident(&alias.name);
            }
        }
        self
    }
}

impl From {
    /// A table function's name, plan and columns as a FROM item: its rows
    /// alone when it names no column before it; else, as the right side of
    /// an inner join only, a `FlatMap` whose input the FROM so far becomes
    /// once the item is checked (`flat_map_onto`), `carried` its width.
    pub(super) fn function_item(
        &self,
        call: Call,
        kind: JoinKind,
        carried: &mut usize,
    ) -> Result<(String, RelationPlan, Vec<Column>), String> {
        if call.correlated() {
            if kind != JoinKind::Inner {
                return Err(unsupported(
                    "a table function naming earlier FROM items in a LEFT, RIGHT or FULL JOIN",
                ));
            }
            *carried = self.scope.items.len();
        }
        Ok((call.name.clone(), call.alone(), call.columns))
    }

    /// `plan`, a `FlatMap` from `function_item`, over the FROM so far,
    /// which it replaces: the FROM's inputs joined under their predicates.
    pub(super) fn flat_map_onto(&mut self, plan: RelationPlan) -> RelationPlan {
        let left = self.take_so_far();
        match plan {
            RelationPlan::FlatMap { func, exprs, .. } => RelationPlan::FlatMap {
                input: Box::new(left),
                func,
                exprs,
            },
            other => other,
        }
    }
}

/// `filters` over the rows of `plan`, those that read only the columns of
/// a `FlatMap`'s input (`width` of them) applied below it, as
/// Materialize's predicate pushdown moves them: a row they drop never
/// reaches the function, nor its errors. The rest are returned.
pub(super) fn push_below(
    plan: &mut RelationPlan,
    width: usize,
    filters: Vec<ScalarExpr>,
) -> Vec<ScalarExpr> {
    let RelationPlan::FlatMap { input, .. } = plan else {
        return filters;
    };
    if width == 0 {
        return filters;
    }
    let (below, above): (Vec<_>, Vec<_>) = filters
        .into_iter()
        .partition(|f| columns_read(f).iter().all(|c| *c < width));
    if !below.is_empty() {
        let empty = RelationPlan::Constant {
            rows: vec![],
            arity: 0,
        };
        let taken = std::mem::replace(&mut **input, empty);
        **input = filter_plan(taken, below);
    }
    above
}
