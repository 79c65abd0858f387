//! Planning DDL and writes: CREATE, DROP, INSERT, UPDATE, DELETE.

use super::*;
use crate::plan::SchemaId;

#[test]
fn create_table() {
    let s =
        one("CREATE TABLE n (a int NOT NULL, b TEXT, c boolean, d bigint, e varchar, \"Q\" bool)");
    let columns = vec![
        col("a", Int, false),
        col("b", Text, true),
        col("c", Bool, true),
        col("d", Int64, true),
        col("e", ScalarType::VarChar(None), true),
        col("Q", Bool, true),
    ];
    let name = "n".to_string();
    let keys = vec![];
    assert_eq!(
        s,
        Statement::CreateTable {
            name,
            schema: SchemaId::DEFAULT,
            columns,
            keys
        }
    );
    assert_eq!(
        err("CREATE TABLE T (b int)"),
        "table \"materialize.public.t\" already exists"
    );
    assert_eq!(
        err("CREATE TABLE n (a int, a text)"),
        "column \"a\" specified more than once"
    );
    // The real system has many more types than these.
    assert_eq!(err("CREATE TABLE n (a foo)"), "unsupported: type foo");
    assert_eq!(
        err("CREATE TABLE n (a float64)"),
        "unsupported: type float64"
    );
    assert_eq!(
        err("CREATE TABLE n (a varchar(max))"),
        "unsupported: type length MAX"
    );
    assert_eq!(
        plan("CREATE TABLE IF NOT EXISTS t (a int)", &catalog()),
        Ok(vec![])
    );
}

#[test]
fn insert() {
    let s = one("INSERT INTO t VALUES (1, 'one', true), (-2, NULL, NULL), ('5', 'x', 'f')");
    let rows = vec![
        vec![
            Datum::Int32(1),
            Datum::Text("one".into()),
            Datum::Bool(true),
        ],
        vec![Datum::Int32(-2), Datum::Null, Datum::Null],
        vec![Datum::Int32(5), Datum::Text("x".into()), Datum::Bool(false)],
    ];
    assert_eq!(s, insert_of(rows));
    // Missing columns are NULL; constant expressions are evaluated.
    let s = one("INSERT INTO t (b, a) VALUES ('x', 1 + 2 * 3)");
    let rows = vec![vec![Datum::Int32(7), Datum::Text("x".into()), Datum::Null]];
    assert_eq!(s, insert_of(rows));
    let s = one("INSERT INTO t VALUES (1)");
    let rows = vec![vec![Datum::Int32(1), Datum::Null, Datum::Null]];
    assert_eq!(s, insert_of(rows));
}

/// The plan of an INSERT of `rows` into `t`.
fn insert_of(rows: Vec<crate::repr::Row>) -> Statement {
    let rows = rows
        .iter()
        .map(|row| crate::packed::PackedRow::pack(row))
        .collect();
    Statement::Insert { table: T, rows }
}

/// A literal of its column's own type is taken as it is (`plain_literal`);
/// the same text in parentheses goes through planning and evaluation.
/// Both must give the same row or the same error.
#[test]
fn plain_literals_insert_what_planned_ones_do() {
    let literals = [
        "0",
        "7",
        "007",
        "2147483647",
        "2147483648",
        "-3",
        "9223372036854775807",
        "9223372036854775808",
        "1.5",
        "1e3",
        "'x'",
        "''",
        "'12'",
        "NULL",
        "true",
    ];
    for column in ["i", "l", "s"] {
        for literal in literals {
            let plain = plan(
                &format!("INSERT INTO widths ({column}) VALUES ({literal})"),
                &catalog(),
            );
            let planned = plan(
                &format!("INSERT INTO widths ({column}) VALUES (({literal}))"),
                &catalog(),
            );
            assert_eq!(plain, planned, "{column} = {literal}");
        }
    }
}

/// A bulk INSERT's rows past the first, read off the text (`values.rs`),
/// plan to what the same text planned the usual way does (a trailing
/// comment turns the bulk reading off), rows and errors alike: literals of
/// each column's type and of others, out of range, too many or too few,
/// a NOT NULL violation in a later row.
#[test]
fn bulk_rows_plan_as_the_usual_way_plans_them() {
    let literals = [
        "7",
        "007",
        "2147483648",
        "9223372036854775808",
        "'x'",
        "''",
        "'12'",
    ];
    let mut texts = vec![
        "INSERT INTO widths VALUES (1, 2, 'a'), (3, 4, 'b'), (5, 6, 'c')".to_string(),
        "INSERT INTO widths (s, i) VALUES ('a', 1), ('b', 2)".to_string(),
        "INSERT INTO widths VALUES (1), (2, 3), (4, 5, 'x')".to_string(),
        "INSERT INTO widths VALUES (1, 2, 'a', 4), (1, 2, 'b', 5)".to_string(),
        "INSERT INTO widths (i, l) VALUES (1, 2), (3)".to_string(),
        "INSERT INTO nn VALUES (1, 2), (3, 4)".to_string(),
        "INSERT INTO nn (b) VALUES (1), (2)".to_string(),
        "INSERT INTO missing VALUES (1), (2)".to_string(),
    ];
    for column in ["i", "l", "s"] {
        for literal in literals {
            texts.push(format!(
                "INSERT INTO widths ({column}) VALUES ({literal}), ({literal}), (1)"
            ));
        }
    }
    for sql in texts {
        assert!(
            crate::sql::values::split(&sql).is_some(),
            "{sql}: read off the text"
        );
        let usual = plan(&format!("{sql} -- the usual way"), &catalog());
        assert_eq!(plan(&sql, &catalog()), usual, "{sql}");
    }
}

#[test]
fn insert_errors() {
    assert_eq!(
        err("INSERT INTO t VALUES ('text')"),
        "invalid input syntax for type integer: invalid digit found in string: \"text\""
    );
    // An assignment to a text column converts any value to its text.
    assert!(plan("INSERT INTO t VALUES (1, 2)", &catalog()).is_ok());
    assert_eq!(
        err("INSERT INTO t (c) VALUES (1 = 1), (3)"),
        "column \"c\" is of type boolean but expression is of type integer"
    );
    assert_eq!(err("INSERT INTO t VALUES (1 / 0)"), "division by zero");
    // A text made by a cast or a call is a text once folded, not a string
    // literal that an integer column would read.
    for sql in [
        "INSERT INTO t VALUES ('1'::text)",
        "INSERT INTO t VALUES (upper('1'))",
    ] {
        assert_eq!(
            err(sql),
            "column \"a\" is of type integer but expression is of type text"
        );
    }
    assert_eq!(
        err("INSERT INTO t VALUES (1, 'a', true, 4)"),
        "INSERT has more expressions than target columns"
    );
    assert_eq!(
        err("INSERT INTO t (a, b) VALUES (1)"),
        "INSERT has more target columns than expressions"
    );
    assert_eq!(
        err("INSERT INTO t (a, a) VALUES (1, 2)"),
        "column \"a\" specified more than once"
    );
    assert_eq!(
        err("INSERT INTO t (z) VALUES (1)"),
        "column \"z\" of relation \"materialize.public.t\" does not exist"
    );
    assert_eq!(
        err("INSERT INTO t VALUES (a)"),
        "column \"a\" does not exist"
    );
    assert_eq!(
        err("INSERT INTO v VALUES (1)"),
        "cannot insert into view 'materialize.public.v'"
    );
    assert_eq!(
        err("INSERT INTO missing VALUES (1)"),
        "unknown catalog item 'missing'"
    );
    assert_eq!(
        err("INSERT INTO nn (b) VALUES (1)"),
        "null value in column \"a\" violates not-null constraint"
    );
    assert_eq!(
        err("INSERT INTO t (a) SELECT a, b FROM t"),
        "INSERT has more expressions than target columns"
    );
}

#[test]
fn update() {
    let s = one("UPDATE t SET b = 'deux', a = a + 1 WHERE a = 2 AND c");
    let assignments = vec![(1, text("deux")), (0, bin(BinaryOp::Add, c(0), int(1)))];
    let predicates = vec![bin(BinaryOp::Eq, c(0), int(2)), c(2)];
    assert_eq!(
        s,
        Statement::Update {
            table: T,
            assignments,
            predicates
        }
    );
    let s = one("UPDATE t AS x SET a = x.a");
    let assignments = vec![(0, c(0))];
    let predicates = vec![];
    assert_eq!(
        s,
        Statement::Update {
            table: T,
            assignments,
            predicates
        }
    );
    assert!(plan("UPDATE t SET b = 1", &catalog()).is_ok());
    assert_eq!(err("UPDATE t SET z = 1"), "unknown column z");
    assert_eq!(err("UPDATE t SET a = 1, a = 2"), "column a set twice");
    assert_eq!(
        err("UPDATE t SET a = 1 WHERE a"),
        "WHERE clause must have type boolean, not type integer"
    );
    assert_eq!(
        err("UPDATE t SET a = count(*)"),
        "aggregate functions are not allowed in SET clause (function pg_catalog.count)"
    );
    assert_eq!(
        err("UPDATE v SET k = 1"),
        "cannot mutate view 'materialize.public.v'"
    );
}

#[test]
fn delete() {
    let predicates = vec![ScalarExpr::Unary(UnaryOp::IsNull, Box::new(c(2)))];
    assert_eq!(
        one("DELETE FROM t WHERE c IS NULL"),
        Statement::Delete {
            table: T,
            predicates
        }
    );
    let predicates = vec![];
    assert_eq!(
        one("DELETE FROM u"),
        Statement::Delete {
            table: U,
            predicates
        }
    );
    assert_eq!(
        err("DELETE FROM mz_objects"),
        "unsupported: a write to a system catalog relation: mz_objects"
    );
    assert_eq!(
        err("DELETE FROM t WHERE count(*) > 0"),
        "aggregate functions are not allowed in WHERE clause (function pg_catalog.count)"
    );
}

#[test]
fn create_view() {
    let s = one("CREATE VIEW w AS SELECT a, a / 2 AS q FROM t WHERE c ORDER BY a");
    let view = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(RelationPlan::Filter {
                input: get(T),
                predicates: vec![c(2)],
            }),
            exprs: vec![bin(BinaryOp::Div, c(0), int(2))],
        }),
        columns: vec![0, 3],
    };
    let columns = vec![col("a", Int, true), col("q", Int, true)];
    let name = "w".to_string();
    assert_eq!(
        s,
        Statement::CreateView {
            name,
            schema: SchemaId::DEFAULT,
            columns,
            plan: view
        }
    );
    assert_eq!(
        err("CREATE VIEW w AS SELECT a, a FROM t"),
        "column \"a\" specified more than once"
    );
    assert_eq!(
        err("CREATE VIEW v AS SELECT 1"),
        "view \"materialize.public.v\" already exists"
    );
    let top = one("CREATE VIEW w AS SELECT a FROM t ORDER BY a DESC LIMIT 2 OFFSET 1");
    let Statement::CreateView { plan: top, .. } = top else {
        panic!("{top:?}")
    };
    assert_eq!(
        top,
        RelationPlan::TopK {
            input: Box::new(RelationPlan::Project {
                input: get(T),
                columns: vec![0],
            }),
            group_key: vec![],
            order_by: vec![OrderColumn::new(0, true)],
            limit: Some(2),
            offset: 1,
        }
    );
    assert_eq!(
        err("CREATE VIEW w AS SELECT * FROM t AS OF 3"),
        "AS OF is only allowed on SELECT"
    );
    assert_eq!(
        plan("CREATE VIEW IF NOT EXISTS v AS SELECT 1", &catalog()),
        Ok(vec![])
    );
}

#[test]
fn create_view_with_column_names() {
    // The names replace the first columns' names, as Materialize's
    // `maybe_rename_columns`; the query comes first, then the names, then
    // the view's own name.
    let Statement::CreateView { columns, .. } = one("CREATE VIEW w (p) AS SELECT a, b FROM t")
    else {
        panic!()
    };
    assert_eq!(columns, vec![col("p", Int, true), col("b", Text, true)]);
    assert_eq!(
        err("CREATE VIEW w (p, q) AS SELECT 1"),
        "view materialize.public.w definition names 2 columns, \
         but view materialize.public.w has 1 column"
    );
    assert_eq!(
        err("CREATE VIEW w (p, p) AS SELECT 1, 2"),
        "column \"p\" specified more than once"
    );
    assert_eq!(
        err("CREATE VIEW w (a) AS SELECT a, 2 AS a FROM t"),
        "column \"a\" specified more than once"
    );
    assert_eq!(
        err("CREATE VIEW w (p) AS SELECT nope"),
        "column \"nope\" does not exist"
    );
    assert_eq!(
        err("CREATE VIEW v (p, q) AS SELECT 1"),
        "view materialize.public.v definition names 2 columns, \
         but view materialize.public.v has 1 column"
    );
    assert_eq!(
        err("CREATE VIEW v (p) AS SELECT 1"),
        "view \"materialize.public.v\" already exists"
    );
    // Materialize's parser takes names only; so does sqlparser's here.
    assert!(err("CREATE VIEW w (p int) AS SELECT 1").starts_with("unsupported: syntax CREATE VIEW"));
}

fn index(name: &str, on: GlobalId, key: Vec<usize>) -> Statement {
    let name = name.to_string();
    Statement::CreateIndex { name, on, key }
}

#[test]
fn create_index() {
    assert_eq!(
        one("CREATE INDEX ix ON t (b, a)"),
        index("ix", T, vec![1, 0])
    );
    assert_eq!(one("CREATE INDEX ON t (b)"), index("t_b_idx", T, vec![1]));
    assert_eq!(one("CREATE INDEX ON t (a)"), index("t_a_idx1", T, vec![0]));
    // Materialize keeps only a key's expression: its order is no part of it.
    assert_eq!(
        one("CREATE INDEX ON t (b DESC NULLS LAST, a ASC)"),
        index("t_b_a_idx", T, vec![1, 0])
    );
    assert_eq!(
        one("CREATE INDEX ON v (k, x)"),
        index("v_k_x_idx", V, vec![0, 1])
    );
    assert_eq!(
        one("CREATE DEFAULT INDEX ON v"),
        index("v_primary_idx", V, vec![0, 1])
    );
    assert_eq!(
        one("CREATE DEFAULT INDEX ON U"),
        index("u_primary_idx1", U, vec![0, 1])
    );
    assert_eq!(
        one("CREATE INDEX ON mz_objects (name)"),
        index("mz_objects_name_idx", MZ_OBJECTS, vec![1])
    );
    assert_eq!(
        err("CREATE INDEX ON t (a + 1)"),
        "unsupported: index key other than a column: a + 1"
    );
    assert_eq!(
        err("CREATE INDEX ON t (a + 1 DESC)"),
        "unsupported: index key other than a column: a + 1 DESC"
    );
    assert_eq!(err("CREATE INDEX ON t (z)"), "column \"z\" does not exist");
    assert_eq!(
        err("CREATE INDEX t_a_idx ON t (a)"),
        "index \"materialize.public.t_a_idx\" already exists"
    );
    assert_eq!(
        err("CREATE INDEX ON t_a_idx (a)"),
        "\"t_a_idx\" is an index not a relation"
    );
    assert_eq!(
        err("CREATE DEFAULT INDEX ON missing"),
        "unknown catalog item 'missing'"
    );
    assert_eq!(
        err("CREATE DEFAULT INDEX ON v AS OF 1"),
        "AS OF is only allowed on SELECT"
    );
    assert_eq!(
        plan("CREATE INDEX IF NOT EXISTS t_a_idx ON t (a)", &catalog()),
        Ok(vec![])
    );
}

#[test]
fn drop() {
    let drop = |ids: &[GlobalId]| Statement::Drop { ids: ids.to_vec() };
    assert_eq!(one("DROP INDEX t_a_idx"), drop(&[T_A_IDX]));
    assert_eq!(one("DROP VIEW v"), drop(&[V]));
    assert_eq!(one("DROP TABLE IF EXISTS t"), drop(&[T]));
    assert_eq!(plan("DROP VIEW IF EXISTS nope", &catalog()), Ok(vec![]));
    assert_eq!(err("DROP VIEW nope"), "unknown catalog item 'nope'");
    assert_eq!(err("DROP TABLE v"), "v is a view not a table");
    assert_eq!(err("DROP INDEX t"), "t is a table not an index");
    assert_eq!(
        err("DROP VIEW mz_objects"),
        "mz_objects is a source not a view"
    );
    // Several names, CASCADE and RESTRICT as Materialize plans them
    // (`tests/drops.rs`); other systems' forms are refused.
    assert_eq!(one("DROP TABLE t CASCADE"), drop(&[T]));
    assert_eq!(err("DROP TABLE t PURGE"), "unsupported: DROP ... PURGE");
    assert_eq!(err("DROP INDEX t_a_idx ON t"), "unsupported: DROP ... ON");
    assert_eq!(one("DROP TABLE t RESTRICT"), drop(&[T]));
}

#[test]
fn several_statements() {
    let all = plan("CREATE TABLE n (a int); DROP TABLE t;", &catalog()).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1], Statement::Drop { ids: vec![T] });
    // A syntax error anywhere fails the whole text; its location counts
    // from its own statement, which starts just after the `;`.
    let e = plan("CREATE TABLE n (a int); SELEC 1", &catalog()).unwrap_err();
    assert_eq!(
        e,
        "unsupported: syntax SELEC: Expected: an SQL statement, found: SELEC at Line: 1, Column: 2"
    );
}

#[test]
fn generate_series_and_insert_select() {
    let s = one("INSERT INTO t (a) SELECT x * 2 FROM generate_series(1, 3) AS x");
    let series = RelationPlan::FlatMap {
        input: Box::new(RelationPlan::Constant {
            rows: vec![vec![]],
            arity: 0,
        }),
        func: TableFunc::GenerateSeriesInt32,
        exprs: vec![int(1), int(3), int(1)],
    };
    let query = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(series),
            exprs: vec![bin(BinaryOp::Mul, c(0), int(2))],
        }),
        columns: vec![1],
    };
    let null = ScalarExpr::Literal(Datum::Null);
    let plan = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(query),
            exprs: vec![c(0), null.clone(), null],
        }),
        columns: vec![1, 2, 3],
    };
    assert_eq!(s, Statement::InsertSelect { table: T, plan });
    assert_eq!(
        err("SELECT * FROM generate_series(1)"),
        "unsupported: generate_series of 1 arguments"
    );
    assert_eq!(
        err("SELECT * FROM series(1, 2)"),
        "unsupported: function series"
    );
    assert_eq!(
        err("INSERT INTO t (c) SELECT x FROM generate_series(1, 2) AS x"),
        "column \"c\" is of type boolean but expression is of type integer"
    );
}

#[test]
fn identifiers_longer_than_255_bytes_are_refused_wherever_they_stand() {
    let limit = "identifier length exceeds 255 bytes";
    let (fits, long) = ("x".repeat(255), "x".repeat(256));
    // A multi-byte character counts its bytes: 128 of them are 256 bytes.
    let wide = "é".repeat(128);
    for name in [long.clone(), format!("\"{long}\""), format!("\"{wide}\"")] {
        for sql in [
            format!("CREATE TABLE {name} (a int)"),
            format!("CREATE TABLE n ({name} int)"),
            format!("CREATE VIEW {name} AS SELECT 1"),
            format!("CREATE INDEX {name} ON t (a)"),
            format!("SELECT 1 AS {name}"),
            format!("SELECT a FROM t AS {name}"),
            format!("SELECT {name} FROM t"),
            format!("DROP TABLE IF EXISTS {name}"),
            format!("INSERT INTO {name} VALUES (1)"),
        ] {
            assert_eq!(err(&sql), limit, "{sql}");
        }
    }
    // Unquoted, it counts as folded to lower case; 255 bytes are a name.
    assert_eq!(err(&format!("SELECT 1 AS {}", "X".repeat(256))), limit);
    one(&format!("SELECT 1 AS {fits}"));
    one(&format!("SELECT 1 AS \"{fits}\""));
    one(&format!("CREATE TABLE {fits} (a int)"));
    // A keyed index's generated name is checked as it is made.
    let table: &'static str = Box::leak("t".repeat(250).into_boxed_str());
    let catalog = TestCatalog(vec![(table, ObjectKind::Table, vec![col("a", Int, true)])]);
    let e = plan(&format!("CREATE INDEX ON {table} (a)"), &catalog).unwrap_err();
    assert!(
        e.starts_with("invalid identifier, identifier too long (len 256, max 255, value tttt"),
        "{e}"
    );
    plan(&format!("CREATE DEFAULT INDEX ON {table}"), &catalog).unwrap();
}
