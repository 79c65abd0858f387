//! Lists in expressions, as Materialize's planner reads them
//! (`sql/src/plan/query.rs`, `plan_list` and `plan_subscript_list`;
//! `func.rs` the functions; read for the facts): `LIST[...]` (a call of
//! the constructor `sql/list_syntax.rs` makes of it) of one type, unified
//! as `CASE` unifies (`LIST types integer and integer list cannot be
//! matched`), its elements cast to a cast's element type
//! (`LIST[1]::text list`), empty only under such a cast; subscripts
//! `l[i][j]` and slices `l[a:b]` of `bigint` indexes, consecutive indexes
//! one `list_index` and consecutive slices one `list_slice_linear`;
//! `list_length`, `list_n_layers`, `list_append`, `list_prepend`,
//! `list_cat` and `list_remove` of arguments of exactly the types they
//! take (or of unknown type, read as them). What the real system would
//! cast first is refused by name.

use sqlparser::ast::{AccessExpr, Expr, Function, Subscript};

use super::plain_args;
use super::range::no_function;
use super::typed::list::list_of;
use super::typed::{unify, Typed};
use super::ExprContext;
use crate::eval::castable;
use crate::plan::{Func, ListFunc, ScalarExpr};
use crate::repr::list::ListType;
use crate::repr::{unsupported, Datum, ScalarType};
use crate::sql::list_syntax;

/// Whether `f` is the call `LIST[...]` became.
pub fn is_constructor(f: &Function) -> bool {
    match f.name.0.as_slice() {
        [part] => part
            .as_ident()
            .is_some_and(|id| list_syntax::is_constructor(&id.value, id.quote_style)),
        _ => false,
    }
}

/// The functions of lists planned here.
pub fn is_list_function(name: &str) -> bool {
    matches!(
        name,
        "list_length"
            | "list_n_layers"
            | "list_append"
            | "list_prepend"
            | "list_cat"
            | "list_remove"
    )
}

const POLYMORPHIC_UNKNOWN: &str =
    "could not determine polymorphic type because input has type unknown";

/// `name(args)` for a name [`is_list_function`] takes.
pub fn plan_call(name: &str, args: Vec<Typed>) -> Result<Typed, String> {
    let no = || no_function(name, &args);
    let refused = || {
        let types: Vec<String> = args.iter().map(|a| a.type_name().into_owned()).collect();
        unsupported(format!("function {name} of {}", types.join(", ")))
    };
    let list = |t: &Typed| list_of(t);
    match (name, args.as_slice()) {
        (_, [a, ..]) if a.typ.is_none() && name != "list_prepend" && args.len() == 1 => {
            Err(POLYMORPHIC_UNKNOWN.into())
        }
        ("list_length", [l]) => {
            list(l).ok_or_else(no)?;
            let call = ScalarExpr::Call(Func::List(ListFunc::Length), vec![l.expr.clone()]);
            Ok(Typed::new(call, ScalarType::Int32, l.nullable))
        }
        ("list_n_layers", [l]) => {
            let t = list(l).ok_or_else(no)?;
            let layers = ScalarExpr::Literal(Datum::Int32(t.layers.into()));
            Ok(Typed::new(layers, ScalarType::Int32, false))
        }
        ("list_append" | "list_remove", [l, x]) => {
            let (l, x) = list_and_element(l, x, name == "list_append").ok_or_else(refused)??;
            let func = match name {
                "list_append" => ListFunc::Append,
                _ => ListFunc::Remove,
            };
            let typ = l.typ.expect("a list");
            let call = ScalarExpr::Call(Func::List(func), vec![l.expr, x.expr]);
            Ok(Typed::new(call, typ, true))
        }
        ("list_prepend", [x, l]) => {
            let (l, x) = list_and_element(l, x, false).ok_or_else(refused)??;
            let typ = l.typ.expect("a list");
            let call = ScalarExpr::Call(Func::List(ListFunc::Prepend), vec![x.expr, l.expr]);
            Ok(Typed::new(call, typ, true))
        }
        ("list_cat", [a, b]) => {
            let t = match (list(a), list(b)) {
                (Some(s), Some(t)) if s == t => t,
                (Some(t), None) | (None, Some(t)) if a.is_unknown() || b.is_unknown() => t,
                (None, None) if a.is_unknown() && b.is_unknown() => {
                    return Err(POLYMORPHIC_UNKNOWN.into())
                }
                _ => return Err(refused()),
            };
            let (a, b) = (
                a.clone().coerce(ScalarType::List(t))?,
                b.clone().coerce(ScalarType::List(t))?,
            );
            let call = ScalarExpr::Call(Func::List(ListFunc::Cat), vec![a.expr, b.expr]);
            Ok(Typed::new(call, ScalarType::List(t), true))
        }
        _ => Err(no()),
    }
}

/// A list and an element of its element type, either of unknown type
/// read as the other's (both NULL, where `texts`: a `text list` and a
/// text, as `list_append` reads them). `None`: of other types, which the
/// real system may cast to others, or both NULL elsewhere.
fn list_and_element(l: &Typed, x: &Typed, texts: bool) -> Option<Result<(Typed, Typed), String>> {
    let t = match (list_of(l), x.is_unknown()) {
        (Some(t), _) => t,
        (None, false) if l.is_unknown() => ListType::of(x.typ?)?,
        (None, true) if texts && l.typ.is_none() && x.typ.is_none() => {
            ListType::of(ScalarType::Text)?
        }
        _ => return None,
    };
    let element = t.element();
    if !x.is_unknown() && x.typ != Some(element) {
        return None;
    }
    Some((|| {
        Ok((
            l.clone().coerce(ScalarType::List(t))?,
            x.clone().coerce(element)?,
        ))
    })())
}

impl ExprContext<'_> {
    /// `LIST[args]` (the call `f`), its elements of the element type of
    /// `hint` where a cast to a list type says so.
    #[inline(never)]
    pub(super) fn list(&mut self, f: &Function, hint: Option<ListType>) -> Result<Typed, String> {
        let element = hint.map(ListType::element);
        let inner_hint = match element {
            Some(ScalarType::List(t)) => Some(t),
            _ => None,
        };
        let mut planned = Vec::new();
        for e in plain_args(f)? {
            planned.push(match e {
                Expr::Function(g) if is_constructor(g) => self.list(g, inner_hint)?,
                e => self.plan(e)?,
            });
        }
        if planned.is_empty() {
            let t = hint.ok_or("cannot determine type of empty list")?;
            let empty = ScalarExpr::Literal(Datum::List(Vec::new()));
            return Ok(Typed::new(empty, ScalarType::List(t), false));
        }
        let values = match element {
            Some(e) => planned
                .into_iter()
                .map(|t| {
                    let t = t.coerce(e)?;
                    match t.typ {
                        Some(from) if castable(from, e) => Ok(t.cast(e)),
                        _ => Err(format!(
                            "LIST could not convert type {} to {}",
                            t.type_name(),
                            e.name()
                        )),
                    }
                })
                .collect::<Result<Vec<_>, _>>()?,
            None => {
                let mut lists = planned.iter().filter_map(list_of);
                if let Some(first) = lists.next() {
                    if lists.any(|t| t != first) {
                        return Err(unsupported("LIST of lists of different types"));
                    }
                }
                unify(planned, "LIST")?
            }
        };
        let elem = values[0].typ.unwrap_or(ScalarType::Text);
        let t =
            ListType::of(elem).ok_or_else(|| unsupported(format!("type {} list", elem.name())))?;
        let exprs = values.into_iter().map(|v| v.expr).collect();
        let call = ScalarExpr::Call(Func::List(ListFunc::Create), exprs);
        Ok(Typed::new(call, ScalarType::List(t), false))
    }

    /// `list[i][j]...[a:b]...` of a planned list of type `t`: each run of
    /// indexes one `list_index`, each run of slices one
    /// `list_slice_linear`, as the real system plans them.
    #[inline(never)]
    pub(super) fn list_subscript(
        &mut self,
        list: Typed,
        t: ListType,
        chain: &[AccessExpr],
    ) -> Result<Typed, String> {
        let element_name = t.element().name();
        let mut expr = list.expr;
        let mut typ = ScalarType::List(t);
        let mut remaining = usize::from(t.layers);
        let mut positions = chain.iter().peekable();
        while let Some(first) = positions.next() {
            let AccessExpr::Subscript(first) = first else {
                return Err(unsupported("field access"));
            };
            let slice = matches!(first, Subscript::Slice { .. });
            let mut run = vec![first];
            while let Some(AccessExpr::Subscript(s)) = positions.peek() {
                if matches!(s, Subscript::Slice { .. }) != slice {
                    break;
                }
                run.push(s);
                positions.next();
            }
            let mut exprs = vec![expr];
            if slice {
                if remaining == 0 {
                    return Err(format!("cannot subscript type {element_name}"));
                }
                for s in run {
                    let Subscript::Slice {
                        lower_bound,
                        upper_bound,
                        stride: None,
                    } = s
                    else {
                        return Err(unsupported("list slice with a stride"));
                    };
                    exprs.push(self.position(lower_bound.as_ref(), 1)?);
                    exprs.push(self.position(upper_bound.as_ref(), i64::MAX - 1)?);
                }
                expr = ScalarExpr::Call(Func::List(ListFunc::Slice), exprs);
            } else {
                let depth = run.len();
                if depth > remaining {
                    return Err(match remaining {
                        0 => format!("cannot subscript type {element_name}"),
                        n => format!(
                            "cannot index into {depth} layers; list only has {n} layer{}",
                            if n == 1 { "" } else { "s" }
                        ),
                    });
                }
                for s in run {
                    let Subscript::Index { index } = s else {
                        unreachable!("a run of indexes")
                    };
                    exprs.push(self.position(Some(index), 0)?);
                }
                remaining -= depth;
                typ = t.nth_element(usize::from(t.layers) - remaining);
                expr = ScalarExpr::Call(Func::List(ListFunc::Index), exprs);
            }
        }
        Ok(Typed::new(expr, typ, true))
    }

    /// A subscript's position cast to a `bigint` as the real system casts
    /// it (explicitly), or `default` where none is written.
    fn position(&mut self, e: Option<&Expr>, default: i64) -> Result<ScalarExpr, String> {
        let Some(e) = e else {
            return Ok(ScalarExpr::Literal(Datum::Int64(default)));
        };
        let i = self.plan(e)?.coerce(ScalarType::Int64)?;
        match i.typ {
            Some(from) if castable(from, ScalarType::Int64) => Ok(i.cast(ScalarType::Int64).expr),
            Some(from) => Err(format!(
                "subscripting does not support casting from {} to bigint",
                from.name()
            )),
            None => Ok(i.expr),
        }
    }
}
