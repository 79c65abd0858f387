//! DROP of several objects, CASCADE and RESTRICT, and qualified names, as
//! Materialize plans them (`sql::drop`, `sql::names`): against the fixed
//! catalog, where the view `v` reads the table `u`.

use super::*;

fn planned(sql: &str) -> Result<Vec<Statement>, String> {
    plan(sql, &catalog())
}

fn dropped(sql: &str) -> Vec<GlobalId> {
    match planned(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .as_slice()
    {
        [Statement::Drop { ids }] => ids.clone(),
        other => panic!("{sql}: {other:?}"),
    }
}

const HINT: &str = "\nHINT: Use DROP ... CASCADE to drop the dependent objects too.";

#[test]
fn restrict_refuses_a_drop_a_view_depends_on_and_names_it() {
    let refused = format!("cannot drop table \"u\": still depended upon by view \"v\"{HINT}");
    assert_eq!(planned("DROP TABLE u"), Err(refused.clone()));
    assert_eq!(planned("DROP TABLE u RESTRICT"), Err(refused.clone()));
    // Each name is checked in turn against the catalog before the drop:
    // naming the dependent too does not help, and a refusal comes before a
    // later name's error.
    assert_eq!(planned("DROP TABLE t, u, nope"), Err(refused));
    assert_eq!(
        planned("DROP TABLE t, nope, u"),
        Err("unknown catalog item 'nope'".into())
    );
}

#[test]
fn cascade_and_several_names_plan_every_name_once_in_order() {
    assert_eq!(dropped("DROP TABLE u CASCADE"), vec![U]);
    assert_eq!(dropped("DROP TABLE u, t, u CASCADE"), vec![U, T]);
    assert_eq!(dropped("DROP TABLE t, nn"), vec![T, GlobalId(9)]);
    assert_eq!(
        planned("DROP TABLE t, v CASCADE"),
        Err("v is a view not a table".into())
    );
    // IF EXISTS skips what it does not find, and plans nothing if it finds
    // nothing.
    assert_eq!(dropped("DROP TABLE IF EXISTS nope, t, gone"), vec![T]);
    assert_eq!(
        planned("DROP VIEW IF EXISTS nope, gone CASCADE"),
        Ok(vec![])
    );
}

#[test]
fn other_kinds_stay_refused_by_name_with_or_without_cascade() {
    for (sql, refused) in [
        // The default schema and database (`tests::schemas`).
        (
            "DROP DATABASE materialize CASCADE",
            "unsupported: DROP DATABASE of the default database: materialize",
        ),
        ("DROP ROLE r", "unsupported: DROP ROLE"),
        ("DROP SEQUENCE s CASCADE", "unsupported: DROP SEQUENCE"),
        ("DROP TYPE ty CASCADE", "unsupported: DROP TYPE"),
    ] {
        assert_eq!(planned(sql), Err(refused.to_string()), "{sql}");
    }
    // Materialize's own kinds, which sqlparser does not parse.
    for sql in [
        "DROP CLUSTER c CASCADE",
        "DROP OWNED BY r CASCADE",
        "DROP SOURCE s CASCADE",
        "DROP SINK k",
    ] {
        let refused = planned(sql).expect_err(sql);
        assert!(
            refused.starts_with("unsupported: syntax DROP "),
            "{sql}: {refused}"
        );
    }
}

#[test]
fn public_and_materialize_public_name_the_same_object() {
    for sql in [
        "DROP TABLE public.t",
        "DROP TABLE materialize.public.t",
        "DROP TABLE PUBLIC.t",
    ] {
        assert_eq!(dropped(sql), vec![T], "{sql}");
    }
    let read = |sql: &str| match planned(sql).unwrap_or_else(|e| panic!("{sql}: {e}")).pop() {
        Some(Statement::Select { plan, .. }) => plan,
        other => panic!("{sql}: {other:?}"),
    };
    assert_eq!(read("SELECT a FROM public.t"), read("SELECT a FROM t"));
    assert_eq!(
        read("SELECT t.a FROM materialize.public.t"),
        read("SELECT t.a FROM t")
    );
    assert!(matches!(
        planned("INSERT INTO public.t (a) VALUES (1)").as_deref(),
        Ok([Statement::Insert { table: T, .. }])
    ));
    assert!(matches!(
        planned("CREATE INDEX i ON materialize.public.t (a)").as_deref(),
        Ok([Statement::CreateIndex { on: T, .. }])
    ));
    assert!(matches!(
        planned("CREATE TABLE public.n (a int)").as_deref(),
        Ok([Statement::CreateTable { name, .. }]) if name == "n"
    ));
}

#[test]
fn another_database_or_schema_is_materializes_error() {
    for (sql, error) in [
        ("SELECT * FROM x.t", "unknown schema 'x'"),
        ("SELECT * FROM y.public.t", "unknown database 'y'"),
        // The database is resolved before the schema.
        ("SELECT * FROM y.x.t", "unknown database 'y'"),
        ("SELECT * FROM materialize.x.t", "unknown schema 'x'"),
        ("CREATE TABLE x.n (a int)", "unknown schema 'x'"),
        ("DROP TABLE y.public.t", "unknown database 'y'"),
        (
            "SELECT * FROM public.nope",
            "unknown catalog item 'public.nope'",
        ),
        (
            "SELECT * FROM materialize.public.nope",
            "unknown catalog item 'materialize.public.nope'",
        ),
        // The introspection relations live in another schema.
        (
            "SELECT * FROM public.mz_objects",
            "unknown catalog item 'public.mz_objects'",
        ),
        (
            "SELECT * FROM a.b.c.d",
            "qualified name did not have between 1 and 3 components: a.b.c.d",
        ),
    ] {
        assert_eq!(planned(sql), Err(error.to_string()), "{sql}");
    }
    // IF EXISTS forgives an unknown schema or database as an unknown item.
    assert_eq!(planned("DROP TABLE IF EXISTS x.t, y.public.t"), Ok(vec![]));
}

#[test]
fn system_schemas_and_other_qualified_forms_are_refused() {
    for (sql, refused) in [
        (
            "SELECT * FROM mz_catalog.mz_objects",
            "unsupported: schema mz_catalog: mz_catalog.mz_objects",
        ),
        (
            "SELECT * FROM materialize.pg_catalog.pg_class",
            "unsupported: schema pg_catalog: materialize.pg_catalog.pg_class",
        ),
        (
            "DROP TABLE IF EXISTS mz_internal.t",
            "unsupported: schema mz_internal: mz_internal.t",
        ),
        (
            "SELECT public.t.a FROM t",
            "unsupported: qualified column reference: public.t.a",
        ),
        (
            "SELECT public.t.* FROM t",
            "unsupported: qualified name: public.t",
        ),
        (
            "CREATE INDEX public.i ON t (a)",
            "unsupported: qualified name: public.i",
        ),
    ] {
        assert_eq!(planned(sql), Err(refused.to_string()), "{sql}");
    }
}
