//! `uint2`, `uint4` and `uint8` in the planner: the type names, the types
//! of arithmetic and comparisons of one unsigned type, and the refusals
//! where an unsigned integer meets another number type, which Materialize
//! resolves by implicit casts the engine does not model.

use super::*;
use ScalarType::{Bool, Int64, UInt16, UInt32, UInt64};

fn types(sql: &str) -> Vec<ScalarType> {
    select(sql).columns.iter().map(|c| c.typ).collect()
}

#[test]
fn the_names_and_the_types_of_one_width() {
    let sql = "SELECT a::uint2, a::UINT4, CAST(a AS uint8), a::uint4 + a::uint4, a::uint8 % NULL, a::uint2 * '2' FROM t";
    assert_eq!(types(sql), [UInt16, UInt32, UInt64, UInt32, UInt64, UInt16]);
    let sql = "SELECT a::uint4 < a::uint4, a::uint8 = '3', mod(a::uint2, a::uint2) FROM t";
    assert_eq!(types(sql), [Bool, Bool, UInt16]);
    let sql = "SELECT count(a::uint2), max(a::uint8), min(a::uint4) FROM t";
    assert_eq!(types(sql), [Int64, UInt64, UInt32]);
    let sql = "SELECT a::uint2 & a::uint2, a::uint4 # a::uint4, a::uint8 << a::uint4, a::uint2 >> a::uint4, ~a::uint8 FROM t";
    assert_eq!(types(sql), [UInt16, UInt32, UInt64, UInt16, UInt64]);
    assert_eq!(err("SELECT a::uint16 FROM t"), "unsupported: type uint16");
    assert_eq!(
        err("SELECT a::\"uint4\" FROM t"),
        "unsupported: type \"uint4\""
    );
}

#[test]
fn an_unsigned_beside_another_number_is_refused() {
    let refused = [
        (
            "SELECT a::uint4 + a FROM t",
            "unsupported: operator + of uint4 and integer",
        ),
        (
            "SELECT a::uint2 = a::uint4 FROM t",
            "unsupported: operator = of uint2 and uint4",
        ),
        (
            "SELECT 1.5 * a::uint8 FROM t",
            "unsupported: operator * of numeric and uint8",
        ),
        (
            "SELECT COALESCE(a::uint8, 1) FROM t",
            "unsupported: coalesce of uint8 and integer",
        ),
        (
            "SELECT CASE WHEN c THEN a::uint2 ELSE a END FROM t",
            "unsupported: CASE of uint2 and integer",
        ),
        (
            "SELECT greatest(a::uint2, a::uint2) FROM t",
            "unsupported: function greatest of uint2",
        ),
        (
            "SELECT abs(a::uint4) FROM t",
            "unsupported: function abs of uint4",
        ),
        (
            "SELECT -(a::uint2) FROM t",
            "unsupported: operator - of uint2",
        ),
        (
            "SELECT * FROM generate_series(1::uint4, 3::uint4)",
            "unsupported: uint4 where an integer is wanted",
        ),
        ("SELECT sum(a::uint4) FROM t", "unsupported: sum of uint4"),
        ("SELECT a::uint4 & a FROM t", "unsupported: operator &"),
        ("SELECT a::uint4 | NULL FROM t", "unsupported: operator |"),
        ("SELECT a::uint8 << 1 FROM t", "unsupported: operator <<"),
        ("SELECT ~a FROM t", "unsupported: operator ~"),
        (
            "SELECT a::uint4 FROM t UNION SELECT a FROM t",
            "unsupported: UNION of uint4 and integer",
        ),
    ];
    for (sql, refusal) in refused {
        assert_eq!(err(sql), refusal, "{sql}");
    }
    // Materialize has no cast between an unsigned integer and a boolean.
    assert_eq!(
        err("SELECT c::uint4 FROM t"),
        "unsupported: cast from boolean to uint4"
    );
}
