//! `UPDATE` and `DELETE` planned, Materialize's mutations
//! (`plan_mutation_query_inner`): the table written, its `WHERE` clause,
//! then each `SET` in turn, with Materialize's texts; and the check that
//! a write names a table, which `INSERT` shares.

use sqlparser::ast::{
    AssignmentTarget, Delete, Expr, FromTable, ObjectName, TableFactor, TableWithJoins, Update,
};

use super::assignment::{assignment, Site};
use super::expr::{where_clause, ExprContext, Scope};
use super::{clauses, full_name_of, ident, object_name, resolve, unknown, unqualified_name};
use crate::plan::{ObjectKind, Resolver, ScalarExpr, Statement};
use crate::repr::{unsupported, Column, GlobalId};

/// The table a write names; another kind of object is Materialize's
/// refusal, `cannot insert into view 'materialize.public.v'` (`cannot
/// mutate ...` for an UPDATE or DELETE). A system catalog relation and an
/// index, which Materialize may refuse otherwise, are refused by name.
pub(super) fn written_table(
    catalog: &dyn Resolver,
    name: &ObjectName,
    verb: &str,
) -> Result<GlobalId, String> {
    match resolve(catalog, name)? {
        (_, id, ObjectKind::Table) => Ok(id),
        (item, _, ObjectKind::Introspection) => Err(unsupported(format!(
            "a write to a system catalog relation: {item}"
        ))),
        (item, _, ObjectKind::Index) => Err(unsupported(format!("a write to an index: {item}"))),
        (_, id, kind) => Err(format!(
            "cannot {verb} {} '{}'",
            kind.name(),
            full_name_of(catalog, id)
        )),
    }
}

/// The table an UPDATE or DELETE writes, and the scope its expressions see.
fn target(catalog: &dyn Resolver, t: &TableWithJoins) -> Result<(GlobalId, Scope), String> {
    let TableFactor::Table {
        name,
        alias,
        args: None,
        ..
    } = &t.relation
    else {
        return Err(unsupported(format!(
            "a write to other than a table: {}",
            t.relation
        )));
    };
    if !t.joins.is_empty() || alias.as_ref().is_some_and(|a| !a.columns.is_empty()) {
        return Err(unsupported(format!("a write to other than a table: {t}")));
    }
    let id = written_table(catalog, name, "mutate")?;
    let columns = catalog
        .columns(id)
        .ok_or_else(|| unknown(&name.to_string()))?;
    let qualifier = match alias {
        Some(alias) => ident(&alias.name),
        None => object_name(catalog, name)?.item,
    };
    Ok((id, Scope::relation(&qualifier, columns)))
}

fn predicates(scope: &Scope, selection: Option<&Expr>) -> Result<Vec<ScalarExpr>, String> {
    selection.map_or(Ok(vec![]), |e| where_clause(scope, e))
}

/// Plans the WHERE clause, then each SET in turn, as Materialize's
/// `plan_mutation_query_inner` does, with its texts for an unknown or
/// repeated column.
pub(super) fn update(catalog: &dyn Resolver, u: &Update) -> Result<Statement, String> {
    clauses::update(u)?;
    let (table, scope) = target(catalog, &u.table)?;
    let predicates = predicates(&scope, u.selection.as_ref())?;
    let columns: Vec<Column> = scope.items.iter().map(|i| i.column.clone()).collect();
    let mut assignments: Vec<(usize, ScalarExpr)> = vec![];
    for a in &u.assignments {
        let AssignmentTarget::ColumnName(name) = &a.target else {
            return Err(unsupported(format!(
                "assignment to other than a column: {a}"
            )));
        };
        let name = unqualified_name(name)?;
        let Some(c) = columns.iter().position(|c| c.name == name) else {
            return Err(format!("unknown column {name}"));
        };
        // Materialize's sequencer evaluates a SET expression as written,
        // never folded (`sequence_read_then_write`).
        let mut cx =
            ExprContext::plain(&scope, "aggregate functions are not allowed in SET clause");
        cx.folds = false;
        let planned =
            cx.plan(&a.value)
                .map_err(|e| match e == unsupported("subqueries in SET clause") {
                    true => "SET clause does not allow subqueries".to_string(),
                    false => e,
                })?;
        let expr = assignment(&columns[c], planned, Site::Set)?;
        if assignments.iter().any(|(d, _)| *d == c) {
            return Err(format!("column {name} set twice"));
        }
        assignments.push((c, expr));
    }
    Ok(Statement::Update {
        table,
        assignments,
        predicates,
    })
}

pub(super) fn delete(catalog: &dyn Resolver, d: &Delete) -> Result<Statement, String> {
    let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &d.from;
    clauses::delete(d)?;
    let [from] = from.as_slice() else {
        return Err(unsupported("DELETE of several tables"));
    };
    let (table, scope) = target(catalog, from)?;
    let predicates = predicates(&scope, d.selection.as_ref())?;
    Ok(Statement::Delete { table, predicates })
}
