//! Scalar expressions: names resolved in a scope, types checked (NULL and
//! string literals have no type of their own until their context gives them
//! one, as in PostgreSQL), and aggregates planned against a GROUP BY.

use sqlparser::ast::{
    BinaryOperator, CaseWhen, CastKind, DataType, DuplicateTreatment, Expr, Function, FunctionArg,
    FunctionArgExpr, FunctionArguments, InTarget, UnaryOperator, Value,
};

use super::ident;
use crate::eval::{cast, castable, parse_as};
use crate::plan::{Aggregate, AggregateFunc, BinaryOp, ScalarExpr, UnaryOp};
use crate::repr::{Column, Datum, ScalarType};

/// A column visible to expressions, with the table name or alias qualifying it.
#[derive(Clone, Debug)]
pub(super) struct ScopeItem {
    pub table: String,
    pub column: Column,
}

/// The columns an expression can name, in the order of the row it sees.
#[derive(Clone, Debug, Default)]
pub(super) struct Scope {
    pub items: Vec<ScopeItem>,
}

impl Scope {
    pub fn relation(table: &str, columns: Vec<Column>) -> Scope {
        let items = columns
            .into_iter()
            .map(|column| ScopeItem {
                table: table.to_string(),
                column,
            })
            .collect();
        Scope { items }
    }

    pub fn has_table(&self, table: &str) -> bool {
        self.items.iter().any(|item| item.table == table)
    }

    /// The position of `[table.]name`.
    pub fn resolve(&self, table: Option<&str>, name: &str) -> Result<usize, String> {
        if let Some(table) = table.filter(|t| !self.has_table(t)) {
            return Err(format!("missing FROM-clause entry for table \"{table}\""));
        }
        let mut found =
            self.items.iter().enumerate().filter(|(_, item)| {
                item.column.name == name && table.is_none_or(|t| item.table == t)
            });
        let shown = table.map_or(name.to_string(), |t| format!("{t}.{name}"));
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Ok(i),
            (None, _) => Err(format!("column \"{shown}\" does not exist")),
            (Some(_), Some(_)) => Err(format!("column reference \"{shown}\" is ambiguous")),
        }
    }
}

/// A planned expression with its type (`None`: NULL, not yet typed) and
/// whether it can be NULL.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Typed {
    pub expr: ScalarExpr,
    pub typ: Option<ScalarType>,
    pub nullable: bool,
}

impl Typed {
    fn new(expr: ScalarExpr, typ: ScalarType, nullable: bool) -> Typed {
        let typ = Some(typ);
        Typed {
            expr,
            typ,
            nullable,
        }
    }

    /// `expr`, of column `c`'s type.
    pub fn of_column(expr: ScalarExpr, c: &Column) -> Typed {
        Typed::new(expr, c.typ, c.nullable)
    }

    pub fn type_name(&self) -> &'static str {
        self.typ.map_or("unknown", ScalarType::name)
    }

    /// The output column this expression produces; a lone NULL is text.
    pub fn column(&self, name: String) -> Column {
        let typ = self.typ.unwrap_or(ScalarType::Text);
        let nullable = self.nullable;
        Column {
            name,
            typ,
            nullable,
        }
    }

    /// A string literal, which reads as a value of whatever type its context wants.
    fn is_string_literal(&self) -> bool {
        matches!(self.expr, ScalarExpr::Literal(Datum::Text(_)))
    }

    /// Gives an operand the type `to` where PostgreSQL would implicitly:
    /// NULL, a string literal (parsed as a `to`, failing as the real system
    /// does), and an `integer` widened to a `bigint` (a literal folded at
    /// once). Anything else comes back unchanged, for the caller to check.
    pub fn coerce(self, to: ScalarType) -> Result<Typed, String> {
        match (&self.expr, self.typ) {
            (_, None) => Ok(Typed {
                typ: Some(to),
                ..self
            }),
            (ScalarExpr::Literal(Datum::Text(s)), Some(ScalarType::Text)) => {
                Ok(Typed::new(ScalarExpr::Literal(parse_as(s, to)?), to, false))
            }
            (_, Some(ScalarType::Int32)) if to == ScalarType::Int64 => Ok(self.cast(to)),
            _ => Ok(self),
        }
    }

    /// `self` converted to `to`; a literal is converted now when it can be.
    pub fn cast(self, to: ScalarType) -> Typed {
        if self.typ == Some(to) {
            return self;
        }
        if let ScalarExpr::Literal(d) = &self.expr {
            if let Ok(d) = cast(d.clone(), to) {
                return Typed::new(ScalarExpr::Literal(d), to, self.nullable);
            }
        }
        let expr = ScalarExpr::Cast(to, Box::new(self.expr));
        Typed::new(expr, to, self.nullable)
    }

    /// `self` as an integer of either width, or the error `mismatch(type name)`.
    pub fn expect_integer(self, mismatch: impl FnOnce(&str) -> String) -> Result<Typed, String> {
        let t = self.coerce(ScalarType::Int32)?;
        match t.typ.is_some_and(ScalarType::is_integer) {
            true => Ok(t),
            false => Err(mismatch(t.type_name())),
        }
    }

    /// `self` as a `to`, or the error `mismatch(type name)`.
    pub fn expect(
        self,
        to: ScalarType,
        mismatch: impl FnOnce(&str) -> String,
    ) -> Result<Typed, String> {
        let t = self.coerce(to)?;
        match t.typ == Some(to) {
            true => Ok(t),
            false => Err(mismatch(t.type_name())),
        }
    }
}

/// The type a type name in SQL text means.
pub(super) fn scalar_type(t: &DataType) -> Result<ScalarType, String> {
    match t {
        DataType::Int(_) | DataType::Integer(_) | DataType::Int4(_) => Ok(ScalarType::Int32),
        DataType::BigInt(_) | DataType::Int8(_) => Ok(ScalarType::Int64),
        DataType::Text
        | DataType::Varchar(_)
        | DataType::CharacterVarying(_)
        | DataType::String(_) => Ok(ScalarType::Text),
        DataType::Bool | DataType::Boolean => Ok(ScalarType::Bool),
        DataType::Custom(name, _) => Err(format!("type \"{name}\" does not exist")),
        _ => Err(format!("type not supported: {t}")),
    }
}

/// The GROUP BY of the query being planned. Under it, expressions are over
/// the reduce's output (keys, then aggregates): an expression equal to a key
/// is that key's column, an aggregate call is its aggregate's column.
#[derive(Debug, Default)]
pub(super) struct Grouping {
    /// Over the reduce's input.
    pub keys: Vec<Typed>,
    pub aggregates: Vec<Aggregate>,
}

/// How deep an expression may nest. Every later stage (rendering,
/// evaluation on a worker thread, dropping the plan) recurses over the
/// planned expression, so a bound here keeps a chain of thousands of `OR`s
/// or `+`s from overflowing a worker's stack. Chains of 1000 were measured
/// to run in a debug build; half of that leaves room.
pub(super) const RECURSION_LIMIT: usize = 512;

/// The real system's text for a too-deep expression (`mz_ore`'s
/// `RecursionLimitError`).
fn recursion_limit_error() -> String {
    format!("exceeded recursion limit of {RECURSION_LIMIT}")
}

/// Where an expression is planned.
pub(super) struct ExprContext<'a> {
    pub scope: &'a Scope,
    /// The error for an aggregate call, when there is no grouping.
    pub no_aggregates: &'static str,
    pub grouping: Option<&'a mut Grouping>,
    /// How many `plan` calls are under way: the nesting so far.
    depth: usize,
}

impl<'a> ExprContext<'a> {
    pub fn plain(scope: &'a Scope, no_aggregates: &'static str) -> ExprContext<'a> {
        ExprContext {
            scope,
            no_aggregates,
            grouping: None,
            depth: 0,
        }
    }

    /// Plans `e`, or fails if it nests deeper than [`RECURSION_LIMIT`].
    pub fn plan(&mut self, e: &Expr) -> Result<Typed, String> {
        if self.depth >= RECURSION_LIMIT {
            return Err(recursion_limit_error());
        }
        self.depth += 1;
        let planned = self.plan_within_limit(e);
        self.depth -= 1;
        planned
    }

    fn plan_within_limit(&mut self, e: &Expr) -> Result<Typed, String> {
        if let Some(key) = self.key(e) {
            return Ok(key);
        }
        match e {
            Expr::Identifier(name) => self.column(None, &ident(name)),
            Expr::CompoundIdentifier(parts) => match parts.as_slice() {
                [table, name] => self.column(Some(&ident(table)), &ident(name)),
                _ => Err(format!("column reference not supported: {e}")),
            },
            Expr::Value(v) => literal(&v.value),
            Expr::Nested(inner) => self.plan(inner),
            Expr::UnaryOp { op, expr } => self.unary(op, expr),
            Expr::BinaryOp { left, op, right } => {
                let (l, r) = (self.plan(left)?, self.plan(right)?);
                binary(op, l, r)
            }
            Expr::IsNull(inner) | Expr::IsNotNull(inner) => {
                let op = match e {
                    Expr::IsNull(_) => UnaryOp::IsNull,
                    _ => UnaryOp::IsNotNull,
                };
                let inner = self.plan(inner)?.expr;
                Ok(Typed::new(
                    ScalarExpr::Unary(op, Box::new(inner)),
                    ScalarType::Bool,
                    false,
                ))
            }
            Expr::Function(f) if function_name(f) == "coalesce" => self.coalesce(f),
            Expr::Function(f) => {
                let (func, arg, distinct) = aggregate_call(f)?;
                self.aggregate(func, arg, distinct)
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
            Expr::Subquery(_) | Expr::Exists { .. } => Err("subqueries are not supported".into()),
            _ => Err(format!("expression not supported: {e}")),
        }
    }

    // The forms below are planned outside `plan_within_limit`, each in a
    // frame of its own, so that the recursion's frame stays small enough
    // for RECURSION_LIMIT levels on a test thread's stack.

    #[inline(never)]
    fn coalesce(&mut self, f: &Function) -> Result<Typed, String> {
        let args = self.plan_all(plain_args(f)?)?;
        if args.is_empty() {
            return Err("function coalesce() does not exist".into());
        }
        let args = unify(args, "COALESCE")?;
        let typ = args[0].typ;
        let nullable = args.iter().all(|a| a.nullable);
        let expr = ScalarExpr::Coalesce(args.into_iter().map(|a| a.expr).collect());
        Ok(Typed {
            expr,
            typ,
            nullable,
        })
    }

    /// `x IN (a, b)` is `x = a OR x = b`, NULLs and all.
    #[inline(never)]
    fn in_list(&mut self, expr: &Expr, list: &[Expr], negated: bool) -> Result<Typed, String> {
        let mut any: Option<Typed> = None;
        for item in list {
            let eq = binary(&BinaryOperator::Eq, self.plan(expr)?, self.plan(item)?)?;
            any = Some(match any {
                None => eq,
                Some(any) => binary(&BinaryOperator::Or, any, eq)?,
            });
        }
        let any = any.ok_or("IN needs at least one value")?;
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
        let above = binary(&BinaryOperator::GtEq, self.plan(expr)?, self.plan(low)?)?;
        let below = binary(&BinaryOperator::LtEq, self.plan(expr)?, self.plan(high)?)?;
        let within = binary(&BinaryOperator::And, above, below)?;
        Ok(negate(within, negated))
    }

    #[inline(never)]
    fn like(
        &mut self,
        op: BinaryOp,
        expr: &Expr,
        pattern: &Expr,
        negated: bool,
    ) -> Result<Typed, String> {
        let text = self.plan(expr)?.coerce(ScalarType::Text)?;
        let pattern = self.plan(pattern)?.coerce(ScalarType::Text)?;
        if text.typ != Some(ScalarType::Text) || pattern.typ != Some(ScalarType::Text) {
            let name = if op == BinaryOp::Like { "~~" } else { "~~*" };
            return Err(format!(
                "operator does not exist: {} {name} {}",
                text.type_name(),
                pattern.type_name()
            ));
        }
        let nullable = text.nullable || pattern.nullable;
        let like = ScalarExpr::Binary(op, Box::new(text.expr), Box::new(pattern.expr));
        Ok(negate(
            Typed::new(like, ScalarType::Bool, nullable),
            negated,
        ))
    }

    /// `CAST(expr AS t)` and `expr::t`.
    #[inline(never)]
    fn cast(&mut self, expr: &Expr, data_type: &DataType) -> Result<Typed, String> {
        let to = scalar_type(data_type)?;
        let t = self.plan(expr)?.coerce(to)?;
        match t.typ {
            Some(from) if castable(from, to) => Ok(t.cast(to)),
            _ => Err(format!(
                "CAST does not support casting from {} to {}",
                t.type_name(),
                to.name()
            )),
        }
    }

    fn plan_all<'e>(
        &mut self,
        exprs: impl IntoIterator<Item = &'e Expr>,
    ) -> Result<Vec<Typed>, String> {
        exprs.into_iter().map(|e| self.plan(e)).collect()
    }

    /// `CASE [operand] WHEN ... THEN ... [ELSE ...] END` as nested `If`s; the
    /// operand form compares the operand with each WHEN value.
    #[inline(never)]
    fn case(
        &mut self,
        operand: Option<&Expr>,
        conditions: &[CaseWhen],
        else_result: Option<&Expr>,
    ) -> Result<Typed, String> {
        let mut tests = vec![];
        for when in conditions {
            let test = match operand {
                Some(operand) => binary(
                    &BinaryOperator::Eq,
                    self.plan(operand)?,
                    self.plan(&when.condition)?,
                )?,
                None => self.plan(&when.condition)?,
            };
            let test = test.expect(ScalarType::Bool, |t| {
                format!("argument of CASE/WHEN must be type boolean, not type {t}")
            })?;
            tests.push(test.expr);
        }
        // ELSE first: PostgreSQL resolves the type in that order, which its
        // error text shows.
        let els = match else_result {
            Some(e) => self.plan(e)?,
            None => literal(&Value::Null)?,
        };
        let mut results = vec![els];
        results.extend(self.plan_all(conditions.iter().map(|w| &w.result))?);
        let results = unify(results, "CASE")?;
        let typ = results[0].typ;
        let nullable = results.iter().any(|r| r.nullable);
        let mut results = results.into_iter().map(|r| r.expr);
        let mut expr = results.next().expect("ELSE");
        for (cond, then) in tests.into_iter().zip(results).rev() {
            expr = ScalarExpr::If {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(expr),
            };
        }
        Ok(Typed {
            expr,
            typ,
            nullable,
        })
    }

    /// A boolean condition, split into its conjuncts.
    pub fn predicate(&mut self, e: &Expr, clause: &str) -> Result<Vec<ScalarExpr>, String> {
        let t = self.plan(e)?.expect(ScalarType::Bool, |t| {
            format!("{clause} must have type boolean, not type {t}")
        })?;
        let mut out = vec![];
        conjuncts(t.expr, &mut out);
        Ok(out)
    }

    /// The scope's column `i`; under GROUP BY it must be a key.
    pub fn column_at(&self, i: usize) -> Result<Typed, String> {
        let item = &self.scope.items[i];
        let typed = Typed::new(ScalarExpr::Column(i), item.column.typ, item.column.nullable);
        let Some(grouping) = &self.grouping else {
            return Ok(typed);
        };
        let k = grouping.keys.iter().position(|k| k.expr == typed.expr);
        k.map(|k| Typed {
            expr: ScalarExpr::Column(k),
            ..typed
        })
        .ok_or_else(|| {
            format!(
                "column \"{}.{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                item.table, item.column.name
            )
        })
    }

    fn column(&self, table: Option<&str>, name: &str) -> Result<Typed, String> {
        self.column_at(self.scope.resolve(table, name)?)
    }

    /// Under GROUP BY: `e` as a key column, if it is equal to a key.
    fn key(&self, e: &Expr) -> Option<Typed> {
        let grouping = self.grouping.as_ref()?;
        let planned = ExprContext::plain(self.scope, "").plan(e).ok()?;
        let k = grouping.keys.iter().position(|k| k.expr == planned.expr)?;
        Some(Typed {
            expr: ScalarExpr::Column(k),
            ..grouping.keys[k].clone()
        })
    }

    fn unary(&mut self, op: &UnaryOperator, e: &Expr) -> Result<Typed, String> {
        let int = |t: &str| format!("operator does not exist: {op} {t}");
        match op {
            // `-5` is a literal, so that `-9223372036854775808` is one too.
            UnaryOperator::Minus => match e {
                Expr::Value(v) if matches!(v.value, Value::Number(..)) => {
                    int_literal(&format!("-{}", v.value))
                }
                _ => {
                    let t = self.plan(e)?.expect_integer(int)?;
                    let neg = ScalarExpr::Unary(UnaryOp::Neg, Box::new(t.expr));
                    Ok(Typed { expr: neg, ..t })
                }
            },
            UnaryOperator::Plus => self.plan(e)?.expect_integer(int),
            UnaryOperator::Not => {
                let t = self.plan(e)?.expect(ScalarType::Bool, |t| {
                    format!("argument of NOT must be type boolean, not type {t}")
                })?;
                let not = ScalarExpr::Unary(UnaryOp::Not, Box::new(t.expr));
                Ok(Typed::new(not, ScalarType::Bool, t.nullable))
            }
            _ => Err(format!("operator not supported: {op}")),
        }
    }

    fn aggregate(
        &mut self,
        func: AggregateFunc,
        arg: Option<&Expr>,
        distinct: bool,
    ) -> Result<Typed, String> {
        let Some(grouping) = self.grouping.as_deref_mut() else {
            return Err(self.no_aggregates.into());
        };
        let mut inner = ExprContext::plain(self.scope, "aggregate function calls cannot be nested");
        let arg = match arg {
            Some(e) => inner.plan(e)?,
            None => literal(&Value::Boolean(true))?,
        };
        let (arg, typ, nullable) = match func {
            AggregateFunc::CountAll | AggregateFunc::Count => (arg, Some(ScalarType::Int64), false),
            // PostgreSQL: sum(integer) is a bigint (sum(bigint) is a numeric
            // there, a bigint here: README, "SQL").
            AggregateFunc::Sum => {
                let arg = arg.expect_integer(|t| format!("function sum({t}) does not exist"))?;
                (arg, Some(ScalarType::Int64), true)
            }
            AggregateFunc::Avg => {
                let arg = arg.expect_integer(|t| format!("function avg({t}) does not exist"))?;
                (arg, Some(ScalarType::Numeric), true)
            }
            AggregateFunc::Min | AggregateFunc::Max => {
                let typ = arg.typ;
                (arg, typ, true)
            }
        };
        let aggregate = Aggregate {
            func,
            expr: arg.expr,
            distinct,
        };
        let aggregates = &mut grouping.aggregates;
        let j = aggregates
            .iter()
            .position(|a| *a == aggregate)
            .unwrap_or_else(|| {
                aggregates.push(aggregate);
                aggregates.len() - 1
            });
        Ok(Typed {
            expr: ScalarExpr::Column(grouping.keys.len() + j),
            typ,
            nullable,
        })
    }
}

fn literal(v: &Value) -> Result<Typed, String> {
    let (datum, typ) = match v {
        Value::Number(n, _) => return int_literal(n),
        Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => {
            (Datum::Text(s.clone()), Some(ScalarType::Text))
        }
        Value::Boolean(b) => (Datum::Bool(*b), Some(ScalarType::Bool)),
        Value::Null => (Datum::Null, None),
        _ => return Err(format!("literal not supported: {v}")),
    };
    let nullable = datum == Datum::Null;
    Ok(Typed {
        expr: ScalarExpr::Literal(datum),
        typ,
        nullable,
    })
}

/// An integer literal is an `integer` if it fits one, else a `bigint`, as
/// in PostgreSQL.
fn int_literal(n: &str) -> Result<Typed, String> {
    if n.contains(['.', 'e', 'E']) {
        return Err(format!("numeric literals are not supported: {n}"));
    }
    let (datum, typ) = match n.parse::<i32>() {
        Ok(i) => (Datum::Int32(i), ScalarType::Int32),
        Err(_) => n
            .parse()
            .map(|i| (Datum::Int64(i), ScalarType::Int64))
            .map_err(|_| format!("integer literal out of range: {n}"))?,
    };
    Ok(Typed::new(ScalarExpr::Literal(datum), typ, false))
}

/// The wider of two operands' integer types (`integer` when neither has one).
fn integer_type(l: &Typed, r: &Typed) -> ScalarType {
    match (l.typ, r.typ) {
        (Some(ScalarType::Int64), _) | (_, Some(ScalarType::Int64)) => ScalarType::Int64,
        _ => ScalarType::Int32,
    }
}

fn binary(op: &BinaryOperator, l: Typed, r: Typed) -> Result<Typed, String> {
    use BinaryOperator as B;
    let plan_op = match op {
        B::Plus => BinaryOp::Add,
        B::Minus => BinaryOp::Sub,
        B::Multiply => BinaryOp::Mul,
        B::Divide => BinaryOp::Div,
        B::Modulo => BinaryOp::Mod,
        B::Eq => BinaryOp::Eq,
        B::NotEq => BinaryOp::NotEq,
        B::Lt => BinaryOp::Lt,
        B::LtEq => BinaryOp::LtEq,
        B::Gt => BinaryOp::Gt,
        B::GtEq => BinaryOp::GtEq,
        B::And => BinaryOp::And,
        B::Or => BinaryOp::Or,
        _ => return Err(format!("operator not supported: {op}")),
    };
    let no_operator = |l: &Typed, r: &Typed| {
        format!(
            "operator does not exist: {} {op} {}",
            l.type_name(),
            r.type_name()
        )
    };
    let (l, r, typ) = match plan_op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            let to = integer_type(&l, &r);
            let (l, r) = (l.coerce(to)?, r.coerce(to)?);
            if l.typ != Some(to) || r.typ != Some(to) {
                return Err(no_operator(&l, &r));
            }
            (l, r, to)
        }
        BinaryOp::And | BinaryOp::Or => {
            let not_bool = |t: &str| format!("argument of {op} must be type boolean, not type {t}");
            let l = l.expect(ScalarType::Bool, not_bool)?;
            let r = r.expect(ScalarType::Bool, not_bool)?;
            (l, r, ScalarType::Bool)
        }
        _ => {
            // A string literal takes the other side's type.
            let target = if l.is_string_literal() {
                r.typ.or(l.typ)
            } else {
                l.typ.or(r.typ)
            };
            let target = match target {
                Some(t) if t.is_integer() => Some(integer_type(&l, &r)),
                t => t,
            };
            let (l, r) = match target {
                Some(t) => (l.coerce(t)?, r.coerce(t)?),
                None => (l, r),
            };
            if l.typ != r.typ {
                return Err(no_operator(&l, &r));
            }
            (l, r, ScalarType::Bool)
        }
    };
    let nullable = l.nullable || r.nullable;
    let expr = ScalarExpr::Binary(plan_op, Box::new(l.expr), Box::new(r.expr));
    Ok(Typed::new(expr, typ, nullable))
}

/// `NOT t` when `negated`.
fn negate(t: Typed, negated: bool) -> Typed {
    match negated {
        false => t,
        true => Typed {
            expr: ScalarExpr::Unary(UnaryOp::Not, Box::new(t.expr)),
            ..t
        },
    }
}

/// Gives the values of a CASE or COALESCE one type, as PostgreSQL resolves
/// them: integers widen to the widest, NULL and string literals take the
/// others' type (text when all are), and anything else must agree.
fn unify(values: Vec<Typed>, what: &str) -> Result<Vec<Typed>, String> {
    let typed = || {
        values
            .iter()
            .filter_map(|v| v.typ.filter(|_| !v.is_string_literal()))
    };
    let target = match typed().next() {
        None => ScalarType::Text,
        Some(t) if typed().all(ScalarType::is_integer) && t.is_integer() => {
            if typed().any(|t| t == ScalarType::Int64) {
                ScalarType::Int64
            } else {
                ScalarType::Int32
            }
        }
        Some(t) => t,
    };
    let values = values
        .into_iter()
        .map(|v| v.coerce(target))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(other) = values.iter().find(|v| v.typ != Some(target)) {
        return Err(format!(
            "{what} types {} and {} cannot be matched",
            target.name(),
            other.type_name()
        ));
    }
    Ok(values)
}

/// A function call's plain positional arguments.
fn plain_args(f: &Function) -> Result<Vec<&Expr>, String> {
    let FunctionArguments::List(list) = &f.args else {
        return Err(format!("function call not supported: {f}"));
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
            _ => Err(format!("function call not supported: {f}")),
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

/// Checks an aggregate call: its function, its argument (`None` for `*`)
/// and whether it is over distinct values (`count(DISTINCT x)`).
fn aggregate_call(f: &Function) -> Result<(AggregateFunc, Option<&Expr>, bool), String> {
    let name = function_name(f);
    let func = match name.as_str() {
        "count" => AggregateFunc::Count,
        "sum" => AggregateFunc::Sum,
        "min" => AggregateFunc::Min,
        "max" => AggregateFunc::Max,
        "avg" => AggregateFunc::Avg,
        _ => return Err(format!("function {name} does not exist")),
    };
    if f.over.is_some() {
        return Err("window functions are not supported".into());
    }
    let FunctionArguments::List(list) = &f.args else {
        return Err(format!("function call not supported: {f}"));
    };
    let distinct = list.duplicate_treatment == Some(DuplicateTreatment::Distinct);
    let plain = f.filter.is_none()
        && f.within_group.is_empty()
        && f.null_treatment.is_none()
        && matches!(f.parameters, FunctionArguments::None)
        && list.clauses.is_empty();
    match (plain, func, list.args.as_slice()) {
        (false, ..) => Err(format!("function call not supported: {f}")),
        (_, AggregateFunc::Count, [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)])
            if !distinct =>
        {
            Ok((AggregateFunc::CountAll, None, false))
        }
        (_, _, [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))]) => Ok((func, Some(e), distinct)),
        _ => Err(format!("function {name} takes exactly one argument")),
    }
}

/// Whether `e` calls an aggregate (outside of any subquery).
pub(super) fn contains_aggregate(e: &Expr) -> bool {
    contains_aggregate_within(e, 0)
}

/// As `contains_aggregate`, looking no deeper than [`RECURSION_LIMIT`]
/// (planning such an expression fails anyway).
fn contains_aggregate_within(e: &Expr, depth: usize) -> bool {
    let contains = |e: &Expr| depth < RECURSION_LIMIT && contains_aggregate_within(e, depth + 1);
    match e {
        Expr::Function(f) => {
            aggregate_call(f).is_ok()
                || matches!(&f.args, FunctionArguments::List(list) if list.args.iter().any(|a| {
                    matches!(a, FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) if contains(e))
                }))
        }
        Expr::BinaryOp { left, right, .. } => contains(left) || contains(right),
        Expr::UnaryOp { expr, .. }
        | Expr::Nested(expr)
        | Expr::IsNull(expr)
        | Expr::IsNotNull(expr)
        | Expr::Cast { expr, .. } => contains(expr),
        Expr::In {
            expr,
            target: InTarget::List(list),
            ..
        } => contains(expr) || list.iter().any(contains),
        Expr::Between {
            expr, low, high, ..
        } => contains(expr) || contains(low) || contains(high),
        Expr::Like { expr, pattern, .. } | Expr::ILike { expr, pattern, .. } => {
            contains(expr) || contains(pattern)
        }
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            operand.as_deref().is_some_and(contains)
                || else_result.as_deref().is_some_and(contains)
                || conditions
                    .iter()
                    .any(|w| contains(&w.condition) || contains(&w.result))
        }
        _ => false,
    }
}

/// The name of the output column `e` produces when it has no alias.
pub(super) fn output_name(e: &Expr) -> String {
    match e {
        Expr::Identifier(name) => ident(name),
        Expr::CompoundIdentifier(parts) => parts.last().map_or("?column?".into(), ident),
        Expr::Nested(inner) => output_name(inner),
        Expr::Function(f) if aggregate_call(f).is_ok() || function_name(f) == "coalesce" => {
            function_name(f)
        }
        Expr::Case { .. } => "case".into(),
        // PostgreSQL names a cast of a column after the column, else after
        // the type's internal name.
        Expr::Cast {
            expr, data_type, ..
        } => match (&**expr, scalar_type(data_type)) {
            (Expr::Identifier(_) | Expr::CompoundIdentifier(_), _) => output_name(expr),
            (_, Ok(t)) => t.internal_name().into(),
            (_, Err(_)) => "?column?".into(),
        },
        _ => "?column?".into(),
    }
}

/// A WHERE clause over `scope`, split into its conjuncts.
pub(super) fn where_clause(scope: &Scope, e: &Expr) -> Result<Vec<ScalarExpr>, String> {
    ExprContext::plain(scope, "aggregate functions are not allowed in WHERE clause")
        .predicate(e, "WHERE clause")
}
