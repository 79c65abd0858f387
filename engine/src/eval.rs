//! Evaluation of scalar expressions and aggregates with SQL semantics.
//!
//! Failures are values of the error stream, not panics: they come back as
//! `DataflowError`s carrying the real system's texts.

use crate::plan::{AggregateFunc, BinaryOp, ScalarExpr, UnaryOp};
use crate::repr::{DataflowError, Datum, Numeric, ScalarType};

/// The real system's text for a value beyond an integer type's bounds.
fn out_of_range(typ: ScalarType) -> DataflowError {
    DataflowError::eval(&format!("{} out of range", typ.name()))
}

fn int4_out_of_range() -> DataflowError {
    out_of_range(ScalarType::Int32)
}

pub fn int8_out_of_range() -> DataflowError {
    out_of_range(ScalarType::Int64)
}

fn division_by_zero() -> DataflowError {
    DataflowError::eval("division by zero")
}

/// Reached only by plans the planner did not type-check.
fn type_error(what: &str, d: &Datum) -> DataflowError {
    DataflowError::eval(&format!("invalid operand for {what}: {d}"))
}

impl ScalarExpr {
    /// Evaluates the expression over `row`.
    ///
    /// Arithmetic and comparisons evaluate both operands (left first, so the
    /// left error wins), then return NULL if either is NULL. AND and OR follow
    /// three-valued logic in which a deciding operand (false for AND, true
    /// for OR) wins over NULL *and* over an error on the other side, in either
    /// order, as in the real system: `b <> 0 AND a / b > 0` never fails.
    pub fn eval(&self, row: &[Datum]) -> Result<Datum, DataflowError> {
        match self {
            ScalarExpr::Column(i) => Ok(row[*i].clone()),
            ScalarExpr::Literal(d) => Ok(d.clone()),
            ScalarExpr::Unary(op, e) => unary(*op, e.eval(row)?),
            ScalarExpr::Cast(to, e) => cast(e.eval(row)?, *to).map_err(|e| DataflowError::eval(&e)),
            ScalarExpr::If { cond, then, els } => match is_true(&cond.eval(row)?) {
                true => then.eval(row),
                false => els.eval(row),
            },
            ScalarExpr::Coalesce(exprs) => {
                for e in exprs {
                    let d = e.eval(row)?;
                    if d != Datum::Null {
                        return Ok(d);
                    }
                }
                Ok(Datum::Null)
            }
            ScalarExpr::Binary(BinaryOp::And, l, r) => logical(false, l, r, row),
            ScalarExpr::Binary(BinaryOp::Or, l, r) => logical(true, l, r, row),
            ScalarExpr::Binary(op, l, r) => {
                let (l, r) = (l.eval(row)?, r.eval(row)?);
                if l == Datum::Null || r == Datum::Null {
                    return Ok(Datum::Null);
                }
                binary(*op, l, r)
            }
        }
    }
}

fn unary(op: UnaryOp, d: Datum) -> Result<Datum, DataflowError> {
    match (op, d) {
        (UnaryOp::IsNull, d) => Ok(Datum::Bool(d == Datum::Null)),
        (UnaryOp::IsNotNull, d) => Ok(Datum::Bool(d != Datum::Null)),
        (_, Datum::Null) => Ok(Datum::Null),
        (UnaryOp::Not, Datum::Bool(b)) => Ok(Datum::Bool(!b)),
        (UnaryOp::Neg, Datum::Int32(i)) => i
            .checked_neg()
            .map(Datum::Int32)
            .ok_or_else(int4_out_of_range),
        (UnaryOp::Neg, Datum::Int64(i)) => i
            .checked_neg()
            .map(Datum::Int64)
            .ok_or_else(int8_out_of_range),
        (op, d) => Err(type_error(&format!("{op:?}"), &d)),
    }
}

/// AND (`decisive == false`) or OR (`decisive == true`).
fn logical(
    decisive: bool,
    l: &ScalarExpr,
    r: &ScalarExpr,
    row: &[Datum],
) -> Result<Datum, DataflowError> {
    let l = l.eval(row);
    if l == Ok(Datum::Bool(decisive)) {
        return Ok(Datum::Bool(decisive));
    }
    let r = r.eval(row);
    if r == Ok(Datum::Bool(decisive)) {
        return Ok(Datum::Bool(decisive));
    }
    match (l?, r?) {
        (Datum::Null, Datum::Bool(_) | Datum::Null) | (Datum::Bool(_), Datum::Null) => {
            Ok(Datum::Null)
        }
        (Datum::Bool(_), Datum::Bool(_)) => Ok(Datum::Bool(!decisive)),
        (Datum::Bool(_) | Datum::Null, d) | (d, _) => Err(type_error("AND/OR", &d)),
    }
}

/// A binary operator other than AND/OR on non-NULL operands.
fn binary(op: BinaryOp, l: Datum, r: Datum) -> Result<Datum, DataflowError> {
    use std::cmp::Ordering::*;
    let ord = |accept: &[std::cmp::Ordering]| -> Result<Datum, DataflowError> {
        if std::mem::discriminant(&l) != std::mem::discriminant(&r) {
            return Err(type_error("comparison", &r));
        }
        Ok(Datum::Bool(accept.contains(&l.cmp(&r))))
    };
    match op {
        BinaryOp::Eq => ord(&[Equal]),
        BinaryOp::NotEq => ord(&[Less, Greater]),
        BinaryOp::Lt => ord(&[Less]),
        BinaryOp::LtEq => ord(&[Less, Equal]),
        BinaryOp::Gt => ord(&[Greater]),
        BinaryOp::GtEq => ord(&[Greater, Equal]),
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => {
            match (&l, &r) {
                (Datum::Int32(a), Datum::Int32(b)) => {
                    let wide = arithmetic(op, i64::from(*a), i64::from(*b))?;
                    i32::try_from(wide)
                        .map(Datum::Int32)
                        .map_err(|_| int4_out_of_range())
                }
                (Datum::Int64(a), Datum::Int64(b)) => arithmetic(op, *a, *b).map(Datum::Int64),
                _ => Err(type_error(
                    "arithmetic",
                    if matches!(l, Datum::Int32(_) | Datum::Int64(_)) {
                        &r
                    } else {
                        &l
                    },
                )),
            }
        }
        BinaryOp::Like | BinaryOp::ILike => match (&l, &r) {
            (Datum::Text(text), Datum::Text(pattern)) => {
                let fold = |s: &str| match op {
                    BinaryOp::ILike => s.to_lowercase(),
                    _ => s.to_string(),
                };
                let text: Vec<char> = fold(text).chars().collect();
                let pattern: Vec<char> = fold(pattern).chars().collect();
                like(&text, &pattern)
                    .map(Datum::Bool)
                    .map_err(DataflowError::eval)
            }
            _ => Err(type_error(
                "LIKE",
                if matches!(l, Datum::Text(_)) { &r } else { &l },
            )),
        },
        BinaryOp::And | BinaryOp::Or => unreachable!("handled by `logical`"),
    }
}

/// Whether `text` matches the LIKE `pattern` as a whole; the error is the
/// real system's text for a pattern ending in its escape character.
fn like(text: &[char], pattern: &[char]) -> Result<bool, &'static str> {
    // Dynamic programming over (pattern prefix, text prefix): `matched[j]`
    // says whether the pattern so far matches the first j characters.
    let mut matched = vec![false; text.len() + 1];
    matched[0] = true;
    let mut p = 0;
    while p < pattern.len() {
        let (literal, next) = match pattern[p] {
            '%' => {
                // Any run: every length from the first match on.
                if let Some(first) = matched.iter().position(|m| *m) {
                    matched[first..].fill(true);
                }
                p += 1;
                continue;
            }
            '_' => (None, p + 1),
            '\\' => match pattern.get(p + 1) {
                Some(c) => (Some(*c), p + 2),
                None => return Err("LIKE pattern must not end with escape character"),
            },
            c => (Some(c), p + 1),
        };
        for j in (0..text.len()).rev() {
            matched[j + 1] = matched[j] && literal.is_none_or(|c| c == text[j]);
        }
        matched[0] = false;
        p = next;
    }
    Ok(matched[text.len()])
}

/// 64-bit arithmetic; a 32-bit operation runs here on widened operands and
/// its caller narrows the result, so `i32::MIN / -1` fails there.
fn arithmetic(op: BinaryOp, a: i64, b: i64) -> Result<i64, DataflowError> {
    if matches!(op, BinaryOp::Div | BinaryOp::Mod) && b == 0 {
        return Err(division_by_zero());
    }
    match op {
        BinaryOp::Add => a.checked_add(b),
        BinaryOp::Sub => a.checked_sub(b),
        BinaryOp::Mul => a.checked_mul(b),
        BinaryOp::Div => a.checked_div(b),
        // Only i64::MIN % -1 overflows, and its remainder is 0.
        BinaryOp::Mod => Some(a.checked_rem(b).unwrap_or(0)),
        _ => unreachable!("not arithmetic"),
    }
    .ok_or_else(int8_out_of_range)
}

/// A string read as a value of type `to`, with the real system's texts.
pub fn parse_as(s: &str, to: ScalarType) -> Result<Datum, String> {
    let invalid = |e: std::num::ParseIntError| {
        format!("invalid input syntax for type {}: {e}: \"{s}\"", to.name())
    };
    match to {
        ScalarType::Text => Ok(Datum::Text(s.to_string())),
        ScalarType::Int32 => s.trim().parse().map(Datum::Int32).map_err(invalid),
        ScalarType::Int64 => s.trim().parse().map(Datum::Int64).map_err(invalid),
        ScalarType::Numeric => Numeric::parse(s.trim())
            .map(Datum::Numeric)
            .ok_or_else(|| format!("invalid input syntax for type numeric: \"{s}\"")),
        ScalarType::Bool => match s.trim().to_lowercase().as_str() {
            "t" | "true" | "y" | "yes" | "on" | "1" => Ok(Datum::Bool(true)),
            "f" | "false" | "n" | "no" | "off" | "0" => Ok(Datum::Bool(false)),
            _ => Err(format!("invalid input syntax for type boolean: \"{s}\"")),
        },
    }
}

/// Whether PostgreSQL has a cast from `from` to `to` (explicit or implicit).
pub fn castable(from: ScalarType, to: ScalarType) -> bool {
    use ScalarType::*;
    from == to
        || matches!(
            (from, to),
            (Int32 | Int64, Int32 | Int64) | (_, Text) | (Text, _) | (Int32, Bool) | (Bool, Int32)
        )
}

/// `d` converted to `to` (a cast the planner checked with [`castable`]).
pub fn cast(d: Datum, to: ScalarType) -> Result<Datum, String> {
    let range = |t: ScalarType| format!("{} out of range", t.name());
    Ok(match (d, to) {
        (Datum::Null, _) => Datum::Null,
        (Datum::Text(s), to) => parse_as(&s, to)?,
        (d, ScalarType::Text) => Datum::Text(d.to_string()),
        (Datum::Int32(i), ScalarType::Int32) => Datum::Int32(i),
        (Datum::Int32(i), ScalarType::Int64) => Datum::Int64(i.into()),
        (Datum::Int64(i), ScalarType::Int64) => Datum::Int64(i),
        (Datum::Int64(i), ScalarType::Int32) => {
            Datum::Int32(i32::try_from(i).map_err(|_| range(ScalarType::Int32))?)
        }
        (Datum::Int32(i), ScalarType::Bool) => Datum::Bool(i != 0),
        (Datum::Bool(b), ScalarType::Int32) => Datum::Int32(b.into()),
        (Datum::Bool(b), ScalarType::Bool) => Datum::Bool(b),
        (Datum::Numeric(n), ScalarType::Numeric) => Datum::Numeric(n),
        (d, to) => return Err(format!("cannot cast {d} to {}", to.name())),
    })
}

/// Whether a predicate's value keeps a row: only `true` does (NULL drops it).
pub fn is_true(d: &Datum) -> bool {
    *d == Datum::Bool(true)
}

/// Applies an aggregate to one group's values, each with its (consolidated,
/// positive) multiplicity. NULLs are ignored by everything but `count(*)`.
pub fn aggregate(func: AggregateFunc, values: &[(Datum, i64)]) -> Result<Datum, DataflowError> {
    debug_assert!(
        values.iter().all(|(_, m)| *m > 0),
        "non-positive multiplicity"
    );
    let non_null = || values.iter().filter(|(d, _)| *d != Datum::Null);
    fn count<'a>(
        mut values: impl Iterator<Item = &'a (Datum, i64)>,
    ) -> Result<Datum, DataflowError> {
        values
            .try_fold(0i64, |n, (_, m)| n.checked_add(*m))
            .map(Datum::Int64)
            .ok_or_else(int8_out_of_range)
    }
    match func {
        AggregateFunc::CountAll => count(values.iter()),
        AggregateFunc::Count => count(non_null()),
        AggregateFunc::Sum => {
            // Accumulated wide so that only the total can overflow, whatever
            // order the values come in.
            // The sum of `integer`s is a `bigint`, as in PostgreSQL.
            let mut sum: Option<i128> = None;
            for (d, m) in non_null() {
                let i = match d {
                    Datum::Int32(i) => i64::from(*i),
                    Datum::Int64(i) => *i,
                    d => return Err(type_error("sum", d)),
                };
                let term = i128::from(i) * i128::from(*m);
                sum = Some(
                    sum.unwrap_or(0)
                        .checked_add(term)
                        .ok_or_else(int8_out_of_range)?,
                );
            }
            sum.map_or(Ok(Datum::Null), |s| {
                i64::try_from(s)
                    .map(Datum::Int64)
                    .map_err(|_| int8_out_of_range())
            })
        }
        AggregateFunc::Avg => {
            let (mut sum, mut n) = (0i128, 0i128);
            for (d, m) in non_null() {
                let i = match d {
                    Datum::Int32(i) => i64::from(*i),
                    Datum::Int64(i) => *i,
                    d => return Err(type_error("avg", d)),
                };
                let m = i128::from(*m);
                sum = i128::from(i)
                    .checked_mul(m)
                    .and_then(|t| sum.checked_add(t))
                    .ok_or_else(numeric_out_of_range)?;
                n += m;
            }
            if n == 0 {
                return Ok(Datum::Null);
            }
            average(sum, n).map(Datum::Numeric)
        }
        AggregateFunc::Min => Ok(non_null()
            .map(|(d, _)| d)
            .min()
            .cloned()
            .unwrap_or(Datum::Null)),
        AggregateFunc::Max => Ok(non_null()
            .map(|(d, _)| d)
            .max()
            .cloned()
            .unwrap_or(Datum::Null)),
    }
}

fn numeric_out_of_range() -> DataflowError {
    DataflowError::eval("numeric out of range")
}

/// `sum / n` as PostgreSQL's numeric division gives it (`n > 0`): rounded
/// half away from zero at the display scale `select_div_scale` picks, at
/// least 16 significant digits counted in base-10000 digits.
pub fn average(sum: i128, n: i128) -> Result<Numeric, DataflowError> {
    // The weight and leading digit of a value in base 10000 (0 for zero).
    fn lead(v: i128) -> (i64, u128) {
        let (mut v, mut weight) = (v.unsigned_abs(), 0);
        while v >= 10_000 {
            v /= 10_000;
            weight += 1;
        }
        (weight, v)
    }
    let ((w1, d1), (w2, d2)) = (lead(sum), lead(n));
    let qweight = w1 - w2 - i64::from(d1 <= d2);
    let scale = u32::try_from((16 - 4 * qweight).max(0)).map_err(|_| numeric_out_of_range())?;
    let scaled = 10i128
        .checked_pow(scale)
        .and_then(|p| sum.checked_mul(p))
        .ok_or_else(numeric_out_of_range)?;
    let (q, r) = (scaled / n, scaled % n);
    let mantissa = if 2 * r.abs() >= n {
        q + scaled.signum()
    } else {
        q
    };
    Ok(Numeric { mantissa, scale })
}

/// A global aggregate's value over no input rows: 0 for counts, else NULL.
pub fn empty_aggregate(func: AggregateFunc) -> Datum {
    match func {
        AggregateFunc::CountAll | AggregateFunc::Count => Datum::Int64(0),
        AggregateFunc::Sum | AggregateFunc::Avg | AggregateFunc::Min | AggregateFunc::Max => {
            Datum::Null
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AggregateFunc::*;
    use Datum::{Bool, Int32, Int64 as Int, Null, Text};

    fn lit(d: Datum) -> Box<ScalarExpr> {
        Box::new(ScalarExpr::Literal(d))
    }
    fn bin(op: BinaryOp, l: Datum, r: Datum) -> Result<Datum, DataflowError> {
        ScalarExpr::Binary(op, lit(l), lit(r)).eval(&[])
    }
    /// `1 / 0`: an expression that fails.
    fn failing() -> Box<ScalarExpr> {
        Box::new(ScalarExpr::Binary(BinaryOp::Div, lit(Int(1)), lit(Int(0))))
    }
    fn err(text: &str) -> Result<Datum, DataflowError> {
        Err(DataflowError(text.to_string()))
    }

    #[test]
    fn columns_and_literals() {
        let row = [Int(7), Text("x".into())];
        assert_eq!(ScalarExpr::Column(1).eval(&row), Ok(Text("x".into())));
        assert_eq!(ScalarExpr::Literal(Null).eval(&row), Ok(Null));
    }

    #[test]
    fn arithmetic_and_errors() {
        assert_eq!(bin(BinaryOp::Add, Int(2), Int(3)), Ok(Int(5)));
        assert_eq!(bin(BinaryOp::Sub, Int(2), Int(3)), Ok(Int(-1)));
        assert_eq!(bin(BinaryOp::Mul, Int(-2), Int(3)), Ok(Int(-6)));
        assert_eq!(bin(BinaryOp::Div, Int(-7), Int(2)), Ok(Int(-3)));
        assert_eq!(bin(BinaryOp::Mod, Int(-7), Int(2)), Ok(Int(-1)));
        assert_eq!(bin(BinaryOp::Mod, Int(i64::MIN), Int(-1)), Ok(Int(0)));
        let div0 = err("Evaluation error: division by zero");
        assert_eq!(bin(BinaryOp::Div, Int(1), Int(0)), div0);
        assert_eq!(bin(BinaryOp::Mod, Int(1), Int(0)), div0);
        let range = err("Evaluation error: bigint out of range");
        assert_eq!(bin(BinaryOp::Add, Int(i64::MAX), Int(1)), range);
        assert_eq!(bin(BinaryOp::Mul, Int(i64::MAX), Int(2)), range);
        assert_eq!(bin(BinaryOp::Div, Int(i64::MIN), Int(-1)), range);
        let neg = ScalarExpr::Unary(UnaryOp::Neg, lit(Int(i64::MIN)));
        assert_eq!(neg.eval(&[]), range);
    }

    #[test]
    fn null_propagation() {
        assert_eq!(bin(BinaryOp::Add, Null, Int(1)), Ok(Null));
        assert_eq!(bin(BinaryOp::Div, Int(1), Null), Ok(Null));
        assert_eq!(bin(BinaryOp::Eq, Null, Null), Ok(Null));
        assert_eq!(
            ScalarExpr::Unary(UnaryOp::Not, lit(Null)).eval(&[]),
            Ok(Null)
        );
        assert_eq!(
            ScalarExpr::Unary(UnaryOp::Neg, lit(Null)).eval(&[]),
            Ok(Null)
        );
        // An error in an operand wins over a NULL in the other.
        let e = ScalarExpr::Binary(BinaryOp::Add, lit(Null), failing());
        assert_eq!(e.eval(&[]), err("Evaluation error: division by zero"));
    }

    #[test]
    fn is_null() {
        let is_null = |d| ScalarExpr::Unary(UnaryOp::IsNull, lit(d)).eval(&[]);
        let is_not_null = |d| ScalarExpr::Unary(UnaryOp::IsNotNull, lit(d)).eval(&[]);
        assert_eq!(is_null(Null), Ok(Bool(true)));
        assert_eq!(is_null(Int(0)), Ok(Bool(false)));
        assert_eq!(is_not_null(Null), Ok(Bool(false)));
        assert_eq!(is_not_null(Text(String::new())), Ok(Bool(true)));
    }

    #[test]
    fn comparisons() {
        assert_eq!(bin(BinaryOp::Eq, Int(1), Int(1)), Ok(Bool(true)));
        assert_eq!(bin(BinaryOp::NotEq, Int(1), Int(1)), Ok(Bool(false)));
        assert_eq!(bin(BinaryOp::Lt, Int(-1), Int(1)), Ok(Bool(true)));
        assert_eq!(bin(BinaryOp::LtEq, Int(1), Int(1)), Ok(Bool(true)));
        assert_eq!(
            bin(BinaryOp::Gt, Text("b".into()), Text("a".into())),
            Ok(Bool(true))
        );
        assert_eq!(
            bin(BinaryOp::GtEq, Bool(false), Bool(true)),
            Ok(Bool(false))
        );
        assert!(bin(BinaryOp::Eq, Int(1), Text("1".into())).is_err());
    }

    #[test]
    fn three_valued_logic() {
        let t = [Bool(true), Bool(false), Null];
        // Rows: left operand; columns: right operand (true, false, NULL).
        let (t_, f_) = (Bool(true), Bool(false));
        let and = [
            [t_.clone(), f_.clone(), Null],
            [f_.clone(), f_.clone(), f_.clone()],
            [Null, f_.clone(), Null],
        ];
        let or = [
            [t_.clone(), t_.clone(), t_.clone()],
            [t_.clone(), f_.clone(), Null],
            [t_.clone(), Null, Null],
        ];
        for (i, l) in t.iter().enumerate() {
            for (j, r) in t.iter().enumerate() {
                assert_eq!(
                    bin(BinaryOp::And, l.clone(), r.clone()),
                    Ok(and[i][j].clone())
                );
                assert_eq!(
                    bin(BinaryOp::Or, l.clone(), r.clone()),
                    Ok(or[i][j].clone())
                );
            }
        }
    }

    #[test]
    fn deciding_operand_beats_errors_in_either_order() {
        let div0 = err("Evaluation error: division by zero");
        let e = |op, l: Box<ScalarExpr>, r: Box<ScalarExpr>| ScalarExpr::Binary(op, l, r).eval(&[]);
        assert_eq!(
            e(BinaryOp::And, lit(Bool(false)), failing()),
            Ok(Bool(false))
        );
        assert_eq!(
            e(BinaryOp::And, failing(), lit(Bool(false))),
            Ok(Bool(false))
        );
        assert_eq!(e(BinaryOp::Or, failing(), lit(Bool(true))), Ok(Bool(true)));
        assert_eq!(e(BinaryOp::And, lit(Bool(true)), failing()), div0);
        assert_eq!(e(BinaryOp::And, failing(), lit(Null)), div0);
        assert_eq!(e(BinaryOp::Or, lit(Bool(false)), failing()), div0);
    }

    #[test]
    fn predicates() {
        assert!(is_true(&Bool(true)));
        assert!(!is_true(&Bool(false)));
        assert!(!is_true(&Null));
        assert!(!is_true(&Int(1)));
    }

    #[test]
    fn aggregates() {
        let values = [(Int(3), 2), (Null, 4), (Int(-1), 1)];
        assert_eq!(aggregate(CountAll, &values), Ok(Int(7)));
        assert_eq!(aggregate(Count, &values), Ok(Int(3)));
        assert_eq!(aggregate(Sum, &values), Ok(Int(5)));
        assert_eq!(aggregate(Min, &values), Ok(Int(-1)));
        assert_eq!(aggregate(Max, &values), Ok(Int(3)));
        let texts = [(Text("b".into()), 1), (Text("a".into()), 3)];
        assert_eq!(aggregate(Min, &texts), Ok(Text("a".into())));
        assert_eq!(aggregate(Max, &texts), Ok(Text("b".into())));
    }

    #[test]
    fn aggregates_over_nulls_only() {
        let nulls = [(Null, 2)];
        assert_eq!(aggregate(CountAll, &nulls), Ok(Int(2)));
        assert_eq!(aggregate(Count, &nulls), Ok(Int(0)));
        for func in [Sum, Min, Max] {
            assert_eq!(aggregate(func, &nulls), Ok(Null));
        }
    }

    #[test]
    fn avg_is_a_numeric_at_postgres_division_scale() {
        let avg = |vals: &[i64]| {
            let values: Vec<_> = vals.iter().map(|v| (Int(*v), 1)).collect();
            aggregate(Avg, &values).map(|d| d.to_string())
        };
        assert_eq!(avg(&[1, 2]), Ok("1.5000000000000000".into()));
        assert_eq!(avg(&[1, 2, 4]), Ok("2.3333333333333333".into()));
        assert_eq!(avg(&[-1, -2]), Ok("-1.5000000000000000".into()));
        assert_eq!(avg(&[-1, -2, -4]), Ok("-2.3333333333333333".into()));
        assert_eq!(avg(&[2, 3, 3]), Ok("2.6666666666666667".into()));
        assert_eq!(
            avg(&[1_000_000, 2_000_000]),
            Ok("1500000.000000000000".into())
        );
        assert_eq!(avg(&[10_000, 10_000]), Ok("10000.0000000000000000".into()));
        assert_eq!(avg(&[0, 0]), Ok("0.00000000000000000000".into()));
        assert_eq!(aggregate(Avg, &[(Datum::Null, 2)]), Ok(Datum::Null));
    }

    #[test]
    fn numerics_order_by_value() {
        let n = |s: &str| Numeric::parse(s).unwrap();
        assert!(n("-1.5") < n("-1.25"));
        assert!(n("-0.5") < n("0.5"));
        assert!(n("1.25") < n("1.5"));
        assert!(n("2") > n("1.99"));
        assert_eq!(n("-0.05").to_string(), "-0.05");
    }

    #[test]
    fn sum_overflow_is_an_error() {
        let range = err("Evaluation error: bigint out of range");
        assert_eq!(aggregate(Sum, &[(Int(i64::MAX), 1), (Int(1), 1)]), range);
        assert_eq!(aggregate(Sum, &[(Int(i64::MAX / 2 + 1), 2)]), range);
        // Only the total counts: an intermediate overflow is no error.
        let values = [(Int(i64::MAX), 1), (Int(1), 1), (Int(-5), 1)];
        assert_eq!(aggregate(Sum, &values), Ok(Int(i64::MAX - 4)));
    }

    #[test]
    fn empty_aggregates() {
        assert_eq!(empty_aggregate(CountAll), Int(0));
        assert_eq!(empty_aggregate(Count), Int(0));
        for func in [Sum, Min, Max] {
            assert_eq!(empty_aggregate(func), Null);
        }
    }

    #[test]
    fn integers_overflow_at_their_own_width() {
        let int4_range = err("Evaluation error: integer out of range");
        let int8_range = err("Evaluation error: bigint out of range");
        assert_eq!(bin(BinaryOp::Add, Int32(i32::MAX), Int32(1)), int4_range);
        assert_eq!(
            bin(BinaryOp::Add, Int(i64::from(i32::MAX)), Int(1)),
            Ok(Int(2_147_483_648))
        );
        assert_eq!(bin(BinaryOp::Mul, Int32(65_536), Int32(32_768)), int4_range);
        assert_eq!(bin(BinaryOp::Div, Int32(i32::MIN), Int32(-1)), int4_range);
        assert_eq!(bin(BinaryOp::Mod, Int32(i32::MIN), Int32(-1)), Ok(Int32(0)));
        assert_eq!(bin(BinaryOp::Sub, Int32(-7), Int32(2)), Ok(Int32(-9)));
        assert_eq!(bin(BinaryOp::Add, Int(i64::MAX), Int(1)), int8_range);
        let neg = ScalarExpr::Unary(UnaryOp::Neg, lit(Int32(i32::MIN)));
        assert_eq!(neg.eval(&[]), int4_range);
        // The sum and count of integers are bigints.
        let values = [(Int32(i32::MAX), 2)];
        assert_eq!(aggregate(Sum, &values), Ok(Int(2 * i64::from(i32::MAX))));
        assert_eq!(aggregate(Count, &values), Ok(Int(2)));
    }

    #[test]
    fn casts() {
        let c = |d, to| ScalarExpr::Cast(to, lit(d)).eval(&[]);
        use ScalarType as T;
        assert_eq!(c(Int32(5), T::Int64), Ok(Int(5)));
        assert_eq!(c(Int(5), T::Int32), Ok(Int32(5)));
        assert_eq!(
            c(Int(1 << 40), T::Int32),
            err("Evaluation error: integer out of range")
        );
        assert_eq!(c(Int32(-3), T::Text), Ok(Text("-3".into())));
        assert_eq!(c(Bool(true), T::Text), Ok(Text("true".into())));
        assert_eq!(c(Text(" 42 ".into()), T::Int32), Ok(Int32(42)));
        assert_eq!(c(Text("yes".into()), T::Bool), Ok(Bool(true)));
        assert_eq!(c(Int32(0), T::Bool), Ok(Bool(false)));
        assert_eq!(c(Bool(true), T::Int32), Ok(Int32(1)));
        assert_eq!(c(Null, T::Int32), Ok(Null));
        assert_eq!(
            c(Text("x".into()), T::Int64),
            err("Evaluation error: invalid input syntax for type bigint: invalid digit found in string: \"x\"")
        );
        assert!(castable(T::Int32, T::Bool) && !castable(T::Int64, T::Bool));
    }

    #[test]
    fn case_and_coalesce_evaluate_only_what_they_need() {
        let case = |cond: Box<ScalarExpr>, then: Box<ScalarExpr>| {
            ScalarExpr::If {
                cond,
                then,
                els: lit(Int32(0)),
            }
            .eval(&[])
        };
        assert_eq!(case(lit(Bool(false)), failing()), Ok(Int32(0)));
        assert_eq!(case(lit(Null), failing()), Ok(Int32(0)));
        assert_eq!(case(lit(Bool(true)), lit(Int32(1))), Ok(Int32(1)));
        assert_eq!(
            case(failing(), lit(Int32(1))),
            err("Evaluation error: division by zero")
        );
        let coalesce = |exprs: Vec<ScalarExpr>| ScalarExpr::Coalesce(exprs).eval(&[]);
        assert_eq!(
            coalesce(vec![*lit(Null), *lit(Int32(2)), *failing()]),
            Ok(Int32(2))
        );
        assert_eq!(coalesce(vec![*lit(Null), *lit(Null)]), Ok(Null));
        assert_eq!(
            coalesce(vec![*lit(Null), *failing()]),
            err("Evaluation error: division by zero")
        );
    }

    #[test]
    fn like_patterns() {
        let like = |t: &str, p: &str| bin(BinaryOp::Like, Text(t.into()), Text(p.into()));
        for (text, pattern, expected) in [
            ("abc", "abc", true),
            ("abc", "ab", false),
            ("abc", "a%", true),
            ("abc", "%c", true),
            ("abc", "%b%", true),
            ("abc", "a_c", true),
            ("abc", "a__c", false),
            ("", "%", true),
            ("", "_", false),
            ("a%c", "a\\%c", true),
            ("abc", "a\\%c", false),
            ("aXbXc", "%X%X%", true),
            ("ABC", "abc", false),
        ] {
            assert_eq!(
                like(text, pattern),
                Ok(Bool(expected)),
                "{text} LIKE {pattern}"
            );
        }
        assert_eq!(
            bin(BinaryOp::ILike, Text("ABC".into()), Text("a%".into())),
            Ok(Bool(true))
        );
        assert_eq!(
            like("a", "a\\"),
            err("Evaluation error: LIKE pattern must not end with escape character")
        );
        assert_eq!(bin(BinaryOp::Like, Null, Text("%".into())), Ok(Null));
    }
}
