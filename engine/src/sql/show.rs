//! `SHOW TABLES`, `SHOW VIEWS` and `SHOW DATABASES`, read as Materialize's
//! parser reads them (`parse_show`: `[FROM schema]`, then `LIKE 'pattern'`
//! or `WHERE expr`) and planned as its `show.rs` plans them: a query over
//! the objects of one schema (the current one, `public`, unless `FROM`
//! names one) or over the databases, `SELECT name, comment FROM (...) q
//! WHERE filter ORDER BY q.*` (`ShowSelect`); and `SHOW COLUMNS FROM t`,
//! `SELECT name, nullable, type, comment FROM (...) q WHERE filter ORDER
//! BY position`, of a table only (`columns`). Materialize's `comment` is a
//! `COALESCE(comment, '')` over `mz_comments`; the engine refuses `COMMENT
//! ON`, so every comment is `''`. The rows are the catalog's at planning,
//! which is the read's time: a SHOW is planned and answered at once.
//! Any other SHOW is left to sqlparser, and refused by name as before.

use sqlparser::ast::{Expr, ObjectName};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::names::{parts, system_schema};
use crate::plan::{current_schema, ObjectKind, Resolver, SchemaId};
use crate::repr::{unsupported, ScalarType};

/// What a SHOW lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Listed {
    Tables,
    Views,
    Databases,
    Columns,
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
                "columns" | "fields" => Some(Listed::Columns),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The rest of the statement, after `SHOW TABLES` and the like, as
/// Materialize's parser reads it; the caller checks the end follows.
pub(super) fn read(parser: &mut Parser, listed: Listed) -> Result<Show, ParserError> {
    let from = match listed {
        Listed::Columns => {
            parser.expect_one_of_keywords(&[Keyword::FROM, Keyword::IN])?;
            Some(parser.parse_object_name(false)?)
        }
        Listed::Databases => None,
        _ => match parser.parse_keyword(Keyword::FROM) {
            true => Some(parser.parse_object_name(false)?),
            false => None,
        },
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

/// A string literal of `s`.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The rows `SHOW COLUMNS` reads, as a query: Materialize's
/// `mz_show_columns` of a table, each column's name, nullability, type
/// name (`mz_pgrepr`'s `Type::name`), position and comment (`''`). A view's
/// or materialized view's nullability is Materialize's type inference,
/// which the engine's need not match, so those are refused by name, as are
/// the system relations and the types whose names are not known here.
fn columns(catalog: &dyn Resolver, from: &ObjectName) -> Result<String, String> {
    let (_, id, kind) = super::resolve(catalog, from)?;
    match kind {
        ObjectKind::Table => {}
        ObjectKind::Index => {
            let name = super::full_name_of(catalog, id);
            return Err(format!("{name} is a index and so does not have columns"));
        }
        ObjectKind::Introspection => return Err(unsupported("SHOW COLUMNS of a system relation")),
        other => {
            let kind = super::with_article(other);
            return Err(unsupported(format!("SHOW COLUMNS of {kind}")));
        }
    }
    let mut rows = vec![];
    for (at, column) in catalog.columns(id).unwrap_or_default().iter().enumerate() {
        let typ = type_name(column.typ)
            .ok_or_else(|| unsupported(format!("SHOW COLUMNS of type {}", column.typ.name())))?;
        rows.push(format!(
            "({}, {}, '{typ}', {}::uint8, '')",
            quoted(&column.name),
            column.nullable,
            at + 1
        ));
    }
    Ok(match rows.is_empty() {
        true => "SELECT '', true, '', 0::uint8, '' WHERE false".to_string(),
        false => format!("VALUES {}", rows.join(", ")),
    })
}

/// A type's name as Materialize's `mz_columns.type` holds it, where known.
fn type_name(typ: ScalarType) -> Option<&'static str> {
    use ScalarType::*;
    Some(match typ {
        Char(_) => "character",
        VarChar(_) => "character varying",
        UInt16 => "uint2",
        UInt32 => "uint4",
        UInt64 => "uint8",
        Jsonb => "jsonb",
        Time => "time",
        Int16 | Int32 | Int64 | Numeric | NumericScale(_) | Text | Bool | Float32 | Float64
        | Date | Timestamp | TimestampTz | Interval => typ.base_name(),
        _ => return None,
    })
}

/// The query a SHOW is, as text, over the catalog as it is.
pub(super) fn query(catalog: &dyn Resolver, show: &Show) -> Result<String, String> {
    let filter = match &show.filter {
        None => "true".to_string(),
        Some(Filter::Like(pattern)) => format!("name LIKE {}", quoted(pattern)),
        Some(Filter::Where(e)) => e.to_string(),
    };
    let names = match show.listed {
        Listed::Columns => {
            let from = show.from.as_ref().expect("read");
            let rows = columns(catalog, from)?;
            return Ok(format!(
                "SELECT name, nullable, type, comment FROM ({rows}) \
                 AS q (name, nullable, type, position, comment) \
                 WHERE {filter} ORDER BY position"
            ));
        }
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
    Ok(format!(
        "SELECT name, comment FROM ({rows}) AS q (name, comment) \
         WHERE {filter} ORDER BY name, comment"
    ))
}

/// The schema `FROM` names, resolved as Materialize's `resolve_schema`,
/// or the current one.
fn schema(catalog: &dyn Resolver, from: Option<&ObjectName>) -> Result<SchemaId, String> {
    let Some(from) = from else {
        return current_schema(catalog);
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
