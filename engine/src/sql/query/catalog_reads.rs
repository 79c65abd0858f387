//! The reads of Materialize's catalog relations that the engine answers.
//! Materialize lists its own system objects in `mz_tables`, `mz_views`,
//! `mz_indexes` and `mz_schemas` beside the user's; the engine's catalog
//! has only the user's. So a SELECT that reads one of them is answered
//! only where a conjunct of its WHERE keeps no system object: the
//! relation's `name` equal to (or in a list of) string literals that name
//! no system object. Elsewhere, and where the relation is on a side of an
//! outer join that is padded, the read is refused by name
//! (docs/semantics.md, "Catalog relations").
//!
//! Materialize's `oid` and `mz_aclitem[]` types are not the engine's: a
//! SELECT that reads a catalog relation and names `oid` or `privileges` is
//! refused here, before planning could type them otherwise; every other
//! column the engine does not fill is refused by the demand pass.

use sqlparser::ast::{BinaryOperator, Expr, InTarget, Select, TableFactor, TableWithJoins, Value};

use super::super::{ident, relation};
use super::from::join_kind;
use super::Planner;
use crate::plan::JoinKind;
use crate::repr::unsupported;

/// The names of Materialize's system objects that begin neither `mz_` nor
/// `pg_` nor `_` (`src/catalog/src/builtin.rs` at 892cf62, and its system
/// schemas): `information_schema`'s views, and the types.
const SYSTEM_NAMES: &[&str] = &[
    "aclitem",
    "any",
    "anyarray",
    "anycompatible",
    "anycompatiblearray",
    "anycompatiblelist",
    "anycompatiblemap",
    "anycompatiblenonarray",
    "anycompatiblerange",
    "anyelement",
    "anynonarray",
    "anyrange",
    "applicable_roles",
    "bool",
    "bpchar",
    "bytea",
    "char",
    "character_sets",
    "columns",
    "date",
    "daterange",
    "enabled_roles",
    "float4",
    "float8",
    "information_schema",
    "int2",
    "int2vector",
    "int4",
    "int4range",
    "int8",
    "int8range",
    "internal",
    "interval",
    "jsonb",
    "key_column_usage",
    "list",
    "map",
    "name",
    "numeric",
    "numrange",
    "oid",
    "record",
    "referential_constraints",
    "regclass",
    "regproc",
    "regtype",
    "role_table_grants",
    "routines",
    "schemata",
    "table_constraints",
    "table_privileges",
    "tables",
    "text",
    "time",
    "timestamp",
    "timestamptz",
    "triggers",
    "tsrange",
    "tstzrange",
    "uint2",
    "uint4",
    "uint8",
    "uuid",
    "varchar",
    "views",
];

/// Whether a system object of Materialize's may have this name.
fn system_name(name: &str) -> bool {
    ["mz_", "pg_", "_"].iter().any(|p| name.starts_with(p)) || SYSTEM_NAMES.contains(&name)
}

/// A catalog relation of a FROM clause: the name the query refers to it
/// by, its own name, whether every row of it reaches the WHERE, and
/// whether it lists system objects the engine does not have.
struct Read {
    reference: String,
    relation: String,
    kept: bool,
    lists_system_objects: bool,
}

/// Refuses `s` if it reads a catalog relation that lists system objects
/// without a WHERE conjunct that keeps none of them, or names a column
/// the engine does not type as Materialize does.
pub(super) fn check(planner: &Planner, s: &Select) -> Result<(), String> {
    let mut reads = vec![];
    let mut factors = 0;
    for table in &s.from {
        // A right or full join pads its left side: keep nothing there.
        let padded_left = table.joins.iter().any(|j| {
            matches!(
                join_kind(&j.join_operator),
                Ok((JoinKind::Right | JoinKind::Full, _))
            )
        });
        factors += 1 + table.joins.len();
        collect(planner, &table.relation, !padded_left, &mut reads);
        for join in &table.joins {
            let inner = matches!(join_kind(&join.join_operator), Ok((JoinKind::Inner, _)));
            collect(planner, &join.relation, inner && !padded_left, &mut reads);
        }
    }
    let Some(first) = reads.first() else {
        return Ok(());
    };
    let text = s.to_string().to_lowercase();
    let words = text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    if let Some(word) = words
        .into_iter()
        .find(|w| *w == "oid" || *w == "privileges")
    {
        return Err(unsupported(format!("column {}.{word}", first.relation)));
    }
    let mut conjuncts = vec![];
    if let Some(selection) = &s.selection {
        split(selection, &mut conjuncts);
    }
    for read in reads.into_iter().filter(|r| r.lists_system_objects) {
        let guarded = conjuncts
            .iter()
            .any(|c| keeps_no_system_object(c, &read.reference, factors == 1));
        if !(read.kept && guarded) {
            return Err(unsupported(format!(
                "a read of {} that may list Materialize's system objects: \
                 filter it by name",
                read.relation
            )));
        }
    }
    Ok(())
}

/// The catalog relations of `factor`; `kept` says whether its rows all
/// reach the WHERE (no outer join pads them).
fn collect(planner: &Planner, factor: &TableFactor, kept: bool, reads: &mut Vec<Read>) {
    match factor {
        TableFactor::Table {
            name,
            alias,
            args: None,
            ..
        } if planner.cte(name).is_none() => {
            let Ok((item, id, _)) = relation(planner.catalog, name) else {
                return;
            };
            if planner.catalog.in_mz_catalog(id) {
                let reference = alias.as_ref().map_or(item.clone(), |a| ident(&a.name));
                reads.push(Read {
                    reference,
                    relation: item,
                    kept,
                    lists_system_objects: planner.catalog.lists_system_objects(id),
                });
            }
        }
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => {
            let TableWithJoins { relation, joins } = &**table_with_joins;
            collect(planner, relation, false, reads);
            for join in joins {
                collect(planner, &join.relation, false, reads);
            }
        }
        _ => {}
    }
}

/// The conjuncts of a WHERE, parentheses dropped.
fn split<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Nested(inner) => split(inner, out),
        Expr::BinaryOp {
            left,
            op: BinaryOperator::And,
            right,
        } => {
            split(left, out);
            split(right, out);
        }
        other => out.push(other),
    }
}

/// Whether `c` keeps only rows of relation `reference` whose name is a
/// literal that names no system object; an unqualified `name` is its
/// only where the FROM has one relation (`alone`).
fn keeps_no_system_object(c: &Expr, reference: &str, alone: bool) -> bool {
    let names_column = |e: &Expr| match e {
        Expr::Identifier(i) => alone && ident(i) == "name",
        Expr::CompoundIdentifier(parts) => match parts.as_slice() {
            [q, column] => ident(q) == reference && ident(column) == "name",
            _ => false,
        },
        _ => false,
    };
    let user_literal = |e: &Expr| match e {
        Expr::Value(v) => matches!(&v.value, Value::SingleQuotedString(s) if !system_name(s)),
        _ => false,
    };
    match c {
        Expr::Nested(inner) => keeps_no_system_object(inner, reference, alone),
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Eq,
            right,
        } => {
            (names_column(left) && user_literal(right))
                || (names_column(right) && user_literal(left))
        }
        Expr::In {
            expr,
            target: InTarget::List(list),
            negated: false,
            global: false,
        } => names_column(expr) && !list.is_empty() && list.iter().all(user_literal),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    fn guards(condition: &str, alone: bool) -> bool {
        let e = Parser::new(&PostgreSqlDialect {})
            .try_with_sql(condition)
            .and_then(|mut p| p.parse_expr())
            .expect("parses");
        keeps_no_system_object(&e, "m", alone)
    }

    /// Only a name, qualified (or bare where it is the FROM's one
    /// relation), equal to or in literals no system object has, guards.
    #[test]
    fn a_name_no_system_object_has_guards() {
        assert!(guards("name = 't'", true));
        assert!(guards("'t' = m.name", false));
        assert!(guards("(m.name IN ('a', 'b'))", false));
        assert!(!guards("name = 't'", false));
        assert!(!guards("x.name = 't'", false));
        assert!(!guards("name = 'mz_tables'", true));
        assert!(!guards("name = 'tables'", true));
        assert!(!guards("name IN ('a', 'pg_class')", true));
        assert!(!guards("name NOT IN ('a')", true));
        assert!(!guards("name <> 't'", true));
        assert!(!guards("name LIKE 't'", true));
        assert!(!guards("name = 't' OR true", true));
    }
}
