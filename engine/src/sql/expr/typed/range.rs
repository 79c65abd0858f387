//! The range types in the planner: their names (`int4range`, `int8range`,
//! `numrange`, `daterange`, `tsrange`, `tstzrange`), and the operators
//! where a range meets a range or an element, as the real system's overloads have them
//! (`sql/src/func.rs`, read for the facts): `@>` and `<@` of a range and
//! a range or an element of its type, `&&`, `<<`, `>>`, `&<`, `&>`, `-|-`
//! of two ranges (booleans), and `+`, `*`, `-` of two ranges (a range).
//! Both sides are of one range type, a NULL or a string literal taking
//! the other side's; anything else is its `operator does not exist`.
//! The comparisons of ranges are `typed::binary`'s, as of any type.
//! What the real system resolves by rules not modelled here (an operand
//! of unknown type where a range or an element could be meant, an
//! element of another type that might cast to the range's) is refused.

use sqlparser::ast::{BinaryOperator, DataType, ObjectNamePart};

use super::Typed;
use crate::plan::{Func, RangeFunc, ScalarExpr};
use crate::repr::range::RangeKind;
use crate::repr::{unsupported, ScalarType};

/// The range type a type name means (`None` for other names).
pub fn range_type(t: &DataType) -> Option<Result<ScalarType, String>> {
    let DataType::Custom(name, modifiers) = t else {
        return None;
    };
    let [ObjectNamePart::Identifier(ident)] = name.0.as_slice() else {
        return None;
    };
    let lower = ident.value.to_lowercase();
    let kind = RangeKind::named(&lower)?;
    Some(match modifiers.is_empty() {
        true => Ok(ScalarType::Range(kind)),
        false => Err(unsupported(format!("type {} with modifiers", kind.name()))),
    })
}

/// The range kind of an operand whose type is known to be one.
pub fn kind_of(t: &Typed) -> Option<RangeKind> {
    match t.typ {
        Some(ScalarType::Range(kind)) if !t.is_unknown() => Some(kind),
        _ => None,
    }
}

/// How `range::binary` took a pair of operands.
pub enum Routed {
    /// Planned (or refused) as an operator of ranges.
    Planned(Result<Typed, String>),
    /// Not an operator of ranges: the operands back, untouched.
    Not(Typed, Typed),
}

/// The function of a range operator other than `@>` and `<@` (`None`
/// for those two; not an operator of ranges: `Err`).
fn operator(op: &BinaryOperator) -> Result<Option<RangeFunc>, ()> {
    use BinaryOperator as B;
    Ok(Some(match op {
        B::AtArrow | B::ArrowAt => return Ok(None),
        B::PGOverlap => RangeFunc::Overlaps,
        B::PGBitwiseShiftLeft => RangeFunc::Before,
        B::PGBitwiseShiftRight => RangeFunc::After,
        B::AndLt => RangeFunc::OverLeft,
        B::AndGt => RangeFunc::OverRight,
        B::Custom(s) if s == "-|-" => RangeFunc::Adjacent,
        B::Plus => RangeFunc::Union,
        B::Multiply => RangeFunc::Intersection,
        B::Minus => RangeFunc::Difference,
        _ => return Err(()),
    }))
}

/// Whether `op` is one the planner takes for ranges (`refusal` reports
/// no other construct for it).
pub fn is_range_operator(op: &BinaryOperator) -> bool {
    operator(op).is_ok()
}

/// `l op r` when one of them is a range or `op` is an operator only
/// ranges have here.
pub fn binary(op: &BinaryOperator, l: Typed, r: Typed) -> Routed {
    use BinaryOperator as B;
    let Ok(func) = operator(op) else {
        return Routed::Not(l, r);
    };
    let arithmetic = matches!(op, B::Plus | B::Multiply | B::Minus);
    let (lk, rk) = (kind_of(&l), kind_of(&r));
    if lk.is_none() && rk.is_none() {
        return match arithmetic {
            true => Routed::Not(l, r),
            false if l.is_unknown() && r.is_unknown() => {
                Routed::Planned(Err(unsupported(format!("operator {op} of unknown types"))))
            }
            false => Routed::Not(l, r),
        };
    }
    let missing = |l: &Typed, r: &Typed| {
        format!(
            "operator does not exist: {} {op} {}",
            l.type_name(),
            r.type_name()
        )
    };
    let planned = match func {
        Some(func) => both_ranges(l, r, &missing).map(|(l, r, kind)| {
            let typ = match arithmetic {
                true => ScalarType::Range(kind),
                false => ScalarType::Bool,
            };
            call(func, vec![l, r], typ)
        }),
        // `a <@ b` is `b @> a`, as the real system plans it.
        None => match op {
            B::AtArrow => contains(l, r, &missing),
            _ => contains(r, l, &|r, l| missing(l, r)),
        },
    };
    Routed::Planned(planned)
}

/// `range @> x`, `x` a range of its type or an element of it.
fn contains(
    range: Typed,
    x: Typed,
    missing: &dyn Fn(&Typed, &Typed) -> String,
) -> Result<Typed, String> {
    let Some(kind) = kind_of(&range) else {
        return match kind_of(&x) {
            // An element of unknown type beside a range: resolved by the
            // rules for polymorphic parameters, not modelled here.
            Some(_) if range.is_unknown() => Err(unsupported("operator @> of an unknown operand")),
            _ => Err(missing(&range, &x)),
        };
    };
    if x.is_unknown() {
        return Err(unsupported("operator @> of an unknown operand"));
    }
    match x.typ {
        Some(ScalarType::Range(_)) => both_ranges(range, x, missing)
            .map(|(r, x, _)| call(RangeFunc::ContainsRange, vec![r, x], ScalarType::Bool)),
        Some(t) if t == kind.element() => Ok(call(
            RangeFunc::ContainsElem,
            vec![range, x],
            ScalarType::Bool,
        )),
        Some(t) if t.is_integer() || crate::eval::is_time(t) => Err(unsupported(format!(
            "operator @> of {} and {}",
            kind.name(),
            t.name()
        ))),
        _ => Err(missing(&range, &x)),
    }
}

/// Two operands of one range type, a NULL or string literal taking the
/// other's; else `missing`.
fn both_ranges(
    l: Typed,
    r: Typed,
    missing: &dyn Fn(&Typed, &Typed) -> String,
) -> Result<(Typed, Typed, RangeKind), String> {
    let kind = kind_of(&l).or(kind_of(&r)).expect("a range operand");
    let to = ScalarType::Range(kind);
    let (l, r) = (coerce(l, to)?, coerce(r, to)?);
    match (kind_of(&l), kind_of(&r)) {
        (Some(a), Some(b)) if a == b => Ok((l, r, kind)),
        _ => Err(missing(&l, &r)),
    }
}

/// An operand of unknown type as a `to`; any other unchanged.
fn coerce(t: Typed, to: ScalarType) -> Result<Typed, String> {
    match t.is_unknown() {
        true => t.coerce(to),
        false => Ok(t),
    }
}

/// `func(args)` of type `typ`, NULL when an argument is.
pub fn call(func: RangeFunc, args: Vec<Typed>, typ: ScalarType) -> Typed {
    let nullable = args.iter().any(|a| a.nullable);
    let exprs = args.into_iter().map(|a| a.expr).collect();
    Typed::new(ScalarExpr::Call(Func::Range(func), exprs), typ, nullable)
}
