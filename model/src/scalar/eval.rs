//! Evaluating a compiled [`Scalar`] over a row, with the engine's
//! observable rules restated: integers that overflow at their own width,
//! division by zero as an error, three-valued logic where a deciding
//! operand beats an error, floats (`floats.rs`) beside integers and the
//! literals a float types, calls (`functions.rs`), and subqueries for each
//! outer row. Apart from `mod.rs`, which compiles, to keep each short.

use super::strict::literal_operands;
use super::{Quantifier, Scalar};
use crate::floats;
use crate::functions;
use crate::ops::{error, Arith, Cmp, EvalError};
use engine::repr::Datum;

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
    if floats::is_float(l) || floats::is_float(r) {
        return floats::arith(op, l, r);
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
        // The least value `% -1` is 0 (Materialize's `checked_rem`, or 0).
        Arith::Mod if wide => Some(a.checked_rem(b).unwrap_or(0)),
        Arith::Div => (a as i32).checked_div(b as i32).map(i64::from),
        Arith::Mod => Some(i64::from((a as i32).checked_rem(b as i32).unwrap_or(0))),
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
        (a, b) if floats::is_float(a) || floats::is_float(b) => floats::compare(a, b)?,
        (a, b) => int(a)?.0.cmp(&int(b)?.0),
    };
    Ok(Datum::Bool(op.holds(ordering)))
}

/// A literal a float beside it types (`Scalar::Decimal`), beside the
/// value `other`: read as that float; NULL beside a NULL (whatever it
/// would be, the operator's result is NULL); `-0` beside an integer or
/// alone is the integer 0.
fn decimal(text: &str, other: Option<&Datum>) -> Result<Datum, EvalError> {
    let read = |wide| floats::numeric_literal(text, wide).map_err(EvalError::Unsupported);
    match other {
        Some(Datum::Float32(_)) => read(false),
        Some(Datum::Float64(_)) => read(true),
        Some(Datum::Null) => Ok(Datum::Null),
        _ if text == "-0" => Ok(Datum::Int32(0)),
        _ => Err(EvalError::Unsupported(
            "a numeric literal that no float types",
        )),
    }
}

/// The two operands of a binary operator, left first, a literal a float
/// types read beside the other's value.
fn operands(l: &Scalar, r: &Scalar, row: &[Datum]) -> Result<(Datum, Datum), EvalError> {
    match (l, r) {
        (Scalar::Decimal(t), r) => {
            let r = r.eval(row)?;
            Ok((decimal(t, Some(&r))?, r))
        }
        (l, Scalar::Decimal(t)) => {
            let l = l.eval(row)?;
            let r = decimal(t, Some(&l))?;
            Ok((l, r))
        }
        // Both evaluated, the left's error before the right's, and only
        // then a NULL decides (the real system's eager evaluation).
        (l, r) => {
            let (l, r) = (l.eval(row), r.eval(row));
            match (l?, r?) {
                (Datum::Null, _) | (_, Datum::Null) => Ok((Datum::Null, Datum::Null)),
                (l, r) => Ok((l, r)),
            }
        }
    }
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
    // Which of two errors the real system reports follows its order of
    // errors, which the model does not restate.
    if let (Err(a), Err(b)) = (&l, &r) {
        if a != b {
            return Err(EvalError::Unsupported("two errors in one AND or OR"));
        }
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
            Scalar::Arith(op, l, r) => {
                if let Some(decided) = literal_operands(l, r) {
                    return decided;
                }
                let (l, r) = operands(l, r, row)?;
                arith(*op, &l, &r)
            }
            Scalar::Cmp(op, l, r) => {
                if let Some(decided) = literal_operands(l, r) {
                    return decided;
                }
                let columns = matches!((&**l, &**r), (Scalar::Column(_), Scalar::Column(_)));
                let (l, r) = operands(l, r, row)?;
                // Materialize joins float keys by their bits, where `-0` and
                // `0` differ; an equality of two columns may be such a key.
                if columns && floats::zeros_of_two_signs(&l, &r) {
                    return Err(EvalError::Unsupported(
                        "-0 beside 0 in an equality of columns (a join key's bits)",
                    ));
                }
                compare(*op, &l, &r)
            }
            Scalar::Decimal(t) => decimal(t, None),
            Scalar::Trim(e) => match e.eval(row)? {
                Datum::Text(s) => Ok(Datum::Text(s.trim_end().to_string())),
                d => Ok(d),
            },
            Scalar::Call(f, args) => functions::call(*f, args.len(), &mut |i| args[i].eval(row)),
            Scalar::ToFloat(e, wide) => match &**e {
                Scalar::Decimal(t) => {
                    floats::numeric_literal(t, *wide).map_err(EvalError::Unsupported)
                }
                Scalar::Literal(Datum::Text(t)) => {
                    floats::parse(t, *wide).map_err(EvalError::Unsupported)
                }
                e => match e.eval(row)? {
                    Datum::Null => Ok(Datum::Null),
                    d @ (Datum::Int32(_) | Datum::Int64(_)) => floats::cast(&d, *wide),
                    d if floats::is_float(&d) => floats::cast(&d, *wide),
                    _ => Err(EvalError::Unsupported("a cast to a float of another type")),
                },
            },
            Scalar::And(l, r) => logic(boolean(l.eval(row)), boolean(r.eval(row)), false),
            Scalar::Or(l, r) => logic(boolean(l.eval(row)), boolean(r.eval(row)), true),
            Scalar::Not(e) => Ok(boolean(e.eval(row))?.map_or(Datum::Null, |b| Datum::Bool(!b))),
            Scalar::Neg(e) => match e.eval(row)? {
                Datum::Null => Ok(Datum::Null),
                d if floats::is_float(&d) => Ok(floats::negate(&d).expect("a float")),
                d => {
                    let (v, wide) = int(&d)?;
                    at_width(v.checked_neg(), wide, &v.to_string(), false)
                }
            },
            // The real system may rewrite an IS NULL over an expression that
            // fails so that it never evaluates it; the model does not say.
            Scalar::IsNull(e, is) => match e.eval(row) {
                Ok(d) => Ok(Datum::Bool((d == Datum::Null) == *is)),
                Err(EvalError::Error(_)) => Err(EvalError::Unsupported(
                    "IS NULL of an expression that fails",
                )),
                Err(e) => Err(e),
            },
            Scalar::ToInt(e, wide) => match e.eval(row)? {
                Datum::Null => Ok(Datum::Null),
                d if floats::is_float(&d) => floats::to_int(&d, *wide).expect("a float"),
                d => {
                    let v = int(&d)?.0;
                    at_width(Some(v), *wide, &v.to_string(), false)
                }
            },
            Scalar::In(e, items) => {
                // The OR of the equalities, item after item: an equal item
                // decides, even beside an error; else the error (two unequal: no
                // claim); else
                // NULL if any comparison is NULL (`1 IN (2, NULL)`).
                let mut result = Ok(Datum::Bool(false));
                for item in items {
                    let equal = literal_operands(e, item).unwrap_or_else(|| {
                        let (l, r) = operands(e, item, row)?;
                        compare(Cmp::Eq, &l, &r)
                    });
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
