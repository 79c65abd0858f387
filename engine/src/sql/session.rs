//! `SET`, `RESET` and `SHOW` of a session variable, read on tokens as
//! Materialize's parser reads them (`parse_set`, `parse_reset`,
//! `parse_show`: `SET TIME ZONE`, `SET NAMES`, `SET SCHEMA`, `SHOW
//! TRANSACTION ISOLATION LEVEL`; sqlparser reads `SET TIMEZONE 'x'`
//! without `=` or `TO`, which Materialize's parser refuses) and planned by
//! `vars`. Any other statement of these words is left to sqlparser, and so
//! refused by name as before.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::vars;
use super::words::{keyword, word};
use crate::plan::Statement;
use crate::repr::unsupported;

/// The statement `tokens` make, if it is a `SET`, `RESET` or `SHOW` of a
/// variable in a form Materialize's parser reads; `None` otherwise.
pub(super) fn statement(tokens: &[TokenWithSpan]) -> Option<Result<Statement, String>> {
    let words: Vec<&Token> = tokens.iter().map(|t| &t.token).collect();
    match words.split_first()? {
        (first, rest) if keyword(first, Keyword::SET) => set(rest),
        (first, [name]) if keyword(first, Keyword::RESET) => {
            let name = identifier(name)?;
            Some(vars::reset(schema_alias(&name)))
        }
        (first, rest) if keyword(first, Keyword::SHOW) => {
            let name = match rest {
                [t, z] if word(t, "time") && word(z, "zone") => "timezone".to_string(),
                [t, i, l] if word(t, "transaction") && word(i, "isolation") && word(l, "level") => {
                    "transaction_isolation".to_string()
                }
                [name] => identifier(name)?,
                _ => return None,
            };
            // Other words name Materialize's `SHOW` of objects, or variables
            // the engine does not know, left to sqlparser as before.
            vars::shown(&name).then(|| vars::show(&name))
        }
        _ => None,
    }
}

/// `SET [SESSION | LOCAL] name {= | TO} {DEFAULT | value [, ...]}`, with
/// `TIME ZONE` for `timezone`, `NAMES` for `client_encoding` and `SCHEMA`
/// for `search_path`, as Materialize's `parse_set` reads them.
fn set(rest: &[&Token]) -> Option<Result<Statement, String>> {
    let (local, rest) = match rest.split_first()? {
        (t, rest) if keyword(t, Keyword::SESSION) => (false, rest),
        (t, rest) if keyword(t, Keyword::LOCAL) => (true, rest),
        _ => (false, rest),
    };
    let (name, rest) = rest.split_first()?;
    let name = identifier(name)?;
    let (name, values) = match rest {
        // Materialize reads one value after `SCHEMA`.
        [to, values @ ..]
            if (matches!(to, Token::Eq) || keyword(to, Keyword::TO))
                && (name != "schema" || values.len() == 1) =>
        {
            (schema_alias(&name).to_string(), values)
        }
        [z, values @ ..] if name == "time" && word(z, "zone") => ("timezone".into(), values),
        values if name == "names" => ("client_encoding".into(), values),
        values @ [_] if name == "schema" => ("search_path".into(), values),
        _ => return None,
    };
    if local {
        // Materialize keeps a LOCAL value to the end of the transaction,
        // which the engine's statements do not model.
        return Some(Err(unsupported("SET LOCAL")));
    }
    match values {
        [t] if keyword(t, Keyword::DEFAULT) => return Some(vars::set(&name, None)),
        [] => return None,
        _ => {}
    }
    let mut read = Vec::new();
    for value in values.split(|t| matches!(t, Token::Comma)) {
        match value {
            [value] => match set_value(value) {
                Some(value) => read.push(value),
                None => return Some(Err(refused())),
            },
            [Token::Minus, Token::Number(n, _)] => read.push(format!("-{n}")),
            _ => return Some(Err(refused())),
        }
    }
    Some(vars::set(&name, Some(&read)))
}

fn refused() -> String {
    unsupported("SET to a value other than words, numbers or strings")
}

/// One value of a `SET` as Materialize's `into_unquoted_value` writes it:
/// a string's contents, a number as written, a word as an identifier
/// (folded to lower case unless quoted), `TRUE` and `FALSE` as `true` and
/// `false`. `None`: a value the engine does not read (`NULL`, an
/// `INTERVAL`, which Materialize writes in its own way).
fn set_value(t: &Token) -> Option<String> {
    match t {
        Token::SingleQuotedString(s) => Some(s.clone()),
        Token::Number(n, _) => Some(n.clone()),
        Token::Word(w) if w.quote_style.is_none() => match w.keyword {
            Keyword::TRUE => Some("true".into()),
            Keyword::FALSE => Some("false".into()),
            Keyword::NULL | Keyword::INTERVAL => None,
            _ => Some(w.value.to_lowercase()),
        },
        Token::Word(w) if w.quote_style == Some('"') => Some(w.value.clone()),
        _ => None,
    }
}

/// A variable's name: an identifier, folded to lower case unless quoted
/// (Materialize looks variables up without regard to case).
fn identifier(t: &Token) -> Option<String> {
    match t {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_lowercase()),
        Token::Word(w) if w.quote_style == Some('"') => Some(w.value.clone()),
        _ => None,
    }
}

/// Materialize reads the variable `schema` as `search_path`.
fn schema_alias(name: &str) -> &str {
    match name {
        "schema" => "search_path",
        name => name,
    }
}
