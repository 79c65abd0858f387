//! Scalar expressions: sqlparser's AST compiled against a scope of named
//! columns, then evaluated row by row with the engine's observable rules
//! (32/64-bit integers that overflow at their own width, division by zero
//! as an evaluation error, three-valued logic where a deciding operand beats
//! an error), and subqueries, evaluated for each outer row through the
//! [`Nested`] and [`Rows`] that `query.rs` implements (it comes after this
//! module). Written from docs/semantics.md's rules, not from the engine's
//! code.

use crate::functions::{self, Func};
use crate::types::{is_string_type, Type};
use engine::repr::Datum;
use sqlparser::ast::{self, BinaryOperator, CastKind, DataType, UnaryOperator, Value};
use std::cell::Cell;
use std::rc::Rc;

pub use crate::ops::{error, Arith, Cmp, EvalError, Unsupported};

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
    /// Each position's column type where a table or view gave it (a
    /// `char`'s comparisons trim it); shorter than `columns` where not.
    pub types: Vec<Option<Type>>,
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

    /// The type of the column at position `i`, where known.
    pub fn type_at(&self, i: usize) -> Option<Type> {
        self.types.get(i).copied().flatten()
    }

    /// Every position's type, `None` where not known.
    pub fn all_types(&self) -> Vec<Option<Type>> {
        (0..self.columns.len()).map(|i| self.type_at(i)).collect()
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
            types: self
                .all_types()
                .into_iter()
                .chain(own.all_types())
                .collect(),
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
    /// A scalar function's call (`functions.rs`).
    Call(Func, Vec<Scalar>),
    /// `CAST(x AS real)` (false) or `AS double precision` (true).
    ToFloat(Box<Scalar>, bool),
    /// A `char`'s (or a `varchar` or string literal beside one) value
    /// without its trailing whitespace, as `char` comparisons take it.
    Trim(Box<Scalar>),
    /// A literal a float beside it types (`floats.rs`): a numeric literal
    /// (`1.5`, `-0`) or, beside a float, a string literal; `-0` elsewhere
    /// is the integer 0, anything else no claim.
    Decimal(String),
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
            Scalar::Subquery(q, Some(unstring(b(expr)?, scope)?), sub(subquery)?)
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
            Scalar::Subquery(quantifier, Some(unstring(b(left)?, scope)?), sub(q)?)
        }
        ast::Expr::Identifier(i) => Scalar::Column(scope.resolve(None, &ident(i))?),
        ast::Expr::CompoundIdentifier(parts) => match parts.as_slice() {
            [q, n] => Scalar::Column(scope.resolve(Some(&ident(q)), &ident(n))?),
            _ => return Err("a column name of more than two parts"),
        },
        ast::Expr::Nested(e) => compile_in(e, scope, nested)?,
        ast::Expr::Value(v) => literal(&v.value, false)?,
        ast::Expr::UnaryOp { op, expr } => match (op, &**expr) {
            (UnaryOperator::Minus, ast::Expr::Value(v)) => literal(&v.value, true)?,
            (UnaryOperator::Minus, e) => Scalar::Neg(b(e)?),
            (UnaryOperator::Plus, e) => compile_in(e, scope, nested)?,
            (UnaryOperator::Not, e) => Scalar::Not(b(e)?),
            _ => return Err("a unary operator outside the model"),
        },
        ast::Expr::BinaryOp { left, op, right } => {
            let (l, r) = beside(b(left)?, b(right)?)?;
            let (l, r) = chars_compared(l, r, scope);
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
            let items: Vec<Scalar> = items.collect::<Result<_, _>>()?;
            let e = b(expr)?;
            if std::iter::once(&*e)
                .chain(&items)
                .any(|s| string_typed(s, scope))
            {
                return Err("IN of a char or varchar");
            }
            let within = Scalar::In(e, items);
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
        } => match (int_type(data_type), float_type(data_type)) {
            (Some(wide), _) => Scalar::ToInt(b(expr)?, wide),
            (_, Some(wide)) => Scalar::ToFloat(b(expr)?, wide),
            _ if *data_type == DataType::Bytea => return Err("bytea is not modelled"),
            _ => return Err("a cast outside int, bigint and the floats"),
        },
        ast::Expr::Function(f) => call(f, scope, nested)?,
        // `substr(x, a[, n])`, `SUBSTRING(x FROM a [FOR n])`; not `SUBSTR(x
        // FROM a)` nor `SUBSTRING(x FOR n)`, which the engine refuses.
        ast::Expr::Substring {
            expr,
            substring_from: Some(from),
            substring_for,
            special,
            shorthand,
        } if *special || !*shorthand => {
            let mut args = vec![
                compile_in(expr, scope, nested)?,
                compile_in(from, scope, nested)?,
            ];
            if let Some(n) = substring_for {
                args.push(compile_in(n, scope, nested)?);
            }
            typed_call(Func::Substr, args, scope)?
        }
        ast::Expr::Position { expr, r#in } => {
            let args = vec![
                compile_in(r#in, scope, nested)?,
                compile_in(expr, scope, nested)?,
            ];
            typed_call(Func::Strpos, args, scope)?
        }
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

/// `Some(false)` for `real`, `Some(true)` for `double precision`.
pub fn float_type(t: &DataType) -> Option<bool> {
    use ast::ExactNumberInfo::None as Bare;
    match t {
        DataType::Real | DataType::Float4 => Some(false),
        DataType::DoublePrecision | DataType::Float8 | DataType::Float(Bare) => Some(true),
        _ => None,
    }
}

fn literal(v: &Value, negative: bool) -> Result<Scalar, Unsupported> {
    let sign = if negative { "-" } else { "" };
    Ok(Scalar::Literal(match v {
        // A point, an exponent or `-0`: a literal a float beside it types.
        Value::Number(n, false) if n.contains(['.', 'e', 'E']) || (negative && n == "0") => {
            return Ok(Scalar::Decimal(format!("{sign}{n}")));
        }
        Value::Number(n, false) => int_literal(&format!("{sign}{n}"))?,
        Value::Null if !negative => Datum::Null,
        Value::Boolean(b) if !negative => Datum::Bool(*b),
        Value::SingleQuotedString(s) if !negative => Datum::Text(s.clone()),
        _ => return Err("a literal outside the model"),
    }))
}

/// Whether `s` is a float whatever its operands' values (a column's type
/// is not tracked, so a column is not).
fn static_float(s: &Scalar) -> bool {
    match s {
        Scalar::ToFloat(..) => true,
        Scalar::Arith(_, l, r) => static_float(l) || static_float(r),
        Scalar::Neg(e) => static_float(e),
        _ => false,
    }
}

/// A binary operator's operands, a literal beside a float typed by it:
/// a string literal beside one becomes a literal the float reads; a
/// numeric literal (other than `-0`) beside anything else is no claim.
fn beside(l: Box<Scalar>, r: Box<Scalar>) -> Result<(Box<Scalar>, Box<Scalar>), Unsupported> {
    let typed = |x: Box<Scalar>, other: &Scalar| match *x {
        Scalar::Literal(Datum::Text(t)) if static_float(other) => Ok(Box::new(Scalar::Decimal(t))),
        Scalar::Decimal(t) if !static_float(other) && t != "-0" => Err("a numeric literal"),
        x => Ok(Box::new(x)),
    };
    let l = typed(l, &r)?;
    let r = typed(r, &l)?;
    Ok((l, r))
}

/// Whether `s` is a column of type `char` or `varchar`.
fn string_typed(s: &Scalar, scope: &Scope) -> bool {
    matches!(s, Scalar::Column(i) if is_string_type(scope.type_at(*i)))
}

/// `s`, unless it is a `char` or `varchar` column (left of `IN`, `ANY` or
/// `ALL` of a subquery, whose comparison the model does not type).
fn unstring(s: Box<Scalar>, scope: &Scope) -> Result<Box<Scalar>, Unsupported> {
    match string_typed(&s, scope) {
        true => Err("a char or varchar left of a subquery's comparison"),
        false => Ok(s),
    }
}

/// The operands of a comparison as `char` rules take them: a `char`
/// column trimmed, and beside it a `varchar` column or a string literal
/// trimmed too (they are compared as `char`s); beside anything else (a
/// `text`) the `char` alone, its kept value against the other as is.
fn chars_compared(l: Box<Scalar>, r: Box<Scalar>, scope: &Scope) -> (Box<Scalar>, Box<Scalar>) {
    let kind = |s: &Scalar| match s {
        Scalar::Column(i) => scope.type_at(*i),
        Scalar::Literal(Datum::Text(_)) => Some(Type::VarChar(None)),
        _ => None,
    };
    let (kl, kr) = (kind(&l), kind(&r));
    let char = |k: Option<Type>| matches!(k, Some(Type::Char(_)));
    let trim = |s: Box<Scalar>, own: Option<Type>, other: Option<Type>| match char(own)
        || (char(other) && is_string_type(own))
    {
        true => Box::new(Scalar::Trim(s)),
        false => s,
    };
    (trim(l, kl, kr), trim(r, kr, kl))
}

/// A call to a scalar function the model has (`mod` is `%`).
fn call(
    f: &ast::Function,
    scope: &Scope,
    nested: Option<&dyn Nested>,
) -> Result<Scalar, Unsupported> {
    let ast::FunctionArguments::List(list) = &f.args else {
        return Err("a call without an argument list");
    };
    if f.filter.is_some()
        || f.over.is_some()
        || f.null_treatment.is_some()
        || !f.within_group.is_empty()
        || !matches!(f.parameters, ast::FunctionArguments::None)
        || list.duplicate_treatment.is_some()
        || !list.clauses.is_empty()
    {
        return Err("a call with a clause outside the model");
    }
    let [ast::ObjectNamePart::Identifier(name)] = f.name.0.as_slice() else {
        return Err("a qualified function name");
    };
    let mut args = vec![];
    for a in &list.args {
        let ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) = a else {
            return Err("a function argument outside the model");
        };
        args.push(compile_in(e, scope, nested)?);
    }
    let name = ident(name);
    if let (Some("mod"), [_, _]) = (Some(name.as_str()), args.as_slice()) {
        let mut args = args.into_iter().map(Box::new);
        let (l, r) = (args.next().expect("two"), args.next().expect("two"));
        let (l, r) = beside(l, r)?;
        return Ok(Scalar::Arith(Arith::Mod, l, r));
    }
    let func = functions::lookup(&name, args.len()).ok_or("a function outside the model")?;
    typed_call(func, args, scope)
}

/// A call whose overload the model can tell without types: no argument is
/// a numeric literal, nor a NULL literal (which Materialize resolves by the
/// overloads alone) but to `concat` and `concat_ws`, which take any type.
fn typed_call(func: Func, args: Vec<Scalar>, scope: &Scope) -> Result<Scalar, Unsupported> {
    if args.iter().any(|a| string_typed(a, scope)) {
        // The engine refuses a call over a `char` or `varchar`.
        return Err("a function of a char or varchar");
    }
    let any = matches!(func, Func::Concat | Func::ConcatWs);
    let null = |a: &Scalar| !any && *a == Scalar::Literal(Datum::Null);
    if args
        .iter()
        .any(|a| null(a) || matches!(a, Scalar::Decimal(_)))
    {
        return Err("a NULL or numeric literal as a function's argument");
    }
    Ok(Scalar::Call(func, args))
}

mod eval;
mod strict;
