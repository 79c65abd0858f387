//! What a query reads and returns: a [`Relation`] (rows and errors, both
//! multisets, at one time), how a read prints it, and the [`Catalog`] a
//! query finds its relations in. Apart from `query.rs` so that the FROM
//! clause (`from.rs`) and the SELECT around it both use them.

use crate::scalar::Unsupported;
use crate::types::Type;
use engine::repr::{Datum, Row};

/// A relation's contents at one time: rows and errors, both multisets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relation {
    pub columns: Vec<String>,
    /// Each column's type where a table's column gave it (a view's column
    /// that is one's keeps it); `None` for any other.
    pub types: Vec<Option<Type>>,
    pub rows: Vec<Row>,
    pub errs: Vec<String>,
}

impl Relation {
    /// What a read of it prints: the smallest error, else the rows, sorted.
    pub fn lines(mut self) -> Vec<String> {
        self.errs.sort();
        if let Some(e) = self.errs.first() {
            return vec![format!("error: {e}")];
        }
        self.rows.sort();
        self.rows.iter().map(|r| render(r)).collect()
    }
}

/// A row as the runner prints it.
pub fn render(row: &[Datum]) -> String {
    row.iter()
        .map(Datum::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where a query finds the relations it names (at the read's time).
pub trait Catalog {
    fn relation(&self, name: &str) -> Result<Relation, Unsupported>;
}
