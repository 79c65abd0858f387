//! Materialize's `list` as its `repr/src/scalar.rs` holds one (read for
//! the facts): a sequence of datums of one element type, itself possibly
//! a list (`int list list`), each inner list of any length (ragged, unlike
//! an array's sub-arrays), NULL among them.
//!
//! The type is an element type of the engine's arrays (`ArrayElem`: lists
//! of `char(n)`, `varchar(n)`, `numeric(p, s)`, ranges, arrays and `jsonb`
//! are refused by name) and a number of layers, at least 1.
//!
//! Two orders, as for arrays: the derived one (`Vec<Datum>`'s) that
//! arrangements, `DISTINCT` and `GROUP BY` use; and SQL's, the real
//! system's datum order, which `=`, `<`, ORDER BY and a top-k use: element
//! by element, NULL equal to NULL and after every value, a prefix first.
//!
//! Its text (`write`) is `format_list` of Materialize's `strconv.rs`, and
//! `parse` its `parse_list`, with their error texts.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::array::{self, ArrayElem, Chars};
use super::{quoted, Datum, ScalarType};

/// A list type: its innermost element type and how many layers of lists
/// hold it (`int list list` has 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ListType {
    pub elem: ArrayElem,
    pub layers: u8,
}

/// The most layers of lists the engine types: beyond them a type is
/// refused by name.
pub const MAX_LAYERS: u8 = 16;

impl ListType {
    /// The list type of elements of type `t`, if the engine has it.
    pub fn of(t: ScalarType) -> Option<ListType> {
        match t {
            ScalarType::List(l) if l.layers < MAX_LAYERS => Some(ListType {
                elem: l.elem,
                layers: l.layers + 1,
            }),
            ScalarType::List(_) => None,
            t => ArrayElem::of(t).map(|elem| ListType { elem, layers: 1 }),
        }
    }

    /// The type of its elements: a list of one layer fewer, or the
    /// innermost type.
    pub fn element(self) -> ScalarType {
        match self.layers {
            1 => self.elem.scalar(),
            n => ScalarType::List(ListType {
                elem: self.elem,
                layers: n - 1,
            }),
        }
    }

    /// The type `n` layers in (`n` at most its layers).
    pub fn nth_element(self, n: usize) -> ScalarType {
        (0..n).fold(ScalarType::List(self), |t, _| match t {
            ScalarType::List(l) => l.element(),
            t => t,
        })
    }

    /// The type's name as the real system prints it: `integer list list`.
    pub fn name(self) -> String {
        let mut name = self.elem.scalar().base_name().to_string();
        for _ in 0..self.layers {
            name.push_str(" list");
        }
        name
    }
}

/// SQL's order of two lists, the real system's datum order: element by
/// element (NULL last), then a prefix first.
pub fn sql_cmp(a: &[Datum], b: &[Datum]) -> Ordering {
    a.iter()
        .zip(b)
        .find_map(|(x, y)| Some(array::Array::element_cmp(x, y)).filter(|o| o.is_ne()))
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

/// Writes `elements` as `format_list` does: in braces, separated by
/// commas, NULL bare, a nested list as its own text, anything else
/// escaped as an array's element is (`array::write_escaped`).
pub fn write(f: &mut fmt::Formatter<'_>, elements: &[Datum]) -> fmt::Result {
    f.write_str("{")?;
    for (i, d) in elements.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        match d {
            Datum::Null => f.write_str("NULL")?,
            Datum::List(inner) => write(f, inner)?,
            d => array::write_escaped(f, &array::element_text(d))?,
        }
    }
    f.write_str("}")
}

/// `s` read as a list as `parse_list` reads it, each element's text read
/// by `element` (`nested`: the elements are lists, so a `{` begins one,
/// its text passed whole to `element`). Every error is `invalid input
/// syntax for type list: <detail>: "<input>"`.
pub fn parse(
    s: &str,
    nested: bool,
    element: impl Fn(&str) -> Result<Datum, String>,
) -> Result<Vec<Datum>, String> {
    let fail = |detail: String| {
        format!(
            "invalid input syntax for type list: {detail}: {}",
            quoted(s)
        )
    };
    let mut chars: Chars = s.chars().peekable();
    match chars.next() {
        Some('{') => {}
        Some(c) => return Err(fail(format!("expected '{{', found {c}"))),
        None => return Err(fail("expected '{', found empty string".into())),
    }
    let mut elements = Vec::new();
    loop {
        array::skip_whitespace(&mut chars);
        match chars.peek().copied() {
            Some('}') => {
                chars.next();
                break;
            }
            _ if elements.is_empty() => {}
            Some(',') => {
                chars.next();
            }
            Some(c) => return Err(fail(format!("expected ',' or '}}', got '{c}'"))),
            None => return Err(fail("unexpected end of input".into())),
        }
        array::skip_whitespace(&mut chars);
        let text = match chars.peek() {
            Some('"') => Some(array::quoted(&mut chars).map_err(fail)?),
            Some('{') if !nested => return Err(fail(UNESCAPED_BRACE.into())),
            Some('{') => Some(embedded(&mut chars).map_err(fail)?),
            Some(_) => array::unquoted(&mut chars).map_err(fail)?,
            None => return Err(fail("unexpected end of input".into())),
        };
        elements.push(match text {
            Some(text) => element(&text).map_err(fail)?,
            None => Datum::Null,
        });
    }
    array::skip_whitespace(&mut chars);
    match chars.next() {
        Some(c) => Err(fail(format!(
            "malformed array literal; contains '{c}' after terminal '}}'"
        ))),
        None => Ok(elements),
    }
}

const UNESCAPED_BRACE: &str = "unescaped '{' at beginning of element; perhaps you want a nested list, e.g. '{a}'::text list list";

/// A nested list's whole text, braces and all, as `lex_embedded_element`
/// takes it: to the `}` that closes its `{`, braces in quotes and escaped
/// characters skipped.
fn embedded(chars: &mut Chars) -> Result<String, String> {
    let mut s = String::new();
    let mut depth = 0;
    let mut in_quotes = false;
    loop {
        let c = chars.next().ok_or("unterminated embedded element")?;
        s.push(c);
        match c {
            '\\' => s.extend(chars.next()),
            '"' => in_quotes = !in_quotes,
            '{' if !in_quotes => depth += 1,
            '}' if !in_quotes => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return Ok(s);
        }
    }
}

#[cfg(test)]
mod tests;
