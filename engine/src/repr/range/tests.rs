//! Ranges held to the real system's answers (its `range.slt`, read for
//! the facts, and `adt/range.rs`): canonical forms, errors, text out and
//! in, and the order.

use super::*;
use crate::repr::time::{parse_date, DateTime};
use crate::repr::Numeric;

/// A bound's text read as the element type reads a string (the
/// evaluator's cast, rebuilt here for the types these tests use).
fn element(kind: RangeKind) -> impl Fn(&str) -> Result<Datum, String> {
    move |s: &str| {
        let invalid = |e: std::num::ParseIntError| {
            format!("invalid input syntax for type integer: {e}: \"{s}\"")
        };
        match kind {
            RangeKind::Int32 => s.trim().parse().map(Datum::Int32).map_err(invalid),
            RangeKind::Int64 => s.trim().parse().map(Datum::Int64).map_err(invalid),
            RangeKind::Numeric => Numeric::parse(s.trim())
                .map(Datum::Numeric)
                .ok_or_else(|| format!("bad numeric {s}")),
            RangeKind::Date => parse_date(s.trim()).map(Datum::Date),
            RangeKind::Timestamp | RangeKind::TimestampTz => Err("unread".into()),
        }
    }
}

fn parse_as(s: &str, t: ScalarType) -> Result<Datum, String> {
    let ScalarType::Range(kind) = t else {
        panic!("a range type")
    };
    parse(s, element(kind)).map(|r| Datum::Range(Box::new(r)))
}

fn read(s: &str, kind: RangeKind) -> Result<String, String> {
    parse_as(s, ScalarType::Range(kind)).map(|d| d.to_string())
}

fn int4(s: &str) -> Result<String, String> {
    read(s, RangeKind::Int32)
}

#[test]
fn discrete_ranges_are_lower_inclusive_upper_exclusive() {
    let cases = [
        ("(,)", "(,)"),
        ("[,]", "(,)"),
        ("(,-1]", "(,0)"),
        ("(-1,)", "[0,)"),
        ("(-1,1]", "[0,2)"),
        ("(-1,0)", "empty"),
        ("[0,0)", "empty"),
        ("[0,0]", "[0,1)"),
        ("(0,0]", "empty"),
        (" empty ", "empty"),
    ];
    for (text, canonical) in cases {
        assert_eq!(int4(text).as_deref(), Ok(canonical), "{text}");
    }
    assert_eq!(read("(1,3]", RangeKind::Int64).as_deref(), Ok("[2,4)"));
    let dates = read("(2020-01-31,2020-02-29]", RangeKind::Date);
    assert_eq!(dates.as_deref(), Ok("[2020-02-01,2020-03-01)"));
}

#[test]
fn continuous_ranges_keep_their_bounds() {
    // A numeric bound prints as the engine's numerics do, reduced.
    let n = read("(1.5,2.50]", RangeKind::Numeric);
    assert_eq!(n.as_deref(), Ok("(1.5,2.5]"));
    assert_eq!(read("[1,1]", RangeKind::Numeric).as_deref(), Ok("[1,1]"));
    assert_eq!(read("(1,1]", RangeKind::Numeric).as_deref(), Ok("empty"));
    // A timestamp (here 2000-01-01, the micros' epoch) has a space:
    // quoted, as the real system quotes it.
    let ts = DateTime::from_micros(0).expect("a timestamp");
    let lower = bound(Datum::Timestamp(ts), true);
    let r = Range::new(lower, bound(Datum::Null, false)).expect("a range");
    assert_eq!(r.to_string(), "[\"2000-01-01 00:00:00\",)");
}

#[test]
fn errors_are_the_real_systems() {
    let misordered = Err(MISORDERED.to_string());
    assert_eq!(int4("(0,-1)"), misordered);
    assert_eq!(int4("[1,0]"), misordered);
    assert_eq!(int4("[2,2147483647]"), Err("integer out of range".into()));
    assert_eq!(int4("(2147483647,)"), Err("integer out of range".into()));
    let long = read("[1,9223372036854775807]", RangeKind::Int64);
    assert_eq!(long, Err("bigint out of range".into()));
    let syntax = |why: &str, s: &str| {
        Err(format!(
            "invalid input syntax for type range: {why}: \"{s}\""
        ))
    };
    assert_eq!(
        int4("emptyy"),
        syntax("Junk after \"empty\" key word.", "emptyy")
    );
    assert_eq!(
        int4("1"),
        syntax("Missing left parenthesis or bracket.", "1")
    );
    assert_eq!(int4("["), syntax("Unexpected end of input.", "["));
    // The lower bound runs to a comma or the end: `1]` is no integer.
    let no_comma = int4("[1]").expect_err("no comma");
    assert!(no_comma.contains("for type integer: invalid digit found in string: \"1]\""));
    let numeric = read("[1", RangeKind::Numeric);
    assert_eq!(numeric, syntax("Missing comma after lower bound.", "[1"));
    assert_eq!(
        int4("[1,2"),
        syntax("Missing left parenthesis or bracket.", "[1,2")
    );
    assert_eq!(
        int4("[1,2]a"),
        syntax("Junk after right parenthesis or bracket.", "[1,2]a")
    );
    // A bound is read untrimmed of nothing but what the element trims.
    let bad = int4("[1,  )").expect_err("a blank bound");
    assert!(
        bad.starts_with(
            "invalid input syntax for type range: invalid input syntax for type integer"
        ),
        "{bad}"
    );
    assert_eq!(int4("[ 1 , 3 )").as_deref(), Ok("[1,3)"));
    assert_eq!(flags("[)"), Ok((true, false)));
    for bad in [" (]", "(] ", "(,]", "a()", "(()", "())", ""] {
        assert_eq!(flags(bad), Err(BAD_FLAGS.to_string()), "{bad:?}");
    }
}

#[test]
fn the_order_is_empty_then_lower_then_upper() {
    let sorted = [
        "empty", "(,1)", "(,2)", "(,)", "[-1,1)", "[-1,2)", "[0,1)", "[0,2)", "[1,)", "[2,)",
    ];
    let ranges: Vec<Datum> = sorted
        .iter()
        .map(|s| parse_as(s, ScalarType::Range(RangeKind::Int32)).expect("a range"))
        .collect();
    for (i, a) in ranges.iter().enumerate() {
        for (j, b) in ranges.iter().enumerate() {
            assert_eq!(a.cmp(b), i.cmp(&j), "{a} against {b}");
        }
    }
    // Continuous bounds: inclusive lower first, exclusive upper first.
    let num = |s: &str| parse_as(s, ScalarType::Range(RangeKind::Numeric)).expect("a range");
    assert!(num("[1,2)") < num("(1,2)"));
    assert!(num("[1,2)") < num("[1,2]"));
}

#[test]
fn containment_reads_each_bound() {
    let r = |s: &str| match parse_as(s, ScalarType::Range(RangeKind::Numeric)) {
        Ok(Datum::Range(r)) => r,
        other => panic!("{other:?}"),
    };
    let n = |s: &str| element(RangeKind::Numeric)(s).expect("a number");
    assert!(r("[1,2)").contains(&n("1")));
    assert!(!r("(1,2)").contains(&n("1")));
    assert!(!r("[1,2)").contains(&n("2")));
    assert!(r("(,2]").contains(&n("2")));
    assert!(r("(,)").contains(&n("-100")));
    assert!(!Range::EMPTY.contains(&n("0")));
}
