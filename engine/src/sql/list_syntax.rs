//! Materialize's syntax of lists, which sqlparser does not read, rewritten
//! on tokens (never on raw text) before it parses, as Materialize's parser
//! reads it (`sql-parser/src/parser.rs`, read for the facts):
//!
//! - `LIST[a, b]` becomes a call of a function named by a word quoted in
//!   backticks, `` `list`(a, b) ``, and so does a bare `[...]` that begins
//!   an element of it (`LIST[[1], [2, 3]]`, a nested list), while `[`
//!   anywhere else (a subscript, `ARRAY[...]`) stays as it is;
//! - a type name followed by `LIST` once or more (`int list`, `double
//!   precision list list`) becomes one word quoted in backticks, its text
//!   the words it replaces (`` `int list list` ``), which sqlparser reads
//!   as a custom type's name.
//!
//! The PostgreSQL dialect's tokenizer never quotes a word in backticks, so
//! no text a user writes makes either form: the planner reads them as
//! lists alone (`is_constructor`, `list_type_words`). Any other unquoted
//! `LIST` but one before `(` (`LIST(SELECT ...)`, `AS LIST (...)`) becomes
//! the placeholder `?list`, which nothing plans: after a type the engine
//! does not name here, Materialize reads a list type where sqlparser
//! would read an alias, and a silent alias would be a wrong answer.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan, Word};

use super::words;

/// The quote of the words this rewrite makes.
const MARK: char = '`';

/// The name of the function `LIST[...]` becomes.
const CONSTRUCTOR: &str = "list";

/// Whether a function's name (its one part, with its quote) is the
/// constructor `LIST[...]` became.
pub fn is_constructor(value: &str, quote: Option<char>) -> bool {
    quote == Some(MARK) && value == CONSTRUCTOR
}

/// The words of a list type's name a custom type name holds (`int list`),
/// if it is one this rewrite made: the element type's words and the number
/// of `list`s after them.
pub fn list_type_words(value: &str, quote: Option<char>) -> Option<(String, usize)> {
    if quote != Some(MARK) || value == CONSTRUCTOR {
        return None;
    }
    let mut element = value;
    let mut layers = 0;
    while let Some(rest) = element.strip_suffix(" list") {
        element = rest;
        layers += 1;
    }
    (layers > 0).then(|| (element.to_string(), layers))
}

/// The type names a `LIST` may follow, as words (longest first where one
/// ends another).
const TYPE_NAMES: &[&[&str]] = &[
    &["double", "precision"],
    &["timestamp", "with", "time", "zone"],
    &["timestamp", "without", "time", "zone"],
    &["time", "with", "time", "zone"],
    &["time", "without", "time", "zone"],
    &["character", "varying"],
    &["smallint"],
    &["int2"],
    &["integer"],
    &["int"],
    &["int4"],
    &["bigint"],
    &["int8"],
    &["text"],
    &["boolean"],
    &["bool"],
    &["real"],
    &["float4"],
    &["float"],
    &["float8"],
    &["numeric"],
    &["decimal"],
    &["date"],
    &["timestamp"],
    &["timestamptz"],
    &["interval"],
    &["uint2"],
    &["uint4"],
    &["uint8"],
    &["jsonb"],
    &["varchar"],
    &["char"],
    &["character"],
    &["bpchar"],
    &["time"],
    &["uuid"],
    &["bytea"],
    &["oid"],
    &["record"],
];

/// What an open bracket or parenthesis was, to close it as it opened.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    /// A `[` that became a constructor's `(`.
    List,
    /// Any other `[` or `(`.
    Other,
}

fn word(t: &TokenWithSpan) -> Option<&Word> {
    match &t.token {
        Token::Word(w) => Some(w),
        _ => None,
    }
}

fn is_list_word(t: &TokenWithSpan) -> bool {
    words::word(&t.token, "list")
}

fn marked(value: String, like: &TokenWithSpan) -> TokenWithSpan {
    TokenWithSpan {
        token: Token::Word(Word {
            value,
            quote_style: Some(MARK),
            keyword: Keyword::NoKeyword,
        }),
        span: like.span,
    }
}

/// The tokens with `LIST[...]` and `<type> LIST` rewritten (see the module).
pub fn rewrite(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    if !tokens.iter().any(is_list_word) {
        return tokens;
    }
    let mut out: Vec<TokenWithSpan> = Vec::with_capacity(tokens.len());
    let mut open: Vec<Open> = Vec::new();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(t) = tokens.next() {
        let next = tokens.peek().map(|n| &n.token);
        let element_start = open.last() == Some(&Open::List)
            && matches!(
                out.last().map(|p| &p.token),
                Some(Token::LParen | Token::Comma)
            );
        match &t.token {
            _ if is_list_word(&t) && next == Some(&Token::LBracket) => {
                let bracket = tokens.next().expect("the bracket peeked");
                out.push(marked(CONSTRUCTOR.into(), &t));
                out.push(TokenWithSpan {
                    token: Token::LParen,
                    span: bracket.span,
                });
                open.push(Open::List);
            }
            Token::LBracket if element_start => {
                out.push(marked(CONSTRUCTOR.into(), &t));
                out.push(TokenWithSpan {
                    token: Token::LParen,
                    span: t.span,
                });
                open.push(Open::List);
            }
            Token::LBracket | Token::LParen => {
                open.push(Open::Other);
                out.push(t);
            }
            Token::RBracket if open.last() == Some(&Open::List) => {
                open.pop();
                out.push(TokenWithSpan {
                    token: Token::RParen,
                    span: t.span,
                });
            }
            Token::RBracket | Token::RParen => {
                open.pop();
                out.push(t);
            }
            _ if is_list_word(&t) && next != Some(&Token::LParen) => match type_before(&out) {
                Some(n) => {
                    let words: Vec<String> = out
                        .drain(out.len() - n..)
                        .map(|p| word(&p).expect("a word").value.to_lowercase())
                        .collect();
                    out.push(marked(format!("{} list", words.join(" ")), &t));
                }
                // Where nothing before it can end a type (the start, `(`,
                // `,`, an operator, `SELECT`), it is a name: a column `list`.
                None if starts_a_name(out.last()) => out.push(t),
                // After another type (`varchar(2) list`, `int4range list`)
                // Materialize reads a list type, which sqlparser would take
                // for an alias: no form it plans, so it is refused.
                None => out.push(TokenWithSpan {
                    token: Token::Placeholder("?list".into()),
                    span: t.span,
                }),
            },
            _ => out.push(t),
        }
    }
    out
}

/// Whether a word after `before` is where a name starts and no type ends:
/// at the start, after `(`, `,`, an operator, or a clause's `SELECT`,
/// `DISTINCT`, `WHERE`, `AND`, `OR`, `NOT`, `BY`, `ON` or `HAVING`. A type
/// ends with a word or a `)`, so a `LIST` there is no list type.
fn starts_a_name(before: Option<&TokenWithSpan>) -> bool {
    const STARTS: [&str; 9] = [
        "select", "distinct", "where", "and", "or", "not", "by", "on", "having",
    ];
    match before.map(|t| &t.token) {
        None => true,
        Some(Token::Word(w)) => {
            w.quote_style.is_none() && STARTS.iter().any(|k| w.value.eq_ignore_ascii_case(k))
        }
        Some(Token::RParen | Token::RBracket | Token::Placeholder(_)) => false,
        Some(Token::Number(..) | Token::SingleQuotedString(_)) => false,
        Some(_) => true,
    }
}

/// How many tokens at the end of `out` name a type a `LIST` may follow: a
/// type this rewrite made, or one of `TYPE_NAMES` in unquoted words.
fn type_before(out: &[TokenWithSpan]) -> Option<usize> {
    let last = word(out.last()?)?;
    if list_type_words(&last.value, last.quote_style).is_some() {
        return Some(1);
    }
    TYPE_NAMES
        .iter()
        .find(|name| {
            name.len() <= out.len()
                && out[out.len() - name.len()..]
                    .iter()
                    .zip(name.iter())
                    .all(|(t, n)| {
                        word(t).is_some_and(|w| {
                            w.quote_style.is_none() && w.value.eq_ignore_ascii_case(n)
                        })
                    })
        })
        .map(|name| name.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::tokenizer::Tokenizer;

    fn rewritten(sql: &str) -> String {
        let tokens = Tokenizer::new(&PostgreSqlDialect {}, sql)
            .tokenize_with_location()
            .expect("tokens");
        let tokens = tokens
            .into_iter()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)))
            .collect();
        let out: Vec<String> = rewrite(tokens)
            .iter()
            .map(|t| t.token.to_string())
            .collect();
        out.join(" ")
    }

    #[test]
    fn constructors_become_calls_and_nested_brackets_lists() {
        assert_eq!(rewritten("SELECT LIST[1, 2]"), "SELECT `list` ( 1 , 2 )");
        assert_eq!(rewritten("SELECT list[]"), "SELECT `list` ( )");
        assert_eq!(
            rewritten("SELECT LIST[[1], [2, 3]][1]"),
            "SELECT `list` ( `list` ( 1 ) , `list` ( 2 , 3 ) ) [ 1 ]"
        );
        // A subscript, an array and a call's brackets stay brackets.
        assert_eq!(
            rewritten("SELECT LIST[a[1], ARRAY[2], f(1, [3])][1:2]"),
            "SELECT `list` ( a [ 1 ] , ARRAY [ 2 ] , f ( 1 , [ 3 ] ) ) [ 1 : 2 ]"
        );
        // Quoted, the word is a name.
        assert_eq!(rewritten("SELECT \"list\"[1]"), "SELECT \"list\" [ 1 ]");
    }

    #[test]
    fn a_type_followed_by_list_becomes_one_marked_word() {
        assert_eq!(rewritten("SELECT x::int list"), "SELECT x :: `int list`");
        assert_eq!(
            rewritten("SELECT CAST(x AS Double Precision LIST list)"),
            "SELECT CAST ( x AS `double precision list list` )"
        );
        assert_eq!(
            rewritten("CREATE TABLE t (a text list NOT NULL)"),
            "CREATE TABLE t ( a `text list` NOT NULL )"
        );
        // Before a parenthesis: as it was; after no type name it names:
        // nothing sqlparser reads as an alias.
        assert_eq!(rewritten("SELECT list(1)"), "SELECT list ( 1 )");
        assert_eq!(rewritten("SELECT a list FROM t"), "SELECT a ?list FROM t");
        // Where no type can end, `list` is a name.
        assert_eq!(
            rewritten("SELECT list, map FROM t"),
            "SELECT list , map FROM t"
        );
        assert_eq!(rewritten("SELECT a, list FROM t"), "SELECT a , list FROM t");
        assert_eq!(
            rewritten("CREATE TABLE t (list int, x int list)"),
            "CREATE TABLE t ( list int , x `int list` )"
        );
        assert_eq!(
            rewritten("SELECT 1 WHERE list = 2"),
            "SELECT 1 WHERE list = 2"
        );
        assert_eq!(rewritten("SELECT 1 list"), "SELECT 1 ?list");
        assert_eq!(rewritten("SELECT (a) list"), "SELECT ( a ) ?list");
        assert_eq!(
            rewritten("SELECT x::int4range list"),
            "SELECT x :: int4range ?list"
        );
        assert_eq!(
            rewritten("SELECT '{1}'::varchar(2) list"),
            "SELECT '{1}' :: varchar ( 2 ) ?list"
        );
        assert_eq!(
            list_type_words("int list list", Some('`')),
            Some(("int".into(), 2))
        );
        assert_eq!(list_type_words("int list", Some('"')), None);
        assert!(is_constructor("list", Some('`')) && !is_constructor("list", None));
    }
}
