//! How an expression's names resolve: to a column of its scope (under
//! GROUP BY, to a key, or to an expression equal to a key), or, past the
//! scope, to a column of an enclosing query's row (a correlated
//! subquery's outer reference), counting which of the two each was; and
//! the name an expression gives its output column when it has no alias;
//! and what a name that is no column is (`not_a_column`), and which names
//! are no names at all but calls (`is_function_keyword`).

use sqlparser::ast::{AccessExpr, Expr, Value};

use super::super::ident;
use super::aggregate_call::aggregate_call;
use super::scope::Found;
use super::typed::scalar_type;
use super::{function_name, is_scalar_function, list, special_form, ExprContext, Typed};
use crate::plan::ScalarExpr;
use crate::repr::unsupported;

impl ExprContext<'_> {
    /// The scope's column `i`; under GROUP BY it must be a key.
    pub fn column_at(&self, i: usize) -> Result<Typed, String> {
        let item = &self.scope.items[i];
        let typed = Typed::of_column(ScalarExpr::Column(i), &item.column);
        let Some(grouping) = &self.grouping else {
            return Ok(typed);
        };
        let k = grouping.keys.iter().position(|k| k.expr == typed.expr);
        k.map(|k| Typed {
            expr: ScalarExpr::Column(k),
            ..typed
        })
        .ok_or_else(|| {
            format!(
                "column \"{}.{}\" must appear in the GROUP BY clause or be used in an aggregate function",
                item.table, item.column.name
            )
        })
    }

    pub(super) fn column(&self, table: Option<&str>, name: &str) -> Result<Typed, String> {
        match self.resolve(table, name)? {
            Some(t) => Ok(t),
            // Not found anywhere: the innermost scope says why, with
            // Materialize's hint of similarly named columns.
            None => {
                let e = self.scope.resolve(table, name).expect_err("not found");
                Err(match self.scope.hint(table, name) {
                    Some(hint) => format!("{e}\nHINT: {hint}"),
                    None => e,
                })
            }
        }
    }

    /// `[table.]name` here, else in the enclosing queries (a correlated
    /// subquery's outer reference, a column of the outer row); `None` if
    /// no scope has it.
    pub fn resolve(&self, table: Option<&str>, name: &str) -> Result<Option<Typed>, String> {
        let (local, outer) = self.refs.get();
        match self.scope.find(table, name)? {
            Found::At(i) => {
                self.refs.set((local + 1, outer));
                self.column_at(i).map(Some)
            }
            // A qualifier that names a relation here binds here: a column
            // it lacks is not looked for in the queries around it.
            Found::Missing(_) if table.is_some_and(|t| self.scope.has_table(t)) => Ok(None),
            Found::Missing(_) => {
                let found = match self.outer {
                    Some(o) => o.resolve(table, name)?,
                    None => None,
                };
                self.refs.set((local, outer + usize::from(found.is_some())));
                Ok(found)
            }
        }
    }

    /// How many column references resolved here, and in an outer query.
    pub fn refs(&self) -> (usize, usize) {
        self.refs.get()
    }

    /// Whether this scope or an enclosing query's names a table `table`.
    pub fn has_table(&self, table: &str) -> bool {
        self.scope.has_table(table) || self.outer.is_some_and(|o| o.has_table(table))
    }
}

/// How good an invented column name is: a low one (a type's name for a
/// cast, `case`) gives way to a high one found inside it.
#[derive(PartialEq)]
enum Quality {
    Low,
    High,
}

/// The name of the output column `e` produces when it has no alias, as
/// Materialize's `invent_column_name` invents it (PostgreSQL's rules of
/// high and low quality names), `?column?` when it invents none.
/// `subquery` names a scalar subquery `(SELECT ...)` by its first column.
pub(in crate::sql) fn output_name(e: &Expr, subquery: &dyn Fn(&Expr) -> Option<String>) -> String {
    invent(e, subquery).map_or("?column?".into(), |(name, _)| name)
}

fn invent(e: &Expr, subquery: &dyn Fn(&Expr) -> Option<String>) -> Option<(String, Quality)> {
    let high = |name: String| Some((name, Quality::High));
    match e {
        Expr::Identifier(name) => high(ident(name)),
        Expr::CompoundIdentifier(parts) => high(ident(parts.last()?)),
        Expr::Nested(inner) => invent(inner, subquery),
        Expr::Function(f) if list::is_constructor(f) => high("list".into()),
        Expr::Function(f)
            if aggregate_call(f).is_ok()
                || f.over.is_some()
                || function_name(f) == "coalesce"
                || is_scalar_function(&function_name(f)) =>
        {
            high(function_name(f))
        }
        Expr::Substring { .. }
        | Expr::Position { .. }
        | Expr::Trim { .. }
        | Expr::Ceil { .. }
        | Expr::Floor { .. }
        | Expr::Extract { .. } => high(special_form(e).ok()?.0.into()),
        // `TRUE` is `'t'::boolean` to the real system, named as a cast is.
        Expr::Value(v) if matches!(v.value, Value::Boolean(_)) => high("bool".into()),
        Expr::Exists { .. } => high("exists".into()),
        // A subscript (`a[1]`, `j['k']`) is named as what it subscripts.
        Expr::CompoundFieldAccess { root, access_chain }
            if access_chain
                .iter()
                .all(|a| matches!(a, AccessExpr::Subscript(_))) =>
        {
            invent(root, subquery)
        }
        Expr::Subquery(_) => high(subquery(e)?),
        // A CASE is named by its ELSE, a cast by what it casts, when that
        // has a high quality name; else `case`, or the type's internal name.
        Expr::Case { else_result, .. } => {
            match else_result.as_deref().and_then(|e| invent(e, subquery)) {
                Some((name, Quality::High)) => high(name),
                _ => Some(("case".into(), Quality::Low)),
            }
        }
        Expr::Cast {
            expr, data_type, ..
        } => match invent(expr, subquery) {
            Some((name, Quality::High)) => high(name),
            _ => Some((
                scalar_type(data_type).ok()?.internal_name().into(),
                Quality::Low,
            )),
        },
        // `INTERVAL '...'` and `DATE '...'` are the real system's casts of
        // a string literal.
        Expr::Interval(_) => Some(("interval".into(), Quality::Low)),
        Expr::TypedString(t) => Some((
            scalar_type(&t.data_type).ok()?.internal_name().into(),
            Quality::Low,
        )),
        _ => None,
    }
}

/// Whether a bare name is a call of a function, as Materialize's
/// `FuncRewriter` makes it before any name resolves: `current_timestamp`
/// is the function even where a column, an alias or an output column has
/// that name, quoted or not (its names are compared once normalized).
pub(in crate::sql) fn is_function_keyword(name: &str) -> bool {
    matches!(
        name,
        "current_catalog"
            | "current_role"
            | "current_schema"
            | "current_timestamp"
            | "current_user"
            | "session_user"
    )
}

/// A name that is no column, refused if it is one of SQL's functions called
/// without parentheses (`current_date`): else `e`. The names
/// [`is_function_keyword`] holds never reach here: they are calls before
/// any column is looked up.
pub(super) fn not_a_column(name: String, e: String) -> String {
    const NILADIC: &[&str] = &[
        "current_date",
        "current_time",
        "localtime",
        "localtimestamp",
        "system_user",
        "user",
    ];
    match NILADIC.contains(&name.as_str()) {
        true => unsupported(format!("function {name}")),
        false => e,
    }
}
