//! `numeric` in the planner: sums and averages of numerics, the numeric
//! rounding functions and what is refused by name because the engine does
//! not reproduce Materialize's answer exactly (the other numeric
//! functions), and the types integers and floats take beside a numeric.

use super::*;
use ScalarType::{Float64, Int64, Numeric};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn sums_of_numerics_are_exact_and_averages_divide_by_the_count() {
    assert_eq!(
        types("SELECT sum(a::numeric(5,2)), avg(1.5) FROM t"),
        [Numeric, Numeric]
    );
    // avg is the sum over the count made a numeric, as the real system
    // plans it (the count of the same argument, one aggregate each).
    let plan = select("SELECT avg(a::numeric), sum(a::numeric) FROM t");
    let text = format!("{:?}", plan.plan);
    assert_eq!(text.matches("func: SumNumeric").count(), 1, "{text}");
    assert_eq!(text.matches("func: Count").count(), 1, "{text}");
    assert!(
        text.contains("Binary(Div, Column(0), Cast(Numeric, Column(1)))"),
        "{text}"
    );
}

#[test]
fn the_numeric_rounding_functions_are_planned_and_the_others_refused() {
    assert_eq!(
        types("SELECT abs(1.5), round(1.5), round(a, 2), trunc(a::numeric), ceil(1.5), ceiling(1.5), floor(-1.5) FROM t"),
        [Numeric, Numeric, Numeric, Numeric, Numeric, Numeric, Numeric]
    );
    // An integer alone resolves to the double precision overload.
    assert_eq!(types("SELECT round(a) FROM t"), [Float64]);
    assert_eq!(
        err("SELECT trunc(1.5, 2)"),
        "function trunc(numeric, integer) does not exist"
    );
    assert_eq!(
        types("SELECT sqrt(1.5), exp(1.5), ln(avg(a)), log10(1.5), log(1.5), log(2.0, 8) FROM t"),
        [Numeric, Numeric, Numeric, Numeric, Numeric, Numeric]
    );
    assert_eq!(
        err("SELECT power(1.5, 2.5)"),
        "unsupported: function power: power(numeric, numeric)"
    );
}

#[test]
fn integers_beside_a_numeric_are_numerics_and_floats_stay_floats() {
    let sql = "SELECT a + 1.5, a::numeric(5,2), 1.5 * a::float8, COALESCE(a, 2.5) FROM t";
    assert_eq!(types(sql), [Numeric, Numeric, Float64, Numeric]);
    let sql = "SELECT sum(a), sum(a::bigint), min(2.5) FROM t";
    assert_eq!(types(sql), [Int64, Numeric, Numeric]);
}

#[test]
fn constant_numeric_functions_fold_to_literals() {
    use crate::plan::{RelationPlan, ScalarExpr};
    use crate::repr::Datum;
    let plan = select("SELECT round(2.5), round(1234.5, -2), abs(-1.5), floor(-0.5)").plan;
    let RelationPlan::Map { exprs, .. } = plan else {
        panic!("a map of the constant row: {plan:?}");
    };
    let texts: Vec<String> = exprs
        .iter()
        .map(|e| match e {
            ScalarExpr::Literal(d @ Datum::Numeric(_)) => d.to_string(),
            other => panic!("not folded: {other:?}"),
        })
        .collect();
    assert_eq!(texts, ["3", "1200", "1.5", "-1"]);
    // An overflow folds to a literal error, as Materialize's reduce does.
    let plan = select("SELECT round(123456789012345678901234567890123456789, 1)").plan;
    assert!(
        format!("{plan:?}").contains("Error(\"value out of range: overflow\")"),
        "{plan:?}"
    );
}
