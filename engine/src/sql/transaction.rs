//! `BEGIN`, `START TRANSACTION`, `COMMIT`, `ROLLBACK` and `ABORT`, read on
//! tokens as Materialize's parser reads them (`parse_begin`,
//! `parse_start_transaction`, `parse_commit`, `parse_rollback`) and
//! planned as its `tcl.rs` plans them: `AND CHAIN` is its `CHAIN not yet
//! supported`, and the last access mode named wins. Materialize has no
//! `END`. An isolation level other than its default, `STRICT
//! SERIALIZABLE`, lets it choose a timestamp the engine's clock does not
//! model, so it is refused by name. Any other statement of these words is
//! left to sqlparser, and so refused by name as before.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::words::keyword;
use crate::plan::{Statement, Transaction};
use crate::repr::unsupported;

/// The statement `tokens` make, if it starts or ends a transaction in a
/// form Materialize's parser reads; `None` otherwise.
pub(super) fn statement(tokens: &[TokenWithSpan]) -> Option<Result<Statement, String>> {
    let words: Vec<&Token> = tokens.iter().map(|t| &t.token).collect();
    let (first, rest) = words.split_first()?;
    let noise = |rest: &[&Token]| match rest.split_first() {
        Some((t, after)) if keyword(t, Keyword::TRANSACTION) || keyword(t, Keyword::WORK) => {
            after.len()
        }
        _ => rest.len(),
    };
    let planned = if keyword(first, Keyword::BEGIN) {
        let rest = &rest[rest.len() - noise(rest)..];
        modes(rest)?.map(|read_only| Transaction::Begin { read_only })
    } else if keyword(first, Keyword::START) {
        let (t, rest) = rest.split_first()?;
        if !keyword(t, Keyword::TRANSACTION) {
            return None;
        }
        modes(rest)?.map(|read_only| Transaction::Begin { read_only })
    } else if keyword(first, Keyword::COMMIT) {
        chain(&rest[rest.len() - noise(rest)..])?.map(|()| Transaction::Commit)
    } else if keyword(first, Keyword::ROLLBACK) || keyword(first, Keyword::ABORT) {
        chain(&rest[rest.len() - noise(rest)..])?.map(|()| Transaction::Rollback)
    } else {
        return None;
    };
    Some(planned.map(Statement::Transaction))
}

/// The access mode the transaction modes name last (`Some(true)`: `READ
/// ONLY`), or `None` for tokens that are not transaction modes.
fn modes(mut rest: &[&Token]) -> Option<Result<Option<bool>, String>> {
    let mut read_only = None;
    let mut refused = None;
    while !rest.is_empty() {
        rest = match rest {
            [r, o, after @ ..] if keyword(r, Keyword::READ) && keyword(o, Keyword::ONLY) => {
                read_only = Some(true);
                after
            }
            [r, w, after @ ..] if keyword(r, Keyword::READ) && keyword(w, Keyword::WRITE) => {
                read_only = Some(false);
                after
            }
            [i, l, after @ ..] if keyword(i, Keyword::ISOLATION) && keyword(l, Keyword::LEVEL) => {
                let (level, after) = isolation(after)?;
                if level != "STRICT SERIALIZABLE" {
                    refused.get_or_insert(level);
                }
                after
            }
            _ => return None,
        };
        if let [comma, after @ ..] = rest {
            if matches!(comma, Token::Comma) && !after.is_empty() {
                rest = after;
            }
        }
    }
    Some(match refused {
        Some(level) => Err(unsupported(format!("BEGIN ISOLATION LEVEL {level}"))),
        None => Ok(read_only),
    })
}

/// The isolation level at the start of `rest`, as Materialize writes it,
/// and what follows it.
fn isolation<'a, 'b>(rest: &'a [&'b Token]) -> Option<(String, &'a [&'b Token])> {
    let levels: [&[&str]; 6] = [
        &["read", "uncommitted"],
        &["read", "committed"],
        &["repeatable", "read"],
        &["serializable"],
        &["strong", "session", "serializable"],
        &["strict", "serializable"],
    ];
    levels.iter().find_map(|level| {
        let matched = rest.len() >= level.len()
            && level
                .iter()
                .zip(rest)
                .all(|(w, t)| matches!(t, Token::Word(x) if x.quote_style.is_none() && x.value.eq_ignore_ascii_case(w)));
        matched.then(|| (level.join(" ").to_uppercase(), &rest[level.len()..]))
    })
}

/// `[AND [NO] CHAIN]` after `COMMIT` or `ROLLBACK`.
fn chain(rest: &[&Token]) -> Option<Result<(), String>> {
    match rest {
        [] => Some(Ok(())),
        [a, n, c]
            if keyword(a, Keyword::AND)
                && keyword(n, Keyword::NO)
                && keyword(c, Keyword::CHAIN) =>
        {
            Some(Ok(()))
        }
        [a, c] if keyword(a, Keyword::AND) && keyword(c, Keyword::CHAIN) => {
            Some(Err("CHAIN not yet supported".into()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::tokenizer::Tokenizer;

    fn read(sql: &str) -> Option<Result<Statement, String>> {
        let tokens = Tokenizer::new(&PostgreSqlDialect {}, sql)
            .tokenize_with_location()
            .expect("tokenizes");
        let tokens: Vec<TokenWithSpan> = tokens
            .into_iter()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)))
            .collect();
        statement(&tokens)
    }

    fn begin(read_only: Option<bool>) -> Option<Result<Statement, String>> {
        Some(Ok(Statement::Transaction(Transaction::Begin { read_only })))
    }

    #[test]
    fn every_form_of_materializes_grammar_is_read() {
        assert_eq!(read("BEGIN"), begin(None));
        assert_eq!(read("begin work"), begin(None));
        assert_eq!(read("START TRANSACTION READ ONLY"), begin(Some(true)));
        assert_eq!(read("BEGIN READ ONLY, READ WRITE"), begin(Some(false)));
        assert_eq!(
            read("BEGIN TRANSACTION ISOLATION LEVEL STRICT SERIALIZABLE READ ONLY"),
            begin(Some(true))
        );
        let commit = Some(Ok(Statement::Transaction(Transaction::Commit)));
        let rollback = Some(Ok(Statement::Transaction(Transaction::Rollback)));
        assert_eq!(read("COMMIT"), commit);
        assert_eq!(read("commit transaction and no chain"), commit);
        assert_eq!(read("ABORT WORK"), rollback);
        assert_eq!(read("ROLLBACK"), rollback);
    }

    #[test]
    fn what_the_engine_does_not_model_is_refused_or_left_alone() {
        let chain = Some(Err("CHAIN not yet supported".to_string()));
        assert_eq!(read("COMMIT AND CHAIN"), chain);
        assert_eq!(read("ROLLBACK AND CHAIN"), chain);
        assert_eq!(
            read("BEGIN ISOLATION LEVEL SERIALIZABLE"),
            Some(Err(unsupported("BEGIN ISOLATION LEVEL SERIALIZABLE")))
        );
        assert_eq!(read("START"), None);
        assert_eq!(read("BEGIN READ"), None);
        assert_eq!(read("END"), None);
        assert_eq!(read("ROLLBACK TO SAVEPOINT s"), None);
    }
}
