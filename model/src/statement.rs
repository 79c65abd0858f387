//! Statements applied to the model's catalog: what each prints (`ok` or
//! `error: ...`), and, for one the model cannot follow, what it taints.

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

fn exists(state: &State, name: &str) -> Result<Printed, Unsupported> {
    match state.objects.get(name).map(|o| &o.kind) {
        None => Ok(Ok(())),
        Some(Kind::Unknown) => Err("a name the model lost track of"),
        Some(_) => Ok(Err(format!("catalog item '{name}' already exists"))),
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
            if let Err(e) = exists(state, &n)? {
                return Ok(Err(e));
            }
            let mut columns = vec![];
            for c in &t.columns {
                if c.options
                    .iter()
                    .any(|o| !matches!(o.option, ColumnOption::Null))
                {
                    return Err("a column constraint");
                }
                let typ = match &c.data_type {
                    DataType::Text => Type::Text,
                    DataType::Boolean | DataType::Bool => Type::Bool,
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
            if let Err(e) = exists(state, &n)? {
                return Ok(Err(e));
            }
            if v.query.order_by.is_some() {
                return Err("a view with ORDER BY");
            }
            let (r, _) = evaluate(&v.query, &state.catalog_at(state.now))?;
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
            let mut sets = vec![];
            for a in &u.assignments {
                let AssignmentTarget::ColumnName(c) = &a.target else {
                    return Err("an assignment target outside the model");
                };
                let c = scope.resolve(None, &name(c)?)?;
                sets.push((c, compile(&a.value, &scope)?));
            }
            let filter = condition(u.selection.as_ref(), &scope)?;
            let mut rows = vec![];
            for row in current(state, &table) {
                if selects(filter.as_ref(), &row)? {
                    let mut new = row.clone();
                    for (c, e) in &sets {
                        match e.eval(&row).and_then(|v| assign(types[*c], v)) {
                            Ok(v) => new[*c] = v,
                            Err(e) => return failed(e),
                        }
                    }
                    rows.push(new);
                } else {
                    rows.push(row);
                }
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

/// A value assigned to a `char(n)` (`typ` "character") or `varchar(n)`
/// column: its text, cut to `n` characters if all it cuts is ASCII
/// whitespace, else `value too long for type character(n)`; a `char`'s
/// then kept without its trailing whitespace. A `char` holding a
/// character below a blank is no claim: blank padded and trimmed, it
/// would sort otherwise.
fn chars(v: Datum, n: Option<u32>, typ: &str) -> Result<String, EvalError> {
    let text = match v {
        Datum::Text(s) => s,
        Datum::Int32(_) | Datum::Int64(_) | Datum::Bool(_) => v.to_string(),
        _ => {
            return Err(EvalError::Unsupported(
                "a value of another type than its column",
            ))
        }
    };
    let text = match n.and_then(|n| text.char_indices().nth(n as usize)) {
        Some((at, _)) if text[at..].chars().all(|c| c.is_ascii_whitespace()) => text[..at].into(),
        Some(_) => {
            let n = n.expect("a length");
            return Err(EvalError::Error(format!(
                "Evaluation error: value too long for type {typ}({n})"
            )));
        }
        None => text,
    };
    if typ == "character varying" {
        return Ok(text);
    }
    let kept = text.trim_end().to_string();
    match kept.chars().any(|c| c < ' ') {
        true => Err(EvalError::Unsupported(
            "a char holding a character below a blank",
        )),
        false => Ok(kept),
    }
}

/// `v` stored in a column of type `t` (integers convert with a range check).
fn assign(t: Type, v: Datum) -> Result<Datum, EvalError> {
    let narrow = |i: i64| {
        i32::try_from(i).map(Datum::Int32).map_err(|_| {
            EvalError::Error(format!("Evaluation error: \"{i}\" integer out of range"))
        })
    };
    match (t, v) {
        (_, Datum::Null) => Ok(Datum::Null),
        (Type::Int, Datum::Int32(i)) => Ok(Datum::Int32(i)),
        (Type::Int, Datum::Int64(i)) => narrow(i),
        (Type::BigInt, Datum::Int32(i)) => Ok(Datum::Int64(i as i64)),
        (Type::BigInt, Datum::Int64(i)) => Ok(Datum::Int64(i)),
        (Type::Text, Datum::Text(s)) => Ok(Datum::Text(s)),
        (Type::Bool, Datum::Bool(b)) => Ok(Datum::Bool(b)),
        (Type::Char(n), v) => chars(v, n, "character").map(|kept| {
            // Held blank padded, as it is shown.
            let n = n.map_or(0, |n| n as usize);
            Datum::Text(format!("{kept:<n$}"))
        }),
        (Type::VarChar(n), v) => chars(v, n, "character varying").map(Datum::Text),
        // An integer or a float of the column's width or narrower becomes
        // the column's float (a `double precision` into a `real` column is
        // no claim).
        (Type::Float(wide), v @ (Datum::Int32(_) | Datum::Int64(_) | Datum::Float32(_)))
        | (Type::Float(wide @ true), v @ Datum::Float64(_)) => crate::floats::cast(&v, wide),
        _ => Err(EvalError::Unsupported(
            "a value of another type than its column",
        )),
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
    let Some(SetExpr::Values(values)) = i.source.as_deref().map(|q| &*q.body) else {
        return Err("an INSERT other than INSERT ... VALUES");
    };
    let none = Scope::default();
    let mut rows = current(state, &table);
    for row in &values.rows {
        if row.content.len() > types.len() {
            return Err("an INSERT with more values than columns");
        }
        let mut new = vec![Datum::Null; types.len()];
        for (c, e) in row.content.iter().enumerate() {
            // A numeric or string literal into a float column is read as
            // that float.
            let value = match (compile(e, &none)?, types[c]) {
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
                Err(e) => return failed(e),
            }
        }
        rows.push(new);
    }
    commit(state, &table, rows);
    Ok(Ok(()))
}
