//! Expressions planned with their types: `Typed`, how a NULL or a string
//! literal takes the type its context gives it (as in PostgreSQL), the
//! types of literals and operators, and the type a SQL type name means.

use std::borrow::Cow;

use sqlparser::ast::{BinaryOperator, DataType, Expr, Value};

use super::chars::{chars_type, compared_as, implicit, like_operand, unified, Operand};
use super::float::{
    common_float, float_literal, float_type, implicit_to_float, numeric_literal, widest_float,
};
use super::numeric::{common_numeric, is_numeric, literal_value, numeric_type};
use crate::eval::{cast, parse_as};
use crate::plan::{BinaryOp, ScalarExpr, UnaryOp};
use crate::repr::{unsupported, Column, Datum, ScalarType};
pub use time::is_time;
use time::{time_type, Operands};
pub use unsigned::bit_not;
use unsigned::unsigned_type;

pub mod array;
mod interval;
pub mod jsonb;
pub mod list;
mod of_day;
pub mod range;
pub mod text;
mod time;
mod unsigned;

/// A planned expression with its type (`None`: NULL, not yet typed) and
/// whether it can be NULL.
#[derive(Clone, Debug, PartialEq)]
pub struct Typed {
    pub expr: ScalarExpr,
    pub typ: Option<ScalarType>,
    pub nullable: bool,
}

impl Typed {
    pub fn new(expr: ScalarExpr, typ: ScalarType, nullable: bool) -> Typed {
        let typ = Some(typ);
        Typed {
            expr,
            typ,
            nullable,
        }
    }

    /// `expr`, of column `c`'s type (a `numeric(p, s)` read is a
    /// `numeric`: its scale binds only what is assigned to it).
    pub fn of_column(expr: ScalarExpr, c: &Column) -> Typed {
        let typ = match c.typ {
            ScalarType::NumericScale(_) => ScalarType::Numeric,
            t => t,
        };
        Typed::new(expr, typ, c.nullable)
    }

    pub fn type_name(&self) -> Cow<'static, str> {
        self.typ.map_or("unknown".into(), ScalarType::name)
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

    /// A NULL or a string literal: of type `unknown` until its context
    /// gives it one, so a function with overloads of several types cannot
    /// tell which is meant.
    pub fn is_unknown(&self) -> bool {
        self.typ.is_none() || self.is_string_literal()
    }

    /// `self`, never taken for a string literal of unknown type: a cast
    /// folded into a text literal is of type text.
    pub fn typed(self) -> Typed {
        match self.is_string_literal() {
            true => Typed {
                expr: ScalarExpr::Cast(ScalarType::Text, Box::new(self.expr)),
                ..self
            },
            false => self,
        }
    }

    /// A string literal, which reads as a value of whatever type its context
    /// wants (a literal of a `char` or `varchar`, made by a cast, is not one).
    pub fn is_string_literal(&self) -> bool {
        matches!(self.expr, ScalarExpr::Literal(Datum::Text(_)))
            && self.typ == Some(ScalarType::Text)
    }

    /// Gives an operand the type `to` where PostgreSQL would implicitly:
    /// NULL, a string literal (parsed as a `to`, failing as the real system
    /// does), and an integer widened to a wider one (a literal folded at
    /// once). Anything else comes back unchanged, for the caller to check.
    /// A string literal takes a `char(n)` or `varchar(n)` without its
    /// length, as the real system's does: the caller casts it on.
    pub fn coerce(self, to: ScalarType) -> Result<Typed, String> {
        match (&self.expr, self.typ) {
            (_, None) => Ok(Typed {
                typ: Some(to),
                ..self
            }),
            (ScalarExpr::Literal(Datum::Text(s)), Some(ScalarType::Text)) => {
                let to = to.without_length();
                Ok(Typed::new(ScalarExpr::Literal(parse_as(s, to)?), to, false))
            }
            (_, Some(ScalarType::Int32)) if to == ScalarType::Int64 => Ok(self.cast(to)),
            (_, Some(ScalarType::Int16)) if to.is_integer() => Ok(self.cast(to)),
            (_, Some(from)) if from.is_integer() && to == ScalarType::Numeric => Ok(self.cast(to)),
            (_, Some(from)) if implicit_to_float(from, to) => Ok(self.cast(to)),
            _ => Ok(self),
        }
    }

    /// The type the string rules of `chars` see: none for NULL or a
    /// string literal.
    fn operand(&self) -> Operand {
        self.typ.filter(|_| !self.is_unknown())
    }

    /// `self`, a string, as a `to` by an implicit cast (`chars::implicit`).
    fn implicit(self, to: ScalarType) -> Result<Typed, String> {
        match self.operand() {
            None => self.coerce(to),
            Some(from) => Ok(Typed {
                expr: implicit(self.expr, from, to),
                typ: Some(to),
                ..self
            }),
        }
    }

    /// What `LIKE` reads of `self`: a `char` (blank padded when `padded`)
    /// or `varchar` as a `text`, anything else as it is.
    pub fn like_operand(self, padded: bool) -> Typed {
        match like_operand(self.expr.clone(), self.operand(), padded) {
            Some(expr) => Typed {
                expr,
                typ: Some(ScalarType::Text),
                ..self
            },
            None => self,
        }
    }

    /// `self` converted to `to`; a literal is converted now when it can be.
    /// A cast to a `numeric(p, s)` is a `numeric` (rounded to its scale).
    pub fn cast(self, to: ScalarType) -> Typed {
        if self.typ == Some(to) {
            return self;
        }
        let typ = to.without_length();
        let typ = if is_numeric(typ) { typ } else { to };
        if let ScalarExpr::Literal(d) = &self.expr {
            if let Ok(d) = cast(d.clone(), to) {
                return Typed::new(ScalarExpr::Literal(d), typ, self.nullable);
            }
        }
        let expr = ScalarExpr::Cast(to, Box::new(self.expr));
        Typed::new(expr, typ, self.nullable)
    }

    /// `self` as an integer of any width (kept), or the error
    /// `mismatch(type name)`.
    pub fn expect_integer(self, mismatch: impl FnOnce(&str) -> String) -> Result<Typed, String> {
        if self.typ.is_some_and(ScalarType::is_integer) {
            return Ok(self);
        }
        unsigned::refuse_implicit(&self, None)?;
        let t = self.coerce(ScalarType::Int32)?;
        match t.typ.is_some_and(ScalarType::is_integer) {
            true => Ok(t),
            false => Err(mismatch(&t.type_name())),
        }
    }

    /// `self` as an integer, a float or a numeric, or the error
    /// `mismatch(type name)`.
    pub fn expect_signed(self, mismatch: impl FnOnce(&str) -> String) -> Result<Typed, String> {
        match self.typ.is_some_and(|t| t.is_float() || is_numeric(t)) {
            true => Ok(self),
            false => self.expect_integer(mismatch),
        }
    }

    /// `self` as a `to`, or the error `mismatch(type name)`.
    pub fn expect(
        self,
        to: ScalarType,
        mismatch: impl FnOnce(&str) -> String,
    ) -> Result<Typed, String> {
        unsigned::refuse_implicit(&self, Some(to))?;
        let t = self.coerce(to)?;
        match t.typ == Some(to) {
            true => Ok(t),
            false => Err(mismatch(&t.type_name())),
        }
    }
}

/// The type a type name in SQL text means.
pub fn scalar_type(t: &DataType) -> Result<ScalarType, String> {
    if let Some(chars) = chars_type(t) {
        return chars;
    }
    if let Some(float) = float_type(t) {
        return float;
    }
    if let Some(numeric) = numeric_type(t) {
        return numeric;
    }
    if let Some(time) = time_type(t) {
        return Ok(time);
    }
    if let Some(range) = range::range_type(t) {
        return range;
    }
    if let Some(unsigned) = unsigned_type(t) {
        return Ok(unsigned);
    }
    if let Some(array) = array::array_type(t, scalar_type) {
        return array;
    }
    if let Some(list) = list::list_type(t, scalar_type) {
        return list;
    }
    match t {
        DataType::SmallInt(None) | DataType::Int2(None) => Ok(ScalarType::Int16),
        DataType::Int(_) | DataType::Integer(_) | DataType::Int4(_) => Ok(ScalarType::Int32),
        DataType::BigInt(_) | DataType::Int8(_) => Ok(ScalarType::Int64),
        DataType::Text | DataType::String(None) => Ok(ScalarType::Text),
        DataType::Bool | DataType::Boolean => Ok(ScalarType::Bool),
        DataType::JSONB => Ok(ScalarType::Jsonb),
        DataType::Bytea => Ok(ScalarType::Bytes),
        // Any other name may be one of the real system's many types.
        _ => Err(unsupported(format!(
            "type {}",
            t.to_string().to_lowercase()
        ))),
    }
}

pub fn literal(v: &Value) -> Result<Typed, String> {
    let (datum, typ) = match v {
        Value::Number(n, _) => return int_literal(n),
        Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => {
            (Datum::Text(s.clone()), Some(ScalarType::Text))
        }
        Value::Boolean(b) => (Datum::Bool(*b), Some(ScalarType::Bool)),
        Value::Null => (Datum::Null, None),
        _ => return Err(unsupported(format!("literal {v}"))),
    };
    let nullable = datum == Datum::Null;
    Ok(Typed {
        expr: ScalarExpr::Literal(datum),
        typ,
        nullable,
    })
}

/// An integer literal is an `integer` if it fits one, else a `bigint`, as
/// in PostgreSQL; one with a point or an exponent, or beyond a `bigint`,
/// is a `numeric`, as in the real system.
pub fn int_literal(n: &str) -> Result<Typed, String> {
    let numeric = || -> Result<(Datum, ScalarType), String> {
        Ok((Datum::Numeric(literal_value(n)?), ScalarType::Numeric))
    };
    let (datum, typ) = match n.parse::<i32>() {
        _ if n.contains(['.', 'e', 'E']) => numeric()?,
        Ok(i) => (Datum::Int32(i), ScalarType::Int32),
        Err(_) => match n.parse() {
            Ok(i) => (Datum::Int64(i), ScalarType::Int64),
            Err(_) => numeric()?,
        },
    };
    Ok(Typed::new(ScalarExpr::Literal(datum), typ, false))
}

/// The wider of two operands' integer types, as the real system's
/// implicit casts widen a `smallint` beside an `integer` or a `bigint`
/// (`integer` when neither has one).
pub fn integer_type(l: &Typed, r: &Typed) -> ScalarType {
    widest_integer([l.typ, r.typ].into_iter().flatten()).unwrap_or(ScalarType::Int32)
}

/// The widest of the integer types among `types` (`None` if none is one).
pub fn widest_integer(types: impl Iterator<Item = ScalarType>) -> Option<ScalarType> {
    let width = |t: &ScalarType| match t {
        ScalarType::Int16 => 1,
        ScalarType::Int32 => 2,
        _ => 3,
    };
    types.filter(|t| t.is_integer()).max_by_key(width)
}

pub fn binary(op: &BinaryOperator, l: Typed, r: Typed) -> Result<Typed, String> {
    use BinaryOperator as B;
    // An array is compared with an array of its type (or a literal read
    // as one), or joined to one by `||`; any other operator of arrays
    // (`@>`, jsonb's `-` of a `text[]`) is refused by name.
    if *op == B::StringConcat {
        if let Some(planned) = array::concat("operator ||", l.clone(), r.clone()) {
            return planned;
        }
        if let Some(planned) = list::concat("operator ||", l.clone(), r.clone()) {
            return planned;
        }
    }
    if let Some(refused) = list::refused_operator(op, &l, &r) {
        return Err(refused);
    }
    let array = |t: &Typed| matches!(t.typ, Some(ScalarType::Array(_))) && !t.is_unknown();
    if array(&l) || array(&r) {
        let comparison = matches!(op, B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq);
        let same = l.typ == r.typ || l.is_unknown() || r.is_unknown();
        if !comparison || !same {
            return Err(unsupported(format!("operator {op} of arrays")));
        }
    }
    let (l, r) = match jsonb::binary(op, l, r) {
        range::Routed::Planned(planned) => return planned,
        range::Routed::Not(l, r) => (l, r),
    };
    let (l, r) = match range::binary(op, l, r) {
        range::Routed::Planned(planned) => return planned,
        range::Routed::Not(l, r) => (l, r),
    };
    let (l, r) = match text::binary(op, l, r) {
        range::Routed::Planned(planned) => return planned,
        range::Routed::Not(l, r) => (l, r),
    };
    if let Some(planned) = unsigned::bitwise(op, &l, &r) {
        return planned;
    }
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
        _ => return Err(unsupported(format!("operator {op}"))),
    };
    let (l, r) = match unsigned::binary((op, plan_op), l, r)? {
        Operands::Planned(planned) => return Ok(planned),
        Operands::Plain(l, r) => (l, r),
    };
    let (l, r) = match time::binary(op, plan_op, l, r)? {
        Operands::Planned(planned) => return Ok(planned),
        Operands::Plain(l, r) => (l, r),
    };
    let no_operator = |l: &Typed, r: &Typed| {
        format!(
            "operator does not exist: {} {op} {}",
            l.type_name(),
            r.type_name()
        )
    };
    // A float beside integers or numerics makes them that float; else a
    // numeric beside integers makes them numerics.
    let float = common_float(l.typ, r.typ);
    let known = |t: &Typed| t.typ.filter(|_| !t.is_string_literal());
    let numeric = float.or_else(|| common_numeric([known(&l), known(&r)]));
    let (l, r, typ) = match plan_op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            let to = numeric.unwrap_or_else(|| integer_type(&l, &r));
            let (l, r) = (l.coerce(to)?, r.coerce(to)?);
            if l.typ != Some(to) || r.typ != Some(to) {
                return Err(no_operator(&l, &r));
            }
            (l, r, to)
        }
        BinaryOp::And | BinaryOp::Or => {
            let not_bool = |t: &str| format!("{op} argument must have type boolean, not type {t}");
            let l = l.expect(ScalarType::Bool, not_bool)?;
            let r = r.expect(ScalarType::Bool, not_bool)?;
            (l, r, ScalarType::Bool)
        }
        _ => {
            if let Some(to) = compared_as(l.operand(), r.operand()) {
                let (l, r) = (l.implicit(to)?, r.implicit(to)?);
                let nullable = l.nullable || r.nullable;
                let expr = ScalarExpr::Binary(plan_op, Box::new(l.expr), Box::new(r.expr));
                return Ok(Typed::new(expr, ScalarType::Bool, nullable));
            }
            // A string literal takes the other side's type.
            let target = if l.is_string_literal() {
                r.typ.or(l.typ)
            } else {
                l.typ.or(r.typ)
            };
            let target = match target {
                _ if numeric.is_some() => numeric,
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
pub fn negate(t: Typed, negated: bool) -> Typed {
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
pub fn unify(values: Vec<Typed>, what: &str) -> Result<Vec<Typed>, String> {
    let values = time::timestamps(values);
    let known = values.iter().filter(|v| !v.is_unknown());
    of_day::refuse_beside_interval(known.clone().map(|v| v.typ), what)?;
    unsigned::refuse_mixed(known.filter_map(|v| v.typ), what)?;
    let operands: Vec<Operand> = values.iter().map(Typed::operand).collect();
    if let Some(to) = unified(&operands, what) {
        let to = to?;
        return values.into_iter().map(|v| v.implicit(to)).collect();
    }
    let typed = || {
        values
            .iter()
            .filter_map(|v| v.typ.filter(|_| !v.is_string_literal()))
    };
    let target = match typed().next() {
        None => ScalarType::Text,
        Some(_) if widest_float(typed()).is_some() => widest_float(typed()).expect("a float"),
        Some(_) if common_numeric(typed().map(Some)).is_some() => ScalarType::Numeric,
        Some(t) if typed().all(ScalarType::is_integer) && t.is_integer() => {
            widest_integer(typed()).expect("an integer")
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

/// The operands of a binary operator, planned by `plan`: a numeric literal
/// (`2.5`, `-0`) beside a float is that float's type, as the real
/// system's implicit cast from `numeric` makes it; otherwise each is
/// planned as it is (and a numeric literal refused, `-0` an integer).
/// Out of line, so that the planner's recursive frame stays small.
#[inline(never)]
pub fn operands(
    left: &Expr,
    right: &Expr,
    mut plan: impl FnMut(&Expr) -> Result<Typed, String>,
) -> Result<(Typed, Typed), String> {
    let float = |text: String, other: &Typed| {
        let to = other.typ.filter(|t| t.is_float())?;
        let literal = float_literal(&text, to).map(ScalarExpr::Literal);
        Some(literal.map(|l| Typed::new(l, to, false)))
    };
    match (numeric_literal(left), numeric_literal(right)) {
        (Some(text), None) => {
            let r = plan(right)?;
            let l = float(text, &r).unwrap_or_else(|| plan(left))?;
            Ok((l, r))
        }
        (None, Some(text)) => {
            let l = plan(left)?;
            let r = float(text, &l).unwrap_or_else(|| plan(right))?;
            Ok((l, r))
        }
        _ => Ok((plan(left)?, plan(right)?)),
    }
}

/// `CAST(1.5 AS double precision)`: a numeric literal cast to a float is
/// that float (`None` for any other cast).
pub fn cast_literal(expr: &Expr, to: ScalarType) -> Option<Result<Typed, String>> {
    let text = numeric_literal(expr).filter(|_| to.is_float())?;
    Some(float_literal(&text, to).map(|d| Typed::new(ScalarExpr::Literal(d), to, false)))
}
