//! Planning the float functions: the overload an integer, a float, an
//! unknown literal or a numeric literal resolves to (`round(1)` is
//! `round(double precision)`, `round(1::real)` a `real`, `power(a, 0.5)`
//! reads `0.5` as a double), `pow` as `power`, `CEIL(x)` and `FLOOR(x)`,
//! and what is refused (a `numeric` overload, a float in a function the
//! table does not resolve floats for).

use super::*;
use crate::plan::{FloatFunc, FloatWidth, Func};
use crate::repr::F64;
use ScalarType::{Float32, Float64};

fn float(f: FloatFunc, args: Vec<ScalarExpr>) -> ScalarExpr {
    ScalarExpr::Call(Func::Float(f), args)
}

fn double(f: f64) -> ScalarExpr {
    ScalarExpr::Literal(Datum::Float64(F64::new(f)))
}

fn cast(to: ScalarType, e: ScalarExpr) -> ScalarExpr {
    ScalarExpr::Cast(to, Box::new(e))
}

#[test]
fn arguments_resolve_to_the_float_overloads() {
    use FloatWidth::{F32 as W32, F64 as W64};
    let s = select(
        "SELECT round(a), round(a::real), abs(a::real), sqrt(a::real), power(a::float8, 0.5), \
         pow(a, 2), log(a), CEIL(a), FLOOR(a::real), ceiling(NULL), round('2.5') FROM t",
    );
    let RelationPlan::Project { input, .. } = s.plan else {
        panic!("{:?}", s.plan)
    };
    let RelationPlan::Map { exprs, .. } = *input else {
        panic!("no map")
    };
    let a = || cast(Float64, c(0));
    let real = || cast(Float32, c(0));
    let expected = vec![
        float(FloatFunc::Round(W64), vec![a()]),
        float(FloatFunc::Round(W32), vec![real()]),
        float(FloatFunc::Abs(W32), vec![real()]),
        float(FloatFunc::Sqrt, vec![cast(Float64, real())]),
        float(FloatFunc::Power, vec![a(), double(0.5)]),
        float(FloatFunc::Power, vec![a(), double(2.0)]),
        float(FloatFunc::Log10, vec![a()]),
        float(FloatFunc::Ceil(W64), vec![a()]),
        float(FloatFunc::Floor(W32), vec![real()]),
        // Calls of literals are folded: NULL, and 2.5 rounded to even.
        ScalarExpr::Literal(Datum::Null),
        double(2.0),
    ];
    assert_eq!(exprs, expected);
    let types: Vec<ScalarType> = s.columns.iter().map(|c| c.typ).collect();
    let mut want = vec![Float64, Float32, Float32];
    want.extend([Float64; 5]);
    want.extend([Float32, Float64, Float64]);
    assert_eq!(types, want);
    let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names[5..9], ["pow", "log", "ceil", "floor"]);
}

#[test]
fn numeric_overloads_and_unresolved_floats_are_refused() {
    for (sql, refusal) in [
        // A numeric literal resolves to the numeric overloads there (all
        // but `power`'s are planned: `sql/tests/numerics.rs`).
        (
            "SELECT power(a, 1.5) FROM t",
            "function power: power(numeric, numeric)",
        ),
        ("SELECT CEIL(a, 2) FROM t", "function call form: CEIL(a, 2)"),
    ] {
        assert_eq!(err(sql), format!("unsupported: {refusal}"), "{sql}");
    }
}

#[test]
fn no_overload_takes_these() {
    for (sql, error) in [
        ("SELECT pow(1)", "function pow(integer) does not exist"),
        (
            "SELECT pow(a, a, a) FROM t",
            "function pow(integer, integer, integer) does not exist",
        ),
        (
            "SELECT pow(c, 1) FROM t",
            "function power(boolean, integer) does not exist",
        ),
        (
            "SELECT round(a::float8, 2) FROM t",
            "function round(double precision, integer) does not exist",
        ),
        (
            "SELECT cbrt(b) FROM t",
            "function cbrt(text) does not exist",
        ),
        (
            "SELECT log(a::real, 2) FROM t",
            "function log(real, integer) does not exist",
        ),
    ] {
        assert_eq!(err(sql), error, "{sql}");
    }
}
