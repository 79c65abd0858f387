//! Arrays in expressions, as Materialize's planner reads them
//! (`sql/src/plan/query.rs`, `plan_array` and subscripts; `func.rs` the
//! functions; read for the facts): `ARRAY[...]` of one type, unified as
//! `CASE` unifies (`ARRAY types integer and boolean cannot be matched`),
//! of arrays one dimension more, empty only under a cast to an array
//! type; a subscript `a[i][j]` of `bigint` indexes; `array_length`,
//! `array_lower` and `array_upper`; the type names `t[]` (`t[][]` and
//! `t[2]` the same type, as the real system's parser reads them). What
//! the engine does not plan exactly is refused by name: slices, arrays of
//! arrays of two types, `t ARRAY`, arrays of `char`, `varchar`,
//! `numeric(p, s)` and ranges.

use sqlparser::ast::{AccessExpr, Expr, Subscript};

use super::range::no_function;
use super::typed::array::array_of;
use super::typed::{unify, Typed};
use super::ExprContext;
use crate::eval::castable;
use crate::plan::{ArrayFunc, Func, ScalarExpr};
use crate::repr::array::ArrayElem;
use crate::repr::{unsupported, Datum, ScalarType};

/// The element type of an array type.
fn element(t: Option<ScalarType>) -> Option<ArrayElem> {
    match t {
        Some(ScalarType::Array(e)) => Some(e),
        _ => None,
    }
}

/// The functions of arrays planned here.
pub fn is_array_function(name: &str) -> bool {
    matches!(name, "array_length" | "array_lower" | "array_upper")
}

/// `name(args)` for a name [`is_array_function`] takes: an array and a
/// dimension, an integer.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let func = match name {
        "array_length" => ArrayFunc::Length,
        "array_lower" => ArrayFunc::Lower,
        _ => ArrayFunc::Upper,
    };
    match args.as_slice() {
        [a, _] if a.is_unknown() => Err(POLYMORPHIC_UNKNOWN.into()),
        [a, i] if element(a.typ).is_some() => {
            let i = bigint(i.clone()).ok_or_else(|| no_function(name, &args))?;
            let exprs = vec![a.expr.clone(), i?.expr];
            Ok(Typed::new(
                ScalarExpr::Call(Func::Array(func), exprs),
                ScalarType::Int32,
                true,
            ))
        }
        _ => Err(no_function(name, &args)),
    }
}

const POLYMORPHIC_UNKNOWN: &str =
    "could not determine polymorphic type because input has type unknown";

/// `t` as a `bigint`, as an integer or a literal of unknown type becomes
/// one (`None`: another type).
fn bigint(t: Typed) -> Option<Result<Typed, String>> {
    match t.typ {
        _ if t.is_unknown() => Some(t.coerce(ScalarType::Int64)),
        Some(typ) if typ.is_integer() => Some(Ok(t.cast(ScalarType::Int64))),
        _ => None,
    }
}

impl ExprContext<'_> {
    /// `ARRAY[elems]`, its elements of type `hint` where a cast to an
    /// array of it says so.
    #[inline(never)]
    pub(super) fn array(
        &mut self,
        elems: &[Expr],
        hint: Option<ArrayElem>,
    ) -> Result<Typed, String> {
        let mut planned = Vec::with_capacity(elems.len());
        for e in elems {
            planned.push(match e {
                Expr::Array(inner) => self.array(&inner.elem, hint)?,
                e => self.plan(e)?,
            });
        }
        if planned.is_empty() {
            let e = hint.ok_or("cannot determine type of empty array")?;
            let empty = crate::repr::array::Array::list(Vec::new());
            let literal = ScalarExpr::Literal(Datum::Array(Box::new(empty)));
            return Ok(Typed::new(literal, ScalarType::Array(e), false));
        }
        let nested = planned
            .iter()
            .any(|t| element(t.typ).is_some() && !t.is_unknown());
        let (typ, values) = match nested {
            true => {
                let first = planned
                    .iter()
                    .find_map(|t| element(t.typ))
                    .expect("an array");
                let to = ScalarType::Array(first);
                let values = planned
                    .into_iter()
                    .map(|t| match t.typ {
                        None => t.coerce(to),
                        Some(t2) if t2 == to => Ok(t),
                        Some(_) if element(t.typ).is_some() => {
                            Err(unsupported("ARRAY of arrays of different types"))
                        }
                        Some(_) => Err(unsupported("ARRAY of arrays and other values")),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (to, values)
            }
            false => {
                let all_unknown = planned.iter().all(Typed::is_unknown);
                let values = match hint {
                    Some(e) if all_unknown => planned
                        .into_iter()
                        .map(|t| t.coerce(e.scalar()))
                        .collect::<Result<Vec<_>, _>>()?,
                    _ => unify(planned, "ARRAY")?,
                };
                let elem = values[0].typ.unwrap_or(ScalarType::Text);
                let typ =
                    array_of(elem).ok_or_else(|| unsupported(format!("type {}[]", elem.name())))?;
                (typ, values)
            }
        };
        let exprs = values.into_iter().map(|v| v.expr).collect();
        let call = ScalarExpr::Call(Func::Array(ArrayFunc::Create { nested }), exprs);
        Ok(Typed::new(call, typ, false))
    }

    /// `root[i][j]...`: an element of an array.
    #[inline(never)]
    pub(super) fn subscript(&mut self, root: &Expr, chain: &[AccessExpr]) -> Result<Typed, String> {
        if chain.iter().any(|a| matches!(a, AccessExpr::Dot(_))) {
            return Err(unsupported("field access"));
        }
        let array = self.plan(root)?.typed();
        let e = match array.typ {
            Some(ScalarType::Array(e)) => e,
            Some(ScalarType::Jsonb) => return Err(unsupported("subscript of jsonb")),
            t => {
                let name = t.map_or("text".into(), ScalarType::name);
                return Err(format!("cannot subscript type {name}"));
            }
        };
        let mut exprs = vec![array.expr];
        for access in chain {
            let AccessExpr::Subscript(Subscript::Index { index }) = access else {
                return Err("array subscript does not support slices".into());
            };
            // The real system casts an index to a `bigint` explicitly.
            let i = self.plan(index)?;
            let i = match bigint(i.clone()) {
                Some(i) => i?,
                None => match i.typ {
                    Some(from) if castable(from, ScalarType::Int64) => i.cast(ScalarType::Int64),
                    _ => return Err(unsupported(format!("subscript of type {}", i.type_name()))),
                },
            };
            exprs.push(i.expr);
        }
        let call = ScalarExpr::Call(Func::Array(ArrayFunc::Index), exprs);
        Ok(Typed::new(call, e.scalar(), true))
    }
}
