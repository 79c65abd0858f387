//! A value assigned to a column by an `INSERT` or an `UPDATE`'s `SET`:
//! the assignment casts Materialize applies, and its error for a type the
//! column cannot take, which names the column (`INSERT`) or the cast
//! (`SET`).

use super::expr::Typed;
use crate::plan::{ScalarExpr, UnaryOp};
use crate::repr::{Column, ScalarType};

/// Where a value is assigned to a column, which names a value of a type
/// the column cannot take as Materialize does: an INSERT by the column, an
/// UPDATE's SET clause by the cast.
#[derive(Clone, Copy)]
pub(super) enum Site {
    Insert,
    Set,
}

/// `t` as the new value of `column`, which must be of its type.
pub(super) fn assignment(column: &Column, t: Typed, site: Site) -> Result<ScalarExpr, String> {
    let mismatch = |found: &str| match site {
        Site::Insert => format!(
            "column \"{}\" is of type {} but expression is of type {found}",
            column.name,
            column.typ.name()
        ),
        Site::Set => format!(
            "SET clause does not support casting from {found} to {}",
            column.typ.name()
        ),
    };
    // A `char` or `varchar` column takes any value's text, too long a
    // string failing where a cast would cut it.
    if column.typ.chars().is_some() {
        let t = t.coerce(column.typ)?;
        return Ok(match t.typ == Some(column.typ) {
            true => t.expr,
            false => ScalarExpr::Unary(UnaryOp::Assign(column.typ), Box::new(t.expr)),
        });
    }
    // An integer of the other width is converted, as the real system's
    // assignment cast does (a `bigint` too large fails when evaluated), and
    // anything is converted to text; a float is converted to an integer
    // or the other float (rounded, or failing when evaluated).
    // A `numeric` column takes any number, rounded to its scale, and a
    // numeric is converted to an integer or a float (rounded, or failing
    // when evaluated), as the real system's assignment casts do.
    let numeric = |typ: ScalarType| typ.without_length() == ScalarType::Numeric;
    // An unsigned integer (`uint2`, `uint4`, `uint8`) is converted to and
    // from any other number, held to the column's range.
    let integer = |typ: ScalarType| typ.is_integer() || typ.is_unsigned();
    let numbers = |typ: ScalarType| integer(typ) || typ.is_float() || numeric(typ);
    if numeric(column.typ) {
        let t = t.coerce(ScalarType::Numeric)?;
        return match t.typ {
            Some(typ) if numbers(typ) => Ok(t.cast(column.typ).expr),
            _ => Err(mismatch(&t.type_name())),
        };
    }
    // A `date`, `timestamp` or `timestamptz` is converted to any other of
    // them, by the implicit or assignment cast between them.
    let instant = |typ: ScalarType| {
        matches!(
            typ,
            ScalarType::Date | ScalarType::Timestamp | ScalarType::TimestampTz
        )
    };
    // A `time` column takes a timestamp's or an interval's time of day,
    // and an `interval` column a `time`, by their assignment or implicit
    // casts.
    let of_day = |typ: ScalarType| {
        matches!(
            (typ, column.typ),
            (
                ScalarType::Timestamp | ScalarType::TimestampTz | ScalarType::Interval,
                ScalarType::Time
            ) | (ScalarType::Time, ScalarType::Interval)
        )
    };
    let t = match t.typ {
        Some(typ) if instant(typ) && instant(column.typ) && !t.is_unknown() => t.cast(column.typ),
        Some(typ) if of_day(typ) && !t.is_unknown() => t.cast(column.typ),
        Some(typ) if integer(typ) && integer(column.typ) => t.cast(column.typ),
        Some(typ) if typ.is_unsigned() && numbers(column.typ) => t.cast(column.typ),
        Some(typ) if typ.is_float() && numbers(column.typ) => t.cast(column.typ),
        Some(typ) if numeric(typ) && numbers(column.typ) => t.cast(column.typ),
        Some(_) if column.typ == ScalarType::Text && !t.is_string_literal() => t.cast(column.typ),
        _ => t,
    };
    Ok(t.expect(column.typ, mismatch)?.expr)
}
