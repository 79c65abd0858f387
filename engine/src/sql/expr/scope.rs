//! The columns an expression can name, each with the table name or alias
//! that qualifies it, in the order of the row the expression sees.

use crate::repr::Column;

/// A column visible to expressions, with the table name or alias qualifying it.
#[derive(Clone, Debug)]
pub struct ScopeItem {
    pub table: String,
    pub column: Column,
}

/// The columns an expression can name, in the order of the row it sees.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub items: Vec<ScopeItem>,
}

impl Scope {
    pub fn relation(table: &str, columns: Vec<Column>) -> Scope {
        let items = columns
            .into_iter()
            .map(|column| ScopeItem {
                table: table.to_string(),
                column,
            })
            .collect();
        Scope { items }
    }

    pub fn has_table(&self, table: &str) -> bool {
        self.items.iter().any(|item| item.table == table)
    }

    /// Materialize's hint after `column "[table.]name" does not exist`
    /// (`sql/src/plan/error.rs`, `UnknownColumn`): the columns in scope
    /// (of `table`, if given) whose names, case folded, are within a
    /// normalized Levenshtein similarity of 0.6 of `name`, each shown
    /// qualified as `name` was. `None` when a column matches `name` (the
    /// error is another) or none is similar.
    pub fn hint(&self, table: Option<&str>, name: &str) -> Option<String> {
        let candidates = self
            .items
            .iter()
            .filter(|item| table.is_none_or(|t| item.table == t));
        let shown = |column: &str| match table {
            Some(t) => format!("\"{t}.{column}\""),
            None => format!("\"{column}\""),
        };
        let mut similar = Vec::new();
        for item in candidates {
            if item.column.name == name {
                return None;
            }
            let (a, b) = (item.column.name.to_lowercase(), name.to_lowercase());
            if strsim::normalized_levenshtein(&a, &b) >= 0.6 {
                similar.push(shown(&item.column.name));
            }
        }
        let suffix = "Make sure to surround case sensitive names in double quotes.";
        match similar.as_slice() {
            [] => None,
            [one] => Some(format!(
                "The similarly named column {one} does exist. {suffix}"
            )),
            all => Some(format!(
                "There are similarly named columns that do exist: {}. {suffix}",
                all.join(", ")
            )),
        }
    }

    /// The position of `[table.]name`.
    pub fn resolve(&self, table: Option<&str>, name: &str) -> Result<usize, String> {
        // The real system does not tell a missing table from a missing column.
        if let Some(table) = table.filter(|t| !self.has_table(t)) {
            return Err(format!("column \"{table}.{name}\" does not exist"));
        }
        let mut found =
            self.items.iter().enumerate().filter(|(_, item)| {
                item.column.name == name && table.is_none_or(|t| item.table == t)
            });
        let shown = table.map_or(name.to_string(), |t| format!("{t}.{name}"));
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Ok(i),
            (None, _) => Err(format!("column \"{shown}\" does not exist")),
            (Some(_), Some(_)) => Err(format!("column reference \"{shown}\" is ambiguous")),
        }
    }
}
