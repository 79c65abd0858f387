//! Planning `CREATE [OR REPLACE] MATERIALIZED VIEW` and `DROP MATERIALIZED
//! VIEW`: Materialize's order of checks and its texts.

use super::*;

fn mv() -> GlobalId {
    catalog().resolve("mv").expect("in the fixture").0
}

#[test]
fn a_materialized_view_is_planned_with_its_columns_named() {
    let s = one("CREATE MATERIALIZED VIEW m (p, q) AS SELECT a, d FROM u");
    let Statement::CreateMaterializedView {
        name,
        columns,
        plan,
        replace,
        ..
    } = s
    else {
        panic!("{s:?}");
    };
    assert_eq!(name, "m");
    assert_eq!(columns, vec![col("p", Int, true), col("q", Int, false)]);
    assert!(plan.reads_any(&|g| g == U));
    assert_eq!(replace, None);
    // Fewer names than columns rename the first ones.
    let Statement::CreateMaterializedView { columns, .. } =
        one("CREATE MATERIALIZED VIEW m (p) AS SELECT a, d FROM u")
    else {
        panic!()
    };
    assert_eq!(columns[0].name, "p");
    assert_eq!(columns[1].name, "d");
}

#[test]
fn its_errors_are_materializes_in_materializes_order() {
    assert_eq!(
        err("CREATE MATERIALIZED VIEW m (p, q) AS SELECT 1"),
        "materialized view materialize.public.m definition names 2 columns, \
         but materialized view materialize.public.m has 1 column"
    );
    assert_eq!(
        err("CREATE MATERIALIZED VIEW m (p, p) AS SELECT 1, 2"),
        "column \"p\" specified more than once"
    );
    assert_eq!(
        err("CREATE MATERIALIZED VIEW mv AS SELECT 1"),
        "materialized view \"materialize.public.mv\" already exists"
    );
    assert_eq!(
        err("CREATE MATERIALIZED VIEW t AS SELECT 1"),
        "table \"materialize.public.t\" already exists"
    );
    // The query is planned before the name is checked.
    assert_eq!(
        err("CREATE MATERIALIZED VIEW t AS SELECT nope"),
        "column \"nope\" does not exist"
    );
    assert!(plan(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS t AS SELECT 1",
        &catalog()
    )
    .unwrap()
    .is_empty());
}

#[test]
fn or_replace_names_what_it_replaces_and_refuses_itself() {
    let Statement::CreateMaterializedView { replace, .. } =
        one("CREATE OR REPLACE MATERIALIZED VIEW mv AS SELECT 2")
    else {
        panic!()
    };
    assert_eq!(replace, Some(mv()));
    let Statement::CreateMaterializedView { replace, .. } =
        one("CREATE OR REPLACE MATERIALIZED VIEW fresh AS SELECT 2")
    else {
        panic!()
    };
    assert_eq!(replace, None);
    assert_eq!(
        err("CREATE OR REPLACE MATERIALIZED VIEW mv AS SELECT k FROM mv"),
        "cannot replace materialized view materialize.public.mv: \
         depended upon by new materialize.public.mv definition"
    );
    assert_eq!(
        err("CREATE OR REPLACE MATERIALIZED VIEW v AS SELECT 2"),
        "v is a view not a materialized view"
    );
}

#[test]
fn drop_names_the_kind_as_materialize_does() {
    assert_eq!(
        one("DROP MATERIALIZED VIEW mv"),
        Statement::Drop { ids: vec![mv()] }
    );
    assert!(plan("DROP MATERIALIZED VIEW IF EXISTS gone", &catalog())
        .unwrap()
        .is_empty());
    assert_eq!(
        err("DROP VIEW mv"),
        "mv is not a view\nHINT: Use DROP MATERIALIZED VIEW to remove a materialized view."
    );
    assert_eq!(
        err("DROP MATERIALIZED VIEW v"),
        "v is a view not a materialized view"
    );
    assert_eq!(
        err("DROP MATERIALIZED VIEW t_a_idx"),
        "t_a_idx is an index not a materialized view"
    );
    assert_eq!(
        err("DROP TABLE mv"),
        "mv is a materialized view not a table"
    );
}

#[test]
fn what_it_cannot_do_exactly_is_refused_by_name() {
    for (sql, refused) in [
        (
            "CREATE MATERIALIZED VIEW m WITH (x = 1) AS SELECT 1",
            "unsupported: CREATE MATERIALIZED VIEW options",
        ),
        (
            "CREATE OR REPLACE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT 1",
            "unsupported: CREATE OR REPLACE ... IF NOT EXISTS",
        ),
        (
            "CREATE MATERIALIZED VIEW m (p int) AS SELECT 1",
            "unsupported: syntax CREATE MATERIALIZED",
        ),
        (
            "CREATE MATERIALIZED VIEW mz_objects AS SELECT 1",
            "unsupported: a materialized view named as a system catalog relation: mz_objects",
        ),
        (
            "SHOW MATERIALIZED VIEWS",
            "unsupported: statement show views",
        ),
        (
            "CREATE MATERIALIZED VIEW m IN CLUSTER quickstart AS SELECT 1",
            "unsupported: syntax CREATE MATERIALIZED",
        ),
    ] {
        let e = err(sql);
        assert!(e.starts_with(refused), "{sql}: {e}");
    }
}
