//! Query bodies other than a plain SELECT: the set operations (`UNION`,
//! `EXCEPT`, `INTERSECT`, each with or without `ALL`) and `VALUES`, with
//! ORDER BY and LIMIT over the whole; a parenthesized branch keeps its
//! own LIMIT (`parenthesized` merges parentheses around a whole body).
//!
//! Each is planned as Materialize plans it (`plan_set_expr` in its
//! `sql/src/plan/query.rs`): a union is a concat, the forms without `ALL`
//! add a distinct, `EXCEPT` subtracts its right side (a negation) and
//! keeps what stays positive (a threshold), `INTERSECT` subtracts from its
//! left side what `EXCEPT ALL` leaves. The branches' column types unify as
//! its `guess_best_common_type` does; the columns are named by the left.

use sqlparser::ast::{Query, SetExpr, SetOperator, SetQuantifier, Values};

use super::super::expr::{unify, ExprContext, Nested, Outer, OuterRefused, Scope, Typed};
use super::super::forms;
use super::finishing::{limit, order_by};
use super::{project, PlannedQuery, Planner};
use crate::plan::{with_top_k, Finishing, RelationPlan, ScalarExpr};
use crate::recursion::{grown, RECURSION_LIMIT};
use crate::repr::{unsupported, Column, ScalarType};

impl Planner<'_> {
    /// Plans a query whose body is not a plain SELECT; its ORDER BY names
    /// the output's columns (by the left branch's names or by position).
    pub(super) fn set_query(
        &self,
        q: &Query,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        let (limit, offset) = limit(q.limit_clause.as_ref())?;
        let (plan, columns) = self.set_expr(&q.body, names, in_from)?;
        // Each set operation nests the plan a level or two deeper; past the
        // limit Materialize still answers, the engine does not.
        if plan.nesting() > RECURSION_LIMIT {
            return Err(unsupported(
                "set operations nested past the recursion limit",
            ));
        }
        let mut outputs: Vec<(String, Typed)> = columns
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), Typed::of_column(ScalarExpr::Column(i), c)))
            .collect();
        let scope = Scope::relation("", columns.clone());
        let no_aggregates =
            "aggregate functions are not allowed in ORDER BY clause of a set expression";
        let mut cx = ExprContext::within(&scope, no_aggregates, names);
        cx.site = "in ORDER BY clause";
        let order_by = order_by(&mut cx, q.order_by.as_ref(), &mut outputs, false)?;
        let finishing = Finishing {
            order_by,
            limit,
            offset,
            shown: crate::repr::chars::shown(&columns),
            project: None,
        };
        Ok(PlannedQuery {
            plan,
            columns,
            finishing,
            simple: None,
        })
    }

    /// A query body's rows (its own ORDER BY and LIMIT applied) and columns.
    fn set_expr(
        &self,
        body: &SetExpr,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<(RelationPlan, Vec<Column>), String> {
        // Set operations nest as deep as the text: one level on a grown stack.
        grown(|| match body {
            SetExpr::Select(s) => {
                let q = Query {
                    with: None,
                    body: Box::new(SetExpr::Select(s.clone())),
                    order_by: None,
                    limit_clause: None,
                    fetch: None,
                    locks: vec![],
                    for_clause: None,
                    settings: None,
                    format_clause: None,
                    pipe_operators: vec![],
                };
                self.finished(&q, names, in_from)
            }
            SetExpr::Query(q) => self.finished(q, names, in_from),
            SetExpr::Values(v) => values(v, names),
            SetExpr::SetOperation {
                left,
                op,
                set_quantifier,
                right,
            } => {
                let all = match set_quantifier {
                    SetQuantifier::All => true,
                    SetQuantifier::Distinct | SetQuantifier::None => false,
                    other => return Err(unsupported(format!("{op} {other}"))),
                };
                if *op == SetOperator::Minus {
                    return Err(unsupported("MINUS"));
                }
                let (left, left_columns) = self.set_expr(left, names, in_from)?;
                let (right, right_columns) = self.set_expr(right, names, in_from)?;
                let (left, right, columns) =
                    unified(op, (left, left_columns), (right, right_columns))?;
                Ok((self.combine(op, all, left, right, columns.len()), columns))
            }
            other => Err(unsupported(forms::set_expr(other))),
        })
    }

    /// A nested query's rows, cut by its own LIMIT, and its columns.
    fn finished(
        &self,
        q: &Query,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<(RelationPlan, Vec<Column>), String> {
        let planned = self.query(q, None, names, in_from)?;
        Ok((with_top_k(planned.plan, planned.finishing), planned.columns))
    }

    /// `left op right`, both of `arity` columns of the same types.
    fn combine(
        &self,
        op: &SetOperator,
        all: bool,
        left: RelationPlan,
        right: RelationPlan,
        arity: usize,
    ) -> RelationPlan {
        let union = |a, b| RelationPlan::Union { inputs: vec![a, b] };
        let negate = |p| RelationPlan::Negate { input: Box::new(p) };
        let threshold = |p| RelationPlan::Threshold { input: Box::new(p) };
        let distinct = |p| RelationPlan::Distinct { input: Box::new(p) };
        match (op, all) {
            (SetOperator::Union, true) => union(left, right),
            (SetOperator::Union, false) => distinct(union(left, right)),
            // Under `except-all-as-distinct`, EXCEPT ALL is planned as EXCEPT.
            (SetOperator::Except, true) if !crate::mutation::except_all_as_distinct() => {
                threshold(union(left, negate(right)))
            }
            (SetOperator::Except, _) => threshold(union(distinct(left), negate(distinct(right)))),
            _ => {
                // INTERSECT: the left side, less what of it EXCEPT ALL
                // leaves. The left side is bound once, so that its errors
                // count once, as every input's do.
                let id = self.fresh();
                let local = || RelationPlan::Local { id, arity };
                let left_over = threshold(union(local(), negate(right)));
                let body = union(local(), negate(left_over));
                let body = match all {
                    true => body,
                    false => distinct(body),
                };
                RelationPlan::Let {
                    id,
                    value: Box::new(left),
                    body: Box::new(body),
                }
            }
        }
    }
}

type Branch = (RelationPlan, Vec<Column>);

/// Both branches with their columns cast to the types they unify to, and
/// the columns of the result: the left's names, either side's NULLs.
fn unified(
    op: &SetOperator,
    (left, left_columns): Branch,
    (right, right_columns): Branch,
) -> Result<(RelationPlan, RelationPlan, Vec<Column>), String> {
    if left_columns.len() != right_columns.len() {
        return Err(format!(
            "each {op} query must have the same number of columns: {} vs {}",
            left_columns.len(),
            right_columns.len()
        ));
    }
    let types = left_columns
        .iter()
        .zip(&right_columns)
        .map(|(l, r)| common_type(op, l.typ, r.typ))
        .collect::<Result<Vec<_>, _>>()?;
    let columns = left_columns
        .iter()
        .zip(&right_columns)
        .zip(&types)
        .map(|((l, r), typ)| Column {
            name: l.name.clone(),
            typ: *typ,
            nullable: l.nullable || r.nullable,
        })
        .collect();
    Ok((
        cast_to(left, &left_columns, &types),
        cast_to(right, &right_columns, &types),
        columns,
    ))
}

/// `plan`'s columns cast to `types`, where they are not of them already.
fn cast_to(plan: RelationPlan, columns: &[Column], types: &[ScalarType]) -> RelationPlan {
    let exprs: Vec<Typed> = columns
        .iter()
        .zip(types)
        .enumerate()
        .map(|(i, (c, t))| Typed::of_column(ScalarExpr::Column(i), c).cast(*t))
        .collect();
    project(plan, columns.len(), &exprs)
}

/// The type two branches' columns unify to, as Materialize's
/// `guess_best_common_type` picks it for two typed columns: types of two
/// categories cannot be matched; within the numbers, the one the other
/// casts to implicitly (`integer`, `bigint`, `real`, `double precision`,
/// in that order). What the engine cannot cast as Materialize does is
/// refused: `numeric` beside another number, and `char` or `varchar`,
/// which Materialize unifies without their lengths.
fn common_type(
    op: &SetOperator,
    left: ScalarType,
    right: ScalarType,
) -> Result<ScalarType, String> {
    let category = |t: ScalarType| match t {
        ScalarType::Text | ScalarType::Char(_) | ScalarType::VarChar(_) => Some("string"),
        ScalarType::Bool => Some("boolean"),
        t if t.is_integer() || t.is_float() || t == ScalarType::Numeric => Some("numeric"),
        _ => None,
    };
    let chars = |t: ScalarType| t.chars().is_some();
    if chars(left) || chars(right) {
        return Err(unsupported(format!("{op} of char or varchar columns")));
    }
    if left == right {
        return Ok(left);
    }
    match (category(left), category(right)) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "{op} types {} and {} cannot be matched",
            left.name(),
            right.name()
        )),
        _ if [left, right].contains(&ScalarType::Numeric) => {
            Err(unsupported(format!("{op} of numeric and another type")))
        }
        (Some("numeric"), Some("numeric")) => Ok(match rank(left) >= rank(right) {
            true => left,
            false => right,
        }),
        _ => Err(unsupported(format!(
            "{op} of {} and {}",
            left.name(),
            right.name()
        ))),
    }
}

/// Where a number's type stands in the chain of implicit casts.
fn rank(t: ScalarType) -> u8 {
    match t {
        ScalarType::Float64 => 4,
        ScalarType::Float32 => 3,
        ScalarType::Int64 => 2,
        ScalarType::Int32 => 1,
        _ => 0,
    }
}

/// `VALUES (...), (...)`: its rows, each column unified across them as
/// Materialize's `plan_values` does, named `column1`, `column2`, ...
/// Rows of literals are one constant; any other row is computed in the
/// dataflow, so that its errors are data.
fn values(v: &Values, names: Option<&dyn Outer>) -> Result<(RelationPlan, Vec<Column>), String> {
    if v.explicit_row || v.value_keyword {
        return Err(unsupported(format!("VALUES form: {v}")));
    }
    let width = v.rows.first().map_or(0, |r| r.content.len());
    if let Some(row) = v.rows.iter().find(|r| r.content.len() != width) {
        return Err(format!(
            "VALUES expression has varying number of columns: {} vs {width}",
            row.content.len()
        ));
    }
    let scope = Scope::default();
    // Its rows are planned as constants, never correlated.
    let refusing = names.map(|outer| OuterRefused {
        outer,
        what: "VALUES reading a column of an enclosing query",
    });
    let mut cx = ExprContext::within(
        &scope,
        "aggregate functions are not allowed in VALUES",
        refusing.as_ref().map(|r| r as &dyn Outer),
    );
    let mut columns = vec![];
    let mut planned = vec![];
    for i in 0..width {
        let column = v
            .rows
            .iter()
            .map(|r| cx.plan(&r.content[i]))
            .collect::<Result<Vec<_>, _>>()?;
        let column = unify(column, "VALUES")?;
        let nullable = column.iter().any(|t| t.nullable);
        let typ = column[0].column(String::new()).typ;
        columns.push(Column {
            name: format!("column{}", i + 1),
            typ,
            nullable,
        });
        planned.push(column);
    }
    let mut literal = vec![];
    let mut computed = vec![];
    for r in 0..v.rows.len() {
        let exprs: Vec<ScalarExpr> = planned.iter().map(|c| c[r].expr.clone()).collect();
        let datums: Option<Vec<_>> = exprs
            .iter()
            .map(|e| match e {
                ScalarExpr::Literal(d) => Some(d.clone()),
                _ => None,
            })
            .collect();
        match datums {
            Some(row) => literal.push(row),
            None => computed.push(RelationPlan::Map {
                input: Box::new(RelationPlan::Constant {
                    rows: vec![vec![]],
                    arity: 0,
                }),
                exprs,
            }),
        }
    }
    let mut inputs = vec![];
    if !literal.is_empty() || computed.is_empty() {
        inputs.push(RelationPlan::Constant {
            rows: literal,
            arity: width,
        });
    }
    inputs.extend(computed);
    let plan = match inputs.len() {
        1 => inputs.pop().expect("one input"),
        _ => RelationPlan::Union { inputs },
    };
    Ok((plan, columns))
}
