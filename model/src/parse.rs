//! Directive text to sqlparser statements: `;`-separated statements, with
//! the two pieces of Materialize syntax sqlparser lacks recognised on
//! tokens: a trailing `AS OF <int>` and `CREATE DEFAULT INDEX ON <name>`;
//! a statement naming Materialize's lists is refused by name.

use crate::scalar::Unsupported;
use engine::repr::Timestamp;
use sqlparser::ast::{ObjectName, Statement};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, Tokenizer};

/// One statement of a directive.
pub enum Parsed {
    Statement(Box<Statement>, Option<Timestamp>),
    DefaultIndex(ObjectName),
}

/// Longest statement, in tokens, the model parses and evaluates recursively.
const MAX_TOKENS: usize = 200;

fn keyword(t: &Token, k: Keyword) -> bool {
    matches!(t, Token::Word(w) if w.keyword == k)
}

/// Parses every statement of `sql`, or says the text is outside the model.
pub fn parse(sql: &str) -> Result<Vec<Parsed>, Unsupported> {
    let dialect = PostgreSqlDialect {};
    let tokens = Tokenizer::new(&dialect, sql)
        .tokenize()
        .map_err(|_| "SQL the model cannot tokenize")?;
    let mut statements: Vec<Vec<Token>> = vec![vec![]];
    for t in tokens {
        match t {
            Token::Whitespace(_) | Token::EOF => {}
            Token::SemiColon => statements.push(vec![]),
            t => statements.last_mut().expect("never empty").push(t),
        }
    }
    statements
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|mut tokens| {
            let n = tokens.len();
            // A deep expression (thousands of ORs) would recurse too deep here.
            if n > MAX_TOKENS {
                return Err("a statement longer than the model follows");
            }
            // Materialize's lists (`LIST[...]`, `int list`), which
            // sqlparser does not read: the model abstains by name.
            let list = |t: &Token| {
                matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("list"))
            };
            if tokens.iter().any(list) {
                return Err("lists are not modelled");
            }
            let mut as_of = None;
            if n > 3 && keyword(&tokens[n - 3], Keyword::AS) && keyword(&tokens[n - 2], Keyword::OF)
            {
                let Token::Number(t, false) = &tokens[n - 1] else {
                    return Err("an AS OF that is not a plain number");
                };
                as_of = Some(t.parse().map_err(|_| "an AS OF beyond 64 bits")?);
                tokens.truncate(n - 3);
            }
            let default = [
                Keyword::CREATE,
                Keyword::DEFAULT,
                Keyword::INDEX,
                Keyword::ON,
            ];
            if tokens.len() > 4 && tokens.iter().zip(default).all(|(t, k)| keyword(t, k)) {
                let mut p = Parser::new(&dialect).with_tokens(tokens.split_off(4));
                let name = p
                    .parse_object_name(false)
                    .map_err(|_| "a bad DEFAULT INDEX")?;
                return match (as_of, p.peek_token().token) {
                    (None, Token::EOF) => Ok(Parsed::DefaultIndex(name)),
                    _ => Err("text after CREATE DEFAULT INDEX ON <name>"),
                };
            }
            let mut p = Parser::new(&dialect).with_tokens(tokens);
            let stmt = p
                .parse_statement()
                .map_err(|_| "SQL the model cannot parse")?;
            match p.peek_token().token {
                Token::EOF => Ok(Parsed::Statement(Box::new(stmt), as_of)),
                _ => Err("text after a statement"),
            }
        })
        .collect()
}
