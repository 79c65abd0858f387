//! `jsonb` in the planner: its type name, and its operators as the real
//! system's overloads have them (`sql/src/func.rs`, read for the facts):
//! `jsonb -> text` and `jsonb -> bigint` (`->>` the same, a text), `@>`
//! and `<@` of two jsonbs, `jsonb ? text`, `jsonb || jsonb`, `jsonb - text`
//! and `jsonb - bigint`. An operand of unknown type (NULL, a string
//! literal) takes the type the overload wants: `text` for a key, `jsonb`
//! beside `@>`, `<@` and `||`; an integer is widened to a `bigint`.
//! The comparisons of jsonbs are `typed::binary`'s, as of any type.
//! Refused by name: the operators of text arrays (`#>`, `#>>`, `#-`, `?|`,
//! `?&`), which the engine lacks, an operator of jsonb whose left side is
//! not one, and `||` of a jsonb and another type (the real system's text
//! concatenation of the jsonb's text, not planned here).

use sqlparser::ast::BinaryOperator;

use super::range::Routed;
use super::Typed;
use crate::plan::{Func, JsonbFunc, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// Whether an operand is known to be a `jsonb`.
pub fn is_jsonb(t: &Typed) -> bool {
    t.typ == Some(ScalarType::Jsonb) && !t.is_unknown()
}

/// Whether `op` is one the planner takes for jsonb (`refusal` reports no
/// other construct for it). Not `||`: `typed/text.rs` names it.
pub fn is_jsonb_operator(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::Arrow | B::LongArrow | B::Question | B::AtArrow | B::ArrowAt
    )
}

/// What a key operand is: a `text` (a string or of unknown type), an
/// integer (as a `bigint`), or neither.
enum Key {
    Text(Typed),
    Index(Typed),
    Other,
}

fn key(t: Typed) -> Result<Key, String> {
    Ok(match t.typ {
        _ if t.is_unknown() => Key::Text(t.coerce(ScalarType::Text)?),
        Some(s) if s.is_string() => Key::Text(t.cast(ScalarType::Text)),
        Some(s) if s.is_integer() => Key::Index(t.cast(ScalarType::Int64)),
        _ => Key::Other,
    })
}

/// A key of a jsonb subscript as Materialize's `plan_subscript_jsonb`
/// plans it: a text (or what casts to one implicitly), or an integer
/// made its text; any other type is its error, an unsigned integer
/// refused by name.
pub fn path_key(t: Typed) -> Result<ScalarExpr, String> {
    if matches!(
        t.typ,
        Some(ScalarType::UInt16 | ScalarType::UInt32 | ScalarType::UInt64)
    ) {
        return Err(unsupported(format!("jsonb subscript of {}", t.type_name())));
    }
    match key(t)? {
        Key::Text(k) | Key::Index(k) => Ok(k.cast(ScalarType::Text).expr),
        Key::Other => Err("jsonb subscript type must be coercible to integer or text".into()),
    }
}

/// `l op r` when `l` (or, beside `@>`, `<@` and `||`, `r`) is a jsonb, or
/// `op` is an operator only jsonb has here.
pub fn binary(op: &BinaryOperator, l: Typed, r: Typed) -> Routed {
    use BinaryOperator as B;
    let symmetric = matches!(op, B::AtArrow | B::ArrowAt | B::StringConcat);
    let only_jsonb = matches!(op, B::Arrow | B::LongArrow | B::Question);
    let ours = is_jsonb(&l) || symmetric && is_jsonb(&r);
    if !ours {
        return match only_jsonb {
            true => Routed::Planned(Err(unsupported(format!("operator {op}")))),
            false => Routed::Not(l, r),
        };
    }
    let missing = |l: &Typed, r: &Typed| {
        format!(
            "operator does not exist: {} {op} {}",
            operand_name(l),
            operand_name(r)
        )
    };
    let planned = match op {
        B::Arrow | B::LongArrow | B::Question | B::Minus => {
            // The error names the key's type as written, before a widening.
            let written = missing(&l, &r);
            keyed(op, l, r).ok_or(written).and_then(|planned| planned)
        }
        B::AtArrow | B::ArrowAt | B::StringConcat => both(l, r).and_then(|(l, r)| {
            let (func, typ) = match op {
                B::StringConcat => (JsonbFunc::Concat, ScalarType::Jsonb),
                _ => (JsonbFunc::Contains, ScalarType::Bool),
            };
            let (l, r) = match op {
                // `a <@ b` is `b @> a`, as the real system plans it.
                B::ArrowAt => (r, l),
                _ => (l, r),
            };
            match (is_jsonb(&l), is_jsonb(&r)) {
                (true, true) => {
                    let mut planned = call(func, vec![l, r], typ);
                    // `||` of two scalars, or an object and a scalar, is NULL.
                    planned.nullable |= func == JsonbFunc::Concat;
                    Ok(planned)
                }
                _ if op == &B::StringConcat => Err(unsupported(format!(
                    "operator || of {} and {}",
                    operand_name(&l),
                    operand_name(&r)
                ))),
                _ => Err(missing(&l, &r)),
            }
        }),
        _ => return Routed::Not(l, r),
    };
    Routed::Planned(planned)
}

/// `jsonb op key`: `->`, `->>`, `?` and `-` (`None`: no overload takes
/// the key).
fn keyed(op: &BinaryOperator, l: Typed, r: Typed) -> Option<Result<Typed, String>> {
    use BinaryOperator as B;
    use JsonbFunc as F;
    let key = match key(r) {
        Ok(key) => key,
        Err(e) => return Some(Err(e)),
    };
    let (func, r) = match (op, key) {
        (B::Arrow, Key::Text(r)) => (F::GetField, r),
        (B::Arrow, Key::Index(r)) => (F::GetElement, r),
        (B::LongArrow, Key::Text(r)) => (F::GetFieldText, r),
        (B::LongArrow, Key::Index(r)) => (F::GetElementText, r),
        (B::Question, Key::Text(r)) => (F::HasKey, r),
        (B::Minus, Key::Text(r)) => (F::DeleteKey, r),
        (B::Minus, Key::Index(r)) => (F::DeleteElement, r),
        _ => return None,
    };
    let typ = match func {
        F::GetFieldText | F::GetElementText => ScalarType::Text,
        F::HasKey => ScalarType::Bool,
        _ => ScalarType::Jsonb,
    };
    let mut planned = call(func, vec![l, r], typ);
    // A key or element may be absent, and `-` of a scalar is NULL.
    planned.nullable |= func != F::HasKey;
    Some(Ok(planned))
}

/// Two operands, one of unknown type taking the other's `jsonb`.
fn both(l: Typed, r: Typed) -> Result<(Typed, Typed), String> {
    let coerce = |t: Typed| match t.is_unknown() {
        true => t.coerce(ScalarType::Jsonb),
        false => Ok(t),
    };
    Ok((coerce(l)?, coerce(r)?))
}

/// An operand's type as an operator's error names it.
fn operand_name(t: &Typed) -> String {
    match t.is_unknown() {
        true => "unknown".to_string(),
        false => t.type_name().into_owned(),
    }
}

/// `func(args)` of type `typ`, NULL when an argument is.
pub fn call(func: JsonbFunc, args: Vec<Typed>, typ: ScalarType) -> Typed {
    let nullable = args.iter().any(|a| a.nullable);
    let exprs = args.into_iter().map(|a| a.expr).collect();
    Typed::new(ScalarExpr::Call(Func::Jsonb(func), exprs), typ, nullable)
}
