//! `SET`, `RESET` and `SHOW` of the one session variable the engine keeps,
//! `TimeZone`, read on tokens as Materialize's parser reads them
//! (`parse_set`, `parse_reset`, `parse_show`: sqlparser reads `SET
//! TIMEZONE 'x'` without `=` or `TO`, which Materialize's parser refuses)
//! and checked as its `TimeZone` value is (`session/vars/value.rs`): only
//! zones equal to UTC, `UTC`, `GMT` and `+00:00`, in any case. So the
//! engine's `timestamptz`, always shown in UTC, is right under every zone
//! a session can have. Any other statement of these words is left to
//! sqlparser, and so refused by name as before.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::plan::Statement;
use crate::repr::unsupported;

/// The names Materialize's `TimeZone` takes, as `SHOW` prints them; the
/// first is a session's zone until it is set.
const ZONES: [&str; 3] = ["UTC", "GMT", "+00:00"];

/// A new session's zone, and a reset one's.
pub const DEFAULT_TIME_ZONE: &str = ZONES[0];

/// The statement `tokens` make, if it is a `SET`, `RESET` or `SHOW` of the
/// time zone in a form Materialize's parser reads; `None` otherwise.
pub(super) fn statement(tokens: &[TokenWithSpan]) -> Option<Result<Statement, String>> {
    let words: Vec<&Token> = tokens.iter().map(|t| &t.token).collect();
    match words.split_first()? {
        (first, rest) if keyword(first, Keyword::SET) => set(rest),
        (first, [name]) if keyword(first, Keyword::RESET) && time_zone(name) => {
            Some(Ok(Statement::SetTimeZone {
                zone: DEFAULT_TIME_ZONE,
            }))
        }
        (first, rest) if keyword(first, Keyword::SHOW) => match rest {
            [name] if time_zone(name) => Some(Ok(Statement::ShowTimeZone)),
            [t, z] if word(t, "time") && word(z, "zone") => Some(Ok(Statement::ShowTimeZone)),
            _ => None,
        },
        _ => None,
    }
}

/// `SET [SESSION | LOCAL] {timezone {= | TO} | TIME ZONE} {DEFAULT | value}`.
fn set(rest: &[&Token]) -> Option<Result<Statement, String>> {
    let (local, rest) = match rest.split_first()? {
        (t, rest) if keyword(t, Keyword::SESSION) => (false, rest),
        (t, rest) if keyword(t, Keyword::LOCAL) => (true, rest),
        _ => (false, rest),
    };
    let values = match rest {
        [name, to, values @ ..] if time_zone(name) && matches!(to, Token::Eq) => values,
        [name, to, values @ ..] if time_zone(name) && keyword(to, Keyword::TO) => values,
        [t, z, values @ ..] if word(t, "time") && word(z, "zone") => values,
        _ => return None,
    };
    if local {
        // Materialize keeps a LOCAL value to the end of the transaction,
        // which the engine's statements do not model.
        return Some(Err(unsupported("SET LOCAL")));
    }
    let value = match values {
        [t] if keyword(t, Keyword::DEFAULT) => {
            return Some(Ok(Statement::SetTimeZone {
                zone: DEFAULT_TIME_ZONE,
            }))
        }
        [Token::SingleQuotedString(s)] => s.clone(),
        [Token::Number(n, _)] => n.clone(),
        [Token::Minus, Token::Number(n, _)] => format!("-{n}"),
        [Token::Word(w)] if w.quote_style.is_some() => w.value.clone(),
        // An unquoted word is an identifier, folded to lower case; Materialize
        // reads TRUE, FALSE and NULL as values of their own.
        [Token::Word(w)]
            if !matches!(w.keyword, Keyword::TRUE | Keyword::FALSE | Keyword::NULL) =>
        {
            w.value.to_lowercase()
        }
        _ => {
            return Some(Err(unsupported(
                "SET TimeZone to a value other than one word, number or string",
            )))
        }
    };
    Some(zone(&value).map(|zone| Statement::SetTimeZone { zone }))
}

/// Materialize's `TimeZone::parse`: a zone equal to UTC, by its name in
/// any case, or its error.
fn zone(value: &str) -> Result<&'static str, String> {
    ZONES
        .into_iter()
        .find(|z| z.eq_ignore_ascii_case(value))
        .ok_or_else(|| {
            format!(
                "invalid value for parameter \"TimeZone\": \"{}\"",
                value.replace('"', "\\\"")
            )
        })
}

/// The variable's name, in any case, quoted or not (Materialize looks
/// variables up without regard to case).
fn time_zone(t: &Token) -> bool {
    word(t, "timezone")
}

fn word(t: &Token, name: &str) -> bool {
    matches!(t, Token::Word(w) if w.value.eq_ignore_ascii_case(name))
}

fn keyword(t: &Token, k: Keyword) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.keyword == k)
}
