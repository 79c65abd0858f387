//! Arrays in expressions, as Materialize's planner reads them
//! (`sql/src/plan/query.rs`, `plan_array` and subscripts; `func.rs` the
//! functions; read for the facts): `ARRAY[...]` of one type, unified as
//! `CASE` unifies (`ARRAY types integer and boolean cannot be matched`),
//! of arrays one dimension more, empty only under a cast to an array
//! type; a subscript `a[i][j]` of `bigint` indexes; `array_length`,
//! `array_lower` and `array_upper`; the type names `t[]` (`t[][]` and
//! `t[2]` the same type, as the real system's parser reads them);
//! `array_to_string`, `array_position` and `array_remove` (an operand of
//! the element type only), `array_cat`;
//! `x op ANY (a)` and `x op ALL (a)` of an array (`transform_ast.rs`
//! plans them over `unnest(a)`), `op` a comparison. What
//! the engine does not plan exactly is refused by name: slices, arrays of
//! arrays of two types, `t ARRAY`, arrays of `char`, `varchar`,
//! `numeric(p, s)` and ranges, and `ANY` and `ALL` of an array whose
//! elements the comparison would cast.

use sqlparser::ast::{AccessExpr, BinaryOperator, Expr, Subscript};

use super::jsonb;
use super::range::no_function;
use super::typed::array::{array_of, concat};
use super::typed::{binary, unify, Typed};
use super::ExprContext;
use crate::eval::castable;
use crate::plan::{ArrayFunc, BinaryOp, Func, ScalarExpr};
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
    matches!(
        name,
        "array_length"
            | "array_lower"
            | "array_upper"
            | "array_to_string"
            | "array_position"
            | "array_remove"
            | "array_cat"
    )
}

/// `name(args)` for a name [`is_array_function`] takes: an array and a
/// dimension, an integer; `array_to_string` and `array_position`.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let func = match name {
        "array_length" => ArrayFunc::Length,
        "array_lower" => ArrayFunc::Lower,
        "array_upper" => ArrayFunc::Upper,
        "array_to_string" => return to_string(args),
        "array_cat" => return cat(args),
        _ => return position(name, args),
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

/// `array_to_string(a, delimiter[, null_string])`: an array of any type
/// and texts (`params!(ArrayAny, String[, String])`).
fn to_string(args: Vec<Typed>) -> Result<Typed, String> {
    let name = "array_to_string";
    match args.as_slice() {
        [a, ..] if a.is_unknown() => return Err(POLYMORPHIC_UNKNOWN.into()),
        [a, _] | [a, _, _] if element(a.typ).is_some() => {}
        _ => return Err(no_function(name, &args)),
    }
    let mut exprs = vec![args[0].expr.clone()];
    for t in &args[1..] {
        let t = text(t.clone()).ok_or_else(|| no_function(name, &args))??;
        exprs.push(t.expr);
    }
    let call = ScalarExpr::Call(Func::Array(ArrayFunc::ToString), exprs);
    let nullable = args.iter().take(2).any(|a| a.nullable);
    Ok(Typed::new(call, ScalarType::Text, nullable))
}

/// `array_cat(a, b)`: `||` of two arrays of one type.
fn cat(args: Vec<Typed>) -> Result<Typed, String> {
    let name = "array_cat";
    match args.as_slice() {
        [a, b] if a.is_unknown() && b.is_unknown() => Err(POLYMORPHIC_UNKNOWN.into()),
        [a, b] => {
            let planned = concat("function array_cat", a.clone(), b.clone());
            planned.unwrap_or_else(|| Err(no_function(name, &args)))
        }
        _ => Err(no_function(name, &args)),
    }
}

/// `array_position(a, x[, start])` and `array_remove(a, x)`: `x` of the
/// array's element type (`params!(ArrayAnyCompatible, AnyCompatible)`),
/// an operand of unknown type read as one; `x` of another type is
/// refused, as the type both would be cast to is not modelled here.
fn position(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let (a, x, start) = match args.as_slice() {
        [a, x] => (a, x, None),
        [a, x, start] if name == "array_position" => (a, x, Some(start)),
        _ => return Err(no_function(name, &args)),
    };
    if a.is_unknown() {
        return Err(unsupported(format!(
            "function {name} of an array of unknown type"
        )));
    }
    let Some(e) = element(a.typ) else {
        return Err(no_function(name, &args));
    };
    let x = match x.typ {
        _ if x.is_unknown() => x.clone().coerce(e.scalar())?,
        Some(t) if t == e.scalar() => x.clone(),
        _ => {
            return Err(unsupported(format!(
                "function {name} of {} in {}",
                x.type_name(),
                a.type_name()
            )))
        }
    };
    let mut exprs = vec![a.expr.clone(), x.expr];
    if let Some(start) = start {
        let start = match start.typ {
            _ if start.is_unknown() => start.clone().coerce(ScalarType::Int32)?,
            Some(ScalarType::Int16 | ScalarType::Int32) => start.clone().cast(ScalarType::Int32),
            _ => return Err(no_function(name, &args)),
        };
        exprs.push(start.expr);
    }
    if name == "array_remove" {
        let call = ScalarExpr::Call(Func::Array(ArrayFunc::Remove), exprs);
        return Ok(Typed::new(call, a.typ.expect("an array"), a.nullable));
    }
    let call = ScalarExpr::Call(Func::Array(ArrayFunc::Position), exprs);
    Ok(Typed::new(call, ScalarType::Int32, true))
}

/// `t` as a text argument: a text, a `varchar` cast to one, or of unknown
/// type read as one (`None`: another type, `Err`: a `char(n)`, refused).
fn text(t: Typed) -> Option<Result<Typed, String>> {
    match t.typ {
        _ if t.is_unknown() => Some(t.coerce(ScalarType::Text)),
        Some(ScalarType::Text) => Some(Ok(t)),
        Some(ScalarType::VarChar(_)) => Some(Ok(t.cast(ScalarType::Text))),
        Some(c @ ScalarType::Char(_)) => Some(Err(unsupported(format!(
            "function array_to_string of {}",
            c.name()
        )))),
        _ => None,
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
        if let Some(refused) = constructor(root) {
            return Err(refused);
        }
        if chain.iter().any(|a| matches!(a, AccessExpr::Dot(_))) {
            return Err(unsupported("field access"));
        }
        let array = self.plan(root)?.typed();
        let e = match array.typ {
            Some(ScalarType::Array(e)) => e,
            Some(ScalarType::List(t)) => return self.list_subscript(array, t, chain),
            Some(ScalarType::Jsonb) => {
                // Every position is checked for a slice before any is planned.
                let indexes = chain.iter().map(|access| match access {
                    AccessExpr::Subscript(Subscript::Index { index }) => Ok(index),
                    _ => Err("jsonb subscript does not support slices".to_string()),
                });
                let indexes = indexes.collect::<Result<Vec<_>, _>>()?;
                let keys = self.plan_all(indexes)?;
                return jsonb::subscript(array, keys);
            }
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

    /// `left op ANY (right)` (`all: false`) or `ALL` of an array `right`:
    /// the comparison `left op e` of an element `e` of its type, as the
    /// real system plans it over `unnest(right)`, so an operand of
    /// unknown type is read as the element type and the element is never
    /// one (`integer = text` has no operator).
    #[inline(never)]
    pub(super) fn quantified_array(
        &mut self,
        left: &Expr,
        op: &BinaryOperator,
        right: &Expr,
        all: bool,
    ) -> Result<Typed, String> {
        quantified_operator(op)?;
        // The real system plans it as a subquery wherever it is, so it
        // is refused where a subquery is.
        if self.subqueries.is_none() {
            return Err(self.no_subqueries());
        }
        let a = self.plan(right)?;
        if a.is_unknown() {
            return Err("function unnest(unknown) is not unique".into());
        }
        let Some(e) = element(a.typ) else {
            return Err(no_function("unnest", &[a]));
        };
        let mut x = self.plan(left)?;
        if x.is_unknown() {
            x = x.coerce(e.scalar())?;
        }
        // As a subquery, its errors would count once per key of the outer
        // columns it reads, and no AND or OR around it would drop one; an
        // error here would not, so what can fail is refused, and so is an
        // aggregate's or a subquery's value in it.
        let width = self.row_columns().len();
        for t in [&x.expr, &a.expr] {
            if !infallible(t, width) {
                return Err(unsupported(
                    "ANY and ALL of an array whose operand or array can fail",
                ));
            }
        }
        // The comparison of placeholders: column 0 the operand, 1 the
        // element; an element cast or an operator other than a
        // comparison is refused by name.
        let operand = Typed {
            expr: ScalarExpr::Column(0),
            ..x.clone()
        };
        let element = Typed::new(ScalarExpr::Column(1), e.scalar(), true);
        let cmp = binary(op, operand, element)?;
        let refused = || unsupported("ANY and ALL of an array whose elements the comparison casts");
        let ScalarExpr::Binary(bop, l, r) = cmp.expr else {
            return Err(refused());
        };
        let comparison = matches!(
            bop,
            BinaryOp::Eq
                | BinaryOp::NotEq
                | BinaryOp::Lt
                | BinaryOp::LtEq
                | BinaryOp::Gt
                | BinaryOp::GtEq
        );
        if !comparison || *r != ScalarExpr::Column(1) || reads_element(&l) {
            return Err(refused());
        }
        let operand = with_operand(*l, &x.expr);
        let func = Func::Array(ArrayFunc::Quantified { op: bop, all });
        let call = ScalarExpr::Call(func, vec![operand, a.expr]);
        Ok(Typed::new(call, ScalarType::Bool, true))
    }
}

/// The refusal of `op` of `ANY` or `ALL` of an array but a comparison
/// (`LIKE`, `~`, `@>` and the like, which the real system plans too).
pub(super) fn quantified_operator(op: &BinaryOperator) -> Result<(), String> {
    use BinaryOperator as B;
    match op {
        B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq => Ok(()),
        op => Err(unsupported(format!(
            "operator {op} of ANY and ALL of an array"
        ))),
    }
}

/// Whether `e` cannot fail: a column of the row (of fewer than `width`:
/// not an aggregate's or a subquery's value), a literal but an error, or
/// `ARRAY[...]` of these, one-dimensional, or a constant that folds to a
/// value.
fn infallible(e: &ScalarExpr, width: usize) -> bool {
    match e {
        ScalarExpr::Column(c) => *c < width,
        ScalarExpr::Literal(_) => true,
        ScalarExpr::Call(Func::Array(ArrayFunc::Create { nested: false }), args) => {
            args.iter().all(|a| infallible(a, width))
        }
        // A constant that evaluates without an error now.
        e => matches!(e.clone().fold(), ScalarExpr::Literal(_)),
    }
}

/// Whether the comparison's operand side reads the element (column 1).
fn reads_element(e: &ScalarExpr) -> bool {
    let read = std::cell::Cell::new(false);
    let _ = e.clone().remap_columns(&|c| {
        read.set(read.get() || c != 0);
        c
    });
    read.get()
}

/// The comparison's operand side with the operand (column 0) in place.
fn with_operand(e: ScalarExpr, x: &ScalarExpr) -> ScalarExpr {
    match e {
        ScalarExpr::Column(0) => x.clone(),
        e => e.map_children(&mut |c| with_operand(c, x)),
    }
}

/// The refusal of `MAP[...]`, Materialize's constructor of its map type,
/// which sqlparser reads as a subscript of a column named `map`: the word
/// is a keyword of Materialize's parser, never a column, unless quoted.
/// (`LIST[...]` is rewritten before sqlparser reads it: `list.rs`.)
pub fn constructor(root: &Expr) -> Option<String> {
    match root {
        Expr::Identifier(id)
            if id.quote_style.is_none() && id.value.eq_ignore_ascii_case("map") =>
        {
            Some(unsupported("MAP[...] (the map type)"))
        }
        _ => None,
    }
}
