//! Statements other than SELECT: CREATE TABLE / VIEW / INDEX, INSERT,
//! UPDATE, DELETE and DROP.

use sqlparser::ast::{
    self, AssignmentTarget, ColumnOption, CreateIndex, CreateTable, CreateView, Delete, Expr,
    FromTable, Insert, ObjectName, SetExpr, TableFactor, TableObject, TableWithJoins, Update,
};

use super::expr::{scalar_type, value_as_float, where_clause, ExprContext, Scope, Typed};
use super::parse::{Parsed, ParsedStatement, MAX_IDENTIFIER_BYTES};
use super::query::{plan_query, PlannedQuery};
use super::values::{Literal, LiteralRows};
use super::{
    check_unique_columns, clauses, constraints, drop, forms, ident, materialized, object_name,
    object_of_kind, relation, unknown, unqualified_name,
};
use crate::eval::assign;
use crate::packed::PackedRow;
use crate::plan::{
    not_null_violation, with_top_k, ObjectKind, RelationPlan, Resolver, ScalarExpr, Statement,
    UnaryOp,
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
        Parsed::Ast(stmt) => stmt,
    };
    match *stmt {
        ast::Statement::Query(q) => {
            let PlannedQuery {
                plan,
                columns,
                finishing,
                simple,
            } = plan_query(catalog, &q)?;
            Ok(Some(Statement::Select {
                plan,
                columns,
                as_of: parsed.as_of,
                finishing,
                simple,
            }))
        }
        ast::Statement::CreateTable(t) => create_table(catalog, &t),
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
            restrict: _,
            purge,
            temporary,
            table,
        } => {
            // RESTRICT is the default; PURGE, TEMPORARY and `ON t` are other
            // systems' and not Materialize's.
            for (given, construct) in [
                (purge, "DROP ... PURGE"),
                (temporary, "DROP TEMPORARY"),
                (table.is_some(), "DROP ... ON"),
            ] {
                if given {
                    return Err(unsupported(construct));
                }
            }
            drop::plan(catalog, object_type, if_exists, &names, cascade)
        }
        other => Err(unsupported(forms::statement(&other))),
    }
}

/// The name of a new object; `None` if it exists and `IF NOT EXISTS` was given.
fn new_name(
    catalog: &dyn Resolver,
    name: &ObjectName,
    if_not_exists: bool,
) -> Result<Option<String>, String> {
    let name = object_name(name)?;
    match (catalog.exists(&name), if_not_exists) {
        (false, _) => Ok(Some(name)),
        (true, true) => Ok(None),
        (true, false) => Err(format!("catalog item '{name}' already exists")),
    }
}

fn create_table(catalog: &dyn Resolver, t: &CreateTable) -> Result<Option<Statement>, String> {
    clauses::create_table(t)?;
    let Some(name) = new_name(catalog, &t.name, t.if_not_exists)? else {
        return Ok(None);
    };
    let mut columns = vec![];
    let mut column_keys = vec![];
    for (i, c) in t.columns.iter().enumerate() {
        let mut nullable = true;
        for o in &c.options {
            match (&o.option, constraints::column_key(&o.option)) {
                (ColumnOption::Null, _) => nullable = true,
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
    Ok(Some(Statement::CreateTable {
        name,
        columns,
        keys,
    }))
}

/// A view's ORDER BY alone is ignored, as in the real system; with LIMIT or
/// OFFSET the view is a top-k.
fn create_view(catalog: &dyn Resolver, v: &CreateView) -> Result<Option<Statement>, String> {
    clauses::create_view(v)?;
    let Some(name) = new_name(catalog, &v.name, v.if_not_exists)? else {
        return Ok(None);
    };
    let query = plan_query(catalog, &v.query)?;
    check_unique_columns(&query.columns)?;
    // LIMIT or OFFSET make the view a top-k, maintained as its input
    // changes; an ORDER BY alone orders nothing a view holds.
    let plan = with_top_k(query.plan, query.finishing);
    Ok(Some(Statement::CreateView {
        name,
        columns: query.columns,
        plan,
    }))
}

fn create_index_statement(
    catalog: &dyn Resolver,
    i: &CreateIndex,
) -> Result<Option<Statement>, String> {
    clauses::create_index(i)?;
    let keys = i
        .columns
        .iter()
        .map(
            |c| match (&c.column.expr, &c.operator_class, &c.column.options) {
                (Expr::Identifier(name), None, o)
                    if o.sort.is_none() && o.nulls_first.is_none() =>
                {
                    Ok(ident(name))
                }
                _ => Err(unsupported(format!("index key other than a column: {c}"))),
            },
        )
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
fn create_index(
    catalog: &dyn Resolver,
    name: Option<&ObjectName>,
    on: &ObjectName,
    keys: Option<&[String]>,
    if_not_exists: bool,
) -> Result<Option<Statement>, String> {
    let name = match name
        // Materialize's index name is an identifier, never qualified.
        .map(|n| unqualified_name(n).and_then(|_| new_name(catalog, n, if_not_exists)))
        .transpose()?
    {
        Some(None) => return Ok(None),
        Some(Some(name)) => Some(name),
        None => None,
    };
    let (on_name, on, columns) = relation(catalog, on)?;
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
                .find(|n| !catalog.exists(n))
                .expect("a free name")
        }
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

/// `t` as the new value of `column`, which must be of its type.
fn assignment(column: &Column, t: Typed) -> Result<ScalarExpr, String> {
    let mismatch = |found: &str| {
        format!(
            "column \"{}\" is of type {} but expression is of type {found}",
            column.name,
            column.typ.name()
        )
    };
    // A `char` or `varchar` column takes any value's text, too long a
    // string failing where a cast would cut it.
    if column.typ.chars().is_some() {
        let t = t.coerce(column.typ)?;
        return Ok(match t.typ == Some(column.typ) {
            true => t.expr,
            false => ScalarExpr::Unary(UnaryOp::Assign(column.typ), Box::new(t.expr)),
        });
    }
    // An integer of the other width is converted, as the real system's
    // assignment cast does (a `bigint` too large fails when evaluated), and
    // anything is converted to text; a float is converted to an integer
    // or the other float (rounded, or failing when evaluated).
    // A `numeric` column takes any number, rounded to its scale, and a
    // numeric is converted to an integer or a float (rounded, or failing
    // when evaluated), as the real system's assignment casts do.
    let numeric = |typ: ScalarType| typ.without_length() == ScalarType::Numeric;
    let numbers = |typ: ScalarType| typ.is_integer() || typ.is_float() || numeric(typ);
    if numeric(column.typ) {
        let t = t.coerce(ScalarType::Numeric)?;
        return match t.typ {
            Some(typ) if numbers(typ) => Ok(t.cast(column.typ).expr),
            _ => Err(mismatch(&t.type_name())),
        };
    }
    let t = match t.typ {
        Some(typ) if typ.is_integer() && column.typ.is_integer() => t.cast(column.typ),
        Some(typ) if typ.is_float() && numbers(column.typ) => t.cast(column.typ),
        Some(typ) if numeric(typ) && numbers(column.typ) => t.cast(column.typ),
        Some(_) if column.typ == ScalarType::Text && !t.is_string_literal() => t.cast(column.typ),
        _ => t,
    };
    Ok(t.expect(column.typ, mismatch)?.expr)
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
    let table = object_of_kind(catalog, name, ObjectKind::Table)?;
    let columns = catalog
        .columns(table)
        .ok_or_else(|| unknown(&name.to_string()))?;
    let targets = match i.columns.as_slice() {
        [] => (0..columns.len()).collect(),
        names => {
            let mut targets = vec![];
            for name in names {
                let name = unqualified_name(name)?;
                let t = column_position(&columns, &name)?;
                if targets.contains(&t) {
                    return Err(format!("column \"{name}\" specified more than once"));
                }
                targets.push(t);
            }
            targets
        }
    };
    let values = match i.source.as_deref() {
        Some(q) => match &*q.body {
            SetExpr::Values(values) => values,
            _ => return insert_select(catalog, table, &columns, &targets, q),
        },
        None => return Err(unsupported("INSERT without VALUES or SELECT")),
    };
    let no_columns = Scope::default();
    let mut values_row = ValuesRow {
        columns: &columns,
        targets: &targets,
        listed: !i.columns.is_empty(),
        cx: ExprContext::plain(&no_columns, "aggregate functions are not allowed in VALUES"),
        row: Vec::new(),
    };
    let mut rows = vec![];
    for row in &values.rows {
        rows.push(values_row.plan(row.content.iter().map(Entry::Ast))?);
    }
    for row in more.into_iter().flat_map(LiteralRows::rows) {
        rows.push(values_row.plan(row.map(Entry::Literal))?);
    }
    Ok(Statement::Insert { table, rows })
}

/// What turns a VALUES row into the row it inserts.
struct ValuesRow<'a> {
    columns: &'a [Column],
    /// The column each entry goes to.
    targets: &'a [usize],
    /// Whether the INSERT lists its columns.
    listed: bool,
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
    fn plan<'e>(
        &mut self,
        entries: impl ExactSizeIterator<Item = Entry<'e>>,
    ) -> Result<PackedRow, String> {
        if entries.len() > self.targets.len() {
            return Err("INSERT has more expressions than target columns".into());
        }
        // Without a column list, VALUES may fill only the first columns.
        if self.listed && entries.len() < self.targets.len() {
            return Err("INSERT has more target columns than expressions".into());
        }
        let out = &mut self.row;
        out.clear();
        out.resize(self.columns.len(), Datum::Null);
        for (entry, t) in entries.zip(self.targets) {
            let column = &self.columns[*t];
            let float = match &entry {
                Entry::Ast(e) => value_as_float(e, column.typ),
                Entry::Literal(_) => None,
            };
            out[*t] = match entry.literal().and_then(|l| plain_literal(column, l)) {
                Some(datum) => datum,
                None if float.is_some() => float.expect("a float")?,
                None => {
                    let planned = match entry {
                        Entry::Ast(e) => self.cx.plan(e)?,
                        Entry::Literal(l) => self.cx.plan(&l.to_expr())?,
                    };
                    let expr = assignment(column, planned)?;
                    expr.eval(&[]).map_err(|e| e.0)?
                }
            };
        }
        if let Some(e) = not_null_violation(self.columns, out) {
            return Err(e);
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
    q: &ast::Query,
) -> Result<Statement, String> {
    let query = plan_query(catalog, q)?;
    if query.columns.len() > targets.len() {
        return Err("INSERT has more expressions than target columns".into());
    }
    let arity = query.columns.len();
    let exprs = (0..columns.len())
        .map(|c| match targets.iter().position(|t| *t == c) {
            Some(i) if i < arity => {
                let typed = Typed::of_column(ScalarExpr::Column(i), &query.columns[i]);
                assignment(&columns[c], typed)
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

/// The table an UPDATE or DELETE writes, and the scope its expressions see.
fn target(catalog: &dyn Resolver, t: &TableWithJoins) -> Result<(GlobalId, Scope), String> {
    let TableFactor::Table {
        name,
        alias,
        args: None,
        ..
    } = &t.relation
    else {
        return Err(unsupported(format!(
            "a write to other than a table: {}",
            t.relation
        )));
    };
    if !t.joins.is_empty() || alias.as_ref().is_some_and(|a| !a.columns.is_empty()) {
        return Err(unsupported(format!("a write to other than a table: {t}")));
    }
    let id = object_of_kind(catalog, name, ObjectKind::Table)?;
    let columns = catalog
        .columns(id)
        .ok_or_else(|| unknown(&name.to_string()))?;
    let qualifier = match alias {
        Some(alias) => ident(&alias.name),
        None => object_name(name)?,
    };
    Ok((id, Scope::relation(&qualifier, columns)))
}

fn predicates(scope: &Scope, selection: Option<&Expr>) -> Result<Vec<ScalarExpr>, String> {
    selection.map_or(Ok(vec![]), |e| where_clause(scope, e))
}

fn update(catalog: &dyn Resolver, u: &Update) -> Result<Statement, String> {
    clauses::update(u)?;
    let (table, scope) = target(catalog, &u.table)?;
    let mut assignments: Vec<(usize, ScalarExpr)> = vec![];
    for a in &u.assignments {
        let AssignmentTarget::ColumnName(name) = &a.target else {
            return Err(unsupported(format!(
                "assignment to other than a column: {a}"
            )));
        };
        let name = unqualified_name(name)?;
        let columns: Vec<Column> = scope.items.iter().map(|i| i.column.clone()).collect();
        let c = column_position(&columns, &name)?;
        if assignments.iter().any(|(d, _)| *d == c) {
            return Err(format!("multiple assignments to same column \"{name}\""));
        }
        let mut cx = ExprContext::plain(&scope, "aggregate functions are not allowed in UPDATE");
        assignments.push((c, assignment(&columns[c], cx.plan(&a.value)?)?));
    }
    let predicates = predicates(&scope, u.selection.as_ref())?;
    Ok(Statement::Update {
        table,
        assignments,
        predicates,
    })
}

fn delete(catalog: &dyn Resolver, d: &Delete) -> Result<Statement, String> {
    let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &d.from;
    clauses::delete(d)?;
    let [from] = from.as_slice() else {
        return Err(unsupported("DELETE of several tables"));
    };
    let (table, scope) = target(catalog, from)?;
    let predicates = predicates(&scope, d.selection.as_ref())?;
    Ok(Statement::Delete { table, predicates })
}
