//! The functions of the connection a query runs on: `current_user`,
//! `current_role`, `user()` and `session_user` (the acting role's name:
//! the engine has no `SET ROLE`), `current_database` and
//! `current_catalog` (the variable `database`, which need not name one),
//! `current_schema` (the search path's first schema that exists, else
//! NULL) and `current_schemas(bool)` (those that exist, after
//! `mz_catalog` and `pg_catalog` where the path leaves them out and the
//! argument is true: Materialize's `effective_search_path` without the
//! temporary schema), and `has_role` and `pg_has_role` of
//! role names. Materialize evaluates them once, before a one-off query
//! runs (its unmaterializable functions, and `pg_has_role`'s SQL over
//! `mz_roles` and `mz_role_oid_memberships`), so they are planned as
//! literals, and only in a one-off query: the planner of a top-level query
//! holds the connection (`Resolver::session`) here while it plans it
//! (`with_session`), so every expression of that query, its subqueries
//! among them, reads it, and nothing else does; in a view, which Materialize
//! evaluates when it is read, and anywhere else they are refused by name.
//!
//! `has_role` is answered for literal role names that exist and a literal
//! privilege `USAGE` or `MEMBER`, as the bootstrap role or the superuser;
//! an oid, NULL, an unknown role or another privilege, whose errors and
//! their order are Materialize's `pg_has_role` SQL's, are refused by name.

use std::cell::RefCell;

use sqlparser::ast::{Expr, Function, FunctionArguments, Value};

use super::{function_name, plain_args, ExprContext, Typed};
use crate::plan::{ScalarExpr, Session};
use crate::repr::array::{Array, ArrayElem};
use crate::repr::{unsupported, Datum, ScalarType};

/// The names of the connection's functions the engine plans.
pub fn is_session_function(name: &str) -> bool {
    matches!(
        name,
        "current_user"
            | "current_role"
            | "user"
            | "session_user"
            | "has_role"
            | "pg_has_role"
            | "current_schema"
            | "current_schemas"
            | "current_database"
            | "current_catalog"
    )
}

/// The connection's functions that Materialize's parser reads without
/// parentheses.
pub fn is_niladic_session_function(name: &str) -> bool {
    matches!(
        name,
        "current_user" | "current_role" | "session_user" | "current_schema" | "current_catalog"
    )
}

/// The schemas Materialize's `effective_search_path` puts before the path
/// unless it names them.
const IMPLICIT_SCHEMAS: [&str; 2] = ["mz_catalog", "pg_catalog"];

thread_local! {
    /// The connection of the one-off query being planned.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Runs `plan` with `session` as the connection its expressions read, and
/// forgets it after, however `plan` ends.
pub fn with_session<T>(session: Option<&Session>, plan: impl FnOnce() -> T) -> T {
    struct Forget;
    impl Drop for Forget {
        fn drop(&mut self) {
            SESSION.with(|s| s.borrow_mut().take());
        }
    }
    SESSION.with(|s| *s.borrow_mut() = session.cloned());
    let _forget = Forget;
    plan()
}

/// The connection, if a one-off query is being planned.
fn session(name: &str) -> Result<Session, String> {
    SESSION
        .with(|s| s.borrow().clone())
        .ok_or_else(|| unsupported(format!("function {name} outside a one-off query")))
}

impl ExprContext<'_> {
    /// `current_user` and its kin, written without parentheses.
    pub(super) fn niladic_session_call(&self, name: &str) -> Result<Typed, String> {
        let session = session(name)?;
        let text = match name {
            "current_database" | "current_catalog" => Some(session.database),
            "current_schema" => session.schemas.into_iter().next(),
            _ => Some(session.user),
        };
        let nullable = text.is_none();
        let datum = text.map_or(Datum::Null, Datum::Text);
        Ok(Typed::new(
            ScalarExpr::Literal(datum),
            ScalarType::Text,
            nullable,
        ))
    }

    /// `current_schemas(b)`: Materialize's `if_then_else` of `b` over the
    /// two lists, so a NULL `b` gives the list without the system schemas.
    fn current_schemas(&mut self, session: Session, arg: &Expr) -> Result<Typed, String> {
        let arg = self.plan(arg)?.coerce(ScalarType::Bool)?;
        if arg.typ != Some(ScalarType::Bool) {
            return Err(unsupported(
                "function current_schemas of an argument not boolean",
            ));
        }
        let list = |schemas: Vec<String>| {
            let datums = schemas.into_iter().map(Datum::Text).collect();
            ScalarExpr::Literal(Datum::Array(Box::new(Array::list(datums))))
        };
        let implicit = IMPLICIT_SCHEMAS.iter().map(|s| s.to_string());
        let implicit = implicit.filter(|s| !session.schemas.contains(s));
        let with_system = implicit.chain(session.schemas.iter().cloned()).collect();
        let expr = ScalarExpr::Case {
            whens: vec![(arg.expr, list(with_system))],
            els: Box::new(list(session.schemas)),
        };
        Ok(Typed::new(expr, ScalarType::Array(ArrayElem::Text), false))
    }

    /// A call of one of the functions [`is_session_function`] names.
    pub(super) fn session_call(&mut self, f: &Function) -> Result<Typed, String> {
        let name = function_name(f);
        let name = name.as_str();
        let session = session(name)?;
        // `current_user` without parentheses, as sqlparser reads it.
        if matches!(f.args, FunctionArguments::None) && is_niladic_session_function(name) {
            return self.niladic_session_call(name);
        }
        let args = plain_args(f)?;
        match (name, args.as_slice()) {
            ("current_schemas", [arg]) => return self.current_schemas(session, arg),
            ("current_schemas", args) => {
                return Err(unsupported(format!(
                    "function {name} of {} arguments",
                    args.len()
                )))
            }
            _ => {}
        }
        if !matches!(name, "has_role" | "pg_has_role") {
            return match args.is_empty() {
                true => self.niladic_session_call(name),
                false => Err(unsupported(format!(
                    "function {name} of {} arguments",
                    args.len()
                ))),
            };
        }
        let literals: Option<Vec<&str>> = args.iter().map(|a| text_literal(a)).collect();
        let refused = || unsupported(format!("function {name} of these arguments"));
        let literals = literals.ok_or_else(refused)?;
        let (member, role, privilege) = match literals.as_slice() {
            [member, role, privilege] => (*member, *role, *privilege),
            [role, privilege] => (session.user.as_str(), *role, *privilege),
            _ => return Err(refused()),
        };
        let memberships = session
            .memberships
            .as_ref()
            .ok_or_else(|| unsupported(format!("function {name} as role {}", session.user)))?;
        let privilege = privilege.to_uppercase();
        let valid = privilege == "USAGE" || privilege == "MEMBER";
        match (memberships.get(member), memberships.contains_key(role)) {
            (Some(of), true) if valid => Ok(Typed::new(
                ScalarExpr::Literal(Datum::Bool(of.contains(role))),
                ScalarType::Bool,
                false,
            )),
            _ => Err(refused()),
        }
    }
}

/// The text of a string literal argument.
fn text_literal(e: &Expr) -> Option<&str> {
    match e {
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}
