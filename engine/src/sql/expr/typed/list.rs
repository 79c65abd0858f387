//! The list type names, `int list` and `int list list`, as the token
//! rewrite of `sql/list_syntax.rs` hands them on (one custom type name);
//! and the operators of lists: `||` of two lists of one type or of a
//! list and an element of its element type (`list_cat`, `list_append`,
//! `list_prepend`), and the comparisons of two lists of one type. What
//! the real system would cast first (lists of two types, an element of
//! another type) is refused by name.

use sqlparser::ast::{BinaryOperator, DataType};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::Typed;
use crate::plan::{Func, ListFunc, ScalarExpr};
use crate::repr::list::ListType;
use crate::repr::{unsupported, ScalarType};
use crate::sql::list_syntax::list_type_words;

/// The type `t` means if it is a list type's name (`None`: it is not).
pub fn list_type(
    t: &DataType,
    scalar: impl Fn(&DataType) -> Result<ScalarType, String>,
) -> Option<Result<ScalarType, String>> {
    let DataType::Custom(name, modifiers) = t else {
        return None;
    };
    let [part] = name.0.as_slice() else {
        return None;
    };
    let id = part.as_ident()?;
    let (words, layers) = list_type_words(&id.value, id.quote_style)?;
    if !modifiers.is_empty() {
        return Some(Err(unsupported(format!("type {}", id.value))));
    }
    let refused = || unsupported(format!("type {}", id.value));
    let element = Parser::new(&PostgreSqlDialect {})
        .try_with_sql(&words)
        .and_then(|mut p| p.parse_data_type())
        .map_err(|_| refused());
    Some(element.and_then(|e| scalar(&e)).and_then(|mut t| {
        for _ in 0..layers {
            t = ScalarType::List(ListType::of(t).ok_or_else(refused)?);
        }
        Ok(t)
    }))
}

/// The list type of `t`, if it is one.
pub fn list_of(t: &Typed) -> Option<ListType> {
    match t.typ {
        Some(ScalarType::List(l)) if !t.is_unknown() => Some(l),
        _ => None,
    }
}

/// `l || r` where either is a list (`None`: neither is): two lists of one
/// type, or a list and an element of its element type; an operand of
/// unknown type, which could be either, is refused by name.
pub fn concat(name: &str, l: Typed, r: Typed) -> Option<Result<Typed, String>> {
    let (lt, rt) = (list_of(&l), list_of(&r));
    let typ = lt.or(rt)?;
    let list = ScalarType::List(typ);
    Some((|| {
        let refused = |l: &Typed, r: &Typed| {
            unsupported(format!("{name} of {} and {}", l.type_name(), r.type_name()))
        };
        let (func, l, r) = match (lt, rt) {
            (Some(a), Some(b)) if a == b => (ListFunc::Cat, l, r),
            (Some(a), _) if r.typ == Some(a.element()) => (ListFunc::Append, l, r),
            (_, Some(b)) if l.typ == Some(b.element()) => (ListFunc::Prepend, l, r),
            _ => return Err(refused(&l, &r)),
        };
        let call = ScalarExpr::Call(Func::List(func), vec![l.expr, r.expr]);
        Ok(Typed::new(call, list, true))
    })())
}

/// Whether `op` of `l` and `r` is refused: an operator of lists but a
/// comparison of two lists of one type (or a literal read as one). A
/// comparison of a list with a value of a type the real system casts
/// neither to the other is its error: a list of another number of
/// layers, not a list, or of another kind of element type (a number
/// beside a non-number, or two floats, as Materialize's `list.slt` has
/// it); of two other element types it is refused by name.
pub fn refused_operator(op: &BinaryOperator, l: &Typed, r: &Typed) -> Option<String> {
    use BinaryOperator as B;
    let (lt, rt) = (list_of(l), list_of(r));
    if lt.is_none() && rt.is_none() {
        return None;
    }
    let comparison = matches!(op, B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq);
    if !comparison {
        return Some(unsupported(format!("operator {op} of lists")));
    }
    if l.typ == r.typ || l.is_unknown() || r.is_unknown() {
        return None;
    }
    let number = |t: ScalarType| {
        t.is_integer() || t.is_float() || t.is_unsigned() || t == ScalarType::Numeric
    };
    let unrelated = match (lt, rt) {
        (Some(a), Some(b)) => {
            let (x, y) = (a.elem.scalar(), b.elem.scalar());
            a.layers != b.layers || number(x) != number(y) || (x.is_float() && y.is_float())
        }
        _ => true,
    };
    Some(match unrelated {
        true => format!(
            "operator does not exist: {} {op} {}",
            l.type_name(),
            r.type_name()
        ),
        false => unsupported(format!(
            "operator {op} of {} and {}",
            l.type_name(),
            r.type_name()
        )),
    })
}
