//! The columns an `INSERT` lists, how wide its source may be, and in which
//! order its errors come, as Materialize's `plan_insert_query` and
//! `plan_values_insert` have them (docs/semantics.md, "Writes").
//!
//! A VALUES list's rows must all be the same length, checked before any
//! of them is planned; a source wider than its targets fails next, before
//! anything in it is planned; one narrower than a listed set of columns
//! fails only once every expression is planned, so an unknown column or
//! a type error in it comes first. Evaluation comes after planning: an
//! expression's planning error in any row is reported before another
//! row's evaluation error, and an evaluation error in any row before a
//! NULL in a `NOT NULL` column of any row. The rows are constants, which
//! Materialize folds and whose error its `insert_constant` reports with
//! the error's own text, without `Evaluation error: ` before it.

use sqlparser::ast::ObjectName;

use super::unqualified_name;
use crate::repr::Column;

/// The columns an INSERT lists, by position in `columns`, as Materialize
/// checks them: every name must be a column of `table` (its full name),
/// then none may be listed twice.
pub fn targets(
    columns: &[Column],
    names: &[ObjectName],
    table: &str,
) -> Result<Vec<usize>, String> {
    let names = names
        .iter()
        .map(unqualified_name)
        .collect::<Result<Vec<_>, _>>()?;
    let mut targets = vec![];
    for name in &names {
        match columns.iter().position(|c| c.name == *name) {
            Some(t) => targets.push(t),
            None => {
                return Err(format!(
                    "column \"{name}\" of relation \"{table}\" does not exist"
                ))
            }
        }
    }
    let repeated = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n));
    if let Some((_, name)) = repeated {
        return Err(format!("column \"{name}\" specified more than once"));
    }
    Ok(targets)
}

/// The rows of a VALUES list differ in length.
pub const SAME_LENGTH: &str = "VALUES lists must all be the same length";
/// The source is wider than the columns it goes to.
pub const MORE_EXPRESSIONS: &str = "INSERT has more expressions than target columns";
/// The source is narrower than the columns listed.
pub const MORE_TARGETS: &str = "INSERT has more target columns than expressions";

/// The width of a VALUES list's rows, `widths`, which must all be equal.
pub fn values_width(mut widths: impl Iterator<Item = usize>) -> Result<usize, String> {
    let first = widths.next().unwrap_or_default();
    match widths.all(|w| w == first) {
        true => Ok(first),
        false => Err(SAME_LENGTH.into()),
    }
}

/// A source `width` wide that is wider than its `targets`: checked before
/// anything in the source is planned (a VALUES list) or once it is (a
/// query).
pub fn too_wide(width: usize, targets: usize) -> Result<(), String> {
    match width > targets {
        true => Err(MORE_EXPRESSIONS.into()),
        false => Ok(()),
    }
}

/// Whether a source `width` wide leaves a listed column without a value;
/// without a list, the columns past the source's are filled with NULL.
pub fn too_narrow(width: usize, targets: usize, listed: bool) -> bool {
    listed && width < targets
}

/// What went wrong with a VALUES row, by when Materialize finds it.
#[derive(Debug)]
pub enum RowError {
    /// Planning the row: reported at once.
    Plan(String),
    /// Evaluating the row, once every row is planned.
    Eval(String),
    /// A NULL in a `NOT NULL` column, once every row is evaluated.
    NotNull(String),
}

/// The rows of a VALUES list as they are planned, with the first error of
/// each later kind kept until every row is planned.
pub struct Rows<R> {
    pub rows: Vec<R>,
    deferred: Option<RowError>,
}

impl<R> Default for Rows<R> {
    fn default() -> Self {
        Rows {
            rows: Vec::new(),
            deferred: None,
        }
    }
}

impl<R> Rows<R> {
    /// Whether a row must still be evaluated: an evaluation error already
    /// met is the one reported, whatever later rows hold.
    pub fn evaluating(&self) -> bool {
        !matches!(self.deferred, Some(RowError::Eval(_)))
    }

    /// Takes one row's outcome; a planning error ends the statement.
    pub fn push(&mut self, row: Result<R, RowError>) -> Result<(), String> {
        match row {
            Ok(row) => self.rows.push(row),
            Err(RowError::Plan(e)) => return Err(e),
            Err(e @ RowError::Eval(_)) if self.evaluating() => self.deferred = Some(e),
            Err(e) if self.deferred.is_none() => self.deferred = Some(e),
            Err(_) => {}
        }
        Ok(())
    }

    /// The rows, or the error deferred; `narrow` (`too_narrow`) is the
    /// error of a source planned in full.
    pub fn finish(self, narrow: bool) -> Result<Vec<R>, String> {
        if narrow {
            return Err(MORE_TARGETS.into());
        }
        match self.deferred {
            None => Ok(self.rows),
            Some(RowError::Plan(e) | RowError::Eval(e) | RowError::NotNull(e)) => Err(e),
        }
    }
}
