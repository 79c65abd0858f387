//! `time` among the operators, as the real system plans it (`sql/src/func.rs`,
//! `plan/typeconv.rs`, read for the facts).
//!
//! Two `time`s compare as times (a string literal beside one read as a
//! `time`); a `time` beside any other known type has no comparison but
//! one: the real system casts a `time` to an `interval` implicitly, so it
//! compares a `time` with an `interval` as two intervals, and unifies the
//! two (in a CASE, COALESCE or GREATEST) as an `interval`; the engine
//! refuses both by name.
//!
//! Its arithmetic is the real system's exact overloads: `time + interval`,
//! `interval + time` and `time - interval` a `time` (wrapped around
//! midnight), `time - time` an `interval`, `date + time` and `time + date`
//! a `timestamp`. Any other arithmetic on a `time` is refused by name:
//! by its implicit cast to an `interval` the real system reaches
//! `interval` overloads with it (`time * 2`, `timestamp + time`), or
//! finds two (`time + time`).

use sqlparser::ast::BinaryOperator;

use super::{interval, Typed};
use crate::plan::BinaryOp;
use crate::repr::{unsupported, ScalarType};

/// The refusal of `what` where the `types` hold a `time` and an
/// `interval` (see the module).
pub fn refuse_beside_interval(
    types: impl IntoIterator<Item = Option<ScalarType>> + Clone,
    what: &str,
) -> Result<(), String> {
    let has = |t: ScalarType| types.clone().into_iter().any(|x| x == Some(t));
    match has(ScalarType::Time) && has(ScalarType::Interval) {
        true => Err(unsupported(format!("{what} of a time and an interval"))),
        false => Ok(()),
    }
}

/// The arithmetic `l op r` where a known operand is a `time`, planned or
/// refused (see the module): `None` when neither is.
pub fn arithmetic(
    op: &BinaryOperator,
    plan_op: BinaryOp,
    l: Typed,
    r: Typed,
) -> Result<Option<Typed>, String> {
    use ScalarType::{Date, Interval, Time, Timestamp};
    let known = |t: &Typed| t.typ.filter(|_| !t.is_unknown());
    let (lt, rt) = (known(&l), known(&r));
    if lt != Some(Time) && rt != Some(Time) {
        return Ok(None);
    }
    let typ = match (plan_op, lt, rt) {
        (BinaryOp::Add | BinaryOp::Sub, Some(Time), Some(Interval))
        | (BinaryOp::Add, Some(Interval), Some(Time)) => Time,
        (BinaryOp::Sub, Some(Time), Some(Time)) => Interval,
        (BinaryOp::Add, Some(Date), Some(Time)) | (BinaryOp::Add, Some(Time), Some(Date)) => {
            Timestamp
        }
        _ => {
            let name = |t: Option<ScalarType>| t.map_or("unknown".into(), ScalarType::name);
            return Err(unsupported(format!(
                "operator {op} of {} and {}",
                name(lt),
                name(rt)
            )));
        }
    };
    Ok(Some(interval::planned(plan_op, l, r, typ)))
}
