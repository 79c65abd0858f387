//! Statements applied to the model's catalog: what each prints (`ok` or
//! `error: ...`), and, for one the model cannot follow, what it taints.

use crate::assign::assign;
use crate::body::evaluate;
use crate::catalog::{Kind, State, Type};
use crate::parse::Parsed;
use crate::scalar::{compile, ident, EvalError, Scalar, Scope, Unsupported};
use engine::repr::{Datum, Row};
use sqlparser::ast::{
    self, AssignmentTarget, ColumnOption, DataType, FromTable, ObjectName, ObjectNamePart,
    ObjectType, SetExpr, Statement, TableFactor, TableObject,
};

/// What a statement the model follows prints: `Ok(())` is `ok`.
pub type Printed = Result<(), String>;

fn name(n: &ObjectName) -> Result<String, Unsupported> {
    match n.0.as_slice() {
        [ObjectNamePart::Identifier(i)] => Ok(ident(i)),
        _ => Err("a qualified object name"),
    }
}

/// Materialize's error for a CREATE of a taken name, checked once the rest
/// of the statement is planned: the kind of the object that has it.
fn exists(state: &State, name: &str) -> Result<Printed, Unsupported> {
    if name.starts_with("mz_") || name.starts_with("pg_") {
        return Err("a name beside the system catalog's");
    }
    match state.objects.get(name).map(|o| &o.kind) {
        None => Ok(Ok(())),
        Some(Kind::Unknown) => Err("a name the model lost track of"),
        Some(kind) => Ok(Err(format!(
            "{} \"materialize.public.{name}\" already exists",
            kind_name(kind)
        ))),
    }
}

/// An evaluation error as Materialize reports one it meets outside a
/// dataflow (an INSERT's constant rows, an UPDATE's SET): its own text.
fn bare(e: EvalError) -> EvalError {
    match e {
        EvalError::Error(text) => match text.strip_prefix("Evaluation error: ") {
            Some(what) => EvalError::Error(what.to_string()),
            None => EvalError::Error(text),
        },
        unsupported => unsupported,
    }
}

/// Applies one statement, or says why the model cannot.
pub fn apply(state: &mut State, parsed: &Parsed) -> Result<Printed, Unsupported> {
    let stmt = match parsed {
        Parsed::DefaultIndex(on) => {
            let on = name(on)?;
            let columns = table_or_view_columns(state, &on)?;
            let base = format!("{on}_primary_idx");
            state.create(&free_name(state, &base), Kind::Index { on, key: columns });
            return Ok(Ok(()));
        }
        Parsed::Statement(_, Some(_)) => return Err("AS OF on a statement"),
        Parsed::Statement(stmt, None) => stmt,
    };
    match &**stmt {
        Statement::CreateTable(t) => {
            let n = name(&t.name)?;
            if t.query.is_some() || t.if_not_exists || t.or_replace {
                return Err("a CREATE TABLE form outside the model");
            }
            let mut columns = vec![];
            for c in &t.columns {
                // Materialize refuses the option NULL, and the model
                // follows no other.
                if let Some(o) = c.options.first() {
                    return match o.option {
                        ColumnOption::Null => Ok(Err(
                            "CREATE TABLE with column constraint: NULL not yet supported".into(),
                        )),
                        _ => Err("a column constraint"),
                    };
                }
                let typ = match &c.data_type {
                    DataType::Text => Type::Text,
                    DataType::Boolean | DataType::Bool => Type::Bool,
                    DataType::Bytea => return Err("bytea is not modelled"),
                    DataType::Char(n) | DataType::Character(n) => Type::Char(Some(length(n)?)),
                    DataType::Varchar(n) | DataType::CharacterVarying(n) => {
                        Type::VarChar(n.as_ref().map(|_| length(n)).transpose()?)
                    }
                    t => match (crate::scalar::int_type(t), crate::scalar::float_type(t)) {
                        (Some(false), _) => Type::Int,
                        (Some(true), _) => Type::BigInt,
                        (_, Some(wide)) => Type::Float(wide),
                        _ => return Err("a column type outside the model"),
                    },
                };
                columns.push((ident(&c.name), typ));
            }
            if let Err(e) = exists(state, &n)? {
                return Ok(Err(e));
            }
            let now = state.now;
            state.create(
                &n,
                Kind::Table {
                    columns,
                    history: vec![(now, vec![])],
                    opaque: false,
                },
            );
            Ok(Ok(()))
        }
        Statement::CreateView(v) => {
            let n = name(&v.name)?;
            if v.materialized || v.or_replace || !v.columns.is_empty() || v.if_not_exists {
                return Err("a CREATE VIEW form outside the model");
            }
            if v.query.order_by.is_some() {
                return Err("a view with ORDER BY");
            }
            let (r, _) = evaluate(&v.query, &state.catalog_at(state.now))?;
            if let Err(e) = exists(state, &n)? {
                return Ok(Err(e));
            }
            let deps = from_names(&v.query)?;
            state.create(
                &n,
                Kind::View {
                    query: v.query.clone(),
                    columns: r.columns,
                    deps,
                },
            );
            Ok(Ok(()))
        }
        Statement::CreateIndex(i) => {
            if i.unique
                || i.concurrently
                || i.if_not_exists
                || i.using.is_some()
                || i.predicate.is_some()
                || !i.include.is_empty()
            {
                return Err("a CREATE INDEX form outside the model");
            }
            let on = name(&i.table_name)?;
            let columns = table_or_view_columns(state, &on)?;
            let mut key = vec![];
            for c in &i.columns {
                let ast::Expr::Identifier(col) = &c.column.expr else {
                    return Err("an index key that is not a column");
                };
                let col = ident(col);
                if !columns.contains(&col) {
                    return Err("an index key column that does not exist");
                }
                key.push(col);
            }
            let n = match &i.name {
                Some(n) => name(n)?,
                None => free_name(state, &format!("{on}_{}_idx", key.join("_"))),
            };
            if let Err(e) = exists(state, &n)? {
                return Ok(Err(e));
            }
            state.create(&n, Kind::Index { on, key });
            Ok(Ok(()))
        }
        Statement::Insert(i) => insert(state, i),
        Statement::Update(u) => {
            if u.from.is_some() || u.returning.is_some() || u.limit.is_some() {
                return Err("an UPDATE form outside the model");
            }
            let (table, scope, types) = target(state, table_name(&u.table.relation)?)?;
            if !u.table.joins.is_empty() {
                return Err("an UPDATE of a join");
            }
            let mut sets: Vec<(usize, Scalar)> = vec![];
            for a in &u.assignments {
                let AssignmentTarget::ColumnName(c) = &a.target else {
                    return Err("an assignment target outside the model");
                };
                let c = scope.resolve(None, &name(c)?)?;
                if sets.iter().any(|(d, _)| *d == c) {
                    return Err("an UPDATE that sets a column twice");
                }
                // Materialize evaluates a SET expression as written, where
                // the model folds a NULL operand as a SELECT's.
                if !matches!(&a.value, ast::Expr::Value(_))
                    && a.value.to_string().to_uppercase().contains("NULL")
                {
                    return Err("a SET expression with a NULL inside");
                }
                sets.push((c, compile(&a.value, &scope)?));
            }
            let filter = condition(u.selection.as_ref(), &scope)?;
            // Materialize's read-then-write: the rows the condition selects
            // are read first, then each is given its new values.
            let mut selected = vec![];
            for row in current(state, &table) {
                selected.push((selects(filter.as_ref(), &row)?, row));
            }
            let mut rows = vec![];
            for (chosen, row) in selected {
                if !chosen {
                    rows.push(row);
                    continue;
                }
                let mut new = row.clone();
                for (c, e) in &sets {
                    match e.eval(&row).and_then(|v| assign(types[*c], v)) {
                        Ok(v) => new[*c] = v,
                        Err(e) => return failed(bare(e)),
                    }
                }
                rows.push(new);
            }
            commit(state, &table, rows);
            Ok(Ok(()))
        }
        Statement::Delete(d) => {
            let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &d.from;
            let [from] = from.as_slice() else {
                return Err("a DELETE form outside the model");
            };
            if !d.tables.is_empty()
                || d.using.is_some()
                || d.returning.is_some()
                || d.limit.is_some()
                || !from.joins.is_empty()
            {
                return Err("a DELETE form outside the model");
            }
            let (table, scope, _) = target(state, table_name(&from.relation)?)?;
            let filter = condition(d.selection.as_ref(), &scope)?;
            let mut rows = vec![];
            for row in current(state, &table) {
                if !selects(filter.as_ref(), &row)? {
                    rows.push(row);
                }
            }
            commit(state, &table, rows);
            Ok(Ok(()))
        }
        // Materialize's databases and schemas: the model knows one
        // namespace, and abstains by name.
        Statement::CreateSchema { .. }
        | Statement::CreateDatabase { .. }
        | Statement::Drop {
            object_type: ObjectType::Schema | ObjectType::Database,
            ..
        } => Err("databases and schemas are not modelled"),
        Statement::Drop {
            object_type,
            if_exists,
            names,
            cascade: false,
            ..
        } => {
            let [n] = names.as_slice() else {
                return Err("a DROP of several objects");
            };
            let n = name(n)?;
            let object = match state.objects.get(&n) {
                None if *if_exists && !state.catalog_uncertain => return Ok(Ok(())),
                None => return Err("a DROP of an object the model does not know"),
                Some(o) => o.clone(),
            };
            let kind_matches = matches!(
                (object_type, &object.kind),
                (ObjectType::Table, Kind::Table { .. })
                    | (ObjectType::View, Kind::View { .. })
                    | (ObjectType::Index, Kind::Index { .. })
            );
            if !kind_matches {
                return Err("a DROP of an object of another kind");
            }
            if state
                .objects
                .values()
                .any(|o| matches!(o.kind, Kind::Unknown))
            {
                return Err("a DROP beside an object the model lost track of");
            }
            // Materialize's rule: a view reading it refuses the drop (the
            // first by id), an index never does and goes with what it is on.
            let dependents = state.dependents(&n);
            let blocking = dependents
                .iter()
                .filter(|o| !matches!(o.kind, Kind::Index { .. }));
            if let Some(dependent) = blocking.min_by_key(|o| o.id) {
                return Ok(Err(format!(
                    "cannot drop {} \"{n}\": still depended upon by {} \"{}\"\n\
                     HINT: Use DROP ... CASCADE to drop the dependent objects too.",
                    kind_name(&object.kind),
                    kind_name(&dependent.kind),
                    dependent.name
                )));
            }
            let indexes: Vec<String> = dependents.iter().map(|o| o.name.clone()).collect();
            for gone in indexes.iter().chain([&n]) {
                state.objects.remove(gone);
            }
            Ok(Ok(()))
        }
        _ => Err("a statement outside the model"),
    }
}

/// The table or view a `DROP TABLE|VIEW` statement names, if it is one.
pub fn dropped_relation(parsed: &Parsed) -> Option<String> {
    let Parsed::Statement(stmt, _) = parsed else {
        return None;
    };
    match &**stmt {
        Statement::Drop {
            object_type: ObjectType::Table | ObjectType::View,
            names,
            ..
        } => names.first().and_then(|n| name(n).ok()),
        _ => None,
    }
}

/// Marks what a statement the model could not follow may have changed.
pub fn taint(state: &mut State, parsed: &Parsed) {
    state.catalog_uncertain = true;
    let touched = match parsed {
        Parsed::DefaultIndex(_) => None,
        Parsed::Statement(stmt, _) => match &**stmt {
            Statement::CreateTable(t) => name(&t.name).ok(),
            Statement::CreateView(v) => name(&v.name).ok(),
            Statement::CreateIndex(i) => i.name.as_ref().and_then(|n| name(n).ok()),
            // A CASCADE, or a drop of several, may take any object with it.
            Statement::Drop { names, cascade, .. } if *cascade || names.len() > 1 => {
                for object in state.objects.values_mut() {
                    object.kind = Kind::Unknown;
                }
                None
            }
            Statement::Drop { names, .. } => names.first().and_then(|n| name(n).ok()),
            Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) => {
                state.time_uncertain = true;
                for object in state.objects.values_mut() {
                    if let Kind::Table { opaque, .. } = &mut object.kind {
                        *opaque = true;
                    }
                }
                None
            }
            _ => None,
        },
    };
    if let Some(n) = touched {
        let next = state.next_id;
        let object = state
            .objects
            .entry(n.clone())
            .or_insert(crate::catalog::Object {
                id: next,
                name: n,
                kind: Kind::Unknown,
            });
        object.kind = Kind::Unknown;
    }
}

/// The name the engine gives an unnamed index: `base`, else `base1`, ...
fn free_name(state: &State, base: &str) -> String {
    std::iter::once(base.to_string())
        .chain((1..).map(|i| format!("{base}{i}")))
        .find(|n| !state.objects.contains_key(n))
        .expect("a free name")
}

fn kind_name(kind: &Kind) -> &'static str {
    match kind {
        Kind::Table { .. } => "table",
        Kind::View { .. } => "view",
        Kind::Index { .. } => "index",
        Kind::Unknown => "object",
    }
}

/// A write's `WHERE`, compiled against its table.
fn condition(w: Option<&ast::Expr>, scope: &Scope) -> Result<Option<Scalar>, Unsupported> {
    w.map(|w| compile(w, scope)).transpose()
}

/// Whether a write's condition selects `row` (no condition selects all).
fn selects(filter: Option<&Scalar>, row: &[Datum]) -> Result<bool, Unsupported> {
    filter
        .map_or(Ok(true), |f| f.holds(row))
        .map_err(|e| match e {
            EvalError::Unsupported(why) => why,
            EvalError::Error(_) => "an evaluation error in a write's condition",
        })
}

fn failed(e: EvalError) -> Result<Printed, Unsupported> {
    match e {
        EvalError::Error(text) => Ok(Err(text)),
        EvalError::Unsupported(why) => Err(why),
    }
}

fn table_or_view_columns(state: &State, on: &str) -> Result<Vec<String>, Unsupported> {
    match state.objects.get(on).map(|o| &o.kind) {
        Some(Kind::Table { columns, .. }) => Ok(columns.iter().map(|(n, _)| n.clone()).collect()),
        Some(Kind::View { columns, .. }) => Ok(columns.clone()),
        _ => Err("an index on something other than a known table or view"),
    }
}

/// The names a query's FROM clause reads.
pub fn from_names(q: &ast::Query) -> Result<Vec<String>, Unsupported> {
    let mut out = vec![];
    // Every branch of a set operation.
    for s in crate::body::branches(&q.body)? {
        for t in &s.from {
            for f in std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)) {
                let TableFactor::Table { name: n, .. } = f else {
                    return Err("a FROM item other than a named relation");
                };
                out.push(name(n)?);
            }
        }
        // A subquery's relations are the view's too: their drops are refused.
        for sub in crate::query::subqueries(s) {
            out.extend(from_names(sub)?);
        }
    }
    Ok(out)
}

/// The plain table a write names.
fn table_name(f: &TableFactor) -> Result<&ObjectName, Unsupported> {
    match f {
        TableFactor::Table {
            name,
            alias: None,
            args: None,
            ..
        } => Ok(name),
        _ => Err("a write target outside the model"),
    }
}

/// A write's target table: its name, scope and column types.
fn target(state: &State, n: &ObjectName) -> Result<(String, Scope, Vec<Type>), Unsupported> {
    let n = name(n)?;
    match state.objects.get(&n).map(|o| &o.kind) {
        Some(Kind::Table {
            columns,
            opaque: false,
            ..
        }) => Ok((
            n.clone(),
            Scope {
                columns: columns
                    .iter()
                    .map(|(c, _)| (n.clone(), c.clone()))
                    .collect(),
                types: columns.iter().map(|(_, t)| Some(*t)).collect(),
                ..Scope::default()
            },
            columns.iter().map(|(_, t)| *t).collect(),
        )),
        _ => Err("a write to something other than a table the model follows"),
    }
}

fn current(state: &State, table: &str) -> Vec<Row> {
    match &state.objects[table].kind {
        Kind::Table { history, .. } => history.last().map(|(_, r)| r.clone()).unwrap_or_default(),
        _ => unreachable!("target() checked it is a table"),
    }
}

/// A write commits at `now + 1`, and `now` advances.
fn commit(state: &mut State, table: &str, rows: Vec<Row>) {
    state.now += 1;
    let now = state.now;
    if let Some(crate::catalog::Object {
        kind: Kind::Table { history, .. },
        ..
    }) = state.objects.get_mut(table)
    {
        history.push((now, rows));
    }
}

/// A `char(n)` or `varchar(n)` length: 1 to 10485759, the default 1 (a
/// `char`'s; a `varchar` without one is `None` before this).
fn length(n: &Option<ast::CharacterLength>) -> Result<u32, Unsupported> {
    match n {
        None => Ok(1),
        Some(ast::CharacterLength::IntegerLength { length, unit: None })
            if (1..=10_485_759).contains(length) =>
        {
            Ok(*length as u32)
        }
        Some(_) => Err("a string length outside the model"),
    }
}

fn insert(state: &mut State, i: &ast::Insert) -> Result<Printed, Unsupported> {
    let TableObject::TableName(n) = &i.table else {
        return Err("an INSERT target outside the model");
    };
    if !i.columns.is_empty() || i.on.is_some() || i.returning.is_some() || !i.assignments.is_empty()
    {
        return Err("an INSERT form outside the model");
    }
    let (table, _, types) = target(state, n)?;
    let source = i.source.as_deref();
    let Some(SetExpr::Values(values)) = source.map(|q| &*q.body) else {
        return Err("an INSERT other than INSERT ... VALUES");
    };
    let q = source.expect("a source");
    if q.with.is_some() || q.order_by.is_some() || q.limit_clause.is_some() {
        return Err("an INSERT of VALUES with WITH, ORDER BY or LIMIT");
    }
    // Materialize's order: the rows' lengths, then every row planned,
    // then every row evaluated, the first error of each kind reported.
    let widths: Vec<usize> = values.rows.iter().map(|r| r.content.len()).collect();
    if widths.iter().any(|w| *w != widths[0]) {
        return Ok(Err("VALUES lists must all be the same length".into()));
    }
    if widths[0] > types.len() {
        return Err("an INSERT with more values than columns");
    }
    let none = Scope::default();
    let mut planned = vec![];
    for row in &values.rows {
        let exprs = row.content.iter().map(|e| compile(e, &none));
        planned.push(exprs.collect::<Result<Vec<_>, _>>()?);
    }
    let mut rows = current(state, &table);
    let mut failure = None;
    for row in planned {
        let mut new = vec![Datum::Null; types.len()];
        for (c, e) in row.into_iter().enumerate() {
            // A numeric or string literal into a float column is read as
            // that float.
            let value = match (e, types[c]) {
                (Scalar::Decimal(t), Type::Float(wide)) => {
                    crate::floats::numeric_literal(&t, wide).map_err(EvalError::Unsupported)
                }
                (Scalar::Literal(Datum::Text(t)), Type::Float(wide)) => {
                    crate::floats::parse(&t, wide).map_err(EvalError::Unsupported)
                }
                (e, _) => e.eval(&[]),
            };
            match value.and_then(|v| assign(types[c], v)) {
                Ok(v) => new[c] = v,
                // A type the model cannot assign may be a planning error,
                // which comes before any evaluation error.
                Err(EvalError::Unsupported(why)) => return Err(why),
                Err(e) => {
                    failure.get_or_insert(bare(e));
                }
            }
        }
        rows.push(new);
    }
    if let Some(e) = failure {
        return failed(e);
    }
    commit(state, &table, rows);
    Ok(Ok(()))
}
