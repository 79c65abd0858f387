//! CREATE and DROP of schemas and databases, and names in a schema, as
//! Materialize plans them (`sql::schemas`, `sql::names`): against the
//! fixed catalog, which has Materialize's default database and schema
//! alone.

use super::*;

fn planned(sql: &str) -> Result<Vec<Statement>, String> {
    plan(sql, &catalog())
}

#[test]
fn a_schema_or_database_is_created_once() {
    assert_eq!(
        planned("CREATE SCHEMA s; CREATE SCHEMA materialize.s2"),
        Ok(vec![
            Statement::CreateSchema {
                database: "materialize".into(),
                name: "s".into(),
            },
            Statement::CreateSchema {
                database: "materialize".into(),
                name: "s2".into(),
            },
        ])
    );
    assert_eq!(
        planned("CREATE DATABASE d"),
        Ok(vec![Statement::CreateDatabase { name: "d".into() }])
    );
    assert_eq!(
        err("CREATE SCHEMA public"),
        "schema 'public' already exists"
    );
    assert_eq!(planned("CREATE SCHEMA IF NOT EXISTS public"), Ok(vec![]));
    assert_eq!(
        err("CREATE DATABASE materialize"),
        "database 'materialize' already exists"
    );
    assert_eq!(
        planned("CREATE DATABASE IF NOT EXISTS materialize"),
        Ok(vec![])
    );
}

#[test]
fn a_schema_name_is_checked_as_materialize_checks_it() {
    assert_eq!(err("CREATE SCHEMA d.s"), "invalid database d");
    assert_eq!(
        err("CREATE SCHEMA a.b.c"),
        "schema name a.b.c has more than two components"
    );
    for reserved in ["mz_x", "pg_x", "external_x"] {
        assert_eq!(
            err(&format!("CREATE SCHEMA IF NOT EXISTS {reserved}")),
            format!("unacceptable schema name '{reserved}'")
        );
    }
    for refused in [
        "CREATE SCHEMA information_schema",
        "CREATE SCHEMA s AUTHORIZATION r",
        "CREATE SCHEMA s WITH (a = 'b')",
        "CREATE OR REPLACE SCHEMA s",
        "CREATE DATABASE d.e",
    ] {
        assert!(err(refused).starts_with("unsupported: "), "{refused}");
    }
}

#[test]
fn a_name_in_an_unknown_schema_or_database_is_materialize_s_error() {
    assert_eq!(err("CREATE TABLE s.t (a int)"), "unknown schema 's'");
    assert_eq!(err("SELECT * FROM s.t"), "unknown schema 's'");
    assert_eq!(err("SELECT * FROM d.public.t"), "unknown database 'd'");
    assert_eq!(
        err("SELECT * FROM public.nope"),
        "unknown catalog item 'public.nope'"
    );
    assert!(err("SELECT * FROM pg_catalog.pg_class").starts_with("unsupported: "));
    assert_eq!(
        err("CREATE TABLE materialize.public.t (a int)"),
        "table \"materialize.public.t\" already exists"
    );
}

#[test]
fn drop_schema_and_drop_database_are_planned_with_their_errors() {
    assert_eq!(planned("DROP SCHEMA IF EXISTS s, d.s"), Ok(vec![]));
    assert_eq!(planned("DROP DATABASE IF EXISTS d"), Ok(vec![]));
    assert_eq!(err("DROP SCHEMA s"), "unknown schema 's'");
    assert_eq!(err("DROP SCHEMA d.s"), "unknown database 'd'");
    assert_eq!(err("DROP DATABASE d"), "unknown database 'd'");
    assert!(err("DROP DATABASE IF EXISTS d, e").starts_with("unsupported: "));
    assert_eq!(
        err("DROP SCHEMA mz_catalog"),
        "cannot drop schema mz_catalog because it is required by the database system"
    );
    // The current schema may go, as in Materialize; the default database
    // is refused by name.
    assert!(planned("DROP SCHEMA public CASCADE").is_ok());
    let refused = "DROP DATABASE materialize CASCADE";
    assert!(err(refused).starts_with("unsupported: "), "{refused}");
}
