//! Materialize's `WITH MUTUALLY RECURSIVE`, which sqlparser does not
//! parse, read on tokens: the words `MUTUALLY RECURSIVE` become sqlparser's
//! `RECURSIVE`, whose CTEs take typed column lists (`name (a int, b text)
//! AS (query)`), exactly the shape of Materialize's bindings. So a
//! `With { recursive: true, .. }` in the syntax tree is always Materialize's
//! block, planned by `query::recursive`; PostgreSQL's own `WITH RECURSIVE`,
//! which Materialize's parser does not know, is refused by name here before
//! it could be taken for one.
//!
//! The block's options (`RECURSION LIMIT`, `RETURN AT RECURSION LIMIT`,
//! `ERROR AT RECURSION LIMIT`) are refused by name: the tree has no place
//! for them.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::words;
use crate::repr::unsupported;

/// The tokens with each `WITH MUTUALLY RECURSIVE` as `WITH RECURSIVE`; an
/// error for PostgreSQL's `WITH RECURSIVE` and for a block's options.
pub(super) fn rewrite(tokens: Vec<TokenWithSpan>) -> Result<Vec<TokenWithSpan>, String> {
    let mut out: Vec<TokenWithSpan> = Vec::with_capacity(tokens.len());
    let mut rest = tokens.into_iter().peekable();
    while let Some(token) = rest.next() {
        let with = word(&token, "with");
        out.push(token);
        if !with {
            continue;
        }
        match rest.peek() {
            Some(t) if word(t, "recursive") => return Err(unsupported("WITH RECURSIVE")),
            Some(t) if word(t, "mutually") => {
                rest.next();
            }
            _ => continue,
        }
        let Some(recursive) = rest.next() else {
            break;
        };
        let options = rest.peek().is_some_and(|t| t.token == Token::LParen);
        out.push(recursive);
        if options {
            rest.next();
            let words: Vec<String> = rest
                .by_ref()
                .map_while(|t| match t.token {
                    Token::Word(w) => Some(w.value.to_uppercase()),
                    _ => None,
                })
                .collect();
            return Err(unsupported(format!(
                "WITH MUTUALLY RECURSIVE ({})",
                words.join(" ")
            )));
        }
    }
    Ok(out)
}

/// Whether `t` is the unquoted word `w`, in any case.
fn word(t: &TokenWithSpan, w: &str) -> bool {
    words::word(&t.token, w)
}

#[cfg(test)]
mod tests {
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::tokenizer::Tokenizer;

    use super::*;

    const DIALECT: PostgreSqlDialect = PostgreSqlDialect {};

    fn rewritten(sql: &str) -> Result<String, String> {
        let tokens = Tokenizer::new(&DIALECT, sql)
            .tokenize_with_location()
            .unwrap()
            .into_iter()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)))
            .collect();
        rewrite(tokens).map(|t| {
            t.iter()
                .map(|t| t.token.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    #[test]
    fn mutually_recursive_becomes_recursive() {
        assert_eq!(
            rewritten("with MUTUALLY recursive r (x int) AS (SELECT 1) SELECT * FROM r").unwrap(),
            "with recursive r ( x int ) AS ( SELECT 1 ) SELECT * FROM r"
        );
        assert_eq!(
            rewritten("SELECT 'with mutually recursive' AS \"with\"").unwrap(),
            "SELECT 'with mutually recursive' AS \"with\""
        );
    }

    #[test]
    fn postgres_recursive_and_options_are_refused_by_name() {
        assert_eq!(
            rewritten("WITH RECURSIVE r (x) AS (SELECT 1) SELECT * FROM r"),
            Err(unsupported("WITH RECURSIVE"))
        );
        assert_eq!(
            rewritten("WITH MUTUALLY RECURSIVE (RETURN AT RECURSION LIMIT 3) r (x int) AS (SELECT 1) SELECT 1"),
            Err(unsupported("WITH MUTUALLY RECURSIVE (RETURN AT RECURSION LIMIT)"))
        );
        assert_eq!(
            rewritten(
                "WITH MUTUALLY RECURSIVE (recursion limit 3) r (x int) AS (SELECT 1) SELECT 1"
            ),
            Err(unsupported("WITH MUTUALLY RECURSIVE (RECURSION LIMIT)"))
        );
    }
}
