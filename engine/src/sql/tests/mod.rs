//! Planner tests against a small fixed catalog: the fixtures here, the
//! statements (DDL and writes) and the queries in their own files.

mod aggregates;
mod arrays;
mod chars;
mod constraints;
mod dates;
mod distinct_on;
mod drops;
mod expressions;
mod float_functions;
mod floats;
mod forms;
mod functions;
mod intervals;
mod jsonb;
mod lists;
mod materialized;
mod numerics;
mod properties;
mod queries;
mod ranges;
mod recursive;
mod rows;
mod schemas;
mod session;
mod sets;
mod smallint;
mod statements;
mod subqueries;
mod subscribe;
mod table_functions;
mod times;
mod unsigned;
mod values;
mod windows;

use super::plan;
use crate::plan::{
    Aggregate, AggregateFunc, BinaryOp, Finishing, ObjectKind, OrderColumn, RelationPlan, Resolver,
    ScalarExpr, SimpleSelect, Statement, TableFunc, UnaryOp,
};
use crate::repr::{Column, Datum, GlobalId, ScalarType, Timestamp};

use ScalarType::{Bool, Int32 as Int, Int64, Text};

fn col(name: &str, typ: ScalarType, nullable: bool) -> Column {
    let name = name.to_string();
    Column {
        name,
        typ,
        nullable,
    }
}

/// Objects get ids `u1`, `u2`, ... in this order.
struct TestCatalog(Vec<(&'static str, ObjectKind, Vec<Column>)>);

const T: GlobalId = GlobalId(1);
const U: GlobalId = GlobalId(2);
const V: GlobalId = GlobalId(3);
const T_A_IDX: GlobalId = GlobalId(4);
const MZ_OBJECTS: GlobalId = GlobalId(6);

fn catalog() -> TestCatalog {
    use ObjectKind::*;
    TestCatalog(vec![
        (
            "t",
            Table,
            vec![
                col("a", Int, true),
                col("b", Text, true),
                col("c", Bool, true),
            ],
        ),
        ("u", Table, vec![col("a", Int, true), col("d", Int, false)]),
        ("v", View, vec![col("k", Int, true), col("x", Int, true)]),
        ("t_a_idx", Index, vec![]),
        ("u_primary_idx", Index, vec![]),
        (
            "mz_objects",
            Introspection,
            vec![
                col("id", Text, false),
                col("name", Text, false),
                col("type", Text, false),
            ],
        ),
        (
            "mz_arrangement_frontiers",
            Introspection,
            vec![
                col("export_id", Text, false),
                col("since", Int, true),
                col("upper", Int, true),
            ],
        ),
        (
            "mz_compute_error_counts",
            Introspection,
            vec![col("export_id", Text, false), col("count", Int64, false)],
        ),
        ("nn", Table, vec![col("a", Int, false), col("b", Int, true)]),
        (
            "widths",
            Table,
            vec![
                col("i", Int, true),
                col("l", Int64, true),
                col("s", Text, true),
            ],
        ),
        (
            "strs",
            Table,
            vec![
                col("c", ScalarType::Char(Some(3)), true),
                col("v", ScalarType::VarChar(Some(3)), true),
                col("x", Text, true),
            ],
        ),
        ("mv", MaterializedView, vec![col("k", Int, true)]),
    ])
}

impl Resolver for TestCatalog {
    fn resolve(&self, name: &str) -> Option<(GlobalId, ObjectKind)> {
        let i = self
            .0
            .iter()
            .position(|(n, ..)| n.eq_ignore_ascii_case(name))?;
        Some((GlobalId(i as u64 + 1), self.0[i].1))
    }
    fn columns(&self, id: GlobalId) -> Option<Vec<Column>> {
        self.0.get(id.0 as usize - 1).map(|(_, _, c)| c.clone())
    }
    fn name(&self, id: GlobalId) -> Option<String> {
        self.0.get(id.0 as usize - 1).map(|(n, ..)| n.to_string())
    }
    /// The view `v` is taken to read the table `u` (`drops.rs`).
    fn drop_dependent(&self, id: GlobalId) -> Option<(ObjectKind, String)> {
        (id == U).then(|| (ObjectKind::View, "v".to_string()))
    }
}

fn one(sql: &str) -> Statement {
    let mut all = plan(sql, &catalog()).unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert_eq!(all.len(), 1, "{sql}");
    all.pop().unwrap()
}

fn err(sql: &str) -> String {
    plan(sql, &catalog()).expect_err(sql)
}

struct Select {
    plan: RelationPlan,
    columns: Vec<Column>,
    as_of: Option<Timestamp>,
    finishing: Finishing,
    simple: Option<SimpleSelect>,
}

/// The types of the columns `sql` selects.
fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

fn select(sql: &str) -> Select {
    match one(sql) {
        Statement::Select {
            plan,
            columns,
            as_of,
            finishing,
            simple,
        } => Select {
            plan,
            columns,
            as_of,
            finishing,
            simple,
        },
        other => panic!("{sql}: not a SELECT: {other:?}"),
    }
}

fn c(i: usize) -> ScalarExpr {
    ScalarExpr::Column(i)
}
fn int(i: i32) -> ScalarExpr {
    ScalarExpr::Literal(Datum::Int32(i))
}
fn bigint(i: i64) -> ScalarExpr {
    ScalarExpr::Literal(Datum::Int64(i))
}
fn text(s: &str) -> ScalarExpr {
    ScalarExpr::Literal(Datum::Text(s.into()))
}
fn bin(op: BinaryOp, l: ScalarExpr, r: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Binary(op, Box::new(l), Box::new(r))
}
fn get(id: GlobalId) -> Box<RelationPlan> {
    Box::new(RelationPlan::Get(id))
}
fn agg(func: AggregateFunc, expr: ScalarExpr) -> Aggregate {
    Aggregate::new(func, expr, false)
}
fn count_all() -> Aggregate {
    agg(
        AggregateFunc::CountAll,
        ScalarExpr::Literal(Datum::Bool(true)),
    )
}
