//! Tests of the scalar functions' evaluation (`functions.rs`): each
//! function's answers at its edges, its errors with the real system's
//! texts, and how each treats NULLs and the errors of its arguments.

use crate::plan::{BinaryOp, Func, ScalarExpr, TextFunc, TrimSide};
use crate::repr::{DataflowError, Datum};
use Datum::{Bool, Int32, Int64, Null};

fn text(s: &str) -> Datum {
    Datum::Text(s.into())
}

fn call(func: Func, args: &[Datum]) -> Result<Datum, DataflowError> {
    let args = args.iter().cloned().map(ScalarExpr::Literal).collect();
    ScalarExpr::Call(func, args).eval(&[])
}

fn ok(func: Func, args: &[Datum]) -> Datum {
    call(func, args).unwrap_or_else(|e| panic!("{func:?}{args:?}: {e}"))
}

fn error(func: Func, args: &[Datum]) -> String {
    call(func, args).expect_err("an error").0
}

/// `1 / 0`, an argument that fails.
fn failing() -> ScalarExpr {
    let one = Box::new(ScalarExpr::Literal(Int32(1)));
    let zero = Box::new(ScalarExpr::Literal(Int32(0)));
    ScalarExpr::Binary(BinaryOp::Div, one, zero)
}

const DIVISION_BY_ZERO: &str = "Evaluation error: division by zero";

#[test]
fn abs_fails_only_for_the_least_value() {
    assert_eq!(ok(Func::AbsInt32, &[Int32(-5)]), Int32(5));
    assert_eq!(ok(Func::AbsInt32, &[Int32(i32::MAX)]), Int32(i32::MAX));
    assert_eq!(
        error(Func::AbsInt32, &[Int32(i32::MIN)]),
        "Evaluation error: \"-2147483648\" integer out of range"
    );
    assert_eq!(ok(Func::AbsInt64, &[Int64(-i64::MAX)]), Int64(i64::MAX));
    assert_eq!(
        error(Func::AbsInt64, &[Int64(i64::MIN)]),
        "Evaluation error: \"-9223372036854775808\" bigint out of range"
    );
    assert_eq!(ok(Func::AbsInt32, &[Null]), Null);
}

#[test]
fn lengths_count_characters_bytes_and_bits() {
    let s = [text("héllo")];
    assert_eq!(ok(Func::CharLength, &s), Int32(5));
    assert_eq!(ok(Func::OctetLength, &s), Int32(6));
    assert_eq!(ok(Func::BitLength, &s), Int32(48));
    assert_eq!(ok(Func::CharLength, &[text("")]), Int32(0));
}

#[test]
fn substr_counts_from_its_start_even_before_the_first_character() {
    let sub = |start, count: Option<i32>| {
        let mut args = vec![text("héllo"), Int32(start)];
        args.extend(count.map(Int32));
        ok(Func::Substr, &args)
    };
    assert_eq!(sub(2, None), text("éllo"));
    assert_eq!(sub(2, Some(2)), text("él"));
    assert_eq!(sub(0, Some(2)), text("h"));
    assert_eq!(sub(-3, Some(5)), text("h"));
    assert_eq!(sub(-3, Some(4)), text(""));
    assert_eq!(sub(-3, None), text("héllo"));
    assert_eq!(sub(9, Some(1)), text(""));
    assert_eq!(sub(1, Some(0)), text(""));
    assert_eq!(sub(i32::MIN, Some(i32::MAX)), text(""));
    assert_eq!(sub(2, Some(i32::MAX)), text("éllo"));
    assert_eq!(
        error(Func::Substr, &[text("abc"), Int32(1), Int32(-1)]),
        "Evaluation error: negative substring length not allowed"
    );
}

#[test]
fn positions_are_of_characters_and_one_based() {
    let at = |needle: &str, s: &str| ok(Func::Position, &[text(needle), text(s)]);
    assert_eq!(at("l", "héllo"), Int32(3));
    assert_eq!(at("x", "héllo"), Int32(0));
    assert_eq!(at("", "abc"), Int32(1));
    assert_eq!(at("", ""), Int32(1));
    // strpos takes the string first.
    assert_eq!(ok(Func::Strpos, &[text("héllo"), text("lo")]), Int32(4));
}

#[test]
fn left_and_right_take_or_leave_characters() {
    let left = |n| ok(Func::Left, &[text("héllo"), Int32(n)]);
    let right = |n| ok(Func::Right, &[text("héllo"), Int32(n)]);
    assert_eq!(left(2), text("hé"));
    assert_eq!(left(-2), text("hél"));
    assert_eq!(left(0), text(""));
    assert_eq!(left(9), text("héllo"));
    assert_eq!(left(-9), text(""));
    assert_eq!(left(i32::MIN), text(""));
    assert_eq!(right(2), text("lo"));
    assert_eq!(right(-2), text("llo"));
    assert_eq!(right(0), text(""));
    assert_eq!(right(9), text("héllo"));
    assert_eq!(right(-9), text(""));
    // PostgreSQL's answer, which the real system keeps.
    assert_eq!(right(i32::MIN), text("héllo"));
}

#[test]
fn trims_strip_spaces_or_the_given_characters() {
    let trim = |side, args: &[Datum]| ok(Func::Trim(side), args);
    let s = [text("  a b\t ")];
    assert_eq!(trim(TrimSide::Both, &s), text("a b\t"));
    assert_eq!(trim(TrimSide::Leading, &s), text("a b\t "));
    assert_eq!(trim(TrimSide::Trailing, &s), text("  a b\t"));
    let xs = [text("xyaxy"), text("yx")];
    assert_eq!(trim(TrimSide::Both, &xs), text("a"));
    assert_eq!(trim(TrimSide::Leading, &xs), text("axy"));
    assert_eq!(trim(TrimSide::Trailing, &xs), text("xya"));
}

#[test]
fn repeat_replace_and_concat_are_bounded() {
    assert_eq!(ok(Func::Repeat, &[text("ab"), Int32(3)]), text("ababab"));
    assert_eq!(ok(Func::Repeat, &[text("ab"), Int32(-3)]), text(""));
    let too_large = "Evaluation error: requested length too large";
    assert_eq!(
        error(Func::Repeat, &[text("ab"), Int32(i32::MAX)]),
        too_large
    );
    assert_eq!(ok(Func::Repeat, &[text(""), Int32(i32::MAX)]), text(""));
    let big = text(&"x".repeat(60 * 1024 * 1024));
    assert_eq!(error(Func::Concat, &[big.clone(), big.clone()]), too_large);
    assert_eq!(
        error(Func::Replace, &[big.clone(), text("x"), text("xx")]),
        too_large
    );
    // Few matches keep a long replacement within the bound.
    let few = text(&format!("{}y", "x".repeat(60 * 1024 * 1024)));
    let replaced = ok(Func::Replace, &[few, text("y"), text("zz")]);
    assert!(matches!(replaced, Datum::Text(s) if s.ends_with("xzz")));
    // An empty pattern matches around every character, as in Rust.
    assert_eq!(
        ok(Func::Replace, &[text("ab"), text(""), text("-")]),
        text("-a-b-")
    );
}

#[test]
fn case_and_reversal_are_unicode() {
    assert_eq!(ok(Func::Upper, &[text("héllo ß")]), text("HÉLLO SS"));
    assert_eq!(ok(Func::Lower, &[text("HÉLLO")]), text("héllo"));
    assert_eq!(ok(Func::Reverse, &[text("héllo")]), text("olléh"));
}

#[test]
fn concat_skips_nulls_and_writes_booleans_as_t_and_f() {
    let values = [
        text("a"),
        Null,
        Int32(1),
        Int64(-2),
        Bool(true),
        Bool(false),
    ];
    assert_eq!(ok(Func::Concat, &values), text("a1-2tf"));
    assert_eq!(ok(Func::Concat, &[Null]), text(""));
    let mut with = vec![text(", ")];
    with.extend(values);
    assert_eq!(ok(Func::ConcatWs, &with), text("a, 1, -2, t, f"));
    assert_eq!(ok(Func::ConcatWs, &[Null, text("a")]), Null);
    assert_eq!(ok(Func::ConcatWs, &[text(","), Null, Null]), text(""));
}

#[test]
fn greatest_and_least_skip_nulls() {
    let values = [Null, Int32(3), Int32(-1), Null];
    assert_eq!(ok(Func::Greatest, &values), Int32(3));
    assert_eq!(ok(Func::Least, &values), Int32(-1));
    assert_eq!(ok(Func::Greatest, &[Null, Null]), Null);
    assert_eq!(ok(Func::Least, &[text("b"), text("ab")]), text("ab"));
}

#[test]
fn greatest_and_least_keep_the_later_of_equal_floats() {
    let f = |v: f64| Datum::Float64(crate::repr::F64::new(v));
    let bits = |d: Datum| match d {
        Datum::Float64(v) => v.get().to_bits(),
        other => panic!("not a double: {other:?}"),
    };
    for func in [Func::Greatest, Func::Least] {
        assert_eq!(bits(ok(func, &[f(-0.0), f(0.0)])), 0.0f64.to_bits());
        assert_eq!(
            bits(ok(func, &[f(0.0), Null, f(-0.0)])),
            (-0.0f64).to_bits()
        );
    }
    assert!(
        matches!(ok(Func::Greatest, &[f(f64::NAN), f(f64::INFINITY)]), Datum::Float64(v) if v.get().is_nan())
    );
    assert_eq!(
        bits(ok(Func::Least, &[f(f64::NAN), f(-0.0), f(1.0)])),
        (-0.0f64).to_bits()
    );
}

#[test]
fn a_strict_function_fails_before_it_is_null() {
    let null = ScalarExpr::Literal(Null);
    let s = ScalarExpr::Literal(text("abc"));
    let substr = |args: Vec<ScalarExpr>| ScalarExpr::Call(Func::Substr, args).eval(&[]);
    // Every argument is evaluated: an error after a NULL is the result.
    let e = substr(vec![null.clone(), failing()]).unwrap_err();
    assert_eq!(e.0, DIVISION_BY_ZERO);
    // The error before a NULL, or after a value: the error.
    let e = substr(vec![s.clone(), failing(), null.clone()]).unwrap_err();
    assert_eq!(e.0, DIVISION_BY_ZERO);
    let e = substr(vec![failing(), null.clone()]).unwrap_err();
    assert_eq!(e.0, DIVISION_BY_ZERO);
}

/// Beside an argument that reads a column, a literal NULL makes a strict
/// function NULL and a literal error makes any function that error, before
/// any argument is evaluated: Materialize's optimizer folds them so.
#[test]
fn literal_arguments_beside_a_column_decide_first() {
    let col = ScalarExpr::Column(0);
    let fails_on_zero = ScalarExpr::Binary(
        BinaryOp::Div,
        Box::new(ScalarExpr::Literal(Int32(1))),
        Box::new(col.clone()),
    );
    let error = ScalarExpr::Error("value out of range".to_string());
    let call = |func, args: Vec<ScalarExpr>| ScalarExpr::Call(func, args).eval(&[Int32(0)]);
    let to_text = |e: ScalarExpr| ScalarExpr::Cast(crate::repr::ScalarType::Text, Box::new(e));
    let substr = vec![to_text(fails_on_zero.clone()), ScalarExpr::Literal(Null)];
    assert_eq!(call(Func::Substr, substr), Ok(Null));
    let concat = vec![to_text(fails_on_zero), error.clone()];
    let e = call(Func::Concat, concat).unwrap_err();
    assert_eq!(e.0, "Evaluation error: value out of range");
    // Not a strict function: a literal NULL decides nothing.
    let e = call(
        Func::Greatest,
        vec![to_text(col), ScalarExpr::Literal(Null)],
    );
    assert_eq!(e, Ok(text("0")));
}

#[test]
fn the_functions_that_take_nulls_evaluate_every_argument() {
    let null = ScalarExpr::Literal(Null);
    let s = ScalarExpr::Literal(text("abc"));
    for func in [Func::Concat, Func::Greatest, Func::Least] {
        let e = ScalarExpr::Call(func, vec![null.clone(), s.clone(), failing()]).eval(&[]);
        assert_eq!(e.unwrap_err().0, DIVISION_BY_ZERO, "{func:?}");
    }
    // concat_ws is NULL of a NULL separator, once no argument fails.
    let ws = |args| ScalarExpr::Call(Func::ConcatWs, args).eval(&[]);
    assert_eq!(ws(vec![null.clone(), s.clone()]), Ok(Null));
    let e = ws(vec![null.clone(), failing()]).unwrap_err();
    assert_eq!(e.0, DIVISION_BY_ZERO);
    let e = ws(vec![s, null, failing()]).unwrap_err();
    assert_eq!(e.0, DIVISION_BY_ZERO);
}

#[test]
fn a_like_pattern_longer_than_8_kib_fails() {
    let like = |pattern: String| {
        let text = Box::new(ScalarExpr::Literal(text("x")));
        let pattern = Box::new(ScalarExpr::Literal(Datum::Text(pattern)));
        ScalarExpr::Binary(BinaryOp::Like, text, pattern).eval(&[])
    };
    assert_eq!(like("%".repeat(8 << 10)), Ok(Bool(true)));
    let e = like("%".repeat((8 << 10) + 1)).unwrap_err();
    assert_eq!(e.0, "Evaluation error: LIKE pattern exceeds maximum length");
    // Bytes, not characters, and before the pattern is read.
    let e = like(format!("{}\\", "é".repeat(4 << 10))).unwrap_err();
    assert_eq!(e.0, "Evaluation error: LIKE pattern exceeds maximum length");
}

#[test]
fn chr_makes_a_code_point_and_refuses_what_is_none() {
    assert_eq!(ok(Func::Chr, &[Int32(65)]), text("A"));
    assert_eq!(ok(Func::Chr, &[Int32(0x1F600)]), text("😀"));
    assert_eq!(ok(Func::Chr, &[Null]), Null);
    assert_eq!(
        error(Func::Chr, &[Int32(0)]),
        "Evaluation error: null character not permitted"
    );
    assert_eq!(
        error(Func::Chr, &[Int32(0xD800)]),
        "Evaluation error: requested character not valid for encoding: 55296"
    );
    assert_eq!(
        error(Func::Chr, &[Int32(-1)]),
        "Evaluation error: requested character too large for encoding: -1"
    );
    assert_eq!(
        error(Func::Chr, &[Int32(0x110000)]),
        "Evaluation error: requested character too large for encoding: 1114112"
    );
}

#[test]
fn lpad_fills_on_the_left_or_cuts_by_characters() {
    assert_eq!(ok(Func::Lpad, &[text("hi"), Int32(5)]), text("   hi"));
    assert_eq!(
        ok(Func::Lpad, &[text("hi"), Int32(5), text("xy")]),
        text("xyxhi")
    );
    assert_eq!(ok(Func::Lpad, &[text("héllo"), Int32(2)]), text("hé"));
    assert_eq!(
        ok(Func::Lpad, &[text("hi"), Int32(2), text("x")]),
        text("hi")
    );
    assert_eq!(ok(Func::Lpad, &[text("hi"), Int32(0)]), text(""));
    // An empty fill adds nothing, as in Materialize and PostgreSQL.
    assert_eq!(
        ok(Func::Lpad, &[text("hi"), Int32(5), text("")]),
        text("hi")
    );
    assert_eq!(
        error(Func::Lpad, &[text("hi"), Int32(-1)]),
        "Evaluation error: length must be nonnegative"
    );
    assert_eq!(
        error(Func::Lpad, &[text("hi"), Int32(i32::MAX)]),
        "Evaluation error: requested length too large"
    );
    assert_eq!(ok(Func::Lpad, &[text("hi"), Null, text("x")]), Null);
}

fn text_func(f: TextFunc) -> Func {
    Func::Text(f)
}

#[test]
fn a_literal_pattern_fails_before_the_other_arguments_are_read() {
    // regexp_replace's text is read first, as the real system's reduce
    // guards a bad literal pattern with the text's IS NULL: the text's
    // error, NULL of a NULL text.
    let replace = |pattern: &str, text_arg: ScalarExpr| {
        let args = vec![
            text_arg,
            ScalarExpr::Literal(text(pattern)),
            ScalarExpr::Literal(text("x")),
        ];
        ScalarExpr::Call(text_func(TextFunc::RegexpReplace), args)
    };
    for pattern in ["(", "a"] {
        let replaced = replace(pattern, failing()).eval(&[]);
        assert_eq!(replaced.expect_err("the text's error").0, DIVISION_BY_ZERO);
    }
    let replaced = replace("(", ScalarExpr::Column(0));
    assert_eq!(replaced.eval(&[Null]), Ok(Null));
    assert!(replaced.eval(&[text("a")]).is_err());
    // regexp_match's and regexp_split_to_array's is the call's error,
    // whatever the text would do, of a NULL one from a column too (a
    // literal NULL makes the call NULL first, as it folds).
    for f in [TextFunc::RegexpMatch, TextFunc::RegexpSplitToArray] {
        let call = |text_arg: ScalarExpr| {
            let args = vec![text_arg, ScalarExpr::Literal(text("("))];
            ScalarExpr::Call(text_func(f), args)
        };
        let bad = call(failing()).eval(&[]).expect_err("a bad pattern").0;
        assert!(bad.starts_with("Evaluation error: invalid regular expression: regex parse error"));
        assert!(call(ScalarExpr::Column(0)).eval(&[Null]).is_err());
        let null = ScalarExpr::Literal(Null);
        assert_eq!(call(null.clone()).fold(), null);
    }
    // A pattern that is not a literal is compiled per row, after the text.
    let args = vec![failing(), ScalarExpr::Column(0)];
    let matched = ScalarExpr::Call(
        text_func(TextFunc::RegexMatch {
            case_insensitive: false,
        }),
        args,
    );
    assert_eq!(matched.eval(&[text("(")]).unwrap_err().0, DIVISION_BY_ZERO);
}

#[test]
fn regular_expressions_read_their_flags_as_the_real_system_does() {
    let replace = text_func(TextFunc::RegexpReplace);
    let args = |flags: &str| [text("aAa"), text("a"), text("-"), text(flags)];
    assert_eq!(ok(replace, &args("")), text("-Aa"));
    assert_eq!(ok(replace, &args("g")), text("-A-"));
    assert_eq!(ok(replace, &args("gi")), text("---"));
    assert_eq!(ok(replace, &args("ic")), text("-Aa"));
    assert_eq!(
        error(replace, &args("gx")),
        "Evaluation error: invalid regular expression flag: x"
    );
    assert_eq!(
        ok(replace, &[text("ab"), text("(a)(b)"), text("$2$1")]),
        text("ba")
    );
    let matches = |case_insensitive| text_func(TextFunc::RegexMatch { case_insensitive });
    assert_eq!(ok(matches(false), &[text("a\nb"), text("a.b")]), Bool(true));
    assert_eq!(ok(matches(false), &[text("ABC"), text("b")]), Bool(false));
    assert_eq!(ok(matches(true), &[text("ABC"), text("b")]), Bool(true));
    assert_eq!(ok(matches(true), &[Null, text("b")]), Null);
    let huge = "a".repeat((1 << 20) + 1);
    assert_eq!(
        error(matches(false), &[text("a"), text(&huge)]),
        "Evaluation error: invalid regular expression: regex pattern too large \
         (1048577 bytes, max 1048576 bytes)"
    );
}

#[test]
fn quote_ident_quotes_all_but_plain_lowercase_names() {
    let quote = |s: &str| ok(text_func(TextFunc::QuoteIdent), &[text(s)]);
    assert_eq!(quote("abc_1"), text("abc_1"));
    assert_eq!(quote("_"), text("_"));
    assert_eq!(quote("Abc"), text("\"Abc\""));
    assert_eq!(quote("1a"), text("\"1a\""));
    assert_eq!(quote("a\"b"), text("\"a\"\"b\""));
    assert_eq!(quote(""), text("\"\""));
    // Keywords the real system's parser reserves somewhere; not others.
    assert_eq!(quote("select"), text("\"select\""));
    assert_eq!(quote("second"), text("\"second\""));
    assert_eq!(quote("user"), text("user"));
    assert_eq!(quote(&"a".repeat(255)), text(&"a".repeat(255)));
    let long = "a".repeat(256);
    assert_eq!(
        error(text_func(TextFunc::QuoteIdent), &[text(&long)]),
        format!("Evaluation error: string is not a valid identifier: \"{long}\"")
    );
    assert_eq!(
        error(text_func(TextFunc::QuoteIdent), &[text("..")]),
        "Evaluation error: string is not a valid identifier: \"..\""
    );
}

#[test]
fn text_parts_and_cases() {
    let split = |s: &str, d: &str, n: i32| {
        ok(
            text_func(TextFunc::SplitPart),
            &[text(s), text(d), Int32(n)],
        )
    };
    assert_eq!(split("a--b--c", "--", 3), text("c"));
    assert_eq!(split("a--b--c", "--", 4), text(""));
    assert_eq!(split("abc", "", 1), text("abc"));
    assert_eq!(
        error(
            text_func(TextFunc::SplitPart),
            &[text("a"), text(","), Int32(0)]
        ),
        "Evaluation error: field position must be greater than zero"
    );
    let translate = text_func(TextFunc::Translate);
    assert_eq!(
        ok(translate, &[text("hello"), text("lo"), text("L")]),
        text("heLL")
    );
    assert_eq!(ok(text_func(TextFunc::Ascii), &[text("€")]), Int32(8364));
    assert_eq!(ok(text_func(TextFunc::Ascii), &[text("")]), Int32(0));
    assert_eq!(
        ok(text_func(TextFunc::Initcap), &[text("hI tHERE-you")]),
        text("Hi There-You")
    );
    assert_eq!(
        ok(text_func(TextFunc::StartsWith), &[text("abc"), text("")]),
        Bool(true)
    );
    let normalize = text_func(TextFunc::Normalize);
    assert_eq!(ok(normalize, &[text("\u{fb01}"), text("nfkc")]), text("fi"));
    assert_eq!(
        error(normalize, &[text("a"), text("NFX")]),
        "Evaluation error: invalid normalization form: NFX"
    );
    assert_eq!(
        ok(text_func(TextFunc::Concat), &[text("a"), text("b")]),
        text("ab")
    );
    assert_eq!(ok(text_func(TextFunc::Concat), &[text("a"), Null]), Null);
}
