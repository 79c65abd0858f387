//! `SHOW TABLES`, `SHOW VIEWS` and `SHOW DATABASES`, read as Materialize's
//! parser reads them (`parse_show`: `[FROM schema]`, then `LIKE 'pattern'`
//! or `WHERE expr`) and planned as its `show.rs` plans them: a query over
//! the objects of one schema (the current one, `public`, unless `FROM`
//! names one) or over the databases, `SELECT name, comment FROM (...) q
//! WHERE filter ORDER BY q.*` (`ShowSelect`). Materialize's `comment` is a
//! `COALESCE(comment, '')` over `mz_comments`; the engine refuses `COMMENT
//! ON`, so every comment is `''`. The rows are the catalog's at planning,
//! which is the read's time: a SHOW is planned and answered at once.
//! Any other SHOW is left to sqlparser, and refused by name as before.

use sqlparser::ast::{Expr, ObjectName};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::names::{parts, system_schema};
use crate::plan::{ObjectKind, Resolver, SchemaId};
use crate::repr::unsupported;

/// What a SHOW lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Listed {
    Tables,
    Views,
    Databases,
}

/// A SHOW statement as read.
#[derive(Debug)]
pub(super) struct Show {
    listed: Listed,
    from: Option<ObjectName>,
    filter: Option<Filter>,
}

#[derive(Debug)]
enum Filter {
    Like(String),
    Where(Box<Expr>),
}

/// What `tokens` list, if they begin `SHOW TABLES`, `SHOW VIEWS` or
/// `SHOW DATABASES`.
pub(super) fn listed(tokens: &[TokenWithSpan]) -> Option<Listed> {
    let word = |t: &TokenWithSpan| match &t.token {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_lowercase()),
        _ => None,
    };
    match tokens {
        [show, what, ..] if matches!(&show.token, Token::Word(w) if w.keyword == Keyword::SHOW) => {
            match word(what)?.as_str() {
                "tables" => Some(Listed::Tables),
                "views" => Some(Listed::Views),
                "databases" => Some(Listed::Databases),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The rest of the statement, after `SHOW TABLES` and the like, as
/// Materialize's parser reads it; the caller checks the end follows.
pub(super) fn read(parser: &mut Parser, listed: Listed) -> Result<Show, ParserError> {
    let from = match listed != Listed::Databases && parser.parse_keyword(Keyword::FROM) {
        true => Some(parser.parse_object_name(false)?),
        false => None,
    };
    let filter = if parser.parse_keyword(Keyword::LIKE) {
        Some(Filter::Like(parser.parse_literal_string()?))
    } else if parser.parse_keyword(Keyword::WHERE) {
        Some(Filter::Where(Box::new(parser.parse_expr()?)))
    } else {
        None
    };
    Ok(Show {
        listed,
        from,
        filter,
    })
}

/// The query a SHOW is, as text, over the catalog as it is.
pub(super) fn query(catalog: &dyn Resolver, show: &Show) -> Result<String, String> {
    let names = match show.listed {
        Listed::Databases => catalog.databases(),
        Listed::Tables | Listed::Views => {
            let kind = match show.listed {
                Listed::Tables => ObjectKind::Table,
                _ => ObjectKind::View,
            };
            let schema = schema(catalog, show.from.as_ref())?;
            let mut names = vec![];
            for id in catalog.items_in(schema) {
                let name = catalog.name(id).unwrap_or_default();
                if catalog.resolve_in(schema, &name).map(|(_, k)| k) == Some(kind) {
                    names.push(name);
                }
            }
            names
        }
    };
    let quoted = |s: &str| format!("'{}'", s.replace('\'', "''"));
    let rows = match names.is_empty() {
        true => "SELECT '' AS name, '' AS comment WHERE false".to_string(),
        false => {
            let rows: Vec<String> = names
                .iter()
                .map(|n| format!("({}, '')", quoted(n)))
                .collect();
            format!("VALUES {}", rows.join(", "))
        }
    };
    let filter = match &show.filter {
        None => "true".to_string(),
        Some(Filter::Like(pattern)) => format!("name LIKE {}", quoted(pattern)),
        Some(Filter::Where(e)) => e.to_string(),
    };
    Ok(format!(
        "SELECT name, comment FROM ({rows}) AS q (name, comment) \
         WHERE {filter} ORDER BY name, comment"
    ))
}

/// The schema `FROM` names, resolved as Materialize's `resolve_schema`,
/// or the current one.
fn schema(catalog: &dyn Resolver, from: Option<&ObjectName>) -> Result<SchemaId, String> {
    let Some(from) = from else {
        return Ok(SchemaId::DEFAULT);
    };
    let parts = parts(from)?;
    let (database, schema) = match parts.as_slice() {
        [schema] => (None, schema),
        [database, schema] => (Some(database.as_str()), schema),
        _ => {
            return Err(format!(
                "qualified name did not have between 1 and 2 components: {from}"
            ))
        }
    };
    if system_schema(schema) {
        return Err(unsupported(format!("SHOW of a system schema: {schema}")));
    }
    catalog.schema(database, schema)
}
