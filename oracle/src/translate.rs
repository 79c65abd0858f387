//! What a scenario's SQL means to PostgreSQL: a directive's text split into
//! statements, each classified by what the replay must do with it (a write
//! advances the clock, index DDL only names an arrangement), and a read's
//! engine-only `AS OF T` suffix taken off. Pure text work on sqlparser's
//! tokenizer, so it is tested without a server.

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};

/// One statement of a directive, as the replay treats it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `INSERT`, `UPDATE`, `DELETE`: commits at `now + 1` and advances `now`.
    Write(String),
    /// `CREATE [DEFAULT] INDEX [name] ON relation [(columns)]`. PostgreSQL
    /// cannot index a view and keeps no arrangements, so the replay only
    /// checks that the relation (and columns) exist and remembers the name
    /// for `peek index=`.
    CreateIndex {
        /// The name given, if any.
        name: Option<String>,
        /// The name an unnamed index starts from (see [`default_index_name`]).
        base: String,
        relation: String,
        columns: Vec<String>,
    },
    /// `DROP INDEX name [CASCADE | RESTRICT]`: forgets the name.
    DropIndex(String),
    /// `CREATE DATABASE`, `DROP DATABASE`: never run. A database of
    /// PostgreSQL is a catalog that the file's connection cannot name
    /// objects in (cross-database references are not implemented), and one
    /// created would outlive the file's schema; the replay answers it with
    /// an error, which a directive marked `mz-databases` must differ by.
    Database(String),
    /// Anything else (tables, views, drops, a `SELECT`): run as written.
    Other(String),
}

/// The statements of `sql`, split at top-level `;`, empty ones dropped.
pub fn statements(sql: &str) -> Result<Vec<Statement>, String> {
    let tokens = tokens(sql)?;
    Ok(tokens
        .split(|t| *t == Token::SemiColon)
        .filter(|s| s.iter().any(significant))
        .map(classify)
        .collect())
}

/// A read's SQL without a trailing `AS OF <T>`, and `T`.
pub fn strip_as_of(sql: &str) -> Result<(String, Option<u64>), String> {
    let mut tokens = tokens(sql)?;
    while tokens
        .last()
        .is_some_and(|t| !significant(t) || *t == Token::SemiColon)
    {
        tokens.pop();
    }
    let positions: Vec<usize> = (0..tokens.len())
        .filter(|&i| significant(&tokens[i]))
        .collect();
    if let [.., as_, of, at] = positions[..] {
        if let (Some(Keyword::AS), Some(Keyword::OF), Token::Number(n, false)) =
            (keyword(&tokens[as_]), keyword(&tokens[of]), &tokens[at])
        {
            let at = n
                .parse::<u64>()
                .map_err(|_| format!("`AS OF {n}`: not a timestamp"))?;
            return Ok((text(&tokens[..as_]).trim_end().to_string(), Some(at)));
        }
    }
    Ok((sql.to_string(), None))
}

/// The name the engine starts from for an index the statement does not
/// name, the way the real system does: `<relation>_primary_idx` for a
/// default index, `<relation>_<columns>_idx` otherwise (then `1`, `2`, ...
/// appended until the name is free).
pub fn default_index_name(relation: &str, columns: Option<&[String]>) -> String {
    match columns {
        None => format!("{relation}_primary_idx"),
        Some(columns) => format!("{relation}_{}_idx", columns.join("_")),
    }
}

fn tokens(sql: &str) -> Result<Vec<Token>, String> {
    Tokenizer::new(&PostgreSqlDialect {}, sql)
        .tokenize()
        .map_err(|e| format!("cannot tokenize the SQL: {e}"))
}

fn significant(token: &Token) -> bool {
    !matches!(token, Token::Whitespace(_))
}

fn keyword(token: &Token) -> Option<Keyword> {
    match token {
        Token::Word(w) if w.quote_style.is_none() => Some(w.keyword),
        _ => None,
    }
}

/// The tokens back as SQL text.
fn text(tokens: &[Token]) -> String {
    tokens.iter().map(Token::to_string).collect()
}

fn classify(tokens: &[Token]) -> Statement {
    let sql = text(tokens).trim().to_string();
    let words: Vec<&Token> = tokens.iter().filter(|t| significant(t)).collect();
    let kw = |i: usize| words.get(i).and_then(|t| keyword(t));
    match (kw(0), kw(1)) {
        (Some(Keyword::INSERT | Keyword::UPDATE | Keyword::DELETE), _) => Statement::Write(sql),
        // An index has no dependents: CASCADE and RESTRICT change nothing.
        (Some(Keyword::DROP), Some(Keyword::INDEX)) => match dotted(&words[2..]) {
            Some((name, [])) => Statement::DropIndex(name.join(".")),
            Some((name, [option]))
                if matches!(keyword(option), Some(Keyword::CASCADE | Keyword::RESTRICT)) =>
            {
                Statement::DropIndex(name.join("."))
            }
            _ => Statement::Other(sql),
        },
        (Some(Keyword::CREATE), Some(Keyword::INDEX | Keyword::DEFAULT)) => {
            create_index(&words).unwrap_or(Statement::Other(sql))
        }
        (Some(Keyword::CREATE | Keyword::DROP), Some(Keyword::DATABASE)) => {
            Statement::Database(sql)
        }
        _ => Statement::Other(sql),
    }
}

/// `CREATE DEFAULT INDEX ON r` or `CREATE INDEX [name] ON r (a, b)`.
fn create_index(words: &[&Token]) -> Option<Statement> {
    let default = keyword(words[1]) == Some(Keyword::DEFAULT);
    let rest = &words[if default { 3 } else { 2 }..];
    if default && keyword(words[2]) != Some(Keyword::INDEX) {
        return None;
    }
    let (name, rest) = match rest.split_first()? {
        (t, rest) if keyword(t) == Some(Keyword::ON) => (None, rest),
        (Token::Word(w), [on, rest @ ..]) if keyword(on) == Some(Keyword::ON) => {
            (Some(w.value.clone()), rest)
        }
        _ => return None,
    };
    // An index lives in its relation's schema: it is known by its name
    // qualified as the relation is.
    let (relation, rest) = dotted(rest)?;
    let item = relation.last()?;
    let qualify = |name: String| match relation.len() {
        1 => name,
        n => format!("{}.{name}", relation[..n - 1].join(".")),
    };
    let columns: Vec<String> = rest
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.value.clone()),
            _ => None,
        })
        .collect();
    let keys = (!default).then_some(columns.as_slice());
    Some(Statement::CreateIndex {
        name: name.map(qualify),
        base: qualify(default_index_name(item, keys)),
        relation: relation.join("."),
        columns,
    })
}

/// A name of words joined by `.` (`t`, `s.t`), and the words after it.
fn dotted<'a>(words: &'a [&'a Token]) -> Option<(Vec<String>, &'a [&'a Token])> {
    let mut parts = vec![];
    let mut rest = words;
    loop {
        let (Token::Word(word), after) = rest.split_first()? else {
            return None;
        };
        parts.push(word.value.clone());
        match after.split_first() {
            Some((Token::Period, after)) => rest = after,
            _ => return Some((parts, after)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_classifies() {
        let got = statements(
            "CREATE TABLE t (a int); INSERT INTO t VALUES ('x;y');\n\
             update t SET a = 2; ; DELETE FROM t",
        )
        .unwrap();
        assert_eq!(
            got,
            [
                Statement::Other("CREATE TABLE t (a int)".into()),
                Statement::Write("INSERT INTO t VALUES ('x;y')".into()),
                Statement::Write("update t SET a = 2".into()),
                Statement::Write("DELETE FROM t".into()),
            ]
        );
        assert_eq!(
            statements("CREATE DATABASE d; drop database if exists d CASCADE").unwrap(),
            [
                Statement::Database("CREATE DATABASE d".into()),
                Statement::Database("drop database if exists d CASCADE".into()),
            ]
        );
    }

    #[test]
    fn index_ddl_names_the_relation() {
        let index = |name: Option<&str>, base: &str, columns: &[&str]| Statement::CreateIndex {
            name: name.map(str::to_string),
            base: base.into(),
            relation: base.split('_').next().unwrap().into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
        };
        assert_eq!(
            statements("CREATE INDEX i ON t (k)").unwrap(),
            [index(Some("i"), "t_k_idx", &["k"])]
        );
        assert_eq!(
            statements("CREATE DEFAULT INDEX ON v").unwrap(),
            [index(None, "v_primary_idx", &[])]
        );
        assert_eq!(
            statements("CREATE INDEX ON t (a, b)").unwrap(),
            [index(None, "t_a_b_idx", &["a", "b"])]
        );
        assert_eq!(
            statements("DROP INDEX i1").unwrap(),
            [Statement::DropIndex("i1".into())]
        );
        // In a schema: known by the name qualified as its relation is.
        assert_eq!(
            statements("CREATE INDEX i ON s.t (k); CREATE DEFAULT INDEX ON s.t").unwrap(),
            [
                Statement::CreateIndex {
                    name: Some("s.i".into()),
                    base: "s.t_k_idx".into(),
                    relation: "s.t".into(),
                    columns: vec!["k".into()],
                },
                Statement::CreateIndex {
                    name: None,
                    base: "s.t_primary_idx".into(),
                    relation: "s.t".into(),
                    columns: vec![],
                },
            ]
        );
        assert_eq!(
            statements("DROP INDEX s.i CASCADE").unwrap(),
            [Statement::DropIndex("s.i".into())]
        );
        assert_eq!(
            statements("DROP INDEX i1 CASCADE").unwrap(),
            [Statement::DropIndex("i1".into())]
        );
        assert_eq!(
            statements("DROP INDEX i1, i2").unwrap(),
            [Statement::Other("DROP INDEX i1, i2".into())]
        );
        assert_eq!(
            statements("DROP VIEW v").unwrap(),
            [Statement::Other("DROP VIEW v".into())]
        );
    }

    #[test]
    fn as_of_is_taken_off_a_read() {
        assert_eq!(
            strip_as_of("SELECT * FROM t WHERE b > 0 AS OF 2").unwrap(),
            ("SELECT * FROM t WHERE b > 0".to_string(), Some(2))
        );
        assert_eq!(
            strip_as_of("SELECT a FROM t\nAS OF 18446744073709551615;\n").unwrap(),
            ("SELECT a FROM t".to_string(), Some(u64::MAX))
        );
        assert_eq!(
            strip_as_of("SELECT a AS of FROM t").unwrap(),
            ("SELECT a AS of FROM t".to_string(), None)
        );
        assert_eq!(
            strip_as_of("SELECT 'AS OF 2'").unwrap(),
            ("SELECT 'AS OF 2'".to_string(), None)
        );
    }
}
