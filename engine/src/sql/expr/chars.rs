//! How `char(n)` and `varchar(n)` are typed, as the real system types
//! them (its `sql/src/func.rs` overloads and `plan/typeconv.rs` casts,
//! read for the facts): the type names, which type a comparison of two
//! strings is made in, the common type of a CASE's or COALESCE's strings,
//! and what `LIKE` reads of them. `typed` applies these rules to its
//! operands; this module sees only their types.
//!
//! A `char` value is kept trimmed (`repr::chars`), so converting to and
//! from it is a change of type alone, but for a `text` or `varchar` made
//! a `char`, which trims it.

use sqlparser::ast::{CharacterLength, DataType, TypeModifier};

use crate::plan::{ScalarExpr, UnaryOp};
use crate::repr::chars::Kind;
use crate::repr::{unsupported, ScalarType};

/// The string type a type name means, or `None` if it names none of them:
/// `char` is `char(1)`, `bpchar` a `char` without a length, `varchar` a
/// `varchar` without one; a length out of range is the real system's
/// error.
pub fn chars_type(t: &DataType) -> Option<Result<ScalarType, String>> {
    let length = |kind: Kind, l: &Option<CharacterLength>| match l {
        None => Ok(None),
        Some(CharacterLength::IntegerLength { length, unit: None }) => {
            kind.length(*length).map(Some)
        }
        Some(l) => Err(unsupported(format!("type length {l}"))),
    };
    Some(match t {
        DataType::Char(l) | DataType::Character(l) => match l {
            None => Ok(ScalarType::Char(Some(1))),
            l => length(Kind::Char, l).map(ScalarType::Char),
        },
        DataType::Varchar(l) | DataType::CharacterVarying(l) | DataType::CharVarying(l) => {
            length(Kind::VarChar, l).map(ScalarType::VarChar)
        }
        DataType::Custom(name, modifiers) if is_bpchar(name) => match modifiers.as_slice() {
            [] => Ok(ScalarType::Char(None)),
            [TypeModifier::Number(n, false)] => match n.parse() {
                Ok(n) => Kind::Char.length(n).map(|n| ScalarType::Char(Some(n))),
                Err(_) => Err(unsupported(format!("type {t}"))),
            },
            _ => Err(unsupported(format!("type {t}"))),
        },
        _ => return None,
    })
}

/// `bpchar` unquoted, or PostgreSQL's catalog's: the `char` without a length.
fn is_bpchar(name: &sqlparser::ast::ObjectName) -> bool {
    let parts: Vec<_> = name
        .0
        .iter()
        .map(|p| {
            p.as_ident()
                .map(|i| (i.value.to_lowercase(), i.quote_style))
        })
        .collect();
    match parts.as_slice() {
        [Some((n, None))] => n == "bpchar",
        [Some((s, None)), Some((n, None))] => s == "pg_catalog" && n == "bpchar",
        _ => false,
    }
}

/// An operand's type as these rules see it: `None` for NULL or a string
/// literal, whose type its context gives.
pub type Operand = Option<ScalarType>;

/// Whether an operand is a string: of a string type, or unknown.
fn stringy(t: Operand) -> bool {
    t.is_none_or(ScalarType::is_string)
}

/// The type two operands of a comparison are compared in, when both are
/// strings and one is a `char` or `varchar`: two `char`s, or a `char` and
/// a `varchar` or a string literal, as `char`s (trailing blanks do not
/// count); a `char` and a `text`, and a `varchar` and anything, as `text`s
/// (they count). `None`: not such a comparison.
pub fn compared_as(l: Operand, r: Operand) -> Option<ScalarType> {
    let sized = |t: Operand| t.and_then(ScalarType::chars);
    if !(stringy(l) && stringy(r)) || (sized(l).is_none() && sized(r).is_none()) {
        return None;
    }
    let is_char = |t: Operand| sized(t).is_some_and(|(k, _)| k == Kind::Char);
    let text = Some(ScalarType::Text);
    Some(match (is_char(l) || is_char(r)) && l != text && r != text {
        true => ScalarType::Char(None),
        false => ScalarType::Text,
    })
}

/// `expr`, of the string type `from`, as a value of the string type `to`
/// by an implicit cast: a `text` or `varchar` made a `char` is trimmed,
/// any other is the same datum of another type.
pub fn implicit(expr: ScalarExpr, from: ScalarType, to: ScalarType) -> ScalarExpr {
    let is_char = |t: ScalarType| t.chars().is_some_and(|(k, _)| k == Kind::Char);
    match is_char(to) && !is_char(from) {
        true => ScalarExpr::Unary(UnaryOp::Assign(to), Box::new(expr)),
        false => expr,
    }
}

/// The common type of a CASE's or COALESCE's values (`what`; the types
/// of its values in order, a CASE's ELSE last) when the first known one
/// is a string and another is a `char` or `varchar`: the first's type
/// without its length, as the real system guesses it, the others to be
/// converted to it ([`implicit`]). `None`: not such a list. When that
/// type is a `char` it is refused: whether the result is shown blank
/// padded then depends on how the real system unions its values'
/// lengths, which is not reproduced here.
pub fn unified(values: &[Operand], what: &str) -> Option<Result<ScalarType, String>> {
    let first = values.iter().flatten().next()?;
    let any_sized = values.iter().flatten().any(|t| t.chars().is_some());
    let all_strings = values.iter().all(|t| stringy(*t));
    if !(first.is_string() && any_sized && all_strings) {
        return None;
    }
    Some(match first.without_length() {
        ScalarType::Char(_) => Err(unsupported(format!("{} of char", what.to_uppercase()))),
        to => Ok(to),
    })
}

/// What `LIKE` reads of a string `expr` of type `t`: a `char` blank padded
/// when `padded` (the real system pads its left side, and reads a `char`
/// pattern as its `text`), a `varchar` as its `text`. `None`: not a
/// `char` or `varchar`.
pub fn like_operand(expr: ScalarExpr, t: Operand, padded: bool) -> Option<ScalarExpr> {
    Some(match t?.chars()? {
        (Kind::Char, length) if padded => {
            ScalarExpr::Unary(UnaryOp::PadChar(length), Box::new(expr))
        }
        _ => expr,
    })
}
