//! Scalar expressions: sqlparser's AST compiled against a scope of named
//! columns, then evaluated row by row with the engine's observable rules
//! (32/64-bit integers that overflow at their own width, division by zero
//! as an evaluation error, three-valued logic where a deciding operand beats
//! an error), and subqueries, evaluated for each outer row through the
//! [`Nested`] and [`Rows`] that `query.rs` implements (it comes after this
//! module). Written from docs/semantics.md's rules, not from the engine's
//! code.

mod strict;

use engine::repr::Datum;
use sqlparser::ast::{self, BinaryOperator, CastKind, DataType, UnaryOperator, Value};
use std::cell::Cell;
use std::rc::Rc;
use strict::strict;

/// Why the model makes no claim: the construct lies outside what it models.
pub type Unsupported = &'static str;

/// A failed evaluation: an error the engine carries as data, or a case the
/// model does not decide (a read that hits it makes no claim).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    Error(String),
    Unsupported(Unsupported),
}

fn error(text: &str) -> EvalError {
    EvalError::Error(format!("Evaluation error: {text}"))
}

/// The columns an expression can name: `(qualifier, name)` per position.
/// A subquery's scope lists the enclosing queries' columns first, each
/// query's from where `levels` says it starts; a name is looked up in the
/// innermost query first.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub columns: Vec<(String, String)>,
    /// Positions found only by a qualified name: each side's column of a
    /// `USING` or `NATURAL` join, whose unqualified name finds the join's.
    pub qualified_only: Vec<usize>,
    /// Positions `*` does not list (those of `qualified_only`).
    pub unstarred: Vec<usize>,
    /// Where each query's columns start, outermost first (empty: one query).
    pub levels: Vec<usize>,
    /// The outermost enclosing level a name compiled in this scope found,
    /// if any: the subquery is correlated.
    pub reached: Rc<Cell<Option<usize>>>,
}

impl Scope {
    /// The start of each query's columns, outermost first.
    pub fn starts(&self) -> Vec<usize> {
        match self.levels.is_empty() {
            true => vec![0],
            false => self.levels.clone(),
        }
    }

    /// The position `qualifier.name` (or unqualified `name`) names, if exactly
    /// one in the innermost query that has it.
    pub fn resolve(&self, qualifier: Option<&str>, name: &str) -> Result<usize, Unsupported> {
        let starts = self.starts();
        for depth in (0..starts.len()).rev() {
            let end = starts.get(depth + 1).copied().unwrap_or(self.columns.len());
            let mut found = (starts[depth]..end).filter(|i| {
                let (q, n) = &self.columns[*i];
                n == name
                    && match qualifier {
                        None => !self.qualified_only.contains(i),
                        Some(x) => x == q,
                    }
            });
            match (found.next(), found.next()) {
                (Some(i), None) => {
                    if depth + 1 < starts.len() {
                        let reached = self.reached.get().map_or(depth, |r| r.min(depth));
                        self.reached.set(Some(reached));
                    }
                    return Ok(i);
                }
                (None, _) => continue,
                (Some(_), Some(_)) => return Err("an ambiguous column reference"),
            }
        }
        Err("a column the model cannot resolve")
    }

    /// The scope of a subquery whose own columns are `own`'s, inside this
    /// one.
    pub fn nested(&self, own: &Scope) -> Scope {
        let width = self.columns.len();
        let mut levels = self.starts();
        levels.push(width);
        let shift = |v: &[usize]| v.iter().map(|i| i + width).collect::<Vec<_>>();
        Scope {
            columns: self.columns.iter().chain(&own.columns).cloned().collect(),
            qualified_only: self
                .qualified_only
                .iter()
                .copied()
                .chain(shift(&own.qualified_only))
                .collect(),
            unstarred: shift(&own.unstarred),
            levels,
            reached: Rc::default(),
        }
    }
}

/// A subquery compiled for evaluation per outer row: its rows for the
/// outer row, or why the model makes no claim (an error inside it, which
/// the engine counts per key, not per outer row).
pub trait Rows: std::fmt::Debug {
    fn rows(&self, outer: &[Datum]) -> Result<Vec<Vec<Datum>>, Unsupported>;
    /// Whether it names an enclosing query's column.
    fn correlated(&self) -> bool;
}

/// A compiled subquery, compared by identity.
#[derive(Clone, Debug)]
pub struct Sub(pub Rc<dyn Rows>);

impl PartialEq for Sub {
    fn eq(&self, other: &Sub) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Sub {}

/// How a subquery's rows make a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `(SELECT ...)`: the one row's value, NULL over none.
    Scalar,
    /// `EXISTS (...)`.
    Exists,
    /// `x op ANY (...)` (`IN` is `= ANY`).
    Any(Cmp),
    /// `x op ALL (...)` (`NOT IN` is `<> ALL`).
    All(Cmp),
}

/// Compiles the subqueries an expression holds: the model's queries
/// (`query.rs`), which come after this module.
pub trait Nested {
    fn subquery(&self, q: &ast::Query, scope: &Scope) -> Result<Sub, Unsupported>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A compiled scalar expression over a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    Column(usize),
    Literal(Datum),
    Arith(Arith, Box<Scalar>, Box<Scalar>),
    Cmp(Cmp, Box<Scalar>, Box<Scalar>),
    And(Box<Scalar>, Box<Scalar>),
    Or(Box<Scalar>, Box<Scalar>),
    Not(Box<Scalar>),
    Neg(Box<Scalar>),
    IsNull(Box<Scalar>, bool),
    /// `CAST(x AS int)` (false) or `AS bigint` (true).
    ToInt(Box<Scalar>, bool),
    /// `x IN (a, b, ...)`: `x = a OR x = b OR ...`, its items side by side.
    In(Box<Scalar>, Vec<Scalar>),
    /// A subquery evaluated for each outer row, with its left operand.
    Subquery(Quantifier, Option<Box<Scalar>>, Sub),
}

/// An identifier as the engine folds it (unquoted: lower case).
pub fn ident(i: &ast::Ident) -> String {
    match i.quote_style {
        Some(_) => i.value.clone(),
        None => i.value.to_lowercase(),
    }
}

/// An integer literal: an `integer` if it fits, else a `bigint`.
pub fn int_literal(text: &str) -> Result<Datum, Unsupported> {
    if let Ok(i) = text.parse::<i32>() {
        Ok(Datum::Int32(i))
    } else if let Ok(i) = text.parse::<i64>() {
        Ok(Datum::Int64(i))
    } else {
        Err("a numeric literal that is not a 64-bit integer")
    }
}

/// Compiles `e` against `scope`; a subquery in it is outside the model.
pub fn compile(e: &ast::Expr, scope: &Scope) -> Result<Scalar, Unsupported> {
    compile_in(e, scope, None)
}

/// Compiles `e` against `scope`, its subqueries by `nested`.
pub fn compile_in(
    e: &ast::Expr,
    scope: &Scope,
    nested: Option<&dyn Nested>,
) -> Result<Scalar, Unsupported> {
    let b = |e: &ast::Expr| compile_in(e, scope, nested).map(Box::new);
    let sub = |q: &ast::Query| match nested {
        Some(n) => n.subquery(q, scope),
        None => Err("a subquery where the model follows none"),
    };
    Ok(match e {
        ast::Expr::Subquery(q) => {
            let s = sub(q)?;
            // Uncorrelated, it is computed once whatever the outer rows
            // (even none): its second row is an error then too.
            let outer = vec![Datum::Null; scope.columns.len()];
            if !s.0.correlated() && s.0.rows(&outer)?.len() > 1 {
                return Err("more than one record produced in subquery (counted per key)");
            }
            Scalar::Subquery(Quantifier::Scalar, None, s)
        }
        ast::Expr::Exists { subquery, negated } => {
            let exists = Scalar::Subquery(Quantifier::Exists, None, sub(subquery)?);
            match negated {
                true => Scalar::Not(Box::new(exists)),
                false => exists,
            }
        }
        ast::Expr::In {
            expr,
            target: ast::InTarget::Subquery(subquery),
            negated,
            global: false,
        } => {
            let q = match negated {
                true => Quantifier::All(Cmp::Ne),
                false => Quantifier::Any(Cmp::Eq),
            };
            Scalar::Subquery(q, Some(b(expr)?), sub(subquery)?)
        }
        ast::Expr::AnyOp {
            left,
            compare_op,
            right,
            ..
        }
        | ast::Expr::AllOp {
            left,
            compare_op,
            right,
        } => {
            let ast::Expr::Subquery(q) = &**right else {
                return Err("ANY or ALL of other than a subquery");
            };
            let cmp = match compare_op {
                BinaryOperator::Eq => Cmp::Eq,
                BinaryOperator::NotEq => Cmp::Ne,
                BinaryOperator::Lt => Cmp::Lt,
                BinaryOperator::LtEq => Cmp::Le,
                BinaryOperator::Gt => Cmp::Gt,
                BinaryOperator::GtEq => Cmp::Ge,
                _ => return Err("ANY or ALL of an operator outside the model"),
            };
            let quantifier = match e {
                ast::Expr::AllOp { .. } => Quantifier::All(cmp),
                _ => Quantifier::Any(cmp),
            };
            Scalar::Subquery(quantifier, Some(b(left)?), sub(q)?)
        }
        ast::Expr::Identifier(i) => Scalar::Column(scope.resolve(None, &ident(i))?),
        ast::Expr::CompoundIdentifier(parts) => match parts.as_slice() {
            [q, n] => Scalar::Column(scope.resolve(Some(&ident(q)), &ident(n))?),
            _ => return Err("a column name of more than two parts"),
        },
        ast::Expr::Nested(e) => compile_in(e, scope, nested)?,
        ast::Expr::Value(v) => Scalar::Literal(literal(&v.value, false)?),
        ast::Expr::UnaryOp { op, expr } => match (op, &**expr) {
            (UnaryOperator::Minus, ast::Expr::Value(v)) => {
                Scalar::Literal(literal(&v.value, true)?)
            }
            (UnaryOperator::Minus, e) => Scalar::Neg(b(e)?),
            (UnaryOperator::Plus, e) => compile_in(e, scope, nested)?,
            (UnaryOperator::Not, e) => Scalar::Not(b(e)?),
            _ => return Err("a unary operator outside the model"),
        },
        ast::Expr::BinaryOp { left, op, right } => {
            let (l, r) = (b(left)?, b(right)?);
            match op {
                BinaryOperator::Plus => Scalar::Arith(Arith::Add, l, r),
                BinaryOperator::Minus => Scalar::Arith(Arith::Sub, l, r),
                BinaryOperator::Multiply => Scalar::Arith(Arith::Mul, l, r),
                BinaryOperator::Divide => Scalar::Arith(Arith::Div, l, r),
                BinaryOperator::Modulo => Scalar::Arith(Arith::Mod, l, r),
                BinaryOperator::Eq => Scalar::Cmp(Cmp::Eq, l, r),
                BinaryOperator::NotEq => Scalar::Cmp(Cmp::Ne, l, r),
                BinaryOperator::Lt => Scalar::Cmp(Cmp::Lt, l, r),
                BinaryOperator::LtEq => Scalar::Cmp(Cmp::Le, l, r),
                BinaryOperator::Gt => Scalar::Cmp(Cmp::Gt, l, r),
                BinaryOperator::GtEq => Scalar::Cmp(Cmp::Ge, l, r),
                BinaryOperator::And => Scalar::And(l, r),
                BinaryOperator::Or => Scalar::Or(l, r),
                _ => return Err("a binary operator outside the model"),
            }
        }
        ast::Expr::In {
            expr,
            target: ast::InTarget::List(list),
            negated,
            global: false,
        } if !list.is_empty() => {
            let items = list.iter().map(|i| compile_in(i, scope, nested));
            let within = Scalar::In(b(expr)?, items.collect::<Result<_, _>>()?);
            match negated {
                true => Scalar::Not(Box::new(within)),
                false => within,
            }
        }
        ast::Expr::IsNull(e) => Scalar::IsNull(b(e)?, true),
        ast::Expr::IsNotNull(e) => Scalar::IsNull(b(e)?, false),
        ast::Expr::Cast {
            kind: CastKind::Cast | CastKind::DoubleColon,
            expr,
            data_type,
            format: None,
        } => match int_type(data_type) {
            Some(wide) => Scalar::ToInt(b(expr)?, wide),
            None => return Err("a cast outside int and bigint"),
        },
        _ => return Err("an expression outside the model"),
    })
}

/// `Some(false)` for `int`, `Some(true)` for `bigint`.
pub fn int_type(t: &DataType) -> Option<bool> {
    match t {
        DataType::Int(None) | DataType::Integer(None) | DataType::Int4(None) => Some(false),
        DataType::BigInt(None) | DataType::Int8(None) => Some(true),
        _ => None,
    }
}

fn literal(v: &Value, negative: bool) -> Result<Datum, Unsupported> {
    match v {
        Value::Number(n, false) if negative => int_literal(&format!("-{n}")),
        Value::Number(n, false) => int_literal(n),
        Value::Null if !negative => Ok(Datum::Null),
        Value::Boolean(b) if !negative => Ok(Datum::Bool(*b)),
        Value::SingleQuotedString(s) if !negative => Ok(Datum::Text(s.clone())),
        _ => Err("a literal outside the model"),
    }
}

/// An integer operand: its value and whether it is a `bigint`.
fn int(d: &Datum) -> Result<(i64, bool), EvalError> {
    match d {
        Datum::Int32(i) => Ok((*i as i64, false)),
        Datum::Int64(i) => Ok((*i, true)),
        _ => Err(EvalError::Unsupported("arithmetic on a non-integer")),
    }
}

/// `value` at the given width, or the real system's overflow error:
/// `numeric field overflow` for a sum, difference or product, else
/// `"<what>" integer out of range` (or `bigint`), naming the value or the
/// operation (`what`) that overflowed.
fn at_width(value: Option<i64>, wide: bool, what: &str, sum: bool) -> Result<Datum, EvalError> {
    let range = |t: &str| match sum {
        true => error("numeric field overflow"),
        false => error(&format!("\"{what}\" {t} out of range")),
    };
    match (value, wide) {
        (Some(v), true) => Ok(Datum::Int64(v)),
        (Some(v), false) => i32::try_from(v)
            .map(Datum::Int32)
            .map_err(|_| range("integer")),
        (None, true) => Err(range("bigint")),
        (None, false) => Err(range("integer")),
    }
}

fn arith(op: Arith, l: &Datum, r: &Datum) -> Result<Datum, EvalError> {
    if *l == Datum::Null || *r == Datum::Null {
        return Ok(Datum::Null);
    }
    let ((a, wa), (b, wb)) = (int(l)?, int(r)?);
    let wide = wa || wb;
    if matches!(op, Arith::Div | Arith::Mod) && b == 0 {
        return Err(error("division by zero"));
    }
    // Narrow operands compute in 32 bits so that `i32::MIN / -1` overflows.
    let value = match op {
        Arith::Add => a.checked_add(b),
        Arith::Sub => a.checked_sub(b),
        Arith::Mul => a.checked_mul(b),
        Arith::Div if wide => a.checked_div(b),
        Arith::Mod if wide => a.checked_rem(b),
        Arith::Div => (a as i32).checked_div(b as i32).map(i64::from),
        Arith::Mod => (a as i32).checked_rem(b as i32).map(i64::from),
    };
    let what = match op {
        Arith::Mod => format!("{a} % {b}"),
        _ => format!("{a} / {b}"),
    };
    let sum = matches!(op, Arith::Add | Arith::Sub | Arith::Mul);
    at_width(value, wide, &what, sum)
}

fn compare(op: Cmp, l: &Datum, r: &Datum) -> Result<Datum, EvalError> {
    let ordering = match (l, r) {
        (Datum::Null, _) | (_, Datum::Null) => return Ok(Datum::Null),
        (Datum::Text(a), Datum::Text(b)) => a.cmp(b),
        (Datum::Bool(a), Datum::Bool(b)) => a.cmp(b),
        (a, b) => int(a)?.0.cmp(&int(b)?.0),
    };
    use std::cmp::Ordering::*;
    Ok(Datum::Bool(match op {
        Cmp::Eq => ordering == Equal,
        Cmp::Ne => ordering != Equal,
        Cmp::Lt => ordering == Less,
        Cmp::Le => ordering != Greater,
        Cmp::Gt => ordering == Greater,
        Cmp::Ge => ordering != Less,
    }))
}

fn boolean(d: Result<Datum, EvalError>) -> Result<Option<bool>, EvalError> {
    match d? {
        Datum::Bool(b) => Ok(Some(b)),
        Datum::Null => Ok(None),
        _ => Err(EvalError::Unsupported("a non-boolean used as a condition")),
    }
}

/// Three-valued AND (`decides` false) or OR (`decides` true): an operand
/// equal to `decides` decides, even beside an error; then errors; then NULL.
fn logic(
    l: Result<Option<bool>, EvalError>,
    r: Result<Option<bool>, EvalError>,
    decides: bool,
) -> Result<Datum, EvalError> {
    // What the model does not know (a subquery's error) decides nothing.
    for side in [&l, &r] {
        if let Err(EvalError::Unsupported(why)) = side {
            return Err(EvalError::Unsupported(why));
        }
    }
    if matches!(l, Ok(Some(b)) if b == decides) || matches!(r, Ok(Some(b)) if b == decides) {
        return Ok(Datum::Bool(decides));
    }
    match (l?, r?) {
        (Some(_), Some(_)) => Ok(Datum::Bool(!decides)),
        _ => Ok(Datum::Null),
    }
}

impl Scalar {
    pub fn eval(&self, row: &[Datum]) -> Result<Datum, EvalError> {
        match self {
            Scalar::Column(i) => Ok(row[*i].clone()),
            Scalar::Literal(d) => Ok(d.clone()),
            Scalar::Arith(op, l, r) => strict(l, r, row, |l, r| arith(*op, l, r)),
            Scalar::Cmp(op, l, r) => strict(l, r, row, |l, r| compare(*op, l, r)),
            Scalar::And(l, r) => logic(boolean(l.eval(row)), boolean(r.eval(row)), false),
            Scalar::Or(l, r) => logic(boolean(l.eval(row)), boolean(r.eval(row)), true),
            Scalar::Not(e) => Ok(boolean(e.eval(row))?.map_or(Datum::Null, |b| Datum::Bool(!b))),
            Scalar::Neg(e) => match e.eval(row)? {
                Datum::Null => Ok(Datum::Null),
                d => {
                    let (v, wide) = int(&d)?;
                    at_width(v.checked_neg(), wide, &v.to_string(), false)
                }
            },
            Scalar::IsNull(e, is) => Ok(Datum::Bool((e.eval(row)? == Datum::Null) == *is)),
            Scalar::ToInt(e, wide) => match e.eval(row)? {
                Datum::Null => Ok(Datum::Null),
                d => {
                    let v = int(&d)?.0;
                    at_width(Some(v), *wide, &v.to_string(), false)
                }
            },
            Scalar::In(e, items) => {
                // The OR of the equalities, item after item: an equal item
                // decides, even beside an error; else the first error; else
                // NULL if any comparison is NULL (`1 IN (2, NULL)`).
                let mut result = Ok(Datum::Bool(false));
                for item in items {
                    let equal = strict(e, item, row, |l, r| compare(Cmp::Eq, l, r));
                    result = logic(boolean(result), boolean(equal), true);
                    if result == Ok(Datum::Bool(true)) {
                        break;
                    }
                }
                result
            }
            Scalar::Subquery(q, left, sub) => {
                let left = left.as_ref().map(|l| l.eval(row)).transpose();
                // The engine compares inside the subquery, per key: an error
                // of its left operand is counted there.
                let left =
                    left.map_err(|_| EvalError::Unsupported("an error left of IN, ANY or ALL"))?;
                let rows = sub.0.rows(row).map_err(EvalError::Unsupported)?;
                if *q == Quantifier::Exists {
                    // Its select list is not computed (nor its errors).
                    return Ok(Datum::Bool(!rows.is_empty()));
                }
                let values = rows.into_iter().map(|r| match <[Datum; 1]>::try_from(r) {
                    Ok([v]) => Ok(v),
                    Err(_) => Err(EvalError::Unsupported(
                        "a subquery of other than one column",
                    )),
                });
                quantify(*q, left.as_ref(), values.collect::<Result<_, _>>()?)
            }
        }
    }

    /// Whether the row passes: true keeps it, false and NULL drop it.
    pub fn holds(&self, row: &[Datum]) -> Result<bool, EvalError> {
        Ok(boolean(self.eval(row))? == Some(true))
    }
}

/// A subquery's value for one outer row from its column's `values`.
fn quantify(q: Quantifier, left: Option<&Datum>, values: Vec<Datum>) -> Result<Datum, EvalError> {
    let (cmp, all) = match q {
        Quantifier::Scalar => {
            return match values.len() {
                0 => Ok(Datum::Null),
                1 => Ok(values.into_iter().next().expect("one")),
                // An error per key in the engine, beside the rows.
                _ => Err(EvalError::Unsupported(
                    "more than one record produced in subquery (counted per key)",
                )),
            };
        }
        Quantifier::Exists => return Ok(Datum::Bool(!values.is_empty())),
        Quantifier::Any(cmp) => (cmp, false),
        Quantifier::All(cmp) => (cmp, true),
    };
    let left = left.expect("ANY and ALL have a left operand");
    // ANY: true decides, else NULL if one is NULL, else false; ALL: false
    // decides, else NULL, else true.
    let mut null = false;
    for v in &values {
        match compare(cmp, left, v)? {
            Datum::Bool(b) if b != all => return Ok(Datum::Bool(!all)),
            Datum::Null => null = true,
            _ => {}
        }
    }
    Ok(match null {
        true => Datum::Null,
        false => Datum::Bool(all),
    })
}
