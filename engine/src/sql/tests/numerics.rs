//! `numeric` in the planner: what is refused by name because the engine
//! does not reproduce Materialize's answer exactly (sums and averages of
//! numerics, the numeric functions), and the types integers and floats
//! take beside a numeric.

use super::*;
use ScalarType::{Float64, Int64, Numeric};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn sums_and_functions_of_numerics_are_refused_by_name() {
    assert_eq!(
        err("SELECT sum(a::numeric) FROM t"),
        "unsupported: sum of numeric"
    );
    assert_eq!(err("SELECT avg(1.5) FROM t"), "unsupported: avg of numeric");
    assert_eq!(
        err("SELECT abs(1.5)"),
        "unsupported: function abs: abs(numeric)"
    );
}

#[test]
fn integers_beside_a_numeric_are_numerics_and_floats_stay_floats() {
    let sql = "SELECT a + 1.5, a::numeric(5,2), 1.5 * a::float8, COALESCE(a, 2.5) FROM t";
    assert_eq!(types(sql), [Numeric, Numeric, Float64, Numeric]);
    let sql = "SELECT sum(a), sum(a::bigint), min(2.5) FROM t";
    assert_eq!(types(sql), [Int64, Numeric, Numeric]);
}
