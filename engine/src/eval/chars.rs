//! Values assigned to columns: the real system's assignment cast, which
//! makes any value a `char(n)` or `varchar(n)` by its text and fails on
//! a string too long where an explicit cast (`cast`) cuts it
//! (`repr::chars` says how).

use super::cast::cast;
use crate::repr::{Datum, ScalarType};

/// `d` as the new value of a column of type `to`, as the real system's
/// assignment cast makes it: any value becomes its text, and a string too
/// long for a `char(n)` or `varchar(n)` fails (`value too long for type
/// character(3)`) unless only blanks are cut. Other types are cast.
pub fn assign(d: Datum, to: ScalarType) -> Result<Datum, String> {
    let Some((kind, length)) = to.chars() else {
        return cast(d, to);
    };
    let converted = match d {
        Datum::Null => return Ok(Datum::Null),
        Datum::Text(s) => kind.convert(&s, length, true),
        d => kind.convert(&d.to_string(), length, true),
    };
    converted.map(Datum::Text)
}
