//! The columns an expression can name, each with the table name or alias
//! that qualifies it, in the order of the row the expression sees; which
//! of them a name finds (a USING join's inputs' own columns only
//! qualified, a correlated subquery's copy of the outer row by no name of
//! its own) and the order `SELECT *` lists them in.

use crate::repr::Column;

/// A column visible to expressions, with the table name or alias qualifying it.
#[derive(Clone, Debug)]
pub struct ScopeItem {
    /// Empty for a FULL JOIN's merged USING column, which no qualified
    /// name finds.
    pub table: String,
    pub column: Column,
    /// Whether an unqualified name finds it: not a USING join's input
    /// column that the join merged into one column of that name.
    pub unqualified: bool,
}

/// The columns an expression can name, in the order of the row it sees.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub items: Vec<ScopeItem>,
    /// How many leading items no name finds: a correlated subquery's copy
    /// of its outer row (names reach it through the outer query), and the
    /// FROM items before the join an ON condition belongs to.
    pub hidden: usize,
    /// The positions `SELECT *` lists, in its order (a USING join's merged
    /// columns first).
    pub star: Vec<usize>,
}

/// What looking a name up in one scope found.
pub enum Found {
    At(usize),
    /// Not here: the text of the error if no enclosing scope has it either.
    Missing(String),
}

impl Scope {
    pub fn relation(table: &str, columns: Vec<Column>) -> Scope {
        let star = (0..columns.len()).collect();
        let items = columns
            .into_iter()
            .map(|column| ScopeItem {
                table: table.to_string(),
                column,
                unqualified: true,
            })
            .collect();
        Scope {
            items,
            hidden: 0,
            star,
        }
    }

    /// Appends `other`'s items, after this scope's, to the row and to `*`.
    pub fn extend(&mut self, other: Scope) {
        let offset = self.items.len();
        self.star.extend(other.star.iter().map(|p| p + offset));
        self.items.extend(other.items);
    }

    /// The items names can find, with their positions.
    fn visible(&self) -> impl Iterator<Item = (usize, &ScopeItem)> {
        self.items.iter().enumerate().skip(self.hidden)
    }

    pub fn has_table(&self, table: &str) -> bool {
        self.visible().any(|(_, item)| item.table == table)
    }

    /// The position `[table.]name` names here, or why it names none; an
    /// ambiguous name is an error at once.
    pub fn find(&self, table: Option<&str>, name: &str) -> Result<Found, String> {
        // The real system does not tell a missing table from a missing column.
        if let Some(table) = table.filter(|t| !self.has_table(t)) {
            let missing = format!("column \"{table}.{name}\" does not exist");
            return Ok(Found::Missing(missing));
        }
        let mut found = self.visible().filter(|(_, item)| {
            item.column.name == name && table.map_or(item.unqualified, |t| item.table == t)
        });
        let shown = table.map_or(name.to_string(), |t| format!("{t}.{name}"));
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Ok(Found::At(i)),
            (None, _) => Ok(Found::Missing(format!("column \"{shown}\" does not exist"))),
            // Two columns of one relation: the real system names the column alone.
            (Some(_), Some(_)) => Err(format!("column reference \"{name}\" is ambiguous")),
        }
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
        match self.find(table, name)? {
            Found::At(i) => Ok(i),
            Found::Missing(e) => Err(e),
        }
    }

    /// The positions `table.*` lists: that table's columns in its order.
    pub fn table_columns(&self, table: &str) -> Vec<usize> {
        let items = self.visible().filter(|(_, item)| item.table == table);
        items.map(|(i, _)| i).collect()
    }
}
