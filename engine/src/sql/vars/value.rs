//! The kinds of value Materialize's session variables take, each read
//! from a `SET`'s list of values and written as `SHOW` prints it, with
//! its errors, as Materialize's `Value` implementations
//! (`sql/src/session/vars/value.rs`) read and format them. A form the
//! engine cannot read exactly is refused by name.

use crate::repr::ident::{self, MAX_IDENTIFIER_BYTES};
use crate::repr::{quoted, unsupported};

/// What a variable holds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// Any one string, kept as given.
    Text,
    /// A string, or none (the empty string).
    OptionalText,
    /// `t`, `true`, `on`, `f`, `false`, `off`, in lower case; shown `on`
    /// or `off`.
    Bool,
    /// An `i32`, as Rust reads it.
    Integer,
    /// A `u32`, as Rust reads it.
    Unsigned,
    /// A whole number of a unit (`us`, `ms`, the default, `s`, `min`,
    /// `h`, `d`), shown in the largest unit that divides it.
    Duration,
    /// One of a few names, in any case: each accepted name and how it is
    /// shown.
    Choice(&'static [(&'static str, &'static str)]),
    /// `DateStyle`: only `ISO` and `MDY`, in any case, order and number.
    DateStyle,
    /// A list of identifiers, each kept as given.
    Identifiers,
}

impl Kind {
    /// The name Materialize's `type_name` gives the kind, for
    /// `requires a "..." value`.
    fn type_name(self) -> &'static str {
        match self {
            Kind::Text | Kind::Choice(_) => "string",
            Kind::OptionalText => "optional string",
            Kind::Bool => "boolean",
            Kind::Integer => "integer",
            Kind::Unsigned => "unsigned integer",
            Kind::Duration => "duration",
            Kind::DateStyle => "string list",
            Kind::Identifiers => "identifier list",
        }
    }
}

/// `values` read as a value of `kind` for the variable `name`, as `SHOW`
/// would print it, or Materialize's error.
pub(super) fn parse(name: &str, kind: Kind, values: &[String]) -> Result<String, String> {
    let requires = || {
        format!(
            "parameter {} requires a {} value",
            quoted(name),
            quoted(kind.type_name())
        )
    };
    match kind {
        Kind::DateStyle => return date_style(name, values),
        Kind::Identifiers => return identifiers(name, values),
        _ => {}
    }
    let value = single(name, values)?;
    match kind {
        Kind::Text => Ok(value.to_string()),
        Kind::OptionalText => Ok(value.to_string()),
        Kind::Bool => match value {
            "t" | "true" | "on" => Ok("on".into()),
            "f" | "false" | "off" => Ok("off".into()),
            _ => Err(requires()),
        },
        Kind::Integer => value
            .parse::<i32>()
            .map(|n| n.to_string())
            .map_err(|_| requires()),
        Kind::Unsigned => value
            .parse::<u32>()
            .map(|n| n.to_string())
            .map_err(|_| requires()),
        Kind::Duration => duration(name, value, requires),
        Kind::Choice(names) => names
            .iter()
            .find(|(accepted, _)| accepted.eq_ignore_ascii_case(value))
            .map(|(_, shown)| shown.to_string())
            .ok_or_else(|| {
                format!(
                    "invalid value for parameter {}: {}",
                    quoted(name),
                    quoted(value)
                )
            }),
        Kind::DateStyle | Kind::Identifiers => unreachable!("read above"),
    }
}

/// Materialize's `extract_single_value`.
fn single<'a>(name: &str, values: &'a [String]) -> Result<&'a str, String> {
    match values {
        [value] => Ok(value),
        _ => Err(format!(
            "parameter {} cannot have value {}: expects a single value",
            quoted(name),
            values
                .iter()
                .map(|v| quoted(v))
                .collect::<Vec<_>>()
                .join(",")
        )),
    }
}

const SEC_PER_MIN: u64 = 60;
const SEC_PER_HOUR: u64 = 60 * 60;
const SEC_PER_DAY: u64 = 24 * 60 * 60;

/// Materialize's `Duration::parse`, then its `format`.
fn duration(name: &str, value: &str, requires: impl Fn() -> String) -> Result<String, String> {
    let s = value.trim();
    if !s.is_ascii() {
        // Materialize splits it at a count of characters taken for bytes.
        return Err(unsupported(format!("{name} other than ASCII")));
    }
    let split = s.find(|c: char| !c.is_numeric()).unwrap_or(s.len());
    let n = s[..split].parse::<u64>().map_err(|_| requires())?;
    let (micros_per, secs_per) = match s[split..].trim_start() {
        "us" => (Some(1), 0),
        "ms" | "" => (Some(1_000), 0),
        "s" => (None, 1),
        "min" => (None, SEC_PER_MIN),
        "h" => (None, SEC_PER_HOUR),
        "d" => (None, SEC_PER_DAY),
        unit => {
            // Materialize's reason is a format string it never fills in.
            return Err(format!(
                "parameter {} cannot have value {}: expected us, ms, s, min, h, or d but got {{o:?}}",
                quoted(name),
                quoted(unit)
            ));
        }
    };
    let micros = match micros_per {
        Some(per) => u128::from(n) * per,
        None => {
            let secs = n.checked_mul(secs_per).ok_or_else(|| {
                format!(
                    "parameter {} cannot have value {}: expected value to fit in u64",
                    quoted(name),
                    quoted(s)
                )
            })?;
            if secs == u64::MAX {
                return Ok("0".into());
            }
            u128::from(secs) * 1_000_000
        }
    };
    Ok(format_duration(micros))
}

/// Materialize's `Duration::format`: the least significant unit that
/// prints it whole.
fn format_duration(micros: u128) -> String {
    let (secs, sub) = (micros / 1_000_000, micros % 1_000_000);
    if sub > 0 {
        return match sub % 1_000 {
            0 => format!("{} ms", secs * 1_000 + sub / 1_000),
            _ => format!("{micros} us"),
        };
    }
    let units = [
        (SEC_PER_DAY, "d"),
        (SEC_PER_HOUR, "h"),
        (SEC_PER_MIN, "min"),
    ];
    match units
        .iter()
        .find(|(per, _)| secs != 0 && secs % u128::from(*per) == 0)
    {
        Some((per, unit)) => format!("{} {unit}", secs / u128::from(*per)),
        None => format!("{secs} s"),
    }
}

/// Materialize's `DateStyle::parse`: each value split at commas as an
/// identifier list, each part `ISO` or `MDY` in any case; the value is
/// always `ISO, MDY`. Materialize lexes each part; the engine reads words
/// and quoted words only, and refuses the rest by name.
fn date_style(name: &str, values: &[String]) -> Result<String, String> {
    for value in values.iter().filter(|v| !v.trim().is_empty()) {
        for part in value.split(',') {
            let part = part.trim();
            let word = match part.strip_prefix('"').and_then(|p| p.strip_suffix('"')) {
                Some(inner) if !inner.is_empty() && !inner.contains('"') => inner,
                _ if !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()) => part,
                _ => return Err(unsupported("a DateStyle part other than a word")),
            };
            if !["ISO", "MDY"].iter().any(|v| v.eq_ignore_ascii_case(word)) {
                return Err(format!(
                    "parameter {} can only be set to {}",
                    quoted(name),
                    quoted(DATE_STYLE)
                ));
            }
        }
    }
    Ok(DATE_STYLE.into())
}

/// `DateStyle`'s one value.
pub(super) const DATE_STYLE: &str = "ISO, MDY";

/// Materialize's `Vec<Ident>::parse` of a `SET`'s values, then its
/// `format`: each identifier as its `Ident` prints it.
fn identifiers(name: &str, values: &[String]) -> Result<String, String> {
    if let Some(v) = values.iter().find(|v| v.len() > MAX_IDENTIFIER_BYTES) {
        return Err(format!(
            "parameter {} cannot have value {}: identifier too long (len: {}, max: {MAX_IDENTIFIER_BYTES}, value: {})",
            quoted(name),
            values.iter().map(|v| quoted(v)).collect::<Vec<_>>().join(","),
            v.len(),
            quoted(v)
        ));
    }
    if values.iter().any(|v| v == "." || v == "..") {
        // Materialize's `IdentError::Invalid`, whose text the engine
        // does not keep.
        return Err(unsupported(format!("{name} naming . or ..")));
    }
    let shown: Vec<String> = values.iter().map(|v| ident::printed(v)).collect();
    Ok(shown.join(", "))
}

/// The identifiers of a list `identifiers` printed, each as given.
pub(super) fn unprinted(list: &str) -> Vec<String> {
    let mut idents = vec![];
    let mut chars = list.chars().peekable();
    while chars.peek().is_some() {
        let mut ident = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match (c, chars.peek()) {
                    ('"', Some('"')) => {
                        chars.next();
                        ident.push('"');
                    }
                    ('"', _) => break,
                    (c, _) => ident.push(c),
                }
            }
        }
        ident.extend(chars.by_ref().take_while(|c| *c != ','));
        idents.push(ident);
        // The space after each comma.
        if chars.peek() == Some(&' ') {
            chars.next();
        }
    }
    idents
}

#[cfg(test)]
mod tests {
    use super::{identifiers, unprinted};

    #[test]
    fn a_printed_list_reads_back_as_given() {
        for list in [
            vec!["public"],
            vec!["ba r", "foo", "x, y", "a, b", "Q\"q", "", "year"],
            vec![],
        ] {
            let list: Vec<String> = list.into_iter().map(String::from).collect();
            let printed = identifiers("search_path", &list).expect("read");
            assert_eq!(unprinted(&printed), list, "{printed}");
        }
    }
}
