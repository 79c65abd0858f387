//! The functions and operators of text in `TextFunc`, each as the real
//! system evaluates it (its `expr/src/scalar/func.rs`,
//! `func/impls/string.rs` and `func/variadic.rs`, read for the facts),
//! with its texts for what can go wrong.
//!
//! Regular expressions are the `regex` crate's, as the real system's are
//! (its `repr/src/adt/regex.rs`): `.` matches a newline, `i` in the flags
//! ignores case and `c` does not (the last one wins), any other flag is
//! an error, a pattern over 1 MiB is refused before it is compiled, and a
//! compiled one is bounded at 10 MiB. `regexp_replace`'s replacement is
//! the crate's own syntax (`$1`, `${name}`), not PostgreSQL's `\1`: the
//! real system hands it to the crate as written. `regexp_match` and
//! `regexp_split_to_array` make a `text[]`, and so does
//! `string_to_array`, which splits at a plain text.

use std::borrow::Cow;

use regex::{Regex, RegexBuilder};
use unicode_normalization::UnicodeNormalization;

use super::errors::{length_too_large, MAX_RESULT_BYTES};
use crate::plan::{ScalarExpr, TextFunc};
use crate::repr::array::Array;
use crate::repr::ident::{self, MAX_IDENTIFIER_BYTES};
use crate::repr::time;
use crate::repr::{quoted, DataflowError, Datum};

/// The real system's bound on a pattern before it is compiled.
const MAX_PATTERN_BYTES: usize = 1024 * 1024;
/// The real system's bound on a compiled pattern (the crate's default).
const MAX_COMPILED_BYTES: usize = 10 * 1024 * 1024;
/// `f` of non-NULL arguments of the types its overload takes, or `None`
/// for arguments of other types (the caller's error).
pub fn apply(f: TextFunc, args: &[Datum]) -> Option<Result<Datum, DataflowError>> {
    use Datum::{Int32, Text};
    Some(match (f, args) {
        (TextFunc::Concat, [Text(a), Text(b)]) => concat(a, b),
        (TextFunc::RegexMatch { case_insensitive }, [Text(s), Text(pattern)]) => {
            let flags = if case_insensitive { "i" } else { "" };
            build(pattern, flags).map(|r| Datum::Bool(r.is_match(s)))
        }
        (TextFunc::RegexpReplace, [Text(s), Text(pattern), Text(replacement)]) => {
            regexp_replace(s, pattern, replacement, "")
        }
        (TextFunc::RegexpReplace, [Text(s), Text(pattern), Text(replacement), Text(flags)]) => {
            regexp_replace(s, pattern, replacement, flags)
        }
        (TextFunc::QuoteIdent, [Text(s)]) => quote_ident(s).map(Text),
        (TextFunc::Translate, [Text(s), Text(from), Text(to)]) => Ok(Text(translate(s, from, to))),
        (TextFunc::SplitPart, [Text(s), Text(delimiter), Int32(n)]) => {
            split_part(s, delimiter, *n).map(|part| Text(part.to_string()))
        }
        (TextFunc::Ascii, [Text(s)]) => Ok(Int32(ascii(s))),
        (TextFunc::Initcap, [Text(s)]) => Ok(Text(initcap(s))),
        (TextFunc::StartsWith, [Text(s), Text(prefix)]) => {
            Ok(Datum::Bool(s.starts_with(&**prefix)))
        }
        (TextFunc::Normalize, [Text(s), Text(form)]) => normalize(s, form).map(Text),
        (TextFunc::TryParseMonotonicIso8601Timestamp, [Text(s)]) => {
            Ok(time::parse_monotonic_iso8601(s).map_or(Datum::Null, Datum::Timestamp))
        }
        (TextFunc::RegexpMatch, [Text(s), Text(pattern), flags @ ..]) => {
            build(pattern, text_flags(flags)?).map(|r| regexp_match(s, &r))
        }
        (TextFunc::RegexpSplitToArray, [Text(s), Text(pattern), flags @ ..]) => {
            build(pattern, text_flags(flags)?).map(|r| regexp_split_to_array(s, &r))
        }
        _ => return None,
    })
}

/// The error of a regular expression operand that is a literal, found
/// before any other operand is evaluated: the real system's optimizer
/// compiles a literal pattern (with literal flags) once, and one that does
/// not compile makes the whole call that error (its `reduce` of
/// `IsRegexpMatch`, `RegexpMatch` and `RegexpSplitToArray`), but for
/// `regexp_replace`, whose text it reads first: NULL of a NULL text, the
/// text's own error before the pattern's (`eval/functions.rs`).
pub fn literal_pattern_error(f: TextFunc, args: &[ScalarExpr]) -> Option<DataflowError> {
    let literal = |i: usize| match args.get(i) {
        Some(ScalarExpr::Literal(Datum::Text(s))) => Some(&**s),
        _ => None,
    };
    let (pattern, flags) = match f {
        TextFunc::RegexMatch { case_insensitive } => {
            (literal(1)?, if case_insensitive { "i" } else { "" })
        }
        TextFunc::RegexpReplace if args.len() == 3 => (literal(1)?, ""),
        TextFunc::RegexpReplace => (literal(1)?, literal(3)?),
        TextFunc::RegexpMatch | TextFunc::RegexpSplitToArray if args.len() == 2 => {
            (literal(1)?, "")
        }
        TextFunc::RegexpMatch | TextFunc::RegexpSplitToArray => (literal(1)?, literal(2)?),
        _ => return None,
    };
    // `g` is a flag of `regexp_replace` alone: `regexp_match`'s error.
    let flags = match f {
        TextFunc::RegexpReplace => replace_flags(flags).1,
        _ => Cow::Borrowed(flags),
    };
    build(pattern, &flags).err()
}

/// The flags of a call that takes them last and optionally: none, or one
/// text (`None`: another argument).
fn text_flags(flags: &[Datum]) -> Option<&str> {
    match flags {
        [] => Some(""),
        [Datum::Text(f)] => Some(f),
        _ => None,
    }
}

/// The real system's `build_regex`: the flags read first, then the
/// pattern compiled.
fn build(pattern: &str, flags: &str) -> Result<Regex, DataflowError> {
    let mut case_insensitive = false;
    for flag in flags.chars() {
        match flag {
            'i' => case_insensitive = true,
            'c' => case_insensitive = false,
            other => {
                return Err(DataflowError::eval(&format!(
                    "invalid regular expression flag: {other}"
                )))
            }
        }
    }
    let invalid = |e: String| DataflowError::eval(&format!("invalid regular expression: {e}"));
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(invalid(format!(
            "regex pattern too large ({} bytes, max {MAX_PATTERN_BYTES} bytes)",
            pattern.len()
        )));
    }
    RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .dot_matches_new_line(true)
        .size_limit(MAX_COMPILED_BYTES)
        .build()
        .map_err(|e| invalid(e.to_string()))
}

/// `g` in `regexp_replace`'s flags replaces every match, not the first
/// only; it is taken out before the rest are read.
fn replace_flags(flags: &str) -> (usize, Cow<'_, str>) {
    match flags.contains('g') {
        true => (0, Cow::Owned(flags.replace('g', ""))),
        false => (1, Cow::Borrowed(flags)),
    }
}

fn regexp_replace(
    s: &str,
    pattern: &str,
    replacement: &str,
    flags: &str,
) -> Result<Datum, DataflowError> {
    let (limit, flags) = replace_flags(flags);
    let regex = build(pattern, &flags)?;
    Ok(Datum::Text(regex.replacen(s, limit, replacement).into()))
}

/// The real system's `regexp_match_static`: of a pattern with groups, the
/// array of the first match's groups, a group that took no part NULL; of
/// one without, the one-element array of the first match; NULL when
/// nothing matches.
fn regexp_match(s: &str, regex: &Regex) -> Datum {
    let texts = |found: Vec<Option<&str>>| {
        let elements = found
            .into_iter()
            .map(|m| m.map_or(Datum::Null, |m| Datum::Text(m.into())))
            .collect();
        Datum::Array(Box::new(Array::list(elements)))
    };
    if regex.captures_len() > 1 {
        return regex.captures(s).map_or(Datum::Null, |c| {
            texts(c.iter().skip(1).map(|m| m.map(|m| m.as_str())).collect())
        });
    }
    regex
        .find(s)
        .map_or(Datum::Null, |m| texts(vec![Some(m.as_str())]))
}

/// The real system's `regexp_split_to_array` (its `mz_regexp` crate): the
/// texts between matches, a match of no length at the start or the end of
/// the text ignored (one right after a match the crate never reports), so
/// never an empty array.
fn regexp_split_to_array(s: &str, regex: &Regex) -> Datum {
    let mut last = 0;
    let mut found = Vec::new();
    for m in regex.find_iter(s) {
        if m.end() > 0 && m.start() < s.len() {
            found.push(Datum::Text(s[last..m.start()].into()));
            last = m.end();
        }
    }
    found.push(Datum::Text(s[last..].into()));
    Datum::Array(Box::new(Array::list(found)))
}

/// `string_to_array(s, delimiter[, null_string])` of a text that is not
/// NULL, as the real system's: an empty text is the empty array; a NULL
/// delimiter splits into characters, an empty one leaves the text whole;
/// a part equal to the NULL string (not NULL) is NULL, but for the whole
/// text an empty delimiter leaves.
pub fn string_to_array(s: &str, delimiter: Option<&str>, null_string: Option<&str>) -> Datum {
    let parts: Vec<&str> = match delimiter {
        _ if s.is_empty() => Vec::new(),
        None => s.split("").filter(|p| !p.is_empty()).collect(),
        // The text whole, never NULL, whatever the NULL string.
        Some("") => return Datum::Array(Box::new(Array::list(vec![Datum::Text(s.into())]))),
        Some(d) => s.split(d).collect(),
    };
    let elements = parts
        .into_iter()
        .map(|p| match null_string {
            Some(n) if p == n => Datum::Null,
            _ => Datum::Text(p.into()),
        })
        .collect();
    Datum::Array(Box::new(Array::list(elements)))
}

fn concat(a: &str, b: &str) -> Result<Datum, DataflowError> {
    if a.len() + b.len() > MAX_RESULT_BYTES {
        return Err(length_too_large());
    }
    Ok(Datum::Text(format!("{a}{b}")))
}

/// The real system's `quote_ident`: its parser's `Ident` shown, bare when
/// it is `[a-z_][a-z0-9_]*` and no reserved keyword, else in double
/// quotes with each double quote doubled.
fn quote_ident(s: &str) -> Result<String, DataflowError> {
    if s.len() > MAX_IDENTIFIER_BYTES || s == "." || s == ".." {
        return Err(DataflowError::eval(&format!(
            "string is not a valid identifier: {}",
            quoted(s)
        )));
    }
    Ok(ident::printed(s))
}

/// Each character of `s` found in `from` becomes the one at its place in
/// `to`, or goes when `to` is shorter; the first place of a repeated
/// character counts.
fn translate(s: &str, from: &str, to: &str) -> String {
    let from: Vec<char> = from.chars().collect();
    let to: Vec<char> = to.chars().collect();
    s.chars()
        .filter_map(|c| match from.iter().position(|f| *f == c) {
            Some(i) => to.get(i).copied(),
            None => Some(c),
        })
        .collect()
}

/// The `n`th (1-based) part of `s` split at `delimiter`, empty past the
/// last; an empty delimiter leaves `s` whole as the only part.
fn split_part<'a>(s: &'a str, delimiter: &str, n: i32) -> Result<&'a str, DataflowError> {
    let index = usize::try_from(i64::from(n) - 1)
        .map_err(|_| DataflowError::eval("field position must be greater than zero"))?;
    if delimiter.is_empty() {
        return Ok(if index == 0 { s } else { "" });
    }
    Ok(s.split(delimiter).nth(index).unwrap_or(""))
}

/// The first character's code point, 0 for an empty text.
fn ascii(s: &str) -> i32 {
    s.chars()
        .next()
        .and_then(|c| i32::try_from(u32::from(c)).ok())
        .unwrap_or(0)
}

/// Each character after one that is not alphanumeric in upper case, the
/// others in lower case.
fn initcap(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut capitalize = true;
    for c in s.chars() {
        match capitalize {
            true => out.extend(c.to_uppercase()),
            false => out.extend(c.to_lowercase()),
        }
        capitalize = !c.is_alphanumeric();
    }
    out
}

fn normalize(s: &str, form: &str) -> Result<String, DataflowError> {
    Ok(match form.to_uppercase().as_str() {
        "NFC" => s.nfc().collect(),
        "NFD" => s.nfd().collect(),
        "NFKC" => s.nfkc().collect(),
        "NFKD" => s.nfkd().collect(),
        _ => {
            return Err(DataflowError::eval(&format!(
                "invalid normalization form: {form}"
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(d: &Datum) -> String {
        d.to_string()
    }

    fn split(s: &str, pattern: &str) -> String {
        texts(&regexp_split_to_array(
            s,
            &build(pattern, "").expect("a pattern"),
        ))
    }

    #[test]
    fn regexp_split_ignores_empty_matches_at_the_ends_only() {
        assert_eq!(split("", "\\s*"), r#"{""}"#);
        assert_eq!(split("12 34", "\\s"), "{12,34}");
        assert_eq!(split(" 12 34 ", "\\s"), r#"{"",12,34,""}"#);
        assert_eq!(split("abc", ""), "{a,b,c}");
        assert_eq!(split("12  34", "\\s*"), "{1,2,3,4}");
        assert_eq!(split("a,b", "x"), "{\"a,b\"}");
    }

    #[test]
    fn regexp_match_gives_groups_or_the_match_or_null() {
        let m = |s: &str, p: &str| texts(&regexp_match(s, &build(p, "").expect("a pattern")));
        assert_eq!(m("foobar", "o+"), "{oo}");
        assert_eq!(m("foobar", "(f)(x)?(o)"), "{f,NULL,o}");
        assert_eq!(m("foobar", "z"), "NULL");
        assert_eq!(m("foobar", "(z)"), "NULL");
        assert_eq!(m("", "^"), r#"{""}"#);
    }

    #[test]
    fn string_to_array_of_empty_and_null_delimiters_and_null_strings() {
        let s = |s, d, n| texts(&string_to_array(s, d, n));
        assert_eq!(s("", Some(","), None), "{}");
        assert_eq!(s("", None, None), "{}");
        assert_eq!(s("a,b,,c", Some(","), None), r#"{a,b,"",c}"#);
        assert_eq!(s("a,b,,c", Some(","), Some("")), "{a,b,NULL,c}");
        assert_eq!(s("abc", None, Some("b")), "{a,NULL,c}");
        assert_eq!(s("abc", Some(""), Some("abc")), "{abc}");
        assert_eq!(s("a,b", Some(","), Some("x")), "{a,b}");
    }
}
