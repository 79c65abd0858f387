//! The text of lists read and written and their SQL order, against the
//! rules of Materialize's `strconv.rs` (`parse_list`, `format_list`,
//! read for the facts).

use std::cmp::Ordering;
use std::fmt;

use super::{parse, sql_cmp, write};
use crate::repr::Datum;

struct Shown(Vec<Datum>);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write(f, &self.0)
    }
}

fn text(s: &str) -> Result<Datum, String> {
    Ok(Datum::Text(s.to_string()))
}

fn int(s: &str) -> Result<Datum, String> {
    s.parse::<i32>()
        .map(Datum::Int32)
        .map_err(|e| format!("invalid input syntax for type integer: {e}: \"{s}\""))
}

/// A list of lists of integers, read as `int list list` reads it.
fn ints2(s: &str) -> Result<Datum, String> {
    parse(s, false, int).map(Datum::List)
}

fn shown(s: &str, nested: bool) -> Result<String, String> {
    let list = match nested {
        true => parse(s, true, ints2)?,
        false => parse(s, false, text)?,
    };
    Ok(Shown(list).to_string())
}

#[test]
fn text_round_trips_as_format_list_writes_it() {
    assert_eq!(shown("{a, b ,c}", false).unwrap(), "{a,b,c}");
    assert_eq!(shown("{}", false).unwrap(), "{}");
    assert_eq!(
        shown("  {}", false).unwrap_err(),
        "invalid input syntax for type list: expected '{', found  : \"  {}\""
    );
    assert_eq!(
        shown("{NULL, null, \"NULL\", \\NULL}", false).unwrap(),
        "{NULL,NULL,\"NULL\",\"NULL\"}"
    );
    assert_eq!(
        shown("{\"a b\", \"\", \"x\\\"y\"}", false).unwrap(),
        "{\"a b\",\"\",\"x\\\"y\"}"
    );
    assert_eq!(
        shown("{{1,2}, {}, NULL, {3}}", true).unwrap(),
        "{{1,2},{},NULL,{3}}"
    );
    assert_eq!(shown("{ {1, NULL} }", true).unwrap(), "{{1,NULL}}");
}

#[test]
fn errors_are_parse_lists() {
    let err = |s: &str, nested| shown(s, nested).unwrap_err();
    assert_eq!(
        err("", false),
        "invalid input syntax for type list: expected '{', found empty string: \"\""
    );
    assert_eq!(
        err("{a", false),
        "invalid input syntax for type list: unterminated element: \"{a\""
    );
    assert_eq!(
        err("{a,}", false),
        "invalid input syntax for type list: malformed literal; missing element: \"{a,}\""
    );
    assert_eq!(err("{a} b", false), "invalid input syntax for type list: malformed array literal; contains 'b' after terminal '}': \"{a} b\"");
    assert_eq!(
        err("{\"a\" b}", false),
        "invalid input syntax for type list: expected ',' or '}', got 'b': \"{\\\"a\\\" b}\""
    );
    assert_eq!(err("{{a}}", false), "invalid input syntax for type list: unescaped '{' at beginning of element; perhaps you want a nested list, e.g. '{a}'::text list list: \"{{a}}\"");
    assert_eq!(
        err("{{1", true),
        "invalid input syntax for type list: unterminated embedded element: \"{{1\""
    );
    assert_eq!(
        err("{{1}", true),
        "invalid input syntax for type list: unexpected end of input: \"{{1}\""
    );
    // An inner list's error is the inner list's, within the outer's.
    assert_eq!(
        err("{{x}}", true),
        "invalid input syntax for type list: invalid input syntax for type list: invalid input syntax for type integer: invalid digit found in string: \"x\": \"{x}\": \"{{x}}\""
    );
}

#[test]
fn sql_order_puts_null_last_and_a_prefix_first() {
    let l = |v: &[Option<i32>]| {
        v.iter()
            .map(|x| x.map_or(Datum::Null, Datum::Int32))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sql_cmp(&l(&[Some(1)]), &l(&[Some(1), Some(0)])),
        Ordering::Less
    );
    assert_eq!(sql_cmp(&l(&[None]), &l(&[Some(5)])), Ordering::Greater);
    assert_eq!(sql_cmp(&l(&[None]), &l(&[None])), Ordering::Equal);
    assert_eq!(
        sql_cmp(&l(&[Some(2)]), &l(&[Some(1), Some(9)])),
        Ordering::Greater
    );
    assert_eq!(sql_cmp(&l(&[]), &l(&[None])), Ordering::Less);
}
