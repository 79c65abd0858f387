//! The operators of text in the planner, as the real system's overloads
//! have them (`sql/src/func.rs`, read for the facts): `||` of two texts,
//! or of a text and a value of another type, which is cast to text first
//! (its `params!(String, NonVecAny)` and `params!(NonVecAny, String)`),
//! and the regular expression matches `~`, `~*`, `!~`, `!~*` of two
//! texts, `!` planned as NOT of the match. An operand of unknown type
//! (NULL, a string literal) is a text.
//! Refused by name: a `char(n)` operand (the real system converts it to
//! text with rules of its own) and, beside `||`, a type whose cast to text
//! the engine lacks; `jsonb` operands are `typed/jsonb.rs`'s.

use sqlparser::ast::BinaryOperator;

use super::range::Routed;
use super::{negate, Typed};
use crate::eval::castable;
use crate::plan::{Func, ScalarExpr, TextFunc};
use crate::repr::{unsupported, ScalarType};

/// Whether `op` is one the planner takes here (`refusal` reports no other
/// construct for it).
pub fn is_text_operator(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::StringConcat
            | B::PGRegexMatch
            | B::PGRegexIMatch
            | B::PGRegexNotMatch
            | B::PGRegexNotIMatch
    )
}

/// `l op r` for the operators [`is_text_operator`] names.
pub fn binary(op: &BinaryOperator, l: Typed, r: Typed) -> Routed {
    use BinaryOperator as B;
    let (case_insensitive, negated) = match op {
        B::StringConcat => return Routed::Planned(concat(l, r)),
        B::PGRegexMatch => (false, false),
        B::PGRegexIMatch => (true, false),
        B::PGRegexNotMatch => (false, true),
        B::PGRegexNotIMatch => (true, true),
        _ => return Routed::Not(l, r),
    };
    let func = TextFunc::RegexMatch { case_insensitive };
    let other = [&l, &r].into_iter().find_map(|t| {
        let other = known(t).filter(|s| *s != ScalarType::Text && s.chars().is_none());
        other.map(|s| unsupported(format!("operator {op} of {}", s.name())))
    });
    if let Some(refused) = other {
        return Routed::Planned(Err(refused));
    }
    let planned = match (text(l, op), text(r, op)) {
        (Ok(Ok(l)), Ok(Ok(r))) => Ok(negate(call(func, l, r, ScalarType::Bool), negated)),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => unreachable!("operands of other types are refused above"),
    };
    Routed::Planned(planned)
}

/// `l || r`: texts, or a text and another type cast to text.
fn concat(l: Typed, r: Typed) -> Result<Typed, String> {
    let op = BinaryOperator::StringConcat;
    let (lt, rt) = (known(&l), known(&r));
    let (l, r) = match (text(l, &op)?, text(r, &op)?) {
        (Ok(l), Ok(r)) => (l, r),
        (Ok(l), Err(r)) => (l, as_text(r)?),
        (Err(l), Ok(r)) => (as_text(l)?, r),
        (Err(_), Err(_)) => {
            return Err(format!(
                "operator does not exist: {} || {}",
                type_name(lt),
                type_name(rt)
            ))
        }
    };
    Ok(call(TextFunc::Concat, l, r, ScalarType::Text))
}

/// `t` as a text operand when it is a text, a `varchar` or of unknown
/// type; back as it is (`Err`) when it is of another type; refused when
/// it is a `char(n)`.
fn text(t: Typed, op: &BinaryOperator) -> Result<Result<Typed, Typed>, String> {
    match known(&t) {
        None => t.coerce(ScalarType::Text).map(Ok),
        Some(ScalarType::Text) => Ok(Ok(t)),
        Some(ScalarType::VarChar(_)) => Ok(Ok(t.cast(ScalarType::Text))),
        Some(s @ ScalarType::Char(_)) => Err(unsupported(format!("operator {op} of {}", s.name()))),
        Some(_) => Ok(Err(t)),
    }
}

/// A value of another type beside a text in `||`, cast to text as the
/// real system casts it explicitly.
fn as_text(t: Typed) -> Result<Typed, String> {
    match t.typ {
        Some(from) if castable(from, ScalarType::Text) => Ok(t.cast(ScalarType::Text)),
        _ => Err(unsupported(format!("operator || of {}", t.type_name()))),
    }
}

fn call(func: TextFunc, l: Typed, r: Typed, typ: ScalarType) -> Typed {
    let nullable = l.nullable || r.nullable;
    let expr = ScalarExpr::Call(Func::Text(func), vec![l.expr, r.expr]);
    Typed::new(expr, typ, nullable)
}

/// An operand's type, `None` when it is unknown (NULL, a string literal).
fn known(t: &Typed) -> Option<ScalarType> {
    t.typ.filter(|_| !t.is_unknown())
}

fn type_name(t: Option<ScalarType>) -> &'static str {
    t.map_or("unknown", ScalarType::base_name)
}
