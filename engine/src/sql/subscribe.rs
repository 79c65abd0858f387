//! `SUBSCRIBE [TO] <relation | (SELECT ...)> [AS OF t] [UP TO u]`: the
//! real system's live read, parsed on tokens (sqlparser does not know it)
//! and planned like the SELECT it reads.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use super::parse::{parser_error, stack_for, DIALECT};
use super::query::{plan_query, PlannedQuery};
use super::relation;
use crate::plan::{with_top_k, RelationPlan, Resolver};
use crate::recursion::with_stack;
use crate::repr::{unsupported, Column, Timestamp};

/// A planned SUBSCRIBE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscribe {
    pub plan: RelationPlan,
    pub columns: Vec<Column>,
    /// `AS OF t`: where it starts (default: now).
    pub as_of: Option<Timestamp>,
    /// `UP TO u`: it ends once its frontier reaches `u` (exclusive).
    pub up_to: Option<Timestamp>,
}

/// Parses and plans one SUBSCRIBE statement (a trailing `;` is allowed).
pub fn plan_subscribe(sql: &str, catalog: &dyn Resolver) -> Result<Subscribe, String> {
    let mut tokens: Vec<_> = Tokenizer::new(&DIALECT, sql)
        .tokenize_with_location()
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_) | Token::EOF))
        .collect();
    if tokens.last().is_some_and(|t| t.token == Token::SemiColon) {
        tokens.pop();
    }
    let tokens = super::mutually_recursive::rewrite(tokens)?;
    let stack = stack_for(&tokens)?;
    with_stack(stack, || plan_tokens(tokens, catalog))
}

/// Parses and plans SUBSCRIBE's tokens, on a stack deep enough for them.
fn plan_tokens(tokens: Vec<TokenWithSpan>, catalog: &dyn Resolver) -> Result<Subscribe, String> {
    let mut parser = super::parse::parser(tokens)?;
    if !is_word(&parser.peek_token().token, "SUBSCRIBE") {
        let found = parser.peek_token();
        return Err(parser_error(
            parser.expected::<()>("SUBSCRIBE", found).unwrap_err(),
        ));
    }
    parser.next_token();
    let _to = parser.parse_keyword(Keyword::TO);
    let (plan, columns) = if parser.consume_token(&Token::LParen) {
        let query = parser.parse_query().map_err(parser_error)?;
        parser.expect_token(&Token::RParen).map_err(parser_error)?;
        let PlannedQuery {
            plan,
            columns,
            finishing,
            ..
        } = plan_query(catalog, &query)?;
        if finishing.limit.is_some() {
            return Err(unsupported("LIMIT in SUBSCRIBE"));
        }
        // ORDER BY without LIMIT orders nothing in a stream of changes; the
        // columns it alone sorts by are dropped.
        (with_top_k(plan, finishing), columns)
    } else {
        let name = parser.parse_object_name(false).map_err(parser_error)?;
        let (_, id, columns) = relation(catalog, &name)?;
        (RelationPlan::Get(id), columns)
    };
    let as_of = if parser.parse_keywords(&[Keyword::AS, Keyword::OF]) {
        Some(parser.parse_literal_uint().map_err(parser_error)?)
    } else {
        None
    };
    let up_to = if is_word(&parser.peek_token().token, "UP") {
        parser.next_token();
        parser
            .expect_keyword_is(Keyword::TO)
            .map_err(parser_error)?;
        Some(parser.parse_literal_uint().map_err(parser_error)?)
    } else {
        None
    };
    let next = parser.peek_token();
    if next.token != Token::EOF {
        return Err(parser_error(
            parser.expected::<()>("end of statement", next).unwrap_err(),
        ));
    }
    Ok(Subscribe {
        plan,
        columns,
        as_of,
        up_to,
    })
}

/// Whether `token` is the (unquoted) word `word`.
fn is_word(token: &Token, word: &str) -> bool {
    matches!(token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}
