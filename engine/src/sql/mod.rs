//! The SQL front end: text to planned [`Statement`]s, resolved against a
//! [`Resolver`]. Error strings are what a user sees after `error: `, modelled
//! on the real system's texts.
//!
//! - `parse`: sqlparser plus Materialize's `AS OF` and `CREATE DEFAULT INDEX`.
//! - `statement`: DDL and writes (`mutation`: UPDATE and DELETE;
//!   `assignment`: a value's cast to its column's type); `arity`: how
//!   wide an INSERT's source may be and the order of its errors;
//!   `constraints`: a table's keys;
//!   `materialized`: `CREATE [OR REPLACE] MATERIALIZED VIEW`; `drop`: DROP
//!   of one or several objects, `CASCADE` or `RESTRICT`; `names`: a
//!   catalog item's name, bare or qualified by a schema and database;
//!   `schemas`: CREATE and DROP of schemas and databases.
//! - `query`: SELECT.
//! - `session`: `SET`, `RESET` and `SHOW` of a session variable, on tokens;
//!   `vars`: the variables, their values and errors.
//! - `roles`: `CREATE`, `ALTER` and `DROP ROLE`, on tokens.
//! - `subscribe`: `SUBSCRIBE [TO] <relation | (SELECT ...)> [AS OF t] [UP TO u]`.
//! - `expr`: scalar expressions, name scopes and types.
//! - `values`: a bulk INSERT's rows of plain literals, read off the text.
//! - `mutually_recursive`: `WITH MUTUALLY RECURSIVE` as sqlparser's
//!   `WITH RECURSIVE`, on tokens.

mod arity;
mod assignment;
mod clauses;
pub mod constraints;
mod drop;
mod expr;
mod forms;
mod grants;
mod list_syntax;
mod materialized;
mod mutation;
mod mutually_recursive;
mod names;
mod parse;
mod query;
mod roles;
mod schemas;
mod session;
mod show;
mod statement;
mod subscribe;
#[cfg(test)]
mod tests;
mod transaction;
mod values;
mod vars;
mod words;

use sqlparser::ast::{Ident, ObjectName};

use crate::plan::{full_name, minimal_name, ObjectKind, Resolver, Statement};
use crate::recursion::with_stack;
use crate::repr::{unsupported, Column, GlobalId};

pub use drop::still_depended_upon;
pub use grants::{resolve_grant, AclMode, GrantObject, PrivilegeStatement};
pub use roles::{role_statement, RoleStatement};
pub use subscribe::{plan_subscribe, Subscribe};
pub use vars::Vars;

/// Plans one or more `;`-separated statements. All are parsed before any is
/// planned (a syntax error anywhere fails the whole text), and all are
/// planned against the same `catalog`: a caller whose statements depend on
/// each other plans them one at a time. `DROP ... IF EXISTS` of a missing
/// object and `CREATE ... IF NOT EXISTS` of an existing one plan to nothing.
/// Each statement is planned, and its syntax tree dropped, on a stack deep
/// enough for that tree (`parse::stack_for`).
pub fn plan(sql: &str, catalog: &dyn Resolver) -> Result<Vec<Statement>, String> {
    let mut planned = Vec::new();
    let mut parsed = parse::parse(sql)?.into_iter();
    for statement in parsed.by_ref() {
        let stack = statement.stack;
        match with_stack(stack, || statement::plan(statement, catalog)) {
            Ok(statement) => planned.extend(statement),
            Err(e) => {
                parsed.for_each(parse::ParsedStatement::discard);
                return Err(e);
            }
        }
    }
    Ok(planned)
}

/// The `;`-separated statements of `sql`, each parsed on its own, to be
/// planned one at a time against the catalog the ones before produced. The
/// outer error (the tokenizer's) fails the whole text; a statement's own
/// syntax error only when its turn comes, as if it had been parsed alone.
pub fn statements(sql: &str) -> Result<Vec<Unplanned>, String> {
    Ok(parse::parse_each(sql)?
        .into_iter()
        .map(|p| Unplanned(Some(p)))
        .collect())
}

/// One statement of a text, parsed (or not: its syntax error), not planned.
pub struct Unplanned(Option<Result<parse::ParsedStatement, String>>);

impl Unplanned {
    /// Whether the statement is a one-off query (a `SELECT`), whose
    /// connection's functions are evaluated as it is planned.
    pub fn is_query(&self) -> bool {
        let query = |p: &parse::ParsedStatement| match &p.stmt {
            parse::Parsed::Ast(s) => matches!(**s, sqlparser::ast::Statement::Query(_)),
            _ => false,
        };
        matches!(&self.0, Some(Ok(p)) if query(p))
    }

    /// Plans the statement against `catalog` (nothing, for `IF EXISTS` and
    /// `IF NOT EXISTS` that find nothing to do), on a stack deep enough for
    /// its syntax tree.
    pub fn plan(mut self, catalog: &dyn Resolver) -> Result<Option<Statement>, String> {
        let parsed = self.0.take().expect("planned once")?;
        with_stack(parsed.stack, || statement::plan(parsed, catalog))
    }
}

impl Drop for Unplanned {
    /// A statement never planned (one after an error) drops its syntax tree
    /// on a stack deep enough for it too.
    fn drop(&mut self) {
        if let Some(Ok(parsed)) = self.0.take() {
            parsed.discard();
        }
    }
}

/// An identifier as the catalog knows it: unquoted ones fold to lower case.
fn ident(i: &Ident) -> String {
    match i.quote_style {
        Some(_) => i.value.clone(),
        None => i.value.to_lowercase(),
    }
}

/// The name an object is created or looked up by, with its schema
/// (`names`).
fn object_name(catalog: &dyn Resolver, name: &ObjectName) -> Result<names::ItemName, String> {
    names::item(catalog, name)
}

/// A name that Materialize never qualifies here (a column, a function, a
/// new index's name).
fn unqualified_name(name: &ObjectName) -> Result<String, String> {
    match name.0.as_slice() {
        [part] => part
            .as_ident()
            .map(ident)
            .ok_or_else(|| unsupported(format!("name form: {name}"))),
        _ => Err(unsupported(format!("qualified name: {name}"))),
    }
}

/// The real system's text for a name the catalog does not know; a name of
/// its system catalog (`pg_...`, `mz_...`), which the engine does not have,
/// is refused instead.
fn unknown(name: &str) -> String {
    match name.starts_with("pg_") || name.starts_with("mz_") {
        true => unsupported(format!("system catalog relation {name}")),
        false => format!("unknown catalog item '{name}'"),
    }
}

/// Resolves a name to an object: its name as Materialize's errors print
/// it (`minimal_name`), its id and kind.
fn resolve(
    catalog: &dyn Resolver,
    name: &ObjectName,
) -> Result<(String, GlobalId, ObjectKind), String> {
    let name = names::item(catalog, name)?;
    let found = match name.schema {
        None => catalog.resolve(&name.item),
        Some(schema) => catalog.resolve_in(schema, &name.item),
    };
    let (id, kind) = found.ok_or_else(|| unknown(&name.given))?;
    let shown = minimal_name(catalog, id).unwrap_or(name.item);
    Ok((shown, id, kind))
}

/// An object's full name, `database.schema.item`.
fn full_name_of(catalog: &dyn Resolver, id: GlobalId) -> String {
    let item = catalog.name(id).unwrap_or_default();
    full_name(catalog, catalog.schema_of(id), &item)
}

/// `a table`, `an index`, ...
fn with_article(kind: ObjectKind) -> String {
    let article = if kind == ObjectKind::Index { "an" } else { "a" };
    format!("{article} {}", kind.name())
}

fn kind_mismatch(name: &str, actual: ObjectKind, expected: &str) -> String {
    format!("\"{name}\" is {} not {expected}", with_article(actual))
}

/// A relation to read from or index: a table, view or introspection relation.
fn relation(
    catalog: &dyn Resolver,
    name: &ObjectName,
) -> Result<(String, GlobalId, Vec<Column>), String> {
    let (name, id, kind) = resolve(catalog, name)?;
    if kind == ObjectKind::Index {
        return Err(kind_mismatch(&name, kind, "a relation"));
    }
    let columns = catalog.columns(id).ok_or_else(|| unknown(&name))?;
    // A relation is named in a scope by its item's name.
    let item = catalog.name(id).unwrap_or(name);
    Ok((item, id, columns))
}

/// An object that must be of `expected` kind (the target of a write or DROP).
fn object_of_kind(
    catalog: &dyn Resolver,
    name: &ObjectName,
    expected: ObjectKind,
) -> Result<GlobalId, String> {
    let (name, id, kind) = resolve(catalog, name)?;
    if kind != expected {
        // Materialize's `MismatchedObjectType`: the name unquoted.
        let (actual, expected) = (with_article(kind), with_article(expected));
        return Err(format!("{name} is {actual} not {expected}"));
    }
    Ok(id)
}

/// Fails if any two columns share a name.
/// `CREATE [MATERIALIZED] VIEW name (a, b)`: the given names replace the
/// first columns' names, as Materialize's `maybe_rename_columns` does, and
/// then no two columns may share a name. `context` names the object as its
/// error does (`view materialize.public.v`).
fn rename_columns(
    context: &str,
    columns: &mut [Column],
    given: &[sqlparser::ast::ViewColumnDef],
) -> Result<(), String> {
    let named = given.len();
    if named > columns.len() {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        return Err(format!(
            "{context} definition names {named} column{}, but {context} has {} column{}",
            plural(named),
            columns.len(),
            plural(columns.len())
        ));
    }
    for (column, given) in columns.iter_mut().zip(given) {
        column.name = ident(&given.name);
    }
    check_unique_columns(columns)
}

fn check_unique_columns(columns: &[Column]) -> Result<(), String> {
    for (i, c) in columns.iter().enumerate() {
        if columns[..i].iter().any(|d| d.name == c.name) {
            return Err(format!("column \"{}\" specified more than once", c.name));
        }
    }
    Ok(())
}
