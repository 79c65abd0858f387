//! The clauses of sqlparser's statements that the planner does not plan,
//! refused as `unsupported: <clause>`. Each statement struct is taken apart
//! to its last field (no `..`), so that a field a new sqlparser adds fails
//! to compile here until it is planned or refused: nothing the parser
//! accepts is silently ignored. (`SELECT` and its query are checked the
//! same way in `query/mod.rs`; `DROP` is the statement planner's.)

use sqlparser::ast::helpers::stmt_create_table::CreateTableBuilder;
use sqlparser::ast::{CreateIndex, CreateTable, CreateView, Delete, FromTable, Insert, Update};

use crate::repr::unsupported;

/// The first clause of `clauses` that is present, refused.
pub fn refuse(clauses: &[(bool, &str)]) -> Result<(), String> {
    match clauses.iter().find(|(present, _)| *present) {
        Some((_, clause)) => Err(unsupported(clause)),
        None => Ok(()),
    }
}

/// `CREATE TABLE [IF NOT EXISTS] name (columns, constraints)` and nothing
/// else (`constraints` plans the constraints). Its
/// struct has some sixty fields, most of other systems: it is rebuilt from
/// the fields planned, and any other field shows as a difference in how
/// the two print.
pub fn create_table(t: &CreateTable) -> Result<(), String> {
    let planned = CreateTableBuilder::new(t.name.clone())
        .columns(t.columns.clone())
        .constraints(t.constraints.clone())
        .if_not_exists(t.if_not_exists)
        .build();
    if planned.to_string() != t.to_string() {
        return Err(unsupported(format!("CREATE TABLE form: {t}")));
    }
    Ok(())
}

/// `CREATE VIEW [IF NOT EXISTS] name [(columns)] AS query`, or `CREATE [OR
/// REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(columns)] AS query`
/// (`sql::materialized`), and nothing else.
pub fn create_view(v: &CreateView) -> Result<(), String> {
    let CreateView {
        or_alter,
        or_replace,
        materialized,
        secure,
        name: _,
        name_before_not_exists,
        columns,
        query: _,
        options,
        cluster_by,
        comment,
        with_no_schema_binding,
        if_not_exists,
        temporary,
        copy_grants,
        to,
        params,
    } = v;
    let kind = if *materialized {
        "MATERIALIZED VIEW"
    } else {
        "VIEW"
    };
    let typed = columns
        .iter()
        .any(|c| c.data_type.is_some() || c.options.is_some());
    let clauses = [
        (*or_alter, format!("CREATE OR ALTER {kind}")),
        (
            *or_replace && !materialized,
            "CREATE OR REPLACE VIEW".into(),
        ),
        (*secure, format!("CREATE SECURE {kind}")),
        (
            *name_before_not_exists && *materialized,
            "CREATE MATERIALIZED VIEW name IF NOT EXISTS".into(),
        ),
        (
            *options != sqlparser::ast::CreateTableOptions::None,
            format!("CREATE {kind} options"),
        ),
        (!cluster_by.is_empty(), "CLUSTER BY".into()),
        (comment.is_some(), "COMMENT".into()),
        (*with_no_schema_binding, "WITH NO SCHEMA BINDING".into()),
        (*temporary, format!("CREATE TEMPORARY {kind}")),
        (*copy_grants, "COPY GRANTS".into()),
        (to.is_some(), format!("CREATE {kind} TO")),
        (params.is_some(), format!("CREATE {kind} parameters")),
        (
            typed,
            format!("a {} column with a type or options", kind.to_lowercase()),
        ),
        (
            *or_replace && *if_not_exists,
            "CREATE OR REPLACE ... IF NOT EXISTS".into(),
        ),
    ];
    let clauses: Vec<(bool, &str)> = clauses.iter().map(|(p, c)| (*p, c.as_str())).collect();
    refuse(&clauses)
}

pub fn create_index(i: &CreateIndex) -> Result<(), String> {
    let CreateIndex {
        name: _,
        table_name: _,
        using,
        columns: _,
        unique,
        concurrently,
        r#async,
        if_not_exists: _,
        include,
        nulls_distinct,
        with,
        predicate,
        index_options,
        alter_options,
    } = i;
    refuse(&[
        (*unique, "CREATE UNIQUE INDEX"),
        (*concurrently, "CREATE INDEX CONCURRENTLY"),
        (*r#async, "CREATE INDEX ASYNC"),
        (using.is_some(), "CREATE INDEX USING"),
        (!include.is_empty(), "CREATE INDEX INCLUDE"),
        (nulls_distinct.is_some(), "NULLS DISTINCT"),
        (!with.is_empty(), "CREATE INDEX WITH options"),
        (predicate.is_some(), "partial index"),
        (!index_options.is_empty(), "index options"),
        (!alter_options.is_empty(), "index options"),
    ])
}

pub fn insert(i: &Insert) -> Result<(), String> {
    let Insert {
        insert_token: _,
        optimizer_hints,
        or,
        ignore,
        into: _,
        table: _,
        table_alias,
        columns: _,
        by_name,
        overwrite,
        source,
        assignments,
        partitioned,
        after_columns,
        overriding,
        has_table_keyword,
        on,
        returning,
        output,
        replace_into,
        priority,
        insert_alias,
        settings,
        format_clause,
        multi_table_insert_type,
        multi_table_into_clauses,
        multi_table_when_clauses,
        multi_table_else_clause,
    } = i;
    refuse(&[
        (!optimizer_hints.is_empty(), "optimizer hints"),
        (or.is_some() || *ignore || *replace_into, "INSERT OR"),
        (table_alias.is_some(), "INSERT INTO with an alias"),
        (*by_name, "INSERT BY NAME"),
        (*overwrite, "INSERT OVERWRITE"),
        (source.is_none(), "INSERT without VALUES or SELECT"),
        (!assignments.is_empty(), "INSERT SET"),
        (partitioned.is_some(), "INSERT PARTITION"),
        (!after_columns.is_empty(), "INSERT PARTITION"),
        (overriding.is_some(), "OVERRIDING"),
        (*has_table_keyword, "INSERT INTO TABLE"),
        (on.is_some(), "ON CONFLICT"),
        (returning.is_some(), "RETURNING"),
        (output.is_some(), "OUTPUT"),
        (priority.is_some(), "INSERT priority"),
        (insert_alias.is_some(), "INSERT AS"),
        (settings.is_some(), "SETTINGS"),
        (format_clause.is_some(), "FORMAT"),
        (
            multi_table_insert_type.is_some()
                || !multi_table_into_clauses.is_empty()
                || !multi_table_when_clauses.is_empty()
                || multi_table_else_clause.is_some(),
            "multi-table INSERT",
        ),
    ])
}

pub fn update(u: &Update) -> Result<(), String> {
    let Update {
        update_token: _,
        optimizer_hints,
        table: _,
        on_cluster,
        assignments: _,
        from,
        selection: _,
        returning,
        output,
        or,
        order_by,
        limit,
        settings,
    } = u;
    refuse(&[
        (!optimizer_hints.is_empty(), "optimizer hints"),
        (on_cluster.is_some(), "ON CLUSTER"),
        (from.is_some(), "UPDATE FROM"),
        (returning.is_some(), "RETURNING"),
        (output.is_some(), "OUTPUT"),
        (or.is_some(), "UPDATE OR"),
        (!order_by.is_empty(), "UPDATE ORDER BY"),
        (limit.is_some(), "UPDATE LIMIT"),
        (settings.is_some(), "SETTINGS"),
    ])
}

pub fn delete(d: &Delete) -> Result<(), String> {
    let Delete {
        delete_token: _,
        optimizer_hints,
        tables,
        from,
        on_cluster,
        using,
        selection: _,
        returning,
        output,
        order_by,
        limit,
        settings,
    } = d;
    let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = from;
    refuse(&[
        (!optimizer_hints.is_empty(), "optimizer hints"),
        (
            !tables.is_empty() || from.len() != 1,
            "DELETE of several tables",
        ),
        (on_cluster.is_some(), "ON CLUSTER"),
        (using.is_some(), "DELETE USING"),
        (returning.is_some(), "RETURNING"),
        (output.is_some(), "OUTPUT"),
        (!order_by.is_empty(), "DELETE ORDER BY"),
        (limit.is_some(), "DELETE LIMIT"),
        (settings.is_some(), "SETTINGS"),
    ])
}
