//! The session variables a connection keeps, as Materialize's
//! `SessionVars` keeps them (`sql/src/session/vars.rs`, their definitions
//! in `vars/definitions.rs`): each one's name, default, kind of value and
//! rule, and the planning of `SET`, `RESET` and `SHOW` of one, with
//! Materialize's errors in its order (`SessionVars::set`: a read-only
//! name, an unknown one, the value read, then its constraint).
//!
//! A variable whose other values would change what the engine does not
//! model (the cluster, the isolation level, a timeout) is kept at its
//! default and refused by name at any other value; one whose value
//! changes nothing a statement answers (`application_name`,
//! `extra_float_digits`, which Materialize keeps but never reads) is kept
//! and shown; the few Materialize's session has that the engine does not
//! keep are refused by name.

mod value;

use std::collections::BTreeMap;

use super::names::system_schema;
use crate::plan::{Path, Statement};
use crate::repr::{quoted, unsupported};
use value::Kind;

/// What a `SET` may do to a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Any value of its kind.
    Kept,
    /// Only its default: another value changes what the engine does not
    /// model, so it is refused by name.
    DefaultOnly,
    /// Only its default, Materialize's `fixed`: another value is its
    /// error `can only be set to`.
    Fixed,
    /// No value, Materialize's `read_only` constraint: `cannot be
    /// changed` once the value is read; a `RESET` does nothing.
    ReadOnly,
    /// Neither `SET` nor `RESET`, Materialize's `check_read_only`: `cannot
    /// be changed` before anything else.
    Locked,
}

/// A session variable: its name as Materialize spells it, its kind, its
/// default as `SHOW` prints it, and its rule.
struct Var {
    name: &'static str,
    kind: Kind,
    default: &'static str,
    rule: Rule,
}

const fn var(name: &'static str, kind: Kind, default: &'static str, rule: Rule) -> Var {
    Var {
        name,
        kind,
        default,
        rule,
    }
}

/// Materialize's `IsolationLevel`: the levels below serializable are
/// serializable; none but the default is kept.
const ISOLATION: &[(&str, &str)] = &[
    ("strong session serializable", "strong session serializable"),
    ("read uncommitted", "serializable"),
    ("read committed", "serializable"),
    ("repeatable read", "serializable"),
    ("serializable", "serializable"),
    ("strict serializable", "strict serializable"),
];

/// Materialize's `ClientSeverity`, `debug` read as `debug2`.
const SEVERITY: &[(&str, &str)] = &[
    ("error", "error"),
    ("warning", "warning"),
    ("notice", "notice"),
    ("info", "info"),
    ("log", "log"),
    ("debug1", "debug1"),
    ("debug2", "debug2"),
    ("debug", "debug2"),
    ("debug3", "debug3"),
    ("debug4", "debug4"),
    ("debug5", "debug5"),
];

/// Materialize's `TimeZone`: only the zones equal to UTC.
const ZONES: &[(&str, &str)] = &[("UTC", "UTC"), ("GMT", "GMT"), ("+00:00", "+00:00")];

use Kind::{Bool, Choice, Duration, Identifiers, Integer, OptionalText, Text, Unsigned};
use Rule::{DefaultOnly, Fixed, Kept, Locked, ReadOnly};

/// The variables, by Materialize's names and defaults.
const VARS: &[Var] = &[
    var("application_name", Text, "", Kept),
    var("auto_route_catalog_queries", Bool, "on", Kept),
    var("client_encoding", Choice(&[("UTF8", "UTF8")]), "UTF8", Kept),
    var("client_min_messages", Choice(SEVERITY), "notice", Kept),
    // The engine has one cluster; Materialize's default is `quickstart`.
    var("cluster", Text, "quickstart", DefaultOnly),
    var("cluster_replica", OptionalText, "", DefaultOnly),
    var("current_object_missing_warnings", Bool, "on", Kept),
    // It need not name a database that exists (`plan::search_schemas`).
    var("database", Text, "materialize", Kept),
    var("DateStyle", Kind::DateStyle, value::DATE_STYLE, Kept),
    var("default_cluster_replication_factor", Unsigned, "1", Kept),
    var("emit_introspection_query_notice", Bool, "on", Kept),
    var("emit_plan_insights_notice", Bool, "off", Kept),
    var("emit_timestamp_notice", Bool, "off", Kept),
    var("emit_trace_id_notice", Bool, "off", Kept),
    // On, it would check privileges the engine does not model.
    var("enable_session_rbac_checks", Bool, "off", DefaultOnly),
    var("extra_float_digits", Integer, "3", Kept),
    var(
        "idle_in_transaction_session_timeout",
        Duration,
        "2 min",
        DefaultOnly,
    ),
    var("integer_datetimes", Bool, "on", Fixed),
    var(
        "IntervalStyle",
        Choice(&[("postgres", "postgres")]),
        "postgres",
        Kept,
    ),
    var("max_identifier_length", Unsigned, "255", Locked),
    var("search_path", Identifiers, "public", Kept),
    var("server_version", Text, "9.5.0", ReadOnly),
    var("server_version_num", Integer, "90500", ReadOnly),
    var("sql_safe_updates", Bool, "off", Kept),
    var("standard_conforming_strings", Bool, "on", Fixed),
    var("statement_timeout", Duration, "1 min", DefaultOnly),
    var("TimeZone", Choice(ZONES), "UTC", Kept),
    var(
        "transaction_isolation",
        Choice(ISOLATION),
        "strict serializable",
        DefaultOnly,
    ),
    var("welcome_message", Bool, "on", Kept),
];

/// Materialize's session variables the engine does not keep: refused by
/// name, whatever the statement.
const REFUSED: [&str; 7] = [
    "enable_session_cardinality_estimates",
    "failpoints",
    "max_query_result_size",
    "real_time_recency",
    "real_time_recency_timeout",
    "statement_logging_sample_rate",
    "unsafe_new_transaction_wall_time",
];

/// Names Materialize's `check_read_only` holds beside
/// `max_identifier_length`, which the engine does not show.
const LOCKED: [&str; 2] = ["mz_version", "is_superuser"];

/// The variable `name` names, in any case, as Materialize looks it up.
fn lookup(name: &str) -> Result<&'static Var, String> {
    if let Some(refused) = REFUSED
        .iter()
        .chain(&LOCKED)
        .find(|r| r.eq_ignore_ascii_case(name))
    {
        return Err(unsupported(format!("the variable {refused}")));
    }
    VARS.iter()
        .find(|v| v.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unrecognized configuration parameter {}", quoted(name)))
}

/// Materialize's `check_read_only`, before the name is looked up.
fn check_locked(name: &str) -> Result<(), String> {
    match LOCKED
        .iter()
        .chain(["max_identifier_length"].iter())
        .find(|l| l.eq_ignore_ascii_case(name))
    {
        Some(l) => Err(format!("parameter {} cannot be changed", quoted(l))),
        None => Ok(()),
    }
}

/// `SET name {= | TO} values`; `None`: `SET name TO DEFAULT`, a reset.
pub(super) fn set(name: &str, values: Option<&[String]>) -> Result<Statement, String> {
    check_locked(name)?;
    let var = lookup(name)?;
    let Some(values) = values else {
        return Ok(reset_of(var));
    };
    let value = value::parse(var.name, var.kind, values)?;
    if var.name == "search_path" {
        path_refusal(values)?;
    }
    match var.rule {
        Rule::ReadOnly => Err(format!("parameter {} cannot be changed", quoted(var.name))),
        Rule::Fixed if value != var.default => Err(format!(
            "parameter {} can only be set to {}",
            quoted(var.name),
            quoted(var.default)
        )),
        Rule::DefaultOnly if value != var.default => Err(unsupported(format!(
            "SET {} to a value other than {}",
            var.name,
            match var.default {
                "" => "none",
                d => d,
            }
        ))),
        _ => Ok(Statement::SetVariable {
            name: var.name,
            value: Some(value),
        }),
    }
}

/// Refuses a search path the engine's resolution would not follow: the
/// engine finds its system relations before any user schema, as
/// Materialize does while the path names no system schema after another
/// schema; and it has no temporary schema.
fn path_refusal(values: &[String]) -> Result<(), String> {
    let user = values.iter().position(|v| !system_schema(v));
    let mut late = values.iter().skip(user.unwrap_or(values.len()));
    if let Some(system) = late.find(|v| system_schema(v)) {
        return Err(unsupported(format!(
            "SET search_path naming a system schema after another schema: {system}"
        )));
    }
    match values.iter().any(|v| v == "mz_temp") {
        true => Err(unsupported("SET search_path naming mz_temp")),
        false => Ok(()),
    }
}

/// `RESET name`.
pub(super) fn reset(name: &str) -> Result<Statement, String> {
    check_locked(name)?;
    lookup(name).map(reset_of)
}

fn reset_of(var: &'static Var) -> Statement {
    Statement::SetVariable {
        name: var.name,
        value: None,
    }
}

/// Whether `SHOW name` is planned here: a variable the engine keeps or
/// refuses by name, `ALL` or `SCHEMA`.
pub(super) fn shown(name: &str) -> bool {
    ["all", "schema"]
        .iter()
        .chain(&REFUSED)
        .chain(&LOCKED)
        .any(|n| n.eq_ignore_ascii_case(name))
        || VARS.iter().any(|v| v.name.eq_ignore_ascii_case(name))
}

/// `SHOW name`: one row, the variable's value, in a column named as the
/// statement names the variable.
pub(super) fn show(name: &str) -> Result<Statement, String> {
    if name.eq_ignore_ascii_case("all") {
        return Err(unsupported("SHOW ALL"));
    }
    if name.eq_ignore_ascii_case("schema") {
        return Err(unsupported("SHOW SCHEMA"));
    }
    let var = lookup(name)?;
    Ok(Statement::ShowVariable {
        name: var.name,
        column: name.to_string(),
    })
}

/// A connection's variables: the values set, by name; the rest are their
/// defaults.
#[derive(Clone, Debug, Default)]
pub struct Vars(BTreeMap<&'static str, String>);

impl Vars {
    /// Sets `name` to `value`; `None`: back to its default.
    pub fn set(&mut self, name: &'static str, value: Option<String>) {
        match value {
            Some(value) => self.0.insert(name, value),
            None => self.0.remove(name),
        };
    }

    /// The current database and search path, as resolution reads them.
    pub fn path(&self) -> Path {
        Path {
            database: self.get("database").to_string(),
            schemas: value::unprinted(self.get("search_path")),
        }
    }

    /// The value of `name`, as `SHOW` prints it.
    pub fn get(&self, name: &'static str) -> &str {
        match self.0.get(name) {
            Some(value) => value,
            None => VARS
                .iter()
                .find(|v| v.name == name)
                .map_or("", |v| v.default),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::ident::MAX_IDENTIFIER_BYTES;

    /// The table writes defaults as text; the one bound the engine also
    /// enforces must be the bound it enforces.
    #[test]
    fn max_identifier_length_shows_the_enforced_bound() {
        let var = lookup("max_identifier_length").expect("a variable");
        assert_eq!(var.default, MAX_IDENTIFIER_BYTES.to_string());
    }
}
