//! `uint2`, `uint4` and `uint8` among the types, as Materialize plans
//! them (`sql/src/func.rs`, `plan/typeconv.rs`, read for the facts): the
//! type names, and the operators where an unsigned integer meets a value.
//!
//! Two unsigned integers of one type add, subtract, multiply, divide, take
//! a remainder and compare as that type; a NULL or a string literal beside
//! one takes its type. Where an unsigned integer meets any other type,
//! Materialize resolves the operator by its implicit casts (a `uint2`
//! beside an `integer` is an `integer`, a `uint4` beside one a `bigint`,
//! by its near matches of mixed signs): the engine does not model that
//! resolution, so such an operator is refused by name, as are the
//! unifications of CASE, COALESCE and UNION that mix them (`unify`).

use sqlparser::ast::{BinaryOperator, DataType, ObjectNamePart};

use super::time::Operands;
use super::Typed;
use crate::plan::{BinaryOp, Bitwise, Func, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// The type an unsigned type name means: `uint2`, `uint4` (names of no
/// keyword, so sqlparser's custom types) and `uint8` (its ClickHouse
/// keyword, which Materialize reads as 64 bits). `uint16`, `uint32` and
/// `uint64` name no type of Materialize's and are refused by
/// `scalar_type`, as is a qualified or quoted name.
pub fn unsigned_type(t: &DataType) -> Option<ScalarType> {
    match t {
        DataType::UInt8 => Some(ScalarType::UInt64),
        DataType::Custom(name, modifiers) if modifiers.is_empty() => {
            let [ObjectNamePart::Identifier(ident)] = name.0.as_slice() else {
                return None;
            };
            if ident.quote_style.is_some() {
                return None;
            }
            match ident.value.to_lowercase().as_str() {
                "uint2" => Some(ScalarType::UInt16),
                "uint4" => Some(ScalarType::UInt32),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The unsigned type of an operand whose type is known to be one.
pub fn unsigned_of(t: &Typed) -> Option<ScalarType> {
    t.typ.filter(|t| t.is_unsigned())
}

/// An arithmetic operator or a comparison where an operand is an
/// unsigned integer, planned over two values of its type (a NULL or a
/// string literal cast to it); `Plain` when neither is one (or for a
/// logical operator or LIKE), and a refusal when the other is of another
/// type (see the module).
pub fn binary(op: (&BinaryOperator, BinaryOp), l: Typed, r: Typed) -> Result<Operands, String> {
    let (op, plan_op) = op;
    let logical = matches!(
        plan_op,
        BinaryOp::And | BinaryOp::Or | BinaryOp::Like | BinaryOp::ILike
    );
    let known = |t: &Typed| t.typ.filter(|_| !t.is_unknown());
    let Some(to) = (!logical)
        .then(|| unsigned_of(&l).or(unsigned_of(&r)))
        .flatten()
    else {
        return Ok(Operands::Plain(l, r));
    };
    for other in [known(&l), known(&r)].into_iter().flatten() {
        if other != to {
            return Err(unsupported(format!(
                "operator {op} of {} and {}",
                known(&l).map_or("unknown", ScalarType::base_name),
                known(&r).map_or("unknown", ScalarType::base_name),
            )));
        }
    }
    let (l, r) = (l.coerce(to)?, r.coerce(to)?);
    let typ = match plan_op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => to,
        _ => ScalarType::Bool,
    };
    let nullable = l.nullable || r.nullable;
    let expr = ScalarExpr::Binary(plan_op, Box::new(l.expr), Box::new(r.expr));
    Ok(Operands::Planned(Typed::new(expr, typ, nullable)))
}

/// A bitwise operator (`&`, `|`, `#`, `<<`, `>>`; `None` for another):
/// of two unsigned integers of one type, or a shift of one by a `uint4`,
/// the type of the left (Materialize's only bitwise overloads of them,
/// `sql/src/func.rs`). Any other operands, a NULL or a string literal
/// among them, are refused by the operator's name: Materialize resolves
/// them among its signed integers' overloads too.
pub fn bitwise(op: &BinaryOperator, l: &Typed, r: &Typed) -> Option<Result<Typed, String>> {
    let func = match op {
        BinaryOperator::BitwiseAnd => Bitwise::And,
        BinaryOperator::BitwiseOr => Bitwise::Or,
        BinaryOperator::PGBitwiseXor => Bitwise::Xor,
        BinaryOperator::PGBitwiseShiftLeft => Bitwise::ShiftLeft,
        BinaryOperator::PGBitwiseShiftRight => Bitwise::ShiftRight,
        _ => return None,
    };
    let shift = matches!(func, Bitwise::ShiftLeft | Bitwise::ShiftRight);
    let typ = unsigned_of(l).filter(|_| !l.is_unknown());
    let right = match shift {
        true => Some(ScalarType::UInt32),
        false => typ,
    };
    Some(match typ {
        Some(typ) if !r.is_unknown() && r.typ == right => {
            let args = vec![l.expr.clone(), r.expr.clone()];
            let call = ScalarExpr::Call(Func::Bitwise(func), args);
            Ok(Typed::new(call, typ, l.nullable || r.nullable))
        }
        _ => Err(unsupported(format!("operator {op}"))),
    })
}

/// `~t` of an unsigned integer (`None` for another operand).
pub fn bit_not(t: &Typed) -> Option<Typed> {
    let typ = unsigned_of(t)?;
    let call = ScalarExpr::Call(Func::Bitwise(Bitwise::Not), vec![t.expr.clone()]);
    Some(Typed::new(call, typ, t.nullable))
}

/// The refusal of `t`, an unsigned integer, where a number of another
/// type is wanted (`to`, or any integer for `None`), which Materialize
/// may reach by an implicit cast the engine does not model.
pub fn refuse_implicit(t: &Typed, to: Option<ScalarType>) -> Result<(), String> {
    let Some(from) = unsigned_of(t) else {
        return Ok(());
    };
    let number = |n: ScalarType| {
        n.is_integer()
            || n.is_unsigned()
            || n.is_float()
            || n.without_length() == ScalarType::Numeric
    };
    match to {
        Some(to) if to == from || !number(to) => Ok(()),
        Some(to) => Err(unsupported(format!(
            "{} where {} is wanted",
            from.name(),
            to.name()
        ))),
        None => Err(unsupported(format!(
            "{} where an integer is wanted",
            from.name()
        ))),
    }
}

/// The refusal of a unification (CASE, COALESCE, UNION, VALUES) of values
/// of `types` that mixes an unsigned integer with another type: see the
/// module.
pub fn refuse_mixed(types: impl Iterator<Item = ScalarType>, what: &str) -> Result<(), String> {
    let types: Vec<ScalarType> = types.collect();
    match types.iter().find(|t| t.is_unsigned()) {
        Some(u) if types.iter().any(|t| t != u) => Err(unsupported(format!(
            "{what} of {} and {}",
            u.name(),
            types.iter().find(|t| *t != u).expect("another type").name()
        ))),
        _ => Ok(()),
    }
}
