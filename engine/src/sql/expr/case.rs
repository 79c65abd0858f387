//! `CASE`, planned with its arms side by side: the conditions' types
//! checked in their context, the results unified in Materialize's order,
//! and, where Materialize's optimizer reaches, the arms that equal the
//! ELSE dropped (`reduce.rs`).

use sqlparser::ast::{BinaryOperator, CaseWhen, Expr, Value};

use super::reduce::equal_arms_dropped;
use super::typed::{binary, literal};
use super::{unify, ExprContext, Typed};
use crate::plan::ScalarExpr;
use crate::repr::ScalarType;

impl ExprContext<'_> {
    /// `CASE [operand] WHEN ... THEN ... [ELSE ...] END`, its arms side by
    /// side however many there are; the operand form compares the operand
    /// with each WHEN value. A subquery in it is refused: the real system
    /// evaluates one only for the rows that reach its branch.
    #[inline(never)]
    pub(super) fn case(
        &mut self,
        operand: Option<&Expr>,
        conditions: &[CaseWhen],
        else_result: Option<&Expr>,
    ) -> Result<Typed, String> {
        let subqueries = self.subqueries.take();
        let site = std::mem::replace(&mut self.site, "in CASE");
        let planned = self.case_branches(operand, conditions, else_result);
        (self.subqueries, self.site) = (subqueries, site);
        planned
    }

    fn case_branches(
        &mut self,
        operand: Option<&Expr>,
        conditions: &[CaseWhen],
        else_result: Option<&Expr>,
    ) -> Result<Typed, String> {
        let mut tests = vec![];
        for when in conditions {
            let test = match operand {
                Some(operand) => binary(
                    &BinaryOperator::Eq,
                    self.plan(operand)?,
                    self.plan(&when.condition)?,
                )?,
                None => self.plan(&when.condition)?,
            };
            let test = test.expect(ScalarType::Bool, |t| {
                format!("{} must have type boolean, not type {t}", self.name)
            })?;
            tests.push(test.expr);
        }
        // The arms, then ELSE: Materialize resolves the type in that order
        // (PostgreSQL ELSE first), which the error text shows.
        let mut results = self.plan_all(conditions.iter().map(|w| &w.result))?;
        results.push(match else_result {
            Some(e) => self.plan(e)?,
            None => literal(&Value::Null)?,
        });
        let mut results = unify(results, "CASE")?;
        let els = results.pop().expect("ELSE");
        let (typ, nullable) = (els.typ, els.nullable || results.iter().any(|r| r.nullable));
        let els = Box::new(els.expr);
        let results = results.into_iter().map(|r| r.expr);
        let mut whens: Vec<_> = tests.into_iter().zip(results).collect();
        if self.reduces {
            equal_arms_dropped(&mut whens, &els);
        }
        let expr = match whens.is_empty() {
            true => *els,
            false => ScalarExpr::Case { whens, els },
        };
        Ok(Typed {
            expr,
            typ,
            nullable,
        })
    }
}
