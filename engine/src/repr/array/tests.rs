//! The text of arrays read and written, and their SQL order and
//! equality, against answers of Materialize's own tests (its
//! `arrays.slt`, read for the facts).

use std::cmp::Ordering;

use super::{parse, Array};
use crate::repr::Datum;

fn int(s: &str) -> Result<Datum, String> {
    s.parse::<i32>()
        .map(Datum::Int32)
        .map_err(|e| format!("invalid input syntax for type integer: {e}: \"{s}\""))
}

fn text(s: &str) -> Result<Datum, String> {
    Ok(Datum::Text(s.to_string()))
}

fn ints(s: &str) -> Result<String, String> {
    parse(s, int).map(|a| a.to_string())
}

#[test]
fn text_round_trips_as_the_real_system_writes_it() {
    assert_eq!(
        ints("{1, 2, 3, null, NULL, nULL}").unwrap(),
        "{1,2,3,NULL,NULL,NULL}"
    );
    assert_eq!(ints("{  1,   2  , 3 }").unwrap(), "{1,2,3}");
    assert_eq!(ints("{{1}, {2}}").unwrap(), "{{1},{2}}");
    assert_eq!(ints("{}").unwrap(), "{}");
    let quoted = parse(r#"{o, oOOo, "oOOo", "}", "", "NULL", \NULL, "a b"}"#, text);
    assert_eq!(
        quoted.unwrap().to_string(),
        r#"{o,oOOo,oOOo,"}","","NULL","NULL","a b"}"#
    );
    let escaped = Array::list(vec![Datum::Text(r#"a"\"#.into()), Datum::Bool(true)]);
    assert_eq!(escaped.to_string(), r#"{"a\"\\",t}"#);
    let mut shifted = Array::list(vec![Datum::Int32(1), Datum::Int32(2)]);
    shifted.dims[0].lower = 0;
    assert_eq!(shifted.to_string(), "[0:1]={1,2}");
}

#[test]
fn malformed_text_fails_with_the_real_systems_texts() {
    let fails = |s: &str, detail: &str| {
        let quoted = s.replace('"', "\\\"");
        let expected = format!("invalid input syntax for type array: {detail}: \"{quoted}\"");
        assert_eq!(ints(s).unwrap_err(), expected, "{s}");
    };
    fails("", "Array value must start with \"{\"");
    fails("{1, 2, 3} 4", "Junk after closing right brace.");
    fails(
        "[1:2]={1,2}",
        "Specifying array lower bounds is not supported",
    );
    fails("{1,}", "Unexpected \"}\" character.");
    fails("{,1}", "Unexpected \",\" character.");
    fails("{\" \",}", "Unexpected \"}\" character.");
    fails("{", "Unexpected end of input.");
    fails("{{a}", "Unexpected end of input.");
    fails("{a}}", "Junk after closing right brace.");
    fails("{\\}", "unterminated element");
    fails(
        "{{1},{2,3}}",
        "Multidimensional arrays must have sub-arrays with matching dimensions.",
    );
    fails(
        "{a}",
        "invalid input syntax for type integer: invalid digit found in string: \"a\"",
    );
    let deep = "{{{{{{{1}}}}}}}";
    assert_eq!(
        ints(deep).unwrap_err(),
        "number of array dimensions (7) exceeds the maximum allowed (6)"
    );
}

#[test]
fn subscripts_are_one_based_and_null_out_of_range() {
    let a = parse("{{1,2},{3,4}}", int).unwrap();
    assert_eq!(a.index(&[2, 1]), Datum::Int32(3));
    assert_eq!(a.index(&[1, 2]), Datum::Int32(2));
    assert_eq!(a.index(&[0, 1]), Datum::Null);
    assert_eq!(a.index(&[3, 1]), Datum::Null);
    assert_eq!(a.index(&[1]), Datum::Null);
}

#[test]
fn sql_order_is_elements_then_dimensions_with_null_last() {
    let a = |s: &str| parse(s, int).unwrap();
    assert_eq!(a("{1,2}").sql_cmp(&a("{1,3}")), Ordering::Less);
    assert_eq!(a("{1}").sql_cmp(&a("{1,2}")), Ordering::Less);
    assert_eq!(a("{1,NULL}").sql_cmp(&a("{1,2}")), Ordering::Greater);
    assert_eq!(a("{1,2,3,4}").sql_cmp(&a("{{1,2},{3,4}}")), Ordering::Less);
    // Equal in order, but not equal: the lengths of the dimensions differ.
    assert_eq!(
        a("{{1,2,3,4}}").sql_cmp(&a("{{1,2},{3,4}}")),
        Ordering::Equal
    );
    assert!(!a("{{1,2,3,4}}").sql_eq(&a("{{1,2},{3,4}}")));
    assert!(a("{NULL}").sql_eq(&a("{NULL}")));
}
