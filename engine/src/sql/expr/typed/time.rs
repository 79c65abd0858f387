//! `date`, `timestamp` and `timestamptz` among the types, as the real
//! system plans them (`sql/src/func.rs`, `plan/typeconv.rs`, read for the
//! facts): the type names, and the operators and unifications where a
//! `date` meets a `timestamp` or a number.
//!
//! A `date` beside a `timestamp` is cast to one, and a `date` or a
//! `timestamp` beside a `timestamptz` to one, the real system's implicit
//! casts between them (the reverse ones are assignment casts only), in a
//! comparison and in a CASE, COALESCE or GREATEST. Of the arithmetic the real system has on them, only
//! `date - date` (an `integer`) and the arithmetic of an `interval`
//! (`typed::interval`) are planned: it has no `date + integer` or
//! `date - integer`, so those are its `operator does not exist`, as is
//! any other operator between a `date`, `timestamp` or `interval` and a
//! number, a string or a boolean. An operand of unknown type (NULL, a
//! string literal) in arithmetic is refused: the real system may resolve
//! it to an `interval` or a `time`.

use sqlparser::ast::{BinaryOperator, DataType, TimezoneInfo};

use super::{interval, of_day, Typed};
use crate::plan::{BinaryOp, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// The type a time type name means: `date`, `timestamp`, `timestamptz`
/// and `time` without a precision, and `interval` without fields or a
/// precision (`None` for other names; `timestamp(3)`, `timestamptz(3)`,
/// `time(3)`, `time with time zone` and `interval second(3)` are refused
/// by `scalar_type`).
pub fn time_type(t: &DataType) -> Option<ScalarType> {
    match t {
        DataType::Date => Some(ScalarType::Date),
        DataType::Timestamp(None, TimezoneInfo::None | TimezoneInfo::WithoutTimeZone) => {
            Some(ScalarType::Timestamp)
        }
        DataType::Timestamp(None, TimezoneInfo::WithTimeZone | TimezoneInfo::Tz) => {
            Some(ScalarType::TimestampTz)
        }
        DataType::Interval {
            fields: None,
            precision: None,
        } => Some(ScalarType::Interval),
        DataType::Time(None, TimezoneInfo::None | TimezoneInfo::WithoutTimeZone) => {
            Some(ScalarType::Time)
        }
        _ => None,
    }
}

/// What `binary` does with a pair of operands.
pub enum Operands {
    /// The operator is planned.
    Planned(Typed),
    /// Left to the general rules, perhaps with a `date` cast.
    Plain(Typed, Typed),
}

/// A binary operator where an operand is a `date` or `timestamp` (see
/// the module); `Plain` when neither is.
pub fn binary(
    op: &BinaryOperator,
    plan_op: BinaryOp,
    l: Typed,
    r: Typed,
) -> Result<Operands, String> {
    let known = |t: &Typed| t.typ.filter(|_| !t.is_unknown());
    let time = |t: Option<ScalarType>| t.filter(|t| is_time(*t));
    let (lt, rt) = (known(&l), known(&r));
    if time(lt).is_none() && time(rt).is_none() {
        return Ok(Operands::Plain(l, r));
    }
    let arithmetic = matches!(
        plan_op,
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod
    );
    if !arithmetic {
        of_day::refuse_beside_interval([lt, rt], &format!("operator {op}"))?;
        let (l, r) = implicit_timestamps(l, r);
        return Ok(Operands::Plain(l, r));
    }
    if let Some(planned) = of_day::arithmetic(op, plan_op, l.clone(), r.clone())? {
        return Ok(Operands::Planned(planned));
    }
    use ScalarType::Date;
    match (lt, rt) {
        (Some(Date), Some(Date)) if plan_op == BinaryOp::Sub => {
            let nullable = l.nullable || r.nullable;
            let expr = ScalarExpr::Binary(plan_op, Box::new(l.expr), Box::new(r.expr));
            Ok(Operands::Planned(Typed::new(
                expr,
                ScalarType::Int32,
                nullable,
            )))
        }
        (None, _) | (_, None) => Err(unsupported(format!(
            "operator {op} of a {} and a value of unknown type",
            [lt, rt]
                .into_iter()
                .flatten()
                .next()
                .expect("a time")
                .name()
        ))),
        _ => {
            let missing = format!(
                "operator does not exist: {} {op} {}",
                l.type_name(),
                r.type_name()
            );
            match interval::arithmetic(plan_op, l, r) {
                Some(Ok((l, r, typ))) => {
                    Ok(Operands::Planned(interval::planned(plan_op, l, r, typ)))
                }
                Some(Err(refused)) => Err(refused),
                None => Err(missing),
            }
        }
    }
}

/// Whether `t` is a `date`, a `timestamp`, a `timestamptz` or an
/// `interval`.
pub fn is_time(t: ScalarType) -> bool {
    crate::eval::is_time(t)
}

/// A `date` operand cast to a `timestamp` when the other is one.
fn implicit_timestamps(l: Typed, r: Typed) -> (Typed, Typed) {
    let mut values = timestamps(vec![l, r]);
    let r = values.pop().expect("two");
    (values.pop().expect("two"), r)
}

/// `values`, each `date` or `timestamp` among them cast to the latest of
/// `date`, `timestamp` and `timestamptz` among them (the real system's
/// implicit casts; `unify` does the rest).
pub fn timestamps(values: Vec<Typed>) -> Vec<Typed> {
    use ScalarType::{Date, Timestamp, TimestampTz};
    let rank = |t: &Typed| match t.typ.filter(|_| !t.is_unknown()) {
        Some(Date) => 1,
        Some(Timestamp) => 2,
        Some(TimestampTz) => 3,
        _ => 0,
    };
    let latest = values.iter().map(rank).max().unwrap_or(0);
    let to = match latest {
        2 => Timestamp,
        3 => TimestampTz,
        _ => return values,
    };
    values
        .into_iter()
        .map(|v| match (1..latest).contains(&rank(&v)) {
            true => v.cast(to),
            false => v,
        })
        .collect()
}
