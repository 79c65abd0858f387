//! A `CREATE TABLE`'s keys: `PRIMARY KEY` and `UNIQUE`, on a column or of
//! the table, planned as Materialize plans them (its `plan_create_table`).
//!
//! Materialize enforces no key: it records them, makes a primary key's
//! columns `NOT NULL`, keys a default index by the first key, and lets its
//! optimizer assume no two rows share a key. It accepts them only with the
//! system variable `unsafe_enable_table_keys` on (set by the `mz_system`
//! user, as its own test files do); `CHECK` and `FOREIGN KEY` likewise with
//! their own variables. The engine checks the key where Materialize assumes
//! it: a write that would make two rows share a key is refused
//! (`coordinator::ddl`), since Materialize's answers over such a table are
//! its optimizer's, not SQL's.

use sqlparser::ast::{ColumnOption, CreateTable, Expr, Ident, TableConstraint};

use super::ident;
use crate::repr::{unsupported, Column};

/// The system variable that lets a table have keys.
pub const TABLE_KEYS: &str = "unsafe_enable_table_keys";
/// The system variable that lets a table have a `CHECK` constraint.
pub const TABLE_CHECK: &str = "unsafe_enable_table_check_constraint";
/// The system variable that lets a table have a `FOREIGN KEY`.
pub const TABLE_FOREIGN_KEY: &str = "unsafe_enable_table_foreign_key";

/// A column's own key options: `Some(true)` for `PRIMARY KEY`,
/// `Some(false)` for `UNIQUE`, `None` for another option.
pub fn column_key(option: &ColumnOption) -> Option<bool> {
    match option.to_string().as_str() {
        "PRIMARY KEY" if matches!(option, ColumnOption::PrimaryKey(_)) => Some(true),
        "UNIQUE" if matches!(option, ColumnOption::Unique(_)) => Some(false),
        _ => None,
    }
}

/// The table's keys, each sorted and listed once, the primary key first.
/// `columns` are the planned columns, with a primary key's made `NOT NULL`;
/// `column_keys` the columns that have a key option of their own (in
/// column order, `true` for a primary key); `enabled` says whether a
/// system variable is on.
pub fn keys(
    t: &CreateTable,
    columns: &mut [Column],
    column_keys: &[(usize, bool)],
    enabled: &dyn Fn(&str) -> bool,
) -> Result<Vec<Vec<usize>>, String> {
    let mut keys: Vec<Vec<usize>> = column_keys.iter().map(|(i, _)| vec![*i]).collect();
    for (i, primary) in column_keys {
        if *primary {
            columns[*i].nullable = false;
        }
    }
    let mut seen_primary = false;
    'constraints: for constraint in &t.constraints {
        let (primary, names) = match constraint {
            TableConstraint::PrimaryKey(c) => (true, plain(constraint, &c.name, "PRIMARY KEY")?),
            TableConstraint::Unique(c) => (false, plain(constraint, &c.name, "UNIQUE")?),
            TableConstraint::Check(_) => {
                require(enabled, TABLE_CHECK, "CREATE TABLE with a check constraint")?;
                continue;
            }
            TableConstraint::ForeignKey(_) => {
                require(
                    enabled,
                    TABLE_FOREIGN_KEY,
                    "CREATE TABLE with a foreign key",
                )?;
                continue;
            }
            other => return Err(unsupported(format!("table constraint {other}"))),
        };
        if seen_primary && primary {
            return Err(format!(
                "multiple primary keys for table {} are not allowed",
                t.name
            ));
        }
        seen_primary |= primary;
        let mut key = vec![];
        for name in names {
            let Some(i) = columns.iter().position(|c| c.name == name) else {
                return Err(format!("unknown column in constraint: {name}"));
            };
            if primary {
                columns[i].nullable = false;
            } else if columns[i].nullable {
                // Materialize's planner leaves its loop over the constraints
                // here, so this and every later constraint add no key.
                break 'constraints;
            }
            key.push(i);
        }
        match primary {
            true => keys.insert(0, key),
            false => keys.push(key),
        }
    }
    if !keys.is_empty() {
        require(
            enabled,
            TABLE_KEYS,
            "CREATE TABLE with a primary key or unique constraint",
        )?;
    }
    // As Materialize's `RelationType::with_keys`: each key sorted, once.
    let mut distinct: Vec<Vec<usize>> = vec![];
    for mut key in keys {
        key.sort_unstable();
        if !distinct.contains(&key) {
            distinct.push(key);
        }
    }
    Ok(distinct)
}

/// The column names of `[CONSTRAINT name] <what> (a, b, ...)`, refused in
/// any other form (`USING`, `NULLS NOT DISTINCT`, `DEFERRABLE`, an
/// expression or an order), which Materialize's parser does not take.
fn plain(
    constraint: &TableConstraint,
    name: &Option<Ident>,
    what: &str,
) -> Result<Vec<String>, String> {
    let columns = match constraint {
        TableConstraint::PrimaryKey(c) => &c.columns,
        TableConstraint::Unique(c) => &c.columns,
        _ => unreachable!("only keys are plain"),
    };
    let mut idents = vec![];
    for c in columns {
        match &c.column.expr {
            Expr::Identifier(i) => idents.push(i),
            _ => return Err(unsupported(format!("table constraint {constraint}"))),
        }
    }
    let named = name.as_ref().map(|n| format!("CONSTRAINT {n} "));
    let listed: Vec<String> = idents.iter().map(|i| i.to_string()).collect();
    let rebuilt = format!(
        "{}{what} ({})",
        named.unwrap_or_default(),
        listed.join(", ")
    );
    if rebuilt != constraint.to_string() {
        return Err(unsupported(format!("table constraint {constraint}")));
    }
    Ok(idents.into_iter().map(ident).collect())
}

/// Materialize's refusal of a feature behind an unsafe system variable
/// that is off: the engine refuses it as unsupported instead (see
/// docs/semantics.md, "Keys"), naming the variable.
fn require(enabled: &dyn Fn(&str) -> bool, flag: &str, feature: &str) -> Result<(), String> {
    match enabled(flag) {
        true => Ok(()),
        false => Err(unsupported(format!("{feature} without {flag}"))),
    }
}
