//! Scalar expressions: names resolved in a scope, types checked (NULL and
//! string literals have no type of their own until their context gives them
//! one, as in PostgreSQL), and aggregates planned against a GROUP BY.
//!
//! `ExprContext` plans an expression; `scope` says what it can name,
//! `typed` what type it has, `aggregate` what a GROUP BY makes of it,
//! `subquery` how a subquery in it is planned, `functions` a call of a
//! scalar function (an overload chosen by `overloads`, SQL's own call
//! syntax read by `call_syntax`).

mod aggregate;
mod aggregate_call;
mod array;
mod call_syntax;
mod case;
mod chars;
mod date_part;
mod date_trunc;
mod float;
mod float_functions;
mod functions;
mod grouped;
mod jsonb;
mod like;
mod list;
mod names;
mod numeric;
mod overloads;
mod range;
mod reduce;
mod refusal;
mod row;
mod scope;
mod session_func;
mod subquery;
mod time;
mod typed;
mod unary;
mod variance;
mod walk;
pub(super) mod window;
mod window_aggregate;

use std::cell::Cell;

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArguments, InTarget,
};

use super::{forms, ident};
use crate::eval::castable;
use crate::plan::{BinaryOp, ScalarExpr, UnaryOp};
use crate::repr::{unsupported, ScalarType};
pub(super) use aggregate::Grouping;
use aggregate_call::aggregate_call;
use call_syntax::special_form;
pub(super) use float::value_as_float;
use functions::is_scalar_function;
pub(super) use jsonb::{is_jsonb_table_function, plan_table_call as plan_jsonb_table_call};
use like::like_operator;
pub(super) use names::is_function_keyword;
use names::not_a_column;
pub(super) use names::output_name;
pub(super) use refusal::first_refusal;
pub(super) use scope::{Scope, ScopeItem};
pub(super) use session_func::with_session;
pub(super) use subquery::{
    Enclosing, Kind, Nested, Outer, OuterRefused, Prefix, Reads, Subqueries, Subquery,
    SUBQUERY_COLUMN,
};
use typed::{binary, cast_literal, literal, negate, operands};
pub(super) use typed::{scalar_type, unify, Typed};
pub(super) use unary::negative_number;
pub(super) use walk::{contains_aggregate, contains_subquery};

/// How deep an expression may nest, in the text and once planned: every
/// later stage (rendering, evaluation on a worker thread, dropping the
/// plan) recurses over the planned expression, so a bound here keeps a
/// chain of thousands of `OR`s or `+`s from reaching a worker. An IN list
/// and CASE's arms are planned side by side, so however long, they nest
/// one level.
pub(super) use crate::recursion::RECURSION_LIMIT;
use crate::recursion::{grown, recursion_limit_error};

/// Where an expression is planned.
pub(super) struct ExprContext<'a> {
    pub scope: &'a Scope,
    /// The error for an aggregate call, when there is no grouping.
    pub no_aggregates: &'static str,
    pub grouping: Option<&'a mut Grouping>,
    /// How many `plan` calls are under way: the nesting so far.
    depth: usize,
    /// The enclosing query's names, when this is a subquery's.
    pub outer: Option<&'a dyn Outer>,
    /// Where the subqueries planned here go; without it a subquery is
    /// refused as being `site` ("in VALUES").
    pub subqueries: Option<Subqueries<'a>>,
    pub site: &'static str,
    /// Column references resolved so far here and in an outer query.
    refs: Cell<(usize, usize)>,
    /// Where a select list's window function calls go (`window`).
    pub windows: Option<window::Windows>,
    /// Materialize's name of where the expression stands, as its errors
    /// name it (`SELECT clause`, `AND argument`; its `ExprContext::name`).
    pub name: &'static str,
    /// Whether Materialize's `reduce` rewrites the expression before it is
    /// evaluated: predicates, and expressions over a relation that is not
    /// constant (`reduce.rs`).
    pub reduces: bool,
    /// Whether the planned expression is folded as Materialize's
    /// optimizer folds it (everywhere but an `UPDATE`'s `SET`, which its
    /// sequencer evaluates as written: `eval/as_written.rs`).
    pub folds: bool,
}

impl<'a> ExprContext<'a> {
    pub fn plain(scope: &'a Scope, no_aggregates: &'static str) -> ExprContext<'a> {
        // "aggregate functions are not allowed in VALUES" names the site.
        let site = no_aggregates.split_once("not allowed ");
        ExprContext {
            scope,
            no_aggregates,
            grouping: None,
            depth: 0,
            outer: None,
            subqueries: None,
            site: site.map_or("in aggregate arguments", |(_, site)| site),
            refs: Cell::default(),
            windows: None,
            name: site.map_or("", |(_, site)| site.trim_start_matches("in ")),
            reduces: false,
            folds: true,
        }
    }

    /// A context like `plain`'s, whose names not found in `scope` are
    /// looked for in `outer`.
    pub fn within(
        scope: &'a Scope,
        no_aggregates: &'static str,
        outer: Option<&'a dyn Outer>,
    ) -> ExprContext<'a> {
        ExprContext {
            outer,
            ..ExprContext::plain(scope, no_aggregates)
        }
    }

    /// The subqueries planned since the last call, in order.
    pub fn take_subqueries(&mut self) -> Vec<Subquery> {
        let planned = self.subqueries.as_mut().map(|s| &mut s.planned);
        planned.map(std::mem::take).unwrap_or_default()
    }

    /// Plans `e`, or fails if it nests deeper than [`RECURSION_LIMIT`]:
    /// the text as it is planned, and then, once, the whole planned
    /// expression, which may nest deeper than its text (`BETWEEN` is two
    /// comparisons under an AND, `NOT IN` a NOT over an OR of equalities,
    /// an operand may be cast). Each level is planned on a stack grown as
    /// it needs.
    pub fn plan(&mut self, e: &Expr) -> Result<Typed, String> {
        if self.depth >= RECURSION_LIMIT {
            return Err(recursion_limit_error());
        }
        self.depth += 1;
        let planned = grown(|| self.plan_within_limit(e));
        self.depth -= 1;
        match planned {
            Ok(t) if self.depth == 0 && t.expr.nesting() > RECURSION_LIMIT => {
                Err(recursion_limit_error())
            }
            // The whole expression, folded once as Materialize's optimizer
            // folds it: its answers depend on it (`eval::fold`). A text
            // folded into a literal stays a text, never a string literal
            // of unknown type (`'a'::text`, `upper('a')`).
            Ok(t) if self.depth == 0 && self.folds => {
                let string_literal = t.is_string_literal();
                let folded = Typed {
                    expr: t.expr.fold(),
                    ..t
                };
                Ok(match string_literal {
                    true => folded,
                    false => folded.typed(),
                })
            }
            planned => planned,
        }
    }

    fn plan_within_limit(&mut self, e: &Expr) -> Result<Typed, String> {
        if let Some(key) = self.key(e)? {
            return Ok(key);
        }
        match e {
            Expr::Identifier(id) => {
                let name = ident(id);
                if id.quote_style.is_none() && RESERVED.contains(&name.as_str()) {
                    return Err(unsupported(format!("reserved keyword {name} as a name")));
                }
                if is_function_keyword(&name) {
                    return match session_func::is_niladic_session_function(&name) {
                        true => self.niladic_session_call(&name),
                        false => Err(unsupported(format!("function {name}"))),
                    };
                }
                match self.column(None, &name) {
                    Err(e) if self.has_table(&name) => {
                        Err(unsupported(format!("whole-row reference {name}: {e}")))
                    }
                    Err(e) if e.ends_with("does not exist") => Err(not_a_column(name, e)),
                    other => other,
                }
            }
            Expr::CompoundIdentifier(parts) => match parts.as_slice() {
                [table, name] => self.column(Some(&ident(table)), &ident(name)),
                _ => Err(unsupported(format!("qualified column reference: {e}"))),
            },
            Expr::Value(v) => literal(&v.value),
            Expr::Nested(inner) => self.plan(inner),
            Expr::UnaryOp { op, expr } => self.unary(op, expr),
            Expr::BinaryOp { left, op, right } if like_operator(op).is_some() => {
                let (like, negated) = like_operator(op).expect("a LIKE operator");
                self.like(like, left, right, negated)
            }
            Expr::BinaryOp { left, op, right } if row::comparison(left, op, right).is_some() => {
                let (l, r) = row::comparison(left, op, right).expect("a row comparison");
                self.row_comparison(&l, op, &r)
            }
            Expr::BinaryOp { left, op, right } => {
                let name = match op {
                    BinaryOperator::And => "AND argument",
                    BinaryOperator::Or => "OR argument",
                    _ => self.name,
                };
                let outer = std::mem::replace(&mut self.name, name);
                let planned = operands(left, right, |e| self.plan(e));
                self.name = outer;
                let (l, r) = planned?;
                binary(op, l, r)
            }
            Expr::IsNull(inner) | Expr::IsNotNull(inner) => {
                let inner = self.plan(inner)?.expr;
                let expr = match (self.reduces, e) {
                    (true, Expr::IsNull(_)) => reduce::is_null(inner),
                    (true, _) => ScalarExpr::Unary(UnaryOp::Not, Box::new(reduce::is_null(inner))),
                    (false, Expr::IsNull(_)) => ScalarExpr::Unary(UnaryOp::IsNull, Box::new(inner)),
                    (false, _) => ScalarExpr::Unary(UnaryOp::IsNotNull, Box::new(inner)),
                };
                Ok(Typed::new(expr, ScalarType::Bool, false))
            }
            Expr::Function(f) if list::is_constructor(f) => self.list(f, None),
            Expr::Function(f) if f.over.is_some() => self.window(f),
            Expr::Function(f) if function_name(f) == "coalesce" => self.coalesce(f),
            Expr::Function(f) if session_func::is_session_function(&function_name(f)) => {
                self.session_call(f)
            }
            Expr::Function(f) if is_scalar_function(&function_name(f)) => self.function(f),
            Expr::Substring { .. }
            | Expr::Position { .. }
            | Expr::Trim { .. }
            | Expr::Ceil { .. }
            | Expr::Floor { .. }
            | Expr::Extract { .. } => self.special_call(e),
            Expr::Function(f) => {
                let call = aggregate_call(f)?;
                self.aggregate(&call)
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => self.case(operand.as_deref(), conditions, else_result.as_deref()),
            Expr::In {
                expr,
                target: InTarget::List(list),
                negated,
                global: false,
            } => self.in_list(expr, list, *negated),
            Expr::Between {
                expr,
                negated,
                low,
                high,
            } => self.between(expr, low, high, *negated),
            Expr::Like {
                negated,
                any: false,
                expr,
                pattern,
                escape_char: None,
            } => self.like(BinaryOp::Like, expr, pattern, *negated),
            Expr::ILike {
                negated,
                any: false,
                expr,
                pattern,
                escape_char: None,
            } => self.like(BinaryOp::ILike, expr, pattern, *negated),
            Expr::Cast {
                kind: CastKind::Cast | CastKind::DoubleColon,
                expr,
                data_type,
                format: None,
            } => self.cast(expr, data_type),
            Expr::Subquery(q) => self.scalar_subquery(e, q),
            Expr::Exists { subquery, negated } => self.exists(e, subquery, *negated),
            Expr::In {
                target: InTarget::Subquery(_),
                global: false,
                ..
            }
            | Expr::AnyOp { .. }
            | Expr::AllOp { .. } => self.quantified_form(e),
            Expr::Array(a) if a.named => self.array(&a.elem, None),
            Expr::CompoundFieldAccess { root, access_chain } => self.subscript(root, access_chain),
            other => time::form(self, other),
        }
    }

    // The forms below are planned outside `plan_within_limit`, each in a
    // frame of its own, so that the recursion's frame stays small enough
    // for RECURSION_LIMIT levels on a test thread's stack.

    #[inline(never)]
    fn coalesce(&mut self, f: &Function) -> Result<Typed, String> {
        let args = self.plan_all(plain_args(f)?)?;
        if args.is_empty() {
            return Err(unsupported("coalesce()"));
        }
        let args = unify(args, "coalesce")?;
        let typ = args[0].typ;
        let nullable = args.iter().all(|a| a.nullable);
        let expr = ScalarExpr::Coalesce(args.into_iter().map(|a| a.expr).collect());
        Ok(Typed {
            expr,
            typ,
            nullable,
        })
    }

    /// `x IN (a, b)` is `x = a OR x = b`, NULLs and all: one OR of the
    /// equalities side by side, however long the list (a chain of binary
    /// ORs would nest as deep as the list is long). Of a row constructor,
    /// each equality is expanded field by field (`row.rs`); NOT IN is the
    /// negated OR, which is the real system's AND of `<>`s in three values
    /// and in which error wins.
    #[inline(never)]
    fn in_list(&mut self, expr: &Expr, list: &[Expr], negated: bool) -> Result<Typed, String> {
        let mut equalities = Vec::with_capacity(list.len());
        for item in list {
            equalities.push(match row::fields(expr) {
                Some(_) => self.plan(&Expr::BinaryOp {
                    left: Box::new(expr.clone()),
                    op: BinaryOperator::Eq,
                    right: Box::new(item.clone()),
                })?,
                None => binary(&BinaryOperator::Eq, self.plan(expr)?, self.plan(item)?)?,
            });
        }
        let any = match equalities.len() {
            0 => return Err("IN needs at least one value".into()),
            1 => equalities.pop().expect("one"),
            _ => {
                let nullable = equalities.iter().any(|e| e.nullable);
                let operands = equalities.into_iter().map(|e| e.expr).collect();
                Typed::new(ScalarExpr::Or(operands), ScalarType::Bool, nullable)
            }
        };
        Ok(negate(any, negated))
    }

    /// `x BETWEEN a AND b` is `x >= a AND x <= b`.
    #[inline(never)]
    fn between(
        &mut self,
        expr: &Expr,
        low: &Expr,
        high: &Expr,
        negated: bool,
    ) -> Result<Typed, String> {
        if row::fields(expr).is_some() {
            return self.row_between(expr, low, high, negated);
        }
        let above = binary(&BinaryOperator::GtEq, self.plan(expr)?, self.plan(low)?)?;
        let below = binary(&BinaryOperator::LtEq, self.plan(expr)?, self.plan(high)?)?;
        let within = binary(&BinaryOperator::And, above, below)?;
        Ok(negate(within, negated))
    }

    /// `CAST(expr AS t)` and `expr::t`: a value of type `t`, even when it
    /// is a text literal (`'a'::text` is no longer of unknown type).
    #[inline(never)]
    fn cast(&mut self, expr: &Expr, data_type: &DataType) -> Result<Typed, String> {
        let to = scalar_type(data_type)?;
        if let Some(float) = cast_literal(expr, to) {
            return float;
        }
        // An `ARRAY[...]` takes its elements' type from a cast to an
        // array type (`ARRAY[]::int[]`, `ARRAY['1']::int[]`).
        let t = match (expr, to) {
            (Expr::Array(a), ScalarType::Array(e)) if a.named => self.array(&a.elem, Some(e))?,
            (Expr::Function(f), ScalarType::List(t)) if list::is_constructor(f) => {
                self.list(f, Some(t))?
            }
            _ => self.plan(expr)?,
        };
        let t = t.coerce(to)?;
        match t.typ {
            Some(from) if castable(from, to) => Ok(t.cast(to).typed()),
            // The real system's casts between these types are not all
            // PostgreSQL's, and only those known are implemented.
            _ => Err(unsupported(format!(
                "cast from {} to {}",
                t.type_name(),
                to.name()
            ))),
        }
    }

    fn plan_all<'e>(
        &mut self,
        exprs: impl IntoIterator<Item = &'e Expr>,
    ) -> Result<Vec<Typed>, String> {
        exprs.into_iter().map(|e| self.plan(e)).collect()
    }

    /// A boolean condition, split into its conjuncts.
    pub fn predicate(&mut self, e: &Expr, clause: &'static str) -> Result<Vec<ScalarExpr>, String> {
        self.predicate_with(e, clause, |e| e)
    }

    /// [`predicate`](Self::predicate), with an error in planning `e` (not
    /// the clause's own type error) passed through `wrap`.
    pub fn predicate_with(
        &mut self,
        e: &Expr,
        clause: &'static str,
        wrap: fn(String) -> String,
    ) -> Result<Vec<ScalarExpr>, String> {
        self.name = clause;
        let reduces = std::mem::replace(&mut self.reduces, true);
        let planned = self.plan(e);
        self.reduces = reduces;
        let t = planned.map_err(wrap)?.expect(ScalarType::Bool, |t| {
            format!("{clause} must have type boolean, not type {t}")
        })?;
        let mut out = vec![];
        conjuncts(t.expr, &mut out);
        Ok(out)
    }
}

/// PostgreSQL's reserved keywords: the real system's parser refuses them
/// as names unless quoted, where sqlparser takes several for one.
const RESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "both",
    "case",
    "cast",
    "check",
    "collate",
    "column",
    "constraint",
    "create",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "false",
    "fetch",
    "for",
    "foreign",
    "from",
    "grant",
    "group",
    "having",
    "in",
    "initially",
    "intersect",
    "into",
    "lateral",
    "leading",
    "limit",
    "not",
    "null",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "placing",
    "primary",
    "references",
    "returning",
    "select",
    "some",
    "symmetric",
    "table",
    "then",
    "to",
    "trailing",
    "true",
    "union",
    "unique",
    "using",
    "variadic",
    "when",
    "where",
    "window",
    "with",
];

/// A function call's plain positional arguments.
fn plain_args(f: &Function) -> Result<Vec<&Expr>, String> {
    let FunctionArguments::List(list) = &f.args else {
        return Err(unsupported(format!("function call form: {f}")));
    };
    let plain = f.filter.is_none()
        && f.over.is_none()
        && f.within_group.is_empty()
        && f.null_treatment.is_none()
        && list.duplicate_treatment.is_none()
        && list.clauses.is_empty();
    list.args
        .iter()
        .map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if plain => Ok(e),
            _ => Err(unsupported(format!("function call form: {f}"))),
        })
        .collect()
}

fn conjuncts(e: ScalarExpr, out: &mut Vec<ScalarExpr>) {
    match e {
        ScalarExpr::Binary(BinaryOp::And, l, r) => {
            conjuncts(*l, out);
            conjuncts(*r, out);
        }
        e => out.push(e),
    }
}

fn function_name(f: &Function) -> String {
    match f.name.0.as_slice() {
        [part] => part.as_ident().map_or(f.name.to_string(), ident),
        _ => f.name.to_string(),
    }
}

/// `l = r`, typed as SQL's `=` types it (a USING join's columns).
pub(super) fn equality(l: Typed, r: Typed) -> Result<Typed, String> {
    binary(&BinaryOperator::Eq, l, r)
}

/// An UPDATE's or DELETE's WHERE clause over `scope`, split into its
/// conjuncts.
pub(super) fn where_clause(scope: &Scope, e: &Expr) -> Result<Vec<ScalarExpr>, String> {
    let mut cx = ExprContext::plain(scope, "aggregate functions are not allowed in WHERE clause");
    cx.site = "in UPDATE and DELETE";
    cx.predicate(e, "WHERE clause")
}
