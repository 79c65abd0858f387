//! `jsonb`'s reader, text and order against the real system's answers
//! (its jsonb.slt and `repr/src/adt/jsonb.rs`, read for the facts).

use super::{parse, Jsonb, Pretty};

fn text(s: &str) -> String {
    parse(s).expect("valid jsonb").to_string()
}

#[test]
fn text_is_the_real_systems() {
    assert_eq!(text(r#"{"b": 2, "a": 1}"#), r#"{"a":1,"b":2}"#);
    assert_eq!(text(r#"{"a": 1, "a": 2, "a": 3}"#), r#"{"a":3}"#);
    assert_eq!(
        text(" [1, 1.50, -0, 1e3, 2.5E-3] "),
        "[1,1.5,0,1000,0.0025]"
    );
    assert_eq!(text("9223372036854775807"), "9223372036854775807");
    assert_eq!(
        text("999999999999999999999999999999999999999"),
        "999999999999999999999999999999999999999"
    );
    assert_eq!(text(r#""a\"b\\c\nd\u0001é""#), r#""a\"b\\c\nd\u0001é""#);
    assert_eq!(
        text(r#"{"":null,"b":[true,false,{}],"B":[]}"#),
        r#"{"":null,"B":[],"b":[true,false,{}]}"#
    );
}

#[test]
fn errors_are_the_real_systems() {
    let err = |s: &str| parse(s).unwrap_err();
    assert_eq!(
        err("{"),
        "invalid input syntax for type jsonb: EOF while parsing an object at line 1 column 1: \"{\""
    );
    assert_eq!(
        err("1000000000000000000000000000000000000000"),
        "invalid input syntax for type jsonb: \"1000000000000000000000000000000000000000\" is out \
         of range for type numeric: exceeds maximum precision 39 at line 1 column 40: \
         \"1000000000000000000000000000000000000000\""
    );
    assert!(err("[1] x").contains("trailing characters at line 1 column 5"));
    assert!(err("").contains("EOF while parsing a value"));
}

#[test]
fn order_is_the_real_systems_datums() {
    let mut values: Vec<Jsonb> = ["null", "1", "{}", "[]", "\"a\"", "true", "false", "-1"]
        .iter()
        .map(|s| parse(s).unwrap())
        .collect();
    values.sort();
    let texts: Vec<String> = values.iter().map(Jsonb::to_string).collect();
    assert_eq!(
        texts,
        ["false", "true", "\"a\"", "[]", "{}", "-1", "1", "null"]
    );
    assert_eq!(parse("1.0").unwrap(), parse("1").unwrap());
    assert!(parse("[1]").unwrap() < parse("[1,0]").unwrap());
    assert!(parse(r#"{"a":2}"#).unwrap() < parse(r#"{"b":1}"#).unwrap());
}

#[test]
fn access_and_pretty() {
    let v = parse(r#"{"a":[1,"x",null],"b":{"c":true}}"#).unwrap();
    assert_eq!(v.field("a").and_then(|a| a.element(-1)), Some(&Jsonb::Null));
    assert_eq!(
        v.field("a")
            .and_then(|a| a.element(1))
            .and_then(Jsonb::as_text),
        Some("x".into())
    );
    assert_eq!(v.field("z"), None);
    assert_eq!(v.element(0), None);
    assert_eq!(parse("5").unwrap().element(-1), Some(&parse("5").unwrap()));
    assert_eq!(parse("5").unwrap().element(1), None);
    assert_eq!(
        Pretty(&v).to_string(),
        "{\n  \"a\": [\n    1,\n    \"x\",\n    null\n  ],\n  \"b\": {\n    \"c\": true\n  }\n}"
    );
    assert_eq!(
        Pretty(&parse("[{}, []]").unwrap()).to_string(),
        "[\n  {},\n  []\n]"
    );
}
