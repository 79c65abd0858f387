//! The front end never panics: any text plans or is an error a user sees.

use super::*;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Tokens of the SQL the engine speaks, and of some it does not, so that
/// generated statements reach deep into planning instead of stopping at
/// the parser's first character.
const TOKENS: &[&str] = &[
    "SELECT",
    "*",
    "FROM",
    "WHERE",
    "GROUP",
    "BY",
    "HAVING",
    "ORDER",
    "LIMIT",
    "AS",
    "OF",
    "JOIN",
    "ON",
    "AND",
    "OR",
    "NOT",
    "IS",
    "NULL",
    "DISTINCT",
    "count",
    "sum",
    "min",
    "max",
    "(",
    ")",
    ",",
    ";",
    "=",
    "<",
    "+",
    "-",
    "*",
    "/",
    "%",
    "1",
    "0",
    "-1",
    "'x'",
    "''",
    "true",
    "18446744073709551615",
    "9223372036854775808",
    "t",
    "u",
    "v",
    "a",
    "b",
    "t.a",
    "t_a_idx",
    "mz_objects",
    "INSERT",
    "INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE",
    "CREATE",
    "DROP",
    "TABLE",
    "VIEW",
    "INDEX",
    "DEFAULT",
    "int",
    "text",
    "bool",
    "CASE",
    "WHEN",
    "UNION",
    "?",
];

fn statement() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(TOKENS), 0..24).prop_map(|t| t.join(" ")),
        prop::collection::vec(prop::sample::select(TOKENS), 0..24)
            .prop_map(|t| format!("SELECT {}", t.join(" "))),
        prop::collection::vec(prop::sample::select(TOKENS), 0..24)
            .prop_map(|t| format!("SELECT a FROM t WHERE {}", t.join(" "))),
        "\\PC{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7a5c_0002),
        ..ProptestConfig::default()
    })]

    #[test]
    fn planning_any_text_never_panics(sql in statement()) {
        // Either outcome is fine; a panic fails the property.
        let _ = plan(&sql, &catalog());
    }
}
