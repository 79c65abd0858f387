//! `LATERAL (SELECT ...)`: a FROM item whose subquery names the columns
//! of the FROM items before it, planned as the real system lowers a join
//! whose right side is correlated (`sql/src/plan/lowering.rs`, `Join`
//! when `right.is_correlated()`, and `branch`). The FROM so far is bound
//! once (`Let`); the subquery is planned over the distinct values of the
//! columns it names (the keys, as for a subquery in an expression) and
//! its rows are joined back onto the FROM's rows on them, NULL matching
//! NULL, so that a left row's multiplicity multiplies the right's. A
//! subquery that reads no relation is `branch`'s simple path instead: it
//! is planned over every left row, no keys (its errors count per row).
//! One that names no left column is not correlated and is joined as any
//! FROM item, its errors standing whatever the left rows.
//! A LEFT JOIN filters by its ON, then adds each left row that kept no
//! row, with NULLs (`lookup`). A RIGHT or FULL JOIN cannot name its left
//! side (the real system's error).

use sqlparser::ast::{Expr, Query, TableAlias};

use super::super::super::expr::{
    Enclosing, ExprContext, Nested, Outer, OuterRefused, Prefix, Reads, Scope, Typed,
};
use super::super::subquery::keys;
use super::super::{filter_plan, Correlation, Planner};
use super::{aliased, From};
use crate::plan::{with_top_k, JoinKind, RelationPlan, ScalarExpr, UnaryOp};
use crate::repr::{unsupported, Datum};

/// The real system's text for a RIGHT or FULL JOIN LATERAL naming a column
/// of its left side (`PlanError::WrongJoinTypeForLateralColumn`).
const WRONG_JOIN_TYPE: &str = "cannot be referenced from this part of the query: \
     the combining JOIN type must be INNER or LEFT for a LATERAL reference";

impl From {
    /// Adds `LATERAL (subquery)` as the right side of an inner join (a
    /// FROM list's comma, `JOIN`, `CROSS JOIN`): the FROM so far joined
    /// with the subquery's rows for each of its rows.
    pub(super) fn lateral(
        &mut self,
        planner: &Planner,
        subquery: &Query,
        alias: Option<&TableAlias>,
        outer: Option<&dyn Outer>,
    ) -> Result<(), String> {
        let (rows, left, joined, arity) = self.lateral_rows(planner, subquery, alias, outer)?;
        self.push_bound(rows, left, joined, arity);
        Ok(())
    }

    /// `LEFT JOIN LATERAL (subquery) ON on`: the inner join's rows that
    /// `on` holds for, and each left row without one, with NULLs.
    pub(super) fn left_lateral(
        &mut self,
        planner: &Planner,
        subquery: &Query,
        alias: Option<&TableAlias>,
        on: &Expr,
        outer: Option<&dyn Outer>,
    ) -> Result<(), String> {
        let width = self.scope.items.len();
        let (rows, left, joined, arity) = self.lateral_rows(planner, subquery, alias, outer)?;
        let on = self.on(on, outer)?;
        for item in &mut self.scope.items[width..] {
            item.column.nullable = true;
        }
        let kept = planner.fresh();
        let get = |id, arity| RelationPlan::Local { id, arity };
        // The left rows some joined row kept, once each, marked.
        let matched = RelationPlan::Map {
            input: Box::new(RelationPlan::Distinct {
                input: Box::new(RelationPlan::Project {
                    input: Box::new(get(kept, arity)),
                    columns: (0..width).collect(),
                }),
            }),
            exprs: vec![ScalarExpr::Literal(Datum::Bool(true))],
        };
        let marked = RelationPlan::EquiJoin {
            left: Box::new(get(rows, width)),
            right: Box::new(matched),
            left_key: (0..width).collect(),
            right_key: (0..width).collect(),
            arities: (width, width + 1),
            kind: JoinKind::Left,
            nulls_match: true,
        };
        let unmarked = ScalarExpr::Unary(UnaryOp::IsNull, Box::new(ScalarExpr::Column(2 * width)));
        let unmatched = RelationPlan::Map {
            input: Box::new(RelationPlan::Project {
                input: Box::new(filter_plan(marked, vec![unmarked])),
                columns: (0..width).collect(),
            }),
            exprs: vec![ScalarExpr::Literal(Datum::Null); arity - width],
        };
        let looked_up = RelationPlan::Let {
            id: kept,
            value: Box::new(filter_plan(joined, on)),
            body: Box::new(RelationPlan::Union {
                inputs: vec![get(kept, arity), unmatched],
            }),
        };
        self.push_bound(rows, left, looked_up, arity);
        Ok(())
    }

    /// Adds `body` (of `arity` columns), which reads the left rows `left`
    /// as `rows`, as the FROM's one input.
    fn push_bound(&mut self, rows: usize, left: RelationPlan, body: RelationPlan, arity: usize) {
        let plan = RelationPlan::Let {
            id: rows,
            value: Box::new(left),
            body: Box::new(body),
        };
        self.inputs.push((plan, arity));
    }

    /// Plans the subquery over the FROM so far, adds its columns to the
    /// scope and takes the FROM's inputs and predicates: returns the `Let`
    /// id the left rows are to be bound to, their plan, the join of them
    /// (read from the id) with the subquery's rows, and the join's arity.
    fn lateral_rows(
        &mut self,
        planner: &Planner,
        subquery: &Query,
        alias: Option<&TableAlias>,
        outer: Option<&dyn Outer>,
    ) -> Result<(usize, RelationPlan, RelationPlan, usize), String> {
        let width = self.scope.items.len();
        let cx = ExprContext::within(&self.scope, "", outer);
        let enclosing = Enclosing::new(&cx);
        let prefix = Prefix {
            id: planner.fresh(),
            columns: self.scope.items.iter().map(|i| i.column.clone()).collect(),
        };
        let corr = Correlation {
            outer: &enclosing,
            prefix: &prefix,
            reads: Reads::Values,
        };
        let planned = planner.query(subquery, Some(&corr), None, true)?;
        let used = enclosing.used();
        let (table, columns) = aliased(String::new(), planned.columns, alias)?;
        if !table.is_empty() && self.tables.contains(&table) {
            return Err(format!("table name \"{table}\" specified more than once"));
        }
        let branch_arity = width + columns.len();
        let rows = planner.fresh();
        let get = RelationPlan::Local {
            id: rows,
            arity: width,
        };
        let joined = match reads_no_relation(&planned.plan, prefix.id) {
            // Naming no left column, it is not correlated: the real
            // system's lowering joins it as any FROM item (no `branch`), so
            // its errors stand whatever the left rows, none among them too
            // (a constant error fails the whole join: `fold_constants`).
            _ if used.is_empty() => {
                let names = outer.map(|outer| OuterRefused {
                    outer,
                    what: "a subquery in FROM naming an outer query's columns",
                });
                let names = names.as_ref().map(|r| r as &dyn Outer);
                let alone = planner.query(subquery, None, names, true)?;
                RelationPlan::Join {
                    inputs: vec![get, with_top_k(alone.plan, alone.finishing)],
                    equivalences: Vec::new(),
                }
            }
            // `branch`'s simple path: the subquery over every left row.
            true => RelationPlan::Let {
                id: prefix.id,
                value: Box::new(get),
                body: Box::new(planned.plan),
            },
            false => {
                let branch = RelationPlan::Let {
                    id: prefix.id,
                    value: Box::new(keys(get.clone(), &used, width)),
                    body: Box::new(planned.plan),
                };
                let join = RelationPlan::EquiJoin {
                    left: Box::new(get),
                    right: Box::new(branch),
                    left_key: used.clone(),
                    right_key: used,
                    arities: (width, branch_arity),
                    kind: JoinKind::Inner,
                    nulls_match: !crate::mutation::lateral_null_keys(),
                };
                RelationPlan::Project {
                    input: Box::new(join),
                    columns: (0..width).chain(2 * width..width + branch_arity).collect(),
                }
            }
        };
        let left = self.take_so_far();
        self.scope.extend(Scope::relation(&table, columns));
        self.tables.push(table);
        Ok((rows, left, joined, branch_arity))
    }
}

/// Whether a nested query's plan reads no relation but its outer row
/// (`prefix`): only maps, filters and projections of it, the real
/// system's test for `branch`'s simple path (no `Get`, join, reduce,
/// distinct or top-k in the subquery).
fn reads_no_relation(plan: &RelationPlan, prefix: usize) -> bool {
    match plan {
        RelationPlan::Local { id, .. } => *id == prefix,
        RelationPlan::Map { input, .. }
        | RelationPlan::Filter { input, .. }
        | RelationPlan::Project { input, .. }
        | RelationPlan::Derived { input, .. } => reads_no_relation(input, prefix),
        _ => false,
    }
}

/// The names of the FROM so far as a RIGHT or FULL JOIN's LATERAL
/// subquery sees them: a column of the join's left side (from `start`)
/// is the real system's error, one of an earlier FROM item is refused,
/// and the enclosing query's are refused as for any subquery in FROM.
pub(super) struct WrongSide<'a> {
    pub cx: ExprContext<'a>,
    pub start: usize,
}

impl Outer for WrongSide<'_> {
    fn resolve(&self, table: Option<&str>, name: &str) -> Result<Option<Typed>, String> {
        let Some(found) = self.cx.resolve(table, name)? else {
            return Ok(None);
        };
        let at = match found.expr {
            ScalarExpr::Column(p) => p,
            _ => {
                return Err(unsupported(
                    "a subquery in FROM naming an outer query's columns",
                ))
            }
        };
        let item = &self.cx.scope.items[at];
        if at < self.cx.scope.hidden {
            return Err(unsupported(
                "a subquery in FROM naming an outer query's columns",
            ));
        }
        if at < self.start {
            return Err(unsupported(
                "a RIGHT or FULL JOIN LATERAL naming earlier FROM items",
            ));
        }
        let shown = match item.table.as_str() {
            "" => item.column.name.clone(),
            t => format!("{t}.{}", item.column.name),
        };
        Err(format!("column \"{shown}\" {WRONG_JOIN_TYPE}"))
    }

    fn has_table(&self, table: &str) -> bool {
        self.cx.has_table(table)
    }
}
