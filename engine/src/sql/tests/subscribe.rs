//! SUBSCRIBE: its clauses, and what it refuses.

use super::catalog;
use crate::sql::plan_subscribe;

#[test]
fn parses_every_clause() {
    let catalog = catalog();
    let s = plan_subscribe("subscribe to t as of 3 up to 7;", &catalog).unwrap();
    assert_eq!((s.as_of, s.up_to), (Some(3), Some(7)));
    let s = plan_subscribe("SUBSCRIBE (SELECT a FROM t WHERE a > 1)", &catalog).unwrap();
    assert_eq!((s.as_of, s.up_to, s.columns.len()), (None, None, 1));
}

#[test]
fn refuses_what_it_cannot_serve() {
    let catalog = catalog();
    let err = |sql| plan_subscribe(sql, &catalog).unwrap_err();
    assert_eq!(
        err("SUBSCRIBE (SELECT a FROM t LIMIT 1)"),
        "unsupported: LIMIT in SUBSCRIBE"
    );
    assert_eq!(err("SUBSCRIBE nope"), "unknown catalog item 'nope'");
    assert!(err("SUBSCRIBE t UP 3").starts_with("Expected: TO, found: 3"));
    assert!(err("SELECT 1").starts_with("Expected: SUBSCRIBE, found: SELECT"));
    assert!(err("SUBSCRIBE t AS OF 1 x").starts_with("Expected: end of statement"));
}
