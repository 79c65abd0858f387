//! The arithmetic where an `interval` meets a time or a number, as the
//! real system's `+`, `-`, `*` and `/` overloads have it (`sql/src/func.rs`,
//! read for the facts): `interval ± interval` an interval; `timestamp ±
//! interval` and `interval + timestamp` a timestamp; `date ± interval` and
//! `interval + date` a timestamp too (never a date); `timestamp -
//! timestamp` an interval; `interval * double`, `double * interval` and
//! `interval / double` an interval, any other number cast to a `double
//! precision` first (the only overload it reaches by implicit casts).
//! A `timestamptz` takes the overloads of a `timestamp`, its result a
//! `timestamptz` where theirs is a `timestamp`; a `date` or `timestamp`
//! beside it in `-` is cast to one, `timestamptz - timestamptz` the only
//! overload both reach by implicit casts.
//! Every other arithmetic between these types is its `operator does not
//! exist`, except `date - timestamp` and `timestamp - date`, which are
//! refused: which overload the real system resolves them to is not
//! settled here.

use super::Typed;
use crate::plan::{BinaryOp, ScalarExpr};
use crate::repr::{unsupported, ScalarType};

/// The arithmetic `l op r` where one of the two known types is an
/// interval or both are timestamps: `Some` result type and operands as
/// they are planned, or `None` when no overload takes them.
pub fn arithmetic(
    op: BinaryOp,
    l: Typed,
    r: Typed,
) -> Option<Result<(Typed, Typed, ScalarType), String>> {
    use ScalarType::{Date, Float64, Interval, Timestamp, TimestampTz};
    let (lt, rt) = (l.typ?, r.typ?);
    let number =
        |t: ScalarType| t.is_integer() || t.is_float() || t.without_length() == ScalarType::Numeric;
    let planned = |l: Typed, r: Typed, t| Some(Ok((l, r, t)));
    match (op, lt, rt) {
        (BinaryOp::Add | BinaryOp::Sub, Interval, Interval) => planned(l, r, Interval),
        (BinaryOp::Add | BinaryOp::Sub, Timestamp | Date, Interval)
        | (BinaryOp::Add, Interval, Timestamp | Date) => planned(l, r, Timestamp),
        (BinaryOp::Add | BinaryOp::Sub, TimestampTz, Interval)
        | (BinaryOp::Add, Interval, TimestampTz) => planned(l, r, TimestampTz),
        (BinaryOp::Sub, Timestamp, Timestamp) | (BinaryOp::Sub, TimestampTz, TimestampTz) => {
            planned(l, r, Interval)
        }
        (BinaryOp::Sub, TimestampTz, Date | Timestamp)
        | (BinaryOp::Sub, Date | Timestamp, TimestampTz) => {
            planned(l.cast(TimestampTz), r.cast(TimestampTz), Interval)
        }
        (BinaryOp::Sub, Date, Timestamp) | (BinaryOp::Sub, Timestamp, Date) => Some(Err(
            unsupported("operator - between a date and a timestamp"),
        )),
        (BinaryOp::Mul | BinaryOp::Div, Interval, n) if number(n) => {
            planned(l, r.cast(Float64), Interval)
        }
        (BinaryOp::Mul, n, Interval) if number(n) => planned(l.cast(Float64), r, Interval),
        _ => None,
    }
}

/// `l op r` planned as `arithmetic` says.
pub fn planned(op: BinaryOp, l: Typed, r: Typed, typ: ScalarType) -> Typed {
    let nullable = l.nullable || r.nullable;
    let expr = ScalarExpr::Binary(op, Box::new(l.expr), Box::new(r.expr));
    Typed::new(expr, typ, nullable)
}
