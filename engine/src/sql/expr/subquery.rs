//! Subqueries in expressions: a scalar `(SELECT ...)`, `[NOT] EXISTS`,
//! `[NOT] IN (SELECT ...)` and `op ANY|SOME|ALL (SELECT ...)`. Each is
//! planned by the SELECT planner (`Nested`, which expressions cannot name)
//! over a copy of the enclosing row, as the real system's decorrelation
//! applies a subquery to its outer relation (`sql/src/plan/lowering.rs`):
//! the subquery's rows are computed once per distinct outer row it names,
//! never row by row. Its value is a column the clause's relation gets
//! when the query planner joins the subquery's rows back onto it
//! (`query/subquery.rs`); here it is a placeholder column.

use std::cell::RefCell;
use std::collections::BTreeSet;

use sqlparser::ast::{BinaryOperator, Expr, InTarget, Query};

use super::row;
use super::typed::{binary, negate, Typed};
use super::walk::any_or_all;
use super::{conjuncts, ExprContext};
use crate::plan::{BinaryOp, RelationPlan, ScalarExpr, UnaryOp};
use crate::repr::{unsupported, Column, ScalarType};

/// The first placeholder column: a clause's `j`-th subquery's value is
/// column `SUBQUERY_COLUMN + j` until the planner knows where it lands.
pub const SUBQUERY_COLUMN: usize = 1 << 40;

/// The names of the query a subquery is nested in.
pub trait Outer {
    /// `[table.]name` as a column of the enclosing query's row (found
    /// there or in a query enclosing it), or `None`.
    fn resolve(&self, table: Option<&str>, name: &str) -> Result<Option<Typed>, String>;
    /// Whether the enclosing queries name a table `table`.
    fn has_table(&self, table: &str) -> bool;
}

/// An enclosing expression context as its subquery sees it: it resolves
/// names as the context does and keeps which columns of its row they name.
pub struct Enclosing<'b, 'x> {
    cx: &'b ExprContext<'x>,
    used: RefCell<BTreeSet<usize>>,
}

impl<'b, 'x> Enclosing<'b, 'x> {
    pub fn new(cx: &'b ExprContext<'x>) -> Enclosing<'b, 'x> {
        Enclosing {
            cx,
            used: RefCell::default(),
        }
    }

    /// The columns of the context's row the names resolved so far read.
    pub fn used(self) -> Vec<usize> {
        self.used.into_inner().into_iter().collect()
    }
}

impl Outer for Enclosing<'_, '_> {
    fn resolve(&self, table: Option<&str>, name: &str) -> Result<Option<Typed>, String> {
        let found = self.cx.resolve(table, name)?;
        if let Some(t) = &found {
            columns_of(&t.expr, &mut self.used.borrow_mut());
        }
        Ok(found)
    }

    fn has_table(&self, table: &str) -> bool {
        self.cx.has_table(table)
    }
}

/// The enclosing queries' names as a query that reads no outer row sees
/// them (a subquery in FROM, a `VALUES` row): a name found there is
/// refused as `what` (the real system answers it, reading the outer row),
/// and one found nowhere is not found.
pub struct OuterRefused<'a> {
    pub outer: &'a dyn Outer,
    pub what: &'static str,
}

impl Outer for OuterRefused<'_> {
    fn resolve(&self, table: Option<&str>, name: &str) -> Result<Option<Typed>, String> {
        match self.outer.resolve(table, name)? {
            Some(_) => Err(unsupported(self.what)),
            None => Ok(None),
        }
    }

    fn has_table(&self, table: &str) -> bool {
        self.outer.has_table(table)
    }
}

/// Adds the columns `e` reads to `out`.
fn columns_of(e: &ScalarExpr, out: &mut BTreeSet<usize>) {
    let seen = RefCell::new(BTreeSet::new());
    let _ = e.clone().remap_columns(&|c| {
        seen.borrow_mut().insert(c);
        c
    });
    out.extend(seen.into_inner());
}

/// The enclosing row a subquery is planned over, read from `Local { id }`.
pub struct Prefix {
    pub id: usize,
    pub columns: Vec<Column>,
}

/// A filter on a subquery's output columns (a quantified comparison in
/// a WHERE), or the error for the wrong number of columns.
pub type OutputFilter<'f> = &'f dyn Fn(&[Typed]) -> Result<ScalarExpr, String>;

/// What the query around a subquery reads of its rows.
#[derive(Clone, Copy)]
pub enum Reads<'f> {
    /// Its values (a scalar subquery; a quantified comparison reduced
    /// from every row's).
    Values,
    /// Its rows that the filter holds for (a quantified comparison in a
    /// WHERE or HAVING, which is the EXISTS of those rows).
    Filtered(OutputFilter<'f>),
    /// Only whether it has rows (`EXISTS`): its select list's values are
    /// not computed, so neither are their errors, as PostgreSQL discards
    /// an EXISTS subquery's select list and the real system's optimizer
    /// drops the columns nothing reads.
    Existence,
}

/// The SELECT planner, which expressions cannot name (it is built on them).
pub trait Nested {
    /// `q` planned over `prefix`, its names resolved first in itself and
    /// then in `outer`: its rows are the prefix's columns, then its own;
    /// with its own columns, of which `reads` says what is read.
    fn plan(
        &self,
        q: &Query,
        outer: &dyn Outer,
        prefix: &Prefix,
        reads: Reads,
    ) -> Result<(RelationPlan, Vec<Column>), String>;
    /// A fresh `Let` id.
    fn fresh(&self) -> usize;
    /// The name the real system gives the next quantified subquery, whose
    /// left operand has `width` fields (`subquery1`, `subquery3`, ... for
    /// one field each), which its column count's error shows.
    fn quantified_name(&self, width: usize) -> String;
}

/// How a subquery's rows make its value.
#[derive(Clone, Debug)]
pub enum Kind {
    /// The one row's column; NULL for none; for more, an error per outer row.
    Scalar,
    /// Whether there is a row (of those `filter` holds for).
    Exists { filter: Option<ScalarExpr> },
    /// `x op ANY` (`all: false`) or `ALL`: `cmp` over each row (the outer
    /// columns, then the subquery's), combined three-valued: true (false
    /// for ALL) if any row decides, else NULL if any is NULL, else false
    /// (true for ALL), which is also the value over no rows.
    Quantified { cmp: ScalarExpr, all: bool },
}

/// A subquery planned in a clause.
#[derive(Clone, Debug)]
pub struct Subquery {
    pub kind: Kind,
    /// Its rows for each outer row: the outer row's columns (those it
    /// names; the rest NULL), then its own.
    pub branch: RelationPlan,
    /// The `Let` id the branch reads the outer rows from.
    pub keys: usize,
    /// The outer row's width.
    pub width: usize,
    /// The outer columns it names, in order.
    pub used: Vec<usize>,
    /// Its first column's name, which a scalar subquery's column takes.
    pub name: Option<String>,
    /// Its text: the select list's duplicates are planned once, as the
    /// real system does.
    text: String,
    /// Its columns, which a duplicate planned as this one has too.
    output: Vec<Column>,
}

/// The subqueries planned in one clause, in order; their values are the
/// placeholder columns from `SUBQUERY_COLUMN` on.
pub struct Subqueries<'a> {
    nested: &'a dyn Nested,
    pub planned: Vec<Subquery>,
    /// Whether a subquery identical to one planned before is that one.
    dedupe: bool,
}

impl<'a> Subqueries<'a> {
    pub fn new(nested: &'a dyn Nested, dedupe: bool) -> Subqueries<'a> {
        Subqueries {
            nested,
            planned: Vec::new(),
            dedupe,
        }
    }

    /// The first column's name of the scalar subquery `e`, planned here.
    pub fn scalar_name(&self, e: &Expr) -> Option<String> {
        let text = format!("scalar {e}");
        let planned = self.planned.iter().find(|s| s.text == text)?;
        planned.name.clone()
    }
}

/// `x [NOT] IN (q)`, `x op ANY|SOME (q)` or `x op ALL (q)`: its operand,
/// comparison, query and whether it is ALL (`IN` is `= ANY`, `NOT IN` is
/// `<> ALL`); `None` for any other form.
type QuantifiedParts<'e> = (&'e Expr, BinaryOperator, &'e Query, bool);

fn quantified_parts(e: &Expr) -> Result<Option<QuantifiedParts<'_>>, String> {
    Ok(Some(match e {
        Expr::In {
            expr,
            target: InTarget::Subquery(q),
            negated,
            global: false,
        } => {
            let op = match negated {
                false => BinaryOperator::Eq,
                true => BinaryOperator::NotEq,
            };
            (expr, op, q, *negated)
        }
        e => match any_or_all(e) {
            // Of an array, it is an expression (`array::quantified_array`).
            Some((left, op, Expr::Subquery(q), all)) => (left, op.clone(), &**q, all),
            _ => return Ok(None),
        },
    }))
}

impl ExprContext<'_> {
    /// The refusal of a subquery where none is planned.
    pub(super) fn no_subqueries(&self) -> String {
        unsupported(format!("subqueries {}", self.site))
    }

    /// `IN (SELECT ...)`, `ANY` or `ALL` as an expression's value.
    pub(super) fn quantified_form(&mut self, e: &Expr) -> Result<Typed, String> {
        match quantified_parts(e)? {
            Some((x, op, q, all)) => self.quantified(x, &op, q, all, false),
            None => match any_or_all(e) {
                Some((left, op, right, all)) => self.quantified_array(left, op, right, all),
                _ => Err(unsupported(super::forms::expr(e))),
            },
        }
    }

    /// A WHERE's or HAVING's conjunct that holds a subquery, split into
    /// its conjuncts: `IN`, `ANY` or `ALL` as the whole conjunct is planned
    /// as the filter it is there (see `quantified`).
    /// An error in planning it goes through `wrap`, as in `predicate_with`.
    pub fn filter_conjunct(
        &mut self,
        e: &Expr,
        clause: &'static str,
        wrap: fn(String) -> String,
    ) -> Result<Vec<ScalarExpr>, String> {
        let mut inner = e;
        while let Expr::Nested(e) = inner {
            inner = e;
        }
        let Some((x, op, q, all)) = quantified_parts(inner).map_err(wrap)? else {
            return self.predicate_with(e, clause, wrap);
        };
        let t = self.quantified(x, &op, q, all, true).map_err(wrap)?;
        let mut out = vec![];
        conjuncts(t.expr, &mut out);
        Ok(out)
    }

    /// The columns of the row a subquery's outer references name: the
    /// GROUP BY keys under grouping, else the scope's.
    pub(super) fn row_columns(&self) -> Vec<Column> {
        match &self.grouping {
            Some(g) => g.keys.iter().map(|k| k.column(String::new())).collect(),
            None => self.scope.items.iter().map(|i| i.column.clone()).collect(),
        }
    }

    /// Plans `q` as a subquery of this context (once per identical text
    /// in a deduplicating clause), then `make` its kind; its value is the
    /// placeholder column returned.
    fn nested(
        &mut self,
        text: String,
        q: &Query,
        reads: Reads,
        make: impl FnOnce(&[Column], usize) -> Result<Kind, String>,
    ) -> Result<(usize, Vec<Column>), String> {
        let Some(subqueries) = &self.subqueries else {
            return Err(self.no_subqueries());
        };
        if subqueries.dedupe {
            if let Some(j) = subqueries.planned.iter().position(|s| s.text == text) {
                return Ok((SUBQUERY_COLUMN + j, subqueries.planned[j].output.clone()));
            }
        }
        let nested = subqueries.nested;
        let columns = self.row_columns();
        let width = columns.len();
        let prefix = Prefix {
            id: nested.fresh(),
            columns,
        };
        let enclosing = Enclosing::new(&*self);
        let (branch, output) = nested.plan(q, &enclosing, &prefix, reads)?;
        let used = enclosing.used();
        let kind = make(&output, width)?;
        let planned = &mut self.subqueries.as_mut().expect("checked").planned;
        planned.push(Subquery {
            kind,
            branch,
            keys: prefix.id,
            width,
            used,
            name: output.first().map(|c| c.name.clone()),
            text,
            output: output.clone(),
        });
        Ok((SUBQUERY_COLUMN + planned.len() - 1, output))
    }

    /// `(SELECT ...)`: its one column, NULL over no rows.
    #[inline(never)]
    pub(super) fn scalar_subquery(&mut self, e: &Expr, q: &Query) -> Result<Typed, String> {
        let (column, output) = self.nested(
            format!("scalar {e}"),
            q,
            Reads::Values,
            |output, _| match output.len() {
                1 => Ok(Kind::Scalar),
                n => Err(format!(
                    "Expected subselect to return 1 column, got {n} columns"
                )),
            },
        )?;
        let typ = output.first().map_or(ScalarType::Text, |c| c.typ);
        Ok(Typed::new(ScalarExpr::Column(column), typ, true))
    }

    /// `[NOT] EXISTS (SELECT ...)`.
    #[inline(never)]
    pub(super) fn exists(&mut self, e: &Expr, q: &Query, negated: bool) -> Result<Typed, String> {
        let text = format!("exists {e}");
        let exists = |_: &[Column], _| Ok(Kind::Exists { filter: None });
        let (column, _) = self.nested(text, q, Reads::Existence, exists)?;
        let exists = Typed::new(ScalarExpr::Column(column), ScalarType::Bool, false);
        Ok(negate(exists, negated))
    }

    /// `left op ANY (q)` (`all: false`) or `ALL`; `IN` is `= ANY` and
    /// `NOT IN` is `<> ALL`. Directly in a WHERE or HAVING (`in_filter`),
    /// where NULL and false alike drop the row, or when no comparison can
    /// be NULL, it is `EXISTS` of the rows the comparison holds for (for
    /// ANY) or `NOT EXISTS` of those it does not (for ALL), as the real
    /// system rewrites it (`transform_hir.rs`); otherwise its three values
    /// are reduced from every row's comparison.
    #[inline(never)]
    pub(super) fn quantified(
        &mut self,
        left: &Expr,
        op: &BinaryOperator,
        q: &Query,
        all: bool,
        in_filter: bool,
    ) -> Result<Typed, String> {
        let Some(subqueries) = &self.subqueries else {
            return Err(self.no_subqueries());
        };
        let name = subqueries.nested.quantified_name(row::operand(left).len());
        // A row constructor's fields are compared with the columns one
        // by one (`row.rs`); any other operand is a row of one field.
        let xs = row::operand(left)
            .into_iter()
            .map(|e| self.plan(e))
            .collect::<Result<Vec<_>, _>>()?;
        let mut read = BTreeSet::new();
        for x in &xs {
            columns_of(&x.expr, &mut read);
        }
        if read.iter().any(|c| *c >= self.row_columns().len()) {
            return Err(unsupported(
                "subqueries or aggregates left of IN, ANY or ALL",
            ));
        }
        let is_row = row::fields(left).is_some();
        if is_row && !row::is_comparison(op) {
            return Err(unsupported(format!("operator {op} of a row")));
        }
        let compare = |output: &[Typed]| -> Result<Typed, String> {
            match (output, is_row) {
                _ if output.len() != xs.len() => Err(format!(
                    "{name} has {} columns available but {} columns specified",
                    output.len(),
                    xs.len()
                )),
                ([s], false) => binary(op, xs[0].clone(), s.clone()),
                _ => row::expand(op, xs.len(), |i| Ok((xs[i].clone(), output[i].clone()))),
            }
        };
        let text = format!("{} {left} {op} {q}", if all { "all" } else { "any" });
        let filter = |output: &[Typed]| Ok(deciding(compare(output)?.expr, all));
        let (column, _) = match in_filter {
            true => self.nested(text, q, Reads::Filtered(&filter), |_, _| {
                Ok(Kind::Exists { filter: None })
            })?,
            false => self.nested(text, q, Reads::Values, |output, width| {
                let value = |(i, c)| Typed::of_column(ScalarExpr::Column(width + i), c);
                let cmp = compare(&output.iter().enumerate().map(value).collect::<Vec<_>>())?;
                Ok(match cmp.nullable {
                    true => Kind::Quantified { cmp: cmp.expr, all },
                    false => Kind::Exists {
                        filter: Some(deciding(cmp.expr, all)),
                    },
                })
            })?,
        };
        // The comparison reads the outer columns `x` reads, too.
        let planned = &mut self.subqueries.as_mut().expect("checked").planned;
        let subquery = &mut planned[column - SUBQUERY_COLUMN];
        read.extend(subquery.used.iter().copied());
        subquery.used = read.into_iter().collect();
        Ok(match subquery.kind {
            Kind::Quantified { .. } => {
                Typed::new(ScalarExpr::Column(column), ScalarType::Bool, true)
            }
            _ => {
                let exists = Typed::new(ScalarExpr::Column(column), ScalarType::Bool, false);
                negate(exists, all)
            }
        })
    }
}

/// The rows that decide a quantified comparison: those `cmp` holds for
/// under ANY, those it does not hold for (false or NULL) under ALL.
fn deciding(cmp: ScalarExpr, all: bool) -> ScalarExpr {
    match all {
        false => cmp,
        true => or(
            ScalarExpr::Unary(UnaryOp::Not, Box::new(cmp.clone())),
            ScalarExpr::Unary(UnaryOp::IsNull, Box::new(cmp)),
        ),
    }
}

fn or(l: ScalarExpr, r: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Binary(BinaryOp::Or, Box::new(l), Box::new(r))
}
