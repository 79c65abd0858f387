//! `time` among the operators, as the real system plans it (`sql/src/func.rs`,
//! `plan/typeconv.rs`, read for the facts).
//!
//! Two `time`s compare as times (a string literal beside one read as a
//! `time`); a `time` beside any other known type has no comparison but
//! one: the real system casts a `time` to an `interval` implicitly, so it
//! compares a `time` with an `interval` as two intervals, and unifies the
//! two (in a CASE, COALESCE or GREATEST) as an `interval`; the engine
//! refuses both by name. Arithmetic on a `time` is refused by name.

use sqlparser::ast::BinaryOperator;

use super::Typed;
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

/// The arithmetic `l op r` where a known operand is a `time`: `None` when
/// neither is.
pub fn arithmetic(
    op: &BinaryOperator,
    _plan_op: BinaryOp,
    l: Typed,
    r: Typed,
) -> Result<Option<Typed>, String> {
    let known = |t: &Typed| t.typ.filter(|_| !t.is_unknown());
    if known(&l) != Some(ScalarType::Time) && known(&r) != Some(ScalarType::Time) {
        return Ok(None);
    }
    Err(unsupported(format!("operator {op} of a time")))
}
