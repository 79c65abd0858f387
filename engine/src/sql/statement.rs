//! Statements other than SELECT: CREATE TABLE / VIEW / INDEX, INSERT,
//! UPDATE, DELETE and DROP.

use sqlparser::ast::{
    self, ColumnOption, CreateIndex, CreateTable, CreateView, Expr, Insert, ObjectName, SetExpr,
    TableObject,
};

use super::arity::{self, RowError};
use super::assignment::{assignment, Site};
use super::expr::{scalar_type, value_as_float, with_session, ExprContext, Scope, Typed};
use super::mutation::{delete, update, written_table};
use super::parse::{Parsed, ParsedStatement, MAX_IDENTIFIER_BYTES};
use super::query::{plan_query, PlannedQuery};
use super::values::{Literal, LiteralRows};
use super::{
    check_unique_columns, clauses, constraints, drop, forms, full_name_of, ident, materialized,
    names, relation, rename_columns, schemas, unknown, unqualified_name,
};
use crate::eval::assign;
use crate::packed::PackedRow;
use crate::plan::{
    full_name, not_null_violation, with_top_k, ObjectKind, RelationPlan, Resolver, ScalarExpr,
    SchemaId, Statement,
};
use crate::repr::{unsupported, Column, Datum, GlobalId, Row, ScalarType};

/// Plans one statement; `None` when it has nothing to do (`IF [NOT] EXISTS`).
pub(super) fn plan(
    parsed: ParsedStatement,
    catalog: &dyn Resolver,
) -> Result<Option<Statement>, String> {
    let stmt = match parsed.stmt {
        Parsed::Ast(stmt) if matches!(*stmt, ast::Statement::Query(_)) => stmt,
        _ if parsed.as_of.is_some() => return Err("AS OF is only allowed on SELECT".into()),
        Parsed::DefaultIndex { on } => return create_index(catalog, None, &on, None, false),
        Parsed::BulkInsert { insert: i, rows } => {
            return insert(catalog, &i, Some(&rows)).map(Some)
        }
        Parsed::Session(planned) => return (*planned).map(Some),
        // Planned as the query Materialize plans it as.
        Parsed::Show(show) => {
            let sql = super::show::query(catalog, &show)?;
            let mut parsed = super::parse::parse(&sql)?;
            let query = parsed.pop().expect("one statement");
            return plan(query, catalog);
        }
        Parsed::Ast(stmt) => stmt,
    };
    match *stmt {
        ast::Statement::Query(q) => {
            let PlannedQuery {
                plan,
                columns,
                finishing,
                simple,
            } = with_session(catalog.session(), || plan_query(catalog, &q))?;
            Ok(Some(Statement::Select {
                plan,
                columns,
                as_of: parsed.as_of,
                finishing,
                simple,
            }))
        }
        ast::Statement::CreateTable(t) => create_table(catalog, &t),
        ast::Statement::CreateDatabase {
            ref db_name,
            if_not_exists,
            ..
        } => schemas::create_database(catalog, &stmt, db_name, if_not_exists),
        ast::Statement::CreateSchema {
            ref schema_name,
            if_not_exists,
            ..
        } => schemas::create_schema(catalog, &stmt, schema_name, if_not_exists),
        ast::Statement::CreateView(v) if v.materialized => materialized::create(catalog, &v),
        ast::Statement::CreateView(v) => create_view(catalog, &v),
        ast::Statement::CreateIndex(i) => create_index_statement(catalog, &i),
        ast::Statement::Insert(i) => insert(catalog, &i, None).map(Some),
        ast::Statement::Update(u) => update(catalog, &u).map(Some),
        ast::Statement::Delete(d) => delete(catalog, &d).map(Some),
        ast::Statement::Drop {
            object_type,
            if_exists,
            names,
            cascade,
            restrict,
            purge,
            temporary,
            table,
        } => {
            // RESTRICT is the default but of a database, whose default
            // Materialize's parser makes CASCADE; PURGE, TEMPORARY and
            // `ON t` are other systems' and not Materialize's.
            for (given, construct) in [
                (purge, "DROP ... PURGE"),
                (temporary, "DROP TEMPORARY"),
                (table.is_some(), "DROP ... ON"),
            ] {
                if given {
                    return Err(unsupported(construct));
                }
            }
            let cascade = match object_type {
                ast::ObjectType::Database => !restrict,
                _ => cascade,
            };
            drop::plan(catalog, object_type, if_exists, &names, cascade)
        }
        other => Err(unsupported(forms::statement(&other))),
    }
}

/// The name of a new object and its schema; `None` if it exists and `IF
/// NOT EXISTS` was given. Materialize checks the name once the rest of the
/// statement is planned, so its planning errors come first; the error names
/// the kind of the object that has the name (`table
/// "materialize.public.t" already exists`).
fn new_name(
    catalog: &dyn Resolver,
    name: &ObjectName,
    if_not_exists: bool,
) -> Result<Option<(String, SchemaId)>, String> {
    let (schema, item) = names::new_item(catalog, name)?;
    Ok(free_name(catalog, schema, item, if_not_exists)?.map(|n| (n, schema)))
}

/// `name`, if no object of `schema` has it; see `new_name`.
fn free_name(
    catalog: &dyn Resolver,
    schema: SchemaId,
    name: String,
    if_not_exists: bool,
) -> Result<Option<String>, String> {
    // A system relation lives in another schema, ahead in the search path:
    // a new object beside it is not the engine's.
    if let Some((_, ObjectKind::Introspection)) = catalog.resolve(&name) {
        return Err(unsupported(format!(
            "an object named as a system catalog relation: {name}"
        )));
    }
    match (catalog.resolve_in(schema, &name), if_not_exists) {
        (None, _) => Ok(Some(name)),
        (Some(_), true) => Ok(None),
        (Some((_, kind)), false) => Err(format!(
            "{} \"{}\" already exists",
            kind.name(),
            full_name(catalog, schema, &name)
        )),
    }
}

fn create_table(catalog: &dyn Resolver, t: &CreateTable) -> Result<Option<Statement>, String> {
    clauses::create_table(t)?;
    let mut columns = vec![];
    let mut column_keys = vec![];
    for (i, c) in t.columns.iter().enumerate() {
        let mut nullable = true;
        for o in &c.options {
            match (&o.option, constraints::column_key(&o.option)) {
                // Materialize's refusal, in its own words.
                (ColumnOption::Null, _) => {
                    return Err(
                        "CREATE TABLE with column constraint: NULL not yet supported".into(),
                    )
                }
                (ColumnOption::NotNull, _) => nullable = false,
                (_, Some(primary)) => column_keys.push((i, primary)),
                _ => return Err(unsupported(format!("column option {o}"))),
            }
        }
        let (name, typ) = (ident(&c.name), scalar_type(&c.data_type)?);
        columns.push(Column {
            name,
            typ,
            nullable,
        });
    }
    check_unique_columns(&columns)?;
    let keys = constraints::keys(t, &mut columns, &column_keys, &|flag| catalog.enabled(flag))?;
    let Some((name, schema)) = new_name(catalog, &t.name, t.if_not_exists)? else {
        return Ok(None);
    };
    Ok(Some(Statement::CreateTable {
        name,
        schema,
        columns,
        keys,
    }))
}

/// A view's ORDER BY alone is ignored, as in the real system; with LIMIT or
/// OFFSET the view is a top-k.
fn create_view(catalog: &dyn Resolver, v: &CreateView) -> Result<Option<Statement>, String> {
    clauses::create_view(v)?;
    let mut query = plan_query(catalog, &v.query)?;
    let (schema, item) = names::new_item(catalog, &v.name)?;
    let context = format!("view {}", full_name(catalog, schema, &item));
    rename_columns(&context, &mut query.columns, &v.columns)?;
    let Some((name, schema)) = new_name(catalog, &v.name, v.if_not_exists)? else {
        return Ok(None);
    };
    // LIMIT or OFFSET make the view a top-k, maintained as its input
    // changes; an ORDER BY alone orders nothing a view holds.
    let plan = with_top_k(query.plan, query.finishing);
    Ok(Some(Statement::CreateView {
        name,
        schema,
        columns: query.columns,
        plan,
    }))
}

fn create_index_statement(
    catalog: &dyn Resolver,
    i: &CreateIndex,
) -> Result<Option<Statement>, String> {
    clauses::create_index(i)?;
    // Materialize's parser reads each key as an ORDER BY item and keeps only
    // its expression (`parse_create_index`): `ASC`, `DESC` and `NULLS
    // FIRST|LAST` change nothing, an arrangement has no order of its own.
    let keys = i
        .columns
        .iter()
        .map(|c| match (&c.column.expr, &c.operator_class) {
            (Expr::Identifier(name), None) => Ok(ident(name)),
            _ => Err(unsupported(format!("index key other than a column: {c}"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    create_index(
        catalog,
        i.name.as_ref(),
        &i.table_name,
        Some(&keys),
        i.if_not_exists,
    )
}

/// An index on `on` by the named `keys`, or by all its columns (a default
/// index) when `keys` is `None`. Without a name it gets the real system's
/// default: `<relation>_<keys>_idx`, or `<relation>_primary_idx` for a
/// default index, with `1`, `2`, ... appended until the name is free.
/// The name is checked last, as Materialize checks it.
fn create_index(
    catalog: &dyn Resolver,
    name: Option<&ObjectName>,
    on: &ObjectName,
    keys: Option<&[String]>,
    if_not_exists: bool,
) -> Result<Option<Statement>, String> {
    // Materialize's index name is an identifier, never qualified.
    let name = name.map(unqualified_name).transpose()?;
    let (on_name, on, columns) = relation(catalog, on)?;
    // An index lives in its relation's schema.
    let schema = catalog.schema_of(on);
    let key = match keys {
        // Materialize's default key: the first key, or every column.
        None => match catalog.keys(on).map(|keys| keys.into_iter().next()) {
            Some(Some(key)) => key,
            Some(None) => (0..columns.len()).collect(),
            None => {
                return Err(unsupported(
                    "CREATE DEFAULT INDEX on a view over a table with keys",
                ))
            }
        },
        Some(keys) => keys
            .iter()
            .map(|k| column_position(&columns, k))
            .collect::<Result<_, _>>()?,
    };
    let name = match name {
        Some(name) => name,
        None => {
            let relation = catalog.name(on).unwrap_or(on_name);
            let base = match keys {
                None => format!("{relation}_primary_idx"),
                Some(keys) => generated_name(format!("{relation}_{}_idx", keys.join("_")))?,
            };
            std::iter::once(base.clone())
                .chain((1..).map(|i| format!("{base}{i}")))
                .find(|n| catalog.resolve_in(schema, n).is_none())
                .expect("a free name")
        }
    };
    let Some(name) = free_name(catalog, schema, name, if_not_exists)? else {
        return Ok(None);
    };
    Ok(Some(Statement::CreateIndex { name, on, key }))
}

/// A keyed index's generated name, which Materialize checks against the
/// identifier limit as it makes it (a default index's name it does not).
fn generated_name(name: String) -> Result<String, String> {
    match name.len() > MAX_IDENTIFIER_BYTES {
        true => Err(format!(
            "invalid identifier, identifier too long (len {}, max {MAX_IDENTIFIER_BYTES}, value {name})",
            name.len()
        )),
        false => Ok(name),
    }
}

fn column_position(columns: &[Column], name: &str) -> Result<usize, String> {
    columns
        .iter()
        .position(|c| c.name == name)
        .ok_or_else(|| format!("column \"{name}\" does not exist"))
}

/// Rows are evaluated here: an evaluation error fails the statement. A bulk
/// INSERT's rows past the first come as `more`, literals read off the text.
fn insert(
    catalog: &dyn Resolver,
    i: &Insert,
    more: Option<&LiteralRows>,
) -> Result<Statement, String> {
    let TableObject::TableName(name) = &i.table else {
        return Err(unsupported("INSERT INTO a table function"));
    };
    clauses::insert(i)?;
    let table = written_table(catalog, name, "insert into")?;
    let columns = catalog
        .columns(table)
        .ok_or_else(|| unknown(&name.to_string()))?;
    let targets = match i.columns.as_slice() {
        [] => (0..columns.len()).collect(),
        names => arity::targets(&columns, names, &full_name_of(catalog, table))?,
    };
    let listed = !i.columns.is_empty();
    let values = match i.source.as_deref() {
        Some(q) => match values_alone(q) {
            Some(values) => values,
            None => return insert_select(catalog, table, &columns, &targets, listed, q),
        },
        None => return Err(unsupported("INSERT without VALUES or SELECT")),
    };
    let more_rows = || more.into_iter().flat_map(LiteralRows::rows);
    let widths = values.rows.iter().map(|r| r.content.len());
    let width = arity::values_width(widths.chain(more_rows().map(|r| r.len())))?;
    arity::too_wide(width, targets.len())?;
    let no_columns = Scope::default();
    let mut values_row = ValuesRow {
        columns: &columns,
        targets: &targets,
        cx: ExprContext::plain(&no_columns, "aggregate functions are not allowed in VALUES"),
        row: Vec::new(),
    };
    let narrow = arity::too_narrow(width, targets.len(), listed);
    let mut rows = arity::Rows::default();
    for row in &values.rows {
        let evaluate = rows.evaluating() && !narrow;
        rows.push(values_row.plan(row.content.iter().map(Entry::Ast), evaluate))?;
    }
    for row in more_rows() {
        let evaluate = rows.evaluating() && !narrow;
        rows.push(values_row.plan(row.map(Entry::Literal), evaluate))?;
    }
    let rows = rows.finish(narrow)?;
    Ok(Statement::Insert { table, rows })
}

/// The VALUES list an INSERT's source is, when it is nothing else: with
/// `WITH`, `ORDER BY`, `LIMIT` or `OFFSET` it is a query like any other,
/// as Materialize plans it (and any other clause is the query planner's
/// to refuse).
fn values_alone(q: &ast::Query) -> Option<&ast::Values> {
    let plain = q.with.is_none()
        && q.order_by.is_none()
        && q.limit_clause.is_none()
        && q.fetch.is_none()
        && q.locks.is_empty()
        && q.for_clause.is_none()
        && q.settings.is_none()
        && q.format_clause.is_none()
        && q.pipe_operators.is_empty();
    match &*q.body {
        SetExpr::Values(values) if plain => Some(values),
        _ => None,
    }
}

/// What turns a VALUES row into the row it inserts.
struct ValuesRow<'a> {
    columns: &'a [Column],
    /// The column each entry goes to.
    targets: &'a [usize],
    cx: ExprContext<'a>,
    /// The row being planned, reused from row to row.
    row: Row,
}

/// An entry of a VALUES row: an expression sqlparser made, or a literal
/// read off the text (`values`).
enum Entry<'a> {
    Ast(&'a Expr),
    Literal(Literal<'a>),
}

impl ValuesRow<'_> {
    /// The row `entries` make, planned and, if `evaluate`, evaluated (else
    /// an empty row).
    fn plan<'e>(
        &mut self,
        entries: impl ExactSizeIterator<Item = Entry<'e>>,
        evaluate: bool,
    ) -> Result<PackedRow, RowError> {
        let out = &mut self.row;
        out.clear();
        out.resize(self.columns.len(), Datum::Null);
        let mut failed = None;
        for (entry, t) in entries.zip(self.targets) {
            let column = &self.columns[*t];
            let float = match &entry {
                Entry::Ast(e) => value_as_float(e, column.typ),
                Entry::Literal(_) => None,
            };
            out[*t] = match entry.literal().and_then(|l| plain_literal(column, l)) {
                Some(datum) => datum,
                // A float literal is taken as it is, or refused.
                None if float.is_some() => float.expect("a float").map_err(RowError::Plan)?,
                None => {
                    let planned = match entry {
                        Entry::Ast(e) => self.cx.plan(e),
                        Entry::Literal(l) => self.cx.plan(&l.to_expr()),
                    };
                    let expr = planned
                        .and_then(|p| assignment(column, p, Site::Insert))
                        .map_err(RowError::Plan)?;
                    match evaluate && failed.is_none() {
                        true => match expr.eval(&[]) {
                            Ok(datum) => datum,
                            Err(e) => {
                                failed = Some(e.what().to_string());
                                Datum::Null
                            }
                        },
                        false => Datum::Null,
                    }
                }
            };
        }
        if !evaluate {
            return Ok(PackedRow::pack(&[]));
        }
        if let Some(e) = failed {
            return Err(RowError::Eval(e));
        }
        if let Some(e) = not_null_violation(self.columns, out) {
            return Err(RowError::NotNull(e));
        }
        Ok(PackedRow::pack(out))
    }
}

impl<'a> Entry<'a> {
    /// The entry as a literal, if it is a number or a string.
    fn literal(&self) -> Option<Literal<'a>> {
        match self {
            Entry::Literal(l) => Some(*l),
            Entry::Ast(Expr::Value(v)) => match &v.value {
                ast::Value::Number(n, _) => Some(Literal::Number(n)),
                ast::Value::SingleQuotedString(s) => Some(Literal::Text(s)),
                _ => None,
            },
            Entry::Ast(_) => None,
        }
    }
}

/// A VALUES entry that is a literal of its column's own type (an integer
/// that fits the column, a string for text), taken as it is: the datum
/// planning, assignment and evaluation would give, without their cost per
/// datum, which bulk loads pay a million times. Anything else is `None`
/// and goes the general way (errors included).
fn plain_literal(column: &Column, literal: Literal<'_>) -> Option<Datum> {
    match (literal, column.typ) {
        (Literal::Number(n), ScalarType::Int16) => n.parse().ok().map(Datum::Int16),
        (Literal::Number(n), ScalarType::Int32) => n.parse().ok().map(Datum::Int32),
        (Literal::Number(n), ScalarType::Int64) => n.parse().ok().map(Datum::Int64),
        (Literal::Text(s), ScalarType::Text) => Some(Datum::Text(s.to_string())),
        (Literal::Text(s), to @ (ScalarType::Char(_) | ScalarType::VarChar(_))) => {
            assign(Datum::Text(s.to_string()), to).ok()
        }
        _ => None,
    }
}

/// `INSERT INTO table [(targets)] SELECT ...`: the query's rows, each
/// column converted to its target's type (the others NULL), read and then
/// written by the coordinator, as the real system's read-then-write does.
fn insert_select(
    catalog: &dyn Resolver,
    table: GlobalId,
    columns: &[Column],
    targets: &[usize],
    listed: bool,
    q: &ast::Query,
) -> Result<Statement, String> {
    let query = plan_query(catalog, q)?;
    let arity = query.columns.len();
    arity::too_wide(arity, targets.len())?;
    if arity::too_narrow(arity, targets.len(), listed) {
        return Err(arity::MORE_TARGETS.into());
    }
    let exprs = (0..columns.len())
        .map(|c| match targets.iter().position(|t| *t == c) {
            Some(i) if i < arity => {
                let typed = Typed::of_column(ScalarExpr::Column(i), &query.columns[i]);
                assignment(&columns[c], typed, Site::Insert)
            }
            _ => Ok(ScalarExpr::Literal(Datum::Null)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let plan = RelationPlan::Project {
        input: Box::new(RelationPlan::Map {
            input: Box::new(with_top_k(query.plan, query.finishing)),
            exprs,
        }),
        columns: (arity..arity + columns.len()).collect(),
    };
    Ok(Statement::InsertSelect { table, plan })
}
