//! `jsonb` as the real system holds it (its `repr/src/adt/jsonb.rs`, read
//! for the facts): a JSON value kept as datums, `null` its `JsonNull`,
//! booleans `False` and `True`, every number a `numeric` (reduced, as
//! rows hold one: `1.0` is `1`), strings, lists, and maps whose keys are
//! sorted by their bytes, a repeated key keeping its last value.
//!
//! Order and equality are the real system's datums': `false`, `true`,
//! strings, arrays, objects, numbers, `null`, in that order (its `Datum`
//! enum's), strings by their bytes, arrays element by element, objects
//! entry by entry (key, then value), numbers by value. PostgreSQL orders
//! jsonb otherwise (by type first, objects by size), a difference
//! docs/semantics.md names.
//!
//! Its text (`Display`) is serde_json's compact form of the value, the
//! real system's `format_jsonb`; `Pretty` its pretty form
//! (`jsonb_pretty`). The reader is `jsonb/parse.rs`. Nesting is at most
//! serde_json's 128 levels deep, the reader's limit, so the recursive
//! walks here stay shallow.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Numeric;

mod parse;

pub use parse::parse;

/// A `jsonb` value. The variants are in the real system's order (see the
/// module), so the derived `Ord` is its order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Jsonb {
    Bool(bool),
    String(String),
    Array(Vec<Jsonb>),
    /// Entries sorted by key, no key twice.
    Object(Vec<(String, Jsonb)>),
    Number(Numeric),
    Null,
}

impl Jsonb {
    /// `jsonb_typeof`'s name of its kind.
    pub fn type_name(&self) -> &'static str {
        match self {
            Jsonb::Null => "null",
            Jsonb::Bool(_) => "boolean",
            Jsonb::Number(_) => "number",
            Jsonb::String(_) => "string",
            Jsonb::Array(_) => "array",
            Jsonb::Object(_) => "object",
        }
    }

    /// The value of key `key` of an object (`None` for another kind or a
    /// key it lacks).
    pub fn field(&self, key: &str) -> Option<&Jsonb> {
        let Jsonb::Object(entries) = self else {
            return None;
        };
        let at = entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()?;
        Some(&entries[at].1)
    }

    /// Element `i` of an array, a negative `i` counting from its end
    /// (`None` out of its bounds or for an object); a scalar is its own
    /// element 0 and -1, as in PostgreSQL and the real system.
    pub fn element(&self, i: i64) -> Option<&Jsonb> {
        let elements = match self {
            Jsonb::Array(elements) => elements,
            Jsonb::Object(_) => return None,
            scalar => return (i == 0 || i == -1).then_some(scalar),
        };
        let len = i64::try_from(elements.len()).ok()?;
        let at = if i < 0 { len + i } else { i };
        usize::try_from(at).ok().and_then(|at| elements.get(at))
    }

    /// An object of `entries` in any order: sorted by key, the last of a
    /// repeated key kept (a stable sort keeps them in their order).
    pub fn object(mut entries: Vec<(String, Jsonb)>) -> Jsonb {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(String, Jsonb)> = Vec::with_capacity(entries.len());
        for entry in entries {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => kept.push(entry),
            }
        }
        Jsonb::Object(kept)
    }

    /// The text `->>` gives: a string's own text, `None` for `null`,
    /// any other value's JSON text.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Jsonb::Null => None,
            Jsonb::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }
}

/// A string as serde_json writes one: quoted, `"` and `\` escaped, the
/// control characters as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`.
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\u{8}' => f.write_str("\\b")?,
            '\t' => f.write_str("\\t")?,
            '\n' => f.write_str("\\n")?,
            '\u{c}' => f.write_str("\\f")?,
            '\r' => f.write_str("\\r")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// The compact text: no spaces, `{"a":1,"b":[true,null]}`.
impl fmt::Display for Jsonb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Jsonb::Null => f.write_str("null"),
            Jsonb::Bool(b) => write!(f, "{b}"),
            Jsonb::Number(n) => write!(f, "{n}"),
            Jsonb::String(s) => write_string(f, s),
            Jsonb::Array(elements) => {
                f.write_str("[")?;
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str("]")
            }
            Jsonb::Object(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// serde_json's pretty text, `jsonb_pretty`'s: two spaces a level, `": "`
/// after a key, an empty array `[]` and an empty object `{}`.
pub struct Pretty<'a>(pub &'a Jsonb);

impl Pretty<'_> {
    fn write(f: &mut fmt::Formatter<'_>, value: &Jsonb, depth: usize) -> fmt::Result {
        let indent = |f: &mut fmt::Formatter<'_>, depth: usize| {
            f.write_str("\n")?;
            f.write_str(&"  ".repeat(depth))
        };
        match value {
            Jsonb::Array(elements) if !elements.is_empty() => {
                f.write_str("[")?;
                for (i, e) in elements.iter().enumerate() {
                    f.write_str(if i > 0 { "," } else { "" })?;
                    indent(f, depth + 1)?;
                    Pretty::write(f, e, depth + 1)?;
                }
                indent(f, depth)?;
                f.write_str("]")
            }
            Jsonb::Object(entries) if !entries.is_empty() => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    f.write_str(if i > 0 { "," } else { "" })?;
                    indent(f, depth + 1)?;
                    write_string(f, k)?;
                    f.write_str(": ")?;
                    Pretty::write(f, v, depth + 1)?;
                }
                indent(f, depth)?;
                f.write_str("}")
            }
            other => write!(f, "{other}"),
        }
    }
}

impl fmt::Display for Pretty<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Pretty::write(f, self.0, 0)
    }
}

#[cfg(test)]
mod tests;
