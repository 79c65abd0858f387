//! Planning floats: the type names and `float(p)`, the type of an operator
//! mixing floats with integers and numeric literals, and what is refused
//! (a numeric literal where no float makes it one, or that a `numeric`
//! would not hold exactly); `sum` of floats, and `avg` as its quotient by
//! the count.

use super::*;
use ScalarType::{Float32, Float64, Numeric};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn type_names_and_precisions() {
    let sql = "SELECT 1::real, 1::float4, 1::float(24), 1::float(25), 1::float, \
               1::float8, 1::double precision, 1::double";
    assert_eq!(
        types(sql),
        [Float32, Float32, Float32, Float64, Float64, Float64, Float64, Float64]
    );
    let names: Vec<String> = select("SELECT 1::real, 1.5::float8")
        .columns
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["float4", "float8"]);
    for p in [0, 54] {
        assert_eq!(
            err(&format!("SELECT 1::float({p})")),
            "precision for type float must be within ([1-53])"
        );
    }
    assert_eq!(err("SELECT 1::float64"), "unsupported: type float64");
}

#[test]
fn an_operator_takes_the_wider_float_and_a_real_stays_a_real() {
    let sql = "SELECT a + 1::real, 1::real * 2::bigint, 1::real - 1::float8, a / 1::float8, \
               2.5 * 1::real, 1::float8 % 2.5, -(1::real), 1::real < 2.5 FROM t";
    assert_eq!(
        types(sql),
        [Float32, Float32, Float64, Float64, Float32, Float64, Float32, Bool]
    );
    assert_eq!(
        types("SELECT CASE WHEN c THEN 1 ELSE 1::real END, coalesce(1::real, 2::float8) FROM t"),
        [Float32, Float64]
    );
    assert_eq!(types("SELECT coalesce(avg(a), 1::real) FROM t"), [Float32]);
    assert_eq!(
        err("SELECT 1::real + 'a'::text"),
        "operator does not exist: real + text"
    );
    assert_eq!(
        err("SELECT 1::float8::bool"),
        "unsupported: cast from double precision to boolean"
    );
}

#[test]
fn numeric_literals_are_refused_where_not_exact() {
    // Beside no float, a numeric literal is a numeric.
    assert_eq!(types("SELECT 1.5, a + 1.5 FROM t"), [Numeric, Numeric]);
    assert_eq!(
        err("SELECT 1e39::float8"),
        "unsupported: numeric literal: 1e39"
    );
    assert_eq!(
        err("SELECT 9e38::real"),
        "unsupported: numeric literal: 9e38"
    );
    assert_eq!(types("SELECT a + -0, -0 FROM t"), [Int, Int]);
    let minmax = "SELECT min(a::real), max(a::float8) FROM t";
    assert_eq!(types(minmax), [Float32, Float64]);
}

/// `sum` of a float is of its type, in fixed point (`SumFloat`); `avg`
/// is that sum over the count cast to the float, as the real system
/// plans it, each aggregate computed once.
#[test]
fn float_sums_and_their_averages() {
    use crate::plan::FloatWidth::{F32 as W32, F64 as W64};
    let s = select("SELECT sum(a::float8), avg(a::real), avg(a::float8), sum(a::real) FROM t");
    let (real, double) = (
        ScalarExpr::Cast(Float32, Box::new(c(0))),
        ScalarExpr::Cast(Float64, Box::new(c(0))),
    );
    let reduce = RelationPlan::Reduce {
        input: get(T),
        group_key: vec![],
        aggregates: vec![
            agg(AggregateFunc::SumFloat(W64), double.clone()),
            agg(AggregateFunc::SumFloat(W32), real.clone()),
            agg(AggregateFunc::Count, real),
            agg(AggregateFunc::Count, double),
        ],
        global: true,
    };
    let quotient = |sum: usize, count: usize, to: ScalarType| {
        let count = ScalarExpr::Cast(to, Box::new(c(count)));
        bin(BinaryOp::Div, c(sum), count)
    };
    let plan = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(reduce),
            exprs: vec![quotient(1, 2, Float32), quotient(0, 3, Float64)],
        }),
        columns: vec![0, 4, 5, 1],
    };
    assert_eq!(s.plan, plan);
    let types: Vec<ScalarType> = s.columns.iter().map(|c| c.typ).collect();
    assert_eq!(types, [Float64, Float32, Float64, Float32]);
    assert!(s.columns.iter().all(|c| c.nullable));
}

/// A fast-path peek never reads a float key alone: `x = 0` must find `-0`.
#[test]
fn a_float_key_is_never_pinned() {
    let columns = [col("x", Float64, true)];
    let pinned = |d: Datum| SimpleSelect {
        relation: GlobalId(1),
        predicates: vec![ScalarExpr::Binary(
            BinaryOp::Eq,
            Box::new(ScalarExpr::Column(0)),
            Box::new(ScalarExpr::Literal(d)),
        )],
    };
    let zero = Datum::Float64(crate::repr::F64::new(0.0));
    assert_eq!(pinned(zero).literal_key(&[0], &columns), None);
}
