//! Which of two evaluation errors Materialize reports where it evaluates
//! both and keeps one. Its `AND` and `OR` evaluate every operand until one
//! decides, and keep `std::cmp::max` of the operands' `EvalError`s
//! (`expr/src/scalar/func/variadic.rs`), an order derived from the enum:
//! its variants in their declaration order, then each variant's fields in
//! order (`expr/src/scalar.rs`, `repr/src/strconv.rs` for `ParseError`).
//! So `a / 0 = 1 OR a + 2147483647 = 1` is `numeric field overflow`
//! (declared after `DivisionByZero`), in either order of the operands.
//!
//! The engine's errors are Materialize's texts, so this reads the variant
//! and its fields back from the text of each error the engine raises. Two
//! errors it cannot order (a text it does not know, or fields it does not
//! read) are refused as an `unsupported` error, never guessed.

use crate::repr::{unsupported, DataflowError};

/// A field of an `EvalError` variant, ordered as its Rust type is.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Field<'a> {
    Text(&'a str),
    Number(u64),
    /// An `Option<Box<str>>`: `None` before any `Some`.
    Optional(Option<&'a str>),
}

/// An error's place in Materialize's `EvalError` order: the variant's index
/// in the enum's declaration, then its fields.
type Key<'a> = (u16, Vec<Field<'a>>);

/// Variants without fields, by their text.
const PLAIN: &[(&str, u16)] = &[
    ("division by zero", 3),
    ("value out of range: overflow", 5),
    ("value out of range: underflow", 6),
    ("numeric field overflow", 7),
    ("timestamp out of range", 21),
    ("date out of range", 22),
    ("\"char\" out of range", 23),
    ("cannot take square root of a negative number", 43),
    ("unterminated escape sequence in LIKE", 48),
    ("more than one record produced in subquery", 57),
    ("LIKE pattern exceeds maximum length", 59),
    ("invalid escape string", 60),
    ("requested length too large", 76),
];

/// `"<value>" <type> out of range`: one variant per type, its field the value.
const OUT_OF_RANGE: &[(&str, u16)] = &[
    ("real", 8),
    ("double precision", 9),
    ("smallint", 10),
    ("integer", 11),
    ("bigint", 12),
    ("uint2", 13),
    ("uint4", 14),
    ("uint8", 15),
    ("mz_timestamp", 16),
    ("OID", 18),
    ("interval", 19),
];

/// `function <name> ...`: one variant per text after the name, its field the name.
const OUT_OF_DOMAIN: &[(&str, u16)] = &[
    (" is only defined for finite arguments", 52),
    (" is not defined for negative numbers", 53),
    (" is not defined for zero", 54),
    (" cannot return complex numbers", 56),
];

/// `InvalidParameterValue` (40), whose field is its whole text.
const PARAMETER_VALUES: &[&str] = &["negative substring length not allowed"];

/// Materialize's `Parse` variant, whose `ParseError` orders by its kind
/// (`OutOfRange` before `InvalidInputSyntax`), its type, its input, its
/// details.
const PARSE: u16 = 49;

/// `StringValueTooLong { target_type, length }`.
const STRING_VALUE_TOO_LONG: u16 = 61;

/// The error Materialize reports of two that an `AND` or `OR` kept: the
/// greater in its order. An error that is not an evaluation error (an
/// `unsupported` refusal) is kept first: the engine does not know what the
/// operand would have been.
pub fn greater(a: DataflowError, b: DataflowError) -> DataflowError {
    let (Some(ta), Some(tb)) = (a.evaluation(), b.evaluation()) else {
        return match a.evaluation().is_some() {
            true => b,
            false => a,
        };
    };
    if ta == tb {
        return a;
    }
    match (key(ta), key(tb)) {
        (Some(ka), Some(kb)) if ka != kb => match ka < kb {
            true => b,
            false => a,
        },
        _ => DataflowError(unsupported(format!(
            "which of two errors Materialize reports: `{ta}` or `{tb}`"
        ))),
    }
}

/// The key of an evaluation error's text, if the engine knows its variant
/// and can read its fields.
fn key(text: &str) -> Option<Key<'_>> {
    if let Some((_, variant)) = PLAIN.iter().find(|(t, _)| *t == text) {
        return Some((*variant, vec![]));
    }
    if let Some(key) = out_of_range(text) {
        return Some(key);
    }
    if let Some(key) = parse_error(text) {
        return Some(key);
    }
    if let Some(name) = text.strip_prefix("function ") {
        for (rest, variant) in OUT_OF_DOMAIN {
            if let Some(name) = name.strip_suffix(rest) {
                return Some((*variant, vec![Field::Text(name)]));
            }
        }
    }
    if PARAMETER_VALUES.contains(&text) {
        return Some((40, vec![Field::Text(text)]));
    }
    let too_long = text.strip_prefix("value too long for type ")?;
    let (target, length) = too_long.strip_suffix(')')?.rsplit_once('(')?;
    let length = length.parse().ok()?;
    Some((
        STRING_VALUE_TOO_LONG,
        vec![Field::Text(target), Field::Number(length)],
    ))
}

/// `"<value>" <type> out of range`.
fn out_of_range(text: &str) -> Option<Key<'_>> {
    let rest = text.strip_suffix(" out of range")?.strip_prefix('"')?;
    OUT_OF_RANGE.iter().find_map(|(typ, variant)| {
        let value = rest.strip_suffix(typ)?.strip_suffix("\" ")?;
        Some((*variant, vec![Field::Text(value)]))
    })
}

/// Materialize's `ParseError` texts: `"<input>" is out of range for type
/// <type>[: <details>]` and `invalid input syntax for type <type>:
/// [<details>: ]"<input>"`.
fn parse_error(text: &str) -> Option<Key<'_>> {
    const OUT_OF_RANGE: u64 = 0;
    const INVALID_INPUT_SYNTAX: u64 = 1;
    if let Some(rest) = text.strip_prefix("invalid input syntax for type ") {
        let (typ, rest) = rest.split_once(": ")?;
        let (details, input) = match rest.strip_prefix('"') {
            Some(input) => (None, input),
            None => {
                let (details, input) = rest.split_once(": \"")?;
                (Some(details), input)
            }
        };
        let input = input.strip_suffix('"')?;
        return Some(parse_key(INVALID_INPUT_SYNTAX, typ, input, details));
    }
    let rest = text.strip_prefix('"')?;
    let (input, rest) = rest.split_once("\" is out of range for type ")?;
    let (typ, details) = match rest.split_once(": ") {
        Some((typ, details)) => (typ, Some(details)),
        None => (rest, None),
    };
    Some(parse_key(OUT_OF_RANGE, typ, input, details))
}

fn parse_key<'a>(kind: u64, typ: &'a str, input: &'a str, details: Option<&'a str>) -> Key<'a> {
    let fields = vec![
        Field::Number(kind),
        Field::Text(typ),
        Field::Text(input),
        Field::Optional(details),
    ];
    (PARSE, fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str) -> DataflowError {
        DataflowError::eval(text)
    }

    /// The greater of two texts, checked in both orders.
    fn greater_of(a: &str, b: &str) -> String {
        let one = greater(eval(a), eval(b));
        let other = greater(eval(b), eval(a));
        assert_eq!(one, other, "{a} / {b}");
        one.0
    }

    #[test]
    fn variants_order_by_declaration() {
        // DivisionByZero < FloatOverflow < NumericFieldOverflow <
        // Int16OutOfRange < Int32OutOfRange < Int64OutOfRange <
        // TimestampOutOfRange < DateOutOfRange < NegSqrt < Parse <
        // ZeroOutOfDomain < StringValueTooLong < LengthTooLarge.
        let ordered = [
            "division by zero",
            "value out of range: overflow",
            "numeric field overflow",
            "\"100000\" smallint out of range",
            "\"-2147483648\" integer out of range",
            "\"1 / 0\" bigint out of range",
            "timestamp out of range",
            "date out of range",
            "cannot take square root of a negative number",
            "invalid input syntax for type integer: invalid digit found in string: \"x\"",
            "function log10 is not defined for zero",
            "value too long for type character varying(3)",
            "requested length too large",
        ];
        for (i, a) in ordered.iter().enumerate() {
            assert!(key(a).is_some(), "{a}");
            for b in &ordered[i + 1..] {
                assert_eq!(greater_of(a, b), eval(b).0);
            }
        }
    }

    #[test]
    fn fields_order_within_a_variant() {
        // Derived order over `Box<str>`: the values' texts, byte by byte.
        assert_eq!(
            greater_of(
                "\"2147483648\" integer out of range",
                "\"-2147483649\" integer out of range"
            ),
            eval("\"2147483648\" integer out of range").0
        );
        // ParseError: OutOfRange before InvalidInputSyntax, then the type.
        let out = "\"1e400\" is out of range for type double precision";
        let syntax = "invalid input syntax for type boolean: \"x\"";
        assert_eq!(greater_of(out, syntax), eval(syntax).0);
        let int = "invalid input syntax for type integer: invalid digit found in string: \"x\"";
        assert_eq!(greater_of(syntax, int), eval(int).0);
        // Then the input, before the details.
        let b = "invalid input syntax for type integer: invalid digit found in string: \"b\"";
        assert_eq!(greater_of(int, b), eval(int).0);
        // StringValueTooLong: the type, then the length.
        assert_eq!(
            greater_of(
                "value too long for type character(9)",
                "value too long for type character(10)"
            ),
            eval("value too long for type character(10)").0
        );
    }

    #[test]
    fn unknown_texts_are_refused_and_refusals_kept() {
        let refused = greater(eval("something new"), eval("division by zero"));
        assert!(
            refused.0.starts_with("unsupported: which of two errors"),
            "{refused}"
        );
        let refusal = DataflowError(unsupported("x"));
        assert_eq!(greater(refusal.clone(), eval("division by zero")), refusal);
        assert_eq!(greater(eval("division by zero"), refusal.clone()), refusal);
        assert_eq!(
            greater(eval("something new"), eval("something new")),
            eval("something new")
        );
    }
}
