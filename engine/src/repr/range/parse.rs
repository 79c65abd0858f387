//! A range's text read as the real system reads it (its `strconv.rs`,
//! `parse_range`, read for the facts): `empty`, or a bracket or
//! parenthesis, the lower bound's text up to the comma (none: infinite),
//! the upper bound's up to the closing bracket or parenthesis, and
//! nothing after but spaces. A bound's text is read as its element type
//! reads a string, untrimmed and unquoted (the real system's reader takes
//! no quotes); the range is then made canonical (`Range::new`). A form it
//! rejects is `invalid input syntax for type range: <why>: "<text>"`, a
//! bound it cannot read the same with the element type's error as why;
//! a bound of a form the engine does not read is refused as it is.

use super::{Bound, Range};
use crate::repr::{Datum, UNSUPPORTED};

/// `s` read as a range, each bound read by `element` (a string
/// read as the element type), or the real system's error.
pub fn parse(s: &str, element: impl Fn(&str) -> Result<Datum, String>) -> Result<Range, String> {
    let bounds = read(s, &element).map_err(|why| match why.starts_with(UNSUPPORTED) {
        // A bound the engine cannot read is refused, not wrapped.
        true => why,
        false => format!("invalid input syntax for type range: {why}: \"{s}\""),
    })?;
    match bounds {
        None => Ok(Range::EMPTY),
        Some((lower, upper)) => Range::new(lower, upper),
    }
}

/// The bounds `s` writes (`None`: `empty`), or why it is not a range.
fn read(
    s: &str,
    element: &dyn Fn(&str) -> Result<Datum, String>,
) -> Result<Option<(Bound, Bound)>, String> {
    let rest = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    if let Some(after) = rest.strip_prefix("empty") {
        return match after.trim_start_matches(|c: char| c.is_ascii_whitespace()) {
            "" => Ok(None),
            _ => Err("Junk after \"empty\" key word.".into()),
        };
    }
    let missing_bracket = || "Missing left parenthesis or bracket.".to_string();
    let mut chars = rest.chars();
    let lower_inclusive = match chars.next() {
        Some('[') => true,
        Some('(') => false,
        _ => return Err(missing_bracket()),
    };
    let rest = chars.as_str();
    let (lower, rest) = match rest.chars().next() {
        Some(',') => (None, rest),
        Some(_) => {
            let end = rest.find(',').unwrap_or(rest.len());
            (Some(element(&rest[..end])?), &rest[end..])
        }
        None => return Err("Unexpected end of input.".into()),
    };
    let Some(rest) = rest.strip_prefix(',') else {
        return Err("Missing comma after lower bound.".into());
    };
    let (upper, rest) = match rest.chars().next() {
        Some(']' | ')') => (None, rest),
        Some(_) => {
            let end = rest.find([')', ']']).unwrap_or(rest.len());
            (Some(element(&rest[..end])?), &rest[end..])
        }
        None => return Err("Unexpected end of input.".into()),
    };
    let mut chars = rest.chars();
    let upper_inclusive = match chars.next() {
        Some(']') => true,
        Some(')') => false,
        _ => return Err(missing_bracket()),
    };
    if !chars
        .as_str()
        .trim_start_matches(|c: char| c.is_ascii_whitespace())
        .is_empty()
    {
        return Err("Junk after right parenthesis or bracket.".into());
    }
    let lower = Bound {
        inclusive: lower_inclusive,
        value: lower,
    };
    let upper = Bound {
        inclusive: upper_inclusive,
        value: upper,
    };
    Ok(Some((lower, upper)))
}
