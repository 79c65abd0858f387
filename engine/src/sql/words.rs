//! The two tests of a token that the statements read on tokens (`SET`,
//! `SHOW`, roles, transactions) and the passes over tokens before parsing
//! (`LIST`, `WITH MUTUALLY RECURSIVE`, `LIMIT ALL`, `AS OF`) make, as
//! Materialize's parser reads words: unquoted, a keyword by its kind or a
//! word by its text in any case.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::Token;

/// Whether `t` is the unquoted word `name`, in any case.
pub(super) fn word(t: &Token, name: &str) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(name))
}

/// Whether `t` is the unquoted keyword `k`.
pub(super) fn keyword(t: &Token, k: Keyword) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.keyword == k)
}
