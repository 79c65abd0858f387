//! `WITH a AS (...), b (x, y) AS (...) SELECT ...`: common table
//! expressions, not recursive, scoped as Materialize scopes them
//! (`WITH MUTUALLY RECURSIVE` is `recursive`'s).
//!
//! Each CTE is planned in turn, seeing the ones before it (and those of
//! the queries around it), never itself; its name, unqualified, shadows a
//! table's in the query's FROM clauses, nested ones too, and its columns
//! take the names its alias gives. Each CTE a plan reads is bound once
//! (`Let`) around the query and read where it is named (`Local`), so its
//! errors count once however often it is read; one nothing reads is
//! planned (its planning errors stand) but not computed, as Materialize's
//! optimizer drops an unused binding.

use sqlparser::ast::{ObjectName, Query, TableAlias};

use super::super::expr::{Nested, Outer};
use super::super::ident;
use super::{Correlation, PlannedQuery, Planner};
use crate::plan::{with_top_k, DerivedSite, RelationPlan};
use crate::repr::{unsupported, Column};

/// A CTE in scope: its name, the `Let` that binds it, its columns.
pub(super) struct Cte {
    name: String,
    id: usize,
    columns: Vec<Column>,
}

impl Cte {
    pub(super) fn new(name: String, id: usize, columns: Vec<Column>) -> Cte {
        Cte { name, id, columns }
    }
}

impl Planner<'_> {
    /// Plans `q`, which has a WITH clause.
    pub(super) fn with_query(
        &self,
        q: &Query,
        corr: Option<&Correlation>,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        let with = q.with.as_ref().expect("a query with a WITH clause");
        if corr.is_some() {
            return Err(unsupported("WITH in a subquery in an expression"));
        }
        let base = self.ctes.borrow().len();
        // `parse` leaves `recursive` only on Materialize's own block.
        let planned = match with.recursive {
            true => self.mutually_recursive(q, names, in_from),
            false => self.with_ctes(q, names, in_from),
        };
        self.ctes.borrow_mut().truncate(base);
        planned
    }

    fn with_ctes(
        &self,
        q: &Query,
        names: Option<&dyn Outer>,
        in_from: bool,
    ) -> Result<PlannedQuery, String> {
        let ctes = named_ctes(q)?;
        let mut values = vec![];
        for cte in ctes {
            plain_form(cte)?;
            // Not every column of a CTE need be read: its computed ones
            // are marked as a subquery's in FROM are, in its own name.
            let planned = self.within(DerivedSite::Cte, || {
                self.query(&cte.query, None, names, true)
            })?;
            let plan = with_top_k(planned.plan, planned.finishing);
            let (name, columns) = renamed(&cte.alias, planned.columns)?;
            let id = self.fresh();
            self.ctes.borrow_mut().push(Cte { name, id, columns });
            values.push((id, plan));
        }
        let body = Query {
            with: None,
            ..q.clone()
        };
        let mut planned = self.query(&body, None, names, in_from)?;
        for (id, value) in values.into_iter().rev() {
            if planned.plan.reads_local(id) {
                planned.plan = RelationPlan::Let {
                    id,
                    value: Box::new(value),
                    body: Box::new(planned.plan),
                };
                planned.simple = None;
            }
        }
        Ok(planned)
    }

    /// `plan` run with the subqueries in FROM it plans written in `site`.
    pub(super) fn within<T>(&self, site: DerivedSite, plan: impl FnOnce() -> T) -> T {
        let outer = self.site.replace(site);
        let planned = plan();
        self.site.set(outer);
        planned
    }

    /// The CTE in scope an unqualified `name` in FROM names: its `Local`
    /// plan and columns.
    pub(super) fn cte(&self, name: &ObjectName) -> Option<(String, RelationPlan, Vec<Column>)> {
        let [part] = name.0.as_slice() else {
            return None;
        };
        let wanted = ident(part.as_ident()?);
        let ctes = self.ctes.borrow();
        let cte = ctes.iter().rev().find(|c| c.name == wanted)?;
        let local = RelationPlan::Local {
            id: cte.id,
            arity: cte.columns.len(),
        };
        Some((cte.name.clone(), local, cte.columns.clone()))
    }
}

/// Materialize's error for a name two CTEs of one `WITH` take.
/// The CTEs of `q`'s WITH clause (plain or `MUTUALLY RECURSIVE`), each
/// name given once: `WITH query name "c" specified more than once`.
pub(super) fn named_ctes(q: &Query) -> Result<&[sqlparser::ast::Cte], String> {
    let with = q.with.as_ref().expect("a query with a WITH clause");
    let ctes = &with.cte_tables;
    for (i, cte) in ctes.iter().enumerate() {
        let name = ident(&cte.alias.name);
        if ctes[..i].iter().any(|c| ident(&c.alias.name) == name) {
            return Err(format!(
                "WITH query name \"{name}\" specified more than once"
            ));
        }
    }
    Ok(ctes)
}

/// Refuses a CTE written in a form the engine does not plan
/// (`AS MATERIALIZED`, another system's `FROM`).
pub(super) fn plain_form(cte: &sqlparser::ast::Cte) -> Result<(), String> {
    match cte.materialized.is_some() || cte.from.is_some() {
        true => Err(unsupported(format!("CTE form: {cte}"))),
        false => Ok(()),
    }
}

/// A CTE's name and its columns as its alias names them, in
/// Materialize's words when it names more than there are.
fn renamed(alias: &TableAlias, mut columns: Vec<Column>) -> Result<(String, Vec<Column>), String> {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let (named, has) = (alias.columns.len(), columns.len());
    if named > has {
        let cte = format!("CTE {}", alias.name);
        return Err(format!(
            "{cte} definition names {named} column{}, but {cte} has {has} column{}",
            plural(named),
            plural(has)
        ));
    }
    for (column, renamed) in columns.iter_mut().zip(&alias.columns) {
        if renamed.data_type.is_some() {
            return Err(unsupported(format!("column alias types: {alias}")));
        }
        column.name = ident(&renamed.name);
    }
    Ok((ident(&alias.name), columns))
}
