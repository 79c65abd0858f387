//! Planning a `CREATE TABLE`'s keys and constraints, with the system
//! variables that allow them on and off.

use super::*;
use crate::sql::constraints::{TABLE_CHECK, TABLE_FOREIGN_KEY, TABLE_KEYS};

/// The fixed catalog with some system variables on, and the relations'
/// keys as `keys` gives them.
struct With(
    TestCatalog,
    &'static [&'static str],
    fn(GlobalId) -> Option<Vec<Vec<usize>>>,
);

impl Resolver for With {
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)> {
        self.0.resolve(name)
    }
    fn columns(&self, id: GlobalId) -> Option<Vec<Column>> {
        self.0.columns(id)
    }
    fn name(&self, id: GlobalId) -> Option<String> {
        self.0.name(id)
    }
    fn enabled(&self, flag: &str) -> bool {
        self.1.contains(&flag)
    }
    fn keys(&self, id: GlobalId) -> Option<Vec<Vec<usize>>> {
        (self.2)(id)
    }
}

const ALL: &[&str] = &[TABLE_KEYS, TABLE_CHECK, TABLE_FOREIGN_KEY];

/// The columns' nullability and the keys of a planned CREATE TABLE.
fn keys(sql: &str, on: &'static [&'static str]) -> Result<(Vec<bool>, Vec<Vec<usize>>), String> {
    let mut all = plan(sql, &With(catalog(), on, |_| Some(vec![])))?;
    match all.pop() {
        Some(Statement::CreateTable { columns, keys, .. }) => {
            Ok((columns.iter().map(|c| c.nullable).collect(), keys))
        }
        other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn keys_are_planned_as_materialize_plans_them() {
    // A primary key's columns become NOT NULL; it comes first; each key is
    // sorted and listed once.
    assert_eq!(
        keys("CREATE TABLE n (a int, b int PRIMARY KEY)", ALL),
        Ok((vec![true, false], vec![vec![1]]))
    );
    assert_eq!(
        keys(
            "CREATE TABLE n (a int NOT NULL, b int, c int, UNIQUE (a), PRIMARY KEY (c, b))",
            ALL
        ),
        Ok((vec![false, false, false], vec![vec![1, 2], vec![0]]))
    );
    assert_eq!(
        keys(
            "CREATE TABLE n (a int PRIMARY KEY, b int, CONSTRAINT k UNIQUE (a))",
            ALL
        ),
        Ok((vec![false, true], vec![vec![0]]))
    );
    // A column's own UNIQUE is a key even if the column is nullable; a
    // table's UNIQUE over a nullable column ends the constraints, so a
    // later primary key adds no key and leaves its columns nullable.
    assert_eq!(
        keys("CREATE TABLE n (a int UNIQUE, b int)", ALL),
        Ok((vec![true, true], vec![vec![0]]))
    );
    assert_eq!(
        keys(
            "CREATE TABLE n (a int, b int, UNIQUE (a), PRIMARY KEY (b))",
            ALL
        ),
        Ok((vec![true, true], vec![]))
    );
    // CHECK and FOREIGN KEY are accepted, and enforce nothing.
    assert_eq!(
        keys(
            "CREATE TABLE n (a int, CHECK (a > 0), FOREIGN KEY (a) REFERENCES t (a))",
            ALL
        ),
        Ok((vec![true], vec![]))
    );
}

#[test]
fn keys_are_refused_without_their_system_variable_or_in_other_forms() {
    let refused = |sql, on| keys(sql, on).unwrap_err();
    assert_eq!(
        refused("CREATE TABLE n (a int PRIMARY KEY)", &[]),
        "unsupported: CREATE TABLE with a primary key or unique constraint without unsafe_enable_table_keys"
    );
    assert_eq!(
        refused("CREATE TABLE n (a int, CHECK (a > 0))", &[TABLE_KEYS]),
        "unsupported: CREATE TABLE with a check constraint without unsafe_enable_table_check_constraint"
    );
    assert_eq!(
        refused(
            "CREATE TABLE n (a int, FOREIGN KEY (a) REFERENCES t (a))",
            &[TABLE_KEYS]
        ),
        "unsupported: CREATE TABLE with a foreign key without unsafe_enable_table_foreign_key"
    );
    // Materialize's errors.
    assert_eq!(
        refused(
            "CREATE TABLE n (a int, b int, PRIMARY KEY (a), PRIMARY KEY (b))",
            ALL
        ),
        "multiple primary keys for table n are not allowed"
    );
    assert_eq!(
        refused("CREATE TABLE n (a int, PRIMARY KEY (c))", ALL),
        "unknown column in constraint: c"
    );
    // Forms Materialize's parser does not take are refused.
    for sql in [
        "CREATE TABLE n (a int, PRIMARY KEY (a DESC))",
        "CREATE TABLE n (a int, UNIQUE NULLS NOT DISTINCT (a))",
        "CREATE TABLE n (a int, PRIMARY KEY USING BTREE (a))",
        "CREATE TABLE n (a int, PRIMARY KEY (a) DEFERRABLE)",
    ] {
        assert!(refused(sql, ALL).starts_with("unsupported: "), "{sql}");
    }
}

#[test]
fn a_default_index_is_keyed_by_the_first_key() {
    let keyed = With(catalog(), &[], |id| match id {
        T => Some(vec![vec![1], vec![0]]),
        V => None,
        _ => Some(vec![]),
    });
    let index = |sql| match plan(sql, &keyed).map(|mut s| s.pop()) {
        Ok(Some(Statement::CreateIndex { key, .. })) => Ok(key),
        Ok(other) => panic!("{sql}: {other:?}"),
        Err(e) => Err(e),
    };
    assert_eq!(index("CREATE DEFAULT INDEX ON t"), Ok(vec![1]));
    assert_eq!(index("CREATE INDEX i ON t (a)"), Ok(vec![0]));
    assert_eq!(
        index("CREATE DEFAULT INDEX ON v"),
        Err("unsupported: CREATE DEFAULT INDEX on a view over a table with keys".into())
    );
}
