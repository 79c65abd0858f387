//! Text to statements: sqlparser's parser, plus the pieces of Materialize
//! syntax it does not know, handled on tokens (never on raw text, so string
//! literals and comments can contain anything): a trailing `AS OF <int>`,
//! `CREATE DEFAULT INDEX ON <relation>`, the postfix `ISNULL` (which
//! sqlparser would read as a column alias), `LIST[...]` and the list type
//! names `T LIST` (`list_syntax`), `SET`/`RESET`/`SHOW` of the time
//! zone (`session`); and Materialize's lexer's limit
//! on an identifier's length. `WITH MUTUALLY RECURSIVE`, which it does not
//! parse, is rewritten on tokens into its `WITH RECURSIVE`
//! (`mutually_recursive`).
//!
//! sqlparser is not the real system's parser: what it cannot parse may be
//! the real system's syntax, and its messages are not the real system's.
//! So a syntax error is refused as `unsupported: syntax <first words>: ...`,
//! never shown as the real system's answer.

use sqlparser::ast::{self, ObjectName};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};

use super::{list_syntax, mutually_recursive, session, show, transaction, values, words};
use crate::plan::Statement;
use crate::recursion::{grow_sqlparser, recursion_limit_error, with_stack, RECURSION_LIMIT};
use crate::repr::{unsupported, Timestamp};

pub(super) const DIALECT: PostgreSqlDialect = PostgreSqlDialect {};

/// One parsed statement.
#[derive(Debug)]
pub(super) enum Parsed {
    Ast(Box<ast::Statement>),
    /// `CREATE DEFAULT INDEX ON <on>`: an index on all columns of `on`.
    DefaultIndex {
        on: ObjectName,
    },
    /// An INSERT of one row of VALUES and more rows of plain literals, read
    /// off the text (`values`).
    BulkInsert {
        insert: Box<ast::Insert>,
        rows: values::LiteralRows,
    },
    /// `SET`, `RESET` or `SHOW` of the time zone, read on tokens and
    /// planned there (`session`), its value checked.
    Session(Box<Result<Statement, String>>),
    /// `SHOW TABLES`, `SHOW VIEWS` or `SHOW DATABASES` (`show`).
    Show(Box<show::Show>),
}

/// A parsed statement and the `AS OF` that was stripped off its end, and
/// the stack its syntax tree is walked and dropped on ([`stack_for`]).
#[derive(Debug)]
pub(super) struct ParsedStatement {
    pub stmt: Parsed,
    pub as_of: Option<Timestamp>,
    pub stack: usize,
}

impl ParsedStatement {
    /// Drops the statement on a stack deep enough for its syntax tree.
    pub fn discard(self) {
        with_stack(self.stack, || drop(self));
    }
}

/// Parses `;`-separated statements; empty ones are dropped.
pub(super) fn parse(sql: &str) -> Result<Vec<ParsedStatement>, String> {
    let mut parsed = Vec::new();
    for statement in parse_each(sql)? {
        match statement {
            Ok(statement) => parsed.push(statement),
            Err(e) => {
                parsed.into_iter().for_each(ParsedStatement::discard);
                return Err(e);
            }
        }
    }
    Ok(parsed)
}

/// Parses `;`-separated statements each on its own, empty ones dropped:
/// the outer error is the tokenizer's, an inner one that statement's. A
/// location counts from the statement's own text (which starts right after
/// the `;` before it), as if it had been parsed alone.
pub(super) fn parse_each(sql: &str) -> Result<Vec<Result<ParsedStatement, String>>, String> {
    if let Some(bulk) = bulk_insert(sql) {
        return Ok(vec![Ok(bulk)]);
    }
    let mut statements = vec![vec![]];
    // Where the statement being gathered starts: just after this `;`.
    let mut after: Option<Location> = None;
    for mut token in tokenize(sql)? {
        match token.token {
            Token::SemiColon => {
                after = Some(token.span.start);
                statements.push(vec![]);
            }
            _ => {
                if let Some(semicolon) = after {
                    token.span.start = relative(token.span.start, semicolon);
                    token.span.end = relative(token.span.end, semicolon);
                }
                statements.last_mut().expect("never empty").push(token);
            }
        }
    }
    Ok(statements
        .into_iter()
        .filter(|tokens| !tokens.is_empty())
        .map(parse_statement)
        .collect())
}

/// A bulk INSERT whose rows after the first are plain literals: sqlparser
/// reads the text up to the end of the first row, `values` the rest. `None`
/// when it is not one, or its head does not parse: the usual way then gives
/// the statement (or its error) as if this had not been tried.
fn bulk_insert(sql: &str) -> Option<ParsedStatement> {
    let (head, rows) = values::split(sql)?;
    let tokens = tokenize(head).ok()?;
    let stack = stack_for(&tokens).ok()?;
    let insert = with_stack(stack, || match parse_ast(tokens) {
        Ok(ast::Statement::Insert(insert)) if values::has_one_row(&insert) => Some(insert),
        _ => None,
    })?;
    let stmt = Parsed::BulkInsert {
        insert: Box::new(insert),
        rows,
    };
    Some(ParsedStatement {
        stmt,
        as_of: None,
        stack,
    })
}

/// The tokens of `sql` that mean something: no whitespace, no end marker.
pub(super) fn tokenize(sql: &str) -> Result<Vec<TokenWithSpan>, String> {
    let tokens = Tokenizer::new(&DIALECT, sql)
        .tokenize_with_location()
        .map_err(|e| unsupported(format!("syntax: {e}")))?;
    let significant = |t: &TokenWithSpan| !matches!(t.token, Token::Whitespace(_) | Token::EOF);
    let tokens: Vec<TokenWithSpan> = tokens.into_iter().filter(significant).collect();
    identifier_lengths(&tokens)?;
    Ok(list_syntax::rewrite(empty_calls(postfix_isnull(tokens))))
}

/// `current_user()`, `session_user()` and `user()`, which Materialize reads
/// as calls and sqlparser only without parentheses: the word becomes one
/// quoted in backticks, which the PostgreSQL dialect's tokenizer never
/// makes, so sqlparser reads a call of a function of that name
/// (`expr::session_func`), and `user` without them stays what it was.
fn empty_calls(mut tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    for i in 0..tokens.len() {
        let called = tokens.get(i + 1).is_some_and(|t| t.token == Token::LParen)
            && tokens.get(i + 2).is_some_and(|t| t.token == Token::RParen);
        let Token::Word(w) = &tokens[i].token else {
            continue;
        };
        let niladic = matches!(
            w.keyword,
            Keyword::CURRENT_USER | Keyword::SESSION_USER | Keyword::USER
        );
        if called && niladic && w.quote_style.is_none() {
            let name = w.value.to_lowercase();
            tokens[i].token = Token::Word(sqlparser::tokenizer::Word {
                value: name,
                quote_style: Some('`'),
                keyword: Keyword::NoKeyword,
            });
        }
    }
    tokens
}

/// The longest identifier Materialize's lexer reads, in bytes.
pub(super) use crate::repr::ident::MAX_IDENTIFIER_BYTES;

/// Materialize's lexer refuses every identifier longer than
/// [`MAX_IDENTIFIER_BYTES`], quoted or not (an unquoted one as folded to
/// lower case), before anything else: so a name is refused wherever it
/// stands, whether it creates an object, a column or an alias, or names one.
fn identifier_lengths(tokens: &[TokenWithSpan]) -> Result<(), String> {
    let too_long = |t: &TokenWithSpan| match &t.token {
        Token::Word(w) if w.quote_style.is_some() => w.value.len() > MAX_IDENTIFIER_BYTES,
        Token::Word(w) => w.value.to_lowercase().len() > MAX_IDENTIFIER_BYTES,
        _ => false,
    };
    match tokens.iter().any(too_long) {
        true => Err(format!(
            "identifier length exceeds {MAX_IDENTIFIER_BYTES} bytes"
        )),
        false => Ok(()),
    }
}

/// `x ISNULL` as `x IS NULL`: an unquoted `ISNULL` right after what can
/// end an expression (a literal, a name, a `)`, `END`, `NULL`), and not
/// before a `(`. sqlparser knows `NOTNULL` but would take this one for
/// the column alias `isnull`.
fn postfix_isnull(tokens: Vec<TokenWithSpan>) -> Vec<TokenWithSpan> {
    let ends_expression = |t: &TokenWithSpan| match &t.token {
        Token::Number(..) | Token::SingleQuotedString(_) | Token::RParen => true,
        Token::Word(w) => matches!(
            w.keyword,
            Keyword::NoKeyword | Keyword::END | Keyword::NULL | Keyword::TRUE | Keyword::FALSE
        ),
        _ => false,
    };
    let mut out: Vec<TokenWithSpan> = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let isnull = matches!(&t.token, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("isnull"));
        let call = tokens.get(i + 1).is_some_and(|n| n.token == Token::LParen);
        if isnull && !call && out.last().is_some_and(ends_expression) {
            for keyword in ["IS", "NULL"] {
                out.push(TokenWithSpan {
                    token: Token::make_keyword(keyword),
                    span: t.span,
                });
            }
            continue;
        }
        out.push(t.clone());
    }
    out
}

/// `unsupported: syntax <first words>: <message>`: a statement sqlparser
/// cannot parse, named by its first words for the tally of refusals.
fn syntax(tokens: &[TokenWithSpan], message: String) -> String {
    let word = |i: usize| match tokens.get(i).map(|t| &t.token) {
        Some(Token::Word(w)) if w.quote_style.is_none() => Some(w.value.to_uppercase()),
        _ => None,
    };
    let mut words: Vec<String> = word(0).into_iter().collect();
    if matches!(
        words.first().map(String::as_str),
        Some("CREATE" | "DROP" | "ALTER" | "SHOW")
    ) {
        words.extend(word(1));
    }
    unsupported(format!("syntax {}: {message}", words.join(" ")))
}

/// Whether the tokens hold `LIMIT ALL`. sqlparser reads it as no LIMIT
/// written, where Materialize's parser counts it as one (so that
/// `(SELECT ... LIMIT 1) LIMIT ALL` is its error): it is refused by name.
fn limit_all(tokens: &[TokenWithSpan]) -> bool {
    tokens
        .windows(2)
        .any(|w| is_keyword(&w[0], Keyword::LIMIT) && is_keyword(&w[1], Keyword::ALL))
}

/// `at` as a location in the text that starts just after `semicolon`.
fn relative(at: Location, semicolon: Location) -> Location {
    Location {
        line: at.line - semicolon.line + 1,
        column: match at.line == semicolon.line {
            true => at.column - semicolon.column,
            false => at.column,
        },
    }
}

/// Whether `t` is the keyword `keyword`.
fn is_keyword(t: &TokenWithSpan, keyword: Keyword) -> bool {
    words::keyword(&t.token, keyword)
}

/// One statement, parsed on a stack deep enough for its syntax tree (a
/// tree given up on a syntax error is dropped there too).
fn parse_statement(tokens: Vec<TokenWithSpan>) -> Result<ParsedStatement, String> {
    let head: Vec<TokenWithSpan> = tokens.iter().take(2).cloned().collect();
    if limit_all(&tokens) {
        return Err(unsupported("LIMIT ALL"));
    }
    let tokens = mutually_recursive::rewrite(tokens)?;
    let stack = stack_for(&tokens)?;
    with_stack(stack, || parse_tokens(tokens, stack)).map_err(|e| match e {
        // Nesting past the limit is no syntax error, and no refusal.
        Syntax::Error(message) if message == recursion_limit_error() => message,
        Syntax::Error(message) => syntax(&head, message),
        Syntax::Other(message) => message,
    })
}

/// Why a statement did not parse: sqlparser's syntax error, or ours.
enum Syntax {
    Error(String),
    Other(String),
}

impl From<String> for Syntax {
    fn from(message: String) -> Syntax {
        Syntax::Error(message)
    }
}

fn parse_tokens(mut tokens: Vec<TokenWithSpan>, stack: usize) -> Result<ParsedStatement, Syntax> {
    let as_of = strip_as_of(&mut tokens).map_err(Syntax::Other)?;
    let default_index = [Keyword::CREATE, Keyword::DEFAULT, Keyword::INDEX];
    let is_default_index = tokens.len() >= 3
        && tokens
            .iter()
            .zip(default_index)
            .all(|(t, k)| is_keyword(t, k));
    let stmt = if let Some(planned) = session::statement(&tokens) {
        Parsed::Session(Box::new(planned))
    } else if let Some(planned) = transaction::statement(&tokens) {
        Parsed::Session(Box::new(planned))
    } else if let Some(listed) = show::listed(&tokens) {
        let mut parser = parser(tokens.split_off(2))?;
        let show = show::read(&mut parser, listed).map_err(parser_error)?;
        end_of_statement(&mut parser)?;
        Parsed::Show(Box::new(show))
    } else if is_default_index {
        let mut parser = parser(tokens.split_off(3))?;
        parser
            .expect_keyword_is(Keyword::ON)
            .map_err(parser_error)?;
        let on = parser.parse_object_name(false).map_err(parser_error)?;
        end_of_statement(&mut parser)?;
        Parsed::DefaultIndex { on }
    } else {
        Parsed::Ast(Box::new(parse_ast(tokens)?))
    };
    Ok(ParsedStatement { stmt, as_of, stack })
}

/// One whole statement, by sqlparser.
fn parse_ast(tokens: Vec<TokenWithSpan>) -> Result<ast::Statement, String> {
    let mut parser = parser(tokens)?;
    let stmt = parser.parse_statement().map_err(parser_error)?;
    end_of_statement(&mut parser)?;
    Ok(stmt)
}

/// Fails unless `parser` has read every token.
fn end_of_statement(parser: &mut Parser) -> Result<(), String> {
    let next = parser.peek_token();
    if next.token != Token::EOF {
        return Err(parser_error(
            parser.expected::<()>("end of statement", next).unwrap_err(),
        ));
    }
    Ok(())
}

/// Removes a trailing `AS OF <integer>` and returns its timestamp.
fn strip_as_of(tokens: &mut Vec<TokenWithSpan>) -> Result<Option<Timestamp>, String> {
    let n = tokens.len();
    if n < 3 || !is_keyword(&tokens[n - 3], Keyword::AS) || !is_keyword(&tokens[n - 2], Keyword::OF)
    {
        return Ok(None);
    }
    let Token::Number(text, _) = &tokens[n - 1].token else {
        return Ok(None);
    };
    let ts = text
        .parse()
        .map_err(|_| format!("invalid AS OF timestamp: {text}"))?;
    tokens.truncate(n - 3);
    Ok(Some(ts))
}

/// sqlparser's parser over `tokens`, or the recursion limit's error if
/// they nest deeper than a planned expression may (see `nesting`). Its own
/// recursion budget (its default is 50) is set well above what tokens
/// nesting within the limit use up (a derived table takes some 18 of it
/// a level), so that the planner's check, with its clear error, is the one
/// that binds: past its budget, sqlparser backtracks through alternatives
/// that fail the same way, exponentially (a derived table nested 116 deep
/// hung). Its recursion grows the stack as it needs ([`grow_sqlparser`]).
pub(super) fn parser(tokens: Vec<TokenWithSpan>) -> Result<Parser<'static>, String> {
    if nesting(&tokens) > RECURSION_LIMIT {
        return Err(recursion_limit_error());
    }
    grow_sqlparser();
    Ok(Parser::new(&DIALECT)
        .with_recursion_limit(64 * RECURSION_LIMIT)
        .with_tokens_with_locations(tokens))
}

/// How deep `tokens` nest at least: parentheses and brackets, `CASE ...
/// END`, and runs of prefix operators (`NOT NOT x`, `- -x`; the first of a
/// run may be infix, so a run of n counts n - 1), each of which is a level
/// of the syntax tree and of the planned expression. Checked before
/// sqlparser parses them, since past its recursion budget it may report a
/// misleading error (`Expected: end of statement`) in place of its own,
/// and never rejecting what the planner would accept: the planner counts
/// every one of these levels.
fn nesting(tokens: &[TokenWithSpan]) -> usize {
    let (mut depth, mut deepest, mut run) = (0usize, 0, 0usize);
    for t in tokens {
        let keyword = |k| matches!(&t.token, Token::Word(w) if w.keyword == k);
        let prefix =
            keyword(Keyword::NOT) || matches!(t.token, Token::Minus | Token::Plus | Token::Tilde);
        run = if prefix { run + 1 } else { 0 };
        if matches!(t.token, Token::LParen | Token::LBracket) || keyword(Keyword::CASE) {
            depth += 1;
        } else if matches!(t.token, Token::RParen | Token::RBracket) || keyword(Keyword::END) {
            depth = depth.saturating_sub(1);
        }
        deepest = deepest.max(depth + run.saturating_sub(1));
    }
    deepest
}

/// How deep a syntax tree of `tokens` may nest, at most, counted in
/// tokens: every level of sqlparser's tree takes at least one token, so a
/// comma-separated item (or a CASE's WHEN, THEN or ELSE part) nests at
/// most as many levels as it has tokens, plus what a bracketed group or a
/// `CASE ... END` inside it nests, counted [`GROUP_LEVELS`] for its own
/// brackets (a call, its arguments, a subquery's layers). sqlparser builds
/// an operator chain (`a + a + ...`) in a loop, however long, into a tree
/// as deep as the chain: the planner refuses it past the limit, but
/// dropping it, or printing it in an error, recurses all the way down.
fn tree_depth(tokens: &[TokenWithSpan]) -> usize {
    /// A group being read: tokens of its current item, the deepest group
    /// nested in that item, the deepest item so far, and whether it is a
    /// CASE.
    struct Group {
        item: usize,
        nested: usize,
        deepest: usize,
        case: bool,
    }
    impl Group {
        fn new(case: bool) -> Group {
            let (item, nested, deepest) = (0, 0, 0);
            Group {
                item,
                nested,
                deepest,
                case,
            }
        }
        fn end_item(&mut self) {
            self.deepest = self.deepest.max(self.item + self.nested);
            (self.item, self.nested) = (0, 0);
        }
    }
    let mut groups = vec![Group::new(false)];
    for t in tokens {
        let keyword = |k| matches!(&t.token, Token::Word(w) if w.keyword == k);
        let in_case = groups.last().is_some_and(|g| g.case);
        let opens = matches!(t.token, Token::LParen | Token::LBracket);
        let closes = matches!(t.token, Token::RParen | Token::RBracket);
        if opens || keyword(Keyword::CASE) {
            groups.push(Group::new(!opens));
        } else if (closes && !in_case || keyword(Keyword::END) && in_case) && groups.len() > 1 {
            let mut group = groups.pop().expect("more than one");
            group.end_item();
            let outer = groups.last_mut().expect("one left");
            outer.nested = outer.nested.max(group.deepest + GROUP_LEVELS);
        } else if t.token == Token::Comma
            || in_case
                && (keyword(Keyword::WHEN) || keyword(Keyword::THEN) || keyword(Keyword::ELSE))
        {
            groups.last_mut().expect("never empty").end_item();
        } else {
            groups.last_mut().expect("never empty").item += 1;
        }
    }
    // Groups left open (a syntax error to come) count as closed.
    let mut depth = 0;
    while let Some(mut group) = groups.pop() {
        group.nested = group.nested.max(depth);
        group.end_item();
        depth = group.deepest + GROUP_LEVELS;
    }
    depth
}

/// The levels a bracketed group or a CASE adds to a syntax tree around
/// what it holds: a function call's arguments, or a subquery's query, body
/// and select, nest that deep at most.
const GROUP_LEVELS: usize = 8;

/// Stack taken per level of a syntax tree to drop it, walk it or print it,
/// in a debug build, with room to spare.
const STACK_PER_LEVEL: usize = 1024;

/// The deepest syntax tree parsed: a statement whose tokens could nest
/// deeper ([`tree_depth`]) is refused with the recursion limit's error
/// before it is parsed. Only a run of 100,000 tokens without a comma or a
/// bracket does, and it is a chain of operators that would nest far deeper
/// than [`RECURSION_LIMIT`] once planned (binary operators bind at a dozen
/// precedences), so the planner would refuse it with that error anyway.
const DEEPEST_TREE: usize = 100_000;

/// The stack on which a statement of `tokens` is parsed, planned and
/// dropped: enough for the deepest syntax tree they may build.
pub(super) fn stack_for(tokens: &[TokenWithSpan]) -> Result<usize, String> {
    match tree_depth(tokens) {
        depth if depth > DEEPEST_TREE => Err(recursion_limit_error()),
        depth => Ok(depth.saturating_mul(STACK_PER_LEVEL)),
    }
}

/// The parser's message without its `sql parser error: ` prefix; nesting
/// past the limit is the real system's `exceeded recursion limit of 512`.
pub(super) fn parser_error(e: ParserError) -> String {
    match e {
        ParserError::TokenizerError(s) | ParserError::ParserError(s) => s,
        ParserError::RecursionLimitExceeded => recursion_limit_error(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(sql: &str) -> ParsedStatement {
        let mut all = parse(sql).unwrap();
        assert_eq!(all.len(), 1, "{sql}");
        all.pop().unwrap()
    }

    #[test]
    fn splits_statements_on_semicolon_tokens_only() {
        let all = parse("INSERT INTO t VALUES ('a;b'); ; SELECT 1;").unwrap();
        assert_eq!(all.len(), 2);
    }

    #[test]
    fn strips_trailing_as_of() {
        let p = one("SELECT * FROM t WHERE a > 1 AS OF 7");
        assert_eq!(p.as_of, Some(7));
        assert!(matches!(p.stmt, Parsed::Ast(s) if s.to_string() == "SELECT * FROM t WHERE a > 1"));
        assert_eq!(one("SELECT 'AS OF 3'").as_of, None);
        assert_eq!(one("SELECT 1 -- AS OF 3\n").as_of, None);
        assert_eq!(
            parse("SELECT 1 AS OF 1.5").unwrap_err(),
            "invalid AS OF timestamp: 1.5"
        );
    }

    /// As if each statement had been parsed alone, from just after its `;`.
    #[test]
    fn locations_count_from_each_statement() {
        let all = parse_each("SELECT 1; SELEC 1;\n  SELECT 1 2").unwrap();
        let errors: Vec<_> = all.into_iter().filter_map(Result::err).collect();
        assert_eq!(
            errors,
            [
                "unsupported: syntax SELEC: Expected: an SQL statement, found: SELEC at Line: 1, Column: 2",
                "unsupported: syntax SELECT: Expected: end of statement, found: 2 at Line: 2, Column: 12",
            ]
        );
        for (alone, text) in [
            (" SELEC 1", "x; SELEC 1"),
            ("\n  SELECT 1 2", "x;\n  SELECT 1 2"),
        ] {
            let alone = parse(alone).unwrap_err();
            assert_eq!(parse_each(text).unwrap().pop().unwrap().unwrap_err(), alone);
        }
    }

    #[test]
    fn recognizes_create_default_index() {
        let p = one("create default index on v");
        assert!(matches!(p.stmt, Parsed::DefaultIndex { on } if on.to_string() == "v"));
        let err = parse("CREATE DEFAULT INDEX v").unwrap_err();
        assert_eq!(
            err,
            "unsupported: syntax CREATE DEFAULT: Expected: ON, found: v at Line: 1, Column: 22"
        );
        let err = parse("CREATE DEFAULT INDEX ON v (a)").unwrap_err();
        assert_eq!(
            err,
            "unsupported: syntax CREATE DEFAULT: Expected: end of statement, found: ( at Line: 1, Column: 27"
        );
    }

    #[test]
    fn reports_parse_errors_with_their_location() {
        let err = parse("SELEC 1").unwrap_err();
        assert_eq!(
            err,
            "unsupported: syntax SELEC: Expected: an SQL statement, found: SELEC at Line: 1, Column: 1"
        );
        let err = parse("SELECT 1 2").unwrap_err();
        assert_eq!(
            err,
            "unsupported: syntax SELECT: Expected: end of statement, found: 2 at Line: 1, Column: 10"
        );
    }
}
